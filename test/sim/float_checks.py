"""Comparing the simulator's float results, as bits, with the exact reference."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from float_reference import Format, Real, decode, encode, is_nan, is_zero, negative

Expected = Real | None
"""What PTX defines for one case; None where it leaves the result unspecified."""

REGISTER = {8: "b16", 16: "b16", 32: "b32", 64: "b64"}


def register(fmt: Format) -> str:
    return REGISTER[fmt.bits]


def matches(fmt: Format, bits: int, expected: Real) -> bool:
    """NaN matches any NaN (PTX leaves the payload unspecified); everything else, the bits."""
    if is_nan(expected):
        return is_nan(decode(fmt, bits))
    return bits == encode(fmt, expected)


def assert_results(
    label: str,
    fmt: Format,
    got: npt.NDArray[np.unsignedinteger],
    expected: Sequence[Expected],
    operands: Sequence[Sequence[int]],
    *,
    compare: Callable[[Format, int, Real], bool] = matches,
) -> None:
    """Every case whose result PTX defines agrees; the message shows the first few that
    do not, with their operands."""
    assert len(got) == len(expected)
    wrong: list[str] = []
    for i, (bits, want) in enumerate(zip(got.tolist(), expected, strict=True)):
        if want is None or compare(fmt, int(bits), want):
            continue
        shown = ", ".join(hex(op[i]) for op in operands)
        want_text = "nan" if is_nan(want) else hex(encode(fmt, want))
        wrong.append(f"  ({shown}) -> {int(bits):#x}, expected {want_text}")
    assert not wrong, f"{label}: {len(wrong)} of {len(expected)} wrong\n" + "\n".join(
        wrong[:10]
    )


def flush(fmt: Format, x: Real) -> Real:
    """`.ftz`: a subnormal becomes a zero of the same sign."""
    if isinstance(x, Fraction) and abs(x) < fmt.min_normal:
        return -0.0 if x < 0 else 0.0
    return x


def saturate(x: Real) -> Expected:
    """`.sat`: clamp to [0, 1], NaN to +0. PTX does not say what -0.0 becomes."""
    if is_nan(x):
        return 0.0
    if is_zero(x) and negative(x):
        return None
    if negative(x):
        return 0.0
    if (not isinstance(x, float) and x > 1) or (isinstance(x, float) and x > 1):
        return Fraction(1)
    return x


def relu(x: Real) -> Expected:
    """`.relu`: negative results become 0, NaN the canonical NaN; PTX does not say whether
    -0.0 counts as negative."""
    if is_nan(x):
        return x
    if is_zero(x) and negative(x):
        return None
    return 0.0 if negative(x) else x


def canonical_nan(fmt: Format, bits: int, expected: Real) -> bool:
    """Where PTX promises the canonical NaN, the bits must be it."""
    if is_nan(expected):
        return bits == fmt.canonical_nan
    return matches(fmt, bits, expected)


def values(fmt: Format, bits: Sequence[int]) -> list[Real]:
    return [decode(fmt, b) for b in bits]


def as_float(x: Real) -> float:
    return float(x) if not isinstance(x, float) else x


def finite(x: Real) -> bool:
    return not isinstance(x, float) or math.isfinite(x)
