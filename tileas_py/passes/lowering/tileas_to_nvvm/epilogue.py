"""The epilogue in `convert-tileas-to-nvvm`: the accumulator to shared memory, and TMA
stores of shared tiles to global memory (PTX ISA "cp.async.bulk.tensor":
https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cp-async-bulk-tensor).

`nv_tileas.copy %acc, %buf` (an `#nv_tileas.mma` f32 / i32 accumulator into an unswizzled
row-major `#nv_tileas.shared` buffer of its shape): every thread stores its fragment
values with `llvm.store` (`st.shared`) at the (row, col) of `conventions.accumulator_element`,
`row = 64 m + 16 (warp % 4) + lane / 4 + dr`, `col = n * N + 2 (lane % 4) + dc`.

`nv_tileas.tiled_store %buf, %view[...]` (a shared tile): every thread orders its shared
writes before the async proxy (`fence.proxy.async.shared::cta`), the agent meets at a
barrier, and its leader issues the TMA store, commits it and waits until the buffer has
been read (`cp.async.bulk.commit_group`, `cp.async.bulk.wait_group.read 0`); a second
barrier keeps the agent from writing the buffer again before that. The
CUtensorMap's box is the tile, dimension 0 the tile's fastest (`order[0]`), no swizzle.

Before:

    %w = nv_tileas.copy %acc, %buf : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #sc>
    nv_tileas.tiled_store %buf, %c[%m, %n] : tensor<64x128xf32, #sc> -> !nv_tileas.tiled_view<4096x4096xf32>

After (abridged):

    %v0 = llvm.extractvalue %acc[0, 0] : !llvm.struct<(struct<(f32, ...)>)>
    llvm.store %v0, %p0 : f32, !llvm.ptr<3>
    ...
    nvvm.fence.proxy <async.shared> space = <cta>
    nvvm.barrier id = %c1 number_of_threads = %c128
    scf.if %leader {
      nvvm.cp.async.bulk.tensor.global.shared.cta %tmap, %buf, box[%n32, %m32] : !llvm.ptr, <3>
      llvm.inline_asm has_side_effects "cp.async.bulk.commit_group;\\0A\\09cp.async.bulk.wait_group.read 0;", ""
    }
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import cast

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float32Type,
    IndexType,
    IntegerAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas.attrs import (
    BlockedEncodingAttr,
    MmaEncodingAttr,
    SharedEncodingAttr,
    ints,
)
from tileas_py.dialects.nv_tileas.ops import CopyOp, TiledStoreOp
from tileas_py.dialects.nvvm import sync as nvvm_sync
from tileas_py.dialects.nvvm import tma as nvvm_tma
from tileas_py.dialects.nvvm.attrs import (
    ProxyKind,
    ProxyKindAttr,
    SharedSpace,
    SharedSpaceAttr,
)
from tileas_py.hw import wgmma_layout
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    GENERIC_PTR,
    SHARED_PTR,
    accumulator_shape,
    accumulator_warpgroups,
    checked_fragment_type,
    element_bits,
    to_llvm,
)
from tileas_py.passes.lowering.tileas_to_nvvm.swizzle import (
    ThreadAddresses,
    splits_additively,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    WARP_SIZE,
    agent_barrier,
    agent_leader,
    constant,
    executing_warps,
    shared_address,
    thread_id,
    warpgroup_in_agent,
)
from tileas_py.passes.lowering.tileas_to_nvvm.tma import coordinates

WARPGROUP_WARPS = 4
ROW_MAJOR = (1, 0)


def _binary(
    rewriter: PatternRewriter,
    kind: type[arith.SignlessIntegerBinaryOperation],
    a: SSAValue,
    b: int | SSAValue,
) -> SSAValue:
    other = constant(rewriter, b) if isinstance(b, int) else b
    return rewriter.insert(kind(a, other)).result


def _fragment_origin(
    rewriter: PatternRewriter, rows_per_group: int, groups: int
) -> tuple[SSAValue, SSAValue]:
    """(row, column) of this thread's first accumulator element:
    `(M / W) (warp / 4) + 16 (warp % 4) + lane / 4` and `2 (lane % 4)`."""
    tid = thread_id(rewriter)
    warp = _binary(rewriter, arith.ShRUIOp, tid, 5)
    in_group = _binary(rewriter, arith.AndIOp, warp, WARPGROUP_WARPS - 1)
    lane = _binary(rewriter, arith.AndIOp, tid, 31)
    row = _binary(
        rewriter,
        arith.AddiOp,
        _binary(rewriter, arith.MuliOp, in_group, wgmma_layout.ROWS_PER_WARP),
        _binary(rewriter, arith.ShRUIOp, lane, 2),
    )
    if groups > 1:
        group = warpgroup_in_agent(rewriter, groups)
        first = _binary(rewriter, arith.MuliOp, group, rows_per_group)
        row = _binary(rewriter, arith.AddiOp, row, first)
    col = _binary(rewriter, arith.MuliOp, _binary(rewriter, arith.AndIOp, lane, 3), 2)
    return row, col


def _thread_origins(rows_per_group: int, groups: int) -> list[tuple[int, int]]:
    """Every thread's `_fragment_origin`, for checks made at compile time."""
    origins: list[tuple[int, int]] = []
    for thread in range(WARPGROUP_WARPS * WARP_SIZE * groups):
        warp, lane = divmod(thread, WARP_SIZE)
        group, in_group = divmod(warp, WARPGROUP_WARPS)
        row, col = wgmma_layout.fragment_origin(in_group, lane, 2)
        origins.append((group * rows_per_group + row, col))
    return origins


def _store_pair(
    rewriter: PatternRewriter, address: SSAValue, values: tuple[SSAValue, SSAValue]
) -> None:
    """`st.shared.v2` of two adjacent 32-bit values (NVVM has no vector store op)."""
    floating = isinstance(values[0].type, Float32Type)
    kind, register = ("f32", "f") if floating else ("b32", "r")
    rewriter.insert(
        llvm.InlineAsmOp(
            f"st.shared.v2.{kind} [$0], {{$1, $2}};",
            f"l,{register},{register}",
            [address, *values],
            has_side_effects=True,
        )
    )


class LowerAccumulatorToShared(RewritePattern):
    """`copy` of an mma accumulator into a row-major shared buffer: unswizzled, one
    `st.shared` per value; swizzled, one `st.shared.v2` per pair of adjacent values at
    their swizzled addresses."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CopyOp, rewriter: PatternRewriter) -> None:
        source = cast(TensorType[Attribute], op.source.type)
        dest = cast(TensorType[Attribute], op.dest.type)
        assert isinstance(source, TensorType)
        assert isinstance(dest, TensorType)
        if not isinstance(source.encoding, MmaEncodingAttr):
            return
        encoding = dest.encoding
        if not (
            isinstance(encoding, SharedEncodingAttr)
            and ints(encoding.order) == ROW_MAJOR
        ):
            emit_error(
                op,
                "an accumulator is copied only into a row-major shared buffer "
                "(#nv_tileas.shared<swizzle = S, order = [1, 0]>)",
            )
        element: Attribute = source.get_element_type()
        if not (isinstance(element, Float32Type) or element == i32):
            emit_error(op, "only f32 and i32 accumulators are copied to shared memory")
        whole = checked_fragment_type(op, source)
        groups = accumulator_warpgroups(source)
        if executing_warps(op) != WARPGROUP_WARPS * groups:
            emit_error(
                op,
                f"an accumulator held by {groups} warpgroup(s) must be copied by "
                f"{WARPGROUP_WARPS * groups} warps",
            )
        rows, width = source.get_shape()
        rows_per_group = rows // groups
        acc = to_llvm(rewriter, op.source, op, whole)
        buffer = to_llvm(rewriter, op.dest, op, SHARED_PTR)
        row, col = _fragment_origin(rewriter, rows_per_group, groups)
        if encoding.swizzle.data:
            self.swizzled(
                rewriter,
                op=op,
                source=source,
                acc=acc,
                buffer=buffer,
                origin=(row, col),
                groups=groups,
            )
        else:
            self.row_major(
                rewriter,
                source=source,
                acc=acc,
                buffer=buffer,
                origin=(row, col),
                width=width,
            )
        rewriter.replace(op, [], [op.dest])

    @staticmethod
    def _values(
        rewriter: PatternRewriter, source: TensorType[Attribute], acc: SSAValue
    ) -> Iterator[tuple[int, int, SSAValue]]:
        """(row, col) relative to the thread's origin, and the value, of each value; each
        extracted where the rewriter is when it is reached."""
        element: Attribute = source.get_element_type()
        m_tiles, n_tiles, n_instr = accumulator_shape(source)
        offsets = wgmma_layout.accumulator_offsets(n_instr)
        for member in range(m_tiles * n_tiles):
            m, n = divmod(member, n_tiles)
            for j, (dr, dc) in enumerate(offsets):
                value = rewriter.insert(
                    llvm.ExtractValueOp(
                        DenseArrayBase.from_list(i64, [member, j]), acc, element
                    )
                ).res
                yield 64 * m + dr, n * n_instr + dc, value

    def row_major(
        self,
        rewriter: PatternRewriter,
        *,
        source: TensorType[Attribute],
        acc: SSAValue,
        buffer: SSAValue,
        origin: tuple[SSAValue, SSAValue],
        width: int,
    ) -> None:
        bytes_ = element_bits(source.get_element_type()) // 8
        row, col = origin
        index = _binary(
            rewriter, arith.AddiOp, _binary(rewriter, arith.MuliOp, row, width), col
        )
        here = shared_address(
            rewriter, buffer, _binary(rewriter, arith.MuliOp, index, bytes_)
        )
        for dr, dc, value in self._values(rewriter, source, acc):
            address = shared_address(rewriter, here, (dr * width + dc) * bytes_)
            rewriter.insert(llvm.StoreOp(value, address))

    def swizzled(
        self,
        rewriter: PatternRewriter,
        *,
        op: CopyOp,
        source: TensorType[Attribute],
        acc: SSAValue,
        buffer: SSAValue,
        origin: tuple[SSAValue, SSAValue],
        groups: int,
    ) -> None:
        """Each value pair at `physical(T + C)`, T the thread's linear offset and C the
        pair's (`swizzle.ThreadAddresses`), checked for every thread."""
        dest = cast(TensorType[Attribute], op.dest.type)
        encoding = dest.encoding
        assert isinstance(encoding, SharedEncodingAttr)
        rows, width = dest.get_shape()
        bytes_ = element_bits(source.get_element_type()) // 8
        layout = wgmma_layout.SharedTileLayout(
            inner=width, outer=rows, element_bytes=bytes_, swizzle=encoding.swizzle.data
        )
        problem = layout.problem()
        origins = _thread_origins(rows // groups, groups)
        m_tiles, n_tiles, n_instr = accumulator_shape(source)
        firsts = [
            (64 * m + dr, n * n_instr + dc)
            for m in range(m_tiles)
            for n in range(n_tiles)
            for dr, dc in wgmma_layout.accumulator_offsets(n_instr)[::2]
        ]

        if problem is None and not splits_additively(layout, origins, firsts):
            problem = (
                f"the {layout.panel_bytes}-byte panels of the buffer split the "
                "accumulator's value pairs"
            )
        if problem is not None:
            emit_error(op, f"an accumulator cannot be staged in this buffer: {problem}")
        row, col = origin
        thread = _binary(
            rewriter,
            arith.AddiOp,
            _binary(rewriter, arith.MuliOp, row, layout.panel_bytes),
            _binary(rewriter, arith.MuliOp, col, bytes_),
        )
        addresses = ThreadAddresses(rewriter, buffer, thread, layout)
        values = self._values(rewriter, source, acc)
        for dr, dc, first in values:
            _, _, second = next(values)
            address = addresses.address(layout.offset(inner=dc, outer=dr))
            _store_pair(rewriter, address, (first, second))


def tma_store(
    rewriter: PatternRewriter,
    op: TiledStoreOp,
    source: SSAValue,
    order: tuple[int, ...],
    boxes: Sequence[tuple[tuple[int, ...], int]] | None = None,
) -> None:
    """Store the shared tile at `source` (dimensions fastest first along `order`) to
    `op`'s view by TMA: fence, agent barrier, the leader's stores (one per box: its
    element offset in the tile and its byte offset in the buffer; one of the whole tile
    by default), commit and wait for the reads, barrier. Inserts before `op`, which it
    does not erase."""
    descriptor = to_llvm(rewriter, op.view, op, GENERIC_PTR)
    if boxes is None:
        boxes = [((0,) * len(op.indices), 0)]
    stores: list[Operation] = []
    for start, bytes_ in boxes:
        indices = [
            index
            if not first
            else rewriter.insert(
                arith.AddiOp(
                    index,
                    rewriter.insert(
                        arith.ConstantOp(IntegerAttr(first, IndexType()))
                    ).result,
                )
            ).result
            for index, first in zip(op.indices, start, strict=True)
        ]
        coords = coordinates(rewriter, tuple(indices), order)
        address = source if not bytes_ else shared_address(rewriter, source, bytes_)
        stores.append(
            nvvm_tma.CpAsyncBulkTensorSharedCTAToGlobalOp(descriptor, address, coords)
        )
    rewriter.insert(
        nvvm_sync.FenceProxyOp(
            ProxyKindAttr(ProxyKind.ASYNC_SHARED), SharedSpaceAttr(SharedSpace.CTA)
        )
    )
    agent_barrier(rewriter, op)
    leader = agent_leader(rewriter, op)
    block = Block()
    block.add_ops(
        [
            *stores,
            llvm.InlineAsmOp(
                "cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group.read 0;",
                "",
                [],
                has_side_effects=True,
            ),
            scf.YieldOp(),
        ]
    )
    rewriter.insert(scf.IfOp(leader, [], Region(block), Region()))
    # The buffer may be written again (a persistent loop) only once it has been read.
    agent_barrier(rewriter, op)


def _boxes(
    op: TiledStoreOp, t: TensorType[Attribute]
) -> list[tuple[tuple[int, ...], int]]:
    """(element offset in the tile, byte offset in the buffer) of each TMA box of a
    `tiled_store` with a `box`: the buffer holds each box where the tile's layout puts
    its first element (a swizzled tile is stored as panels of its swizzle width, which
    a box must match)."""
    encoding = t.encoding
    assert isinstance(encoding, SharedEncodingAttr)
    shape = t.get_shape()
    box = tuple(int(b) for b in op.box.get_values()) if op.box is not None else shape
    if tuple(box) == tuple(shape):
        return [((0,) * len(shape), 0)]
    order = ints(encoding.order)
    bytes_ = element_bits(t.get_element_type()) // 8
    swizzle = encoding.swizzle.data
    if len(shape) != 2 or order != ROW_MAJOR:
        emit_error(op, "a TMA store in several boxes needs a row-major 2-D tile")
    rows, cols = shape
    box_rows, box_cols = box
    if swizzle and box_cols * bytes_ != swizzle:
        emit_error(
            op,
            f"the box's rows ({box_cols * bytes_} bytes) must be the tile's swizzle "
            f"width ({swizzle} bytes): each box is one panel of the buffer",
        )
    if not swizzle and box_cols != cols:
        emit_error(
            op,
            "an unswizzled tile is stored in boxes of whole rows: the box must span "
            "its columns",
        )
    layout = wgmma_layout.SharedTileLayout(
        inner=cols, outer=rows, element_bytes=bytes_, swizzle=swizzle
    )
    boxes: list[tuple[tuple[int, ...], int]] = []
    for r in range(0, rows, box_rows):
        for c in range(0, cols, box_cols):
            at = layout.offset(inner=c, outer=r) if swizzle else (r * cols + c) * bytes_
            boxes.append(((r, c), at))
    return boxes


class LowerTmaStore(RewritePattern):
    """`tiled_store` of a shared tile: a TMA store by the agent's leader."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TiledStoreOp, rewriter: PatternRewriter) -> None:
        t = op.value.type
        assert isinstance(t, TensorType)
        encoding = t.encoding
        if isinstance(encoding, BlockedEncodingAttr):
            return  # staged through shared memory by `blocked.py`
        if not isinstance(encoding, SharedEncodingAttr):
            emit_error(
                op,
                "tiled_store stores shared tiles (by TMA) and #nv_tileas.blocked "
                "register tiles; copy an accumulator into a #nv_tileas.shared buffer "
                "first",
            )
        source = to_llvm(rewriter, op.value, op, SHARED_PTR)
        tile = cast(TensorType[Attribute], t)
        tma_store(rewriter, op, source, ints(encoding.order), _boxes(op, tile))
        rewriter.erase(op)


PATTERNS: tuple[RewritePattern, ...] = (LowerAccumulatorToShared(), LowerTmaStore())
