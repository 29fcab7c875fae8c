"""TMA copies in `convert-tileas-to-nvvm` (PTX ISA "cp.async.bulk.tensor":
https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cp-async-bulk-tensor).

A `nv_tileas.tiled_load` whose result is a `#nv_tileas.shared` tile, copied into a slot
that `producer_acquire` returned, is one `cp.async.bulk.tensor` load of the tile's box
into the slot, issued by the agent's leader and completing on the slot's full mbarrier
(`pipeline.py` sets the bytes it expects); a slot the CTAs of a cluster share is loaded in
parts, each multicast to the CTAs that share it (`multicast.py`). A `tiled_store` of a
shared tile is a TMA store (`store.py`).

The CUtensorMap (the `!nv_tileas.tiled_view` kernel parameter) is built on the host with
its box equal to the tile and its dimension 0 the shared tile's fastest dimension
(`order[0]`), so the coordinates are the tile's indices, fastest dimension first, as i32.

Before:

    %slot = nv_tileas.async.pipeline.producer_acquire %p : !pipe -> tensor<128x64xf16, #sa>
    %t = nv_tileas.tiled_load %view[%m, %k] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<128x64xf16, #sa>
    %w = nv_tileas.copy %t, %slot : tensor<128x64xf16, #sa> -> tensor<128x64xf16, #sa>

After (with the slot address and full barrier from `pipeline.py`):

    %k32 = arith.index_cast %k : index to i32
    %m32 = arith.index_cast %m : index to i32
    nvvm.cp.async.bulk.tensor.shared.cluster.global %slot, %tmap, %full, box[%k32, %m32] predicate = %leader : !llvm.ptr<3>, !llvm.ptr
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas.attrs import SharedEncodingAttr, encoding_of, ints
from tileas_py.dialects.nv_tileas.ops import CopyOp, TiledLoadOp
from tileas_py.dialects.nvvm import tma as nvvm_tma
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import GENERIC_PTR, to_llvm
from tileas_py.passes.lowering.tileas_to_nvvm.multicast import (
    Multicast,
    multicast_part,
)
from tileas_py.passes.lowering.tileas_to_nvvm.tcgen05_sync import in_pair_leader
from tileas_py.passes.lowering.tileas_to_nvvm.threads import agent_leader


def coordinates(
    rewriter: PatternRewriter, indices: tuple[SSAValue, ...], order: tuple[int, ...]
) -> list[SSAValue]:
    """The tile's indices as i32 TMA coordinates, fastest dimension first."""
    return [rewriter.insert(arith.IndexCastOp(indices[d], i32)).result for d in order]


def lower_copy_into_slot(
    rewriter: PatternRewriter,
    copy: CopyOp,
    slot: SSAValue,
    full: SSAValue,
    *,
    pair: bool = False,
    shared: Multicast | None = None,
) -> None:
    """`copy %tiled_load, %slot` as a TMA load into `slot` completing on `full`; with
    `pair`, on `full` of the even CTA of the pair (`tcgen05_sync.py`); for a slot
    `shared` by the CTAs of a group, the CTA's part multicast to them (`multicast.py`)."""
    load = copy.source.owner
    if not isinstance(load, TiledLoadOp):
        emit_error(
            copy,
            "a copy into a pipeline slot must copy a tiled_load (a TMA load); "
            "register copies into slots are not supported",
        )
    encoding = encoding_of(load.result.type)
    if not isinstance(encoding, SharedEncodingAttr):
        emit_error(load, "a TMA load needs a #nv_tileas.shared result")
    here = InsertPoint.before(copy)
    saved = rewriter.insertion_point
    rewriter.insertion_point = here
    descriptor = to_llvm(rewriter, load.view, copy, GENERIC_PTR)
    order = ints(encoding.order)
    coords = coordinates(rewriter, tuple(load.indices), order)
    mask: SSAValue | None = None
    if shared is not None:
        slot, coords, mask = multicast_part(rewriter, shared, slot, coords, order)
    leader = agent_leader(rewriter, copy)
    if pair:
        _pair_load(rewriter, (slot, descriptor, full, leader), coords)
    else:
        tma = nvvm_tma.CpAsyncBulkTensorGlobalToSharedClusterOp(
            slot, descriptor, coords, full, multicast_mask=mask
        )
        segments = [1, 1, len(coords), 1, 0, 0 if mask is None else 1, 0, 1]
        tma.operands = (*tma.operands, leader)
        tma.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, segments)
        rewriter.insert(tma)
    rewriter.insertion_point = saved
    rewriter.replace_all_uses_with(copy.result, copy.dest)
    rewriter.erase(copy)
    if not load.result.uses:
        rewriter.erase(load)


def _pair_load(
    rewriter: PatternRewriter,
    operands: tuple[SSAValue, SSAValue, SSAValue, SSAValue],
    coords: list[SSAValue],
) -> None:
    """A TMA load into this CTA's slot completing on the even CTA's `full`
    (`.cta_group::2`), by the `leader`: inline PTX, as `nvvm.cp.async.bulk.tensor`
    takes a shared::cta barrier only."""
    slot, descriptor, full, leader = operands
    barrier = in_pair_leader(rewriter, full)
    box = ", ".join(f"${3 + i}" for i in range(len(coords)))
    text = (
        f"@$0 cp.async.bulk.tensor.{len(coords)}d.shared::cluster.global.tile"
        ".mbarrier::complete_tx::bytes.cta_group::2 "
        f"[$1], [$2, {{{box}}}], [${3 + len(coords)}];"
    )
    constraints = ",".join(["b", "l", "l", *(["r"] * len(coords)), "l"])
    rewriter.insert(
        llvm.InlineAsmOp(
            text,
            constraints,
            [leader, slot, descriptor, *coords, barrier],
            has_side_effects=True,
        )
    )
