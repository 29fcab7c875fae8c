"""Blackwell's tensor memory and 5th-generation tensor core: the `tcgen05` family.

This module decodes every `tcgen05.*` instruction, keeps the family's shared helpers and
runs the allocation, fences and `tcgen05.commit`; `tcgen05_data` moves data
(`ld` / `st` and their waits, `cp`, `shift`) and `tcgen05_mma` computes.

- `tcgen05.alloc` / `dealloc` / `relinquish_alloc_permit` (a warp of a CTA; with
  `.cta_group::2` a warp in each CTA of a pair) allocate tensor-memory columns (`sim.tmem`):
  a power of 2 from 32 to 512, at the lowest free multiple of the size; the address goes to
  shared memory, seen at once by the allocating warp. An allocation that does not fit
  blocks until columns are freed.
- `tcgen05.commit` arrives, once the issuing thread's MMA / cp / shift operations are done,
  on an mbarrier (with `.multicast::cluster` at the same offset in each CTA of the mask).
- `tcgen05.fence::before_thread_sync` / `::after_thread_sync` order tcgen05 operations with
  thread synchronisation (`sim.tmem`).

Every operation moves its data at issue; the checker sees it as asynchronous: shared-memory
operand reads and tensor-memory accesses are made by tcgen05 units (a thread's MMA
pipeline, a warp's loads or stores) and are ordered with other threads only through the
commit's mbarrier phase or the waits and fences. A tcgen05 instruction in a module whose
`.target` lacks tcgen05 is a `target` hazard; misused allocations are `tmem-allocation`
hazards.
PTX ISA, "Tensor Core 5th Generation Family Instructions":
https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-instructions
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import ModuleOp

from tileas_py.dialects.ori.module_ops import TargetOp
from tileas_py.hw import tcgen05 as rules
from tileas_py.hw import tmem as layout
from tileas_py.hw.arch import Arch
from tileas_py.hw.tcgen05_descriptor import Tcgen05SmemDescriptor
from tileas_py.sim import memory as mem
from tileas_py.sim import tmem
from tileas_py.sim.clocks import join
from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.access import resolve
from tileas_py.sim.isa.async_copy import Operation, async_access
from tileas_py.sim.isa.collective import converge
from tileas_py.sim.isa.operands import (
    Imm,
    Operand,
    address_reader,
    reader,
)
from tileas_py.sim.program import Action, Instruction
from tileas_py.sim.ptx_types import ptx_type
from tileas_py.sim.races import Actor
from tileas_py.sim.report import HazardKind

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]
U16 = ptx_type("u16")
U32 = ptx_type("u32")
WARP = 32


# -- common ----------------------------------------------------------------------------------------


def cta_group_of(inst: Instruction) -> int:
    for part in inst.parts:
        if part.startswith("cta_group::"):
            return int(part.removeprefix("cta_group::"))
    return 1


def module_arch(inst: Instruction) -> Arch | None:
    """The module's `.target` chip, if it names one."""
    module = inst.function.op.parent_op()
    if not isinstance(module, ModuleOp):
        return None
    for op in module.ops:
        if isinstance(op, TargetOp):
            for target in op.targets.data:
                arch = Arch.parse(target.data)
                if arch is not None:
                    return arch
    return None


def on_target(action: Action, inst: Instruction, needs: str, available: bool) -> Action:
    """`action`, reporting a `target` hazard first when the module's target lacks it."""
    if available:
        return action
    arch = module_arch(inst)

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size:
            m.hazard(
                HazardKind.TARGET,
                f"'{inst.opcode}' needs {needs}; the module's .target is {arch}",
                m.party(int(lanes[0]), inst.pc),
                key=(HazardKind.TARGET, inst.pc),
            )
        action(m, lanes)

    return run


TCGEN05_TARGETS = "an sm_100a, sm_103a or sm_110a target (or sm_100f, sm_103f, sm_110f)"


def unit_operation(
    m: Machine, members: Lanes, unit: str, owner: str, inst: Instruction
) -> Operation:
    """A new operation of a tcgen05 unit (`unit` of `owner`: a thread's MMA pipeline, a
    warp's loads or stores), issued by `members` and checked against their tcgen05 views."""
    clocks = m.clocks
    if clocks is None:
        return Operation(None, None, -1, 0)
    first = int(members[0])
    component = clocks.unit((unit, owner), first, f"{unit} of {owner}")
    tmem.ordering(m).units[unit, owner] = component
    clock = clocks.next_unit_clock(component)
    view = tmem.tcgen05_view(m, first)
    for lane in members[1:].tolist():
        np.maximum(view, tmem.tcgen05_view(m, lane), out=view)
    # An operation is ordered after its own accesses and, in the MMA pipeline or a warp's
    # stream of loads (or stores), after the earlier operations of its unit.
    view[component] = clock
    actor = Actor(
        np.array([component]), np.array([clock]), None, view, inst.pc, asynchronous=True
    )
    done = view.copy()
    done[component] = clock
    return Operation(actor, done, component, clock)


def warp_name(m: Machine, lane: int) -> str:
    g = m.geometry
    return f"warp {int(g.lane_tid[lane]) // WARP} of CTA {g.describe_cta(int(g.lane_cta[lane]))}"


def thread_name(m: Machine, lane: int) -> str:
    g = m.geometry
    return (
        f"thread {int(g.lane_tid[lane])} of CTA {g.describe_cta(int(g.lane_cta[lane]))}"
    )


def pipeline_operation(m: Machine, lane: int, inst: Instruction) -> Operation:
    op = unit_operation(
        m, np.array([lane]), "tcgen05 pipeline", thread_name(m, lane), inst
    )
    if op.done is not None:
        state = tmem.ordering(m)
        known = state.pipeline_done.get(lane)
        state.pipeline_done[lane] = op.done if known is None else join(known, op.done)
    return op


def pair_ctas(m: Machine, inst: Instruction, cta: int, cta_group: int) -> list[int]:
    """The CTAs an operation of `cta_group` acts on: the CTA, or its pair (even rank
    first)."""
    if cta_group == 1:
        return [cta]
    g = m.geometry
    if g.cluster_size < 2:
        m.fail(f"'{inst.opcode}' needs a cluster of at least 2 CTAs", inst)
    cluster = int(g.cta_cluster[cta])
    even = int(g.cta_rank[cta]) & ~1
    members = g.cluster_members[cluster]
    pair = [int(members[even]), int(members[even + 1])]
    from tileas_py.sim.machine import EXITED

    for other in pair:
        own = slice(other * g.padded, (other + 1) * g.padded)
        if (m.status[own][g.live[own]] == EXITED).all():
            m.fail(
                f"'{inst.opcode}' acts on CTA {g.describe_cta(other)} of the pair, whose "
                "threads have all exited",
                inst,
            )
    return pair


def check_columns(
    m: Machine, inst: Instruction, cta: int, columns: Lanes, what: str
) -> None:
    tm = tmem.tensor_memory(m)
    if columns.size and (columns.min() < 0 or columns.max() >= layout.COLUMNS):
        m.fail(f"{what} reaches column {int(columns.max())}, past column 511", inst)
    outside = ~tm.allocated(cta, columns)
    if outside.any():
        bad = np.unique(columns[outside])
        span = (
            f"column {int(bad[0])}, which is"
            if bad.size == 1
            else f"columns {int(bad[0])}-{int(bad[-1])}, which are"
        )
        m.fail(
            f"{what} uses tensor-memory {span} not allocated in CTA "
            f"{m.geometry.describe_cta(cta)}",
            inst,
        )


@semantics("tcgen05", klass="tcgen05")
def compile_tcgen05(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    arch = module_arch(inst)
    available = arch is None or rules.supports_tcgen05(arch)
    return on_target(_compile(m, inst, ops), inst, TCGEN05_TARGETS, available)


def _compile(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    action = inst.parts[1]
    if action == "alloc":
        return _compile_alloc(m, inst, ops)
    if action == "dealloc":
        return _compile_dealloc(m, inst, ops)
    if action == "relinquish_alloc_permit":
        return _compile_relinquish(inst)
    if action.startswith("fence::"):
        return _compile_fence(action)
    if action == "commit":
        return _compile_commit(m, inst, ops)
    # The data movement and the MMA use this module's helpers: imported once it is loaded.
    from tileas_py.sim.isa import tcgen05_data, tcgen05_mma

    if action.startswith("wait::"):
        return tcgen05_data.compile_wait(inst, action.removeprefix("wait::"))
    if action in ("ld", "st"):
        return tcgen05_data.compile_ld_st(m, inst, ops, action)
    if action == "cp":
        return tcgen05_data.compile_cp(m, inst, ops)
    if action == "shift":
        return tcgen05_data.compile_shift(m, inst, ops)
    if action == "mma":
        return tcgen05_mma.compile_mma(m, inst, ops)
    raise Unsupported(inst.opcode)


def warps_of(lanes: Lanes) -> list[Lanes]:
    warps = lanes // WARP
    return [lanes[warps == w] for w in np.unique(warps).tolist()]


def decode_descriptor(
    m: Machine, inst: Instruction, raw: int, name: str
) -> Tcgen05SmemDescriptor:
    try:
        return Tcgen05SmemDescriptor.decode(raw)
    except ValueError as error:
        m.fail(f"bad {name} descriptor of '{inst.opcode}': {error}", inst)


def raise_unsupported(m: Machine, inst: Instruction, what: str) -> None:
    m.fail(f"unsupported instruction '{inst.opcode}': {what}", inst)


# -- allocation ---------------------------------------------------------------------------------


def _column_count(
    m: Machine, inst: Instruction, operand: Operand, op: str
) -> tuple[Any, int | None]:
    if isinstance(operand, Imm):
        errors = rules.check_alloc_columns(operand.value, op)
        if errors:
            m.fail(errors[0], inst)
        return None, operand.value
    return reader(m, inst, operand, U32), None


def _compile_alloc(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    cta_group = cta_group_of(inst)
    read_dst, dst_space = address_reader(m, inst, ops[0])
    read_count, fixed = _column_count(m, inst, ops[1], "alloc")

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, WARP)
        for warp in warps_of(lanes):
            count = fixed if fixed is not None else int(read_count(m, warp[:1])[0])
            if fixed is None:
                errors = rules.check_alloc_columns(count, "alloc")
                if errors:
                    m.fail(errors[0], inst)
            _alloc(m, inst, warp, count, cta_group, read_dst, dst_space)

    return run


def _alloc(  # noqa: PLR0917 (one warp's allocation)
    m: Machine,
    inst: Instruction,
    warp: Lanes,
    count: int,
    cta_group: int,
    read_dst: Any,
    dst_space: str | None,
) -> None:
    tm = tmem.tensor_memory(m)
    cta = int(m.geometry.lane_cta[warp[0]])
    if tm.relinquished[cta]:
        m.hazard(
            HazardKind.TMEM_ALLOCATION,
            "tcgen05.alloc after the CTA's tcgen05.relinquish_alloc_permit",
            m.party(int(warp[0]), inst.pc),
            key=(HazardKind.TMEM_ALLOCATION, inst.pc, "relinquished"),
        )
    ctas = pair_ctas(m, inst, cta, cta_group)
    if cta_group == 2:
        # The warps of both CTAs take part: the first waits for its peer's.
        arrivals: dict[tuple[int, ...], list[tuple[int, Lanes]]] = m.state.setdefault(
            "tmem_pair_allocs", {}
        )
        key = tuple(ctas)
        waiting = arrivals.setdefault(key, [])
        waiting.append((cta, warp))
        if len({c for c, _ in waiting}) < 2:
            m.block(
                warp,
                ("tmem-pair", key),
                f"the peer CTA's warp to reach '{inst.opcode}'",
                at=inst,
            )
            return
        del arrivals[key]
        members = waiting
    else:
        members = [(cta, warp)]
    start = tm.free_start(ctas, count)
    if start is None:
        if cta_group == 2:
            m.fail(
                f"tcgen05.alloc.cta_group::2 of {count} columns does not fit (columns in "
                f"use: {tm.used(ctas[0])}, {tm.used(ctas[1])}); a blocking pair "
                "allocation is not modelled",
                inst,
            )
        m.block(
            warp,
            ("tmem", cta),
            f"{count} free columns of tensor memory ({tm.used(cta)} of 512 in use)",
            at=inst,
            retry=True,
        )
        return
    for c in ctas:
        tm.allocations[c][start] = tmem.Allocation(start, count, cta_group, inst.pc)
    m.state.setdefault("exit_hooks", {})["tmem"] = on_exit
    for _, lanes in members:
        first = lanes[:1]
        pieces = resolve(
            m, inst, "shared", read_dst(m, first), first, 4, symbol_space=dst_space
        )
        value = np.array([layout.address(0, start)], dtype=np.uint32).view(np.uint8)
        # The warp writes the address and waits for it: its threads see the write.
        name = warp_name(m, int(first[0]))
        op = unit_operation(m, lanes, "tcgen05.alloc", name, inst)
        for piece in pieces:
            async_access(
                m,
                inst,
                op,
                piece.region,
                piece.offsets,
                4,
                "write",
                proxy=False,
                what=inst.opcode,
            )
            mem.scatter(piece.region, piece.offsets, value.reshape(1, 4), 4)
        if m.clocks is not None:
            m.clocks.learn(lanes, op.component, op.clock)
        m.wake(("tmem-pair", tuple(ctas)))
    m.bump()


def _compile_dealloc(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    read_taddr = reader(m, inst, ops[0], U32)
    read_count, fixed = _column_count(m, inst, ops[1], "dealloc")

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, WARP)
        tm = tmem.tensor_memory(m)
        for warp in warps_of(lanes):
            first = warp[:1]
            count = fixed if fixed is not None else int(read_count(m, first)[0])
            _, start = layout.split(int(read_taddr(m, first)[0]))
            cta = int(m.geometry.lane_cta[warp[0]])
            allocation = tm.allocations[cta].get(start)
            if allocation is None or allocation.columns != count:
                held = ", ".join(
                    f"{a.start}-{a.start + a.columns - 1}"
                    for a in tm.allocations[cta].values()
                )
                m.hazard(
                    HazardKind.TMEM_ALLOCATION,
                    f"tcgen05.dealloc of columns {start}-{start + count - 1}, which are not "
                    f"one allocation (allocated: {held or 'none'})",
                    m.party(int(warp[0]), inst.pc),
                    key=(HazardKind.TMEM_ALLOCATION, inst.pc, "dealloc"),
                )
                continue
            del tm.allocations[cta][start]
            m.wake(("tmem", cta))
        m.bump()

    return run


def _compile_relinquish(inst: Instruction) -> Action:
    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, WARP)
        tm = tmem.tensor_memory(m)
        for cta in np.unique(m.geometry.lane_cta[lanes]).tolist():
            tm.relinquished[cta] = True

    return run


def on_exit(m: Machine, lanes: Lanes) -> None:
    """A CTA whose threads have all exited must have freed its tensor memory."""
    from tileas_py.sim.machine import EXITED

    tm: tmem.TensorMemory | None = m.state.get("tmem")
    if tm is None:
        return
    g = m.geometry
    for cta in map(int, np.unique(g.lane_cta[lanes])):
        if not tm.allocations[cta]:
            continue
        own = slice(cta * g.padded, (cta + 1) * g.padded)
        if not (m.status[own][g.live[own]] == EXITED).all():
            continue
        held = ", ".join(
            f"{a.columns} at column {a.start}" for a in tm.allocations[cta].values()
        )
        pc = next(iter(tm.allocations[cta].values())).pc
        m.hazard(
            HazardKind.TMEM_ALLOCATION,
            f"CTA {g.describe_cta(cta)} exits with tensor memory allocated ({held}): "
            "tcgen05.dealloc is missing",
            m.party(cta * g.padded, pc),
            key=(HazardKind.TMEM_ALLOCATION, pc, "exit"),
        )


# -- fences and waits -----------------------------------------------------------------------


def _compile_fence(action: str) -> Action:
    if action == "fence::after_thread_sync":
        return tmem.fence_after
    if action == "fence::before_thread_sync":
        return tmem.fence_before
    raise Unsupported(f"tcgen05.{action}")


# -- tcgen05.commit ----------------------------------------------------------------------------


def _compile_commit(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    from tileas_py.sim.isa.mbarrier import Key, add_clock, arrive, locate

    parts = inst.parts
    multicast = "multicast::cluster" in parts
    space = "shared::cluster" if "shared::cluster" in parts else "generic"
    read_bar, bar_symbol = address_reader(m, inst, ops[0])
    read_mask = reader(m, inst, ops[1], U16) if multicast else None

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        ctas, offsets = locate(m, inst, space, read_bar(m, lanes), lanes, bar_symbol)
        masks = read_mask(m, lanes) if read_mask is not None else None
        g = m.geometry
        for i, lane in enumerate(lanes.tolist()):
            one = lanes[i : i + 1]
            published = None
            if m.clocks is not None:
                # The arrival happens once the thread's MMA / cp / shift operations are
                # done: it carries what they knew, and the thread's past.
                published = m.clocks.release(one)
                done = tmem.ordering(m).pipeline_done.get(lane)
                if done is not None:
                    published = join(published, done)
            targets = [int(ctas[i])]
            if masks is not None:
                cluster = int(g.cta_cluster[g.lane_cta[lane]])
                members = g.cluster_members[cluster]
                targets = [
                    int(members[rank])
                    for rank in range(g.cluster_size)
                    if int(masks[i]) >> rank & 1
                ]
            for cta in targets:
                key: Key = (cta, int(offsets[i]))
                barrier = _barrier(m, key)
                if barrier is not None:
                    add_clock(barrier, published)
                arrive(m, inst, key, one, np.ones(1, dtype=np.int64), release=False)

    return run


def _barrier(m: Machine, key: tuple[int, int]) -> Any:
    from tileas_py.sim.isa.mbarrier import barriers

    barrier = barriers(m).get(key)
    return barrier if barrier is not None and barrier.valid else None
