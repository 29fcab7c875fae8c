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

from tileas_py.dialects.nv_tileaa import target_sm_of
from tileas_py.dialects.nv_tileas import (
    BlockedEncodingAttr,
    TiledLoadOp,
    TiledStoreOp,
    as_tile,
    encoding_of,
)
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


def decompose_tiled_view(op: TiledLoadOp | TiledStoreOp) -> None:
    """Give a tile larger than one TMA box (256 per dimension) the box it is copied in."""
    shape = tile_of(op).get_shape()
    if op.box is not None or all(d <= TMA_MAX_BOX for d in shape):
        return
    box = [largest_divisor_at_most(d, TMA_MAX_BOX) for d in shape]
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
       tile exceeds the TMA limit of 256 elements in some dimension gets the box it is
       copied in (per dimension, the largest divisor of the tile size up to 256);
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
