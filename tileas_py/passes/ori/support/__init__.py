"""What the ori passes share, none of it a pass itself.

- `common`: the target, the functions of a module, new SASS ops, calls;
- `convergence`: where a warp may be diverged (behind WARPSYNC and BSSY / BSYNC);
- `scoreboards`: the scoreboard level of phases 99, 100 and 114;
- `scoreboard_phase`: what phases 99 and 100 share (the -O gate, the per-function walk,
  the waits for late work);
- `sync_events`, `sync_redundancy`: what an instruction means to the redundancy proofs of
  phases 26 and 71, and the proofs themselves;
- `gmma`: the model of ptxas's GMMA phases (85 OriPropagateGmma, 87 FixupGmmaSequence).
"""
