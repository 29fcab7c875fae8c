"""Blackwell's tensor memory and 5th-generation tensor core: the `tcgen05` family.

- `tcgen05.alloc` / `dealloc` / `relinquish_alloc_permit` (a warp of a CTA; with
  `.cta_group::2` a warp in each CTA of a pair) allocate tensor-memory columns (`sim.tmem`):
  a power of 2 from 32 to 512, at the lowest free multiple of the size; the address goes to
  shared memory. An allocation that does not fit blocks until columns are freed.
- `tcgen05.mma` (kinds f16, tf32, f8f6f4 with e4m3 / e5m2, and i8; `.cta_group::1` and
  `::2`) reads A from shared memory through an sm_100 descriptor (`hw.tcgen05_smem`) or
  from tensor memory, B from shared memory, decodes the instruction descriptor
  (`hw.tcgen05_idesc`) and writes D into tensor memory in the data-path layout
  (`hw.tmem.accumulator_cells`): D = A B (+ D scaled by 2^-scale-input-d), exactly in f64
  and rounded once. With `.cta_group::2` one thread of a CTA pair computes for both CTAs:
  each CTA gives M / 2 rows of A and N / 2 rows of B from its own shared memory and holds
  its M / 2 rows of D.
- `tcgen05.commit` arrives, once the issuing thread's MMA / cp / shift operations are done,
  on an mbarrier (with `.multicast::cluster` at the same offset in each CTA of the mask).
- `tcgen05.ld` / `tcgen05.st` move data between a warp's registers and the tensor-memory
  lanes of the warp's quarter (`hw.tmem.fragment`); `tcgen05.wait::ld` / `::st` wait for
  them. Using a `tcgen05.ld` destination before `tcgen05.wait::ld` is a `tcgen05-ld` hazard.
- `tcgen05.cp` copies a shared-memory matrix into tensor memory; `tcgen05.shift` moves
  each 32-lane quarter of 8 columns down one lane; `tcgen05.fence` orders tcgen05
  operations with thread synchronisation (`sim.tmem`).

Every operation moves its data at issue; the checker sees it as asynchronous: shared-memory
operand reads and tensor-memory accesses are made by the issuing thread's tcgen05 units and
are ordered with other threads only through the commit's mbarrier phase or the waits and
fences. A tcgen05 instruction in a module whose `.target` lacks tcgen05 is a `target` hazard.
PTX ISA, "Tensor Core 5th Generation Family Instructions":
https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-instructions
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import ml_dtypes
import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import ModuleOp

from tileas_py.dialects.ori.module_ops import TargetOp
from tileas_py.hw import tcgen05 as rules
from tileas_py.hw import tmem as layout
from tileas_py.hw.arch import Arch
from tileas_py.hw.tcgen05_descriptor import Tcgen05SmemDescriptor
from tileas_py.hw.tcgen05_idesc import (
    InstructionDescriptor,
    MmaKind,
    shape_error,
)
from tileas_py.hw.tcgen05_idesc import K as MMA_K
from tileas_py.hw.tcgen05_smem import operand_addresses
from tileas_py.sim import memory as mem
from tileas_py.sim import tmem
from tileas_py.sim.clocks import join
from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.access import resolve
from tileas_py.sim.isa.async_copy import Operation, async_access
from tileas_py.sim.isa.collective import converge
from tileas_py.sim.isa.operands import (
    Address,
    Imm,
    Operand,
    Reg,
    Vector,
    address_reader,
    reader,
    writer,
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
U64 = ptx_type("u64")
PRED = ptx_type("pred")
WARP = 32


# -- common ----------------------------------------------------------------------------------------


def _cta_group(inst: Instruction) -> int:
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


def _unit_operation(
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


def _warp_name(m: Machine, lane: int) -> str:
    g = m.geometry
    return f"warp {int(g.lane_tid[lane]) // WARP} of CTA {g.describe_cta(int(g.lane_cta[lane]))}"


def _thread_name(m: Machine, lane: int) -> str:
    g = m.geometry
    return (
        f"thread {int(g.lane_tid[lane])} of CTA {g.describe_cta(int(g.lane_cta[lane]))}"
    )


def _pipeline_operation(m: Machine, lane: int, inst: Instruction) -> Operation:
    op = _unit_operation(
        m, np.array([lane]), "tcgen05 pipeline", _thread_name(m, lane), inst
    )
    if op.done is not None:
        state = tmem.ordering(m)
        known = state.pipeline_done.get(lane)
        state.pipeline_done[lane] = op.done if known is None else join(known, op.done)
    return op


def _pair(m: Machine, inst: Instruction, cta: int, cta_group: int) -> list[int]:
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
    return [int(members[even]), int(members[even + 1])]


def _columns(
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
    if action.startswith("wait::"):
        return _compile_wait(inst, action.removeprefix("wait::"))
    if action in ("ld", "st"):
        return _compile_ld_st(m, inst, ops, action)
    if action == "mma":
        return _compile_mma(m, inst, ops)
    if action == "commit":
        return _compile_commit(m, inst, ops)
    if action == "cp":
        return _compile_cp(m, inst, ops)
    if action == "shift":
        return _compile_shift(m, inst, ops)
    raise Unsupported(inst.opcode)


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


def _warps(lanes: Lanes) -> list[Lanes]:
    warps = lanes // WARP
    return [lanes[warps == w] for w in np.unique(warps).tolist()]


def _compile_alloc(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    cta_group = _cta_group(inst)
    read_dst, dst_space = address_reader(m, inst, ops[0])
    read_count, fixed = _column_count(m, inst, ops[1], "alloc")

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, WARP)
        for warp in _warps(lanes):
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
    ctas = _pair(m, inst, cta, cta_group)
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
        name = _warp_name(m, int(first[0]))
        op = _unit_operation(m, lanes, "tcgen05.alloc", name, inst)
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
        for warp in _warps(lanes):
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


def _compile_wait(inst: Instruction, what: str) -> Action:
    if what not in ("ld", "st"):
        raise Unsupported(f"tcgen05.wait::{what}")
    unit = f"tcgen05.{what}"

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, WARP)
        clocks = m.clocks
        if clocks is not None:
            units = tmem.ordering(m).units
            for lane in lanes.tolist():
                component = units.get((unit, _warp_name(m, lane)))
                if component is not None:
                    last = int(clocks.unit_clock[component - clocks.threads])
                    tmem.complete(m, lane, component, last)
        if what == "ld":
            _retire_loads(m, lanes)

    return run


# -- tcgen05.ld / tcgen05.st ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Movement:
    shape: layout.Shape
    num: int
    packed: bool


def _movement(inst: Instruction) -> _Movement:
    parts = inst.parts
    shapes = {s.value for s in layout.Shape}
    shape = next((layout.Shape(p) for p in parts if p in shapes), None)
    num = next((int(p[1:]) for p in parts if p[:1] == "x" and p[1:].isdigit()), None)
    if shape is None or num not in layout.NUMS:
        raise Unsupported("expected a shape and a .num")
    packed = any(p in ("pack::16b", "unpack::16b") for p in parts)
    return _Movement(shape, num, packed)


def loads_in_flight(m: Machine) -> dict[int, npt.NDArray[np.bool_]]:
    """Per register, the threads that have it as the destination of a tcgen05.ld not yet
    waited for."""
    return m.state.setdefault("tcgen05_loads", {})


def _retire_loads(m: Machine, lanes: Lanes) -> None:
    table = loads_in_flight(m)
    for registers in table.values():
        registers[lanes] = False


def check_loads(m: Machine, inst: Instruction, lanes: Lanes) -> None:
    """An instruction uses a register a tcgen05.ld has not delivered yet."""
    table = loads_in_flight(m)
    names: list[str] = []
    first = -1
    for reg in dict.fromkeys(inst.registers):
        column = table.get(reg)
        if column is None:
            continue
        busy = lanes[column[lanes]]
        if busy.size:
            names.append(m.program.registers[reg].name)
            first = int(busy[0]) if first < 0 else first
    if names:
        more = f" (and {len(names) - 1} more)" if len(names) > 1 else ""
        m.hazard(
            HazardKind.TCGEN05_LD,
            f"'{inst.opcode}' uses {names[0]}{more}, a destination of a tcgen05.ld, "
            "before tcgen05.wait::ld",
            m.party(first, inst.pc),
            key=(HazardKind.TCGEN05_LD, inst.pc),
        )


def _registers(operand: Operand) -> list[int]:
    elements = operand.elements if isinstance(operand, Vector) else (operand,)
    out: list[int] = []
    for element in elements:
        if not isinstance(element, Reg):
            raise Unsupported("the data operand holds registers only")
        out.append(element.index)
    return out


def _compile_ld_st(
    m: Machine, inst: Instruction, ops: list[Operand], action: str
) -> Action:
    movement = _movement(inst)
    shape, num = movement.shape, movement.num
    operands = list(ops)
    if action == "ld":
        data = operands.pop(0)
        address = operands.pop(0)
    else:
        address = operands.pop(0)
        data = operands.pop()
    split = 0
    if shape is layout.Shape.S16X32BX2:
        if not operands or not isinstance(operands[0], Imm):
            raise Unsupported(".16x32bx2 needs the immediate half-split offset")
        split = operands[0].value
    registers = _registers(data)
    expected = shape.registers_per_repetition * num
    if len(registers) != expected:
        m.fail(
            f"'{inst.opcode}' moves {expected} registers per thread, got {len(registers)}",
            inst,
        )
    lane_table, column_table = layout.fragment_table(shape, num, split)
    if movement.packed:
        # Each register is two 16-bit halves of adjacent columns: the fragment's column c
        # is tensor-memory columns 2 c and 2 c + 1.
        lane_table = np.repeat(lane_table, 2, axis=1)
        column_table = np.stack(
            [2 * column_table, 2 * column_table + 1], axis=2
        ).reshape(WARP, -1)
    read_taddr, _ = address_reader(m, inst, address)
    reads = [reader(m, inst, Reg(r), U32) for r in registers] if action == "st" else []
    writes = [writer(m, inst, Reg(r), U32) for r in registers] if action == "ld" else []
    what = f"tcgen05.{action}"

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, WARP)
        for warp in _warps(lanes):
            _move(m, warp)

    def _move(m: Machine, warp: Lanes) -> None:
        taddrs = read_taddr(m, warp).astype(np.int64)
        if (taddrs != taddrs[0]).any():
            m.fail(
                f"the threads of a warp give '{inst.opcode}' different addresses", inst
            )
        base_lane, base_column = layout.split(int(taddrs[0]))
        g = m.geometry
        cta = int(g.lane_cta[warp[0]])
        quarter = int(g.lane_tid[warp[0]] // WARP) % 4
        threads = g.lane_tid[warp] % WARP
        lanes_hit = base_lane + lane_table[threads]
        columns = base_column + column_table[threads]
        allowed = layout.warp_lanes(quarter)
        if lanes_hit.min() < allowed.start or lanes_hit.max() >= allowed.stop:
            m.fail(
                f"warp {quarter} of its warpgroup may access tensor-memory lanes "
                f"{allowed.start}-{allowed.stop - 1}; '{inst.opcode}' at lane {base_lane} "
                f"reaches lanes {int(lanes_hit.min())}-{int(lanes_hit.max())}",
                inst,
            )
        _columns(m, inst, cta, columns, f"'{inst.opcode}'")
        tm = tmem.tensor_memory(m)
        cells = tm.cells[cta]
        if m.clocks is not None:
            # The warp moves the fragment: one operation of the warp's loads (stores).
            op = _unit_operation(m, warp, what, _warp_name(m, int(warp[0])), inst)
            tmem.record(
                m,
                inst,
                op.actor,
                tm.index(cta, lanes_hit, columns),
                "read" if action == "ld" else "write",
                what,
            )
        if action == "ld":
            values = cells[lanes_hit, columns]
            if movement.packed:
                values = (values[:, 0::2] & 0xFFFF) | ((values[:, 1::2] & 0xFFFF) << 16)
            table = loads_in_flight(m)
            for k, write in enumerate(writes):
                write(m, warp, values[:, k].astype(np.uint32))
                flags = table.get(registers[k])
                if flags is None:
                    flags = np.zeros(m.lanes, dtype=np.bool_)
                    table[registers[k]] = flags
                flags[warp] = True
            watch: dict[str, Any] = m.state.setdefault("watch", {})
            watch.setdefault("tcgen05.ld", check_loads)
        else:
            values = np.stack(
                [read(m, warp).astype(np.uint32) for read in reads], axis=1
            )
            if movement.packed:
                low, high = values & 0xFFFF, values >> 16
                values = np.stack([low, high], axis=2).reshape(warp.shape[0], -1)
            cells[lanes_hit, columns] = values
        m.bump()

    return run


# -- tcgen05.mma ---------------------------------------------------------------------------------

_ELEMENTS: dict[str, Any] = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "tf32": np.uint32,
    "e4m3": ml_dtypes.float8_e4m3fn,
    "e5m2": ml_dtypes.float8_e5m2,
    "s8": np.int8,
    "u8": np.uint8,
}


def _decode(raw: npt.NDArray[np.uint8], element: str) -> npt.NDArray[np.float64]:
    dtype = np.dtype(_ELEMENTS[element])
    values = np.ascontiguousarray(raw).view(dtype)
    if element == "tf32":
        # The tensor core ignores the low 13 mantissa bits of a tf32 operand.
        return (values & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)
    return values.astype(np.float64)


def _bits(element: str) -> int:
    return 32 if element == "tf32" else np.dtype(_ELEMENTS[element]).itemsize * 8


@dataclass(frozen=True)
class _MmaForm:
    kind: MmaKind
    cta_group: int
    a_in_tmem: bool
    has_mask: bool
    scale_input: int | None


def _mma_form(inst: Instruction, ops: list[Operand]) -> _MmaForm:
    parts = inst.parts
    for modifier in ("ws", "sp", "block_scale", "ashift"):
        if modifier in parts:
            raise Unsupported(f"tcgen05.mma with .{modifier}")
    kind_text = next((p for p in parts if p.startswith("kind::")), None)
    if kind_text is None or kind_text[6:] not in {k.value for k in MmaKind}:
        raise Unsupported(f"tcgen05.mma {kind_text or 'without a kind'}")
    rest = ops[4:]
    has_mask = bool(rest) and isinstance(rest[0], Vector)
    scale = rest[-1] if rest and isinstance(rest[-1], Imm) else None
    return _MmaForm(
        MmaKind(kind_text[6:]),
        _cta_group(inst),
        isinstance(ops[1], Address),
        has_mask,
        scale.value if scale is not None else None,
    )


def _compile_mma(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    form = _mma_form(inst, ops)
    read_d, _ = address_reader(m, inst, ops[0])
    if form.a_in_tmem:
        read_a, _ = address_reader(m, inst, ops[1])
    else:
        read_a = reader(m, inst, ops[1], U64)
    read_b = reader(m, inst, ops[2], U64)
    read_idesc = reader(m, inst, ops[3], U32)
    rest = ops[4:]
    mask_readers: list[Any] = []
    if form.has_mask:
        mask = rest.pop(0)
        assert isinstance(mask, Vector)
        mask_readers = [reader(m, inst, e, U32) for e in mask.elements]
    if form.scale_input is not None:
        rest.pop()
    if len(rest) != 1:
        raise Unsupported("expected enable-input-d")
    read_enable = reader(m, inst, rest[0], PRED)

    def run(m: Machine, lanes: Lanes) -> None:
        for lane in lanes.tolist():
            one = np.array([lane])
            masks = [int(r(m, one)[0]) for r in mask_readers]
            _mma(
                m,
                inst,
                form,
                lane,
                d_addr=int(read_d(m, one)[0]),
                a_operand=int(read_a(m, one)[0]),
                b_desc=int(read_b(m, one)[0]),
                idesc=int(read_idesc(m, one)[0]),
                enable=bool(read_enable(m, one)[0]),
                masks=masks,
            )
        m.bump()

    return run


def _descriptor(
    m: Machine, inst: Instruction, raw: int, name: str
) -> Tcgen05SmemDescriptor:
    try:
        return Tcgen05SmemDescriptor.decode(raw)
    except ValueError as error:
        m.fail(f"bad {name} descriptor of tcgen05.mma: {error}", inst)


def _smem_operand(  # noqa: PLR0917 (where, how much, how)
    m: Machine,
    inst: Instruction,
    op: Operation,
    cta: int,
    descriptor: Tcgen05SmemDescriptor,
    rows: int,
    k: int,
    element: str,
    k_major: bool,
    name: str,
) -> npt.NDArray[np.float64]:
    size = _bits(element) // 8
    try:
        addresses = operand_addresses(descriptor, rows, k, size, k_major=k_major)
    except ValueError as error:
        m.fail(f"the {name} descriptor of tcgen05.mma: {error}", inst)
    flat = addresses.reshape(-1)
    if flat.max() + size > m.shared.size:
        m.fail(
            f"the {name} operand of tcgen05.mma reaches shared[{int(flat.max()):#x}], past "
            f"the {m.shared.size} bytes of shared memory",
            inst,
        )
    offsets = cta * m.shared.size + flat
    async_access(
        m,
        inst,
        op,
        m.shared,
        offsets,
        size,
        "read",
        proxy=True,
        what=f"tcgen05.mma {name} read",
    )
    return _decode(mem.gather(m.shared, offsets, size), element).reshape(rows, k)


def _mma(
    m: Machine,
    inst: Instruction,
    form: _MmaForm,
    lane: int,
    *,
    d_addr: int,
    a_operand: int,
    b_desc: int,
    idesc: int,
    enable: bool,
    masks: list[int],
) -> None:
    try:
        desc = InstructionDescriptor.decode(idesc, form.kind)
    except ValueError as error:
        m.fail(f"bad instruction descriptor of tcgen05.mma: {error}", inst)
    if (error := shape_error(desc.m, desc.n, form.cta_group)) is not None:
        m.fail(f"tcgen05.mma instruction descriptor {idesc:#010x}: {error}", inst)
    if desc.sparse:
        m.fail("tcgen05.mma: the instruction descriptor asks for sparsity", inst)
    if desc.a_type in ("e2m3", "e3m2", "e2m1") or desc.b_type in (
        "e2m3",
        "e3m2",
        "e2m1",
    ):
        raise_unsupported(m, inst, "6- and 4-bit kind::f8f6f4 operands")
    tm = tmem.tensor_memory(m)
    cta = int(m.geometry.lane_cta[lane])
    ctas = _pair(m, inst, cta, form.cta_group)
    rows = desc.m // form.cta_group
    k = MMA_K[form.kind]
    op = _pipeline_operation(m, lane, inst)
    b_parts: list[npt.NDArray[np.float64]] = []
    for c in ctas:
        b_parts.append(
            _smem_operand(
                m,
                inst,
                op,
                c,
                _descriptor(m, inst, b_desc, "B"),
                desc.n // form.cta_group,
                k,
                desc.b_type,
                not desc.transpose_b,
                "B",
            )
        )
    b = np.concatenate(b_parts, axis=0)
    d_lane, d_column = layout.split(d_addr)
    for index, c in enumerate(ctas):
        if form.a_in_tmem:
            a = _tmem_a(m, inst, op, c, a_operand, rows, k, desc.a_type, form.cta_group)
        else:
            a = _smem_operand(
                m,
                inst,
                op,
                c,
                _descriptor(m, inst, a_operand, "A"),
                rows,
                k,
                desc.a_type,
                not desc.transpose_a,
                "A",
            )
        product = a @ b.T
        if desc.negate_a != desc.negate_b:
            product = -product
        lanes_at, columns_at = layout.accumulator_cells(rows, desc.n, form.cta_group)
        lanes_at = lanes_at + d_lane
        columns_at = columns_at + d_column
        if lanes_at.max() >= layout.LANES:
            m.fail(f"D of tcgen05.mma at lane {d_lane} runs past lane 127", inst)
        _columns(m, inst, c, columns_at, "D of tcgen05.mma")
        cells = tm.cells[c]
        flat = tm.index(c, lanes_at, columns_at)
        if enable:
            tmem.record(m, inst, op.actor, flat, "read", "tcgen05.mma D read")
            old = _accumulator(cells[lanes_at, columns_at], desc.d_type)
            if form.scale_input is not None and form.kind in (
                MmaKind.F16,
                MmaKind.TF32,
            ):
                old = old * 2.0**-form.scale_input
            product = product + old
        write = np.ones(lanes_at.shape, dtype=np.bool_)
        if masks:
            words = masks[4 * index : 4 * index + 4]
            bits = sum(w << (32 * i) for i, w in enumerate(words))
            disabled = np.array(
                [bits >> lane_ & 1 for lane_ in range(layout.LANES)], dtype=np.bool_
            )
            write = ~disabled[lanes_at]
        tmem.record(m, inst, op.actor, flat[write], "write", "tcgen05.mma D write")
        new = _pack_accumulator(product, desc.d_type, desc.saturate)
        cells[lanes_at[write], columns_at[write]] = new[write]
    m.report.tcgen05_mma += 1


def raise_unsupported(m: Machine, inst: Instruction, what: str) -> None:
    m.fail(f"unsupported instruction '{inst.opcode}': {what}", inst)


def _tmem_a(  # noqa: PLR0917 (where, how much, how)
    m: Machine,
    inst: Instruction,
    op: Operation,
    cta: int,
    a_addr: int,
    rows: int,
    k: int,
    element: str,
    cta_group: int,
) -> npt.NDArray[np.float64]:
    if rows == 64 and cta_group == 2:
        raise_unsupported(m, inst, "A in tensor memory with M = 128 and .cta_group::2")
    bits = _bits(element)
    words = k * bits // 32
    lanes_at, columns_at = layout.accumulator_cells(rows, words, cta_group)
    base_lane, base_column = layout.split(a_addr)
    lanes_at, columns_at = lanes_at + base_lane, columns_at + base_column
    _columns(m, inst, cta, columns_at, "A of tcgen05.mma")
    tm = tmem.tensor_memory(m)
    tmem.record(
        m,
        inst,
        op.actor,
        tm.index(cta, lanes_at, columns_at),
        "read",
        "tcgen05.mma A read",
    )
    raw = tm.cells[cta][lanes_at, columns_at].astype(np.uint32)
    as_bytes = np.ascontiguousarray(raw).view(np.uint8).reshape(rows, words * 4)
    return _decode(as_bytes.reshape(-1), element).reshape(rows, k)


def _accumulator(cells: npt.NDArray[np.uint32], d_type: str) -> npt.NDArray[np.float64]:
    if d_type == "f32":
        return cells.view(np.float32).astype(np.float64)
    if d_type == "f16":
        return (cells & 0xFFFF).astype(np.uint16).view(np.float16).astype(np.float64)
    return cells.view(np.int32).astype(np.float64)


def _pack_accumulator(
    values: npt.NDArray[np.float64], d_type: str, saturate: bool
) -> npt.NDArray[np.uint32]:
    if d_type == "f32":
        return values.astype(np.float32).view(np.uint32)
    if d_type == "f16":
        return values.astype(np.float16).view(np.uint16).astype(np.uint32)
    if saturate:
        values = np.clip(values, -(2**31), 2**31 - 1)
    return (values.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32)


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


# -- tcgen05.cp and tcgen05.shift -----------------------------------------------------------------

_CP_ROWS = {
    "128x256b": (128, 32),
    "4x256b": (4, 32),
    "128x128b": (128, 16),
    "64x128b": (64, 16),
    "32x128b": (32, 16),
}
"""Rows and bytes per row of each `tcgen05.cp` shape."""


def _cp_lanes(shape: str, multicast: str, rows: int) -> list[npt.NDArray[np.int64]]:
    """For each copy of the source rows, the lane each row goes to."""
    r = np.arange(rows, dtype=np.int64)
    if shape == "64x128b":
        if multicast == "warpx2::02_13":
            # Rows 0-31 to warps 0 and 2, rows 32-63 to warps 1 and 3.
            return [r, r + 64]
        return [r + 32 * (r // 32), r + 32 * (r // 32) + 32]
    if shape == "32x128b":
        return [r + 32 * w for w in range(4)]
    return [r]


def _compile_cp(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    shape = next((p for p in parts if p in _CP_ROWS), None)
    if shape is None:
        raise Unsupported("unknown tcgen05.cp shape")
    multicast = next((p for p in parts if p.startswith("warpx")), "")
    formats = tuple(p for p in parts if p.startswith("b") and "x16" in p)
    errors = rules.check_cp(
        f".{shape}",
        f".{multicast}" if multicast else "",
        tuple(f".{f}" for f in formats),
    )
    if errors:
        m.fail(errors[0], inst)
    if formats:
        raise Unsupported("tcgen05.cp decompression (.b8x16 formats)")
    cta_group = _cta_group(inst)
    rows, width = _CP_ROWS[shape]
    read_taddr, _ = address_reader(m, inst, ops[0])
    read_desc = reader(m, inst, ops[1], U64)

    def run(m: Machine, lanes: Lanes) -> None:
        tm = tmem.tensor_memory(m)
        for lane in lanes.tolist():
            one = np.array([lane])
            base_lane, base_column = layout.split(int(read_taddr(m, one)[0]))
            descriptor = _descriptor(m, inst, int(read_desc(m, one)[0]), "source")
            op = _pipeline_operation(m, lane, inst)
            cta = int(m.geometry.lane_cta[lane])
            for c in _pair(m, inst, cta, cta_group):
                addresses = operand_addresses(descriptor, rows, width, 1, k_major=True)
                offsets = c * m.shared.size + addresses.reshape(-1)
                async_access(
                    m,
                    inst,
                    op,
                    m.shared,
                    offsets,
                    1,
                    "read",
                    proxy=True,
                    what="tcgen05.cp read",
                )
                data = mem.gather(m.shared, offsets, 1).reshape(rows, width // 4, 4)
                words = (
                    np.ascontiguousarray(data).view(np.uint32).reshape(rows, width // 4)
                )
                columns = base_column + np.arange(width // 4)
                _columns(m, inst, c, columns, "tcgen05.cp")
                for target in _cp_lanes(shape, multicast, rows):
                    lanes_at = base_lane + target
                    if lanes_at.max() >= layout.LANES:
                        m.fail(
                            f"tcgen05.cp at lane {base_lane} runs past lane 127", inst
                        )
                    grid_lanes = np.broadcast_to(lanes_at[:, None], words.shape)
                    grid_columns = np.broadcast_to(columns[None, :], words.shape)
                    tmem.record(
                        m,
                        inst,
                        op.actor,
                        tm.index(c, grid_lanes, grid_columns),
                        "write",
                        "tcgen05.cp write",
                    )
                    tm.cells[c][grid_lanes, grid_columns] = words
        m.bump()

    return run


def _compile_shift(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    if "down" not in inst.parts:
        raise Unsupported("tcgen05.shift without .down")
    cta_group = _cta_group(inst)
    read_taddr, _ = address_reader(m, inst, ops[0])

    def run(m: Machine, lanes: Lanes) -> None:
        tm = tmem.tensor_memory(m)
        for lane in lanes.tolist():
            one = np.array([lane])
            base_lane, base_column = layout.split(int(read_taddr(m, one)[0]))
            if base_lane:
                m.fail("tcgen05.shift needs an address at lane 0", inst)
            op = _pipeline_operation(m, lane, inst)
            columns = base_column + np.arange(8)
            cta = int(m.geometry.lane_cta[lane])
            for c in _pair(m, inst, cta, cta_group):
                _columns(m, inst, c, columns, "tcgen05.shift")
                source = np.array([32 * q + i for q in range(4) for i in range(31)])
                grid = np.broadcast_to(columns[None, :], (source.shape[0], 8))
                tmem.record(
                    m,
                    inst,
                    op.actor,
                    tm.index(c, np.broadcast_to(source[:, None], grid.shape), grid),
                    "read",
                    "tcgen05.shift read",
                )
                tmem.record(
                    m,
                    inst,
                    op.actor,
                    tm.index(c, np.broadcast_to(source[:, None] + 1, grid.shape), grid),
                    "write",
                    "tcgen05.shift write",
                )
                cells = tm.cells[c]
                cells[source + 1, base_column : base_column + 8] = cells[
                    source, base_column : base_column + 8
                ].copy()
        m.bump()

    return run
