"""tileas-py: an open model of NVIDIA's Hopper tile-compiler stack on xDSL.

The package models the tile dialects of `tileiras` (nv_tileaa, nv_tileas, cute_nvgpu),
MLIR's NVVM dialect, and a ptxas-like machine IR (`ori`) on which ptxas's WGMMA and
synchronisation phases run. `tileas-opt` drives it like `xdsl-opt`.
"""
