"""Arithmetic, logic, comparison, selection, moves and conversions.

Integer results wrap as PTX's do (numpy's fixed-width arithmetic); float results are rounded
once in the instruction's mode (`tileas_py.sim.numerics`); `.approx` functions are computed
in f64 and rounded to the destination, which is within the ISA's stated error. Division by
zero gives PTX's "unspecified" value without stopping the run: all ones for unsigned and
-1 for signed division, the dividend for `rem`.
PTX ISA, "Integer Arithmetic Instructions" and the float, comparison, logic and conversion
sections that follow it: https://docs.nvidia.com/cuda/parallel-thread-execution/#integer-arithmetic-instructions
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import ml_dtypes
import numpy as np
import numpy.typing as npt

from tileas_py.sim import numerics as fp
from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.operands import (
    Operand,
    Pair,
    Vector,
    reader,
    writer,
)
from tileas_py.sim.program import Action, Instruction
from tileas_py.sim.ptx_types import (
    SIGNED,
    UNSIGNED,
    PtxType,
    from_bits,
    is_type_name,
    ptx_type,
    to_bits,
)

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]
Values = npt.NDArray[Any]
Fn = Callable[..., Values]

U32 = ptx_type("u32")
PRED = ptx_type("pred")


def _types(inst: Instruction) -> list[PtxType]:
    return [ptx_type(p) for p in inst.parts[1:] if is_type_name(p)]


def _type(inst: Instruction) -> PtxType:
    types = _types(inst)
    if not types:
        raise Unsupported("no operand type")
    return types[-1]


def _modifiers(inst: Instruction) -> set[str]:
    return set(inst.parts[1:])


def _rounding(inst: Instruction, default: str = "rn") -> str:
    for part in inst.parts[1:]:
        if part in fp.ROUNDING or part in fp.INTEGER_ROUNDING:
            return part
    return default


def _compute(
    m: Machine,
    inst: Instruction,
    ops: list[Operand],
    source_types: list[PtxType],
    dest_type: PtxType,
    fn: Fn,
) -> Action:
    """d = fn(a, b, ...): read the sources as their types, write d as `dest_type`."""
    if len(ops) != len(source_types) + 1:
        raise Unsupported(f"expected {len(source_types) + 1} operands, got {len(ops)}")
    readers = [
        reader(m, inst, op, ty) for op, ty in zip(ops[1:], source_types, strict=True)
    ]
    write = writer(m, inst, ops[0], dest_type)
    if len(readers) == 1:
        (ra,) = readers
        return lambda m, lanes: write(m, lanes, fn(ra(m, lanes)))
    if len(readers) == 2:
        ra, rb = readers
        return lambda m, lanes: write(m, lanes, fn(ra(m, lanes), rb(m, lanes)))

    def run(m: Machine, lanes: Lanes) -> None:
        write(m, lanes, fn(*(r(m, lanes) for r in readers)))

    return run


# -- moves ----------------------------------------------------------------------------------


@semantics("mov", klass="alu")
def compile_mov(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    dest, source = ops
    if isinstance(dest, Vector):
        return _unpack(m, inst, dest, source, ty)
    if isinstance(source, Vector):
        return _pack(m, inst, dest, source, ty)
    return _compute(m, inst, ops, [ty], ty, lambda a: a)


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


def _integer_mul(inst: Instruction, ty: PtxType) -> tuple[PtxType, Fn]:
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
        raise Unsupported("carry (.cc) is not modelled")
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
    return _compute(m, inst, ops, [ty, ty], ty, fn)


@semantics("mul", klass="alu")
def compile_mul(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    if ty.is_float:
        return _float_op(m, inst, ops, ty, "mul")
    dest, fn = _integer_mul(inst, ty)
    return _compute(m, inst, ops, [ty, ty], dest, fn)


@semantics("mad", klass="alu")
def compile_mad(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    if ty.is_float:
        return _float_op(m, inst, ops, ty, "fma")
    if "cc" in inst.parts:
        raise Unsupported("carry (.cc) is not modelled")
    dest, mul = _integer_mul(inst, ty)
    if "sat" in inst.parts:
        return _compute(
            m,
            inst,
            ops,
            [ty, ty, dest],
            dest,
            lambda a, b, c: _saturate_s32(
                (_mul_parts(a, b, ty)[1].view(np.int32).astype(np.int64)) + c
            ),
        )
    return _compute(m, inst, ops, [ty, ty, dest], dest, lambda a, b, c: mul(a, b) + c)


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
        return _compute(m, inst, ops, [ty, ty], ty, product)
    return _compute(m, inst, ops, [ty, ty, ty], ty, lambda a, b, c: product(a, b) + c)


@semantics("div", "rem", klass="alu")
def compile_div(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    if ty.is_float:
        if inst.root == "rem":
            raise Unsupported("rem on floats")
        return _float_op(m, inst, ops, ty, "div")
    remainder = inst.root == "rem"
    unsigned = UNSIGNED[ty.bits]

    def divide(a: Values, b: Values) -> Values:
        zero = b == 0
        if ty.is_signed:
            wide = a.astype(object) if ty.bits == 64 else a.astype(np.int64)
            divisor = np.where(zero, 1, b).astype(wide.dtype)
            quotient = (
                np.array(
                    [
                        _trunc_div(int(x), int(y))
                        for x, y in zip(wide.tolist(), divisor.tolist(), strict=True)
                    ],
                    dtype=object,
                )
                if ty.bits == 64
                else (np.abs(wide) // np.abs(divisor))
                * np.sign(wide)
                * np.sign(divisor)
            )
            result = wide - quotient * divisor if remainder else quotient
            bits = np.array(
                [int(v) & ((1 << ty.bits) - 1) for v in np.ravel(result)],
                dtype=np.uint64,
            )
            out = bits.astype(unsigned).view(ty.dtype).reshape(a.shape)
        else:
            ua, ub = a.view(unsigned), np.where(zero, 1, b).astype(unsigned)
            out = (
                ((ua % ub) if remainder else (ua // ub)).astype(unsigned).view(ty.dtype)
            )
        fallback = (
            a
            if remainder
            else np.full(a.shape, (1 << ty.bits) - 1, dtype=np.uint64)
            .astype(unsigned)
            .view(ty.dtype)
        )
        return np.where(zero, fallback, out).astype(ty.dtype)

    return _compute(m, inst, ops, [ty, ty], ty, divide)


def _trunc_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y >= 0) else -q


@semantics("abs", "neg", klass="alu")
def compile_abs(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    if ty.is_float:
        bits = ptx_type(f"b{ty.element.bits}")
        sign = UNSIGNED[ty.element.bits](1 << (ty.element.bits - 1))
        ftz = "ftz" in inst.parts

        def sign_op(a: Values) -> Values:
            raw = a.view(bits.dtype)
            out = (raw & ~sign) if inst.root == "abs" else (raw ^ sign)
            result = out.view(a.dtype)
            return fp.flush_subnormal(result) if ftz else result

        return _compute(m, inst, ops, [ty], ty, sign_op)
    if inst.root == "abs":
        return _compute(m, inst, ops, [ty], ty, lambda a: np.abs(a).astype(ty.dtype))
    return _compute(m, inst, ops, [ty], ty, lambda a: (-a).astype(ty.dtype))


@semantics("min", "max", klass="alu")
def compile_minmax(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    is_max = inst.root == "max"
    if ty.is_float:
        propagate = "NaN" in inst.parts
        relu = "relu" in inst.parts

        def fminmax(*args: Values) -> Values:
            a = args[0]
            for b in args[1:]:
                a = _float_minmax(a, b, is_max, propagate)
            if relu:
                a = np.where(a < 0, np.zeros_like(a), a)
            return a.astype(a.dtype)

        return _compute(m, inst, ops, [ty] * (len(ops) - 1), ty, fminmax)
    fn = np.maximum if is_max else np.minimum
    relu = "relu" in inst.parts

    def iminmax(*args: Values) -> Values:
        out = args[0]
        for b in args[1:]:
            out = fn(out, b)
        if relu:
            out = np.maximum(out, 0)
        return out.astype(ty.dtype)

    return _compute(m, inst, ops, [ty] * (len(ops) - 1), ty, iminmax)


def _float_minmax(a: Values, b: Values, is_max: bool, propagate: bool) -> Values:
    with np.errstate(invalid="ignore"):
        af, bf = a.astype(np.float64), b.astype(np.float64)
        pick_b = (bf > af) if is_max else (bf < af)
        # -0.0 < +0.0 for min/max.
        zeros = (af == 0) & (bf == 0)
        b_negative = np.signbit(bf)
        a_negative = np.signbit(af)
        pick_b = np.where(
            zeros,
            (a_negative & ~b_negative) if is_max else (b_negative & ~a_negative),
            pick_b,
        )
        out = np.where(pick_b, b, a)
        a_nan, b_nan = np.isnan(af), np.isnan(bf)
        if propagate:
            nan = np.array(np.nan, dtype=a.dtype)
            return np.where(a_nan | b_nan, nan, out).astype(a.dtype)
        out = np.where(a_nan, b, out)
        return np.where(b_nan & ~a_nan, a, out).astype(a.dtype)


def _unsigned(ty: PtxType) -> Any:
    return UNSIGNED[ty.bits]


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
        return _compute(m, inst, ops, [PRED] * arity, PRED, fns[inst.root])
    bits = ptx_type(f"b{ty.bits}")
    if inst.root == "not":
        return _compute(m, inst, ops, [bits], bits, lambda a: ~a)
    if inst.root == "cnot":
        return _compute(
            m, inst, ops, [bits], bits, lambda a: (a == 0).astype(bits.dtype)
        )
    fn = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[inst.root]
    return _compute(m, inst, ops, [bits, bits], bits, fn)


@semantics("lop3", klass="alu")
def compile_lop3(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = ptx_type("b32")
    if len(ops) == 5:
        raise Unsupported("lop3 with a predicate output")

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

    return _compute(m, inst, ops, [ty, ty, ty, U32], ty, lut)


@semantics("shl", "shr", klass="alu")
def compile_shift(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
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

    return _compute(m, inst, ops, [ty, U32], ty, shift)


@semantics("shf", klass="alu")
def compile_shf(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = ptx_type("b32")
    left = "l" in inst.parts
    clamp = "clamp" in inst.parts

    def funnel(a: Values, b: Values, c: Values) -> Values:
        n = np.minimum(c, 32) if clamp else (c & 31)
        joined = (b.astype(np.uint64) << np.uint64(32)) | a.astype(np.uint64)
        n64 = n.astype(np.uint64)
        if left:
            return ((joined << n64) >> np.uint64(32)).astype(np.uint32)
        return (joined >> n64).astype(np.uint32)

    return _compute(m, inst, ops, [ty, ty, U32], ty, funnel)


@semantics("popc", "clz", "brev", "bfind", klass="alu")
def compile_bits(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    width = ty.bits
    raw = ptx_type(f"b{width}")

    def popc(a: Values) -> Values:
        return np.array(
            [bin(int(x)).count("1") for x in a.view(raw.dtype).tolist()],
            dtype=np.uint32,
        )

    def clz(a: Values) -> Values:
        return np.array(
            [width - int(x).bit_length() for x in a.view(raw.dtype).tolist()],
            dtype=np.uint32,
        )

    def brev(a: Values) -> Values:
        out = [int(f"{int(x):0{width}b}"[::-1], 2) for x in a.view(raw.dtype).tolist()]
        return np.array(out, dtype=raw.dtype)

    def bfind(a: Values) -> Values:
        out: list[int] = []
        shiftamt = "shiftamt" in inst.parts
        for x in a.tolist():
            v = int(x)
            if ty.is_signed and v < 0:
                v = ~v
            if v == 0:
                out.append(0xFFFFFFFF)
                continue
            msb = v.bit_length() - 1
            out.append(width - 1 - msb if shiftamt else msb)
        return np.array(out, dtype=np.uint32)

    if inst.root == "brev":
        return _compute(m, inst, ops, [raw], raw, brev)
    fn = {"popc": popc, "clz": clz, "bfind": bfind}[inst.root]
    return _compute(m, inst, ops, [ty], U32, fn)


@semantics("bfe", klass="alu")
def compile_bfe(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    width = ty.bits

    def extract(a: Values, pos: Values, length: Values) -> Values:
        out: list[int] = []
        for x, p, n in zip(a.tolist(), pos.tolist(), length.tolist(), strict=True):
            p, n = int(p) & 0xFF, int(n) & 0xFF
            value = int(x) & ((1 << width) - 1)
            if n == 0:
                out.append(0)
                continue
            field = (value >> min(p, width)) & ((1 << n) - 1) if p < width else 0
            if ty.is_signed:
                sign_pos = min(p + n - 1, width - 1)
                sign = (value >> sign_pos) & 1
                if n < width and sign:
                    field |= ((1 << width) - 1) & ~((1 << min(n, width)) - 1)
                if p >= width:
                    field = ((1 << width) - 1) if (value >> (width - 1)) & 1 else 0
            out.append(field & ((1 << width) - 1))
        return np.array(out, dtype=UNSIGNED[width]).view(ty.dtype)

    return _compute(m, inst, ops, [ty, U32, U32], ty, extract)


@semantics("bfi", klass="alu")
def compile_bfi(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    width = ty.bits

    def insert(f: Values, b: Values, pos: Values, length: Values) -> Values:
        out: list[int] = []
        for fv, bv, p, n in zip(
            f.tolist(), b.tolist(), pos.tolist(), length.tolist(), strict=True
        ):
            p, n = int(p) & 0xFF, int(n) & 0xFF
            value = int(bv)
            if n and p < width:
                mask = ((1 << n) - 1) << p
                value = (value & ~mask) | ((int(fv) << p) & mask)
            out.append(value & ((1 << width) - 1))
        return np.array(out, dtype=UNSIGNED[width]).view(ty.dtype)

    return _compute(m, inst, ops, [ty, ty, U32, U32], ty, insert)


@semantics("prmt", klass="alu")
def compile_prmt(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = ptx_type("b32")
    mode = next(
        (p for p in inst.parts[2:] if p in ("f4e", "b4e", "rc8", "ecl", "ecr", "rc16")),
        None,
    )

    def permute(a: Values, b: Values, c: Values) -> Values:
        out: list[int] = []
        for av, bv, cv in zip(a.tolist(), b.tolist(), c.tolist(), strict=True):
            source = (int(bv) << 32) | int(av)
            data = source.to_bytes(8, "little")
            selector = int(cv)
            if mode is None:
                result = 0
                for i in range(4):
                    nibble = (selector >> (4 * i)) & 0xF
                    byte = data[nibble & 7]
                    if nibble & 8:
                        byte = 0xFF if byte & 0x80 else 0
                    result |= byte << (8 * i)
            else:
                result = _prmt_mode(mode, data, selector & 3)
            out.append(result)
        return np.array(out, dtype=np.uint32)

    return _compute(m, inst, ops, [ty, ty, U32], ty, permute)


def _prmt_mode(mode: str, data: bytes, s: int) -> int:
    indices = {
        "f4e": [(s + i) % 8 for i in range(4)],
        "b4e": [(s - i) % 8 for i in range(4)],
        "rc8": [s] * 4,
        "ecl": [max(i, s) if i <= s else i for i in range(4)],
        "ecr": [s if i <= s else i for i in range(4)],
        "rc16": [2 * (s & 1), 2 * (s & 1) + 1] * 2,
    }[mode]
    if mode == "ecl":
        indices = [s if i < s else i for i in range(4)]
    return int.from_bytes(bytes(data[i] for i in indices), "little")


@semantics("sad", klass="alu")
def compile_sad(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    return _compute(
        m,
        inst,
        ops,
        [ty, ty, ty],
        ty,
        lambda a, b, c: (np.abs(a.astype(np.int64) - b.astype(np.int64)) + c).astype(
            ty.dtype
        ),
    )


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

    return _compute(m, inst, ops, [ptx_type("b32"), ptx_type("b32"), d], d, dot)


@semantics("bmsk", klass="alu")
def compile_bmsk(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    clamp = "clamp" in inst.parts

    def mask(a: Values, b: Values) -> Values:
        out: list[int] = []
        for start, width in zip(a.tolist(), b.tolist(), strict=True):
            start, width = int(start), int(width)
            if not clamp:
                start, width = start & 31, width & 31
            start, width = min(start, 32), min(width, 32)
            out.append((((1 << width) - 1) << start) & 0xFFFFFFFF)
        return np.array(out, dtype=np.uint32)

    return _compute(m, inst, ops, [U32, U32], ptx_type("b32"), mask)


@semantics("szext", klass="alu")
def compile_szext(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    clamp = "clamp" in inst.parts

    def extend(a: Values, b: Values) -> Values:
        out: list[int] = []
        for value, width in zip(a.view(np.uint32).tolist(), b.tolist(), strict=True):
            width = min(int(width), 32) if clamp else int(width) & 31
            if width == 0:
                out.append(0)
                continue
            field = value & ((1 << width) - 1)
            if ty.is_signed and field >> (width - 1):
                field |= (0xFFFFFFFF << width) & 0xFFFFFFFF
            out.append(field)
        return np.array(out, dtype=np.uint32).view(ty.dtype)

    return _compute(m, inst, ops, [ty, U32], ty, extend)


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


def _compare(op: str, ty: PtxType) -> Callable[[Values, Values], Values]:
    if ty.is_float:

        def fcmp(a: Values, b: Values) -> Values:
            with np.errstate(invalid="ignore"):
                af, bf = a.astype(np.float64), b.astype(np.float64)
                nan = np.isnan(af) | np.isnan(bf)
                if op == "num":
                    return ~nan
                if op == "nan":
                    return nan
                if op.endswith("u") and op[:-1] in _COMPARISONS:
                    return _COMPARISONS[op[:-1]](af, bf) | nan
                result = _COMPARISONS[op](af, bf)
                return result & ~nan if op != "ne" else result & ~nan

        return fcmp
    fn = _COMPARISONS[op]
    if op in ("lo", "ls", "hi", "hs") or ty.kind == "b":
        unsigned = UNSIGNED[ty.bits]
        return lambda a, b: fn(a.view(unsigned), b.view(unsigned))
    return fn


_BOOL_OPS: dict[str, Callable[[Values, Values], Values]] = {
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
}


@semantics("setp", "set", klass="alu")
def compile_setp(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    types = _types(inst)
    source = types[-1]
    parts = inst.parts
    op = parts[1]
    bool_op = parts[2] if len(parts) > 2 and parts[2] in _BOOL_OPS else None
    compare = _compare(op, source)
    if source.lanes > 1:
        raise Unsupported("packed comparisons")
    dest_ops = ops[0]
    read_a = reader(m, inst, ops[1], source)
    read_b = reader(m, inst, ops[2], source)
    read_c = reader(m, inst, ops[3], PRED) if bool_op is not None else None
    combine = _BOOL_OPS[bool_op] if bool_op is not None else None
    if inst.root == "set":
        dest_type = types[0]
        write = writer(m, inst, dest_ops, dest_type)

        def run_set(m: Machine, lanes: Lanes) -> None:
            result = compare(read_a(m, lanes), read_b(m, lanes))
            if combine is not None and read_c is not None:
                result = combine(result, read_c(m, lanes))
            if dest_type.is_float:
                write(m, lanes, result.astype(dest_type.dtype))
            else:
                write(
                    m,
                    lanes,
                    np.where(result, -1, 0).astype(np.int64).astype(dest_type.dtype),
                )

        return run_set
    if isinstance(dest_ops, Pair):
        write_p = writer(m, inst, dest_ops.first, PRED)
        write_q = writer(m, inst, dest_ops.second, PRED)
    else:
        write_p = writer(m, inst, dest_ops, PRED)
        write_q = None

    def run(m: Machine, lanes: Lanes) -> None:
        result = compare(read_a(m, lanes), read_b(m, lanes))
        inverse = ~result
        if combine is not None and read_c is not None:
            c = read_c(m, lanes)
            result, inverse = combine(result, c), combine(inverse, c)
        write_p(m, lanes, result)
        if write_q is not None:
            write_q(m, lanes, inverse)

    return run


@semantics("selp", klass="alu")
def compile_selp(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    return _compute(
        m,
        inst,
        ops,
        [ty, ty, PRED],
        ty,
        lambda a, b, c: np.where(c, a, b).astype(a.dtype),
    )


@semantics("slct", klass="alu")
def compile_slct(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    types = _types(inst)
    ty, selector = types[0], types[-1]
    return _compute(
        m,
        inst,
        ops,
        [ty, ty, selector],
        ty,
        lambda a, b, c: np.where(c >= 0, a, b).astype(a.dtype),
    )


@semantics("testp", klass="alu")
def compile_testp(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    test = inst.parts[1]

    def classify(a: Values) -> Values:
        f = a.astype(np.float64)
        finite = np.isfinite(f)
        tiny = np.finfo(a.dtype).tiny
        return {
            "finite": finite,
            "infinite": np.isinf(f),
            "number": ~np.isnan(f),
            "notanumber": np.isnan(f),
            "normal": finite & (np.abs(f) >= tiny),
            "subnormal": finite & (f != 0) & (np.abs(f) < tiny),
        }[test]

    return _compute(m, inst, ops, [ty], PRED, classify)


@semantics("copysign", klass="alu")
def compile_copysign(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _type(inst)
    return _compute(
        m, inst, ops, [ty, ty], ty, lambda a, b: np.copysign(b, a).astype(ty.dtype)
    )


# -- floating point ------------------------------------------------------------------------------


def _float_op(
    m: Machine, inst: Instruction, ops: list[Operand], ty: PtxType, op: str
) -> Action:
    mods = _modifiers(inst)
    mode = _rounding(inst)
    ftz = "ftz" in mods
    sat = "sat" in mods
    relu = "relu" in mods
    approximate = "approx" in mods or "full" in mods
    arity = 3 if op == "fma" else 2
    element = ty.element

    def compute(*args: Values) -> Values:
        if ftz:
            args = tuple(fp.flush_subnormal(a) for a in args)
        result = float_arith(op, [a for a in args], element, mode, approximate)
        if ftz:
            result = fp.flush_subnormal(result)
        if sat:
            result = fp.saturate(result)
        if relu:
            result = np.where(result < 0, np.zeros_like(result), result).astype(
                result.dtype
            )
        return result

    return _compute(m, inst, ops, [ty] * arity, ty, compute)


def float_arith(
    op: str, args: list[Values], ty: PtxType, mode: str, approximate: bool = False
) -> Values:
    """add / sub / mul / fma / div of float values of type `ty`, rounded once in `mode`."""
    dtype = np.dtype(ty.dtype)
    shape = args[0].shape
    flat = [np.asarray(a, dtype=np.float64).reshape(-1) for a in args]
    with np.errstate(all="ignore"):
        if dtype == np.float64 and (mode != "rn" or op == "fma") and not approximate:
            return _exact_f64(op, flat, mode).reshape(shape)
        if op == "add":
            s, e = fp.two_sum(flat[0], flat[1])
        elif op == "sub":
            s, e = fp.two_sum(flat[0], -flat[1])
        elif op == "mul":
            s, e = flat[0] * flat[1], None
            if dtype == np.float64:
                return s.reshape(shape)
        elif op == "fma":
            s, e = fp.two_sum(flat[0] * flat[1], flat[2])
        elif op == "div":
            if mode != "rn" and not approximate:
                return _exact_div(flat, dtype, mode).reshape(shape)
            s, e = flat[0] / flat[1], None
        else:
            raise Unsupported(op)
        if dtype == np.float64:
            return s.reshape(shape)
        return fp.round_to(s, dtype, "rn" if approximate else mode, e).reshape(shape)


def _exact_f64(op: str, args: list[Values], mode: str) -> Values:
    values: list[Fraction | float] = []
    for row in zip(*(a.tolist() for a in args), strict=True):
        if not all(np.isfinite(v) for v in row):
            with np.errstate(all="ignore"):
                a = np.array(row, dtype=np.float64)
                values.append(
                    float(
                        {
                            "add": a[0] + a[1],
                            "sub": a[0] - a[1],
                            "mul": a[0] * a[1],
                            "fma": a[0] * a[1] + a[2] if len(a) > 2 else np.nan,
                            "div": a[0] / a[1],
                        }[op]
                    )
                )
            continue
        f = [Fraction(v) for v in row]
        if op == "div":
            values.append(
                Fraction(f[0]) / f[1]
                if f[1] != 0
                else float(np.float64(row[0]) / np.float64(row[1]))
            )
            continue
        values.append(
            {
                "add": lambda: f[0] + f[1],
                "sub": lambda: f[0] - f[1],
                "mul": lambda: f[0] * f[1],
                "fma": lambda: f[0] * f[1] + f[2],
            }[op]()
        )
    return fp.exact_round(values, np.float64, mode)


def _exact_div(args: list[Values], dtype: np.dtype[Any], mode: str) -> Values:
    values: list[Fraction | float] = []
    for a, b in zip(args[0].tolist(), args[1].tolist(), strict=True):
        if not (np.isfinite(a) and np.isfinite(b)) or b == 0:
            with np.errstate(all="ignore"):
                values.append(float(np.float64(a) / np.float64(b)))
        else:
            values.append(Fraction(a) / Fraction(b))
    return fp.exact_round(values, dtype, mode)


@semantics("fma", klass="alu")
def compile_fma(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    return _float_op(m, inst, ops, _type(inst), "fma")


_UNARY: dict[str, Callable[[Values], Values]] = {
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
    ty = _type(inst)
    element = ty.element
    mods = _modifiers(inst)
    ftz = "ftz" in mods
    mode = _rounding(inst)
    fn = _UNARY[inst.root]
    approximate = "approx" in mods

    def compute(a: Values) -> Values:
        if ftz:
            a = fp.flush_subnormal(a)
        with np.errstate(all="ignore"):
            x = a.astype(np.float64)
            if inst.root == "rcp" and not approximate and mode != "rn":
                flat = x.reshape(-1)
                result = _exact_div(
                    [np.ones_like(flat), flat], np.dtype(element.dtype), mode
                ).reshape(a.shape)
            elif inst.root == "sqrt" and not approximate and mode != "rn":
                raise Unsupported("directed rounding of sqrt")
            else:
                result = fp.round_to(fn(x), element.dtype, "rn")
        if ftz:
            result = fp.flush_subnormal(result)
        return result

    return _compute(m, inst, ops, [ty], ty, compute)


# -- conversions ---------------------------------------------------------------------------------


_FP8 = {"e4m3": ml_dtypes.float8_e4m3fn, "e5m2": ml_dtypes.float8_e5m2}


def convert(
    values: Values, source: PtxType, dest: PtxType, mods: set[str], mode: str | None
) -> Values:
    """cvt's semantics for one element type to another."""
    sat = "sat" in mods
    ftz = "ftz" in mods
    relu = "relu" in mods
    if source.is_float and ftz:
        values = fp.flush_subnormal(values)
    if dest.is_float:
        if source.is_float:
            result = _float_to_float(values, source, dest, mode, "satfinite" in mods)
        else:
            result = _int_to_float(values, dest, mode or "rn")
        if relu:
            result = np.where(result < 0, np.zeros_like(result), result).astype(
                result.dtype
            )
        if ftz:
            result = fp.flush_subnormal(result)
        if sat:
            result = fp.saturate(result)
        return result
    if source.is_float:
        return _float_to_int(values, dest, mode or "rzi")
    return _int_to_int(values, dest, sat)


def _float_to_float(
    values: Values, source: PtxType, dest: PtxType, mode: str | None, satfinite: bool
) -> Values:
    x = values.astype(np.float64)
    if mode in fp.INTEGER_ROUNDING:
        rounded = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}[
            mode
        ](x)
        return rounded.astype(dest.dtype)
    if dest.name == "tf32":
        return fp.round_tf32(x.astype(np.float32), mode or "rna")
    if dest.bits > source.bits or (
        dest.bits == source.bits and dest.name == source.name
    ):
        return x.astype(dest.dtype)
    result = fp.round_to(x, dest.dtype, mode or "rn")
    if satfinite or dest.name in _FP8:
        largest = fp._largest(np.dtype(dest.dtype))  # pyright: ignore[reportPrivateUsage]
        with np.errstate(invalid="ignore"):
            finite = np.clip(result.astype(np.float64), -largest, largest)
        result = np.where(np.isnan(x), result, finite.astype(dest.dtype)).astype(
            dest.dtype
        )
    return result


def _int_to_float(values: Values, dest: PtxType, mode: str) -> Values:
    if values.dtype.itemsize < 8 or (dest.bits == 64 and values.dtype.itemsize < 8):
        return fp.round_to(values.astype(np.float64), dest.dtype, mode)
    wide = values.astype(object)
    approx = np.array([float(int(v)) for v in wide], dtype=np.float64)
    residual = np.array(
        [float(int(v) - int(a)) for v, a in zip(wide, approx, strict=True)]
    )
    return fp.round_to(approx, dest.dtype, mode, residual)


def _float_to_int(values: Values, dest: PtxType, mode: str) -> Values:
    x = values.astype(np.float64)
    rounding = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}.get(
        mode, np.trunc
    )
    with np.errstate(invalid="ignore"):
        r = rounding(x)
    lo, hi = (
        (-(2 ** (dest.bits - 1)), 2 ** (dest.bits - 1) - 1)
        if dest.is_signed
        else (0, 2**dest.bits - 1)
    )
    out = np.empty(
        x.shape, dtype=dest.dtype if dest.kind != "b" else UNSIGNED[dest.bits]
    )
    for i, v in enumerate(r.reshape(-1).tolist()):
        if np.isnan(v):
            out.reshape(-1)[i] = 0
        else:
            out.reshape(-1)[i] = int(min(max(v, lo), hi))
    return out


def _int_to_int(values: Values, dest: PtxType, sat: bool) -> Values:
    if sat:
        info = np.iinfo(dest.dtype)
        wide = (
            values.astype(object)
            if values.dtype.itemsize == 8
            else values.astype(np.int64)
        )
        clipped = np.array(
            [min(max(int(v), info.min), info.max) for v in np.ravel(wide)],
            dtype=dest.dtype,
        )
        return clipped.reshape(values.shape)
    return values.astype(dest.dtype)


@semantics("cvt", klass="alu")
def compile_cvt(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    types = _types(inst)
    if len(types) != 2:
        raise Unsupported("expected a destination and a source type")
    dest, source = types
    mods = _modifiers(inst)
    mode = next(
        (p for p in inst.parts[1:] if p in fp.ROUNDING or p in fp.INTEGER_ROUNDING),
        None,
    )
    if dest.lanes > 1 and source.lanes == 1:
        # cvt.rn.f16x2.f32 d, a, b: a to the high half, b to the low half.
        element = dest.element
        read_hi = reader(m, inst, ops[1], source)
        read_lo = reader(m, inst, ops[2], source)
        write = writer(m, inst, ops[0], ptx_type(f"b{dest.bits}"))

        def pack(m: Machine, lanes: Lanes) -> None:
            hi = convert(read_hi(m, lanes), source, element, mods, mode)
            lo = convert(read_lo(m, lanes), source, element, mods, mode)
            packed = np.stack([lo, hi], axis=-1)
            write(m, lanes, to_bits(packed, dest))

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
    return _compute(m, inst, ops, [source], dest, fn)


@semantics("cvt.pack", klass="alu")
def compile_cvt_pack(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    raise Unsupported("cvt.pack")


__all__ = ["convert", "float_arith", "from_bits"]
