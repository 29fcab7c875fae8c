"""Writes `docs/nvvm-coverage.md`: how the `nvvm` dialect covers upstream MLIR's.

The page is generated from the dialect, so that it cannot drift from it: for each op of
upstream's NVVM dialect in LLVM 22.1.8 (`tileas_py.dialects.nvvm.upstream`) it names the
class that implements it, its family (module), how it reads and prints (upstream's
declarative format, interpreted by `tileas_py.dialects.nvvm.asm`, or a hand-written
parser for the ops upstream writes one for), what it verifies beyond the ODS constraints,
the targets it is gated on, and the checks tileas-py adds to upstream's.

    python -m tileas_py.tools.nvvm_coverage > docs/nvvm-coverage.md
    python -m tileas_py.tools.nvvm_coverage --write      # the same, in place
    python -m tileas_py.tools.nvvm_coverage --check      # exit 1 when the page is stale
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from xdsl.ir import Operation

from tileas_py.dialects.nvvm import NVVM
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.target import TargetSMTrait
from tileas_py.dialects.nvvm.upstream import UPSTREAM_OPS, UPSTREAM_VERSION
from tileas_py.tools.generated_page import page_main

DOCS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "nvvm-coverage.md"

HEADER = f"""\
# NVVM dialect coverage

Generated from the dialect by `python -m tileas_py.tools.nvvm_coverage --write`; do not
edit by hand (a test fails when this page and the code disagree).

The `nvvm` dialect follows upstream MLIR's NVVM dialect of LLVM {UPSTREAM_VERSION}: op
names, custom syntax, properties, verifier rules and messages. Every op below is checked
against the real mlir-opt {UPSTREAM_VERSION} by the peer check
(`test/dialects/nvvm/peer/`, results in [fidelity.md](fidelity.md)): both tools must
print it the same way in custom and generic form and reject the same bad input with the
same message.

Columns: **Syntax** is `format` for upstream's declarative assembly format and `custom`
for a hand-written parser and printer (where upstream writes one in C++); **Verifier** is
`ODS` for the generated checks only (types, counts, attributes) and `ODS + rules` when
the op also has upstream's hand-written rules; **Targets** are the SMs the op is gated
on (`NVVMRequiresSM` and friends), checked against the module's `nvvm.target`;
**tileas-py adds** names checks that are not upstream's.
"""


def syntax(op: type[NVVMOp]) -> str:
    return "format" if op.FORMAT else "custom"


def _has_rules(verify: object) -> bool:
    """Whether a `verify_` checks anything of its own. `irdl_op_definition` wraps the
    class's `verify_` (or the one it inherits) in a closure that runs the IRDL checks
    first; the wrapped function is in that closure."""
    if verify is Operation.verify_:
        return False
    if getattr(verify, "__qualname__", "").endswith("<locals>.verify_"):
        cells = getattr(verify, "__closure__", None) or ()
        return any(
            _has_rules(cell.cell_contents)
            for cell in cells
            if getattr(cell.cell_contents, "__name__", "") == "verify_"
        )
    return callable(verify)


def verifier(op: type[Operation]) -> str:
    return "ODS + rules" if _has_rules(op.verify_) else "ODS"


def targets(op: type[Operation]) -> str:
    gates = [trait.describe() for trait in op.get_traits_of_type(TargetSMTrait)]
    return "; ".join(gates) or "any"


def row(name: str, ops: Mapping[str, type[Operation]]) -> str:
    op = ops.get(name)
    if op is None or not issubclass(op, NVVMOp):
        return f"| `{name}` | missing | | | | | |"
    family = op.__module__.rsplit(".", 1)[-1]
    extra = op.BEYOND_UPSTREAM or ""
    return (
        f"| `{name}` | `{op.__name__}` | {family} | {syntax(op)} | {verifier(op)} "
        f"| {targets(op)} | {extra} |"
    )


def reference() -> str:
    """The whole page: a summary, then one row per upstream op, by name."""
    ops = {op.name: op for op in NVVM.operations}
    covered = [name for name in UPSTREAM_OPS if name in ops]
    extra = sorted(set(ops) - set(UPSTREAM_OPS))
    summary = [
        f"**{len(covered)} of {len(UPSTREAM_OPS)}** upstream ops are implemented"
        + ("." if not extra else f"; {len(extra)} ops are not upstream's: {extra}."),
        "",
        "| Op | Class | Family | Syntax | Verifier | Targets | tileas-py adds |",
        "|---|---|---|---|---|---|---|",
    ]
    rows = [row(name, ops) for name in sorted(UPSTREAM_OPS)]
    return "\n".join([HEADER, *summary, *rows, ""])


def main(argv: Sequence[str] | None = None) -> int:
    return page_main(
        argv,
        page=reference,
        path=DOCS_PAGE,
        module="tileas_py.tools.nvvm_coverage",
        description="Print docs/nvvm-coverage.md.",
        write_help="write the page",
    )


if __name__ == "__main__":
    sys.exit(main())
