"""tcgen05 data movement: `tcgen05.ld` / `tcgen05.st` and their waits, `tcgen05.cp`,
`tcgen05.shift` (see `tcgen05` for the family and how the checker sees it).

A warp moves the fragment of its shape (`hw.tmem.fragment`) between its registers and the
lanes of its quarter of the tensor memory; a `tcgen05.ld`'s destinations are in flight
until `tcgen05.wait::ld`, and using one before is a `tcgen05-ld` hazard. `tcgen05.cp`
copies a shared-memory matrix into tensor memory and `tcgen05.shift` moves 8 columns down
one lane: both are operations of the issuing thread's MMA pipeline.
PTX ISA, "tcgen05.ld", "tcgen05.st", "tcgen05.wait", "tcgen05.cp", "tcgen05.shift":
https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-memory-consistency-model
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tileas_py.hw import tcgen05 as rules
from tileas_py.hw import tmem as layout
from tileas_py.hw.tcgen05_smem import operand_addresses
from tileas_py.sim import memory as mem
from tileas_py.sim import tmem
from tileas_py.sim.isa import Unsupported
from tileas_py.sim.isa.async_copy import async_access
from tileas_py.sim.isa.collective import converge
from tileas_py.sim.isa.operands import (
    Imm,
    Operand,
    Reg,
    Vector,
    address_reader,
    reader,
    writer,
)
from tileas_py.sim.isa.tcgen05 import (
    check_columns,
    cta_group_of,
    decode_descriptor,
    pair_ctas,
    pipeline_operation,
    unit_operation,
    warp_name,
    warps_of,
)
from tileas_py.sim.program import Action, Instruction
from tileas_py.sim.ptx_types import ptx_type
from tileas_py.sim.report import HazardKind

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]
U32 = ptx_type("u32")
U64 = ptx_type("u64")
WARP = 32


def compile_wait(inst: Instruction, what: str) -> Action:
    if what not in ("ld", "st"):
        raise Unsupported(f"tcgen05.wait::{what}")
    unit = f"tcgen05.{what}"

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, WARP)
        clocks = m.clocks
        if clocks is not None:
            units = tmem.ordering(m).units
            for lane in lanes.tolist():
                component = units.get((unit, warp_name(m, lane)))
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


def compile_ld_st(
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
        for warp in warps_of(lanes):
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
        check_columns(m, inst, cta, columns, f"'{inst.opcode}'")
        tm = tmem.tensor_memory(m)
        cells = tm.cells[cta]
        if m.clocks is not None:
            # The warp moves the fragment: one operation of the warp's loads (stores).
            op = unit_operation(m, warp, what, warp_name(m, int(warp[0])), inst)
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


def compile_cp(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
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
    cta_group = cta_group_of(inst)
    rows, width = _CP_ROWS[shape]
    read_taddr, _ = address_reader(m, inst, ops[0])
    read_desc = reader(m, inst, ops[1], U64)

    def run(m: Machine, lanes: Lanes) -> None:
        tm = tmem.tensor_memory(m)
        for lane in lanes.tolist():
            one = np.array([lane])
            base_lane, base_column = layout.split(int(read_taddr(m, one)[0]))
            descriptor = decode_descriptor(m, inst, int(read_desc(m, one)[0]), "source")
            op = pipeline_operation(m, lane, inst)
            cta = int(m.geometry.lane_cta[lane])
            for c in pair_ctas(m, inst, cta, cta_group):
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
                check_columns(m, inst, c, columns, "tcgen05.cp")
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


def compile_shift(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    if "down" not in inst.parts:
        raise Unsupported("tcgen05.shift without .down")
    cta_group = cta_group_of(inst)
    read_taddr, _ = address_reader(m, inst, ops[0])

    def run(m: Machine, lanes: Lanes) -> None:
        tm = tmem.tensor_memory(m)
        for lane in lanes.tolist():
            one = np.array([lane])
            base_lane, base_column = layout.split(int(read_taddr(m, one)[0]))
            if base_lane:
                m.fail("tcgen05.shift needs an address at lane 0", inst)
            op = pipeline_operation(m, lane, inst)
            columns = base_column + np.arange(8)
            cta = int(m.geometry.lane_cta[lane])
            for c in pair_ctas(m, inst, cta, cta_group):
                check_columns(m, inst, c, columns, "tcgen05.shift")
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
