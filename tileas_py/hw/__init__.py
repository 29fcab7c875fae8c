"""Hardware facts about NVIDIA GPUs (tensor cores, descriptors, ptxas diagnostics and
synchronization), as plain Python data: no IR, no xDSL."""
