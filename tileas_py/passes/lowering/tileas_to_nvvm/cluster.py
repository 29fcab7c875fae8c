"""What the CTAs of a cluster share, for the patterns of `convert-tileas-to-nvvm` that
make them talk to each other (TMA multicast, DSMEM conversions, the cluster's tile
scheduler); PTX ISA "Distributed shared memory" and "mapa":
https://docs.nvidia.com/cuda/parallel-thread-execution/#distributed-shared-memory.

- `cluster_ctas(op)`: the CTAs per cluster of the kernel holding `op` (its
  `nv_tileaa.kernel_spec`'s `num_ctas`, or once lowered its `nvvm.cluster_dim`);
- `rank_in(rewriter, mask, rank)`: whether bit `rank` of a compile-time set of ranks is
  set, for what depends on the CTA's rank (`%cluster_ctarank`);
- `on_condition(rewriter, condition)`: code inside an `scf.if`;
- `remote(rewriter, address, rank)`: `nvvm.mapa` of a shared::cta address to the same
  offset in CTA `rank` (a shared::cluster address, `!llvm.ptr<7>`);
- `arrive_remote(rewriter, barrier)`: an arrival on a peer's mbarrier;
- `cluster_sync(rewriter)`: every thread of the cluster meets (`barrier.cluster.arrive`
  and `.wait`, both `.aligned`); after `fence.mbarrier_init` the arrive is `.relaxed`,
  as CUTLASS's cluster set-up does.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from contextlib import contextmanager

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import DenseArrayBase, i16, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from tileas_py.dialects.nv_tileaa import kernel_spec_of
from tileas_py.dialects.nvvm import cluster as nvvm_cluster
from tileas_py.dialects.nvvm import sreg
from tileas_py.dialects.nvvm.kernel import CLUSTER_DIM
from tileas_py.passes.lowering.tileas_to_nvvm.threads import constant


def enclosing_function(op: Operation) -> Operation:
    """The function-like op (tile kernel, function or its `llvm.func`) holding `op`."""
    current: Operation | None = op
    while current is not None and "sym_name" not in current.properties:
        current = current.parent_op()
    assert current is not None
    return current


def cluster_ctas(op: Operation) -> int:
    """The CTAs per cluster of the kernel that holds `op` (1: no cluster)."""
    function = enclosing_function(op)
    spec = kernel_spec_of(function)
    if spec is not None:
        return spec.num_ctas.data
    dims = function.attributes.get(CLUSTER_DIM)
    if isinstance(dims, DenseArrayBase):
        return math.prod(int(v) for v in dims.get_values())  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    return 1


def cluster_rank(rewriter: PatternRewriter) -> SSAValue:
    """`%cluster_ctarank`."""
    return rewriter.insert(sreg.ClusterIdOp(i32)).res


def pair_mask(
    rewriter: PatternRewriter, at: Operation, rank: SSAValue | None = None
) -> SSAValue:
    """The i16 CTA mask of the pair (`.cta_group::2`) that holds this CTA, for a
    multicast `tcgen05.commit`: ranks `rank & ~1` and `rank | 1` (`rank`: the CTA's
    `%cluster_ctarank`, read if not given), so `0b11` when the cluster of the kernel
    holding `at` is the pair itself."""
    if cluster_ctas(at) <= 2:
        return constant(rewriter, 0b11, i16)
    rank = cluster_rank(rewriter) if rank is None else rank
    even = rewriter.insert(arith.AndIOp(rank, constant(rewriter, -2))).result
    bits = rewriter.insert(arith.ShLIOp(constant(rewriter, 0b11), even)).result
    return rewriter.insert(arith.TruncIOp(bits, i16)).result


def rank_in(rewriter: PatternRewriter, mask: int, rank: SSAValue) -> SSAValue:
    """An i1: whether `rank` is in the set of ranks whose bits `mask` sets."""
    shifted = rewriter.insert(arith.ShRUIOp(constant(rewriter, mask), rank)).result
    bit = rewriter.insert(arith.AndIOp(shifted, constant(rewriter, 1))).result
    return rewriter.insert(arith.CmpiOp(bit, constant(rewriter, 0), "ne")).result


@contextmanager
def on_condition(rewriter: PatternRewriter, condition: SSAValue) -> Generator[None]:
    """Inside the `with`, the rewriter inserts into the body of an `scf.if` on
    `condition` made at its insertion point."""
    yield_ = scf.YieldOp()
    rewriter.insert(scf.IfOp(condition, [], Region(Block([yield_])), Region()))
    saved = rewriter.insertion_point
    rewriter.insertion_point = InsertPoint.before(yield_)
    try:
        yield
    finally:
        rewriter.insertion_point = saved


def remote(rewriter: PatternRewriter, address: SSAValue, rank: SSAValue) -> SSAValue:
    """The shared::cluster address of `address` (shared::cta) in CTA `rank`."""
    return rewriter.insert(nvvm_cluster.MapaOp(address, rank)).res


def peer(rewriter: PatternRewriter, rank: SSAValue, k: int) -> SSAValue:
    """CTA `rank ^ k`: for k = 1 .. N - 1 the other CTAs of a cluster of N (a power of
    two), each once."""
    return rewriter.insert(arith.XOrIOp(rank, constant(rewriter, k))).result


def arrive_remote(rewriter: PatternRewriter, barrier: SSAValue) -> None:
    """Arrive on the mbarrier at a shared::cluster address with the default semantics
    (`.release.cta`), as CUTLASS's `ClusterBarrier::arrive(cta_id)` does: `nvvm.mbarrier.arrive`
    on a shared::cluster pointer is `.release.cluster`, which ptxas turns into
    `MEMBAR.ALL.GPU` before the arrival."""
    rewriter.insert(
        llvm.InlineAsmOp(
            "mbarrier.arrive.shared::cluster.b64 _, [$0];",
            "l",
            [barrier],
            has_side_effects=True,
        )
    )


def cluster_sync(rewriter: PatternRewriter, *, relaxed: bool = False) -> None:
    """Every thread of the cluster meets: `barrier.cluster.arrive[.relaxed]` +
    `barrier.cluster.wait`."""
    arrive = (
        nvvm_cluster.ClusterArriveRelaxedOp(aligned=True)
        if relaxed
        else nvvm_cluster.ClusterArriveOp(aligned=True)
    )
    rewriter.insert(arrive)
    rewriter.insert(nvvm_cluster.ClusterWaitOp(aligned=True))


def shared_base(rewriter: PatternRewriter, function: Operation) -> SSAValue:
    """The address of the kernel's shared buffer."""
    from tileas_py.passes.lowering.tileas_to_nvvm.conventions import SHARED_PTR
    from tileas_py.passes.lowering.tileas_to_nvvm.kernel import shared_buffer_name

    return rewriter.insert(
        llvm.AddressOfOp(shared_buffer_name(function), SHARED_PTR)
    ).result
