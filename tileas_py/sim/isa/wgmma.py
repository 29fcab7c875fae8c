"""Warpgroup MMA: `wgmma.fence`, `wgmma.mma_async`, `wgmma.commit_group`, `wgmma.wait_group`
(and ptxas's `_warpgroup.*` forms of them).

An `mma_async` runs once the 128 threads of its warpgroup have converged. A and B come
from shared memory through their matrix descriptors (`hw.wgmma_smem`, the PTX ISA's
canonical layouts), or A from registers (`hw.wgmma_layout`'s fragment layout); the
accumulator fragment is read, D = A B (+ D with scale-d) is computed exactly in f64 (the
tests use small integers, which make every summation order exact) and rounded once, and the
fragment is written back at issue.

What makes it asynchronous is what the checker sees: the shared-memory reads are made by
the warpgroup's wgmma unit and are ordered before other accesses only through the
`wait_group` that retires their group; they are async-proxy reads, so the generic writes
they see need a `fence.proxy.async`. Until that wait, the accumulator and A-fragment
registers are in flight: any other instruction that uses them is an `accumulator` hazard.
PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions":
https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-instructions
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import ml_dtypes
import numpy as np
import numpy.typing as npt

from tileas_py.hw.smem_descriptor import SmemDescriptor
from tileas_py.hw.wgmma_layout import (
    a_fragment_offsets,
    accumulator_offsets,
    elements_per_register,
    fragment_origin,
)
from tileas_py.hw.wgmma_smem import operand_addresses
from tileas_py.sim import memory as mem
from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.async_copy import Operation, async_access, start
from tileas_py.sim.isa.collective import WARPGROUP, converge, warpgroups
from tileas_py.sim.isa.operands import Imm, Operand, Reg, Vector, reader
from tileas_py.sim.program import Action, Instruction
from tileas_py.sim.ptx_types import ptx_type
from tileas_py.sim.report import HazardKind

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]

_ELEMENTS: dict[str, Any] = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "tf32": np.float32,
    "e4m3": ml_dtypes.float8_e4m3fn,
    "e5m2": ml_dtypes.float8_e5m2,
    "s8": np.int8,
    "u8": np.uint8,
}


@dataclass
class WarpgroupState:
    open: list[Operation] = field(default_factory=list[Operation])
    committed: list[list[Operation]] = field(default_factory=list[list[Operation]])
    next_sequence: int = 1
    open_sequence: list[int] = field(default_factory=list[int])
    committed_sequence: list[list[int]] = field(default_factory=list[list[int]])


def _states(m: Machine) -> dict[int, WarpgroupState]:
    return m.state.setdefault("warpgroups", {})


def inflight(m: Machine) -> dict[int, npt.NDArray[np.int64]]:
    """Per register, the wgmma sequence number each thread has it in flight for (0: none)."""
    return m.state.setdefault("inflight", {})


@dataclass(frozen=True)
class Shape:
    m: int
    n: int
    k: int
    dtype: str
    atype: str
    btype: str


def _shape(inst: Instruction) -> Shape:
    parts = inst.parts
    shape = next(p for p in parts if p.startswith("m64n"))
    n_text, k_text = shape[4:].split("k")
    types = [
        p
        for p in parts
        if p in ("f16", "bf16", "tf32", "f32", "e4m3", "e5m2", "s8", "u8", "s32", "b1")
    ]
    if len(types) != 3:
        raise Unsupported("expected the D, A and B types")
    if "sp" in parts:
        raise Unsupported("sparse wgmma")
    if types[1] == "b1":
        raise Unsupported("b1 wgmma")
    return Shape(64, int(n_text), int(k_text), types[0], types[1], types[2])


@semantics("wgmma", "_warpgroup", klass="wgmma")
def compile_wgmma(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    action = inst.parts[1]
    if action in ("fence", "arrive"):
        return _compile_fence(inst)
    if action in ("commit_group", "commit_batch"):
        return _compile_commit(inst)
    if action in ("wait_group", "wait"):
        if not isinstance(ops[0], Imm):
            raise Unsupported("the group count must be an immediate")
        return _compile_wait(inst, ops[0].value)
    if action == "mma_async":
        return _compile_mma(m, inst, ops)
    raise Unsupported(inst.opcode)


def _compile_fence(inst: Instruction) -> Action:
    def run(m: Machine, lanes: Lanes) -> None:
        converge(m, inst, lanes, WARPGROUP)

    return run


def _compile_commit(inst: Instruction) -> Action:
    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, WARPGROUP)
        for wg in np.unique(m.geometry.warpgroup_of(lanes)).tolist():
            state = _states(m).setdefault(wg, WarpgroupState())
            state.committed.append(state.open)
            state.committed_sequence.append(state.open_sequence)
            state.open = []
            state.open_sequence = []

    return run


def _compile_wait(inst: Instruction, keep: int) -> Action:
    def run(m: Machine, lanes: Lanes) -> None:
        groups = warpgroups(m, inst, lanes)
        if not groups:
            return
        for wg, members in groups:
            state = _states(m).setdefault(wg, WarpgroupState())
            retire = max(len(state.committed) - keep, 0)
            retired = state.committed[:retire]
            retired_sequence = [
                s for group in state.committed_sequence[:retire] for s in group
            ]
            state.committed = state.committed[retire:]
            state.committed_sequence = state.committed_sequence[retire:]
            if m.clocks is not None:
                for group in retired:
                    for op in group:
                        if op.component >= 0:
                            m.clocks.learn(members, op.component, op.clock)
            if retired_sequence:
                last = max(retired_sequence)
                for registers in inflight(m).values():
                    column = registers[members]
                    registers[members] = np.where(
                        (column > 0) & (column <= last), 0, column
                    )
        table = inflight(m)
        for reg in [r for r, v in table.items() if not v.any()]:
            del table[reg]

    return run


def check_inflight(m: Machine, inst: Instruction, lanes: Lanes) -> None:
    """An instruction other than a chained mma_async touches in-flight wgmma registers."""
    table = inflight(m)
    for reg in inst.registers:
        column = table.get(reg)
        if column is None:
            continue
        busy = lanes[column[lanes] > 0]
        if busy.size:
            name = m.program.registers[reg].name
            m.hazard(
                HazardKind.ACCUMULATOR,
                f"'{inst.opcode}' uses {name}, a register of an in-flight wgmma.mma_async, "
                "before the wgmma.wait_group that retires it",
                m.party(int(busy[0]), inst.pc),
                key=(HazardKind.ACCUMULATOR, inst.pc, reg),
            )


def on_thread_exit(m: Machine, lanes: Lanes) -> None:
    for registers in inflight(m).values():
        registers[lanes] = 0


def _registers(operand: Operand) -> list[int]:
    if isinstance(operand, Vector):
        out: list[int] = []
        for element in operand.elements:
            if not isinstance(element, Reg):
                raise Unsupported("fragment vectors hold registers only")
            out.append(element.index)
        return out
    if isinstance(operand, Reg):
        return [operand.index]
    raise Unsupported("expected a register or a vector of registers")


def _compile_mma(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    shape = _shape(inst)
    float_inputs = shape.atype not in ("s8", "u8")
    accumulator = _registers(ops[0])
    d_bits = 16 if shape.dtype == "f16" else 32
    per_register = 32 // d_bits
    values = shape.n // 2
    if len(accumulator) * per_register != values:
        raise Unsupported(f"{len(accumulator)} accumulator registers for m64n{shape.n}")
    a_from_registers = isinstance(ops[1], Vector)
    a_registers = _registers(ops[1]) if a_from_registers else []
    read_a_desc = None if a_from_registers else reader(m, inst, ops[1], ptx_type("u64"))
    read_b_desc = reader(m, inst, ops[2], ptx_type("u64"))
    rest = ops[3:]
    read_scale_d = reader(m, inst, rest[0], ptx_type("pred")) if rest else None
    immediates: list[int] = []
    for operand in rest[1:]:
        if not isinstance(operand, Imm):
            raise Unsupported("scale and transpose operands must be immediates")
        immediates.append(operand.value)
    scale_a = scale_b = 1
    trans_a = trans_b = 0
    if float_inputs and immediates:
        scale_a, scale_b = immediates[0], immediates[1]
        transposes = immediates[2:]
        if a_from_registers:
            trans_b = transposes[0] if transposes else 0
        elif transposes:
            trans_a, trans_b = (
                transposes[0],
                transposes[1] if len(transposes) > 1 else 0,
            )
    element_a = np.dtype(_ELEMENTS[shape.atype])
    element_b = np.dtype(_ELEMENTS[shape.btype])
    satfinite = "satfinite" in inst.parts
    a_bits = 32 if shape.atype == "tf32" else element_a.itemsize * 8
    a_rows, a_cols = _fragment_table(
        elements_per_register(a_bits),
        [e for register in a_fragment_offsets(a_bits) for e in register],
    )
    d_rows, d_cols = _fragment_table(2, accumulator_offsets(shape.n))

    def run(m: Machine, lanes: Lanes) -> None:
        for wg, members in warpgroups(m, inst, lanes):
            if members.size != WARPGROUP:
                m.fail("wgmma.mma_async needs all 128 threads of the warpgroup", inst)
            _issue(m, inst, members, wg)

    def _issue(m: Machine, inst: Instruction, members: Lanes, wg: int) -> None:
        cta = int(m.geometry.lane_cta[members[0]])
        op = _start(m, inst, members, wg)
        b = _load_operand(
            m,
            inst,
            op=op,
            cta=cta,
            read_descriptor=read_b_desc,
            members=members,
            rows=shape.n,
            k=shape.k,
            element=element_b,
            k_major=trans_b == 0,
            name="B",
        )
        if read_a_desc is not None:
            a = _load_operand(
                m,
                inst,
                op=op,
                cta=cta,
                read_descriptor=read_a_desc,
                members=members,
                rows=64,
                k=shape.k,
                element=element_a,
                k_major=trans_a == 0,
                name="A",
            )
        else:
            a = _a_from_registers(m, members)
        product = (scale_a * a.astype(np.float64)) @ (scale_b * b.astype(np.float64)).T
        d = _read_accumulator(m, members)
        scale_d = (
            read_scale_d(m, members)
            if read_scale_d is not None
            else np.ones(WARPGROUP, dtype=np.bool_)
        )
        if scale_d.any() != scale_d.all():
            m.fail("scale-d differs across the warpgroup", inst)
        total = product + d if bool(scale_d[0]) else product
        _write_accumulator(m, members, total)
        _mark_inflight(m, members, op)
        state = _states(m).setdefault(wg, WarpgroupState())
        state.open.append(op)
        state.open_sequence.append(state.next_sequence)
        m.report.wgmma += 1

    def _start(m: Machine, inst: Instruction, members: Lanes, wg: int) -> Operation:
        clocks = m.clocks
        op = start(
            m, int(members[0]), ("wgmma", wg), f"wgmma reads of warpgroup {wg}", inst.pc
        )
        if clocks is not None and op.actor is not None:
            # The whole warpgroup issues it: it is ordered after each member's past.
            view = clocks.snapshot(members)
            view[op.component] = (
                max(view[op.component], op.actor.view[op.component])
                if op.actor.view is not None
                else view[op.component]
            )
            op.actor.view = view
            op.done = view.copy()
            op.done[op.component] = op.clock
        return op

    def _a_from_registers(m: Machine, members: Lanes) -> npt.NDArray[Any]:
        a = np.zeros((64, shape.k), dtype=np.float64)
        thread = m.geometry.lane_tid[members] % WARPGROUP
        per = a_rows.shape[1] // len(a_registers)
        for j, reg in enumerate(a_registers):
            raw = m.regs[reg][members].astype(np.uint32)
            for i in range(per):
                rows, cols = a_rows[thread, j * per + i], a_cols[thread, j * per + i]
                if shape.atype == "tf32":
                    value = _tf32(raw).astype(np.float64)
                else:
                    bits = (raw >> np.uint32(8 * element_a.itemsize * i)) & np.uint32(
                        (1 << (8 * element_a.itemsize)) - 1
                    )
                    unsigned = {1: np.uint8, 2: np.uint16}[element_a.itemsize]
                    value = bits.astype(unsigned).view(element_a).astype(np.float64)
                a[rows, cols] = value
        return a

    def _read_accumulator(m: Machine, members: Lanes) -> npt.NDArray[np.float64]:
        d = np.zeros((64, shape.n), dtype=np.float64)
        rows, cols = _fragment_positions(m, members)
        for v in range(values):
            raw = m.regs[accumulator[v // per_register]][members]
            d[rows[:, v], cols[:, v]] = _unpack(raw, v % per_register)
        return d

    def _unpack(raw: npt.NDArray[Any], half: int) -> npt.NDArray[np.float64]:
        if shape.dtype == "f16":
            bits = (raw.astype(np.uint32) >> np.uint32(16 * half)) & np.uint32(0xFFFF)
            return bits.astype(np.uint16).view(np.float16).astype(np.float64)
        if shape.dtype == "s32":
            return raw.astype(np.uint32).view(np.int32).astype(np.float64)
        return raw.astype(np.uint32).view(np.float32).astype(np.float64)

    def _fragment_positions(
        m: Machine, members: Lanes
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        thread = m.geometry.lane_tid[members] % WARPGROUP
        return d_rows[thread], d_cols[thread]

    def _write_accumulator(
        m: Machine, members: Lanes, total: npt.NDArray[np.float64]
    ) -> None:
        rows, cols = _fragment_positions(m, members)
        packed: dict[int, npt.NDArray[np.uint32]] = {}
        for v in range(values):
            value = total[rows[:, v], cols[:, v]]
            reg = accumulator[v // per_register]
            if shape.dtype == "f16":
                bits = value.astype(np.float16).view(np.uint16).astype(
                    np.uint32
                ) << np.uint32(16 * (v % per_register))
                packed[reg] = (
                    packed.get(reg, np.zeros(WARPGROUP, dtype=np.uint32)) | bits
                )
            elif shape.dtype == "s32":
                if satfinite:
                    value = np.clip(value, -(2**31), 2**31 - 1)
                packed[reg] = (value.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32)
            else:
                packed[reg] = value.astype(np.float32).view(np.uint32)
        for reg, bits in packed.items():
            storage = m.regs[reg]
            storage[members] = bits.astype(storage.dtype)

    def _mark_inflight(m: Machine, members: Lanes, op: Operation) -> None:
        table = inflight(m)
        state = _states(m).setdefault(
            int(m.geometry.warpgroup_of(members[:1])[0]), WarpgroupState()
        )
        sequence = state.next_sequence
        state.next_sequence += 1
        for reg in (*accumulator, *a_registers):
            column = table.get(reg)
            if column is None:
                column = np.zeros(m.lanes, dtype=np.int64)
                table[reg] = column
            column[members] = sequence
        del op

    return run


def _fragment_table(
    per_register: int, offsets: Sequence[tuple[int, int]]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(rows, columns), each (128 threads, values): where each thread's fragment values lie
    in the 64-row tile (`hw.wgmma_layout`, the emitter's layout)."""
    origins = np.array(
        [fragment_origin(t // 32, t % 32, per_register) for t in range(WARPGROUP)],
        dtype=np.int64,
    )
    steps = np.array(offsets, dtype=np.int64).reshape(-1, 2)
    return (
        origins[:, 0, None] + steps[None, :, 0],
        origins[:, 1, None] + steps[None, :, 1],
    )


def _load_operand(
    m: Machine,
    inst: Instruction,
    *,
    op: Operation,
    cta: int,
    read_descriptor: Any,
    members: Lanes,
    rows: int,
    k: int,
    element: np.dtype[Any],
    k_major: bool,
    name: str,
) -> npt.NDArray[Any]:
    raw = read_descriptor(m, members)
    if (raw != raw[0]).any():
        m.fail(f"the {name} descriptor differs across the warpgroup", inst)
    try:
        descriptor = SmemDescriptor.decode(int(raw[0]))
    except ValueError as error:
        m.fail(f"bad {name} descriptor: {error}", inst)
    element_bytes = element.itemsize if element != np.dtype(np.float32) else 4
    addresses = operand_addresses(descriptor, rows, k, element_bytes, k_major=k_major)
    flat = addresses.reshape(-1)
    if flat.min() < 0 or flat.max() + element_bytes > m.shared.size:
        m.fail(
            f"the {name} operand of wgmma.mma_async reaches shared[{int(flat.max()):#x}], past "
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
        element_bytes,
        "read",
        proxy=True,
        what=f"wgmma {name} read",
    )
    data = mem.gather(m.shared, offsets, element_bytes)
    values = np.ascontiguousarray(data).view(element).reshape(rows, k)
    if element == np.dtype(np.float32):
        return _tf32(values.view(np.uint32))
    return values


def _tf32(bits: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """tf32 operands: the tensor core ignores the low 13 mantissa bits of the f32 word."""
    return (bits.astype(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)
