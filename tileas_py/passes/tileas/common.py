"""What the tileas passes share: which ops are functions, which are elementwise."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.traits import IsTerminator

from tileas_py.diagnostics import emit_error
from tileas_py.dialects import nv_tileaa, nv_tileas

FUNCTION_LIKE = (func.FuncOp, llvm.FuncOp, nv_tileaa.FuncOp, nv_tileas.KernelOp)
"""The ops tileiras's FunctionOpInterface-scoped passes run on."""

ELEMENTWISE_DIALECTS = ("arith", "math")

TILE_DIALECT_PREFIXES = ("nv_tileas.", "nv_tileaa.", "cute_nvgpu.")


def function_like_ops(module: ModuleOp) -> Iterator[Operation]:
    """Every function-like op in `module` (nested modules included), in program order."""
    for op in module.walk():
        if isinstance(op, FUNCTION_LIKE):
            yield op


def is_elementwise(op: Operation) -> bool:
    """An arith / math op computing tiles element by element."""
    return (
        op.name.split(".", 1)[0] in ELEMENTWISE_DIALECTS
        and bool(op.results)
        and all(isinstance(r.type, TensorType) for r in op.results)
    )


def is_layout_agnostic(op: Operation) -> bool:
    """Tile-dialect ops read tile operands in any layout (terminators excepted)."""
    return op.name.startswith(TILE_DIALECT_PREFIXES) and not op.has_trait(IsTerminator)


def rewrite_to_fixed_point(
    patterns: Sequence[RewritePattern],
    function: Operation,
    max_iterations: int,
    failure: str,
) -> None:
    """Sweep `patterns` over a function until a sweep changes nothing.

    Like MLIR's greedy driver with `maxIterations`: when the IR still changes after
    `max_iterations` sweeps, the pass fails with `failure`, located at the function.
    """
    walker = PatternRewriteWalker(
        GreedyRewritePatternApplier(list(patterns), dce_enabled=False),
        apply_recursively=False,
    )
    for _ in range(max_iterations):
        if not walker.rewrite_region(function.regions[0]):
            return
    emit_error(function, failure)
