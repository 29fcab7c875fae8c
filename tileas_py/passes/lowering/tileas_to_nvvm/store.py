"""Stores of tiles to global memory in `convert-tileas-to-nvvm`.

For now one form: `nv_tileas.tiled_store` of a WGMMA accumulator (`#nv_tileas.mma`) to a
view that is a plain global pointer — a `!llvm.ptr<1>` handed to the kernel and cast to
the view type with `builtin.unrealized_conversion_cast` — of a row-major tensor of the
view's shape. Each thread stores the values it holds (`conventions.accumulator_element`
gives their rows and columns) with one `st.global` each, at a constant offset from its own
first element's address. TMA stores (a view that is a CUtensorMap) are to come.

Example:

    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<128x128xf32>
    nv_tileas.tiled_store %d, %view[%i, %j] : tensor<128x128xf32, #mma> -> !nv_tileas.tiled_view<128x128xf32>

becomes (per thread, `t = tid.x % 128` its index in the warpgroup):

    row0 = 16 (t / 32) + (t % 32) / 4,  col0 = 2 (t % 4)
    base = out + ((i + row0) * 128 + j + col0) * 4
    llvm.store <value j of tile (m, n)>, base + offset(m, n, j)
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    Float16Type,
    IntegerAttr,
    IntegerType,
    TensorType,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas import ops as tile_ops
from tileas_py.dialects.nv_tileas.attrs import MmaEncodingAttr, TiledViewType, ints
from tileas_py.dialects.nvvm import sreg
from tileas_py.hw import wgmma_layout
from tileas_py.hw.wgmma import M as WGMMA_M
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    GLOBAL_PTR,
    accumulator_shape,
    cast_from,
    checked_fragment_type,
    element_bits,
    extract_member,
    to_llvm,
)


def plain_pointer(view: SSAValue) -> SSAValue | None:
    return cast_from(view, GLOBAL_PTR)


class LowerAccumulatorStore(RewritePattern):
    """`nv_tileas.tiled_store` of an accumulator to a plain global pointer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tile_ops.TiledStoreOp, rewriter: PatternRewriter
    ) -> None:
        t = op.value.type
        if not isinstance(t, TensorType) or not isinstance(t.encoding, MmaEncodingAttr):
            return
        t = cast(TensorType[Attribute], t)
        pointer = plain_pointer(op.view)
        if pointer is None:
            emit_error(
                op,
                "only stores to a plain global pointer (an unrealized cast of "
                "!llvm.ptr<1>) are supported for an accumulator",
            )
        view = op.view.type
        assert isinstance(view, TiledViewType)
        row_stride = ints(view.shape)[1]
        element = t.get_element_type()
        element_bytes = element_bits(element) // 8
        whole = checked_fragment_type(op, t)
        acc = to_llvm(rewriter, op.value, op, whole)
        _, n_tiles, n_instr = accumulator_shape(t)

        def add(new: Operation) -> SSAValue:
            rewriter.insert(new)
            return new.results[0]

        def const(value: int, typ: IntegerType = i64) -> SSAValue:
            return add(llvm.ConstantOp(IntegerAttr(value, typ), typ))

        tid = add(sreg.ThreadIdXOp(i32))
        tid64 = add(llvm.ZExtOp(tid, i64))
        # The thread's index in its warpgroup: the accumulator belongs to a warpgroup.
        thread = add(llvm.URemOp(tid64, const(wgmma_layout.WARPGROUP_THREADS)))
        warp = add(llvm.UDivOp(thread, const(32)))
        lane = add(llvm.URemOp(thread, const(32)))
        row = add(
            llvm.AddOp(
                add(llvm.MulOp(warp, const(wgmma_layout.ROWS_PER_WARP))),
                add(llvm.UDivOp(lane, const(4))),
            )
        )
        col = add(llvm.MulOp(add(llvm.URemOp(lane, const(4))), const(2)))
        i, j = (add(arith.IndexCastOp(index, i64)) for index in op.indices)
        row = add(llvm.AddOp(row, i))
        col = add(llvm.AddOp(col, j))
        offset = add(llvm.AddOp(add(llvm.MulOp(row, const(row_stride))), col))
        base = add(
            llvm.GEPOp.from_mixed_indices(
                pointer, [offset], pointee_type=element, result_type=GLOBAL_PTR
            )
        )
        packed = isinstance(element, Float16Type)
        offsets = wgmma_layout.accumulator_offsets(n_instr)
        for member in range(len(whole.types.data)):
            tile_type = whole.types.data[member]
            assert isinstance(tile_type, llvm.LLVMStructType)
            m, n = divmod(member, n_tiles)
            tile = extract_member(rewriter, acc, member, tile_type)
            for r, leaf in enumerate(tile_type.types.data):
                dr, dc = offsets[2 * r] if packed else offsets[r]
                value = extract_member(rewriter, tile, r, leaf)
                if isinstance(leaf, VectorType):
                    value = add(llvm.BitcastOp(value, i32))
                element_offset = (WGMMA_M * m + dr) * row_stride + n * n_instr + dc
                address = add(
                    llvm.GEPOp(
                        base,
                        [element_offset],
                        pointee_type=element,
                        result_type=GLOBAL_PTR,
                    )
                )
                rewriter.insert(
                    llvm.StoreOp(
                        value, address, alignment=element_bytes * (2 if packed else 1)
                    )
                )
        rewriter.erase(op)


PATTERNS: tuple[RewritePattern, ...] = (LowerAccumulatorStore(),)
