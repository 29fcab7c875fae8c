"""mbarriers, async fences and the cluster barrier in `convert-tileas-to-nvvm` (PTX ISA
"mbarrier" and "barrier.cluster":
https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-mbarrier).

An `nv_tileas.mbarrier` is 8 bytes of the kernel's shared buffer (`SHARED` below). Its
arrivals are counted per *agent*: each agent's leader (`threads.py`) arrives once, so
`arrive_count` is the number of agents that arrive in a phase.

| tile op | nvvm |
| --- | --- |
| `mbarrier.create arrive_count = N` | the CTA's leader: `mbarrier.init %bar, N`; `fence.mbarrier.init`; `barrier0` (so it must run on the whole CTA) |
| `mbarrier.arrive %bar` | leader: `mbarrier.arrive` |
| `mbarrier.expect_tx %bar bytes = B` | leader: `mbarrier.expect_tx.relaxed.cta.shared::cta.b64` (inline asm: NVVM has no op for it) |
| `mbarrier.wait %bar, %phase` | `mbarrier.try_wait.parity` (every thread) |
| `async.fence` | `fence.proxy.async.shared::cta` |
| `async.arrive %bar` | `cp.async.mbarrier.arrive.noinc.shared::cta.b64` (inline asm) |
| `cluster_barrier.arrive [relaxed]` / `.wait` | `barrier.cluster.arrive[.relaxed].aligned` / `barrier.cluster.wait.aligned` |
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas import async_ops
from tileas_py.dialects.nv_tileas.attrs import MBarrierType
from tileas_py.dialects.nvvm import cluster as nvvm_cluster
from tileas_py.dialects.nvvm import mbarrier as nvvm_mbarrier
from tileas_py.dialects.nvvm import sync as nvvm_sync
from tileas_py.dialects.nvvm.attrs import (
    ProxyKind,
    ProxyKindAttr,
    SharedSpace,
    SharedSpaceAttr,
)
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    SHARED_PTR,
    from_llvm,
    to_llvm,
)
from tileas_py.passes.lowering.tileas_to_nvvm.kernel import (
    SMEM_OFFSET,
    SharedRequest,
    shared_buffer_name,
)
from tileas_py.passes.lowering.tileas_to_nvvm.ocg_knobs import (
    emit_pragmas_before,
    emit_pragmas_in,
    take_pragmas,
)
from tileas_py.passes.lowering.tileas_to_nvvm.pipeline import WAIT_TICKS, kernel_of
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    agent_leader,
    agent_of,
    constant,
    shared_address,
)

MBARRIER_BYTES = 8


def _mbarrier_request(op: Operation) -> tuple[int, int] | None:
    return MBARRIER_BYTES, MBARRIER_BYTES


SHARED: dict[type[Operation], SharedRequest] = {
    async_ops.MBarrierCreateOp: _mbarrier_request,
}


def on_leader(rewriter: PatternRewriter, op: Operation) -> Block:
    """An `scf.if` on the agent's leader before `op`; returns its body to fill (before
    its yield)."""
    leader = agent_leader(rewriter, op)
    block = Block()
    block.add_op(scf.YieldOp())
    rewriter.insert(scf.IfOp(leader, [], Region(block), Region()))
    return block


class LowerMBarrierCreate(RewritePattern):
    """`mbarrier.create`: the CTA's leader initialises it; the CTA waits for the init."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.MBarrierCreateOp, rewriter: PatternRewriter
    ) -> None:
        offset = op.attributes.get(SMEM_OFFSET)
        if not isinstance(offset, IntegerAttr):
            return
        if agent_of(op) is not None:
            emit_error(op, "mbarrier.create must run on the whole CTA, not in an agent")
        knobs = take_pragmas(rewriter, op)
        base = rewriter.insert(
            llvm.AddressOfOp(shared_buffer_name(kernel_of(op)), SHARED_PTR)
        ).result
        bar = shared_address(rewriter, base, offset.value.data)
        leader = agent_leader(rewriter, op)
        count = constant(rewriter, op.arrive_count.value.data)
        emit_pragmas_before(rewriter, knobs)
        rewriter.insert(nvvm_mbarrier.MBarrierInitOp(bar, count, leader))
        rewriter.insert(nvvm_sync.FenceMbarrierInitOp())
        rewriter.insert(nvvm_sync.Barrier0Op())
        rewriter.replace(op, [], [from_llvm(rewriter, bar, op, MBarrierType())])


class LowerMBarrierArrive(RewritePattern):
    """`mbarrier.arrive`: the agent's leader arrives."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.MBarrierArriveOp, rewriter: PatternRewriter
    ) -> None:
        knobs = take_pragmas(rewriter, op)
        bar = to_llvm(rewriter, op.barrier, op, SHARED_PTR)
        body = on_leader(rewriter, op)
        arrive = nvvm_mbarrier.MBarrierArriveOp(bar, with_state=False)
        body.insert_op_before(arrive, body.first_op)  # pyright: ignore[reportArgumentType]
        emit_pragmas_in(body, arrive, knobs)
        rewriter.erase(op)


class LowerMBarrierExpectTx(RewritePattern):
    """`mbarrier.expect_tx`: the agent's leader raises the transaction count."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.MBarrierExpectTxOp, rewriter: PatternRewriter
    ) -> None:
        knobs = take_pragmas(rewriter, op)
        bar = to_llvm(rewriter, op.barrier, op, SHARED_PTR)
        bytes_ = constant(rewriter, op.bytes.value.data)
        body = on_leader(rewriter, op)
        asm = llvm.InlineAsmOp(
            "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [$0], $1;",
            "l,r",
            [bar, bytes_],
            has_side_effects=True,
        )
        body.insert_op_before(asm, body.first_op)  # pyright: ignore[reportArgumentType]
        emit_pragmas_in(body, asm, knobs)
        rewriter.erase(op)


class LowerMBarrierWait(RewritePattern):
    """`mbarrier.wait`: every thread waits for the phase of that parity."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.MBarrierWaitOp, rewriter: PatternRewriter
    ) -> None:
        knobs = take_pragmas(rewriter, op)
        bar = to_llvm(rewriter, op.barrier, op, SHARED_PTR)
        parity = rewriter.insert(arith.ExtUIOp(op.phase, i32)).result
        ticks = constant(rewriter, WAIT_TICKS)
        emit_pragmas_before(rewriter, knobs)
        rewriter.insert(nvvm_mbarrier.MBarrierTryWaitParityOp(bar, parity, ticks))
        rewriter.erase(op)


class LowerAsyncFence(RewritePattern):
    """`async.fence`: `fence.proxy.async.shared::cta`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.AsyncFenceOp, rewriter: PatternRewriter
    ) -> None:
        knobs = take_pragmas(rewriter, op)
        fence = nvvm_sync.FenceProxyOp(
            ProxyKindAttr(ProxyKind.ASYNC_SHARED), SharedSpaceAttr(SharedSpace.CTA)
        )
        emit_pragmas_before(rewriter, knobs)
        rewriter.replace(op, fence)


class LowerAsyncArrive(RewritePattern):
    """`async.arrive`: `cp.async.mbarrier.arrive.noinc` (every thread)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.AsyncArriveOp, rewriter: PatternRewriter
    ) -> None:
        knobs = take_pragmas(rewriter, op)
        bar = to_llvm(rewriter, op.barrier, op, SHARED_PTR)
        asm = llvm.InlineAsmOp(
            "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [$0];",
            "l",
            [bar],
            has_side_effects=True,
        )
        emit_pragmas_before(rewriter, knobs)
        rewriter.replace(op, asm)


class LowerClusterBarrier(RewritePattern):
    """`cluster_barrier.arrive [relaxed]` / `cluster_barrier.wait`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: async_ops.ClusterBarrierArriveOp | async_ops.ClusterBarrierWaitOp,
        rewriter: PatternRewriter,
    ) -> None:
        if isinstance(op, async_ops.ClusterBarrierWaitOp):
            new: Operation = nvvm_cluster.ClusterWaitOp(aligned=True)
        elif op.relaxed is not None:
            new = nvvm_cluster.ClusterArriveRelaxedOp(aligned=True)
        else:
            new = nvvm_cluster.ClusterArriveOp(aligned=True)
        emit_pragmas_before(rewriter, take_pragmas(rewriter, op))
        rewriter.replace(op, new)


PATTERNS: tuple[RewritePattern, ...] = (
    LowerMBarrierCreate(),
    LowerMBarrierArrive(),
    LowerMBarrierExpectTx(),
    LowerMBarrierWait(),
    LowerAsyncFence(),
    LowerAsyncArrive(),
    LowerClusterBarrier(),
)
