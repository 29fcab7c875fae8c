"""`tileas-remove-buffer-alias`: collapse buffer aliases (TileASRemoveBufferAliasPass, D20).

A buffer is a tile in shared memory (`#nv_tileas.shared`). `arith.select`, the
loop-carried values of `scf.for` / `scf.while`, `scf.if` results, `nv_tileas.copy`
(which returns its destination) and `nv_tileas.pragma` produce aliases: values that may
name one of several buffers. Downstream buffer allocation wants each use to name its
buffer directly.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tileas_py.analysis.ssa import defining_block
from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas import ConvertLayoutOp, CopyOp, PragmaOp, is_shared
from tileas_py.passes.tileas.common import function_like_ops

FAILED_TO_CONVERGE = "TileASRemoveBufferAliasPass failed to converge"
NOT_SUPPORTED = "RemoveBufferAlias: not supported operation type"
YIELDED_ALIAS = "Yielded alias not implemented yet"

Roots = tuple[SSAValue, ...]


def union(*sets: Roots) -> Roots:
    return tuple(dict.fromkeys(r for s in sets for r in s))


def region_yields(op: Operation) -> Iterator[scf.YieldOp]:
    for region in op.regions:
        for block in region.blocks:
            if isinstance(block.last_op, scf.YieldOp):
                yield block.last_op


class BufferAliases:
    """Which buffers (roots) each buffer value of a function may name."""

    def __init__(self, function: Operation) -> None:
        self.function = function
        self.roots: dict[SSAValue, Roots] = {}
        self.values = [v for v in self.buffer_values() if is_shared(v.type)]

    def buffer_values(self) -> Iterator[SSAValue]:
        for block in self.function.walk_blocks():
            yield from block.args
            for op in block.ops:
                yield from op.results

    def solve(self, max_iterations: int) -> None:
        for _ in range(max_iterations):
            changed = False
            for value in self.values:
                roots = self.compute(value)
                if roots != self.roots.get(value):
                    self.roots[value] = roots
                    changed = True
            if not changed:
                return
        emit_error(self.function, FAILED_TO_CONVERGE)

    def of(self, value: SSAValue) -> Roots:
        return self.roots.get(value, ())

    def compute(self, value: SSAValue) -> Roots:
        if isinstance(value, BlockArgument):
            return self.compute_block_argument(value)
        assert isinstance(value, OpResult)
        op, i = value.op, value.index
        match op:
            case arith.SelectOp():
                return union(self.of(op.lhs), self.of(op.rhs))
            case CopyOp():
                return self.of(op.dest)
            case PragmaOp():
                return self.of(op.input)
            case scf.ForOp():
                return union(
                    self.of(op.iter_args[i]),
                    *(self.of(y.arguments[i]) for y in region_yields(op)),
                )
            case scf.IfOp():
                return union(*(self.of(y.arguments[i]) for y in region_yields(op)))
            case scf.WhileOp():
                return self.of(op.after_region.block.args[i])
            case ConvertLayoutOp():
                return (value,)
            case _:
                if any(is_shared(operand.type) for operand in op.operands):
                    emit_error(op, NOT_SUPPORTED)
                return (value,)

    def compute_block_argument(self, value: BlockArgument) -> Roots:
        parent = value.block.parent_op()
        i = value.index
        if isinstance(parent, scf.ForOp) and i > 0:
            return self.of(parent.results[i - 1])
        if isinstance(parent, scf.WhileOp):
            if value.block.parent is parent.before_region:
                after_yield = parent.after_region.block.last_op
                yielded = (
                    self.of(after_yield.arguments[i])
                    if isinstance(after_yield, scf.YieldOp)
                    else ()
                )
                return union(self.of(parent.arguments[i]), yielded)
            condition = parent.before_region.block.last_op
            assert isinstance(condition, scf.ConditionOp)
            return self.of(condition.args[i])
        return (value,)


def check_while_yields(aliases: BufferAliases) -> None:
    """A `scf.while` may carry a buffer only when each iteration yields the same one."""
    for op in aliases.function.walk():
        if not isinstance(op, scf.WhileOp):
            continue
        after_yield = op.after_region.block.last_op
        if not isinstance(after_yield, scf.YieldOp):
            continue
        for init, yielded in zip(op.arguments, after_yield.arguments, strict=True):
            if is_shared(yielded.type) and aliases.of(yielded) != aliases.of(init):
                emit_error(after_yield, YIELDED_ALIAS)


def dominates(root: SSAValue, value: SSAValue) -> bool:
    """Whether `root` is visible where `value` is defined (same or enclosing block)."""
    target = defining_block(root)
    block = defining_block(value)
    while block is not None:
        if block is target:
            return True
        parent = block.parent_op()
        block = parent.parent_block() if parent is not None else None
    return False


def collapse(aliases: BufferAliases) -> None:
    """Make every use of a single-buffer alias use that buffer; drop dead selects."""
    for value in aliases.values:
        roots = aliases.of(value)
        if len(roots) != 1 or roots[0] is value or not dominates(roots[0], value):
            continue
        value.replace_all_uses_with(roots[0])
    for op in reversed(list(aliases.function.walk())):
        if (
            isinstance(op, arith.SelectOp | PragmaOp)
            and not op.results[0].uses
            and is_shared(op.results[0].type)
        ):
            Rewriter.erase_op(op)


@dataclass(frozen=True)
class RemoveBufferAliasPass(ModulePass):
    """
    Collapses buffer aliases (tileiras's `TileASRemoveBufferAliasPass`).

    For each function-like op, computes to a fixed point which buffers (roots:
    `alloc_tensor` and `convert_layout` results, function arguments, pipeline slots,
    results of other ops that produce a buffer from no buffer) every buffer value may name, through `arith.select`,
    `nv_tileas.copy`, `nv_tileas.pragma`, and the iter_args / results / yields of
    `scf.for`, `scf.if` and `scf.while`. Every alias that names exactly one buffer is
    replaced by that buffer in all its uses, and dead buffer selects are erased; aliases
    of several buffers (a ping-pong `scf.for`) stay for the allocator. Loop-carried
    block arguments and results that become unused are left to `canonicalize`.

    Diagnostics:
    - "TileASRemoveBufferAliasPass failed to converge": the fixed point is not reached
      within `max-iterations` rounds over the function;
    - "RemoveBufferAlias: not supported operation type": some other op produces a buffer
      from a buffer operand (it might alias it);
    - "Yielded alias not implemented yet": an `scf.while` yields a buffer other than the
      one it was entered with.

    Before:
    ```
    %a = nv_tileas.alloc_tensor : tensor<64x64xf16, #shared>
    %s = arith.select %c, %a, %a : tensor<64x64xf16, #shared>
    %w = nv_tileas.copy %x, %s : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #shared>
    ```
    After:
    ```
    %a = nv_tileas.alloc_tensor : tensor<64x64xf16, #shared>
    %w = nv_tileas.copy %x, %a : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #shared>
    ```
    """

    name = "tileas-remove-buffer-alias"

    max_iterations: int = 10
    """Rounds over the function before the alias analysis gives up (at least 2 when there
    are buffers: one to compute, one to confirm; loops need one more per back edge)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in list(function_like_ops(op)):
            aliases = BufferAliases(function)
            aliases.solve(self.max_iterations)
            check_while_yields(aliases)
            collapse(aliases)
