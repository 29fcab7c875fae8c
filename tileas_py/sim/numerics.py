"""Floating-point results exactly as PTX defines them: every rounding mode, every format.

A result is first computed in f64 together with the sign of its error (the residual):
sums and fma products by the error-free TwoSum, products of narrow values exactly, and for
division and square roots of values with at most 24 significant bits none is needed (the
f64 result lands on a rounding boundary of such a format only when it is exact). One
rounding to the destination format in the instruction's mode (`round_to_format`) then
gives the IEEE 754 result, subnormals, overflow and signed zeros included. f64 results are
rounded to nearest by the hardware's own f64 arithmetic and stepped by one unit for the
directed modes when the residual says so; f64 fma and the residuals of f64 products,
quotients and roots come from exact rationals.

NaN results are the canonical NaN of their format (PTX leaves single- and half-precision
NaN payloads unspecified; f64 keeps numpy's payload). PTX ISA, "Floating Point
Instructions" and "Rounding Modifiers":
https://docs.nvidia.com/cuda/parallel-thread-execution/#floating-point-instructions
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[Any]

ROUNDING = ("rn", "rz", "rm", "rp", "rna", "rs")
"""PTX's float rounding modifiers (`rs`, stochastic rounding, is not modelled)."""
INTEGER_ROUNDING = ("rni", "rzi", "rmi", "rpi")


@dataclass(frozen=True)
class FloatFormat:
    """A binary float format: its numpy dtype, `mantissa` stored fraction bits, the exponent
    of its smallest normal value, its largest finite value and its canonical NaN."""

    name: str
    dtype: Any
    mantissa: int
    min_exponent: int
    largest: float
    has_infinity: bool
    nan_bits: int

    @property
    def min_normal(self) -> float:
        return 2.0**self.min_exponent

    @property
    def storage(self) -> Any:
        return {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[
            np.dtype(self.dtype).itemsize
        ]


def _largest(mantissa: int, max_exponent: int) -> float:
    return (2.0 - 2.0**-mantissa) * 2.0**max_exponent


FORMATS: dict[str, FloatFormat] = {
    f.name: f
    for f in (
        FloatFormat("f16", np.float16, 10, -14, 65504.0, True, 0x7FFF),
        FloatFormat(
            "bf16", ml_dtypes.bfloat16, 7, -126, _largest(7, 127), True, 0x7FFF
        ),
        # tf32 lives in an f32 whose low 13 bits are zero, its NaN too.
        FloatFormat("tf32", np.float32, 10, -126, _largest(10, 127), True, 0x7FFFE000),
        FloatFormat("f32", np.float32, 23, -126, _largest(23, 127), True, 0x7FFFFFFF),
        FloatFormat(
            "f64", np.float64, 52, -1022, _largest(52, 1023), True, 0x7FFFFFFFFFFFFFFF
        ),
        FloatFormat("e4m3", ml_dtypes.float8_e4m3fn, 3, -6, 448.0, False, 0x7F),
        FloatFormat("e5m2", ml_dtypes.float8_e5m2, 2, -14, 57344.0, True, 0x7F),
    )
}


def float_format(name: str) -> FloatFormat:
    """The format of a PTX float type name (`f32`, `bf16`, `e4m3`, ...)."""
    return FORMATS[name]


def widen(x: Floats) -> Floats:
    """Float values of any format as f64 (exactly; a signalling NaN stays a NaN)."""
    with np.errstate(invalid="ignore"):
        return np.asarray(x).astype(np.float64)


# -- rounding -----------------------------------------------------------------------------------


def round_to_format(
    value: Floats,
    fmt: FloatFormat,
    mode: str,
    *,
    residual: Floats | None = None,
    satfinite: bool = False,
) -> Floats:
    """Round exact results to `fmt` in PTX rounding mode `mode`.

    `value` is each exact result rounded to the nearest f64, `residual` has the sign of
    (exact - value) (None: the values are exact). Overflow follows IEEE 754 (infinity, or
    the largest finite value for the directed modes that round toward zero); `satfinite`
    clamps it, infinities included, to the largest finite value.
    """
    value = np.asarray(value, dtype=np.float64)
    if mode == "rs":
        raise NotImplementedError("stochastic rounding (.rs)")
    sign = np.zeros_like(value) if residual is None else np.sign(residual)
    with np.errstate(all="ignore"):
        if fmt.name == "f64":
            out = _round_f64(value, sign, mode)
        else:
            out = _round_narrow(value, sign, fmt, mode)
        if satfinite:
            out = np.clip(out, -fmt.largest, fmt.largest)
        elif not fmt.has_infinity:
            out = np.where(np.abs(out) > fmt.largest, np.nan, out)
        out = out.astype(fmt.dtype)
    return _nan_result(out, fmt)


def _nan_result(values: Floats, fmt: FloatFormat) -> Floats:
    """A NaN result is the canonical NaN, except in f64, whose NaN payloads PTX keeps."""
    return values if fmt.name == "f64" else canonical_nan(values, fmt)


def _round_narrow(value: Floats, sign: Floats, fmt: FloatFormat, mode: str) -> Floats:
    """Rounding to a format of at most 24 significant bits, by scaling each value so that
    one unit in the last place of the format is 1 and rounding the scaled value to an
    integer (both exact in f64)."""
    negative = np.signbit(value)
    magnitude = np.abs(value)
    toward_magnitude = np.where(negative, -sign, sign)
    significand, exponent = np.frexp(magnitude)
    # A power of two with a negative residual lies in the binade below.
    exponent = exponent - ((significand == 0.5) & (toward_magnitude < 0))
    unit_exponent = np.maximum(exponent - 1, fmt.min_exponent) - fmt.mantissa
    scaled = np.ldexp(magnitude, -unit_exponent)
    whole = np.floor(scaled)
    fraction = scaled - whole
    # Just below an integer: step down, the fraction is then just below 1.
    borrow = (fraction == 0) & (toward_magnitude < 0)
    whole = whole - borrow
    above_half = (
        (fraction > 0.5) | ((fraction == 0.5) & (toward_magnitude > 0)) | borrow
    )
    tie = (fraction == 0.5) & (toward_magnitude == 0)
    inexact = (fraction != 0) | (toward_magnitude != 0)
    if mode == "rn":
        up = above_half | (tie & (np.fmod(whole, 2) == 1))
    elif mode == "rna":
        up = above_half | tie
    elif mode == "rz":
        up = np.zeros_like(inexact)
    elif mode == "rp":
        up = inexact & ~negative
    elif mode == "rm":
        up = inexact & negative
    else:
        raise NotImplementedError(f"rounding mode .{mode}")
    rounded = np.ldexp(whole + up, unit_exponent)
    rounded = np.where(rounded > fmt.largest, _overflow(fmt, negative, mode), rounded)
    out = np.where(negative, -rounded, rounded)
    return np.where(np.isfinite(value), out, value)


def _overflow(fmt: FloatFormat, negative: Floats, mode: str) -> Floats:
    """|result| past the largest finite value: infinity, unless the mode rounds toward
    zero for this sign."""
    if mode in ("rn", "rna"):
        return np.full(negative.shape, np.inf)
    to_infinity = {"rz": False, "rp": ~negative, "rm": negative}[mode]
    return np.where(to_infinity, np.inf, fmt.largest)


def _round_f64(value: Floats, sign: Floats, mode: str) -> Floats:
    """f64 results: `value` is already the nearest; the directed modes step one unit
    toward the exact result when it lies beyond `value` in their direction."""
    if mode == "rn":
        return value
    if mode == "rp":
        down, up = np.zeros_like(sign, dtype=bool), sign > 0
    elif mode == "rm":
        down, up = sign < 0, np.zeros_like(sign, dtype=bool)
    elif mode == "rz":
        shrinks = np.where(np.signbit(value), sign > 0, sign < 0)
        down, up = shrinks & ~np.signbit(value), shrinks & np.signbit(value)
    else:
        raise NotImplementedError(f"rounding mode .{mode} to f64")
    out = np.where(up, np.nextafter(value, np.inf), value)
    return np.where(down, np.nextafter(value, -np.inf), out)


def canonical_nan(values: Floats, fmt: FloatFormat) -> Floats:
    """NaN values replaced by the canonical NaN of their format."""
    nan = np.isnan(widen(values))
    if not nan.any():
        return values
    bits = values.view(fmt.storage).copy()
    bits[nan] = fmt.nan_bits
    return bits.view(fmt.dtype)


# -- exact arithmetic -----------------------------------------------------------------------------


def two_sum(a: Floats, b: Floats) -> tuple[Floats, Floats]:
    """s = fl(a + b) and its exact error e, a + b = s + e (Knuth's TwoSum; e is 0 where s
    is not finite)."""
    with np.errstate(all="ignore"):
        s = a + b
        bb = s - a
        e = (a - (s - bb)) + (b - bb)
        return s, np.where(np.isfinite(s), e, 0.0)


def arithmetic(op: str, args: list[Floats], fmt: FloatFormat, mode: str) -> Floats:
    """add / sub / mul / fma / div / sqrt of values of `fmt`, correctly rounded in `mode`
    (fma rounded once)."""
    shape = args[0].shape
    if mode == "rn" and op in _NATIVE and fmt.name in ("f16", "f32", "f64"):
        # IEEE arithmetic of numpy's own types is correctly rounded to nearest; f16 is
        # computed in f32, which holds every f16 sum, product and quotient to 2p+2 bits.
        with np.errstate(all="ignore"):
            result = _NATIVE[op](*args)
        return _nan_result(result.astype(fmt.dtype), fmt)
    with np.errstate(all="ignore"):
        flat = [np.asarray(a, dtype=np.float64).reshape(-1) for a in args]
        if fmt.name == "f64":
            value, residual = _f64_result(op, flat)
        else:
            value, residual = _narrow_result(op, flat)
        value = _exact_zero_sign(op, flat, value, residual, mode)
    return round_to_format(value, fmt, mode, residual=residual).reshape(shape)


_NATIVE: dict[str, Callable[..., Floats]] = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "sqrt": np.sqrt,
}


def _narrow_result(op: str, args: list[Floats]) -> tuple[Floats, Floats | None]:
    """The f64 result and residual of values with at most 24 significant bits."""
    if op == "add":
        return two_sum(args[0], args[1])
    if op == "sub":
        return two_sum(args[0], -args[1])
    if op == "mul":
        return args[0] * args[1], None
    if op == "fma":
        return two_sum(args[0] * args[1], args[2])
    if op == "div":
        return args[0] / args[1], None
    if op == "sqrt":
        return np.sqrt(args[0]), None
    raise NotImplementedError(op)


def _f64_result(op: str, args: list[Floats]) -> tuple[Floats, Floats]:
    """The nearest f64 result and the sign of its error (exact rationals where needed)."""
    if op in ("add", "sub"):
        b = args[1] if op == "add" else -args[1]
        value, residual = two_sum(args[0], b)
        return value, _overflow_residual(value, residual, args)
    if op == "fma":
        return _f64_fma(*args)
    value = {
        "mul": lambda: args[0] * args[1],
        "div": lambda: args[0] / args[1],
        "sqrt": lambda: np.sqrt(args[0]),
    }[op]()
    residual = np.zeros_like(value)
    rows = zip(value.tolist(), *(a.tolist() for a in args), strict=True)
    for i, (result, *row) in enumerate(rows):
        if not (np.isfinite(row).all() and (op != "div" or row[1] != 0)):
            continue  # infinities, NaN and division by zero are exact
        residual[i] = _error_sign(op, row, result)
    return value, residual


def _error_sign(op: str, row: list[float], result: float) -> int:
    """The sign of (exact - result) for one finite mul, div or sqrt."""
    x = [Fraction(v) for v in row]
    if op == "sqrt":
        if not np.isfinite(result) or result == 0:
            return 0
        square = Fraction(result) ** 2
        return (x[0] > square) - (x[0] < square)
    exact = x[0] * x[1] if op == "mul" else x[0] / x[1]
    return _compare(exact, result)


def _compare(exact: Fraction, result: float) -> int:
    if np.isinf(result):  # overflowed: the exact value is finite
        return -1 if result > 0 else 1
    return (exact > Fraction(result)) - (exact < Fraction(result))


def _f64_fma(a: Floats, b: Floats, c: Floats) -> tuple[Floats, Floats]:
    """a * b + c for f64, from the exact rational: its nearest f64 and the error's sign."""
    with np.errstate(all="ignore"):
        value = a * b + c  # right wherever an operand is not finite
    residual = np.zeros_like(value)
    for i, row in enumerate(zip(a.tolist(), b.tolist(), c.tolist(), strict=True)):
        if not np.isfinite(row).all():
            continue
        exact = Fraction(row[0]) * Fraction(row[1]) + Fraction(row[2])
        if exact == 0:
            # Zeros of one sign keep it (f64 arithmetic knows); any other zero sum is +0.
            both_zero = row[2] == 0 and (row[0] == 0 or row[1] == 0)
            value[i] = row[0] * row[1] + row[2] if both_zero else 0.0
            continue
        try:
            value[i] = float(exact)  # correctly rounded to nearest
        except OverflowError:
            value[i] = np.inf if exact > 0 else -np.inf
        residual[i] = _compare(exact, float(value[i]))
    return value, residual


def _overflow_residual(value: Floats, residual: Floats, args: list[Floats]) -> Floats:
    """An infinite sum of finite operands overflowed: the exact value is finite."""
    overflow = np.isinf(value) & np.isfinite(args[0]) & np.isfinite(args[1])
    return np.where(overflow, -np.sign(value), residual)


def _exact_zero_sign(
    op: str, args: list[Floats], value: Floats, residual: Floats | None, mode: str
) -> Floats:
    """An exact zero sum is +0, or -0 when rounding toward -inf, unless both addends are
    zeros of one sign (IEEE 754 §6.3). f64 arithmetic gives the +0 case already."""
    if op not in ("add", "sub", "fma") or mode != "rm":
        return value
    first = args[0] * args[1] if op == "fma" else args[0]
    second = args[2] if op == "fma" else (args[1] if op == "add" else -args[1])
    exact_zero = value == 0
    if residual is not None:
        exact_zero &= residual == 0
    both_positive_zeros = (
        (first == 0) & (second == 0) & ~np.signbit(first) & ~np.signbit(second)
    )
    return np.where(exact_zero & ~both_positive_zeros, -0.0, value)


# -- modifiers ------------------------------------------------------------------------------------


def flush_subnormals(x: Floats, fmt: FloatFormat) -> Floats:
    """`.ftz`: subnormal values become zeros of the same sign."""
    x = np.asarray(x)
    with np.errstate(invalid="ignore"):
        tiny = (np.abs(widen(x)) < fmt.min_normal) & (x != 0)
    if not tiny.any():
        return x
    return np.where(tiny, np.copysign(np.zeros_like(x), x), x).astype(x.dtype)


def saturate(x: Floats, fmt: FloatFormat) -> Floats:
    """`.sat`: clamp to [0.0, 1.0], NaN (and -0.0) to +0.0."""
    with np.errstate(invalid="ignore"):
        out = np.where(np.isnan(x) | (x <= 0), 0.0, np.minimum(widen(x), 1.0))
    return out.astype(fmt.dtype)


def relu(x: Floats, fmt: FloatFormat) -> Floats:
    """`.relu`: negative values (and -0.0) become +0.0, NaN the canonical NaN."""
    with np.errstate(invalid="ignore"):
        out = np.where(np.signbit(x) & ~np.isnan(x), np.zeros_like(x), x)
    return canonical_nan(out.astype(fmt.dtype), fmt)


def round_integral(x: Floats, mode: str) -> Floats:
    """A float rounded to an integral value in its own format (`.rni` ... `.rpi`)."""
    fn = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}[mode]
    with np.errstate(invalid="ignore"):
        return fn(widen(x)).astype(x.dtype)


# -- conversions ----------------------------------------------------------------------------------


def convert_float(
    x: Floats, fmt: FloatFormat, mode: str, *, satfinite: bool = False
) -> Floats:
    """A float value of any format converted to `fmt`, rounded once."""
    return round_to_format(widen(x), fmt, mode, satfinite=satfinite)


def integers_to_float(values: Floats, fmt: FloatFormat, mode: str) -> Floats:
    """Integers of any width converted to `fmt`, rounded once: 64-bit values go in as the
    exact sum of their high and low words."""
    if values.dtype.itemsize < 8:
        return round_to_format(values.astype(np.float64), fmt, mode)
    high = (values >> values.dtype.type(32)).astype(np.float64) * 2.0**32
    low = (values & values.dtype.type(0xFFFFFFFF)).astype(np.float64)
    value, residual = two_sum(high, low)
    return round_to_format(value, fmt, mode, residual=residual)


def float_to_integers(
    x: Floats, mode: str, dtype: Any, *, nan_value: int
) -> npt.NDArray[Any]:
    """Round to an integer in `mode` (`rni`, `rzi`, `rmi`, `rpi`) and clamp to `dtype`'s
    range; NaN gives `nan_value`."""
    info = np.iinfo(dtype)
    with np.errstate(invalid="ignore"):
        r = round_integral(widen(x), mode)
        too_small = r < float(info.min)
        too_large = r >= 2.0 ** (info.bits - (info.min < 0))
    nan = np.isnan(r)
    inside = np.where(too_small | too_large | nan, 0.0, r).astype(dtype)
    out = np.where(too_small, info.min, np.where(too_large, info.max, inside))
    return np.where(nan, np.array(nan_value).astype(dtype), out).astype(dtype)
