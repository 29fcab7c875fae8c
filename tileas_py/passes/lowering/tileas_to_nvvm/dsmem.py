"""A `convert_layout` that moves a register tile between the CTAs of a cluster, through
distributed shared memory (DSMEM), in `convert-tileas-to-nvvm`.

A conversion between blocked register tiles of one layout whose CTA layouts differ
(`cta.py`) is lowered when it is a *gather*: each CTA's new piece is made of whole old
pieces (the new split divides the old one in every dimension; a replicated result, every
CTA holding the whole tile, is the all-gather). Each CTA gets a shared buffer of its new
piece (dense, in the layout's order), and, with seed 002's DSMEM handshake (the cluster
meets first, so that every CTA runs and the previous reads of the buffer are done):

- `scf.if` on the CTA's rank (`%cluster_ctarank`): the CTA of the lowest rank holding an
  old piece sends it; each of its threads writes its elements into the buffer of every
  CTA whose new piece holds them, at their place there: `nvvm.mapa` of the local address
  to the peer's (`st.shared::cluster`);
- a release fence, then `barrier.cluster.arrive.relaxed` (the fence releases the writes,
  so the arrive need not) and `barrier.cluster.wait` (acquire); the seed's fence is
  `fence.release.cluster;`, which ptxas takes only from PTX ISA 8.6 on, so it is
  `fence.acq_rel.cluster;` here (docs/fidelity.md);
- each thread reads its elements of the new piece from its own buffer (`ld.shared`).

Seed 002's emitter also counts the bytes a CTA receives on an mbarrier (`expect_tx`): its
writes complete transactions (`st.async`); these are plain stores, ordered by the
cluster barrier, so there are no transactions to expect (docs/fidelity.md).

A conversion from a split shared tile (a pipeline slot) to a register tile that is a
gather once read is first split in two by `cta.py`: each CTA reads its piece into the
result's register layout, then the pieces are gathered (tileas-remove-layout-conversions
folds the two conversions a kernel writes into this one).

What is not a gather (pieces that would be cut, a scatter of a replicated tile, shared or
MMA tiles, two register layouts), and a gather inside a warp-specialised agent (the
cluster barrier needs every thread of the cluster), get a diagnostic of `cta.py`.

Before (2 CTAs, each holding 64 of 128 rows; after, both hold all 128):

    %g = nv_tileas.convert_layout %t : tensor<128x32xf32, #blocked_rows> -> tensor<128x32xf32, #blocked>

After (rank 0's part; rank 1's writes its rows at offset 64 * 32), abridged:

    nvvm.cluster.arrive {aligned}
    nvvm.cluster.wait {aligned}
    scf.if %rank_is_0 {
      %to0 = nvvm.mapa %here, %c0 : !llvm.ptr<3> -> !llvm.ptr<7>
      llvm.store %e0, %to0 : f32, !llvm.ptr<7>   ... (every element, to CTA 0 and CTA 1)
    }
    llvm.inline_asm has_side_effects "fence.acq_rel.cluster;", ""
    nvvm.cluster.arrive.relaxed {aligned}
    nvvm.cluster.wait {aligned}
    %v0 = llvm.load %there : !llvm.ptr<3> -> f32   ... (the 128x32 tile's elements)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith, llvm
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.dialects.nv_tileas.attrs import (
    BlockedEncodingAttr,
    CTALayoutAttr,
    encoding_of,
    ints,
)
from tileas_py.dialects.nv_tileas.ops import ConvertLayoutOp
from tileas_py.dialects.nvvm import cluster as nvvm_cluster
from tileas_py.passes.lowering.tileas_to_nvvm.blocked import (
    blocked_tile,
    dense_strides,
    element_address,
    load_elements,
    origin_address,
    store_elements,
)
from tileas_py.passes.lowering.tileas_to_nvvm.cluster import (
    cluster_rank,
    cluster_sync,
    on_condition,
    remote,
)
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    element_bits,
    from_llvm,
    to_llvm,
)
from tileas_py.passes.lowering.tileas_to_nvvm.cta import (
    FROM_CTA,
    TO_CTA,
    cta_coordinates,
)
from tileas_py.passes.lowering.tileas_to_nvvm.kernel import (
    DEFAULT_ALIGNMENT,
    SharedRequest,
    shared_slice,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import constant

RELEASE_FENCE = "fence.acq_rel.cluster;"
"""Seed 002 emits `fence.release.cluster;`, which ptxas 13.5 accepts only from PTX ISA 8.6
on (our PTX is 8.0); `fence.acq_rel.cluster` (PTX 7.8, sm_90) releases as well."""

Piece = tuple[int, ...]


def cta_piece(cta: CTALayoutAttr, rank: int) -> Piece:
    """The piece CTA `rank` holds under `cta`."""
    split = ints(cta.split)
    return tuple(c % s for c, s in zip(cta_coordinates(cta, rank), split, strict=True))


def sends(
    old: CTALayoutAttr, new: CTALayoutAttr | None, old_shape: Sequence[int]
) -> dict[int, list[tuple[int, Piece]]]:
    """For each CTA that sends: the CTAs it sends its piece to, each with the element
    coordinates of that piece in theirs. Of CTAs holding the same old piece, the lowest
    rank sends it."""
    ctas = old.num_ctas
    rank = len(old_shape)
    new_split = ints(new.split) if new is not None else (1,) * rank
    new_shape = [
        o * s // t
        for o, s, t in zip(old_shape, ints(old.split), new_split, strict=True)
    ]
    sent: set[Piece] = set()
    plan: dict[int, list[tuple[int, Piece]]] = {}
    for sender in range(ctas):
        piece = cta_piece(old, sender)
        if piece in sent:
            continue
        sent.add(piece)
        start = [p * n for p, n in zip(piece, old_shape, strict=True)]
        for receiver in range(ctas):
            theirs = cta_piece(new, receiver) if new is not None else (0,) * rank
            first = [q * n for q, n in zip(theirs, new_shape, strict=True)]
            inside = all(
                f <= s < f + n for f, s, n in zip(first, start, new_shape, strict=True)
            )
            if inside:
                at = tuple(s - f for s, f in zip(start, first, strict=True))
                plan.setdefault(sender, []).append((receiver, at))
    return plan


def _buffer_request(op: Operation) -> tuple[int, int] | None:
    """A gathering `convert_layout`: its new piece, in shared memory."""
    if FROM_CTA not in op.attributes:
        return None
    assert isinstance(op, ConvertLayoutOp)
    t = op.result.type
    bits = element_bits(t.get_element_type()) * math.prod(t.get_shape())
    return bits // 8, DEFAULT_ALIGNMENT


class LowerClusterGather(RewritePattern):
    """A gathering `convert_layout` through distributed shared memory (module doc)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        old = op.attributes.get(FROM_CTA)
        if not isinstance(old, CTALayoutAttr):
            return
        new = op.attributes.get(TO_CTA)
        assert new is None or isinstance(new, CTALayoutAttr)
        source, result = blocked_tile(op, op.source), blocked_tile(op, op.result)
        assert source is not None
        assert result is not None
        buffer = shared_slice(rewriter, op)
        assert buffer is not None
        order = ints(cast(BlockedEncodingAttr, encoding_of(op.result.type)).order)
        strides = dense_strides(result.shape, order)
        values = to_llvm(rewriter, op.source, op, source.llvm_type)

        cluster_sync(rewriter)
        rank = cluster_rank(rewriter)
        here = origin_address(rewriter, source, buffer, strides)
        for sender, receivers in sends(old, new, source.shape).items():
            is_sender = rewriter.insert(
                arith.CmpiOp(rank, constant(rewriter, sender), "eq")
            ).result
            with on_condition(rewriter, is_sender):
                for receiver, at in receivers:
                    local = element_address(
                        rewriter, here, _dot(at, strides), source.element
                    )
                    there = remote(rewriter, local, constant(rewriter, receiver))
                    store_elements(rewriter, source, values, there, strides)
        rewriter.insert(llvm.InlineAsmOp(RELEASE_FENCE, "", [], has_side_effects=True))
        rewriter.insert(nvvm_cluster.ClusterArriveRelaxedOp(aligned=True))
        rewriter.insert(nvvm_cluster.ClusterWaitOp(aligned=True))
        mine = origin_address(rewriter, result, buffer, strides)
        gathered = load_elements(rewriter, result, mine, strides)
        rewriter.replace(op, [], [from_llvm(rewriter, gathered, op, op.result.type)])


def _dot(a: Sequence[int], b: Sequence[int]) -> int:
    return sum(x * y for x, y in zip(a, b, strict=True))


SHARED: dict[type[Operation], SharedRequest] = {ConvertLayoutOp: _buffer_request}

PATTERNS: tuple[RewritePattern, ...] = (LowerClusterGather(),)
