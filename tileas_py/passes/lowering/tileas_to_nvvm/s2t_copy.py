"""The sm100 shared -> tensor memory copy (`cute_nvgpu.atom.copy_s2t`) in
`convert-tileas-to-nvvm`: seed 002's `AtomCopyMakeS2tCopyOpLowering`, its 1-, 2- and
4-CTA arms (PTX ISA "tcgen05.cp" and "tcgen05.commit":
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

With `cta_group = 4` (seed 002, "Blackwell 4-CTA MMA path") the multicast width is 4
(the `32x128b.warpx4` shape); PTX has no `cta_group::4`, so the four CTAs are two pairs:
the issuers are thread 0 of the CTAs with `((rank rem 4) & 1) != 0` (the seed's
`arith.remsi` / `arith.andi` rank predicate, wrapped in `cute_nvgpu.arch.make_warp_uniform`,
which lowers to nothing), each issuing its pair's `tcgen05.cp.cta_group::2` into its
slice of the destination (`cute_nvgpu.atom.partition_d`: `(rank mod 4) * 4` columns on).

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
    pair_mask,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    agent_of,
    constant,
    thread_id,
)
from tileas_py.passes.lowering.tileas_to_nvvm.tmem import tmem_address

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
    op: cute_nvgpu.AtomCopyS2tOp,
    atom: cute_nvgpu.S2tCopyAtomType,
    group: CTAGroupKind,
    destination: SSAValue,
) -> Operation:
    shape, multicast = _SHAPES[atom.shape.data]
    cp = nvvm_tcgen05.Tcgen05CpOp(destination, op.desc, Tcgen05CpShapeAttr(shape))
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


_GROUPS = {2: "CTA pairs", 4: "groups of 4 CTAs"}


def _issuer(
    rewriter: PatternRewriter,
    atom: cute_nvgpu.S2tCopyAtomType,
    first: SSAValue,
    rank: SSAValue,
    low: SSAValue,
) -> SSAValue:
    """Whether the thread issues its pair's copy. 2-CTA: thread 0 of the even CTA (the
    direct-build predicate). 4-CTA: thread 0 of the CTAs whose rank in the group of
    `multicast_width` is odd (`(rank rem w) & 1`), made warp-uniform. `low` is
    `rank & 1`."""
    if atom.cta_group.data == 2:
        return rewriter.insert(arith.AndIOp(_is(rewriter, low, 0), first)).result
    width = constant(rewriter, atom.multicast_width)
    in_group = rewriter.insert(arith.RemSIOp(rank, width)).result
    parity = rewriter.insert(arith.AndIOp(in_group, constant(rewriter, 1))).result
    odd = rewriter.insert(arith.CmpiOp(parity, constant(rewriter, 0), "ne")).result
    issuer = rewriter.insert(arith.AndIOp(odd, first)).result
    return rewriter.insert(cute_nvgpu.MakeWarpUniformOp(issuer)).result


class LowerS2tCopy(RewritePattern):
    """`atom.copy_s2t`: init its mbarrier, issue the copy from one thread (of one CTA of
    each pair with a 2- or 4-CTA atom), commit it to the mbarrier. The 4-CTA copy is the
    pairs' `cta_group::2` copy into each issuing CTA's slice (`atom.partition_d`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: cute_nvgpu.AtomCopyS2tOp, rewriter: PatternRewriter
    ) -> None:
        if agent_of(op) is not None:
            emit_error(
                op,
                "an S2T copy initialises its mbarrier with a CTA or cluster barrier: it "
                "must run on the whole CTA, not in an agent",
            )
        atom = _atom(op)
        cta_group = atom.cta_group.data
        ctas = cluster_ctas(op)
        if cta_group > 1 and ctas % cta_group:
            emit_error(
                op,
                f"a {cta_group}-CTA S2T copy runs on {_GROUPS[cta_group]}: the "
                f"kernel's cluster must be a multiple of {cta_group} CTAs, got {ctas}",
            )
        first = init_mbarrier(rewriter, op, op.mbarrier, cta_group2=cta_group > 1)
        issuer = first
        mask = None
        destination = op.tmem
        if cta_group > 1:
            rank = cluster_rank(rewriter)
            low = rewriter.insert(arith.AndIOp(rank, constant(rewriter, 1))).result
            issuer = _issuer(rewriter, atom, first, rank, low)
            if cta_group == 4:
                destination = rewriter.insert(
                    cute_nvgpu.AtomPartitionDOp(op.atom, op.tmem, rank)
                ).result
            mask = pair_mask(rewriter, op, rank)
        group = CTAGroupKind.CTA_1 if cta_group == 1 else CTAGroupKind.CTA_2
        with on_condition(rewriter, issuer):
            rewriter.insert(
                nvvm_tcgen05.Tcgen05FenceOp(
                    Tcgen05FenceKindAttr(Tcgen05FenceKind.AFTER)
                )
            )
            rewriter.insert(_cp(op, atom, group, destination))
            commit = nvvm_tcgen05.Tcgen05CommitOp(op.mbarrier, mask)
            commit.properties["group"] = CTAGroupKindAttr(group)
            rewriter.insert(commit)
        rewriter.erase(op)


class LowerPartitionD(RewritePattern):
    """`atom.partition_d`: the destination moved by `(rank mod cta_group)` slices."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: cute_nvgpu.AtomPartitionDOp, rewriter: PatternRewriter
    ) -> None:
        atom = op.atom.type
        assert isinstance(atom, cute_nvgpu.S2tCopyAtomType)
        group = constant(rewriter, atom.cta_group.data)
        index = rewriter.insert(arith.RemUIOp(op.rank, group)).result
        width = constant(rewriter, op.slice_columns)
        columns = rewriter.insert(arith.MuliOp(index, width)).result
        rewriter.replace(op, [], [tmem_address(rewriter, op.tmem, columns)])


class LowerMakeWarpUniform(RewritePattern):
    """`arch.make_warp_uniform` is a promise to the compiler: PTX has no instruction for
    it, so the value is used as it is."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: cute_nvgpu.MakeWarpUniformOp, rewriter: PatternRewriter
    ) -> None:
        rewriter.replace(op, [], [op.value])


class LowerMakeS2tCopyAtom(RewritePattern):
    """The atom is compile-time only: once its copies are lowered it goes."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: cute_nvgpu.MakeS2tCopyAtomOp, rewriter: PatternRewriter
    ) -> None:
        if not op.result.uses:
            rewriter.erase(op)


PATTERNS = (
    LowerS2tCopy(),
    LowerPartitionD(),
    LowerMakeWarpUniform(),
    LowerMakeS2tCopyAtom(),
)
