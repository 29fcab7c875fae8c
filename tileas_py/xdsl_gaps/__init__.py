"""Where xDSL 0.74 falls short of MLIR, and what tileas-py does about it, in one place.

Each module is a narrow fix to remove once xDSL has its own (most were found by fuzzing
`tileas-opt`, see docs/robustness.md):

- `parsing`: a lexer without exponential backtracking and a parser that turns exceptions
  raised inside xDSL's op parsers into parse errors;
- `comparison_predicates`: the range check on `arith.cmpi` / `cmpf` / `llvm.icmp` / `fcmp`
  predicates that MLIR's enum attributes make;
- `dominance`: MLIR's SSA dominance rule;
- `printing`: the `mlir` output target, writing the same text as xDSL's with far fewer
  calls;
- `verification`: IRDL verification that skips its generic checks for an op that shows
  it has the ordinary shape (the ori instructions and registers, built by the thousand).

`tileas_py.dialects.gpu` is the other gap: upstream's `gpu.module` with its targets, loaded
in place of xDSL's. The modules import nothing from one another and this file imports none
of them, so that `tileas_py.diagnostics` can use `parsing` without a cycle.
"""
