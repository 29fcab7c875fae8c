"""WGMMA groups kept in flight across the K steps of a loop, in `convert-tileas-to-nvvm`
(PTX ISA "wgmma.wait_group":
https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-instructions-wgmma-wait-group).

A dot with `wait_group = N` (N > 0) leaves its N most recent WGMMA groups running when it
returns, so the next K step's MMAs are issued while those of the previous steps still
read shared memory. Before the patterns run, `pipeline_wgmma` makes the kernel safe for
that, as CUTLASS's sm90 warp-specialised mainloop does:

- the release of a pipeline slot the dot reads is deferred by N iterations: in iteration
  `i` (counted from 0) it releases the slot of iteration `i - N`, whose group the dot's
  `wgmma.wait_group N` has just retired, so a release in iteration `i < N` does nothing
  (the pipelines' release cursor lags the acquire cursor, `pipeline.py`);
- after the loop, `wgmma.wait_group 0` drains the groups still in flight (before anything
  reads the accumulator) and the slots of the last `min(N, iterations)` iterations are
  released.

This applies to a dot in the body of an `scf.for` that yields its result (to the next
iteration's dot, whose MMAs accumulate in the same registers); each pipeline it reads must
then have more than N stages (N + 1 are in use at once), and A must be in shared memory
(the next iteration's register A would overwrite registers that the WGMMAs in flight
read), both of which are reported otherwise. Any
other dot with `wait_group > 0` is drained (`wgmma.wait_group 0`) before the first op
after it that reads its result or releases a slot it reads.

Before:

    %acc = scf.for %k = %lb to %ub step %s iter_args(%c = %zero) -> (...) {
      %sa = nv_tileas.async.pipeline.consumer_acquire %p : ...
      %d = nv_tileas.dot %sa, %b, %c atom = ... wait_group = 1 : ...
      nv_tileas.async.pipeline.consumer_release %p : ...
      scf.yield %d : ...
    }

After:

    %first = (%lb + 1 * %s)
    %acc = scf.for %k = %lb to %ub step %s iter_args(%c = %zero) -> (...) {
      %sa = nv_tileas.async.pipeline.consumer_acquire %p : ...
      %d = nv_tileas.dot %sa, %b, %c atom = ... wait_group = 1 : ...
      %ready = arith.cmpi sge, %k, %first : index
      scf.if %ready {
        nv_tileas.async.pipeline.consumer_release %p : ...
      }
      scf.yield %d : ...
    }
    nvvm.wgmma.wait.group.sync.aligned 0
    %ran = arith.cmpi sgt, %ub, %lb : index
    scf.if %ran {
      nv_tileas.async.pipeline.consumer_release %p : ...
    }
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, i64
from xdsl.ir import Block, Operation, Region, SSAValue

from tileas_py.diagnostics import emit_error
from tileas_py.dialects import cute_nvgpu
from tileas_py.dialects.nv_tileas import async_ops
from tileas_py.dialects.nv_tileas.attrs import PipelineType
from tileas_py.dialects.nv_tileas.ops import DotOp
from tileas_py.dialects.nvvm import wgmma as nvvm_wgmma
from tileas_py.passes.lowering.tileas_to_nvvm.ocg_knobs import (
    ENTER_DIRECTIVES,
    fence_code_knob,
)

DEFERRED = "nv_tileas.deferred_release"
"""On a release that `pipeline_wgmma` has deferred: by how many iterations."""


def _groups_in_flight(op: Operation) -> int:
    """N of a WGMMA dot's `wait_group` (0 for other dots)."""
    if isinstance(op, DotOp) and isinstance(op.atom, cute_nvgpu.SM90MmaAtomType):
        return op.wait_group.value.data
    if isinstance(op, cute_nvgpu.AtomGemmOp) and op.wait_group is not None:
        return op.wait_group.value.data
    return 0


def _register_a(dot: DotOp | cute_nvgpu.AtomGemmOp) -> bool:
    atom = dot.atom if isinstance(dot, DotOp) else dot.atom.type
    return (
        isinstance(atom, cute_nvgpu.SM90MmaAtomType)
        and atom.frag_kind.data == cute_nvgpu.FragKind.RS
    )


def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def _iteration_start(
    loop: scf.ForOp, iteration: int
) -> tuple[list[Operation], SSAValue]:
    """Ops computing the induction variable's value in `iteration` (`lb + i * step`)."""
    if iteration == 0:
        return [], loop.lb
    count = _index(iteration)
    offset = arith.MuliOp(loop.step, count)
    start = arith.AddiOp(loop.lb, offset)
    return [count, offset, start], start.result


def _release_after(
    dot: Operation, acquire: async_ops.ConsumerAcquireOp
) -> async_ops.ConsumerReleaseOp | None:
    """The first release of `acquire`'s pipeline after `dot` in `dot`'s block."""
    op = dot.next_op
    while op is not None:
        if (
            isinstance(op, async_ops.ConsumerReleaseOp)
            and op.pipeline == acquire.pipeline
        ):
            return op
        op = op.next_op
    return None


def _defer(
    releases: list[async_ops.ConsumerReleaseOp], loop: scf.ForOp, lag: int
) -> None:
    """In iteration i, release the slots of iteration i - lag (under one guard, where the
    last of `releases` was); after the loop's drain, the slots of its last iterations."""
    block = loop.parent_block()
    assert block is not None
    ops, first = _iteration_start(loop, lag)
    block.insert_ops_before(ops, loop)
    last = releases[-1]
    body = last.parent_block()
    anchor = last.next_op
    assert body is not None
    assert anchor is not None  # a loop body ends with its yield
    ready = arith.CmpiOp(loop.body.block.args[0], first, "sge")
    # A release keeps its FenceCode knob (tileas-insert-OCG-knobs) right before it.
    knobs = [fence_code_knob(release) for release in releases]
    moved: list[Operation] = []
    for release, knob in zip(releases, knobs, strict=True):
        if knob is not None:
            knob.detach()
            moved.append(knob)
        release.detach()
        release.attributes[DEFERRED] = IntegerAttr(lag, i64)
        moved.append(release)
    guard = scf.IfOp(ready, [], Region(Block([*moved, scf.YieldOp()])))
    body.insert_ops_before([ready, guard], anchor)
    drain = loop.next_op
    assert isinstance(drain, nvvm_wgmma.WgmmaWaitGroupSyncOp)
    anchor = drain.next_op
    assert anchor is not None
    for iteration in range(lag):
        ops, start = _iteration_start(loop, iteration)
        ran = arith.CmpiOp(loop.ub, start, "sgt")
        tails: list[Operation] = []
        for release, knob in zip(releases, knobs, strict=True):
            tail = async_ops.ConsumerReleaseOp(release.pipeline)
            tail.attributes[DEFERRED] = IntegerAttr(lag, i64)
            if ENTER_DIRECTIVES in release.attributes:
                tail.attributes[ENTER_DIRECTIVES] = release.attributes[ENTER_DIRECTIVES]
            if knob is not None:
                tails.append(knob.clone())
            tails.append(tail)
        guard = scf.IfOp(ran, [], Region(Block([*tails, scf.YieldOp()])))
        block.insert_ops_before([*ops, ran, guard], anchor)


def _carried(dot: DotOp | cute_nvgpu.AtomGemmOp) -> scf.ForOp | None:
    """The loop whose iterations the dot's groups stay in flight across: the `scf.for`
    whose body holds the dot and yields its result (used by nothing else but WGMMA
    accumulators)."""
    loop = dot.parent_op()
    if not isinstance(loop, scf.ForOp):
        return None
    for use in dot.result.uses:
        user = use.operation
        if isinstance(user, scf.YieldOp) and user.parent_op() is loop:
            continue
        if _groups_in_flight(user) and use.index == len(user.operands) - 1:
            continue  # chained: the next dot accumulates into the same registers
        return None
    return loop


def _drain_before_first_reader(dot: DotOp | cute_nvgpu.AtomGemmOp) -> None:
    """`wgmma.wait_group 0` before the first op after `dot` in its block that reads
    its result or releases a slot it reads."""
    pipelines = {
        operand.owner.pipeline
        for operand in (dot.a, dot.b)
        if isinstance(operand.owner, async_ops.ConsumerAcquireOp)
    }
    op = dot.next_op
    while op is not None:
        nested = [op, *op.walk()]
        if any(dot.result in inner.operands for inner in nested) or any(
            isinstance(inner, async_ops.ConsumerReleaseOp)
            and inner.pipeline in pipelines
            for inner in nested
        ):
            block = op.parent_block()
            assert block is not None
            block.insert_op_before(nvvm_wgmma.WgmmaWaitGroupSyncOp(0), op)
            return
        op = op.next_op


def pipeline_wgmma(function: Operation) -> None:
    """Defer the releases of the slots that dots with `wait_group > 0` read in loops and
    drain their groups after the loops; drain the groups of other such dots before their
    results are read (see the module docstring)."""
    deferred: dict[tuple[scf.ForOp, int], list[async_ops.ConsumerReleaseOp]] = {}
    for dot in list(function.walk()):
        lag = _groups_in_flight(dot)
        if not lag:
            continue
        assert isinstance(dot, DotOp | cute_nvgpu.AtomGemmOp)
        loop = _carried(dot)
        if loop is None:
            _drain_before_first_reader(dot)
            continue
        if _register_a(dot):
            emit_error(
                dot,
                f"wait_group = {lag} with A in registers: the next iteration would "
                "overwrite the A registers that the WGMMAs in flight still read (they are "
                "in flight until the wait_group that retires them); use wait_group = 0 "
                "or A in shared memory",
            )
        if not isinstance(loop.next_op, nvvm_wgmma.WgmmaWaitGroupSyncOp):
            block = loop.parent_block()
            assert block is not None
            block.insert_op_after(nvvm_wgmma.WgmmaWaitGroupSyncOp(0), loop)
        group = deferred.setdefault((loop, lag), [])
        for operand in (dot.a, dot.b):
            acquire = operand.owner
            if not isinstance(acquire, async_ops.ConsumerAcquireOp):
                continue
            pipeline = acquire.pipeline.type
            assert isinstance(pipeline, PipelineType)
            if pipeline.depth.data <= lag:
                emit_error(
                    dot,
                    f"wait_group = {lag} keeps {lag + 1} stages of each pipeline the "
                    f"dot reads in use at once: the pipeline's depth "
                    f"({pipeline.depth.data}) must be more than {lag}",
                )
            release = _release_after(dot, acquire)
            if release is not None and release not in group:
                group.append(release)
    for (loop, lag), releases in deferred.items():
        if releases:
            releases.sort(key=_position)
            _defer(releases, loop, lag)


def _position(op: Operation) -> int:
    block = op.parent_block()
    assert block is not None
    return block.get_operation_index(op)
