"""TMA multicast of the pipeline slots that CTAs of a cluster share, in
`convert-tileas-to-nvvm` (PTX ISA "cp.async.bulk.tensor", `.multicast::cluster`:
https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cp-async-bulk-tensor).

A slot whose CTA layout (the one `tileas-plan-cta` leaves on the pipeline's slot types)
gives the same piece to F > 1 CTAs of the cluster (`split[d] < ctas_per_cluster[d]`:
those CTAs hold replicas) is loaded once per cluster: each of the F CTAs, its *group*,
loads one *part* of the piece, 1 / F of it along the slot's slowest dimension in shared
memory (`order[-1]`), and multicasts it to the same offset of the slot in every CTA of the
group, completing the transaction bytes on the same full barrier in each. So every CTA
still receives the whole piece and its full barrier still expects the whole stage's bytes
(its own part and those that arrive from its peers), while each CTA's TMA moves 1 / F of
the slot. In a 2x1 cluster whose CTAs share B (`split = [1, 1]`), each CTA loads half of B.

Part p (the CTA's place in its group, replica coordinates along the layout's order) of a
piece of shape P starts at element `p * P[order[-1]] / F` of that dimension and at byte
`p * bytes(P) / F` of the slot; a part must be a whole number of swizzle patterns (1024
bytes when swizzled, 128 otherwise, TMA's destination alignment), else the slot is not
multicast and each CTA loads all of it.

A producer then writes into its peers' slots, so before it refills a stage every consumer
of the group must have released it: a consumer releasing a stage arrives on the empty
barrier of every CTA that writes into its slots (the union of its groups, itself
included: `mapa` + a remote `mbarrier.arrive`), and each empty barrier
expects that many CTAs' consumers. A peer's multicast or arrival must not reach a barrier
before it is initialised, nor a CTA that has exited: `create_pipeline` meets the cluster
(`barrier.cluster.arrive.relaxed` + `wait`) after `fence.mbarrier_init`, and the kernel
meets it again before it returns (`ensure_exit_barrier`).

Before (2x1 cluster, B shared: `#rep = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1],
split = [1, 1], order = [1, 0]>`):

    %tb = nv_tileas.tiled_load %b[%k, %n] : !view -> tensor<64x128xf16, #shared<swizzle = 128, order = [0, 1], cta = #rep>>
    %wb = nv_tileas.copy %tb, %sb : ...

After (the leader of the producer; `%part` = the CTA's rank, `mask` = 0b11):

    %n1 = %n + 64 * %part
    %dst = %sb + 8192 * %part
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %full, box[%k, %n1] multicast_mask = %mask predicate = %leader
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr, i16
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from tileas_py.dialects.nv_tileas import async_ops
from tileas_py.dialects.nv_tileas import ops as tile_ops
from tileas_py.dialects.nv_tileas.attrs import (
    CTALayoutAttr,
    PipelineType,
    SharedEncodingAttr,
    as_tile,
    cta_of,
    encoding_of,
    ints,
)
from tileas_py.passes.lowering.tileas_to_nvvm.cluster import (
    arrive_remote,
    cluster_ctas,
    cluster_rank,
    cluster_sync,
    peer,
    remote,
)
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import element_bits
from tileas_py.passes.lowering.tileas_to_nvvm.cta import cta_coordinates, split_layout
from tileas_py.passes.lowering.tileas_to_nvvm.threads import constant, shared_address

CLUSTER_SLOTS = "nv_tileas.cluster_slots"
"""On a `create_pipeline` (and the cast it is lowered to): its slot types as planned, with
their CTA layouts, before each CTA's slots become its pieces (`cta.py`)."""

SWIZZLE_ATOM = 1024
TMA_ALIGNMENT = 128


@dataclass(frozen=True)
class Multicast:
    """How the CTAs of a cluster share the TMA loads of one slot."""

    layout: CTALayoutAttr
    factor: int
    """F: the CTAs of a group (that hold the same piece)."""
    groups: tuple[int, ...]
    """Per rank, the ranks of its group as a bit mask (its multicast mask)."""
    parts: tuple[int, ...]
    """Per rank, which part of the piece it loads."""
    dim: int
    """The dimension the parts split (the slowest in shared memory)."""
    part_shape: tuple[int, ...]
    part_bytes: int


def _replicas(cta: CTALayoutAttr) -> tuple[list[int], list[int], list[int]]:
    """Per dimension, along the layout's order: the CTA stride of the rank, the replica
    count (`ctas_per_cluster / split`) and the replica stride of the part index."""
    ctas, split = ints(cta.ctas_per_cluster), ints(cta.split)
    strides, replicas, part_strides = [0] * len(ctas), [0] * len(ctas), [0] * len(ctas)
    stride = part_stride = 1
    for d in ints(cta.order):
        strides[d], replicas[d], part_strides[d] = (
            stride,
            ctas[d] // split[d],
            part_stride,
        )
        stride *= ctas[d]
        part_stride *= replicas[d]
    return strides, replicas, part_strides


@cache
def multicast_of(slot: Attribute) -> Multicast | None:
    """The multicast of a slot type as planned (with its CTA layout), or None when each
    CTA loads its own piece."""
    cta = cta_of(slot)
    encoding = encoding_of(slot)
    if cta is None or not isinstance(encoding, SharedEncodingAttr):
        return None
    split = ints(cta.split)
    factor = cta.num_ctas // math.prod(split)
    if factor == 1:
        return None
    tile = as_tile(slot)
    shape = [size // s for size, s in zip(tile.get_shape(), split, strict=True)]
    dim = ints(encoding.order)[-1]
    piece_bytes = math.prod(shape) * element_bits(tile.get_element_type()) // 8
    part_bytes = piece_bytes // factor
    alignment = SWIZZLE_ATOM if encoding.swizzle.data else TMA_ALIGNMENT
    if shape[dim] % factor or part_bytes % alignment:
        return None
    strides, _, part_strides = _replicas(cta)
    groups: list[int] = []
    parts: list[int] = []
    for rank in range(cta.num_ctas):
        coordinates = cta_coordinates(cta, rank)
        replica = [c // s for c, s in zip(coordinates, split, strict=True)]
        group = 0
        for other in range(cta.num_ctas):
            theirs = cta_coordinates(cta, other)
            if all(
                a % s == b % s
                for a, b, s in zip(coordinates, theirs, split, strict=True)
            ):
                group |= 1 << other
        # `part_index` computes it at run time as the first rank's group, shifted.
        first = rank - sum(
            q * s * st for q, s, st in zip(replica, split, strides, strict=True)
        )
        assert not groups or group == groups[0] << first
        groups.append(group)
        parts.append(sum(q * ps for q, ps in zip(replica, part_strides, strict=True)))
    part_shape = list(shape)
    part_shape[dim] //= factor
    return Multicast(
        cta, factor, tuple(groups), tuple(parts), dim, tuple(part_shape), part_bytes
    )


def tma_box(op: tile_ops.TiledLoadOp | tile_ops.TiledStoreOp) -> tuple[int, ...]:
    """The box a CTA's TMA copy of a tiled access moves, from the tile IR before the
    lowering (what the CUtensorMap's box must be): the tile or the op's `box`, for a
    tile split across the CTAs their piece (`cta.py`), for a multicast load the CTA's
    part of it."""
    tile = op.result.type if isinstance(op, tile_ops.TiledLoadOp) else op.value.type
    shape = as_tile(tile).get_shape()
    cta = split_layout(tile)
    if cta is not None:
        shape = tuple(s // p for s, p in zip(shape, ints(cta.split), strict=True))
    if op.box is not None:
        box = tuple(int(b) for b in op.box.get_values())  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
        shape = tuple(math.gcd(b, s) for b, s in zip(box, shape, strict=True))
    shared = multicast_of(tile) if isinstance(op, tile_ops.TiledLoadOp) else None
    return shape if shared is None else shared.part_shape


def cluster_slot_types(pipeline: Operation) -> tuple[Attribute, ...] | None:
    """The planned slot types recorded on a `create_pipeline` or its lowered cast."""
    slots = pipeline.attributes.get(CLUSTER_SLOTS)
    if not isinstance(slots, ArrayAttr):
        return None
    return tuple(cast(ArrayAttr[Attribute], slots).data)


def multicasts(pipeline: Operation) -> list[Multicast | None]:
    """Each slot's multicast (None: not multicast, or not recorded)."""
    slots = cluster_slot_types(pipeline)
    return [] if slots is None else [multicast_of(slot) for slot in slots]


def writers(pipeline: Operation, num_ctas: int) -> tuple[int, ...] | None:
    """Per rank, the CTAs whose producers write into its slots (the union of its
    groups, itself included) as a bit mask; None when no slot is multicast."""
    found = [m for m in multicasts(pipeline) if m is not None]
    if not found:
        return None
    tables: list[int] = []
    for rank in range(num_ctas):
        union = 1 << rank
        for m in found:
            union |= m.groups[rank]
        tables.append(union)
    return tuple(tables)


def writer_count(pipeline: Operation, num_ctas: int) -> int:
    """How many CTAs' consumers release each stage of the pipeline of a CTA."""
    table = writers(pipeline, num_ctas)
    if table is None:
        return 1
    counts = {bin(mask).count("1") for mask in table}
    assert len(counts) == 1, "groups of a CTA layout are alike"
    return counts.pop()


def record_cluster_slots(function: Operation) -> bool:
    """Before each CTA's tiles become its pieces: record on every `create_pipeline`
    whose slots are multicast their planned types (`CLUSTER_SLOTS`); whether there is
    one."""
    found = False
    for op in function.walk():
        if not isinstance(op, async_ops.CreatePipelineOp):
            continue
        t = op.result.type
        assert isinstance(t, PipelineType)
        slots = tuple(t.slot_types.data)
        if any(multicast_of(slot) is not None for slot in slots):
            op.attributes[CLUSTER_SLOTS] = ArrayAttr(slots)
            found = True
    return found


def part_index(
    rewriter: PatternRewriter, m: Multicast, rank: SSAValue
) -> tuple[SSAValue, SSAValue]:
    """(part, multicast mask as i16) of the CTA of `rank`: the replica coordinates of
    the rank along the layout's order, and the group's mask, its first rank's group
    shifted there."""
    cta = m.layout
    ctas, split = ints(cta.ctas_per_cluster), ints(cta.split)
    strides, replicas, part_strides = _replicas(cta)
    part: SSAValue | None = None
    offset: SSAValue | None = None

    def emit(op: Operation) -> SSAValue:
        return rewriter.insert(op).results[0]

    def scaled(value: SSAValue, factor: int) -> SSAValue:
        return (
            value
            if factor == 1
            else emit(arith.MuliOp(value, constant(rewriter, factor)))
        )

    def add(total: SSAValue | None, value: SSAValue) -> SSAValue:
        return value if total is None else emit(arith.AddiOp(total, value))

    for d in ints(cta.order):
        if replicas[d] == 1:
            continue
        coordinate = rank
        if strides[d] > 1:
            coordinate = emit(arith.DivUIOp(coordinate, constant(rewriter, strides[d])))
        if strides[d] * ctas[d] < cta.num_ctas:
            coordinate = emit(arith.RemUIOp(coordinate, constant(rewriter, ctas[d])))
        replica = coordinate
        if split[d] > 1:
            replica = emit(arith.DivUIOp(coordinate, constant(rewriter, split[d])))
        part = add(part, scaled(replica, part_strides[d]))
        offset = add(offset, scaled(replica, split[d] * strides[d]))
    assert part is not None
    assert offset is not None
    if len(set(m.groups)) == 1:
        mask = constant(rewriter, m.groups[0])
    else:
        base = emit(arith.SubiOp(rank, offset))
        mask = emit(arith.ShLIOp(constant(rewriter, m.groups[0]), base))
    return part, emit(arith.TruncIOp(mask, i16))


def multicast_part(
    rewriter: PatternRewriter,
    shared: Multicast,
    slot: SSAValue,
    coordinates: list[SSAValue],
    order: tuple[int, ...],
) -> tuple[SSAValue, list[SSAValue], SSAValue]:
    """The CTA's part of a shared slot: its address in the slot, the TMA coordinates of
    the part (`coordinates` are the piece's, fastest dimension first) and the group's
    multicast mask."""
    rank = cluster_rank(rewriter)
    part, mask = part_index(rewriter, shared, rank)
    extent = constant(rewriter, shared.part_shape[shared.dim])
    start = rewriter.insert(arith.MuliOp(part, extent)).result
    moved = list(coordinates)
    position = order.index(shared.dim)
    moved[position] = rewriter.insert(arith.AddiOp(moved[position], start)).result
    size = constant(rewriter, shared.part_bytes)
    offset = rewriter.insert(arith.MuliOp(part, size)).result
    return shared_address(rewriter, slot, offset), moved, mask


def release_writers(
    rewriter: PatternRewriter, pipeline: SSAValue, empty: SSAValue
) -> None:
    """After a consumer's arrival on its own empty barrier: its arrivals on the same
    barrier of the other CTAs whose producers multicast into its slots.

    Those are CTA `rank ^ k` for the same `k` whatever the rank: the CTA counts,
    splits and strides of a layout are powers of two, so a group is a rank with its
    replica bits set every way (`rank ^ V`, V the same for every rank), and so is a
    union of groups."""
    owner = pipeline.owner
    assert isinstance(owner, Operation)
    num_ctas = cluster_ctas(owner)
    table = writers(owner, num_ctas)
    if table is None:
        return
    rank = cluster_rank(rewriter)
    for k in range(1, num_ctas):
        if not table[0] >> k & 1:
            continue
        assert all(table[r] >> (r ^ k) & 1 for r in range(num_ctas))
        arrive_remote(rewriter, remote(rewriter, empty, peer(rewriter, rank, k)))


def ensure_exit_barrier(function: Operation) -> None:
    """Meet the cluster before the kernel returns (unless it just did), so that no CTA
    exits while a peer may still write into its shared memory or arrive on its
    barriers."""
    for block in function.walk_blocks():
        terminator = block.last_op
        if not isinstance(terminator, tile_ops.ReturnOp):
            continue
        wait = terminator.prev_op
        arrive = wait.prev_op if wait is not None else None
        if isinstance(wait, async_ops.ClusterBarrierWaitOp) and isinstance(
            arrive, async_ops.ClusterBarrierArriveOp
        ):
            continue
        Rewriter.insert_op(
            [async_ops.ClusterBarrierArriveOp(), async_ops.ClusterBarrierWaitOp()],
            InsertPoint.before(terminator),
        )


def meet_after_init(rewriter: PatternRewriter) -> None:
    """After `fence.mbarrier_init`: the cluster's CTAs meet before any peer signals a
    barrier just initialised."""
    cluster_sync(rewriter, relaxed=True)
