"""`verify_comparison_predicates`: a check MLIR makes on xDSL's own dialects and xDSL 0.74
misses. The comparison predicates of `arith.cmpi` / `arith.cmpf` / `llvm.icmp` /
`llvm.fcmp` are MLIR enum attributes whose constraint allows only the listed cases; xDSL
takes any i64 and its printer then crashes with `IndexError` (found by fuzzing, see
docs/robustness.md). `tileas-opt` runs this before the first pass.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation

from tileas_py.diagnostics import PlainVerifyException, op_message

COMPARISON_PREDICATES = {
    "arith.cmpi": 10,
    "llvm.icmp": 10,
    "arith.cmpf": 16,
    "llvm.fcmp": 16,
}
"""How many predicates each comparison op has (numbered from 0, as in MLIR)."""


def verify_comparison_predicates(root: Operation) -> None:
    """Reject a comparison op of `root` whose predicate number names no predicate."""
    for op in root.walk():
        count = COMPARISON_PREDICATES.get(op.name)
        if count is None:
            continue
        predicate = op.properties.get("predicate")
        if isinstance(predicate, IntegerAttr) and 0 <= predicate.value.data < count:
            continue
        cases = ", ".join(str(i) for i in range(count))
        raise PlainVerifyException(
            op_message(
                op,
                "attribute 'predicate' failed to satisfy constraint: allowed 64-bit "
                f"signless integer cases: {cases}",
            ),
            op,
        )
