"""A `convert_layout` that moves a register tile between the CTAs of a cluster, through
distributed shared memory (DSMEM), in `convert-tileas-to-nvvm`.

A conversion between blocked register tiles of one layout whose CTA layouts differ
(`cta.py`) is lowered when it is a *gather*: each CTA's new piece is made of whole old
pieces (the new split divides the old one in every dimension; a replicated result, every
CTA holding the whole tile, is the all-gather). Each CTA gets a shared buffer of its new
piece (dense, in the layout's order) and an mbarrier after it, and runs seed 002's DSMEM
transaction handshake:

- the CTA's leader initialises the mbarrier (one arrival) and arrives on it expecting
  the bytes the CTA receives, its whole new piece (`mbarrier.arrive.expect_tx`);
- a release fence, `barrier.cluster.arrive.relaxed` and `barrier.cluster.wait`: the
  cluster meets, so that every peer runs, its mbarrier is initialised and its reads of
  its buffer in a previous run of the conversion are done. The seed's fence is
  `fence.release.cluster;`, which ptxas takes only from PTX ISA 8.6 on; it is
  `fence.acq_rel.cluster;` here, in PTX 8.1 (docs/fidelity.md);
- `scf.if` on the CTA's rank (`%cluster_ctarank`): the CTA of the lowest rank holding an
  old piece sends it; each of its threads writes its elements into the buffer of every
  CTA whose new piece holds them, at their place there, completing their bytes on that
  CTA's mbarrier: `nvvm.mapa` of the buffer and of the mbarrier to the peer's, then
  `st.async.shared::cluster.mbarrier::complete_tx::bytes` (PTX 8.1, raised with
  `require_ptx`). `st.async` stores 32 or 64 bits: narrower elements go in 32-bit
  words, each thread's runs along the contiguous dimension packed (`cta.py` diagnoses
  runs that do not fill words);
- every thread waits for the mbarrier's phase 0 (`mbarrier.try_wait.parity`), then reads
  its elements of the new piece from its own buffer (`ld.shared`);
- `bar.sync 0`: the CTA is done with the phase before its leader initialises the
  mbarrier again (a conversion in a loop).

A conversion from a split shared tile (a pipeline slot) to a register tile that is a
gather once read is first split in two by `cta.py`: each CTA reads its piece into the
result's register layout, then the pieces are gathered (tileas-remove-layout-conversions
folds the two conversions a kernel writes into this one).

What is not a gather (pieces that would be cut, a scatter of a replicated tile, shared or
MMA tiles, two register layouts), a gather inside a warp-specialised agent (the cluster
barrier needs every thread of the cluster) and elements that do not fill words get a
diagnostic of `cta.py`.

Before (2 CTAs, each holding 64 of 128 rows; after, both hold all 128):

    %g = nv_tileas.convert_layout %t : tensor<128x32xf32, #blocked_rows> -> tensor<128x32xf32, #blocked>

After (rank 0's part; rank 1's writes its rows at offset 64 * 32), abridged:

    nvvm.mbarrier.init %bar, %c1, predicate = %leader : !llvm.ptr<3>, i32, i1
    nvvm.mbarrier.arrive.expect_tx %bar, %c16384, predicate = %leader : !llvm.ptr<3>, i32, i1
    llvm.inline_asm has_side_effects "fence.acq_rel.cluster;", ""
    nvvm.cluster.arrive.relaxed {aligned}
    nvvm.cluster.wait {aligned}
    scf.if %rank_is_0 {
      %to0 = nvvm.mapa %here, %c0 : !llvm.ptr<3> -> !llvm.ptr<7>
      %bar0 = nvvm.mapa %bar, %c0 : !llvm.ptr<3> -> !llvm.ptr<7>
      llvm.inline_asm has_side_effects "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$0], $1, [$2];", "l,f,l" %to0, %e0, %bar0
      ... (every element, to CTA 0 and CTA 1)
    }
    nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
    %v0 = llvm.load %there : !llvm.ptr<3> -> f32   ... (the 128x32 tile's elements)
    nvvm.barrier0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import AnyFloat, IntegerType, i32
from xdsl.ir import Operation, SSAValue
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
from tileas_py.dialects.nvvm import mbarrier as nvvm_mbarrier
from tileas_py.dialects.nvvm import sync as nvvm_sync
from tileas_py.dialects.nvvm.target import require_ptx
from tileas_py.passes.lowering.tileas_to_nvvm.blocked import (
    blocked_tile,
    dense_strides,
    element_address,
    load_elements,
    origin_address,
)
from tileas_py.passes.lowering.tileas_to_nvvm.cluster import (
    cluster_rank,
    cluster_sync,
    on_condition,
    remote,
)
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    BlockedTile,
    element_bits,
    extract_member,
    from_llvm,
    to_llvm,
)
from tileas_py.passes.lowering.tileas_to_nvvm.cta import (
    FROM_CTA,
    TO_CTA,
    WORD_BITS,
    cta_coordinates,
)
from tileas_py.passes.lowering.tileas_to_nvvm.kernel import (
    DEFAULT_ALIGNMENT,
    SharedRequest,
    shared_slice,
)
from tileas_py.passes.lowering.tileas_to_nvvm.mbarrier import MBARRIER_BYTES
from tileas_py.passes.lowering.tileas_to_nvvm.pipeline import WAIT_TICKS
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    agent_leader,
    constant,
    shared_address,
)

RELEASE_FENCE = "fence.acq_rel.cluster;"
"""Seed 002 emits `fence.release.cluster;`, which ptxas 13.5 accepts only from PTX ISA 8.6
on (the gather's PTX is 8.1); `fence.acq_rel.cluster` (PTX 7.8, sm_90) releases as
well."""

ASYNC_STORE = "st.async.shared::cluster.mbarrier::complete_tx::bytes"
"""A store into a peer's shared memory that completes its bytes on the peer's mbarrier
(sm_90): NVVM has no op for it."""

ASYNC_STORE_PTX = 81
"""`st.async` needs PTX ISA 8.1 (ptxas: "Feature 'st.async' requires PTX ISA .version
8.1 or later")."""

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


def _piece_bytes(op: ConvertLayoutOp) -> int:
    """The bytes of the new piece: what each CTA receives."""
    t = op.result.type
    return element_bits(t.get_element_type()) * math.prod(t.get_shape()) // 8


def _buffer_request(op: Operation) -> tuple[int, int] | None:
    """A gathering `convert_layout`: its new piece, in shared memory, then its
    mbarrier."""
    if FROM_CTA not in op.attributes:
        return None
    assert isinstance(op, ConvertLayoutOp)
    return _mbarrier_offset(op) + MBARRIER_BYTES, DEFAULT_ALIGNMENT


def _mbarrier_offset(op: ConvertLayoutOp) -> int:
    return -(-_piece_bytes(op) // MBARRIER_BYTES) * MBARRIER_BYTES


def words(tile: BlockedTile) -> list[list[int]]:
    """The thread's elements of `tile` (indices into its struct) grouped into the words
    that `st.async` stores: each element alone if it has 32 or more bits, else the
    elements of each aligned run of a word along the contiguous dimension (the
    thread's runs fill whole words there, which `cta.fills_words` checks)."""
    bits = element_bits(tile.element)
    if bits >= WORD_BITS:
        return [[i] for i in range(len(tile.offsets))]
    per_word = WORD_BITS // bits
    fast = tile.order[0]
    index = {offset: i for i, offset in enumerate(tile.offsets)}
    grouped: list[list[int]] = []
    for offset in tile.offsets:
        if offset[fast] % per_word:
            continue
        run = [list(offset) for _ in range(per_word)]
        for k, element in enumerate(run):
            element[fast] += k
        grouped.append([index[tuple(element)] for element in run])
    return grouped


def word(rewriter: PatternRewriter, members: Sequence[SSAValue]) -> SSAValue:
    """One element, or narrow elements packed into an i32, the first lowest."""
    if len(members) == 1:
        return members[0]
    bits = element_bits(members[0].type)
    packed: SSAValue | None = None
    for k, member in enumerate(members):
        as_int = member
        if not isinstance(member.type, IntegerType):
            as_int = rewriter.insert(arith.BitcastOp(member, IntegerType(bits))).result
        wide = rewriter.insert(arith.ExtUIOp(as_int, i32)).result
        if k:
            wide = rewriter.insert(
                arith.ShLIOp(wide, constant(rewriter, k * bits))
            ).result
        packed = (
            wide
            if packed is None
            else rewriter.insert(arith.OrIOp(packed, wide)).result
        )
    assert packed is not None
    return packed


def async_store(
    rewriter: PatternRewriter, value: SSAValue, address: SSAValue, barrier: SSAValue
) -> None:
    """`st.async` of `value` (32 or 64 bits) to the shared::cluster `address`, completing
    its bytes on the mbarrier at the shared::cluster `barrier` (of the same CTA)."""
    bits = element_bits(value.type)
    constraint = {
        (32, True): "f",
        (64, True): "d",
        (32, False): "r",
        (64, False): "l",
    }[bits, isinstance(value.type, AnyFloat)]
    rewriter.insert(
        llvm.InlineAsmOp(
            f"{ASYNC_STORE}.b{bits} [$0], $1, [$2];",
            f"l,{constraint},l",
            [address, value, barrier],
            has_side_effects=True,
        )
    )


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
        require_ptx(op, ASYNC_STORE_PTX)

        barrier = shared_address(rewriter, buffer, _mbarrier_offset(op))
        leader = agent_leader(rewriter, op)
        rewriter.insert(
            nvvm_mbarrier.MBarrierInitOp(barrier, constant(rewriter, 1), leader)
        )
        received = constant(rewriter, _piece_bytes(op))
        rewriter.insert(
            nvvm_mbarrier.MBarrierArriveExpectTxOp(barrier, received, leader)
        )
        rewriter.insert(llvm.InlineAsmOp(RELEASE_FENCE, "", [], has_side_effects=True))
        cluster_sync(rewriter, relaxed=True)
        rank = cluster_rank(rewriter)
        here = origin_address(rewriter, source, buffer, strides)
        for sender, receivers in sends(old, new, source.shape).items():
            is_sender = rewriter.insert(
                arith.CmpiOp(rank, constant(rewriter, sender), "eq")
            ).result
            with on_condition(rewriter, is_sender):
                for receiver, at in receivers:
                    to = constant(rewriter, receiver)
                    local = element_address(
                        rewriter, here, _dot(at, strides), source.element
                    )
                    there = remote(rewriter, local, to)
                    their_barrier = remote(rewriter, barrier, to)
                    for members in words(source):
                        value = word(
                            rewriter,
                            [
                                extract_member(rewriter, values, i, source.element)
                                for i in members
                            ],
                        )
                        offset = _dot(source.offsets[members[0]], strides)
                        address = element_address(
                            rewriter, there, offset, source.element
                        )
                        async_store(rewriter, value, address, their_barrier)
        parity = constant(rewriter, 0)
        ticks = constant(rewriter, WAIT_TICKS)
        rewriter.insert(nvvm_mbarrier.MBarrierTryWaitParityOp(barrier, parity, ticks))
        mine = origin_address(rewriter, result, buffer, strides)
        gathered = load_elements(rewriter, result, mine, strides)
        # Every thread has seen the phase before the next run of the gather
        # initialises the mbarrier again.
        rewriter.insert(nvvm_sync.Barrier0Op())
        rewriter.replace(op, [], [from_llvm(rewriter, gathered, op, op.result.type)])


def _dot(a: Sequence[int], b: Sequence[int]) -> int:
    return sum(x * y for x, y in zip(a, b, strict=True))


SHARED: dict[type[Operation], SharedRequest] = {ConvertLayoutOp: _buffer_request}

PATTERNS: tuple[RewritePattern, ...] = (LowerClusterGather(),)
