"""Async pipelines in `convert-tileas-to-nvvm`: a ring of stages of shared-memory slots,
each stage guarded by one *full* and one *empty* mbarrier (the scheme of CUTLASS's
`PipelineTmaAsync` and Triton's warp-specialised loops; PTX ISA "mbarrier":
https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-mbarrier).

Layout: `create_pipeline` gets one slice of the kernel's shared buffer (planned by
`kernel.plan_shared_memory` from `SHARED` below): `depth` stages, each holding its slots
side by side (one per slot type, each padded to 1024 bytes, a swizzle pattern), then
`depth` full and `depth` empty 8-byte mbarriers. Thread 0 of the CTA initialises full[s]
for one arrival (the producer's leader, which also sets the transaction bytes of all the
stage's TMA loads) and empty[s] for every thread of every consuming agent;
`fence.mbarrier.init` and `barrier0` publish them (so `create_pipeline` must run on the
whole CTA, as it does before the `agent_switch`).

State: each thread keeps three cursors, each a stage index and the phase bit of its round:
where the producer fills, where the consumer acquires, and where it releases (a release
may lag its acquire: `wgmma_pipelining.py`). They start at (0, 0); moving on is stage + 1,
or stage 0 of the next round with the phase flipped. They are kept in a local
`llvm.alloca`, so that acquire / commit / release may sit anywhere in the control flow,
and `promote_locals.py` turns them into registers once every op is lowered. A consumer
waits for full[s] to complete the cursor's phase; a producer waits on empty[s] for the
opposite parity, which a fresh barrier reports complete, so the first round does not
wait.

| tile op | nvvm |
| --- | --- |
| `create_pipeline` | `mbarrier.init` x 2 depth (thread 0), `fence.mbarrier.init`, `barrier0`, cursors |
| `producer_acquire` | `mbarrier.try_wait.parity` empty[s], phase ^ 1; the slot addresses; TMA copies into the slots (`tma.py`) |
| `producer_commit` | leader: `mbarrier.arrive.expect_tx` full[s], the stage's bytes; producer cursor moves on |
| `consumer_acquire` | `mbarrier.try_wait.parity` full[s], phase; the slot addresses; acquire cursor moves on |
| `consumer_release` | every thread: `mbarrier.arrive` empty[s]; release cursor moves on |
| `consume_one` | acquire, the body on the slots, release |

The pipeline value is handed between patterns as a cast of (slots, barriers, cursors).

Slots read by tcgen05 MMAs are released by the MMA issuer's `tcgen05.commit` (one arrival),
and a CTA pair's slots fill the even CTA's full barriers (`tcgen05_sync.py`); pipelines
of tensor-memory slots are `tmem.py`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    IntegerAttr,
    TensorType,
    UnitAttr,
    UnrealizedConversionCastOp,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas import async_ops
from tileas_py.dialects.nv_tileas.attrs import PipelineType, SharedEncodingAttr
from tileas_py.dialects.nv_tileas.ops import CopyOp, TiledLoadOp
from tileas_py.dialects.nvvm import mbarrier as nvvm_mbarrier
from tileas_py.dialects.nvvm import sync as nvvm_sync
from tileas_py.passes.lowering.tileas_to_nvvm import multicast, tma
from tileas_py.passes.lowering.tileas_to_nvvm.cluster import cluster_ctas
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    SHARED_PTR,
    element_bits,
    from_llvm,
)
from tileas_py.passes.lowering.tileas_to_nvvm.kernel import (
    SMEM_OFFSET,
    SharedRequest,
    shared_buffer_name,
)
from tileas_py.passes.lowering.tileas_to_nvvm.ocg_knobs import (
    emit_pragmas_before,
    take_pragmas,
)
from tileas_py.passes.lowering.tileas_to_nvvm.tcgen05_sync import (
    CTA_PAIR,
    in_even_cta,
    is_pair,
    released_by_commit,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    WARP_SIZE,
    agent_key,
    agent_leader,
    agent_of,
    constant,
    executing_warps,
    shared_address,
)

SLOT_ALIGNMENT = 1024
MBARRIER_BYTES = 8
WAIT_TICKS = 10_000_000
"""The suspend-time hint of each `mbarrier.try_wait` (CUTLASS's)."""
TMA_FILLED = "nv_tileas.tma_filled"
"""Marks a lowered pipeline whose slots are filled by TMA loads."""
PRODUCER, ACQUIRE, RELEASE = 0, 1, 2
"""The cursors of a pipeline: where the producer fills, where the consumer acquires and
where it releases (a release may lag its acquire: `wgmma_pipelining.py`)."""
_STAGE, _PHASE = 0, 1
"""The two i32 of a cursor."""
FULL, EMPTY = 0, 1
"""Which barrier of a stage."""


def slot_bytes(t: TensorType[Attribute]) -> int:
    size = element_bits(t.get_element_type())
    for d in t.get_shape():
        size *= d
    return size // 8


def _padded(size: int) -> int:
    return -(-size // SLOT_ALIGNMENT) * SLOT_ALIGNMENT


def stage_bytes(t: PipelineType) -> int:
    """The bytes the TMA loads of one stage deliver: every slot, full."""
    return sum(slot_bytes(slot) for slot in t.slot_types.data)


def slot_offsets(t: PipelineType) -> list[int]:
    """Where each slot starts in its stage (each padded to 1024 bytes)."""
    offsets: list[int] = []
    end = 0
    for slot in t.slot_types.data:
        offsets.append(end)
        end += _padded(slot_bytes(slot))
    return offsets


def stage_stride(t: PipelineType) -> int:
    return sum(_padded(slot_bytes(slot)) for slot in t.slot_types.data)


def _pipeline_request(op: Operation) -> tuple[int, int] | None:
    assert isinstance(op, async_ops.CreatePipelineOp)
    t = op.result.type
    depth = t.depth.data
    return depth * stage_stride(t) + 2 * depth * MBARRIER_BYTES, SLOT_ALIGNMENT


SHARED: dict[type[Operation], SharedRequest] = {
    async_ops.CreatePipelineOp: _pipeline_request,
}


def kernel_of(op: Operation) -> Operation:
    """The function-like op (tile kernel or its `llvm.func`) holding `op`."""
    parent = op.parent_op()
    while parent is not None and "sym_name" not in parent.properties:
        parent = parent.parent_op()
    assert parent is not None
    return parent


def consumer_arrivals(op: async_ops.CreatePipelineOp) -> int:
    """Arrivals that complete a phase of an empty barrier: every thread of every agent
    that releases slots of the pipeline (one `tcgen05.commit` for an agent that releases
    them by committing its MMAs, `tcgen05_sync.py`)."""
    agents: dict[tuple[Operation, int] | None, int] = {}
    for use in op.result.uses:
        user = use.operation
        if isinstance(user, async_ops.ConsumerReleaseOp | async_ops.ConsumeOneOp):
            agents[agent_key(user)] = (
                1 if released_by_commit(user) else WARP_SIZE * executing_warps(user)
            )
    return sum(agents.values()) if agents else 1


def parts(value: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue] | None:
    """(slots, barriers, counters) of a lowered pipeline; None before it is lowered."""
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp) and len(owner.inputs) == 3:
        slots, barriers, counters = owner.inputs
        return slots, barriers, counters
    return None


class LowerCreatePipeline(RewritePattern):
    """`create_pipeline`: its barriers initialised, its counters zeroed."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.CreatePipelineOp, rewriter: PatternRewriter
    ) -> None:
        offset = op.attributes.get(SMEM_OFFSET)
        if not isinstance(offset, IntegerAttr):
            return
        if agent_of(op) is not None:
            emit_error(op, "create_pipeline must run on the whole CTA, not in an agent")
        t = op.result.type
        depth = t.depth.data
        base = rewriter.insert(
            llvm.AddressOfOp(shared_buffer_name(kernel_of(op)), SHARED_PTR)
        ).result
        start = offset.value.data
        slots = shared_address(rewriter, base, start)
        barriers = shared_address(rewriter, base, start + depth * stage_stride(t))
        leader = agent_leader(rewriter, op)
        writers = multicast.writer_count(op, cluster_ctas(op))
        counts = {FULL: 1, EMPTY: consumer_arrivals(op) * writers}
        for which, count in counts.items():
            arrivals = constant(rewriter, count)
            for stage in range(depth):
                bar = shared_address(
                    rewriter, barriers, (which * depth + stage) * MBARRIER_BYTES
                )
                rewriter.insert(nvvm_mbarrier.MBarrierInitOp(bar, arrivals, leader))
        rewriter.insert(nvvm_sync.FenceMbarrierInitOp())
        if writers > 1:
            multicast.meet_after_init(rewriter)
        else:
            rewriter.insert(nvvm_sync.Barrier0Op())
        fields = rewriter.insert(llvm.ConstantOp(IntegerAttr(6, i32), i32)).result
        counters = rewriter.insert(llvm.AllocaOp(fields, i32, alignment=4)).res
        zero = constant(rewriter, 0)
        for cursor in (PRODUCER, ACQUIRE, RELEASE):
            for field in (_STAGE, _PHASE):
                where = _cursor(rewriter, counters, cursor, field)
                rewriter.insert(llvm.StoreOp(zero, where))
        cast = UnrealizedConversionCastOp.get([slots, barriers, counters], [t])
        if _filled_by_tma(op.result):
            cast.attributes[TMA_FILLED] = UnitAttr()
        if is_pair(op):
            cast.attributes[CTA_PAIR] = UnitAttr()
        if multicast.CLUSTER_SLOTS in op.attributes:
            cast.attributes[multicast.CLUSTER_SLOTS] = op.attributes[
                multicast.CLUSTER_SLOTS
            ]
        rewriter.replace(op, cast)


def _cursor(
    rewriter: PatternRewriter, counters: SSAValue, cursor: int, field: int
) -> SSAValue:
    index = 2 * cursor + field
    gep = llvm.GEPOp.from_mixed_indices(counters, [index], pointee_type=i32)
    return rewriter.insert(gep).result


class State:
    """A cursor's place in the ring at one op: its stage (slot) and the phase bit of the
    round it is in."""

    def __init__(
        self,
        rewriter: PatternRewriter,
        pipeline: SSAValue,
        cursor: int,
    ) -> None:
        found = parts(pipeline)
        assert found is not None
        self.slots, self.barriers, counters = found
        t = pipeline.type
        assert isinstance(t, PipelineType)
        self.type = t
        self.depth = t.depth.data
        self.stage_at = _cursor(rewriter, counters, cursor, _STAGE)
        self.phase_at = _cursor(rewriter, counters, cursor, _PHASE)
        self.stage = rewriter.insert(llvm.LoadOp(self.stage_at, i32)).dereferenced_value
        self.phase = rewriter.insert(llvm.LoadOp(self.phase_at, i32)).dereferenced_value

    def barrier(self, rewriter: PatternRewriter, which: int) -> SSAValue:
        """full[stage] (FULL) or empty[stage] (EMPTY)."""
        index = self.stage
        if which == EMPTY:
            depth = constant(rewriter, self.depth)
            index = rewriter.insert(arith.AddiOp(index, depth)).result
        size = constant(rewriter, MBARRIER_BYTES)
        offset = rewriter.insert(arith.MuliOp(index, size)).result
        return shared_address(rewriter, self.barriers, offset)

    def slots_of_stage(self, rewriter: PatternRewriter) -> list[SSAValue]:
        """The address of each slot of the stage."""
        stride = constant(rewriter, stage_stride(self.type))
        offset = rewriter.insert(arith.MuliOp(self.stage, stride)).result
        stage = shared_address(rewriter, self.slots, offset)
        return [
            stage if start == 0 else shared_address(rewriter, stage, start)
            for start in slot_offsets(self.type)
        ]

    def wait(self, rewriter: PatternRewriter, bar: SSAValue, parity: SSAValue) -> None:
        ticks = constant(rewriter, WAIT_TICKS)
        rewriter.insert(nvvm_mbarrier.MBarrierTryWaitParityOp(bar, parity, ticks))

    def advance(self, rewriter: PatternRewriter) -> None:
        """The next stage; past the last one, stage 0 of the next round (phase flipped)."""
        one = constant(rewriter, 1)
        next_ = rewriter.insert(arith.AddiOp(self.stage, one)).result
        depth = constant(rewriter, self.depth)
        wrapped = rewriter.insert(arith.CmpiOp(next_, depth, "eq")).result
        zero = constant(rewriter, 0)
        stage = rewriter.insert(arith.SelectOp(wrapped, zero, next_)).result
        flip = rewriter.insert(arith.ExtUIOp(wrapped, i32)).result
        phase = rewriter.insert(arith.XOrIOp(self.phase, flip)).result
        rewriter.insert(llvm.StoreOp(stage, self.stage_at))
        rewriter.insert(llvm.StoreOp(phase, self.phase_at))


def _slot_tensors(
    rewriter: PatternRewriter,
    op: Operation,
    addresses: Sequence[SSAValue],
    types: Sequence[Attribute],
) -> list[SSAValue]:
    return [
        from_llvm(rewriter, address, op, t)
        for address, t in zip(addresses, types, strict=True)
    ]


class LowerProducerAcquire(RewritePattern):
    """`producer_acquire`: wait for the stage to be empty; lower the TMA copies into its
    slots."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ProducerAcquireOp, rewriter: PatternRewriter
    ) -> None:
        if parts(op.pipeline) is None:
            return
        state = State(rewriter, op.pipeline, PRODUCER)
        one = constant(rewriter, 1)
        parity = rewriter.insert(arith.XOrIOp(state.phase, one)).result
        state.wait(rewriter, state.barrier(rewriter, EMPTY), parity)
        addresses = state.slots_of_stage(rewriter)
        full = state.barrier(rewriter, FULL)
        owner = op.pipeline.owner
        creator = owner if isinstance(owner, Operation) else None
        pair = is_pair(creator)
        shared = multicast.multicasts(creator) if creator is not None else []
        shared = shared or [None] * len(addresses)
        for slot, address, sharing in zip(op.slots, addresses, shared, strict=True):
            for use in list(slot.uses):
                copy = use.operation
                if isinstance(copy, CopyOp) and copy.dest is slot:
                    tma.lower_copy_into_slot(
                        rewriter, copy, address, full, pair=pair, shared=sharing
                    )
        rewriter.replace(op, [], _slot_tensors(rewriter, op, addresses, op.slots.types))


def _filled_by_tma(pipeline: SSAValue) -> bool:
    for use in pipeline.uses:
        acquire = use.operation
        if not isinstance(acquire, async_ops.ProducerAcquireOp):
            continue
        for slot in acquire.slots:
            for slot_use in slot.uses:
                copy = slot_use.operation
                if isinstance(copy, CopyOp) and isinstance(
                    copy.source.owner, TiledLoadOp
                ):
                    return True
    return False


class LowerProducerCommit(RewritePattern):
    """`producer_commit`: the leader arrives on full[s], expecting the bytes of every slot
    of the stage (one transaction count for all the stage's TMA loads)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ProducerCommitOp, rewriter: PatternRewriter
    ) -> None:
        if parts(op.pipeline) is None:
            return
        t = op.pipeline.type
        assert isinstance(t, PipelineType)
        if not all(
            isinstance(slot.encoding, SharedEncodingAttr) for slot in t.slot_types.data
        ):
            emit_error(
                op, "producer_commit: the pipeline's slots are not in shared memory"
            )
        owner = op.pipeline.owner
        assert isinstance(owner, Operation)
        if TMA_FILLED not in owner.attributes:
            emit_error(
                op,
                "producer_commit: only pipelines whose slots are filled by TMA (a "
                "tiled_load copied into the acquired slot) are supported",
            )
        knobs = take_pragmas(rewriter, op)
        state = State(rewriter, op.pipeline, PRODUCER)
        full = state.barrier(rewriter, FULL)
        leader = agent_leader(rewriter, op)
        count = stage_bytes(t)
        if is_pair(owner):
            # The even CTA's barrier counts both CTAs' loads (`tcgen05_sync.py`).
            even = in_even_cta(rewriter)
            leader = rewriter.insert(arith.AndIOp(leader, even)).result
            count *= 2
        bytes_ = constant(rewriter, count)
        emit_pragmas_before(rewriter, knobs)
        rewriter.insert(nvvm_mbarrier.MBarrierArriveExpectTxOp(full, bytes_, leader))
        state.advance(rewriter)
        rewriter.erase(op)


class LowerConsumerAcquire(RewritePattern):
    """`consumer_acquire`: wait for the stage to be full."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ConsumerAcquireOp, rewriter: PatternRewriter
    ) -> None:
        if parts(op.pipeline) is None:
            return
        addresses = acquire(rewriter, op.pipeline)
        rewriter.replace(op, [], _slot_tensors(rewriter, op, addresses, op.slots.types))


def acquire(rewriter: PatternRewriter, pipeline: SSAValue) -> list[SSAValue]:
    """Wait for the acquire cursor's stage to be full; returns its slots' addresses."""
    state = State(rewriter, pipeline, ACQUIRE)
    state.wait(rewriter, state.barrier(rewriter, FULL), state.phase)
    addresses = state.slots_of_stage(rewriter)
    state.advance(rewriter)
    return addresses


def release(
    rewriter: PatternRewriter, pipeline: SSAValue, knobs: Sequence[str] = ()
) -> None:
    """Arrive on the release cursor's empty barrier (`knobs`: the pragmas of the arrive)."""
    state = State(rewriter, pipeline, RELEASE)
    empty = state.barrier(rewriter, EMPTY)
    emit_pragmas_before(rewriter, knobs)
    rewriter.insert(nvvm_mbarrier.MBarrierArriveOp(empty, with_state=False))
    multicast.release_writers(rewriter, pipeline, empty)
    state.advance(rewriter)


class LowerConsumerRelease(RewritePattern):
    """`consumer_release`: every thread arrives on empty[s]."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ConsumerReleaseOp, rewriter: PatternRewriter
    ) -> None:
        if parts(op.pipeline) is None:
            return
        release(rewriter, op.pipeline, take_pragmas(rewriter, op))
        rewriter.erase(op)


class LowerConsumeOne(RewritePattern):
    """`consume_one`: acquire, the body on the slot, release."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ConsumeOneOp, rewriter: PatternRewriter
    ) -> None:
        if parts(op.pipeline) is None:
            return
        addresses = acquire(rewriter, op.pipeline)
        slots = _slot_tensors(rewriter, op, addresses, op.body.block.arg_types)
        terminator = op.body.block.last_op
        assert isinstance(terminator, async_ops.PipelineYieldOp)
        results = list(terminator.values)
        rewriter.erase(terminator)
        rewriter.inline_block(op.body.block, InsertPoint.before(op), slots)
        release(rewriter, op.pipeline)
        rewriter.replace(op, [], results)


PATTERNS: tuple[RewritePattern, ...] = (
    LowerCreatePipeline(),
    LowerProducerAcquire(),
    LowerProducerCommit(),
    LowerConsumerAcquire(),
    LowerConsumerRelease(),
    LowerConsumeOne(),
)
