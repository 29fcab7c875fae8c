"""Asynchronous copies: `cp.async`, `cp.async.bulk`, `cp.async.bulk.tensor` (TMA) and their
completion mechanisms (commit / wait groups, mbarrier transaction counts).

A copy moves its data when it is issued; what makes it asynchronous here is how the checker
sees it: its reads and writes are made by an asynchronous unit of the issuing thread (see
`tileas_py.sim.clocks`) and are ordered before other threads' accesses only through the
copy's completion: the mbarrier phase its `complete_tx` feeds, or the thread's
`wait_group`. A TMA load writes its box in the destination's swizzled layout, filling
out-of-bounds elements; with `.multicast::cluster` it writes the same offset of every CTA of
the mask and signals each CTA's mbarrier at the same offset. A TMA store writes the
in-bounds elements only. The async proxy's reads of shared memory are checked against the
proxy-fence rule.
PTX ISA, "cp.async", "cp.async.bulk", "cp.async.bulk.tensor":
https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cp-async
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tileas_py.sim import memory as mem
from tileas_py.sim.clocks import Clock
from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.access import check_running, resolve, space_of
from tileas_py.sim.isa.mbarrier import Key, complete_tx, locate
from tileas_py.sim.isa.operands import (
    Address,
    Imm,
    Operand,
    Reg,
    Sym,
    Vector,
    address_reader,
    reader,
)
from tileas_py.sim.program import Action, Instruction
from tileas_py.sim.ptx_types import is_type_name, ptx_type
from tileas_py.sim.races import Actor
from tileas_py.sim.tensormap import (
    SHARED_ALIGNMENT,
    TensorMap,
    box_elements,
    box_shared_offsets,
    swizzle_offsets,
)

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]
U32 = ptx_type("u32")
S32 = ptx_type("s32")
U16 = ptx_type("u16")
PRED = ptx_type("pred")


# -- asynchronous units -------------------------------------------------------------------------


@dataclass
class Operation:
    """One asynchronous operation as the checker sees it."""

    actor: Actor | None
    done: Clock | None
    """What a thread that sees it complete learns: the issuer's clock at issue plus the
    operation's own clock."""
    component: int
    clock: int


def start(m: Machine, lane: int, unit: Hashable, name: str, pc: int) -> Operation:
    """A new operation of `unit`, issued by `lane`."""
    clocks = m.clocks
    if clocks is None:
        return Operation(None, None, -1, 0)
    component = clocks.unit(unit, lane, name)
    clock = clocks.next_unit_clock(component)
    view = clocks.row(lane)
    # The completion publishes what the issuer knew at issue; the issuer's later accesses
    # are not ordered before whoever observes it, so they take a new epoch.
    clocks.tick(np.array([lane]))
    actor = Actor(
        np.array([component]), np.array([clock]), None, view, pc, asynchronous=True
    )
    done = view.copy()
    done[component] = clock
    return Operation(actor, done, component, clock)


def async_access(  # noqa: PLR0917 (mirrors Machine.record)
    m: Machine,
    inst: Instruction,
    op: Operation,
    region: mem.Region,
    offsets: npt.NDArray[np.int64],
    size: int,
    mode: str,
    *,
    proxy: bool,
    what: str,
) -> None:
    """An asynchronous unit's access to `size` bytes at each offset of `region`."""
    if op.actor is None or region.shadow is None or offsets.size == 0:
        return
    bytes_ = mem.byte_indices(offsets, size)
    owner = np.zeros(bytes_.shape[0], dtype=np.int64)
    if proxy and mode == "read":
        conflicts = region.shadow.check_proxy(bytes_, op.actor)
        if conflicts:
            m.report_conflicts(region, conflicts, op.actor, inst, what)
    conflicts = region.shadow.access(bytes_, owner, op.actor, mode)
    if conflicts:
        m.report_conflicts(region, conflicts, op.actor, inst, what)


@dataclass
class Groups:
    """A thread's commit groups of one kind: uncommitted operations, then the groups."""

    open: list[Operation] = field(default_factory=list[Operation])
    committed: list[list[Operation]] = field(default_factory=list[list[Operation]])


def groups(m: Machine, kind: str, lane: int) -> Groups:
    table: dict[tuple[str, int], Groups] = m.state.setdefault("groups", {})
    return table.setdefault((kind, lane), Groups())


def commit(m: Machine, kind: str, lanes: Lanes) -> None:
    for lane in lanes.tolist():
        g = groups(m, kind, lane)
        g.committed.append(g.open)
        g.open = []


def wait_groups(
    m: Machine, kind: str, lanes: Lanes, keep: int, *, reads_only: bool = False
) -> None:
    """The thread waits until at most `keep` of its groups are pending: it learns that the
    older ones completed. For bulk groups with `.read`, only their source reads: the groups
    stay pending for a later full wait."""
    clocks = m.clocks
    for lane in lanes.tolist():
        g = groups(m, kind, lane)
        retired = g.committed[: max(len(g.committed) - keep, 0)]
        if not reads_only:
            g.committed = g.committed[len(retired) :]
        if clocks is None:
            continue
        for group in retired:
            for op in group:
                if (
                    reads_only
                    and op.component >= 0
                    and clocks.unit_names[op.component - clocks.threads].startswith(
                        "bulk writes"
                    )
                ):
                    continue
                if op.done is not None:
                    clocks.learn(np.array([lane]), op.component, op.clock)


# -- tensor maps ----------------------------------------------------------------------------------


def tensor_map_at(
    m: Machine, inst: Instruction, address: int, symbol_space: str | None
) -> TensorMap:
    maps: dict[int, TensorMap] = m.state.get("tensor_maps", {})
    window = address >> mem.WINDOW_SHIFT
    if window >= mem.GLOBAL_WINDOW:
        relative = address - mem.GENERIC_GLOBAL
        allocation, offset = (
            relative >> mem.ALLOCATION_SHIFT,
            relative & ((1 << mem.ALLOCATION_SHIFT) - 1),
        )
        tmap = m.state.get("global_tensor_maps", {}).get(allocation)
        if tmap is None or offset:
            m.fail(f"no TensorMap at global address {address:#x}", inst)
        return tmap
    if window == mem.PARAM_WINDOW:
        offset = address - mem.GENERIC_PARAM
    elif window == 0 and symbol_space in (None, "param"):
        offset = address
    else:
        m.fail(f"no TensorMap at address {address:#x}", inst)
    tmap = maps.get(offset)
    if tmap is None:
        m.fail(
            f"no TensorMap was passed for the kernel parameter at offset {offset}", inst
        )
    return tmap


def _map_operand(operand: Operand) -> tuple[Operand, tuple[Operand, ...]]:
    if not isinstance(operand, Address) or len(operand.rest) != 1:
        raise Unsupported("expected [tensorMap, {coordinates}]")
    coords = operand.rest[0]
    elements = coords.elements if isinstance(coords, Vector) else (coords,)
    return Address(operand.base, operand.offset, ()), elements


def _region_of_array(m: Machine, array: npt.NDArray[Any]) -> mem.Region:
    regions: dict[int, mem.Region] = m.state.get("array_regions", {})
    region = regions.get(id(array))
    if region is None:
        raise Unsupported("the tensor map's array was not passed to the launch")
    return region


# -- TMA ------------------------------------------------------------------------------------------


@semantics("cp", klass="async")
def compile_cp(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    if parts[1] == "async":
        if len(parts) > 2 and parts[2] == "bulk":
            return _compile_bulk(m, inst, ops)
        if len(parts) > 2 and parts[2] == "mbarrier":
            return _compile_cp_async_arrive(m, inst, ops)
        if len(parts) > 2 and parts[2] in ("commit_group", "wait_group", "wait_all"):
            return _compile_cp_async_groups(m, inst, ops)
        return _compile_cp_async(m, inst, ops)
    if parts[1] == "reduce":
        return _compile_bulk(m, inst, ops)
    raise Unsupported(inst.opcode)


def _compile_bulk(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    if "commit_group" in parts:
        return lambda m, lanes: commit(m, "bulk", lanes)
    if "wait_group" in parts:
        keep = ops[0]
        if not isinstance(keep, Imm):
            raise Unsupported("the group count must be an immediate")
        count = keep.value
        reads_only = "read" in parts
        return lambda m, lanes: wait_groups(
            m, "bulk", lanes, count, reads_only=reads_only
        )
    if "prefetch" in parts:
        return lambda m, lanes: None
    if "tensor" in parts:
        if parts.index("tensor") + 1 < len(parts) and _destination(parts) == "global":
            return _compile_tma_store(m, inst, ops)
        return _compile_tma_load(m, inst, ops)
    return _compile_bulk_copy(m, inst, ops)


def _destination(parts: list[str]) -> str:
    spaces = [
        p for p in parts if p in ("global", "shared::cluster", "shared::cta", "shared")
    ]
    return spaces[0] if spaces else ""


def _compile_tma_load(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    if "im2col" in parts or any(
        p.startswith("im2col") or p.startswith("tile::") for p in parts if p != "tile"
    ):
        raise Unsupported("only the tile load mode")
    multicast = "multicast::cluster" in parts
    read_dst, dst_space = address_reader(m, inst, ops[0])
    map_operand, coord_operands = _map_operand(ops[1])
    read_map, map_space = address_reader(m, inst, map_operand)
    read_coords = [reader(m, inst, c, S32) for c in coord_operands]
    read_bar, bar_space = address_reader(m, inst, ops[2])
    read_mask = reader(m, inst, ops[3], U16) if multicast else None
    dest = "shared::cluster" if "shared::cluster" in parts else "shared"
    bar_state_space = "shared::cluster" if dest == "shared::cluster" else "shared"

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        dsts = read_dst(m, lanes)
        maps = read_map(m, lanes)
        coords = [r(m, lanes) for r in read_coords]
        bars = read_bar(m, lanes)
        masks = read_mask(m, lanes) if read_mask is not None else None
        for i, lane in enumerate(lanes.tolist()):
            one = lanes[i : i + 1]
            tmap = tensor_map_at(m, inst, int(maps[i]), map_space)
            dst_ctas, dst_offsets = locate(
                m, inst, dest, dsts[i : i + 1], one, dst_space
            )
            bar_ctas, bar_offsets = locate(
                m, inst, bar_state_space, bars[i : i + 1], one, bar_space
            )
            targets = _targets(
                m, lane, dst_ctas[0], masks[i] if masks is not None else None
            )
            data, elements, inside = _gather_box(m, tmap, [int(c[i]) for c in coords])
            op = start(
                m,
                lane,
                ("tma", lane, int(bar_offsets[0])),
                f"TMA loads of thread {lane} on mbarrier {int(bar_offsets[0]):#x}",
                inst.pc,
            )
            source = _region_of_array(m, tmap.array)
            itemsize = tmap.array.dtype.itemsize
            async_access(
                m,
                inst,
                op,
                source,
                elements[inside] * itemsize,
                itemsize,
                "read",
                proxy=False,
                what="TMA read",
            )
            for cta in targets:
                _write_box(
                    m,
                    inst,
                    op=op,
                    cta=cta,
                    offset=int(dst_offsets[0]),
                    tmap=tmap,
                    data=data,
                )
                bar_cta = cta if masks is not None else int(bar_ctas[0])
                key: Key = (bar_cta, int(bar_offsets[0]))
                complete_tx(m, inst, key, tmap.box_bytes, lane, op.done)
        m.bump()

    return run


def _targets(m: Machine, lane: int, own: int, mask: Any) -> list[int]:
    if mask is None:
        return [int(own)]
    geometry = m.geometry
    cluster = int(geometry.cta_cluster[geometry.lane_cta[lane]])
    members = geometry.cluster_members[cluster]
    return [
        int(members[rank])
        for rank in range(geometry.cluster_size)
        if int(mask) >> rank & 1
    ]


def _gather_box(
    m: Machine, tmap: TensorMap, coords: list[int]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    elements, inside = box_elements(tmap, coords)
    region = _region_of_array(m, tmap.array)
    itemsize = tmap.array.dtype.itemsize
    data = mem.gather(region, elements * itemsize, itemsize)
    fill = np.zeros(itemsize, dtype=np.uint8)
    if tmap.oob_fill == "nan":
        fill = np.frombuffer(
            np.array(np.nan, dtype=tmap.array.dtype).tobytes(), dtype=np.uint8
        )
    data = np.where(inside[:, None], data, fill[None, :]).astype(np.uint8)
    return data, elements, inside


def _smem_offsets(
    m: Machine, inst: Instruction, tmap: TensorMap, base: int
) -> npt.NDArray[np.int64]:
    """Where each element of the box lies in the shared memory of a CTA when the box
    starts at `base`: the box's layout, swizzled on the address (see `tensormap`)."""
    if base % SHARED_ALIGNMENT:
        m.fail(
            f"the shared-memory box of a tensor copy must be {SHARED_ALIGNMENT}-byte "
            f"aligned, got shared[{base:#x}]",
            inst,
        )
    if base < 0 or base + tmap.shared_bytes > m.shared.size:
        m.fail(
            f"the TMA box of {tmap.shared_bytes} bytes at shared[{base:#x}] runs past the "
            f"{m.shared.size} bytes of shared memory",
            inst,
        )
    return swizzle_offsets(
        base + box_shared_offsets(tmap), tmap.swizzle, tmap.swizzle_atom
    )


def _write_box(
    m: Machine,
    inst: Instruction,
    *,
    op: Operation,
    cta: int,
    offset: int,
    tmap: TensorMap,
    data: npt.NDArray[np.uint8],
) -> None:
    itemsize = tmap.array.dtype.itemsize
    offsets = _smem_offsets(m, inst, tmap, offset)
    flat = cta * m.shared.size + offsets
    async_access(
        m, inst, op, m.shared, flat, itemsize, "write", proxy=False, what="TMA write"
    )
    mem.scatter(m.shared, flat, data, itemsize)


def _compile_tma_store(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    reduce_op = None
    if parts[0] == "cp" and parts[1] == "reduce":
        reduce_op = next(
            (
                p
                for p in parts
                if p in ("add", "min", "max", "inc", "dec", "and", "or", "xor")
            ),
            None,
        )
        if reduce_op is None:
            raise Unsupported("reduction operation")
    map_operand, coord_operands = _map_operand(ops[0])
    read_map, map_space = address_reader(m, inst, map_operand)
    read_coords = [reader(m, inst, c, S32) for c in coord_operands]
    read_src, src_space = address_reader(m, inst, ops[1])

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        maps = read_map(m, lanes)
        coords = [r(m, lanes) for r in read_coords]
        srcs = read_src(m, lanes)
        for i, lane in enumerate(lanes.tolist()):
            one = lanes[i : i + 1]
            tmap = tensor_map_at(m, inst, int(maps[i]), map_space)
            src_ctas, src_offsets = locate(
                m, inst, "shared", srcs[i : i + 1], one, src_space
            )
            elements, inside = box_elements(tmap, [int(c[i]) for c in coords])
            itemsize = tmap.array.dtype.itemsize
            offsets = int(src_ctas[0]) * m.shared.size + _smem_offsets(
                m, inst, tmap, int(src_offsets[0])
            )
            read = start(
                m, lane, ("bulk read", lane), f"bulk reads of thread {lane}", inst.pc
            )
            write = start(
                m, lane, ("bulk write", lane), f"bulk writes of thread {lane}", inst.pc
            )
            async_access(
                m,
                inst,
                read,
                m.shared,
                offsets,
                itemsize,
                "read",
                proxy=True,
                what="TMA store read",
            )
            data = mem.gather(m.shared, offsets, itemsize)[inside]
            region = _region_of_array(m, tmap.array)
            targets = elements[inside] * itemsize
            if reduce_op is not None:
                data = _reduce(
                    reduce_op,
                    mem.gather(region, targets, itemsize),
                    data,
                    tmap.array.dtype,
                )
            async_access(
                m,
                inst,
                write,
                region,
                targets,
                itemsize,
                "write",
                proxy=False,
                what="TMA store write",
            )
            mem.scatter(region, targets, data, itemsize)
            g = groups(m, "bulk", lane)
            g.open.extend([read, write])
        m.bump()

    return run


def _reduce(
    op: str, old: npt.NDArray[np.uint8], new: npt.NDArray[np.uint8], dtype: Any
) -> npt.NDArray[np.uint8]:
    a = np.ascontiguousarray(old).view(dtype).reshape(-1)
    b = np.ascontiguousarray(new).view(dtype).reshape(-1)
    with np.errstate(all="ignore"):
        result = {
            "add": lambda: a + b,
            "min": lambda: np.minimum(a, b),
            "max": lambda: np.maximum(a, b),
            "and": lambda: a & b,
            "or": lambda: a | b,
            "xor": lambda: a ^ b,
            "inc": lambda: np.where(a >= b, 0, a + 1),
            "dec": lambda: np.where((a == 0) | (a > b), b, a - 1),
        }[op]()
    return np.ascontiguousarray(result.astype(dtype)).view(np.uint8).reshape(old.shape)


def _compile_bulk_copy(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    spaces = [
        p for p in parts if p in ("global", "shared::cluster", "shared::cta", "shared")
    ]
    if len(spaces) != 2:
        raise Unsupported("expected a destination and a source space")
    dest, source = spaces
    multicast = "multicast::cluster" in parts
    # cp.reduce.async.bulk: each element of the destination is reduced with the source's,
    # atomically (reductions into the same bytes do not race with each other).
    reduce_op = None
    reduce_type: Any = None
    if parts[1] == "reduce":
        reduce_op = next((p for p in parts if p in _REDUCTIONS), None)
        types = [p for p in parts if is_type_name(p)]
        if reduce_op is None or not types:
            raise Unsupported("expected a reduction operation and type")
        reduce_type = ptx_type(types[-1]).dtype
    mode = "atomic" if reduce_op is not None else "write"
    read_dst, dst_symbol = address_reader(m, inst, ops[0])
    read_src, src_symbol = address_reader(m, inst, ops[1])
    read_size = reader(m, inst, ops[2], U32)
    read_bar = address_reader(m, inst, ops[3]) if dest != "global" else None
    read_mask = reader(m, inst, ops[4], U16) if multicast else None

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        dsts, srcs, sizes = read_dst(m, lanes), read_src(m, lanes), read_size(m, lanes)
        masks = read_mask(m, lanes) if read_mask is not None else None
        for i, lane in enumerate(lanes.tolist()):
            one = lanes[i : i + 1]
            size = int(sizes[i])
            if size % 16:
                m.fail(f"cp.async.bulk size {size} is not a multiple of 16", inst)
            src_pieces = resolve(
                m,
                inst,
                _state(source),
                srcs[i : i + 1],
                one,
                size,
                symbol_space=src_symbol,
                align=16,
            )
            src = src_pieces[0]
            data = mem.gather(src.region, src.offsets, size)
            if dest == "global":
                read = start(
                    m,
                    lane,
                    ("bulk read", lane),
                    f"bulk reads of thread {lane}",
                    inst.pc,
                )
                write = start(
                    m,
                    lane,
                    ("bulk write", lane),
                    f"bulk writes of thread {lane}",
                    inst.pc,
                )
                async_access(
                    m,
                    inst,
                    read,
                    src.region,
                    src.offsets,
                    size,
                    "read",
                    proxy=True,
                    what="bulk copy read",
                )
                dst = resolve(m, inst, "global", dsts[i : i + 1], one, size, align=16)[
                    0
                ]
                async_access(
                    m,
                    inst,
                    write,
                    dst.region,
                    dst.offsets,
                    size,
                    mode,
                    proxy=False,
                    what="bulk copy write",
                )
                if reduce_op is not None:
                    old = mem.gather(dst.region, dst.offsets, size)
                    data = _reduce(reduce_op, old, data, reduce_type)
                mem.scatter(dst.region, dst.offsets, data, size)
                groups(m, "bulk", lane).open.extend([read, write])
                continue
            assert read_bar is not None
            read_bar_address, bar_symbol = read_bar
            bar_ctas, bar_offsets = locate(
                m, inst, "shared::cluster", read_bar_address(m, one), one, bar_symbol
            )
            dst_ctas, dst_offsets = locate(
                m, inst, "shared::cluster", dsts[i : i + 1], one, dst_symbol
            )
            op = start(
                m,
                lane,
                ("tma", lane, int(bar_offsets[0])),
                f"bulk copies of thread {lane}",
                inst.pc,
            )
            async_access(
                m,
                inst,
                op,
                src.region,
                src.offsets,
                size,
                "read",
                proxy=source != "global",
                what="bulk copy read",
            )
            targets = _targets(
                m, lane, int(dst_ctas[0]), masks[i] if masks is not None else None
            )
            check_running(m, inst, np.array(targets, dtype=np.int64), one)
            for cta in targets:
                flat = np.array([cta * m.shared.size + int(dst_offsets[0])])
                if int(dst_offsets[0]) + size > m.shared.size:
                    m.fail("cp.async.bulk runs past the end of shared memory", inst)
                async_access(
                    m,
                    inst,
                    op,
                    m.shared,
                    flat,
                    size,
                    mode,
                    proxy=False,
                    what="bulk copy write",
                )
                written = data
                if reduce_op is not None:
                    old = mem.gather(m.shared, flat, size)
                    written = _reduce(reduce_op, old, data, reduce_type)
                mem.scatter(m.shared, flat, written, size)
                bar_cta = cta if masks is not None else int(bar_ctas[0])
                complete_tx(
                    m, inst, (bar_cta, int(bar_offsets[0])), size, lane, op.done
                )
        m.bump()

    return run


_REDUCTIONS = ("add", "min", "max", "inc", "dec", "and", "or", "xor")


def _state(space: str) -> str:
    return "shared" if space in ("shared::cta", "shared") else space


# -- cp.async (non-bulk) --------------------------------------------------------------------------

QUEUE = 16
"""Commit groups remembered per thread: a wait_group N needs only the newest N + 1."""


@dataclass
class CpAsyncGroups:
    """Every thread's cp.async unit and commit groups, as arrays over the threads.

    All of a thread's copies are operations of its one cp.async unit; their clocks grow in
    issue order and the groups complete in order, so a group is known by the last clock
    issued before its commit (an empty group's completion still says that every older
    group completed).
    """

    base: int
    """The unit component of thread 0 (thread t's is base + t); -1 when not checking."""
    latest: npt.NDArray[np.int64]
    """The last clock the thread issued (0: none yet)."""
    queue: npt.NDArray[np.int64]
    """The last clock of each committed, pending group, oldest first."""
    count: npt.NDArray[np.int64]


def cp_async_groups(m: Machine) -> CpAsyncGroups:
    state = m.state.get("cp_async")
    if state is None:
        base = -1
        if m.clocks is not None:
            lanes = np.arange(m.lanes)
            base = m.clocks.unit_block(
                "cp.async", lanes, [f"cp.async of thread {t}" for t in range(m.lanes)]
            )
        state = CpAsyncGroups(
            base,
            np.zeros(m.lanes, dtype=np.int64),
            np.zeros((m.lanes, QUEUE), dtype=np.int64),
            np.zeros(m.lanes, dtype=np.int64),
        )
        m.state["cp_async"] = state
    return state


def _commit_cp_async(m: Machine, lanes: Lanes) -> None:
    g = cp_async_groups(m)
    full = lanes[g.count[lanes] == QUEUE]
    if full.size:
        # The oldest pending group is older than any wait can name: keep the newest.
        g.queue[full, :-1] = g.queue[full, 1:]
        g.count[full] -= 1
    g.queue[lanes, g.count[lanes]] = g.latest[lanes]
    g.count[lanes] += 1


def _wait_cp_async(m: Machine, lanes: Lanes, keep: int) -> None:
    g = cp_async_groups(m)
    retired = np.maximum(g.count[lanes] - keep, 0)
    waiting = lanes[retired > 0]
    if waiting.size == 0:
        return
    count = retired[retired > 0]
    last = g.queue[waiting, count - 1]
    if m.clocks is not None:
        components = g.base + waiting
        m.clocks.matrix[waiting, components] = np.maximum(
            m.clocks.matrix[waiting, components], last
        )
    # Drop the retired groups: shift the pending ones to the front.
    index = np.arange(QUEUE)[None, :] + count[:, None]
    inside = index < QUEUE
    shifted = np.where(
        inside, g.queue[waiting[:, None], np.minimum(index, QUEUE - 1)], 0
    )
    g.queue[waiting] = shifted
    g.count[waiting] -= count


def _compile_cp_async(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    read_dst, dst_symbol = address_reader(m, inst, ops[0])
    read_src, src_symbol = address_reader(m, inst, ops[1])
    size_operand = ops[2]
    if not isinstance(size_operand, Imm):
        raise Unsupported("the copy size must be an immediate")
    size = size_operand.value
    if size not in (4, 8, 16):
        raise Unsupported(f"copy size {size}")
    read_src_size = None
    read_ignore = None
    if len(ops) > 3:
        extra = ops[3]
        if isinstance(extra, Reg) and m.program.registers[extra.index].width == 1:
            read_ignore = reader(m, inst, extra, PRED)
        elif not isinstance(extra, Sym):
            read_src_size = reader(m, inst, extra, U32)

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        dsts, srcs = read_dst(m, lanes), read_src(m, lanes)
        valid = np.full((lanes.shape[0],), size, dtype=np.int64)
        if read_src_size is not None:
            valid = np.minimum(read_src_size(m, lanes).astype(np.int64), size)
        if read_ignore is not None:
            valid = np.where(read_ignore(m, lanes), 0, size)
        dst_pieces = resolve(
            m, inst, "shared", dsts, lanes, size, symbol_space=dst_symbol
        )
        data = np.zeros((lanes.shape[0], size), dtype=np.uint8)
        reading = np.flatnonzero(valid > 0)
        if reading.size:
            src_pieces = resolve(
                m,
                inst,
                "global",
                srcs[reading],
                lanes[reading],
                size,
                symbol_space=src_symbol,
                align=1,
            )
            for piece in src_pieces:
                data[reading[piece.rows]] = mem.gather(
                    piece.region, piece.offsets, size
                )
        keep = np.arange(size)[None, :] < valid[:, None]
        data = np.where(keep, data, 0).astype(np.uint8)
        g = cp_async_groups(m)
        actor = None
        if m.clocks is not None:
            # Each thread's copy is an operation of its cp.async unit, checked against
            # what the thread knows; it writes through the generic proxy.
            components = g.base + lanes
            clocks = m.clocks.next_unit_clocks(components)
            g.latest[lanes] = clocks
            actor = Actor(components, clocks, lanes, None, inst.pc)
        for piece in dst_pieces:
            m.record(
                piece.region,
                piece.offsets,
                size,
                actor,
                "write",
                inst,
                "cp.async write",
                owners=piece.rows,
            )
            mem.scatter(piece.region, piece.offsets, data[piece.rows], size)
        m.bump()

    return run


def _compile_cp_async_groups(
    m: Machine, inst: Instruction, ops: list[Operand]
) -> Action:
    action = inst.parts[2]
    if action == "commit_group":
        return _commit_cp_async
    if action == "wait_all":

        def wait_all(m: Machine, lanes: Lanes) -> None:
            _commit_cp_async(m, lanes)
            _wait_cp_async(m, lanes, 0)

        return wait_all
    keep = ops[0]
    if not isinstance(keep, Imm):
        raise Unsupported("the group count must be an immediate")
    count = keep.value
    return lambda m, lanes: _wait_cp_async(m, lanes, count)


def _compile_cp_async_arrive(
    m: Machine, inst: Instruction, ops: list[Operand]
) -> Action:
    from tileas_py.sim.isa.mbarrier import add_clock, arrive, barriers

    no_increment = "noinc" in inst.parts
    read_bar, bar_symbol = address_reader(m, inst, ops[0])
    space = space_of(inst.opcode)

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        ctas, offsets = locate(m, inst, space, read_bar(m, lanes), lanes, bar_symbol)
        g = cp_async_groups(m)
        for i, lane in enumerate(lanes.tolist()):
            key: Key = (int(ctas[i]), int(offsets[i]))
            barrier = barriers(m).get(key)
            if barrier is not None and not no_increment:
                barrier.pending += 1
            if barrier is not None and m.clocks is not None:
                # The arrival happens once the thread's copies have landed: it publishes
                # the thread's clock and its copies' completion (the thread learns nothing).
                published = m.clocks.release(lanes[i : i + 1])
                component = g.base + lane
                published[component] = max(
                    int(published[component]),
                    int(m.clocks.unit_clock[component - m.clocks.threads]),
                )
                add_clock(barrier, published)
            arrive(
                m,
                inst,
                key,
                lanes[i : i + 1],
                np.ones(1, dtype=np.int64),
                release=False,
            )

    return run
