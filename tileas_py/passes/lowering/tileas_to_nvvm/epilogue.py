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

from typing import cast

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float32Type,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
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
    checked_fragment_type,
    element_bits,
    to_llvm,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    agent_barrier,
    agent_leader,
    constant,
    executing_warps,
    shared_address,
    thread_id,
)
from tileas_py.passes.lowering.tileas_to_nvvm.tma import coordinates

WARPGROUP_WARPS = 4
ROW_MAJOR = (1, 0)


def _fragment_base(rewriter: PatternRewriter, width: int, bytes_: int) -> SSAValue:
    """Byte offset of this thread's first accumulator element in a row-major buffer
    `width` elements wide: `((16 (warp % 4) + lane / 4) width + 2 (lane % 4)) bytes`."""
    tid = thread_id(rewriter)

    def binary(
        kind: type[arith.SignlessIntegerBinaryOperation], a: SSAValue, b: int
    ) -> SSAValue:
        return rewriter.insert(kind(a, constant(rewriter, b))).result

    warp = binary(arith.AndIOp, binary(arith.ShRUIOp, tid, 5), WARPGROUP_WARPS - 1)
    lane = binary(arith.AndIOp, tid, 31)
    row = rewriter.insert(
        arith.AddiOp(
            binary(arith.MuliOp, warp, wgmma_layout.ROWS_PER_WARP),
            binary(arith.ShRUIOp, lane, 2),
        )
    ).result
    col = binary(arith.MuliOp, binary(arith.AndIOp, lane, 3), 2)
    index = rewriter.insert(arith.AddiOp(binary(arith.MuliOp, row, width), col)).result
    return binary(arith.MuliOp, index, bytes_)


class LowerAccumulatorToShared(RewritePattern):
    """`copy` of an mma accumulator into a row-major shared buffer: `st.shared` per value."""

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
            and encoding.swizzle.data == 0
            and ints(encoding.order) == ROW_MAJOR
        ):
            emit_error(
                op,
                "an accumulator is copied only into an unswizzled row-major shared "
                "buffer (#nv_tileas.shared<swizzle = 0, order = [1, 0]>)",
            )
        element: Attribute = source.get_element_type()
        if not (isinstance(element, Float32Type) or element == i32):
            emit_error(op, "only f32 and i32 accumulators are copied to shared memory")
        if executing_warps(op) != WARPGROUP_WARPS:
            emit_error(op, "an accumulator copy must run on one warpgroup (4 warps)")
        bytes_ = element_bits(element) // 8
        _, width = source.get_shape()
        whole = checked_fragment_type(op, source)
        m_tiles, n_tiles, n_instr = accumulator_shape(source)
        acc = to_llvm(rewriter, op.source, op, whole)
        buffer = to_llvm(rewriter, op.dest, op, SHARED_PTR)
        here = shared_address(rewriter, buffer, _fragment_base(rewriter, width, bytes_))
        offsets = wgmma_layout.accumulator_offsets(n_instr)
        for member in range(m_tiles * n_tiles):
            m, n = divmod(member, n_tiles)
            for j, (dr, dc) in enumerate(offsets):
                value = rewriter.insert(
                    llvm.ExtractValueOp(
                        DenseArrayBase.from_list(i64, [member, j]),
                        acc,
                        element,
                    )
                ).res
                row = 64 * m + dr
                col = n * n_instr + dc
                address = shared_address(rewriter, here, (row * width + col) * bytes_)
                rewriter.insert(llvm.StoreOp(value, address))
        rewriter.replace(op, [], [op.dest])


def tma_store(
    rewriter: PatternRewriter,
    op: TiledStoreOp,
    source: SSAValue,
    order: tuple[int, ...],
) -> None:
    """Store the shared tile at `source` (dimensions fastest first along `order`) to
    `op`'s view by TMA: fence, agent barrier, the leader's store, commit and wait for
    the read, barrier. Inserts before `op`, which it does not erase."""
    descriptor = to_llvm(rewriter, op.view, op, GENERIC_PTR)
    coords = coordinates(rewriter, tuple(op.indices), order)
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
            nvvm_tma.CpAsyncBulkTensorSharedCTAToGlobalOp(descriptor, source, coords),
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
        tma_store(rewriter, op, source, ints(encoding.order))
        rewriter.erase(op)


PATTERNS: tuple[RewritePattern, ...] = (LowerAccumulatorToShared(), LowerTmaStore())
