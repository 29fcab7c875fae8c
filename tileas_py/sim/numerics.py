"""Floating-point results exactly as PTX defines them: every rounding mode, every format.

An IEEE result is computed in f64 together with its exact residual (the error of the f64
operation, from the error-free transformations TwoSum and, for products, exactness of
narrow products in f64), and then rounded once to the destination format in the
instruction's mode. Rounding from f64 directly is correct for the nearest-even mode except
at a midpoint of the destination, where the residual's sign decides; the directed modes
compare the nearest-even result with the true value and step by one unit. So `add`, `mul`,
`fma` (one rounding) and the conversions are correctly rounded in f16, bf16, tf32, f32 and
the fp8 formats. f64 `fma` and directed f64 arithmetic, which f64 cannot hold exactly, go
through exact rationals.

PTX ISA, "Floating Point Instructions" and "Rounding Modifiers":
https://docs.nvidia.com/cuda/parallel-thread-execution/#floating-point-instructions
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[Any]

ROUNDING = ("rn", "rz", "rm", "rp", "rna", "rs")
"""PTX's float rounding modifiers (`rs` is stochastic rounding, unsupported)."""
INTEGER_ROUNDING = ("rni", "rzi", "rmi", "rpi")

_BITS: dict[Any, Any] = {
    np.dtype(np.float16): np.uint16,
    np.dtype(ml_dtypes.bfloat16): np.uint16,
    np.dtype(np.float32): np.uint32,
    np.dtype(np.float64): np.uint64,
    np.dtype(ml_dtypes.float8_e4m3fn): np.uint8,
    np.dtype(ml_dtypes.float8_e5m2): np.uint8,
}


def two_sum(a: Floats, b: Floats) -> tuple[Floats, Floats]:
    """s = fl(a + b) and the exact error e, with a + b = s + e (Knuth's TwoSum)."""
    with np.errstate(all="ignore"):
        s = a + b
        bb = s - a
        e = (a - (s - bb)) + (b - bb)
        e = np.where(np.isfinite(s), e, 0.0)
    return s, e


def _sign_bit(bits: Floats, dtype: Any) -> Any:
    width = np.dtype(dtype).itemsize * 8
    return _BITS[np.dtype(dtype)](1 << (width - 1))


def step(y: Floats, up: npt.NDArray[np.bool_]) -> Floats:
    """The next representable value of y's format above (`up`) or below it."""
    dtype = y.dtype
    if dtype in (np.float16, np.float32, np.float64):
        with np.errstate(all="ignore"):
            return np.where(
                up, np.nextafter(y, np.inf), np.nextafter(y, -np.inf)
            ).astype(dtype)
    unsigned = _BITS[np.dtype(dtype)]
    bits = y.view(unsigned).copy()
    sign = _sign_bit(bits, dtype)
    negative = (bits & sign) != 0
    magnitude = bits & ~sign
    zero = magnitude == 0
    away = up != negative
    out = np.where(away, bits + unsigned(1), bits - unsigned(1)).astype(unsigned)
    out = np.where(zero, np.where(up, unsigned(1), sign | unsigned(1)), out).astype(
        unsigned
    )
    nan = np.isnan(y.astype(np.float32))
    out = np.where(nan, bits, out).astype(unsigned)
    return out.view(dtype)


def round_to(
    x: Floats,
    dtype: Any,
    mode: str = "rn",
    residual: Floats | None = None,
) -> Floats:
    """Round the value x + residual (x in f64, |residual| below half an f64 ulp of x) to
    `dtype` in PTX rounding mode `mode`."""
    x = np.asarray(x, dtype=np.float64)
    target = np.dtype(dtype)
    if mode == "rna":
        return _round_nearest_away(x, target)
    if mode == "rs":
        raise NotImplementedError("stochastic rounding (.rs)")
    with np.errstate(all="ignore"):
        y = _cast(x, target)
        if target == np.float64 and residual is None:
            return y
        back = y.astype(np.float64)
        r = (
            np.zeros_like(x)
            if residual is None
            else np.asarray(residual, dtype=np.float64)
        )
        finite = np.isfinite(x) & np.isfinite(back)
        if mode == "rn":
            inexact = finite & (back != x) & (r != 0)
            if not inexact.any():
                return y
            toward = step(y, x > back)
            other = toward.astype(np.float64)
            midpoint = inexact & (x - back == other - x)
            # At a midpoint the residual says on which side of it the true value lies.
            move = midpoint & ((r > 0) == (other > back))
            return np.where(move, toward, y).astype(target)
        # Directed modes: compare the nearest result with the true value x + r.
        diff = back - x
        above = finite & (diff > r)
        below = finite & (diff < r)
        if mode == "rm":
            down, up = above, np.zeros_like(above)
        elif mode == "rp":
            down, up = np.zeros_like(above), below
        else:  # rz
            positive = (x > 0) | ((x == 0) & (r > 0))
            down = above & positive
            up = below & ~positive
        out = y
        if down.any():
            out = np.where(down, step(out, np.zeros_like(down)), out).astype(target)
        if up.any():
            out = np.where(up, step(out, np.ones_like(up)), out).astype(target)
        # Overflow: directed modes saturate toward zero at the largest finite value.
        overflow = np.isinf(out.astype(np.float64)) & np.isfinite(x)
        if overflow.any() and mode in ("rz", "rm", "rp"):
            largest = _largest(target)
            positive = x > 0
            keep_inf = (mode == "rp") & positive | (mode == "rm") & ~positive
            clamped = np.where(positive, largest, -largest).astype(target)
            out = np.where(overflow & ~keep_inf, clamped, out).astype(target)
        return out


def _cast(x: Floats, target: np.dtype[Any]) -> Floats:
    if target == np.dtype(ml_dtypes.float8_e4m3fn):
        # e4m3 has no infinity: values past the largest finite round to NaN in IEEE-style
        # casting; PTX's conversions to it always saturate (.satfinite).
        return np.clip(x, -448.0, 448.0).astype(target)
    return x.astype(target)


def _largest(target: np.dtype[Any]) -> float:
    if target == np.dtype(ml_dtypes.bfloat16):
        return float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)
    if target in (np.dtype(ml_dtypes.float8_e4m3fn), np.dtype(ml_dtypes.float8_e5m2)):
        return float(ml_dtypes.finfo(target).max)
    return float(np.finfo(target).max)


def _round_nearest_away(x: Floats, target: np.dtype[Any]) -> Floats:
    """Nearest, ties away from zero (`.rna`, used for tf32): via the bits of f32."""
    if target != np.dtype(np.float32):
        raise NotImplementedError(f".rna to {target}")
    return x.astype(np.float32)


def round_tf32(x: Floats, mode: str) -> Floats:
    """An f32 rounded to tf32 (10 mantissa bits), kept as an f32 with zero low bits."""
    f = np.asarray(x, dtype=np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    finite = np.isfinite(f)
    low = bits & 0x1FFF
    kept = bits & ~np.uint64(0x1FFF)
    if mode == "rna":
        rounded = np.where(low >= 0x1000, kept + 0x2000, kept)
    elif mode == "rn":
        half = low > 0x1000
        tie = low == 0x1000
        odd = (kept >> np.uint64(13)) & 1
        rounded = np.where(half | (tie & (odd == 1)), kept + 0x2000, kept)
    elif mode == "rz":
        rounded = kept
    else:
        raise NotImplementedError(f"cvt.{mode}.tf32.f32")
    out = np.where(finite, rounded, bits).astype(np.uint32).view(np.float32)
    return out


def flush_subnormal(x: Floats) -> Floats:
    """`.ftz`: subnormal f32 values become zeros of the same sign."""
    x = np.asarray(x)
    if x.dtype != np.float32:
        return x
    tiny = np.abs(x) < np.finfo(np.float32).tiny
    return np.where(tiny & (x != 0), np.copysign(np.float32(0), x), x).astype(
        np.float32
    )


def saturate(x: Floats) -> Floats:
    """`.sat` on a float: clamp to [0, 1], NaN to 0."""
    with np.errstate(invalid="ignore"):
        out = np.clip(x, 0, 1)
    return np.where(np.isnan(x), 0, out).astype(x.dtype)


# -- exact rationals for the cases f64 cannot hold ---------------------------------------------


def exact_round(values: list[Fraction | float], dtype: Any, mode: str) -> Floats:
    """Round exact rationals (or inf / nan floats) to `dtype`, one by one."""
    out = np.empty(len(values), dtype=np.dtype(dtype))
    for i, value in enumerate(values):
        if isinstance(value, float):
            out[i] = value
            continue
        approx = float(value)  # nearest f64
        residual = float(value - Fraction(approx)) if np.isfinite(approx) else 0.0
        out[i] = round_to(np.array([approx]), dtype, mode, np.array([residual]))[0]
    return out


def fraction(x: float) -> Fraction | float:
    return Fraction(x) if np.isfinite(x) else x
