"""ptxas's phases on ori, one module per pass (seed 000: GMMA; seed 003: barriers and sync)."""
