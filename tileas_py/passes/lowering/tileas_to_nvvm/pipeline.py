"""Async pipelines in `convert-tileas-to-nvvm`: a ring of shared-memory slots, each
guarded by a *full* and an *empty* mbarrier (the scheme of CUTLASS's `PipelineTmaAsync`
and Triton's warp-specialised loops; PTX ISA "mbarrier":
https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-mbarrier).

Layout: `create_pipeline` gets one slice of the kernel's shared buffer (planned by
`kernel.plan_shared_memory` from `SHARED` below): `depth` slots, each padded to 1024
bytes (a swizzle pattern), then `depth` full and `depth` empty 8-byte mbarriers. Thread 0
of the CTA initialises full[s] for one arrival (the producer's leader, which also sets
the transaction bytes the TMA loads deliver) and empty[s] for every thread of every
consuming agent; `fence.mbarrier.init` and `barrier0` publish them (so `create_pipeline`
must run on the whole CTA, as it does before the `agent_switch`).

State: each thread keeps a producer and a consumer counter `n` (two i32 in a local
`llvm.alloca`), so acquire / commit / release may sit anywhere in the control flow. Slot
`n % depth` is used in round `n / depth`; its phase bit is `(n / depth) & 1`. A consumer
waits for full[s] to complete that phase; a producer waits on empty[s] for the opposite
parity, which a fresh barrier reports complete, so the first round does not wait.

| tile op | nvvm |
| --- | --- |
| `create_pipeline` | `mbarrier.init` x 2 depth (thread 0), `fence.mbarrier.init`, `barrier0`, counters |
| `producer_acquire` | `mbarrier.try_wait.parity` empty[s], phase ^ 1; the slot address; TMA copies into the slot (`tma.py`) |
| `producer_commit` | leader: `mbarrier.arrive.expect_tx` full[s], slot bytes; counter + 1 |
| `consumer_acquire` | `mbarrier.try_wait.parity` full[s], phase; the slot address |
| `consumer_release` | every thread: `mbarrier.arrive` empty[s]; counter + 1 |
| `consume_one` | acquire, the body on the slot, release |

The pipeline value is handed between patterns as a cast of (slots, barriers, counters).

Slots read by tcgen05 MMAs are released by the MMA issuer's `tcgen05.commit` (one arrival),
and a CTA pair's slots fill the even CTA's full barriers (`tcgen05_sync.py`); pipelines
of tensor-memory slots are `tmem.py`'s.
"""

from __future__ import annotations

from typing import cast

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
from tileas_py.passes.lowering.tileas_to_nvvm import tma
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
PRODUCER, CONSUMER = 0, 1
"""Which counter of a pipeline."""


def slot_bytes(t: PipelineType) -> int:
    size = element_bits(t.slot_type.get_element_type())
    for d in t.slot_type.get_shape():
        size *= d
    return size // 8


def slot_stride(t: PipelineType) -> int:
    return -(-slot_bytes(t) // SLOT_ALIGNMENT) * SLOT_ALIGNMENT


def _pipeline_request(op: Operation) -> tuple[int, int] | None:
    assert isinstance(op, async_ops.CreatePipelineOp)
    t = op.result.type
    depth = t.depth.data
    return depth * slot_stride(t) + 2 * depth * MBARRIER_BYTES, SLOT_ALIGNMENT


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
        barriers = shared_address(rewriter, base, start + depth * slot_stride(t))
        leader = agent_leader(rewriter, op)
        counts = (1, consumer_arrivals(op))
        for which, count in enumerate(counts):
            arrivals = constant(rewriter, count)
            for stage in range(depth):
                bar = shared_address(
                    rewriter, barriers, (which * depth + stage) * MBARRIER_BYTES
                )
                rewriter.insert(nvvm_mbarrier.MBarrierInitOp(bar, arrivals, leader))
        rewriter.insert(nvvm_sync.FenceMbarrierInitOp())
        rewriter.insert(nvvm_sync.Barrier0Op())
        two = rewriter.insert(llvm.ConstantOp(IntegerAttr(2, i32), i32)).result
        counters = rewriter.insert(llvm.AllocaOp(two, i32, alignment=4)).res
        zero = constant(rewriter, 0)
        for which in (PRODUCER, CONSUMER):
            rewriter.insert(llvm.StoreOp(zero, _counter(rewriter, counters, which)))
        cast = UnrealizedConversionCastOp.get([slots, barriers, counters], [t])
        if _filled_by_tma(op.result):
            cast.attributes[TMA_FILLED] = UnitAttr()
        if is_pair(op):
            cast.attributes[CTA_PAIR] = UnitAttr()
        rewriter.replace(op, cast)


def _counter(rewriter: PatternRewriter, counters: SSAValue, which: int) -> SSAValue:
    gep = llvm.GEPOp.from_mixed_indices(counters, [which], pointee_type=i32)
    return rewriter.insert(gep).result


class State:
    """A counter's value `n` at one op: its slot `n % depth` and phase `(n / depth) & 1`."""

    def __init__(
        self,
        rewriter: PatternRewriter,
        pipeline: SSAValue,
        which: int,
    ) -> None:
        found = parts(pipeline)
        assert found is not None
        self.slots, self.barriers, counters = found
        t = pipeline.type
        assert isinstance(t, PipelineType)
        self.type = t
        self.depth = t.depth.data
        self.counter = _counter(rewriter, counters, which)
        self.n = rewriter.insert(llvm.LoadOp(self.counter, i32)).dereferenced_value
        depth = constant(rewriter, self.depth)
        self.stage = rewriter.insert(arith.RemUIOp(self.n, depth)).result
        round_ = rewriter.insert(arith.DivUIOp(self.n, depth)).result
        one = constant(rewriter, 1)
        self.phase = rewriter.insert(arith.AndIOp(round_, one)).result

    def barrier(self, rewriter: PatternRewriter, which: int) -> SSAValue:
        """full[stage] (PRODUCER side's barrier) or empty[stage] (CONSUMER)."""
        index = self.stage
        if which == CONSUMER:
            depth = constant(rewriter, self.depth)
            index = rewriter.insert(arith.AddiOp(index, depth)).result
        size = constant(rewriter, MBARRIER_BYTES)
        offset = rewriter.insert(arith.MuliOp(index, size)).result
        return shared_address(rewriter, self.barriers, offset)

    def slot(self, rewriter: PatternRewriter) -> SSAValue:
        stride = constant(rewriter, slot_stride(self.type))
        offset = rewriter.insert(arith.MuliOp(self.stage, stride)).result
        return shared_address(rewriter, self.slots, offset)

    def wait(self, rewriter: PatternRewriter, bar: SSAValue, parity: SSAValue) -> None:
        ticks = constant(rewriter, WAIT_TICKS)
        rewriter.insert(nvvm_mbarrier.MBarrierTryWaitParityOp(bar, parity, ticks))

    def advance(self, rewriter: PatternRewriter) -> None:
        one = constant(rewriter, 1)
        next_ = rewriter.insert(arith.AddiOp(self.n, one)).result
        rewriter.insert(llvm.StoreOp(next_, self.counter))


def _slot_tensor(
    rewriter: PatternRewriter, op: Operation, address: SSAValue, t: Attribute
) -> SSAValue:
    return from_llvm(rewriter, address, op, t)


class LowerProducerAcquire(RewritePattern):
    """`producer_acquire`: wait for the slot to be empty; lower the TMA copies into it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ProducerAcquireOp, rewriter: PatternRewriter
    ) -> None:
        if parts(op.pipeline) is None:
            return
        state = State(rewriter, op.pipeline, PRODUCER)
        one = constant(rewriter, 1)
        parity = rewriter.insert(arith.XOrIOp(state.phase, one)).result
        state.wait(rewriter, state.barrier(rewriter, CONSUMER), parity)
        slot = state.slot(rewriter)
        full = state.barrier(rewriter, PRODUCER)
        pair = is_pair(
            op.pipeline.owner if isinstance(op.pipeline.owner, Operation) else None
        )
        for use in list(op.slot.uses):
            copy = use.operation
            if isinstance(copy, CopyOp) and copy.dest is op.slot:
                tma.lower_copy_into_slot(rewriter, copy, slot, full, pair=pair)
        rewriter.replace(op, [], [_slot_tensor(rewriter, op, slot, op.slot.type)])


def _filled_by_tma(pipeline: SSAValue) -> bool:
    for use in pipeline.uses:
        acquire = use.operation
        if not isinstance(acquire, async_ops.ProducerAcquireOp):
            continue
        for slot_use in acquire.slot.uses:
            copy = slot_use.operation
            if isinstance(copy, CopyOp) and isinstance(copy.source.owner, TiledLoadOp):
                return True
    return False


class LowerProducerCommit(RewritePattern):
    """`producer_commit`: the leader arrives on full[s], expecting the slot's bytes."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ProducerCommitOp, rewriter: PatternRewriter
    ) -> None:
        if parts(op.pipeline) is None:
            return
        t = op.pipeline.type
        assert isinstance(t, PipelineType)
        if not isinstance(t.slot_type.encoding, SharedEncodingAttr):
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
        state = State(rewriter, op.pipeline, PRODUCER)
        full = state.barrier(rewriter, PRODUCER)
        leader = agent_leader(rewriter, op)
        count = slot_bytes(t)
        if is_pair(owner):
            # The even CTA's barrier counts both CTAs' loads (`tcgen05_sync.py`).
            even = in_even_cta(rewriter)
            leader = rewriter.insert(arith.AndIOp(leader, even)).result
            count *= 2
        bytes_ = constant(rewriter, count)
        rewriter.insert(nvvm_mbarrier.MBarrierArriveExpectTxOp(full, bytes_, leader))
        state.advance(rewriter)
        rewriter.erase(op)


class LowerConsumerAcquire(RewritePattern):
    """`consumer_acquire`: wait for the slot to be full."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ConsumerAcquireOp, rewriter: PatternRewriter
    ) -> None:
        if parts(op.pipeline) is None:
            return
        state = State(rewriter, op.pipeline, CONSUMER)
        state.wait(rewriter, state.barrier(rewriter, PRODUCER), state.phase)
        slot = state.slot(rewriter)
        rewriter.replace(op, [], [_slot_tensor(rewriter, op, slot, op.slot.type)])


def release(rewriter: PatternRewriter, pipeline: SSAValue) -> None:
    state = State(rewriter, pipeline, CONSUMER)
    rewriter.insert(
        nvvm_mbarrier.MBarrierArriveOp(
            state.barrier(rewriter, CONSUMER), with_state=False
        )
    )
    state.advance(rewriter)


class LowerConsumerRelease(RewritePattern):
    """`consumer_release`: every thread arrives on empty[s]."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ConsumerReleaseOp, rewriter: PatternRewriter
    ) -> None:
        if parts(op.pipeline) is None:
            return
        release(rewriter, op.pipeline)
        rewriter.erase(op)


class LowerConsumeOne(RewritePattern):
    """`consume_one`: acquire, the body on the slot, release."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ConsumeOneOp, rewriter: PatternRewriter
    ) -> None:
        if parts(op.pipeline) is None:
            return
        state = State(rewriter, op.pipeline, CONSUMER)
        state.wait(rewriter, state.barrier(rewriter, PRODUCER), state.phase)
        slot_type = op.body.block.args[0].type
        assert isinstance(slot_type, TensorType)
        slot_type = cast(TensorType[Attribute], slot_type)
        slot = _slot_tensor(rewriter, op, state.slot(rewriter), slot_type)
        terminator = op.body.block.last_op
        assert isinstance(terminator, async_ops.PipelineYieldOp)
        results = list(terminator.values)
        rewriter.erase(terminator)
        rewriter.inline_block(op.body.block, InsertPoint.before(op), [slot])
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
