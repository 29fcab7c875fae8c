"""Tiles split across the CTAs of a cluster in `convert-tileas-to-nvvm`.

A tile's CTA layout (`cta = #nv_tileas.cta_layout<ctas_per_cluster = C, split = S,
order = O>`) says which part of it each CTA of the cluster holds: the CTA of cluster rank
r has the coordinates `c = r` delinearized over C along O (O[0] fastest), and holds the
*piece* `p[d] = c[d] mod S[d]` of each dimension d, `shape[d] / S[d]` elements long;
CTAs with the same piece hold replicas. A layout whose splits are all 1 (and a tile
without one) is replicated: every CTA holds the whole tile, which is what the patterns do.

Before the patterns run, `split_into_pieces` makes each CTA work on its piece:

- every value whose type is a split tile (or a pipeline of split slots) takes the type of
  its piece: `tensor<128x64xf32, #blocked<..., cta = <[2, 1], [2, 1], [1, 0]>>>` becomes
  `tensor<64x64xf32, #blocked<...>>` (registers, shared buffers, MMA fragments, TMA
  boxes and the bytes a pipeline's barriers expect are then the piece's);
- a `tiled_load` / `tiled_store` of a split tile moves its indices to its piece, the
  cluster-rank term: `index[d] + p[d] * shape[d] / S[d]`, with `p` computed from
  `%cluster_ctarank` (`nvvm.read.ptx.sreg.cluster.ctarank`).

A conversion between tiles split differently moves data between CTAs: a gather of
blocked register tiles is lowered through distributed shared memory (`dsmem.py`). What
cannot be lowered is reported at the op: another such conversion, one inside a
warp-specialised agent, a copy between tiles split differently, a dot whose operands' pieces are not one dot per CTA (K
split, or A / B pieces that are not the accumulator's rows / columns), an `extract` from
a split tile, a non-splat constant, a dimension the split does not divide, and a layout
over a different number of CTAs than the kernel's cluster.

Before (2 CTAs):

    %t = arith.constant dense<1.0> : tensor<256xf32, #blocked_split2>
    nv_tileas.tiled_store %t, %view[%i] : tensor<256xf32, #blocked_split2> -> !view

After:

    %t = arith.constant dense<1.0> : tensor<128xf32, #blocked>
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %c128 = arith.constant 128 : i32
    %offset = arith.muli %rank, %c128 : i32        (p[0] = rank mod 2 = rank here)
    %o = arith.index_cast %offset : i32 to index
    %i1 = arith.addi %i, %o : index
    nv_tileas.tiled_store %t, %view[%i1] : tensor<128xf32, #blocked> -> !view
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IndexType,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.cute_nvgpu import SM100MmaAtomType
from tileas_py.dialects.nv_tileaa import ExtractOp, kernel_spec_of
from tileas_py.dialects.nv_tileas.attrs import (
    BlockedEncodingAttr,
    CTALayoutAttr,
    PipelineType,
    SharedEncodingAttr,
    as_tile,
    cta_of,
    encoding_of,
    ints,
    with_cta,
)
from tileas_py.dialects.nv_tileas.ops import (
    ConvertLayoutOp,
    CopyOp,
    DotOp,
    TiledLoadOp,
    TiledStoreOp,
)
from tileas_py.dialects.nvvm import sreg
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import element_bits
from tileas_py.passes.lowering.tileas_to_nvvm.threads import agent_of

Pieces = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]
"""A split: the number of pieces per dimension, and the piece of each cluster rank."""


def split_layout(t: Attribute) -> CTALayoutAttr | None:
    """The CTA layout of a tile split across CTAs (None: replicated or not a tile)."""
    cta = cta_of(t)
    if cta is None or all(s == 1 for s in ints(cta.split)):
        return None
    return cta


def cta_coordinates(cta: CTALayoutAttr, rank: int) -> list[int]:
    """The coordinates of the CTA of cluster rank `rank` (`order[0]` fastest)."""
    ctas = ints(cta.ctas_per_cluster)
    coordinates = [0] * len(ctas)
    for d in ints(cta.order):
        rank, coordinates[d] = divmod(rank, ctas[d])
    return coordinates


def pieces(t: Attribute) -> Pieces | None:
    """Which piece of the tile each CTA holds; None when every CTA holds all of it."""
    cta = split_layout(t)
    if cta is None:
        return None
    split = ints(cta.split)
    return split, tuple(
        tuple(c % s for c, s in zip(cta_coordinates(cta, r), split, strict=True))
        for r in range(cta.num_ctas)
    )


def piece_shape(op: Operation | Block, t: Attribute) -> tuple[int, ...]:
    cta = split_layout(t)
    assert cta is not None
    shape, split = as_tile(t).get_shape(), ints(cta.split)
    if any(size % s for size, s in zip(shape, split, strict=True)):
        _fail(op, f"a tile of shape {list(shape)} cannot be split {list(split)} ways")
    return tuple(size // s for size, s in zip(shape, split, strict=True))


def piece_type(where: Operation | Block, t: Attribute) -> Attribute | None:
    """The type of the piece a CTA holds of a value of type `t` (None: unchanged)."""
    if isinstance(t, PipelineType):
        pieces = [piece_type(where, slot) for slot in t.slot_types.data]
        if all(piece is None for piece in pieces):
            return None
        slots = [
            cast(TensorType, piece if piece is not None else slot)
            for piece, slot in zip(pieces, t.slot_types.data, strict=True)
        ]
        return PipelineType(t.depth.data, slots)
    if split_layout(t) is None:
        return None
    tile = as_tile(t)
    encoding = encoding_of(tile)
    assert encoding is not None
    return TensorType(
        tile.get_element_type(), piece_shape(where, t), encoding.with_cta(None)
    )


def _fail(where: Operation | Block, message: str) -> None:
    op = where if isinstance(where, Operation) else where.parent_op()
    emit_error(op, message)


def values_of(function: Operation) -> Iterator[tuple[Operation | Block, SSAValue]]:
    for block in function.walk_blocks():
        for arg in block.args:
            yield block, arg
        for op in block.ops:
            for result in op.results:
                yield op, result


def check_cluster(function: Operation) -> None:
    spec = kernel_spec_of(function)
    if spec is None:
        return
    for where, value in values_of(function):
        cta = split_layout(value.type)
        if cta is not None and cta.num_ctas != spec.num_ctas.data:
            _fail(
                where,
                f"CTA layout spans {cta.num_ctas} CTAs but the kernel's cluster has "
                f"{spec.num_ctas.data}",
            )


FROM_CTA = "nv_tileas.dsmem_from"
"""On a gathering `convert_layout` (`dsmem.py`; set before its tiles become pieces):
the source's CTA layout."""

TO_CTA = "nv_tileas.dsmem_to"
"""The result's CTA layout; absent when every CTA gets the whole tile."""


def is_gather(source: Attribute, result: Attribute) -> bool:
    """Whether converting `source` to `result` (tiles split differently) is a gather of
    blocked register tiles of one layout: each CTA's new piece made of whole old pieces
    (the new split divides the old one in every dimension)."""
    a, b = encoding_of(source), encoding_of(result)
    if not isinstance(a, BlockedEncodingAttr) or not isinstance(b, BlockedEncodingAttr):
        return False
    old, new = split_layout(source), split_layout(result)
    if old is None or a.with_cta(None) != b.with_cta(None):
        return False
    if new is not None and new.num_ctas != old.num_ctas:
        return False
    new_split = ints(new.split) if new is not None else (1,) * len(ints(old.split))
    return all(s % t == 0 for s, t in zip(ints(old.split), new_split, strict=True))


WORD_BITS = 32
"""A gather's `st.async` stores 32 or 64 bits (`dsmem.py`): narrower elements go in
32-bit words."""


def fills_words(t: Attribute) -> tuple[int, int] | None:
    """For a blocked tile whose elements a gather cannot store in whole words: the
    elements' bits and the thread's run of them along the contiguous dimension."""
    tensor = cast(TensorType[Attribute], t)
    encoding = encoding_of(t)
    assert isinstance(encoding, BlockedEncodingAttr)
    bits = element_bits(tensor.get_element_type())
    run = ints(encoding.size_per_thread)[ints(encoding.order)[0]]
    fits = (
        bits in {32, 64}
        if bits >= WORD_BITS
        else WORD_BITS % bits == 0 and (run * bits) % WORD_BITS == 0
    )
    return None if fits else (bits, run)


def mark_gather(op: ConvertLayoutOp) -> None:
    """Record the CTA layouts of a gathering `op` for `dsmem.py`."""
    old = split_layout(op.source.type)
    assert old is not None
    op.attributes[FROM_CTA] = old
    new = split_layout(op.result.type)
    if new is not None:
        op.attributes[TO_CTA] = new


def check_same_pieces(op: Operation, a: Attribute, b: Attribute) -> None:
    if pieces(a) != pieces(b):
        emit_error(
            op,
            f"'{op.name}' between tiles split differently across the CTAs of the "
            "cluster moves data between CTAs (through distributed shared memory), "
            "which convert-tileas-to-nvvm does not lower",
        )


def check_conversion(op: ConvertLayoutOp) -> None:
    """A conversion keeps each CTA's piece, or is a gather lowered through distributed
    shared memory by every thread of the cluster (`dsmem.py`)."""
    source, result = op.source.type, op.result.type
    if pieces(source) == pieces(result):
        return
    split = split_layout(source)
    if (
        split is not None
        and isinstance(encoding_of(source), SharedEncodingAttr)
        and isinstance(encoding_of(result), BlockedEncodingAttr)
    ):
        # A shared piece read into a gathered register tile (tileas-remove-layout-
        # conversions folds the two): each CTA reads its piece, then gathers.
        piece = with_cta(op.result.type, split)
        if is_gather(piece, result):
            read = ConvertLayoutOp(op.source, piece)
            Rewriter.insert_op(read, InsertPoint.before(op))
            op.operands[0] = read.result
            source = piece
    if not is_gather(source, result):
        emit_error(
            op,
            "'nv_tileas.convert_layout' between tiles split differently across the CTAs "
            "of the cluster is lowered through distributed shared memory only as a "
            "gather of blocked register tiles of one layout: each CTA's new piece made "
            "of whole pieces of the old split",
        )
    if (unfit := fills_words(source)) is not None:
        bits, run = unfit
        emit_error(
            op,
            "'nv_tileas.convert_layout' across the CTAs of the cluster writes to the "
            "peers in 32- or 64-bit words (st.async): each thread's run of "
            f"{bits}-bit elements along the contiguous dimension ({run}) must fill "
            "whole 32-bit words",
        )
    if agent_of(op) is not None:
        emit_error(
            op,
            "'nv_tileas.convert_layout' across the CTAs of the cluster meets every "
            "thread of the cluster (barrier.cluster) and cannot run inside a "
            "warp-specialised agent",
        )
    mark_gather(op)


def check_dot(op: DotOp) -> None:
    """One dot per CTA: K not split, A's pieces the accumulator's rows, B's its
    columns. (A CTA pair's dot, `cta_group = 2`, is one dot per pair, checked by
    `tcgen05.check_cta_groups`.)"""
    if isinstance(op.atom, SM100MmaAtomType) and op.atom.cta_group.data == 2:
        return
    a, b, c = (pieces(v.type) for v in (op.a, op.b, op.c))
    if a is None and b is None and c is None:
        return
    ranks = max(len(p[1]) for p in (a, b, c) if p is not None)

    def along(p: Pieces | None, d: int) -> tuple[tuple[int, int], ...]:
        if p is None:
            return ((1, 0),) * ranks
        if len(p[1]) != ranks:
            return ()
        return tuple((p[0][d], piece[d]) for piece in p[1])

    rows, cols, k = along(c, 0), along(c, 1), ((1, 0),) * ranks
    if (
        along(a, 1) != k
        or along(b, 0) != k
        or along(a, 0) != rows
        or along(b, 1) != cols
    ):
        emit_error(
            op,
            "a dot whose operands are split across the CTAs of the cluster must split "
            "A by the accumulator's rows and B by its columns, and not K",
        )


def check(function: Operation) -> None:
    check_cluster(function)
    for op in list(function.walk()):
        if isinstance(op, ConvertLayoutOp):
            check_conversion(op)
        elif isinstance(op, CopyOp):
            check_same_pieces(op, op.source.type, op.dest.type)
        elif isinstance(op, DotOp):
            check_dot(op)
        elif isinstance(op, ExtractOp) and split_layout(op.tensor.type) is not None:
            emit_error(
                op,
                "an element of a tile split across the CTAs of the cluster is held by "
                "one CTA only; extract from it is not supported",
            )
        elif (
            isinstance(op, arith.ConstantOp)
            and split_layout(op.result.type) is not None
            and splat_value(op) is None
        ):
            emit_error(op, "a constant split across the CTAs must be a splat")


def splat_value(op: arith.ConstantOp) -> int | float | None:
    dense = op.value
    if not isinstance(dense, DenseIntOrFPElementsAttr):
        return None
    values = cast(tuple[int | float, ...], dense.get_values())
    return values[0] if values and all(v == values[0] for v in values) else None


def move_to_piece(op: TiledLoadOp | TiledStoreOp) -> None:
    """Offset the indices of a tiled access of a split tile to the CTA's piece."""
    t = op.result.type if isinstance(op, TiledLoadOp) else op.value.type
    cta = split_layout(t)
    if cta is None:
        return
    shape = piece_shape(op, t)
    ctas, split = ints(cta.ctas_per_cluster), ints(cta.split)
    new: list[Operation] = []

    def emit(created: Operation) -> SSAValue:
        new.append(created)
        return created.results[0]

    def const(value: int) -> SSAValue:
        return emit(arith.ConstantOp.from_int_and_width(value, i32))

    rank = emit(sreg.ClusterIdOp(i32))
    stride = 1
    indices = list(op.indices)
    for d in ints(cta.order):
        if split[d] > 1:
            coordinate = (
                emit(arith.DivUIOp(rank, const(stride))) if stride > 1 else rank
            )
            if stride * ctas[d] < cta.num_ctas or split[d] < ctas[d]:
                coordinate = emit(arith.RemUIOp(coordinate, const(split[d])))
            offset = emit(arith.MuliOp(coordinate, const(shape[d])))
            offset = emit(arith.IndexCastOp(offset, IndexType()))
            indices[d] = emit(arith.AddiOp(indices[d], offset))
        stride *= ctas[d]
    Rewriter.insert_op(new, InsertPoint.before(op))
    first = len(op.operands) - len(indices)
    for i, index in enumerate(indices):
        op.operands[first + i] = index
    if op.box is not None:
        # The TMA box of the piece: still dividing it.
        box = [math.gcd(b, p) for b, p in zip(op.box.get_values(), shape, strict=True)]
        op.box = DenseArrayBase.from_list(i64, box)


def retype(function: Operation) -> None:
    for where, value in list(values_of(function)):
        new_type = piece_type(where, value.type)
        if new_type is None:
            continue
        new_value = Rewriter.replace_value_with_new_type(value, new_type)
        owner = new_value.owner
        if isinstance(owner, arith.ConstantOp):
            splat = splat_value(owner)
            assert splat is not None
            owner.value = DenseIntOrFPElementsAttr.from_list(
                cast(TensorType[Any], new_type), [splat]
            )
    function_type = function.properties.get("function_type")
    entry = function.regions[0].blocks.first if function.regions else None
    if isinstance(function_type, FunctionType) and entry is not None:
        outputs = [piece_type(function, t) or t for t in function_type.outputs.data]
        function.properties["function_type"] = FunctionType.from_lists(
            entry.arg_types, outputs
        )


def split_into_pieces(function: Operation) -> None:
    """Make each CTA of `function` work on its piece of every split tile (see the
    module docstring)."""
    check(function)
    for op in list(function.walk()):
        if isinstance(op, TiledLoadOp | TiledStoreOp):
            move_to_piece(op)
    retype(function)
