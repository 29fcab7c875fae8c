"""`tcgen05.mma`: the 5th-generation tensor core's MMA (see `tcgen05` for the family).

Kinds f16, tf32, f8f6f4 (e4m3 / e5m2 operands) and i8, dense, `.cta_group::1` and `::2`:
the instruction descriptor (`hw.tcgen05_idesc`) gives the shape, types, negations and
transposes; A comes from shared memory through an sm_100 descriptor (`hw.tcgen05_smem`) or
from tensor memory, B from shared memory; D = A B (+ D x 2^-scale-input-d) is computed
exactly in f64 and rounded once into the accumulator's data-path layout
(`hw.tmem.accumulator_cells`). With `.cta_group::2` the even CTA of the pair gives the first
half of A's rows and of B's rows, and each CTA holds its rows of D.
PTX ISA, "tcgen05.mma": https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-mma-instructions-mma
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import ml_dtypes
import numpy as np
import numpy.typing as npt

from tileas_py.hw import tmem as layout
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
from tileas_py.sim.isa import Unsupported
from tileas_py.sim.isa.async_copy import Operation, async_access
from tileas_py.sim.isa.operands import (
    Address,
    Imm,
    Operand,
    Vector,
    address_reader,
    reader,
)
from tileas_py.sim.isa.tcgen05 import (
    check_columns,
    cta_group_of,
    decode_descriptor,
    pair_ctas,
    pipeline_operation,
    raise_unsupported,
)
from tileas_py.sim.program import Action, Instruction
from tileas_py.sim.ptx_types import ptx_type

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]
U32 = ptx_type("u32")
U64 = ptx_type("u64")
PRED = ptx_type("pred")


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
        cta_group_of(inst),
        isinstance(ops[1], Address),
        has_mask,
        scale.value if scale is not None else None,
    )


def compile_mma(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
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
    ctas = pair_ctas(m, inst, cta, form.cta_group)
    rows = desc.m // form.cta_group
    k = MMA_K[form.kind]
    op = pipeline_operation(m, lane, inst)
    b_parts: list[npt.NDArray[np.float64]] = []
    for c in ctas:
        b_parts.append(
            _smem_operand(
                m,
                inst,
                op,
                c,
                decode_descriptor(m, inst, b_desc, "B"),
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
                decode_descriptor(m, inst, a_operand, "A"),
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
        check_columns(m, inst, c, columns_at, "D of tcgen05.mma")
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
    check_columns(m, inst, cta, columns_at, "A of tcgen05.mma")
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
