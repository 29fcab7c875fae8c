"""`tileas-slicing`: slice loops marked with `sliceCount` (TileASSlicingPass, D20).

Slicing a loop N ways puts N consecutive iterations (slices) into one iteration of a
loop with an N times larger step, so the scheduler can interleave the slices' work; the
iterations that do not fill a whole group run in a residual loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tileas_py.diagnostics import emit_error, op_message
from tileas_py.dialects.nv_tileas import (
    AgentLikeOpInterface,
    AllocTensorOp,
    CancelNextProgramIdOp,
    CreatePipelineOp,
    MBarrierCreateOp,
)
from tileas_py.passes.tileas.common import function_like_ops

SLICE_COUNT = "sliceCount"

MALFORMED_SLICE_COUNT = "The sliceCountneed to be aIntegerAttr"
UNSUPPORTED_OP = "unsupported op in Slicing pass"
UNSUPPORTED_LOWER_BOUND = "unsupported op to be a lower bound in slicing pass "
NO_INITIAL_FOR_OPERAND = " fail to get an initial forOperand in slicing pass "
NOT_EXPECTED_IN_SLICE = "is not expected inside sliced part in SlicingPass"

PER_LOOP_STATE = (
    AllocTensorOp,
    CreatePipelineOp,
    MBarrierCreateOp,
    CancelNextProgramIdOp,
    AgentLikeOpInterface,
)
"""Ops that must run once per original iteration context: allocations, pipeline and
barrier set-up, the tile scheduler, agents. Copying them into every slice would change
what the kernel allocates or schedules."""


def constant_int(value: SSAValue) -> int | None:
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def constant(value: int, value_type: Attribute) -> arith.ConstantOp:
    if isinstance(value_type, IndexType):
        return arith.ConstantOp.from_int_and_width(value, value_type)
    assert isinstance(value_type, IntegerType)
    return arith.ConstantOp.from_int_and_width(value, value_type.bitwidth)


class LoopSlicer:
    """Slices one `scf.for` N ways; see `SlicingPass`."""

    def __init__(self, loop: scf.ForOp, count: int, step: int) -> None:
        self.loop = loop
        self.count = count
        self.step = step
        self.index_type = loop.lb.type

    def insert(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(self.loop))
        return op.results[0]

    def split_point(self) -> tuple[SSAValue, bool] | None:
        """Where the sliced loop ends and the residual begins; whether a residual is
        needed. None when no whole group of slices fits."""
        loop, big_step = self.loop, self.count * self.step
        lb, ub = constant_int(loop.lb), constant_int(loop.ub)
        if lb is not None and ub is not None:
            trips = max(0, -(-(ub - lb) // self.step))
            groups = trips // self.count
            if groups == 0:
                return None
            split = self.insert(constant(lb + groups * big_step, self.index_type))
            return split, trips % self.count != 0
        span = self.insert(arith.SubiOp(loop.ub, loop.lb))
        zero = self.insert(constant(0, self.index_type))
        span = self.insert(arith.MaxSIOp(span, zero))
        big = self.insert(constant(big_step, self.index_type))
        groups = self.insert(arith.DivSIOp(span, big))
        covered = self.insert(arith.MuliOp(groups, big))
        return self.insert(arith.AddiOp(loop.lb, covered)), True

    def sliced_body(self) -> Block:
        old = self.loop.body.block
        block = Block(arg_types=old.arg_types)
        for new_arg, old_arg in zip(block.args, old.args, strict=True):
            new_arg.name_hint = old_arg.name_hint
        iv, carried = block.args[0], list(block.args[1:])
        for k in range(self.count):
            slice_iv = iv
            if k:
                offset = constant(k * self.step, self.index_type)
                add = arith.AddiOp(iv, offset)
                block.add_ops([offset, add])
                slice_iv = add.result
            mapper: dict[SSAValue, SSAValue] = {old.args[0]: slice_iv}
            mapper.update(zip(old.args[1:], carried, strict=True))
            for op in old.ops:
                if isinstance(op, scf.YieldOp):
                    carried = [mapper.get(v, v) for v in op.arguments]
                else:
                    block.add_op(op.clone(value_mapper=mapper))
        block.add_op(scf.YieldOp(*carried))
        return block

    def run(self) -> None:
        split = self.split_point()
        if split is None:
            return
        split_value, needs_residual = split
        loop = self.loop
        big_step = self.insert(constant(self.count * self.step, self.index_type))
        sliced = scf.ForOp(
            loop.lb, split_value, big_step, loop.iter_args, self.sliced_body()
        )
        Rewriter.insert_op(sliced, InsertPoint.before(loop))
        results: Sequence[SSAValue] = sliced.results
        if needs_residual:
            residual = scf.ForOp(
                split_value, loop.ub, loop.step, sliced.results, loop.body.clone()
            )
            residual.attributes |= loop.attributes
            Rewriter.insert_op(residual, InsertPoint.before(loop))
            results = residual.results
        sliced.attributes |= loop.attributes
        Rewriter.replace_op(loop, [], list(results))


def check_sliceable(loop: scf.ForOp) -> int:
    """The loop's constant step; reports what this model cannot slice."""
    lb = loop.lb
    if not isinstance(lb, BlockArgument) and constant_int(lb) is None:
        emit_error(loop, UNSUPPORTED_LOWER_BOUND)
    step = constant_int(loop.step)
    if step is None or step <= 0:
        emit_error(loop, NO_INITIAL_FOR_OPERAND)
    for op in loop.body.walk():
        if isinstance(op, PER_LOOP_STATE):
            emit_error(op, op_message(op, NOT_EXPECTED_IN_SLICE))
    return step


def slice_function(function: Operation) -> None:
    for op in list(function.walk(region_first=True)):
        count = op.attributes.get(SLICE_COUNT)
        if count is None:
            continue
        if not isinstance(count, IntegerAttr):
            emit_error(op, MALFORMED_SLICE_COUNT)
        if not isinstance(op, scf.ForOp):
            emit_error(op, UNSUPPORTED_OP)
        n = count.value.data
        if n < 1:
            emit_error(op, f"sliceCount must be at least 1, got {n}")
        step = check_sliceable(op)
        del op.attributes[SLICE_COUNT]
        if n > 1:
            LoopSlicer(op, n, step).run()


@dataclass(frozen=True)
class SlicingPass(ModulePass):
    """
    Slices the loops marked `sliceCount = N : i64` (tileiras's `TileASSlicingPass`).

    An `scf.for %i = %lb to %ub step %s` with `sliceCount = N` (N > 1) becomes
    - a sliced loop `scf.for %i = %lb to %split step N*s` whose body holds N slices,
      copies of the original body for `%i`, `%i + s`, ..., `%i + (N-1)*s`, threading
      the loop-carried values from slice to slice; and
    - a residual loop `scf.for %i = %split to %ub step %s` with the original body, fed
      the sliced loop's results, for the iterations that do not fill a group of N.
    With constant bounds the split point is folded and the residual loop is emitted only
    when the trip count is not a multiple of N (and nothing changes when no group of N
    fits); otherwise `%split = %lb + ((max(%ub - %lb, 0)) / (N*s)) * (N*s)`. The
    `sliceCount` attribute is consumed; other attributes stay on both loops. Inner loops
    are sliced before outer ones.

    Diagnostics (tileiras's texts, and the conditions this model gives them):
    - "The sliceCountneed to be aIntegerAttr": `sliceCount` is not an integer;
    - "unsupported op in Slicing pass": `sliceCount` on something other than `scf.for`
      (`scf.while` has no trip count to slice);
    - "unsupported op to be a lower bound in slicing pass ": the lower bound is neither a
      constant nor a block argument;
    - " fail to get an initial forOperand in slicing pass ": the step is not a positive
      constant (slice offsets are folded constants);
    - "'op' op is not expected inside sliced part in SlicingPass": the body holds an
      allocation, pipeline / mbarrier creation, `cancel_next_program_id` or an agent op
      (tileiras's text ends in a newline, dropped here);
    - "sliceCount must be at least 1, got N" (not in tileiras's notes).

    Before:
    ```
    scf.for %i = %c0 to %c8 step %c1 {
      "work"(%i) : (index) -> ()
    } {sliceCount = 2 : i64}
    ```
    After:
    ```
    %c2 = arith.constant 2 : index
    scf.for %i = %c0 to %c8 step %c2 {
      "work"(%i) : (index) -> ()
      %c1_0 = arith.constant 1 : index
      %i1 = arith.addi %i, %c1_0 : index
      "work"(%i1) : (index) -> ()
    }
    ```
    """

    name = "tileas-slicing"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in list(function_like_ops(op)):
            slice_function(function)
