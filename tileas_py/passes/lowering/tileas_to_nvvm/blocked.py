"""Register tiles in a `#nv_tileas.blocked` layout in `convert-tileas-to-nvvm`.

Each thread holds its elements of a blocked tile as one flat struct (the convention of
`conventions.BlockedTile`: element `e` sits at the thread's *origin* plus the constant
`offsets[e]`). So every access below costs the thread one runtime address, its origin's,
and a constant offset per element:

| tile op | nvvm (per thread) |
| --- | --- |
| `arith.constant dense<v>` (splat) | `llvm.mlir.zero`, or `v` inserted into every element |
| `convert_layout` shared -> blocked | `ld.shared` of each element (`llvm.load`) |
| `copy` blocked -> shared | `st.shared` of each element (`llvm.store`) |
| `arith.addf` / `mulf` / `negf` / `extf` / ... on tiles of one layout | the same op on each element |
| `tiled_store` to a plain global pointer | `st.global` of each element |
| `tiled_store` to a CUtensorMap | `st.shared` of each element into a row-major staging slice of the kernel's shared buffer, then the TMA store of `epilogue.tma_store` |

The shared tile a `convert_layout` reads or a `copy` writes must be unswizzled (a
swizzled one is diagnosed); the blocked layout's warps must be the warps of the agent (or
CTA) that runs the op, and the tile a whole number of the layout's CTA tiles.

Before:

    %r = nv_tileas.convert_layout %slot : tensor<32x32xf32, #s> -> tensor<32x32xf32, #blk>

with `#blk = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [8, 4],
warps_per_cta = [4, 1], order = [1, 0]>` (thread t: row 8 (t / 32) + (t % 32) / 4,
columns 8 (t % 4) ... + 7) becomes, abridged:

    %here = llvm.getelementptr %slot[%origin] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    %p1 = llvm.getelementptr %here[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
    %v1 = llvm.load %p1 : !llvm.ptr<3> -> f32
    %r1 = llvm.insertvalue %v1, %r0[1] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas.attrs import (
    BlockedEncodingAttr,
    SharedEncodingAttr,
    TiledViewType,
    ints,
)
from tileas_py.dialects.nv_tileas.ops import ConvertLayoutOp, CopyOp, TiledStoreOp
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    SHARED_PTR,
    BlockedTile,
    element_bits,
    extract_member,
    from_llvm,
    pack_members,
    scalar_constant,
    to_llvm,
)
from tileas_py.passes.lowering.tileas_to_nvvm.epilogue import tma_store
from tileas_py.passes.lowering.tileas_to_nvvm.kernel import SharedRequest, shared_slice
from tileas_py.passes.lowering.tileas_to_nvvm.store import plain_pointer
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    WARP_SIZE,
    constant,
    executing_warps,
    thread_id,
)

STAGING_ALIGNMENT = 128
"""A TMA store reads shared memory 128-byte aligned."""


def blocked_tile(op: Operation, value: SSAValue) -> BlockedTile | None:
    """The layout of `value` if it is a blocked tile that `op` can work on; None if it is
    not a blocked tile; a diagnostic if its layout does not fit `op`'s threads."""
    t = value.type
    if not isinstance(t, TensorType) or not isinstance(t.encoding, BlockedEncodingAttr):
        return None
    tile = BlockedTile(cast(TensorType[Attribute], t))
    if not tile.covers():
        emit_error(
            op,
            f"a #nv_tileas.blocked tile of shape {list(tile.shape)} must be a whole "
            f"number of its layout's CTA tile {list(tile.cta_tile)}",
        )
    warps = executing_warps(op)
    if tile.warps != warps:
        emit_error(
            op,
            f"a #nv_tileas.blocked tile laid out over {tile.warps} warps is used by "
            f"{warps} warps",
        )
    return tile


def dense_strides(shape: Sequence[int], order: Sequence[int]) -> tuple[int, ...]:
    """Element strides of a dense tile whose dimension `order[0]` is contiguous."""
    strides = [0] * len(shape)
    stride = 1
    for d in order:
        strides[d] = stride
        stride *= shape[d]
    return tuple(strides)


def row_major(rank: int) -> tuple[int, ...]:
    """The `order` of a row-major tile: last dimension fastest."""
    return tuple(reversed(range(rank)))


class IndexMath:
    """i32 arithmetic on thread indices, with shifts and masks for powers of two."""

    def __init__(self, rewriter: PatternRewriter) -> None:
        self.rewriter = rewriter

    def binary(
        self, kind: type[arith.SignlessIntegerBinaryOperation], a: SSAValue, b: int
    ) -> SSAValue:
        return self.rewriter.insert(kind(a, constant(self.rewriter, b))).result

    def div(self, a: SSAValue, b: int) -> SSAValue:
        if b == 1:
            return a
        if b & (b - 1) == 0:
            return self.binary(arith.ShRUIOp, a, b.bit_length() - 1)
        return self.binary(arith.DivUIOp, a, b)

    def rem(self, a: SSAValue, b: int) -> SSAValue:
        if b & (b - 1) == 0:
            return self.binary(arith.AndIOp, a, b - 1)
        return self.binary(arith.RemUIOp, a, b)

    def mul(self, a: SSAValue, b: int) -> SSAValue:
        return a if b == 1 else self.binary(arith.MuliOp, a, b)

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.rewriter.insert(arith.AddiOp(a, b)).result

    def delinearize(
        self, flat: SSAValue, counts: Sequence[int], order: Sequence[int]
    ) -> list[SSAValue | None]:
        """`flat`'s index along each dimension (`order[0]` fastest); None for 0."""
        index: list[SSAValue | None] = [None] * len(counts)
        stride = 1
        for position, d in enumerate(order):
            if counts[d] > 1:
                value = self.div(flat, stride)
                if position < len(order) - 1:  # `flat` is below the product
                    value = self.rem(value, counts[d])
                index[d] = value
            stride *= counts[d]
        return index


def thread_origin(
    rewriter: PatternRewriter, tile: BlockedTile
) -> list[SSAValue | None]:
    """The thread's origin in `tile` (i32 per dimension; None for 0)."""
    im = IndexMath(rewriter)
    thread = im.rem(thread_id(rewriter), WARP_SIZE * tile.warps)
    lane = thread if tile.warps == 1 else im.rem(thread, WARP_SIZE)
    lanes = im.delinearize(lane, tile.threads_per_warp, tile.order)
    warps: list[SSAValue | None] = [None] * len(tile.order)
    if tile.warps > 1:
        warp = im.div(thread, WARP_SIZE)
        warps = im.delinearize(warp, tile.warps_per_cta, tile.order)
    origin: list[SSAValue | None] = []
    for d, (lane_d, warp_d) in enumerate(zip(lanes, warps, strict=True)):
        index = lane_d
        if warp_d is not None:
            scaled = im.mul(warp_d, tile.threads_per_warp[d])
            index = scaled if index is None else im.add(scaled, index)
        origin.append(None if index is None else im.mul(index, tile.size_per_thread[d]))
    return origin


def linear(
    rewriter: PatternRewriter,
    terms: Sequence[SSAValue | None],
    strides: Sequence[int],
) -> SSAValue:
    """`sum(terms[d] * strides[d])` in i32 (a None term is 0)."""
    im = IndexMath(rewriter)
    total: SSAValue | None = None
    for term, stride in zip(terms, strides, strict=True):
        if term is None:
            continue
        scaled = im.mul(term, stride)
        total = scaled if total is None else im.add(total, scaled)
    return total if total is not None else constant(rewriter, 0)


def element_address(
    rewriter: PatternRewriter,
    base: SSAValue,
    offset: int | SSAValue,
    element: Attribute,
) -> SSAValue:
    """`base + offset` elements, in `base`'s address space."""
    pointer = base.type
    assert isinstance(pointer, llvm.LLVMPointerType)
    gep = llvm.GEPOp.from_mixed_indices(
        base, [offset], pointee_type=element, result_type=pointer
    )
    return rewriter.insert(gep).result


def load_elements(
    rewriter: PatternRewriter,
    tile: BlockedTile,
    here: SSAValue,
    strides: Sequence[int],
) -> SSAValue:
    """The thread's elements of `tile`, read at `here` (its origin's address in a dense
    tile of `strides`) plus each element's constant offset."""
    values = [
        rewriter.insert(
            llvm.LoadOp(
                element_address(rewriter, here, _dot(offset, strides), tile.element),
                tile.element,
            )
        ).dereferenced_value
        for offset in tile.offsets
    ]
    return pack_members(rewriter, values, tile.llvm_type)


def store_elements(
    rewriter: PatternRewriter,
    tile: BlockedTile,
    struct: SSAValue,
    here: SSAValue,
    strides: Sequence[int],
) -> None:
    """Write the thread's elements of `tile` (the struct `struct`) at `here` (its
    origin's address in a dense tile of `strides`) plus their constant offsets."""
    for index, offset in enumerate(tile.offsets):
        value = extract_member(rewriter, struct, index, tile.element)
        address = element_address(rewriter, here, _dot(offset, strides), tile.element)
        rewriter.insert(
            llvm.StoreOp(value, address, alignment=element_bits(tile.element) // 8)
        )


def _dot(offset: Sequence[int], strides: Sequence[int]) -> int:
    return sum(o * s for o, s in zip(offset, strides, strict=True))


def origin_address(
    rewriter: PatternRewriter,
    tile: BlockedTile,
    base: SSAValue,
    strides: Sequence[int],
) -> SSAValue:
    """The address of the thread's origin in a dense shared tile at `base`."""
    offset = linear(rewriter, thread_origin(rewriter, tile), strides)
    return element_address(rewriter, base, offset, tile.element)


def register_tile_and_shared(
    rewriter: PatternRewriter,
    op: Operation,
    register: SSAValue,
    shared: SSAValue,
    swizzled: str,
) -> tuple[BlockedTile, SSAValue, tuple[int, ...]] | None:
    """For an op between the blocked tile `register` and the shared tile `shared`: the
    register tile's layout, the address of the thread's origin in the shared tile and
    the shared tile's strides; None if the two are not such tiles, and the diagnostic
    `swizzled` if the shared tile is swizzled."""
    tile = blocked_tile(op, register)
    encoding = cast(TensorType[Attribute], shared.type).encoding
    if tile is None or not isinstance(encoding, SharedEncodingAttr):
        return None
    if encoding.swizzle.data:
        emit_error(op, swizzled)
    base = to_llvm(rewriter, shared, op, SHARED_PTR)
    strides = dense_strides(tile.shape, ints(encoding.order))
    return tile, origin_address(rewriter, tile, base, strides), strides


class LowerBlockedConstant(RewritePattern):
    """A splat `arith.constant` register tile to the thread's elements."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.ConstantOp, rewriter: PatternRewriter
    ) -> None:
        tile = blocked_tile(op, op.result)
        if tile is None:
            return
        dense = op.value
        assert isinstance(dense, DenseIntOrFPElementsAttr)
        values = cast(Sequence[int | float], dense.get_values())
        if any(v != values[0] for v in values):
            emit_error(op, "only splat register-tile constants are supported")
        t = tile.llvm_type
        if values[0] == 0:
            struct = rewriter.insert(llvm.ZeroOp.build(result_types=[t])).results[0]
        else:
            scalar = scalar_constant(rewriter, tile.element, values[0])
            struct = pack_members(rewriter, [scalar] * len(tile.offsets), t)
        rewriter.replace(op, [], [from_llvm(rewriter, struct, op, op.result.type)])


class LowerSharedToRegisters(RewritePattern):
    """`convert_layout` of an unswizzled shared tile to a blocked register tile."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        found = register_tile_and_shared(
            rewriter,
            op,
            op.result,
            op.source,
            "convert_layout reads only unswizzled shared tiles "
            "(#nv_tileas.shared<swizzle = 0, ...>) into registers",
        )
        if found is None:
            return
        tile, here, strides = found
        struct = load_elements(rewriter, tile, here, strides)
        rewriter.replace(op, [], [from_llvm(rewriter, struct, op, op.result.type)])


class LowerRegistersToShared(RewritePattern):
    """`copy` of a blocked register tile into an unswizzled shared buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CopyOp, rewriter: PatternRewriter) -> None:
        found = register_tile_and_shared(
            rewriter,
            op,
            op.source,
            op.dest,
            "a register tile is copied only into an unswizzled shared buffer "
            "(#nv_tileas.shared<swizzle = 0, ...>)",
        )
        if found is None:
            return
        tile, here, strides = found
        struct = to_llvm(rewriter, op.source, op, tile.llvm_type)
        store_elements(rewriter, tile, struct, here, strides)
        rewriter.replace(op, [], [op.dest])


class LowerElementwise(RewritePattern):
    """An `arith` op on blocked register tiles of one layout (`arith.addf`, `negf`,
    `extf`, ...), as the same op on each of the thread's elements."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not op.name.startswith("arith.") or isinstance(op, arith.ConstantOp):
            return
        values = (*op.operands, *op.results)
        if not op.results or not all(_is_blocked(v) for v in values):
            return
        if len({_layout(v) for v in values}) != 1:
            emit_error(
                op,
                f"'{op.name}' on register tiles needs one shape and layout for all its "
                "operands and results",
            )
        tiles: list[BlockedTile] = []
        for value in values:
            tile = blocked_tile(op, value)
            assert tile is not None
            tiles.append(tile)
        ins = [
            (to_llvm(rewriter, v, op, t.llvm_type), t.element)
            for v, t in zip(op.operands, tiles, strict=False)
        ]
        out_types = [t.element for t in tiles[len(ins) :]]
        outs: list[list[SSAValue]] = [[] for _ in op.results]
        for e in range(len(tiles[0].offsets)):
            scalar_op = type(op).create(
                operands=[
                    extract_member(rewriter, s, e, element) for s, element in ins
                ],
                result_types=out_types,
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
            rewriter.insert(scalar_op)
            for out, result in zip(outs, scalar_op.results, strict=True):
                out.append(result)
        results = [
            from_llvm(
                rewriter, pack_members(rewriter, out, t.llvm_type), op, result.type
            )
            for result, out, t in zip(op.results, outs, tiles[len(ins) :], strict=True)
        ]
        rewriter.replace(op, [], results)


def _is_blocked(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, TensorType) and isinstance(t.encoding, BlockedEncodingAttr)


def _layout(value: SSAValue) -> tuple[tuple[int, ...], Attribute]:
    t = cast(TensorType[Attribute], value.type)
    return tuple(t.get_shape()), t.encoding


def _staged(op: Operation) -> tuple[int, int] | None:
    """A register tile stored to a CUtensorMap is staged in shared memory."""
    assert isinstance(op, TiledStoreOp)
    t = cast(TensorType[Attribute], op.value.type)
    if not isinstance(t.encoding, BlockedEncodingAttr) or plain_pointer(op.view):
        return None
    bytes_ = element_bits(t.get_element_type()) * math.prod(t.get_shape()) // 8
    return bytes_, STAGING_ALIGNMENT


SHARED: dict[type[Operation], SharedRequest] = {TiledStoreOp: _staged}


class LowerRegisterTileStore(RewritePattern):
    """`tiled_store` of a blocked register tile: `st.global` per element to a plain
    pointer, or staged in shared memory and stored by TMA to a CUtensorMap."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TiledStoreOp, rewriter: PatternRewriter) -> None:
        tile = blocked_tile(op, op.value)
        if tile is None:
            return
        pointer = plain_pointer(op.view)
        if pointer is not None:
            _store_to_pointer(rewriter, op, tile, pointer)
        else:
            staging = shared_slice(rewriter, op)
            if staging is None:
                return  # not planned (a nested module): reported as not supported
            _store_by_tma(rewriter, op, tile, staging)
        rewriter.erase(op)


def _store_by_tma(
    rewriter: PatternRewriter, op: TiledStoreOp, tile: BlockedTile, staging: SSAValue
) -> None:
    struct = to_llvm(rewriter, op.value, op, tile.llvm_type)
    order = row_major(len(tile.shape))
    strides = dense_strides(tile.shape, order)
    here = origin_address(rewriter, tile, staging, strides)
    store_elements(rewriter, tile, struct, here, strides)
    tma_store(rewriter, op, staging, order)


def _store_to_pointer(
    rewriter: PatternRewriter, op: TiledStoreOp, tile: BlockedTile, pointer: SSAValue
) -> None:
    """Row-major global memory of the view's shape: element (i + row, j + col) at
    `pointer + (i + row) * width + j + col`, in i64."""
    struct = to_llvm(rewriter, op.value, op, tile.llvm_type)
    view = op.view.type
    assert isinstance(view, TiledViewType)
    strides = dense_strides(ints(view.shape), row_major(len(tile.shape)))
    origin = thread_origin(rewriter, tile)
    offset: SSAValue | None = None
    for index, term, stride in zip(op.indices, origin, strides, strict=True):
        coordinate = rewriter.insert(arith.IndexCastOp(index, i64)).result
        if term is not None:
            wide = rewriter.insert(arith.ExtUIOp(term, i64)).result
            coordinate = rewriter.insert(arith.AddiOp(coordinate, wide)).result
        if stride != 1:
            scale = constant(rewriter, stride, i64)
            coordinate = rewriter.insert(arith.MuliOp(coordinate, scale)).result
        offset = (
            coordinate
            if offset is None
            else rewriter.insert(arith.AddiOp(offset, coordinate)).result
        )
    assert offset is not None
    here = element_address(rewriter, pointer, offset, tile.element)
    store_elements(rewriter, tile, struct, here, strides)


PATTERNS: tuple[RewritePattern, ...] = (
    LowerBlockedConstant(),
    LowerSharedToRegisters(),
    LowerRegistersToShared(),
    LowerRegisterTileStore(),
    LowerElementwise(),
)
