"""Hardware facts about NVIDIA GPUs, as plain Python data: no IR, no xDSL."""

"""Hardware facts of Hopper tensor cores and of ptxas's synchronization, as plain Python: no
IR, no xDSL."""
