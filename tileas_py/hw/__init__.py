"""Hardware facts of Hopper tensor cores, as plain Python: no IR, no xDSL."""
