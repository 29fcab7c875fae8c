"""Arithmetic, logic, comparison, selection, moves and conversions.

Integer results wrap as PTX's do (fixed-width numpy arithmetic); the carry chains keep a
per-thread CC.CF in the machine's state. Float results are rounded once in the
instruction's mode by `tileas_py.sim.numerics`, with `.ftz`, `.sat`, `.relu` and
`.satfinite` as the ISA defines them; `.approx` functions are evaluated in f64 and rounded to the destination, well within
the ISA's stated error. Division by zero gives PTX's "unspecified" value without stopping
the run: all ones for `div`, the dividend for `rem`.
PTX ISA, "Integer Arithmetic Instructions" and the float, comparison, logic and conversion
sections that follow it: https://docs.nvidia.com/cuda/parallel-thread-execution/#integer-arithmetic-instructions
docs/simulator-numerics.md says what is exact, what is within error and what is unsupported.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from tileas_py.sim import numerics as fp
from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.operands import Operand, Pair, Vector, reader, writer
from tileas_py.sim.program import Action, Instruction
from tileas_py.sim.ptx_types import (
    SIGNED,
    UNSIGNED,
    PtxType,
    is_type_name,
    ptx_type,
    to_bits,
)

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]
Values = npt.NDArray[Any]
Unary = Callable[[Values], Values]
Binary = Callable[[Values, Values], Values]
Ternary = Callable[[Values, Values, Values], Values]
Quaternary = Callable[[Values, Values, Values, Values], Values]
Fn = Unary | Binary | Ternary | Quaternary

U32 = ptx_type("u32")
B32 = ptx_type("b32")
PRED = ptx_type("pred")


def _types(inst: Instruction) -> list[PtxType]:
    return [ptx_type(p) for p in inst.parts[1:] if is_type_name(p)]


def _type(inst: Instruction) -> PtxType:
    types = _types(inst)
    if not types:
        raise Unsupported(f"the type .{inst.parts[-1]}")
    return types[-1]


def _modifiers(inst: Instruction) -> set[str]:
    return set(inst.parts[1:])


def _rounding(inst: Instruction, default: str | None = "rn") -> str | None:
    for part in inst.parts[1:]:
        if part in fp.ROUNDING or part in fp.INTEGER_ROUNDING:
            return part
    return default


def _compute(
    m: Machine,
    inst: Instruction,
    ops: list[Operand],
    fn: Fn,
    *,
    sources: list[PtxType],
    dest: PtxType,
) -> Action:
    """d = fn(a, b, ...): read the operands as `sources`, write d as `dest`."""
    if len(ops) != len(sources) + 1:
        raise Unsupported(f"expected {len(sources) + 1} operands, got {len(ops)}")
    readers = [reader(m, inst, op, ty) for op, ty in zip(ops[1:], sources, strict=True)]
    write = writer(m, inst, ops[0], dest)
    call = cast(Callable[..., Values], fn)
    if len(readers) == 1:
        (ra,) = readers
        return lambda m, lanes: write(m, lanes, call(ra(m, lanes)))
    if len(readers) == 2:
        ra, rb = readers
        return lambda m, lanes: write(m, lanes, call(ra(m, lanes), rb(m, lanes)))

    def run(m: Machine, lanes: Lanes) -> None:
        write(m, lanes, call(*(r(m, lanes) for r in readers)))

    return run


def _unsigned(values: Values) -> Values:
    """The same bits as an unsigned array."""
    return values.view(UNSIGNED[values.dtype.itemsize * 8])


# -- moves ----------------------------------------------------------------------------------


@semantics("mov", klass="alu")
def compile_mov(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    dest, source = ops
    if isinstance(dest, Vector):
        return _unpack(m, inst, dest, source, ty)
    if isinstance(source, Vector):
        return _pack(m, inst, dest, source, ty)
    return _compute(m, inst, ops, lambda a: a, sources=[ty], dest=ty)


def _pack(
    m: Machine, inst: Instruction, dest: Operand, source: Vector, ty: PtxType
) -> Action:
    width = ty.bits // len(source.elements)
    part = ptx_type(f"b{width}")
    readers = [reader(m, inst, e, part) for e in source.elements]
    write = writer(m, inst, dest, ptx_type(f"b{ty.bits}"))
    wide = UNSIGNED[ty.bits]

    def run(m: Machine, lanes: Lanes) -> None:
        value = np.zeros(lanes.shape[0], dtype=wide)
        for i, read in enumerate(readers):
            value |= read(m, lanes).astype(wide) << wide(i * width)
        write(m, lanes, value)

    return run


def _unpack(
    m: Machine, inst: Instruction, dest: Vector, source: Operand, ty: PtxType
) -> Action:
    width = ty.bits // len(dest.elements)
    part = ptx_type(f"b{width}")
    read = reader(m, inst, source, ptx_type(f"b{ty.bits}"))
    writers = [writer(m, inst, e, part) for e in dest.elements]
    narrow = UNSIGNED[width]

    def run(m: Machine, lanes: Lanes) -> None:
        value = read(m, lanes)
        for i, write in enumerate(writers):
            write(m, lanes, (value >> value.dtype.type(i * width)).astype(narrow))

    return run


# -- integer arithmetic ------------------------------------------------------------------------


def _wide(ty: PtxType) -> PtxType:
    return ptx_type(f"{'s' if ty.is_signed else 'u'}{ty.bits * 2}")


def _mul_parts(a: Values, b: Values, ty: PtxType) -> tuple[Values, Values]:
    """The low and high halves of the full product, as ty's unsigned bits."""
    unsigned = UNSIGNED[ty.bits]
    if ty.bits <= 32:
        wide = SIGNED[64] if ty.is_signed else UNSIGNED[64]
        product = a.astype(wide) * b.astype(wide)
        bits = product.astype(np.uint64)
        return bits.astype(unsigned), (bits >> np.uint64(ty.bits)).astype(unsigned)
    ua = a.view(np.uint64)
    ub = b.view(np.uint64)
    mask = np.uint64(0xFFFFFFFF)
    a_lo, a_hi = ua & mask, ua >> np.uint64(32)
    b_lo, b_hi = ub & mask, ub >> np.uint64(32)
    ll = a_lo * b_lo
    lh = a_lo * b_hi
    hl = a_hi * b_lo
    hh = a_hi * b_hi
    middle = (ll >> np.uint64(32)) + (lh & mask) + (hl & mask)
    low = (ll & mask) | (middle << np.uint64(32))
    high = (
        hh + (lh >> np.uint64(32)) + (hl >> np.uint64(32)) + (middle >> np.uint64(32))
    )
    if ty.is_signed:
        # Two's complement correction of the unsigned high half.
        high = high - np.where(a.view(np.int64) < 0, ub, np.uint64(0))
        high = high - np.where(b.view(np.int64) < 0, ua, np.uint64(0))
    return low, high


def _integer_mul(inst: Instruction, ty: PtxType) -> tuple[PtxType, Binary]:
    mods = _modifiers(inst)
    if "wide" in mods:
        wide = _wide(ty)
        return wide, lambda a, b: a.astype(wide.dtype) * b.astype(wide.dtype)
    if "hi" in mods:
        return ty, lambda a, b: _mul_parts(a, b, ty)[1].view(ty.dtype)
    return ty, lambda a, b: (a * b).astype(ty.dtype)


def _saturate_s32(values: Values) -> Values:
    return np.clip(values, -(2**31), 2**31 - 1).astype(np.int32)


@semantics("add", "sub", klass="alu")
def compile_add(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    subtract = inst.root == "sub"
    if ty.is_float:
        return _float_op(m, inst, ops, ty, "sub" if subtract else "add")
    if "cc" in inst.parts:
        return _with_carry(m, inst, ops, ty, subtract=subtract, multiply=False)
    if "sat" in inst.parts:
        fn: Fn = (
            (lambda a, b: _saturate_s32(a.astype(np.int64) - b))
            if subtract
            else (lambda a, b: _saturate_s32(a.astype(np.int64) + b))
        )
    elif subtract:
        fn = lambda a, b: a - b  # noqa: E731
    else:
        fn = lambda a, b: a + b  # noqa: E731
    return _compute(m, inst, ops, fn, sources=[ty, ty], dest=ty)


@semantics("mul", klass="alu")
def compile_mul(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    if ty.is_float:
        return _float_op(m, inst, ops, ty, "mul")
    dest, fn = _integer_mul(inst, ty)
    return _compute(m, inst, ops, fn, sources=[ty, ty], dest=dest)


@semantics("mad", klass="alu")
def compile_mad(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    if ty.is_float:
        return _float_op(m, inst, ops, ty, "fma")
    if "cc" in inst.parts:
        return _with_carry(m, inst, ops, ty, subtract=False, multiply=True)
    dest, mul = _integer_mul(inst, ty)
    if "sat" in inst.parts:
        return _compute(
            m,
            inst,
            ops,
            lambda a, b, c: _saturate_s32(
                (_mul_parts(a, b, ty)[1].view(np.int32).astype(np.int64)) + c
            ),
            sources=[ty, ty, dest],
            dest=dest,
        )
    return _compute(
        m, inst, ops, lambda a, b, c: mul(a, b) + c, sources=[ty, ty, dest], dest=dest
    )


@semantics("addc", "subc", "madc", klass="alu")
def compile_with_carry_in(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    return _with_carry(
        m, inst, ops, ty, subtract=inst.root == "subc", multiply=inst.root == "madc"
    )


def _carry_flags(m: Machine) -> Values:
    """Each thread's condition-code carry flag (CC.CF), kept with the machine's state."""
    flags = m.state.get("carry")
    if flags is None:
        flags = m.state["carry"] = np.zeros(m.pc.shape[0], dtype=bool)
    return flags


def _with_carry(
    m: Machine,
    inst: Instruction,
    ops: list[Operand],
    ty: PtxType,
    *,
    subtract: bool,
    multiply: bool,
) -> Action:
    """add.cc / addc / sub.cc / subc / mad.cc / madc: the extended-precision chain. The
    c-suffixed forms take CC.CF in (a borrow for subtraction), the .cc forms write it."""
    if ty.bits not in (32, 64):
        raise Unsupported(f"carry arithmetic on .{ty.name}")
    carry_in = inst.root in ("addc", "subc", "madc")
    carry_out = "cc" in inst.parts
    unsigned = UNSIGNED[ty.bits]
    high = "hi" in inst.parts
    sources = [ty, ty, ty] if multiply else [ty, ty]
    readers = [reader(m, inst, op, t) for op, t in zip(ops[1:], sources, strict=True)]
    write = writer(m, inst, ops[0], ty)

    def run(m: Machine, lanes: Lanes) -> None:
        flags = _carry_flags(m)
        args = [_unsigned(r(m, lanes)) for r in readers]
        if multiply:
            low_part, high_part = _mul_parts(args[0], args[1], ty)
            first, second = (high_part if high else low_part), args[2]
        else:
            first, second = args
        incoming = flags[lanes].astype(unsigned) if carry_in else unsigned(0)
        if subtract:
            result = first - second - incoming
            flag = (first < second) | ((first == second) & (incoming == 1))
        else:
            partial = first + second
            result = partial + incoming
            flag = (partial < first) | (result < partial)
        write(m, lanes, result.astype(unsigned).view(ty.dtype))
        if carry_out:
            flags[lanes] = flag

    return run


@semantics("mul24", "mad24", klass="alu")
def compile_mul24(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)

    def extend(v: Values) -> Values:
        bits = v.astype(np.int64) & 0xFFFFFF
        if ty.is_signed:
            bits = np.where(bits & 0x800000, bits - 0x1000000, bits)
        return bits

    def product(a: Values, b: Values) -> Values:
        full = extend(a) * extend(b)
        if "hi" in inst.parts:
            full = full >> 16
        return full.astype(np.uint64).astype(np.uint32).view(ty.dtype)

    if inst.root == "mul24":
        return _compute(m, inst, ops, product, sources=[ty, ty], dest=ty)
    return _compute(
        m, inst, ops, lambda a, b, c: product(a, b) + c, sources=[ty, ty, ty], dest=ty
    )


@semantics("div", "rem", klass="alu")
def compile_div(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    if ty.is_float:
        if inst.root == "rem":
            raise Unsupported("rem on floats")
        return _float_op(m, inst, ops, ty, "div")
    remainder = inst.root == "rem"

    def divide(a: Values, b: Values) -> Values:
        quotient, rest = _truncating_divide(a, b, ty.is_signed)
        # Division by zero: PTX leaves the result unspecified.
        if remainder:
            return np.where(b == 0, a, rest.view(ty.dtype))
        all_ones = np.array(-1).astype(UNSIGNED[ty.bits]).view(ty.dtype)
        return np.where(b == 0, all_ones, quotient.view(ty.dtype))

    return _compute(m, inst, ops, divide, sources=[ty, ty], dest=ty)


def _truncating_divide(a: Values, b: Values, signed: bool) -> tuple[Values, Values]:
    """Quotient rounded toward zero and remainder with the dividend's sign, as unsigned
    bits: magnitudes divide exactly in the unsigned type (|MIN| included)."""
    ua, ub = _unsigned(a), _unsigned(b)
    zero = ub.dtype.type(0)
    if signed:
        ua = np.where(a < 0, zero - ua, ua)
        ub = np.where(b < 0, zero - ub, ub)
    ub = np.where(ub == 0, ub.dtype.type(1), ub)
    quotient, rest = ua // ub, ua % ub
    if signed:
        quotient = np.where((a < 0) != (b < 0), zero - quotient, quotient)
        rest = np.where(a < 0, zero - rest, rest)
    return quotient, rest


@semantics("abs", "neg", klass="alu")
def compile_abs(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    if ty.is_float:
        return _float_sign_op(m, inst, ops, ty)
    if inst.root == "abs":
        return _compute(
            m, inst, ops, lambda a: np.abs(a).astype(ty.dtype), sources=[ty], dest=ty
        )
    return _compute(
        m, inst, ops, lambda a: (-a).astype(ty.dtype), sources=[ty], dest=ty
    )


@semantics("min", "max", klass="alu")
def compile_minmax(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    if ty.is_float:
        return _float_minmax(m, inst, ops, ty)
    fn = np.maximum if inst.root == "max" else np.minimum
    relu = "relu" in inst.parts

    def minmax(*args: Values) -> Values:
        out = reduce(fn, args)
        if relu:
            out = np.maximum(out, 0)
        return out.astype(ty.dtype)

    return _compute(m, inst, ops, minmax, sources=[ty] * (len(ops) - 1), dest=ty)


@semantics("sad", klass="alu")
def compile_sad(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """d = c + |a - b|, modulo 2^n: the difference of the ordered pair is exact unsigned."""
    ty = _type(inst)

    def sad(a: Values, b: Values, c: Values) -> Values:
        ua, ub = _unsigned(a), _unsigned(b)
        difference = np.where(a >= b, ua - ub, ub - ua)
        return (difference + _unsigned(c)).view(ty.dtype)

    return _compute(m, inst, ops, sad, sources=[ty, ty, ty], dest=ty)


@semantics("dp4a", "dp2a", klass="alu")
def compile_dp(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    types = _types(inst)
    if len(types) != 2:
        raise Unsupported("expected two types")
    ta, tb = types
    d = ptx_type("s32" if ta.is_signed or tb.is_signed else "u32")
    four = inst.root == "dp4a"
    high = "hi" in inst.parts

    def lanes_of(
        v: Values, signed: bool, width: int, count: int, offset: int = 0
    ) -> Values:
        raw = v.view(np.uint32).astype(np.int64)
        parts = [
            (raw >> (width * (i + offset))) & ((1 << width) - 1) for i in range(count)
        ]
        stacked = np.stack(parts, axis=1)
        if signed:
            stacked = np.where(
                stacked >= 1 << (width - 1), stacked - (1 << width), stacked
            )
        return stacked

    def dot(a: Values, b: Values, c: Values) -> Values:
        if four:
            total = (
                lanes_of(a, ta.is_signed, 8, 4) * lanes_of(b, tb.is_signed, 8, 4)
            ).sum(axis=1)
        else:
            total = (
                lanes_of(a, ta.is_signed, 16, 2)
                * lanes_of(b, tb.is_signed, 8, 2, 2 if high else 0)
            ).sum(axis=1)
        return (
            (total + c.astype(np.int64))
            .astype(np.uint64)
            .astype(np.uint32)
            .view(d.dtype)
        )

    return _compute(m, inst, ops, dot, sources=[B32, B32, d], dest=d)


# -- logic and bit fields -------------------------------------------------------------------------


@semantics("and", "or", "xor", "not", "cnot", klass="alu")
def compile_logic(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    if ty.kind == "pred":
        fns: dict[str, Fn] = {
            "and": lambda a, b: a & b,
            "or": lambda a, b: a | b,
            "xor": lambda a, b: a ^ b,
            "not": lambda a: ~a,
        }
        arity = 1 if inst.root == "not" else 2
        return _compute(m, inst, ops, fns[inst.root], sources=[PRED] * arity, dest=PRED)
    bits = ptx_type(f"b{ty.bits}")
    if inst.root == "not":
        return _compute(m, inst, ops, lambda a: ~a, sources=[bits], dest=bits)
    if inst.root == "cnot":
        return _compute(
            m,
            inst,
            ops,
            lambda a: (a == 0).astype(bits.dtype),
            sources=[bits],
            dest=bits,
        )
    fn = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[inst.root]
    return _compute(m, inst, ops, fn, sources=[bits, bits], dest=bits)


_BOOL_OPS: dict[str, Callable[[Values, Values], Values]] = {
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
}


@semantics("lop3", klass="alu")
def compile_lop3(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """lop3.b32 d, a, b, c, immLut; and lop3.BoolOp.b32 d|p, a, b, c, immLut, q, whose p
    is BoolOp(d != 0, q)."""

    def lut(a: Values, b: Values, c: Values, table: Values) -> Values:
        out = np.zeros_like(a)
        table = table.astype(np.uint32)
        for index in range(8):
            ta = a if index & 4 else ~a
            tb = b if index & 2 else ~b
            tc = c if index & 1 else ~c
            selected = ((table >> np.uint32(index)) & 1).astype(bool)
            out |= np.where(selected, ta & tb & tc, 0).astype(a.dtype)
        return out

    if not isinstance(ops[0], Pair):
        return _compute(m, inst, ops, lut, sources=[B32, B32, B32, U32], dest=B32)
    combine = _BOOL_OPS[inst.parts[1]]
    dest = ops[0]
    read = [
        reader(m, inst, op, ty)
        for op, ty in zip(ops[1:5], [B32] * 3 + [U32], strict=True)
    ]
    read_q = reader(m, inst, ops[5], PRED)
    write_d = writer(m, inst, dest.first, B32)
    write_p = writer(m, inst, dest.second, PRED)

    def run(m: Machine, lanes: Lanes) -> None:
        d = lut(*(r(m, lanes) for r in read))
        write_d(m, lanes, d)
        write_p(m, lanes, combine(d != 0, read_q(m, lanes)))

    return run


@semantics("shl", "shr", klass="alu")
def compile_shift(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """Shift amounts past the width give 0, or the sign fill for shr.s."""
    ty = _type(inst)
    width = ty.bits
    left = inst.root == "shl"

    def shift(a: Values, n: Values) -> Values:
        amount = np.minimum(n.astype(np.uint64), width).astype(np.int64)
        if left:
            wide = a.view(UNSIGNED[width]).astype(np.uint64)
            out = np.where(amount >= width, 0, wide << amount.astype(np.uint64))
            return out.astype(UNSIGNED[width]).view(a.dtype)
        if ty.is_signed:
            wide = a.astype(np.int64)
            out = wide >> np.minimum(amount, 63)
            out = np.where(amount >= width, np.where(wide < 0, -1, 0), out)
            return out.astype(a.dtype)
        wide = a.view(UNSIGNED[width]).astype(np.uint64)
        out = np.where(amount >= width, 0, wide >> amount.astype(np.uint64))
        return out.astype(UNSIGNED[width]).view(a.dtype)

    return _compute(m, inst, ops, shift, sources=[ty, U32], dest=ty)


@semantics("shf", klass="alu")
def compile_shf(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    left = "l" in inst.parts
    clamp = "clamp" in inst.parts

    def funnel(a: Values, b: Values, c: Values) -> Values:
        n = np.minimum(c, 32) if clamp else (c & 31)
        joined = (b.astype(np.uint64) << np.uint64(32)) | a.astype(np.uint64)
        n64 = n.astype(np.uint64)
        if left:
            return ((joined << n64) >> np.uint64(32)).astype(np.uint32)
        return (joined >> n64).astype(np.uint32)

    return _compute(m, inst, ops, funnel, sources=[B32, B32, U32], dest=B32)


def _low_mask(count: Values) -> Values:
    """(1 << count) - 1 as uint64, for counts 0..64."""
    shifted = np.uint64(1) << np.minimum(count, 63).astype(np.uint64)
    return np.where(count >= 64, np.uint64(0xFFFFFFFFFFFFFFFF), shifted - np.uint64(1))


def _bit_length(x: Values) -> Values:
    """The number of significant bits of each uint64."""
    x = x.astype(np.uint64)
    length = np.zeros(x.shape, dtype=np.int64)
    for step in (32, 16, 8, 4, 2, 1):
        big = x >= np.uint64(1 << step)
        length += np.where(big, step, 0)
        x = np.where(big, x >> np.uint64(step), x)
    return length + (x > 0)


_REVERSED_BYTES = np.array(
    [int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint8
)


@semantics("popc", "clz", "brev", "bfind", klass="alu")
def compile_bits(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    width = ty.bits
    raw = ptx_type(f"b{width}")
    shiftamt = "shiftamt" in inst.parts

    def popc(a: Values) -> Values:
        return np.bitwise_count(_unsigned(a)).astype(np.uint32)

    def clz(a: Values) -> Values:
        return (width - _bit_length(_unsigned(a))).astype(np.uint32)

    def brev(a: Values) -> Values:
        data = np.ascontiguousarray(_unsigned(a))
        reversed_bytes = _REVERSED_BYTES[data.view(np.uint8).reshape(-1, width // 8)]
        return (
            np.ascontiguousarray(reversed_bytes[:, ::-1])
            .view(raw.dtype)
            .reshape(a.shape)
        )

    def bfind(a: Values) -> Values:
        bits = _unsigned(a)
        if ty.is_signed:
            bits = np.where(a < 0, ~bits, bits)
        msb = _bit_length(bits) - 1
        found = width - 1 - msb if shiftamt else msb
        return np.where(msb < 0, 0xFFFFFFFF, found).astype(np.uint32)

    if inst.root == "brev":
        return _compute(m, inst, ops, brev, sources=[raw], dest=raw)
    fn = {"popc": popc, "clz": clz, "bfind": bfind}[inst.root]
    return _compute(m, inst, ops, fn, sources=[ty], dest=U32)


def _field(position: Values, length: Values, width: int) -> tuple[Values, Values]:
    """The start (0..255) and the number of bits of a field that lie inside the value."""
    start = (position & 0xFF).astype(np.int64)
    inside = np.clip(width - start, 0, width)
    return start, np.minimum((length & 0xFF).astype(np.int64), inside)


@semantics("bfe", klass="alu")
def compile_bfe(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """Extract `c` bits from position `b`, filling above them with the sign bit: the field's
    msb for .s types, or a's msb where the field runs past it (zero for .u types)."""
    ty = _type(inst)
    width = ty.bits
    everything = _low_mask(np.array(width))

    def extract(a: Values, pos: Values, length: Values) -> Values:
        value = _unsigned(a).astype(np.uint64)
        start, count = _field(pos, length, width)
        shifted = np.where(
            start < width, value >> np.minimum(start, 63).astype(np.uint64), 0
        )
        field = shifted & _low_mask(count)
        if ty.is_signed:
            requested = (length & 0xFF).astype(np.int64)
            sign_at = np.minimum(start + requested - 1, width - 1)
            sign = ((value >> np.maximum(sign_at, 0).astype(np.uint64)) & 1) == 1
            sign &= requested > 0
            field |= np.where(sign, ~_low_mask(count) & everything, 0)
        return field.astype(UNSIGNED[width]).view(ty.dtype)

    return _compute(m, inst, ops, extract, sources=[ty, U32, U32], dest=ty)


@semantics("bfi", klass="alu")
def compile_bfi(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    width = ty.bits

    def insert(f: Values, b: Values, pos: Values, length: Values) -> Values:
        start, count = _field(pos, length, width)
        shift = np.minimum(start, 63).astype(np.uint64)
        mask = np.where(start < width, _low_mask(count) << shift, 0)
        inserted = _unsigned(f).astype(np.uint64) << shift
        out = (_unsigned(b).astype(np.uint64) & ~mask) | (inserted & mask)
        return out.astype(UNSIGNED[width]).view(ty.dtype)

    return _compute(m, inst, ops, insert, sources=[ty, ty, U32, U32], dest=ty)


_PRMT_MODES: dict[str, list[list[int]]] = {
    # The source byte of d.b0 .. d.b3 for each value of c[1:0] (the ISA's table).
    "f4e": [[s, s + 1, s + 2, s + 3] for s in range(4)],
    "b4e": [[s, (s - 1) % 8, (s - 2) % 8, (s - 3) % 8] for s in range(4)],
    "rc8": [[s] * 4 for s in range(4)],
    "ecl": [[max(i, s) for i in range(4)] for s in range(4)],
    "ecr": [[min(i, s) for i in range(4)] for s in range(4)],
    "rc16": [[2 * (s & 1), 2 * (s & 1) + 1] * 2 for s in range(4)],
}


@semantics("prmt", klass="alu")
def compile_prmt(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """Pick four bytes of {b, a}: by the four selector nibbles of c (bit 3 of a nibble
    replicates the byte's sign), or by c[1:0] and a mode's table."""
    mode = next((p for p in inst.parts[2:] if p in _PRMT_MODES), None)
    table = np.array(_PRMT_MODES[mode], dtype=np.uint64) if mode else None

    def permute(a: Values, b: Values, c: Values) -> Values:
        source = (b.astype(np.uint64) << np.uint64(32)) | a.astype(np.uint64)
        selector = c.astype(np.uint64)
        out = np.zeros(a.shape, dtype=np.uint64)
        for i in range(4):
            if table is None:
                nibble = (selector >> np.uint64(4 * i)) & np.uint64(0xF)
                index = nibble & np.uint64(7)
            else:
                nibble = np.zeros_like(selector)
                index = table[(selector & np.uint64(3)).astype(np.int64), i]
            byte = (source >> (index * np.uint64(8))) & np.uint64(0xFF)
            sign = np.where(byte & np.uint64(0x80), np.uint64(0xFF), np.uint64(0))
            byte = np.where(nibble & np.uint64(8), sign, byte)
            out |= byte << np.uint64(8 * i)
        return out.astype(np.uint32)

    return _compute(m, inst, ops, permute, sources=[B32, B32, U32], dest=B32)


_ONES32 = np.uint64(0xFFFFFFFF)


@semantics("bmsk", klass="alu")
def compile_bmsk(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """A mask of b bits from position a, per the ISA's semantics (positions and widths
    wrap modulo 32, or with .clamp saturate at 32)."""
    clamp = "clamp" in inst.parts

    def mask(a: Values, b: Values) -> Values:
        a64, b64 = a.astype(np.uint64), b.astype(np.uint64)
        a1, b1 = a64 & np.uint64(31), b64 & np.uint64(31)
        below_start = (_ONES32 << a1) & _ONES32
        past_end = (_ONES32 << (a1 + b1)) & _ONES32
        overflow = (a1 + b1) >= 32
        if clamp:
            below_start = np.where(a64 >= 32, np.uint64(0), below_start)
            overflow |= (a64 >= 32) | (b64 >= 32)
        past_end = np.where(
            overflow, np.uint64(0), np.where(b1 == 0, _ONES32, past_end)
        )
        return (below_start & ~past_end & _ONES32).astype(np.uint32)

    return _compute(m, inst, ops, mask, sources=[U32, U32], dest=B32)


@semantics("szext", klass="alu")
def compile_szext(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """Sign- or zero-extend the low b bits of a (b modulo 32, or with .clamp, a itself
    from 32 up)."""
    ty = _type(inst)
    clamp = "clamp" in inst.parts

    def extend(a: Values, b: Values) -> Values:
        value, b64 = _unsigned(a).astype(np.uint64), b.astype(np.uint64)
        b1 = b64 & np.uint64(31)
        too_large = (b64 >= 32) if clamp else np.zeros(b.shape, dtype=bool)
        upper = np.where(too_large, np.uint64(0), (_ONES32 << b1) & _ONES32)
        sign_at = (b1 - np.uint64(1)) & np.uint64(31)
        sign = ((value >> sign_at) & np.uint64(1)) == 1
        sign &= ty.is_signed & (b1 != 0) & ~too_large
        out = (value & ~upper) | np.where(sign, upper, np.uint64(0))
        return (out & _ONES32).astype(np.uint32).view(ty.dtype)

    return _compute(m, inst, ops, extend, sources=[ty, U32], dest=ty)


# -- comparison and selection ----------------------------------------------------------------

_COMPARISONS: dict[str, Callable[[Values, Values], Values]] = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "lo": lambda a, b: a < b,
    "ls": lambda a, b: a <= b,
    "hi": lambda a, b: a > b,
    "hs": lambda a, b: a >= b,
}


def _compare(op: str, ty: PtxType, ftz: bool) -> Callable[[Values, Values], Values]:
    if ty.is_float:
        fmt = fp.float_format(ty.element.name)

        def fcmp(a: Values, b: Values) -> Values:
            if ftz:
                a, b = fp.flush_subnormals(a, fmt), fp.flush_subnormals(b, fmt)
            af, bf = fp.widen(a), fp.widen(b)
            unordered = np.isnan(af) | np.isnan(bf)
            if op == "num":
                return ~unordered
            if op == "nan":
                return unordered
            with np.errstate(invalid="ignore"):
                if op.endswith("u") and op[:-1] in _COMPARISONS:
                    return _COMPARISONS[op[:-1]](af, bf) | unordered
                return _COMPARISONS[op](af, bf) & ~unordered

        return fcmp
    fn = _COMPARISONS[op]
    if op in ("lo", "ls", "hi", "hs") or ty.kind == "b":
        return lambda a, b: fn(_unsigned(a), _unsigned(b))
    return fn


@semantics("setp", "set", klass="alu")
def compile_setp(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """t = a CmpOp b; p = BoolOp(t, c) and q = BoolOp(!t, c). Packed sources compare per
    half: p takes the lower, q the upper. `set` writes all ones or 1.0 for true."""
    types = _types(inst)
    source = types[-1]
    parts = inst.parts
    bool_op = parts[2] if len(parts) > 2 and parts[2] in _BOOL_OPS else None
    compare = _compare(parts[1], source, "ftz" in parts)
    read_a = reader(m, inst, ops[1], source)
    read_b = reader(m, inst, ops[2], source)
    read_c = reader(m, inst, ops[3], PRED) if bool_op is not None else None
    combine = _BOOL_OPS[bool_op] if bool_op is not None else None

    def evaluate(m: Machine, lanes: Lanes, t: Values) -> Values:
        if combine is None or read_c is None:
            return t
        c = read_c(m, lanes)
        return combine(t, c[:, None] if t.ndim > 1 else c)

    if inst.root == "set":

        def outcome(m: Machine, lanes: Lanes) -> Values:
            return evaluate(m, lanes, compare(read_a(m, lanes), read_b(m, lanes)))

        return _compile_set(m, inst, ops[0], outcome, dest_type=types[0], source=source)
    dest = ops[0]
    first, second = (
        (dest.first, dest.second) if isinstance(dest, Pair) else (dest, None)
    )
    write_p = writer(m, inst, first, PRED)
    write_q = writer(m, inst, second, PRED) if second is not None else None

    def run(m: Machine, lanes: Lanes) -> None:
        t = compare(read_a(m, lanes), read_b(m, lanes))
        if source.lanes > 1:
            both = evaluate(m, lanes, t)
            p, q = both[:, 0], both[:, 1]
        else:
            p, q = evaluate(m, lanes, t), evaluate(m, lanes, ~t)
        write_p(m, lanes, p)
        if write_q is not None:
            write_q(m, lanes, q)

    return run


def _compile_set(
    m: Machine,
    inst: Instruction,
    dest: Operand,
    outcome: Callable[[Machine, Lanes], Values],
    *,
    dest_type: PtxType,
    source: PtxType,
) -> Action:
    """set: 1.0 in a float destination (in each half of a packed one), all ones in an
    integer one (in each 16-bit half for a packed comparison)."""
    if dest_type.is_float:
        one = np.array(1.0).astype(dest_type.dtype)
        write = writer(m, inst, dest, dest_type)

        def run_float(m: Machine, lanes: Lanes) -> None:
            write(m, lanes, np.where(outcome(m, lanes), one, np.zeros_like(one)))

        return run_float
    write_bits = writer(m, inst, dest, ptx_type(f"b{dest_type.bits}"))
    half = dest_type.bits // source.lanes
    ones = np.uint64((1 << half) - 1)

    def run(m: Machine, lanes: Lanes) -> None:
        t = outcome(m, lanes)
        lanes_of_t = t.reshape(t.shape[0], -1)
        bits = np.zeros(t.shape[0], dtype=np.uint64)
        for i in range(lanes_of_t.shape[1]):
            bits |= np.where(
                lanes_of_t[:, i], ones << np.uint64(i * half), np.uint64(0)
            )
        write_bits(m, lanes, bits.astype(UNSIGNED[dest_type.bits]))

    return run


@semantics("selp", klass="alu")
def compile_selp(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    return _compute(
        m, inst, ops, lambda a, b, c: np.where(c, a, b), sources=[ty, ty, PRED], dest=ty
    )


@semantics("slct", klass="alu")
def compile_slct(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """d = a if c >= 0 else b: -0.0 selects a, NaN selects b; .ftz flushes c first."""
    types = _types(inst)
    ty, selector = types[0], types[-1]
    ftz = "ftz" in inst.parts

    def select(a: Values, b: Values, c: Values) -> Values:
        if selector.is_float:
            if ftz:
                c = fp.flush_subnormals(c, fp.float_format(selector.name))
            with np.errstate(invalid="ignore"):
                return np.where(fp.widen(c) >= 0, a, b)
        return np.where(c >= 0, a, b)

    return _compute(m, inst, ops, select, sources=[ty, ty, selector], dest=ty)


@semantics("testp", klass="alu")
def compile_testp(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    test = inst.parts[1]
    fmt = fp.float_format(ty.name)

    def classify(a: Values) -> Values:
        f = fp.widen(a)
        finite = np.isfinite(f)
        zero = f == 0
        small = finite & (np.abs(f) < fmt.min_normal)
        return {
            "finite": finite,
            "infinite": np.isinf(f),
            "number": ~np.isnan(f),
            "notanumber": np.isnan(f),
            # Zeros count as normal numbers.
            "normal": finite & (~small | zero),
            "subnormal": small & ~zero,
        }[test]

    return _compute(m, inst, ops, classify, sources=[ty], dest=PRED)


@semantics("copysign", klass="alu")
def compile_copysign(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """d = b with the sign bit of a (bits only, NaN included)."""
    ty = _type(inst)
    bits = ptx_type(f"b{ty.bits}")
    sign = UNSIGNED[ty.bits](1 << (ty.bits - 1))
    return _compute(
        m,
        inst,
        ops,
        lambda a, b: (b & ~sign) | (a & sign),
        sources=[bits, bits],
        dest=bits,
    )


# -- floating point ------------------------------------------------------------------------------


def _flush_inputs(args: tuple[Values, ...], fmt: fp.FloatFormat) -> tuple[Values, ...]:
    return tuple(fp.flush_subnormals(a, fmt) for a in args)


def _result_modifiers(
    mods: set[str], fmt: fp.FloatFormat
) -> Callable[[Values], Values]:
    """`.ftz` (subnormal results to zero), then `.sat` or `.relu`."""
    ftz, sat, relu = "ftz" in mods, "sat" in mods, "relu" in mods

    def apply(result: Values) -> Values:
        if ftz:
            result = fp.flush_subnormals(result, fmt)
        if sat:
            result = fp.saturate(result, fmt)
        if relu:
            result = fp.relu(result, fmt)
        return result

    return apply


def _float_op(
    m: Machine, inst: Instruction, ops: list[Operand], ty: PtxType, op: str
) -> Action:
    mods = _modifiers(inst)
    if "oob" in mods:
        raise Unsupported("the .oob modifier")
    fmt = fp.float_format(ty.element.name)
    mode = _rounding(inst) or "rn"
    ftz = "ftz" in mods
    finish = _result_modifiers(mods, fmt)
    arity = 3 if op == "fma" else 2
    if op == "div" and ("approx" in mods or "full" in mods):
        full = "full" in mods

        def divide(a: Values, b: Values) -> Values:
            if ftz:
                a, b = _flush_inputs((a, b), fmt)
            return finish(_approximate_divide(a, b, fmt, full=full))

        return _compute(m, inst, ops, divide, sources=[ty, ty], dest=ty)

    def compute(*args: Values) -> Values:
        if ftz:
            args = _flush_inputs(args, fmt)
        return finish(fp.arithmetic(op, list(args), fmt, mode))

    return _compute(m, inst, ops, compute, sources=[ty] * arity, dest=ty)


def _approximate_divide(
    a: Values, b: Values, fmt: fp.FloatFormat, *, full: bool
) -> Values:
    """div.full, and div.approx computed as a * (1/b): for 2^126 < |b| < 2^128 the
    reciprocal is 0, so the result is a signed zero (NaN if a is infinite)."""
    quotient = fp.arithmetic("div", [a, b], fmt, "rn")
    if full:
        return quotient
    b64 = fp.widen(b)
    huge = np.isfinite(b64) & (np.abs(b64) > 2.0**126)
    if not huge.any():
        return quotient
    with np.errstate(invalid="ignore"):
        scaled = (fp.widen(a) * np.copysign(0.0, b64)).astype(fmt.dtype)
    return fp.canonical_nan(np.where(huge, scaled, quotient).astype(fmt.dtype), fmt)


def float_arith(
    op: str,
    args: list[Values],
    ty: PtxType,
    mode: str,
    approximate: bool = False,
    *,
    ftz: bool = False,
) -> Values:
    """add / sub / mul / fma / div of float values of type `ty`, rounded once in `mode`;
    `ftz` flushes subnormal inputs and results (as atom.add.f32 / red.add.f32 always do)."""
    fmt = fp.float_format(ty.element.name)
    if ftz:
        args = list(_flush_inputs(tuple(args), fmt))
    if approximate and op == "div":
        result = _approximate_divide(args[0], args[1], fmt, full=True)
    else:
        result = fp.arithmetic(op, args, fmt, mode)
    return fp.flush_subnormals(result, fmt) if ftz else result


@semantics("fma", klass="alu")
def compile_fma(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    return _float_op(m, inst, ops, _type(inst), "fma")


def _float_sign_op(
    m: Machine, inst: Instruction, ops: list[Operand], ty: PtxType
) -> Action:
    """abs and neg change the sign bit only (after `.ftz` flushes a subnormal)."""
    fmt = fp.float_format(ty.element.name)
    width = ty.element.bits
    sign = UNSIGNED[width](1 << (width - 1))
    ftz = "ftz" in inst.parts

    def sign_op(a: Values) -> Values:
        if ftz:
            a = fp.flush_subnormals(a, fmt)
        raw = a.view(UNSIGNED[width])
        out = (raw & ~sign) if inst.root == "abs" else (raw ^ sign)
        return out.view(a.dtype)

    return _compute(m, inst, ops, sign_op, sources=[ty], dest=ty)


def _float_minmax(
    m: Machine, inst: Instruction, ops: list[Operand], ty: PtxType
) -> Action:
    """min / max with -0.0 < +0.0: a NaN operand yields the other (or, with `.NaN`, the
    canonical NaN); `.abs` compares magnitudes and `.xorsign` then gives the result the
    XOR of the operands' signs; `.relu` clamps at zero."""
    mods = _modifiers(inst)
    fmt = fp.float_format(ty.element.name)
    is_max = inst.root == "max"
    propagate = "NaN" in mods
    absolute = "abs" in mods
    xorsign = "xorsign" in mods
    ftz = "ftz" in mods
    finish = _result_modifiers(mods, fmt)
    width = ty.element.bits
    sign = UNSIGNED[width](1 << (width - 1))

    def minmax(*args: Values) -> Values:
        if ftz:
            args = _flush_inputs(args, fmt)
        signs = reduce(np.bitwise_xor, (a.view(UNSIGNED[width]) & sign for a in args))
        if absolute:
            args = tuple((a.view(UNSIGNED[width]) & ~sign).view(a.dtype) for a in args)
        out = reduce(lambda x, y: _pick(x, y, is_max, propagate), args)
        if xorsign:
            raw = out.view(UNSIGNED[width])
            signed = (raw & ~sign) | signs
            out = np.where(np.isnan(fp.widen(out)), raw, signed).view(out.dtype)
        return finish(fp.canonical_nan(out, fmt))

    return _compute(m, inst, ops, minmax, sources=[ty] * (len(ops) - 1), dest=ty)


def _pick(a: Values, b: Values, is_max: bool, propagate: bool) -> Values:
    af, bf = fp.widen(a), fp.widen(b)
    a_nan, b_nan = np.isnan(af), np.isnan(bf)
    with np.errstate(invalid="ignore"):
        both_zero = (af == 0) & (bf == 0)
        if is_max:
            pick_b = (bf > af) | (both_zero & np.signbit(af) & ~np.signbit(bf))
        else:
            pick_b = (bf < af) | (both_zero & np.signbit(bf) & ~np.signbit(af))
    out = np.where(pick_b | a_nan, b, a)
    if propagate:
        out = np.where(a_nan | b_nan, np.array(np.nan).astype(a.dtype), out)
    return out.astype(a.dtype)


_APPROXIMATIONS: dict[str, Callable[[Values], Values]] = {
    "rcp": lambda x: 1.0 / x,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1.0 / np.sqrt(x),
    "sin": np.sin,
    "cos": np.cos,
    "lg2": np.log2,
    "ex2": np.exp2,
    "tanh": np.tanh,
}


@semantics("rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh", klass="alu")
def compile_unary_float(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """rcp and sqrt with a rounding mode are IEEE operations; the `.approx` functions are
    evaluated in f64 and rounded to nearest (the f64 `.approx.ftz` forms per the ISA)."""
    ty = _type(inst)
    fmt = fp.float_format(ty.element.name)
    mods = _modifiers(inst)
    ftz = "ftz" in mods
    finish = _result_modifiers(mods, fmt)
    if "approx" in mods and fmt.name == "f64" and ftz:
        return _compute(
            m, inst, ops, lambda a: _gross_f64(inst.root, a), sources=[ty], dest=ty
        )
    if "approx" in mods:
        fn = _APPROXIMATIONS[inst.root]

        def approximate(a: Values) -> Values:
            if ftz:
                a = fp.flush_subnormals(a, fmt)
            with np.errstate(all="ignore"):
                exact = fn(fp.widen(a))
            return finish(fp.round_to_format(exact, fmt, "rn"))

        return _compute(m, inst, ops, approximate, sources=[ty], dest=ty)
    if inst.root not in ("rcp", "sqrt"):
        raise Unsupported(f"{inst.root} without .approx")
    mode = _rounding(inst) or "rn"

    def ieee(a: Values) -> Values:
        if ftz:
            a = fp.flush_subnormals(a, fmt)
        if inst.root == "rcp":
            return finish(fp.arithmetic("div", [np.ones_like(a), a], fmt, mode))
        return finish(fp.arithmetic("sqrt", [a], fmt, mode))

    return _compute(m, inst, ops, ieee, sources=[ty], dest=ty)


_UPPER_WORD = np.uint64(0xFFFFFFFF00000000)


def _gross_f64(root: str, a: Values) -> Values:
    """rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64: computed from the upper 32 bits of a,
    the result's low 32 bits zero, subnormals flushed, NaN the canonical 0x7fffffff00000000."""
    f64 = fp.float_format("f64")
    upper = fp.flush_subnormals((a.view(np.uint64) & _UPPER_WORD).view(np.float64), f64)
    with np.errstate(all="ignore"):
        result = _APPROXIMATIONS[root](upper)
    result = fp.flush_subnormals(result, f64)
    bits = result.view(np.uint64) & _UPPER_WORD
    bits = np.where(np.isnan(result), np.uint64(0x7FFFFFFF00000000), bits)
    return bits.view(np.float64)


# -- conversions ---------------------------------------------------------------------------------


def convert(
    values: Values, source: PtxType, dest: PtxType, mods: set[str], mode: str | None
) -> Values:
    """cvt's semantics for one element type to another."""
    if source.is_float and dest.is_float:
        return _float_to_float(values, source, dest, mods, mode)
    if source.is_float:
        return _float_to_int(values, source, dest, mods, mode)
    if dest.is_float:
        fmt = fp.float_format(dest.name)
        result = fp.integers_to_float(values, fmt, mode or "rn")
        return _result_modifiers(mods - {"ftz"}, fmt)(result)
    return _int_to_int(values, dest, "sat" in mods)


def _float_to_float(
    values: Values, source: PtxType, dest: PtxType, mods: set[str], mode: str | None
) -> Values:
    """`.ftz` applies to f32 inputs and results only; `.relu`, `.sat` and `.satfinite` to
    the result."""
    fmt = fp.float_format(dest.name)
    if "ftz" in mods and source.name == "f32":
        values = fp.flush_subnormals(values, fp.float_format("f32"))
    if mode in fp.INTEGER_ROUNDING:
        result = fp.round_integral(values, mode).astype(fmt.dtype)
    else:
        result = fp.convert_float(
            values, fmt, mode or "rn", satfinite="satfinite" in mods
        )
    if dest.name != "f32":
        mods = mods - {"ftz"}
    return _result_modifiers(mods, fmt)(result)


def _float_to_int(
    values: Values, source: PtxType, dest: PtxType, mods: set[str], mode: str | None
) -> Values:
    """Round to an integer and clamp to the destination's range (always saturating). NaN
    gives 0, except from f64 or into a 64-bit type: 1 << (bits - 1)."""
    if "ftz" in mods and source.name == "f32":
        values = fp.flush_subnormals(values, fp.float_format("f32"))
    nan_value = 1 << (dest.bits - 1) if source.name == "f64" or dest.bits == 64 else 0
    dtype = SIGNED[dest.bits] if dest.is_signed else UNSIGNED[dest.bits]
    return fp.float_to_integers(values, mode or "rzi", dtype, nan_value=nan_value)


def _int_to_int(values: Values, dest: PtxType, sat: bool) -> Values:
    """Chop to the destination's width, or with .sat clamp to its range."""
    dtype = SIGNED[dest.bits] if dest.is_signed else UNSIGNED[dest.bits]
    if not sat:
        return values.astype(dtype)
    low, high = np.iinfo(dtype).min, np.iinfo(dtype).max
    source = np.iinfo(values.dtype)
    if high < source.max:
        values = np.minimum(values, values.dtype.type(high))
    if low > source.min:
        values = np.maximum(values, values.dtype.type(low))
    return values.astype(dtype)


_CVT_MODIFIERS = {*fp.ROUNDING, *fp.INTEGER_ROUNDING, "ftz", "sat", "satfinite", "relu"}


@semantics("cvt", klass="alu")
def compile_cvt(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    mods = _modifiers(inst)
    if "pack" in mods:
        raise Unsupported("cvt.pack")
    if "rs" in mods:
        raise Unsupported("stochastic rounding (.rs)")
    types = _types(inst)
    if len(types) != 2:
        unknown = [
            p for p in inst.parts[1:] if p not in _CVT_MODIFIERS and not is_type_name(p)
        ]
        raise Unsupported(f"the type .{unknown[-1] if unknown else inst.parts[-1]}")
    dest, source = types
    mode = _rounding(inst, None)
    if dest.lanes > 1 and source.lanes == 1:
        # cvt.rn.f16x2.f32 d, a, b: a to the upper half, b to the lower.
        element = dest.element
        read_hi = reader(m, inst, ops[1], source)
        read_lo = reader(m, inst, ops[2], source)
        write = writer(m, inst, ops[0], ptx_type(f"b{dest.bits}"))

        def pack(m: Machine, lanes: Lanes) -> None:
            hi = convert(read_hi(m, lanes), source, element, mods, mode)
            lo = convert(read_lo(m, lanes), source, element, mods, mode)
            write(m, lanes, to_bits(np.stack([lo, hi], axis=-1), dest))

        return pack
    if dest.lanes > 1 and source.lanes > 1:
        read = reader(m, inst, ops[1], source)
        write = writer(m, inst, ops[0], dest)
        return lambda m, lanes: write(
            m, lanes, convert(read(m, lanes), source.element, dest.element, mods, mode)
        )
    if source.lanes > 1:
        raise Unsupported("packed source with a scalar destination")
    fn: Fn = lambda a: convert(a, source, dest, mods, mode)  # noqa: E731
    return _compute(m, inst, ops, fn, sources=[source], dest=dest)


__all__ = ["convert", "float_arith"]
