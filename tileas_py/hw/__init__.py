"""Hardware facts of Hopper tensor cores and of ptxas's synchronization, as plain Python: no
IR, no xDSL."""
