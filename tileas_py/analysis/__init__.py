"""Dialect-independent program analyses, one home for each.

- `cfg`: reverse postorder, dominators, post-dominators and control dependence over
  plain successor lists;
- `liveness`: backward liveness with register sets as int bit vectors;
- `divergence`: which ori registers and branches differ between the threads of a warp
  (`WarpUniformity`) and of a warpgroup (`WarpgroupDivergence`), from one table of
  special registers;
- `enclosing`: what the modules enclosing an op say about it (their attributes).

The dialects adapt their IR to these (`tileas_py.dialects.ori.analysis` walks ori blocks
into successor lists); the algorithms live only here. The modules are imported one by
one (`from tileas_py.analysis.cfg import ...`): this package imports none of them.
"""
