"""`tileas-prepare-for-scheduling`: target-dependent clean-up before scheduling (D20).

tileiras's TileASPrepareForScheduling reads the compute capability and runs six stages
per function: decomposeTiledLoadStoreView, refineVecSizeOfAtoms, sliceAndFuse,
runCanonicalizer, compactMemLayout, refreshBoxDim.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FixedBitwidthType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.transforms.canonicalize import CanonicalizePass

from tileas_py.diagnostics import emit_warning
from tileas_py.dialects.nv_tileaa import target_sm_of
from tileas_py.dialects.nv_tileas import (
    BlockedEncodingAttr,
    SharedEncodingAttr,
    TiledLoadOp,
    TiledStoreOp,
    as_tile,
    encoding_of,
)
from tileas_py.dialects.nv_tileas.attrs import ints
from tileas_py.dialects.nv_tileas.ops import TMA_MAX_BOX
from tileas_py.passes.tileas.common import function_like_ops

MAX_VECTOR_ELEMENTS = 16


def max_vector_bits(sm: int) -> int:
    """ld.global / st.global move 128 bits per thread (v4.b32), 256 bits (v8.b32) on sm_100+."""
    return 256 if sm >= 100 else 128


def tile_of(op: TiledLoadOp | TiledStoreOp) -> TensorType:
    return as_tile(op.result.type if isinstance(op, TiledLoadOp) else op.value.type)


def largest_divisor_at_most(n: int, limit: int) -> int:
    return next(d for d in range(min(n, limit), 0, -1) if n % d == 0)


TMA_INNER_ALIGNMENT = 16
"""cuTensorMapEncodeTiled: the inner box extent is a multiple of 16 bytes."""


def fastest_dimension(tile: TensorType) -> int:
    """The tile's contiguous dimension: its layout's `order[0]`, else the last one."""
    encoding = encoding_of(tile)
    if isinstance(encoding, BlockedEncodingAttr | SharedEncodingAttr):
        return ints(encoding.order)[0]
    return tile.get_num_dims() - 1


def inner_box_limit(tile: TensorType, element_bytes: int) -> int:
    """The most elements the inner box dimension may have: 256, and within a swizzled
    buffer's swizzle span (cuTensorMapEncodeTiled)."""
    limit = TMA_MAX_BOX
    encoding = encoding_of(tile)
    if isinstance(encoding, SharedEncodingAttr) and encoding.swizzle.data:
        limit = min(limit, encoding.swizzle.data // element_bytes)
    return limit


def tma_box(tile: TensorType, element_bytes: int) -> list[int] | None:
    """The largest TMA box dividing the tile: at most 256 elements per dimension, the
    inner (contiguous) extent a multiple of 16 bytes and within the swizzle span; None
    when no inner extent satisfies these."""
    shape = tile.get_shape()
    inner = fastest_dimension(tile)
    box: list[int] = []
    for d, size in enumerate(shape):
        if d != inner:
            box.append(largest_divisor_at_most(size, TMA_MAX_BOX))
            continue
        limit = inner_box_limit(tile, element_bytes)
        extents = [
            e
            for e in range(min(size, limit), 0, -1)
            if size % e == 0 and e * element_bytes % TMA_INNER_ALIGNMENT == 0
        ]
        if not extents:
            return None
        box.append(extents[0])
    return box


def decompose_tiled_view(op: TiledLoadOp | TiledStoreOp) -> None:
    """Give a tile that is not one TMA box (over 256 elements in a dimension, or an
    inner extent wider than its swizzle span) the box it is copied in."""
    tile = tile_of(op)
    element = tile.get_element_type()
    if (
        op.box is not None
        or not isinstance(element, FixedBitwidthType)
        or element.bitwidth % 8
    ):
        return
    element_bytes = element.bitwidth // 8
    shape = tile.get_shape()
    inner = shape[fastest_dimension(tile)]
    if all(d <= TMA_MAX_BOX for d in shape) and inner <= inner_box_limit(
        tile, element_bytes
    ):
        return
    box = tma_box(tile, element_bytes)
    if box is None:
        emit_warning(
            op,
            f"no TMA box divides the tile {list(shape)} of {element}: its inner "
            f"extent must be a multiple of {TMA_INNER_ALIGNMENT} bytes and at most "
            f"{inner_box_limit(tile, element_bytes)} elements",
        )
        return
    op.box = DenseArrayBase.from_list(i64, box)


def refine_vec_size(op: TiledLoadOp | TiledStoreOp, sm: int) -> None:
    """The widest vector a thread can move: its contiguous elements, capped by the
    target's vector width."""
    tile = tile_of(op)
    encoding = encoding_of(tile)
    element = tile.get_element_type()
    if (
        op.vec_size is not None
        or not isinstance(encoding, BlockedEncodingAttr)
        or not isinstance(element, FixedBitwidthType)
    ):
        return
    contiguous = encoding.size_per_thread.data[encoding.order.data[0].data].data
    limit = min(
        contiguous, max_vector_bits(sm) // element.bitwidth, MAX_VECTOR_ELEMENTS
    )
    vec = 1
    while vec * 2 <= limit:
        vec *= 2
    op.vec_size = IntegerAttr(vec, i64)


def prepare(function: Operation, sm: int) -> None:
    for op in function.walk():
        if isinstance(op, TiledLoadOp | TiledStoreOp):
            decompose_tiled_view(op)
            refine_vec_size(op, sm)


@dataclass(frozen=True)
class PrepareForSchedulingPass(ModulePass):
    """
    Prepares tiled memory ops for scheduling (tileiras's `TileASPrepareForScheduling`).

    Runs only on functions whose module has an `nv_tileaa.target_spec` (the compute
    capability); others are left alone. Modelled stages:
    1. decomposeTiledLoadStoreView: a `tiled_load` / `tiled_store` without a `box` whose
       tile is not one TMA box (over 256 elements in some dimension, or a swizzled
       buffer whose inner extent exceeds its swizzle span) gets the box it is copied
       in: per dimension the largest divisor of the tile size up to 256, and for the
       inner (contiguous, `order[0]`) dimension one whose bytes are a multiple of 16 and
       within the swizzle span (cuTensorMapEncodeTiled's rules). When no inner extent
       fits, the op keeps no box and gets the warning "no TMA box divides the tile ...";
    2. refineVecSizeOfAtoms: a tiled op without `vec_size` on a blocked tile gets the
       widest vector a thread can move: its contiguous elements (`size_per_thread` along
       the fastest dimension), capped at 128 bits (256 bits on sm_100 and later, where
       `ld.global.v8.b32` exists) and 16 elements, rounded down to a power of two;
    4. runCanonicalizer: xDSL's `canonicalize` on the module.
    Not modelled: 3 (sliceAndFuse), 5 (compactMemLayout) and 6 (refreshBoxDim, the
    Blackwell recomputation of boxes after stage 1 changed a view: here stage 1 already
    writes the final box and nothing later changes views).

    Before (sm 90):
    ```
    %t = nv_tileas.tiled_load %v[%i, %j] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<512x64xf16, #blocked_spt8>
    ```
    After:
    ```
    %t = nv_tileas.tiled_load %v[%i, %j] box = [256, 64] vec_size = 8 : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<512x64xf16, #blocked_spt8>
    ```
    """

    name = "tileas-prepare-for-scheduling"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        prepared = False
        for function in list(function_like_ops(op)):
            sm = target_sm_of(function)
            if sm is None:
                continue
            prepare(function, sm)
            prepared = True
        if prepared:
            CanonicalizePass().apply(ctx, op)
