"""Hardware facts about NVIDIA GPUs, as plain Python data: no IR, no xDSL."""
