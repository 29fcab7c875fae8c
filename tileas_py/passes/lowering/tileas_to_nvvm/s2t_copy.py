"""The sm100 shared -> tensor memory copy (`cute_nvgpu.atom.copy_s2t`) in
`convert-tileas-to-nvvm`: seed 002's `AtomCopyMakeS2tCopyOpLowering`, its 2-CTA arm
(PTX ISA "tcgen05.cp" and "tcgen05.commit":
https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-instructions-tcgen05-cp).

Every thread of the CTA reaches the copy. Its mbarrier is initialised first, in each
cooperating CTA, to expect one arrival (the commit's), by thread 0; then one thread
issues the copy and commits it to the mbarrier. With `cta_group = 2` (seed 002, "Blackwell
2-CTA TMEM copy") the initialisation is the 2-CTA one: `fence.mbarrier_init` for the
cluster and a cluster barrier, so that the pair's commit, which arrives in both CTAs,
finds the peer's mbarrier initialised; the issuer is the even CTA of the pair (the
direct-build predicate, no `remsi` / `andi` chain), and its `tcgen05.cp.cta_group::2`
copies each CTA's shared matrix into that CTA's tensor memory, its commit multicast to
the pair (`3 << (rank & ~1)`).

Before (a 2-CTA cluster):

    %atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 2>
    cute_nvgpu.atom.copy_s2t %atom, %tmem, %desc, %bar : !cute_nvgpu.sm100.s2t_copy<...>, !llvm.ptr<6>, !llvm.ptr<3>

After:

    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %first = arith.cmpi eq, %tid, %c0 : i32
    nvvm.mbarrier.init.shared %bar, %c1, predicate = %first : !llvm.ptr<3>, i32, i1
    nvvm.fence.mbarrier.init
    nvvm.cluster.arrive.relaxed {aligned}
    nvvm.cluster.wait {aligned}
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %even = ... (%rank & 1) == 0
    %issuer = arith.andi %even, %first : i1
    scf.if %issuer {
      nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
      nvvm.tcgen05.cp %tmem, %desc {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>, group = #nvvm.cta_group<cta_2>}
      nvvm.tcgen05.commit %bar, multicast_mask = %mask {group = #nvvm.cta_group<cta_2>}
    }

A mbarrier that is not a shared::cta address (`!llvm.ptr<3>`) cannot be initialised:
"Failed to init mbarrier", the seed's message.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.diagnostics import emit_error
from tileas_py.dialects import cute_nvgpu
from tileas_py.dialects.nvvm import mbarrier as nvvm_mbarrier
from tileas_py.dialects.nvvm import pointers
from tileas_py.dialects.nvvm import sync as nvvm_sync
from tileas_py.dialects.nvvm import tcgen05 as nvvm_tcgen05
from tileas_py.dialects.nvvm.attrs import (
    CTAGroupKind,
    CTAGroupKindAttr,
    Tcgen05CpMulticast,
    Tcgen05CpMulticastAttr,
    Tcgen05CpShape,
    Tcgen05CpShapeAttr,
    Tcgen05FenceKind,
    Tcgen05FenceKindAttr,
)
from tileas_py.passes.lowering.tileas_to_nvvm.cluster import (
    cluster_ctas,
    cluster_rank,
    cluster_sync,
    on_condition,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import constant, thread_id

_SHAPES = {
    "128x256b": (Tcgen05CpShape.SHAPE_128x256b, Tcgen05CpMulticast.NONE),
    "64x128b.warpx2::02_13": (
        Tcgen05CpShape.SHAPE_64x128b,
        Tcgen05CpMulticast.WARPX2_02_13,
    ),
    "64x128b.warpx2::01_23": (
        Tcgen05CpShape.SHAPE_64x128b,
        Tcgen05CpMulticast.WARPX2_01_23,
    ),
    "32x128b.warpx4": (Tcgen05CpShape.SHAPE_32x128b, Tcgen05CpMulticast.WARPX4),
    "128x128b": (Tcgen05CpShape.SHAPE_128x128b, Tcgen05CpMulticast.NONE),
    "4x256b": (Tcgen05CpShape.SHAPE_4x256b, Tcgen05CpMulticast.NONE),
}
"""Each S2T atom shape's `tcgen05.cp` shape and multicast."""


def _atom(op: cute_nvgpu.AtomCopyS2tOp) -> cute_nvgpu.S2tCopyAtomType:
    atom = op.atom.type
    assert isinstance(atom, cute_nvgpu.S2tCopyAtomType)
    return atom


def _cp(
    op: cute_nvgpu.AtomCopyS2tOp, atom: cute_nvgpu.S2tCopyAtomType, group: CTAGroupKind
) -> Operation:
    shape, multicast = _SHAPES[atom.shape.data]
    cp = nvvm_tcgen05.Tcgen05CpOp(op.tmem, op.desc, Tcgen05CpShapeAttr(shape))
    cp.properties["group"] = CTAGroupKindAttr(group)
    cp.properties["multicast"] = Tcgen05CpMulticastAttr(multicast)
    return cp


def _is(rewriter: PatternRewriter, value: SSAValue, expected: int) -> SSAValue:
    return rewriter.insert(
        arith.CmpiOp(value, constant(rewriter, expected), "eq")
    ).result


def init_mbarrier(
    rewriter: PatternRewriter, op: Operation, barrier: SSAValue, *, cta_group2: bool
) -> SSAValue:
    """Thread 0 of each CTA initialises `barrier` to one arrival; with `cta_group2` the
    peer CTA's commit may arrive on it, so the init is fenced for the cluster and the
    cluster meets. Returns whether the thread is thread 0."""
    if pointers.address_space(barrier.type) != pointers.SHARED:
        emit_error(op, "Failed to init mbarrier")
    first = _is(rewriter, thread_id(rewriter), 0)
    rewriter.insert(nvvm_mbarrier.MBarrierInitOp(barrier, constant(rewriter, 1), first))
    rewriter.insert(nvvm_sync.FenceMbarrierInitOp())
    if cta_group2:
        cluster_sync(rewriter, relaxed=True)
    else:
        rewriter.insert(nvvm_sync.Barrier0Op())
    return first


class LowerS2tCopy(RewritePattern):
    """`atom.copy_s2t` with a 1- or 2-CTA atom: init its mbarrier, issue the copy from
    one thread (of the even CTA of each pair), commit it to the mbarrier."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: cute_nvgpu.AtomCopyS2tOp, rewriter: PatternRewriter
    ) -> None:
        atom = _atom(op)
        cta_group = atom.cta_group.data
        if cta_group == 4:
            return
        pair = cta_group == 2
        if pair and cluster_ctas(op) % 2:
            emit_error(
                op,
                "a 2-CTA S2T copy runs on CTA pairs: the kernel's cluster must be a "
                f"multiple of 2 CTAs, got {cluster_ctas(op)}",
            )
        assert isinstance(op.mbarrier.type, LLVMPointerType)
        first = init_mbarrier(rewriter, op, op.mbarrier, cta_group2=pair)
        issuer = first
        mask = None
        if pair:
            rank = cluster_rank(rewriter)
            low = rewriter.insert(arith.AndIOp(rank, constant(rewriter, 1))).result
            even = _is(rewriter, low, 0)
            issuer = rewriter.insert(arith.AndIOp(even, first)).result
            pair_base = rewriter.insert(arith.XOrIOp(rank, low)).result
            bits = rewriter.insert(
                arith.ShLIOp(constant(rewriter, 0b11), pair_base)
            ).result
            mask = rewriter.insert(arith.TruncIOp(bits, IntegerType(16))).result
        group = CTAGroupKind.CTA_2 if pair else CTAGroupKind.CTA_1
        with on_condition(rewriter, issuer):
            rewriter.insert(
                nvvm_tcgen05.Tcgen05FenceOp(
                    Tcgen05FenceKindAttr(Tcgen05FenceKind.AFTER)
                )
            )
            rewriter.insert(_cp(op, atom, group))
            commit = nvvm_tcgen05.Tcgen05CommitOp(op.mbarrier, mask)
            commit.properties["group"] = CTAGroupKindAttr(group)
            rewriter.insert(commit)
        rewriter.erase(op)


class LowerMakeS2tCopyAtom(RewritePattern):
    """The atom is compile-time only: once its copies are lowered it goes."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: cute_nvgpu.MakeS2tCopyAtomOp, rewriter: PatternRewriter
    ) -> None:
        if not op.result.uses:
            rewriter.erase(op)


PATTERNS = (LowerS2tCopy(), LowerMakeS2tCopyAtom())
