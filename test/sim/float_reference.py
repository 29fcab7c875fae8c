"""An exact reference for binary floating point: decode bits to rationals, do the arithmetic
exactly, and round back in any IEEE 754 mode, written from the standard's definitions
(and none of the simulator's code), to check the simulator's results bit for bit.

A value is a `Fraction` when finite and non-zero, and a Python float otherwise (±0.0, ±inf
and NaN), so that signed zeros and the specials keep their meaning.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

Real = Fraction | float

MODES = ("rn", "rz", "rm", "rp", "rna")


@dataclass(frozen=True)
class Format:
    """A binary format: `exponent` and `mantissa` field widths; `ieee` formats keep their
    largest exponent for infinities and NaNs, the others (e4m3) only S.1111.111 for NaN.
    `shift`: zero bits below the mantissa in the stored word (13 for tf32)."""

    name: str
    exponent: int
    mantissa: int
    ieee: bool = True
    shift: int = 0

    @property
    def bits(self) -> int:
        return 1 + self.exponent + self.mantissa + self.shift

    @property
    def bias(self) -> int:
        return (1 << (self.exponent - 1)) - 1

    @property
    def emin(self) -> int:
        return 1 - self.bias

    @property
    def emax(self) -> int:
        top = (1 << self.exponent) - 1
        return (top - 1 if self.ieee else top) - self.bias

    @cached_property
    def largest(self) -> Fraction:
        top = (1 << (self.mantissa + 1)) - (1 if self.ieee else 2)
        return Fraction(top, 1 << self.mantissa) * Fraction(2) ** self.emax

    @cached_property
    def min_normal(self) -> Fraction:
        return Fraction(2) ** self.emin

    @cached_property
    def quantum(self) -> Fraction:
        """The smallest subnormal."""
        return Fraction(2) ** (self.emin - self.mantissa)

    @property
    def sign_bit(self) -> int:
        return 1 << (self.bits - 1)

    @property
    def canonical_nan(self) -> int:
        """0x7fff... (f32 0x7fffffff): sign clear, every other bit set."""
        return (self.sign_bit - 1) & ~((1 << self.shift) - 1)


F16 = Format("f16", 5, 10)
BF16 = Format("bf16", 8, 7)
TF32 = Format("tf32", 8, 10, shift=13)
F32 = Format("f32", 8, 23)
F64 = Format("f64", 11, 52)
E4M3 = Format("e4m3", 4, 3, ieee=False)
E5M2 = Format("e5m2", 5, 2)

FORMATS = {f.name: f for f in (F16, BF16, TF32, F32, F64, E4M3, E5M2)}


# -- bits <-> values --------------------------------------------------------------------------


def decode(fmt: Format, bits: int) -> Real:
    bits >>= fmt.shift
    negative = bool(bits >> (fmt.exponent + fmt.mantissa))
    field = (bits >> fmt.mantissa) & ((1 << fmt.exponent) - 1)
    fraction = bits & ((1 << fmt.mantissa) - 1)
    top = (1 << fmt.exponent) - 1
    if fmt.ieee and field == top:
        if fraction:
            return math.nan
        return -math.inf if negative else math.inf
    if not fmt.ieee and field == top and fraction == (1 << fmt.mantissa) - 1:
        return math.nan
    if field == 0 and fraction == 0:
        return -0.0 if negative else 0.0
    significand = fraction if field == 0 else (1 << fmt.mantissa) | fraction
    magnitude = scaled(significand, max(field, 1) - fmt.bias - fmt.mantissa)
    return -magnitude if negative else magnitude


def scaled(integer: int, exponent: int) -> Fraction:
    """integer * 2^exponent."""
    if exponent >= 0:
        return Fraction(integer << exponent)
    return Fraction(integer, 1 << -exponent)


def encode(fmt: Format, value: Real) -> int:
    """The bits of a value the format holds exactly (NaN: the canonical NaN)."""
    if isinstance(value, float):
        if math.isnan(value):
            return fmt.canonical_nan
        sign = fmt.sign_bit if math.copysign(1.0, value) < 0 else 0
        if math.isinf(value):
            assert fmt.ieee
            return sign | (((1 << fmt.exponent) - 1) << (fmt.mantissa + fmt.shift))
        return sign
    sign = fmt.sign_bit if value < 0 else 0
    magnitude = abs(value)
    exponent = max(floor_log2(magnitude), fmt.emin)
    significand = magnitude / scaled(1, exponent - fmt.mantissa)
    assert significand.denominator == 1
    field = exponent + fmt.bias if significand.numerator >> fmt.mantissa else 0
    fraction = significand.numerator & ((1 << fmt.mantissa) - 1)
    return sign | (((field << fmt.mantissa) | fraction) << fmt.shift)


def floor_log2(x: Fraction | int) -> int:
    x = Fraction(x)
    n, d = x.numerator, x.denominator
    e = n.bit_length() - d.bit_length()
    # 2^e > x, i.e. d * 2^e > n: the leading bits did not reach.
    if (d << e if e >= 0 else d) > (n if e >= 0 else n << -e):
        e -= 1
    return e


# -- rounding ---------------------------------------------------------------------------------


def round_to(fmt: Format, value: Real, mode: str, *, satfinite: bool = False) -> Real:
    """IEEE 754 rounding of an exact value to `fmt` in `mode` (rn: ties to even, rna: ties
    away from zero), with overflow as the standard defines it, or clamped to the largest
    finite value with `satfinite` (which also maps infinities there)."""
    if isinstance(value, float):
        if math.isinf(value) and satfinite:
            return _largest(fmt, value < 0)
        if math.isinf(value) and not fmt.ieee:
            return math.nan
        return value
    is_negative = value < 0
    n, d = abs(value.numerator), value.denominator
    unit = max(floor_log2(abs(value)), fmt.emin) - fmt.mantissa
    # |value| / 2^unit = low + rest / d', with 0 <= rest < d'.
    if unit >= 0:
        low, rest = divmod(n, d << unit)
        whole = d << unit
    else:
        low, rest = divmod(n << -unit, d)
        whole = d
    if mode == "rn":
        up = 2 * rest > whole or (2 * rest == whole and low % 2 == 1)
    elif mode == "rna":
        up = 2 * rest >= whole
    elif mode == "rz":
        up = False
    elif mode == "rp":
        up = rest > 0 and not is_negative
    elif mode == "rm":
        up = rest > 0 and is_negative
    else:
        raise ValueError(mode)
    rounded = scaled(low + up, unit)
    if rounded > fmt.largest:
        return _overflow(fmt, is_negative, mode, satfinite)
    if rounded == 0:
        return -0.0 if is_negative else 0.0
    return -rounded if is_negative else rounded


def _overflow(fmt: Format, negative: bool, mode: str, satfinite: bool) -> Real:
    toward_infinity = mode in ("rn", "rna") or (mode == "rp" and not negative)
    toward_infinity = toward_infinity or (mode == "rm" and negative)
    if satfinite or not toward_infinity:
        return _largest(fmt, negative)
    if not fmt.ieee:
        return math.nan
    return -math.inf if negative else math.inf


def _largest(fmt: Format, negative: bool) -> Fraction:
    return -fmt.largest if negative else fmt.largest


def round_bits(fmt: Format, value: Real, mode: str, *, satfinite: bool = False) -> int:
    return encode(fmt, round_to(fmt, value, mode, satfinite=satfinite))


# -- exact arithmetic -------------------------------------------------------------------------


def is_nan(x: Real) -> bool:
    return isinstance(x, float) and math.isnan(x)


def is_zero(x: Real) -> bool:
    return isinstance(x, float) and x == 0.0


def negative(x: Real) -> bool:
    if isinstance(x, float):
        return math.copysign(1.0, x) < 0
    return x < 0


def add(x: Real, y: Real, mode: str) -> Real:
    """x + y exactly; an exact zero sum of operands of different signs is +0, or -0 when
    rounding toward -inf (IEEE 754 §6.3)."""
    if is_nan(x) or is_nan(y):
        return math.nan
    if _infinite(x) and _infinite(y):
        return x if negative(x) == negative(y) else math.nan
    if _infinite(x) or _infinite(y):
        return x if _infinite(x) else y
    if is_zero(x) and is_zero(y) and negative(x) == negative(y):
        return x
    total = Fraction(x) + Fraction(y)
    if total == 0:
        return -0.0 if mode == "rm" else 0.0
    return total


def mul(x: Real, y: Real) -> Real:
    if isinstance(x, float) or isinstance(y, float):
        if is_nan(x) or is_nan(y):
            return math.nan
        sign = negative(x) != negative(y)
        if (is_zero(x) and _infinite(y)) or (_infinite(x) and is_zero(y)):
            return math.nan
        if _infinite(x) or _infinite(y):
            return -math.inf if sign else math.inf
        return -0.0 if sign else 0.0
    return x * y


def fma(x: Real, y: Real, z: Real, mode: str) -> Real:
    """x * y + z with no rounding in between."""
    return add(mul(x, y), z, mode)


def div(x: Real, y: Real) -> Real:
    if is_nan(x) or is_nan(y):
        return math.nan
    sign = negative(x) != negative(y)
    if (_infinite(x) and _infinite(y)) or (is_zero(x) and is_zero(y)):
        return math.nan
    if _infinite(x) or is_zero(y):
        return -math.inf if sign else math.inf
    if _infinite(y) or is_zero(x):
        return -0.0 if sign else 0.0
    return Fraction(x) / Fraction(y)


def _infinite(x: Real) -> bool:
    return isinstance(x, float) and math.isinf(x)


def sqrt_rounded(fmt: Format, x: Real, mode: str) -> Real:
    """sqrt(x) rounded in `mode`: bisection on exact squares, since sqrt is irrational."""
    if isinstance(x, float):
        if is_nan(x) or (x < 0 and not is_zero(x)):
            return math.nan
        return x  # ±0, +inf
    if x < 0:
        return math.nan
    # The two representable neighbours of sqrt(x): step from a float estimate.
    guess = round_to(fmt, Fraction(math.sqrt(float(x))), "rz")
    assert isinstance(guess, Fraction)
    below = guess
    while below * below > x:
        below = _step(fmt, below, down=True)
    while (above := _step(fmt, below, down=False)) * above <= x:
        below = above
    if below * below == x:
        return below
    above = _step(fmt, below, down=False)
    if mode in ("rz", "rm"):
        return below
    if mode == "rp":
        return above
    midpoint = (below + above) / 2
    if midpoint * midpoint != x:
        return below if midpoint * midpoint > x else above
    raise AssertionError("a square root is never a midpoint")


def _step(fmt: Format, x: Fraction, *, down: bool) -> Fraction:
    bits = encode(fmt, x) >> fmt.shift
    bits = bits - 1 if down else bits + 1
    value = decode(fmt, bits << fmt.shift)
    assert isinstance(value, Fraction)
    return value


def ulps_between(fmt: Format, got: Real, exact: float) -> float:
    """How many units in the last place of `exact` separate `got` from it."""
    if isinstance(got, float):
        return 0.0 if got == exact else math.inf
    magnitude = abs(Fraction(exact))
    if magnitude == 0:
        return float(abs(got) / fmt.quantum)
    exponent = max(floor_log2(magnitude), fmt.emin)
    ulp = Fraction(2) ** (exponent - fmt.mantissa)
    return float(abs(got - Fraction(exact)) / ulp)
