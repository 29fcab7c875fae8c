"""The `.approx` (and `div.full`) instructions stay within the error the ISA states, and give
the ISA's results on its corner-case tables. The error is measured against the exact
function evaluated in f64, whose own error is far below every bound here.
PTX ISA 9.7.3.13-22 (rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh), 9.7.3.8 (div) and
9.7.4.9-10 (f16 / bf16 tanh and ex2)."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from float_checks import flush, values
from float_reference import (
    BF16,
    F16,
    F32,
    F64,
    FORMATS,
    Format,
    Real,
    decode,
    encode,
    floor_log2,
    is_nan,
    negative,
    round_to,
)
from operand_values import operand_tuples, rng
from ptx_cases import run_cases

INF = math.inf
NAN = math.nan


def ulp(fmt: Format, x: float) -> Fraction:
    magnitude = abs(Fraction(x))
    exponent = fmt.emin if magnitude == 0 else max(floor_log2(magnitude), fmt.emin)
    return Fraction(2) ** (min(exponent, fmt.emax) - fmt.mantissa)


Bound = Callable[[float, float, Fraction], bool]
"""(input, exact result, result) -> within the stated error."""


def ulps(n: float, fmt: Format = F32) -> Bound:
    def within(_x: float, exact: float, got: Fraction) -> bool:
        return abs(got - Fraction(exact)) <= Fraction(n) * ulp(fmt, exact)

    return within


def relative(log2_error: float) -> Bound:
    def within(_x: float, exact: float, got: Fraction) -> bool:
        return abs(got - Fraction(exact)) <= abs(Fraction(exact)) * Fraction(
            2**log2_error
        )

    return within


def absolute(log2_error: float) -> Bound:
    def within(_x: float, exact: float, got: Fraction) -> bool:
        return abs(got - Fraction(exact)) <= Fraction(2**log2_error)

    return within


def check_within(
    label: str,
    fmt: Format,
    got: np.ndarray,
    inputs: list[Real],
    *,
    exact: Callable[[float], float],
    bound: Bound,
    domain: Callable[[Real], bool],
) -> int:
    """Every finite result of an input in `domain` is within the bound; a result past the
    format's range may be infinite. Returns how many cases were checked."""
    wrong: list[str] = []
    checked = 0
    for x, bits in zip(inputs, got.tolist(), strict=True):
        if not domain(x):
            continue
        checked += 1
        want = exact(float(x))
        result = decode(fmt, int(bits))
        if math.isinf(want):
            if result != want:
                wrong.append(f"  {float(x)!r} -> {result!r}, exact {want!r}")
            continue
        if isinstance(result, float):
            beyond_range = abs(Fraction(want)) > fmt.largest * (
                1 - Fraction(1, 2**fmt.mantissa)
            )
            if math.isinf(result) and beyond_range and (result < 0) == (want < 0):
                continue
            if result == 0.0 and bound(float(x), want, Fraction(0)):
                continue
            wrong.append(f"  {float(x)!r} -> {result!r}, exact {want!r}")
            continue
        if not bound(float(x), want, Fraction(result)):
            wrong.append(f"  {float(x)!r} -> {float(result)!r}, exact {want!r}")
    assert not wrong, (
        f"{label}: {len(wrong)} of {checked} outside the stated error\n"
        + "\n".join(wrong[:10])
    )
    return checked


def check_corners(
    label: str, fmt: Format, got: np.ndarray, inputs: list[Real], table: dict[str, Real]
) -> None:
    """The ISA's table of results for -Inf, -0.0, +0.0, +Inf, NaN (and -normal)."""
    seen: set[str] = set()
    for x, bits in zip(inputs, got.tolist(), strict=True):
        key = corner_key(x)
        if key not in table:
            continue
        seen.add(key)
        want, result = table[key], decode(fmt, int(bits))
        if isinstance(want, float) and math.isfinite(want) and want != 0.0:
            want = Fraction(want)
        ok = (
            is_nan(result) if is_nan(want) else encode(fmt, result) == encode(fmt, want)
        )
        assert ok, f"{label}: {key} -> {result!r}, the ISA says {want!r}"
    assert seen == set(table), f"{label}: corner cases not covered: {set(table) - seen}"


def corner_key(x: Real) -> str:
    if is_nan(x):
        return "NaN"
    if isinstance(x, float):
        sign = "-" if negative(x) else "+"
        return f"{sign}Inf" if math.isinf(x) else f"{sign}0.0"
    return "-normal" if x < 0 else "+normal"


def positive(x: Real) -> bool:
    return not isinstance(x, float) and x > 0


def f32_inputs(
    salt: str, count: int = 700, spread: tuple[float, float] | None = None
) -> list[int]:
    bits = [b for (b,) in operand_tuples(F32, 1, salt, count // 2)]
    r = rng(f"approx:{salt}")
    while len(bits) < count:
        if spread is not None:
            value = r.uniform(*spread)
        else:
            value = math.ldexp(r.uniform(-1, 1), r.randint(-140, 127))
        bits.append(encode(F32, round_to(F32, Fraction(value), "rn")))
    return bits


def test_rcp_sqrt_rsqrt_f32() -> None:
    a = f32_inputs("rcp")
    got = run_cases(
        """
        rcp.approx.f32 %rcp, %a;
        rcp.approx.ftz.f32 %rcp_ftz, %a;
        sqrt.approx.f32 %sqrt, %a;
        sqrt.approx.ftz.f32 %sqrt_ftz, %a;
        rsqrt.approx.f32 %rsqrt, %a;
        rsqrt.approx.ftz.f32 %rsqrt_ftz, %a;
        """,
        {"a": ("b32", a)},
        dict.fromkeys(
            ["rcp", "rcp_ftz", "sqrt", "sqrt_ftz", "rsqrt", "rsqrt_ftz"], "b32"
        ),
    )
    xs = values(F32, a)
    # rcp: at most 1 ulp across the full range.
    check_within(
        "rcp.approx.f32",
        F32,
        got["rcp"],
        xs,
        exact=lambda x: 1 / x,
        bound=ulps(1),
        domain=positive_or_negative,
    )
    flushed = [flush(F32, x) for x in xs]
    check_within(
        "rcp.approx.ftz.f32",
        F32,
        got["rcp_ftz"],
        flushed,
        exact=lambda x: 1 / x,
        bound=ftz_result(ulps(1)),
        domain=positive_or_negative,
    )
    check_corners(
        "rcp.approx.f32",
        F32,
        got["rcp"],
        xs,
        {"-Inf": -0.0, "-0.0": -INF, "+0.0": INF, "+Inf": 0.0, "NaN": NAN},
    )
    # sqrt: relative error 2^-23; rsqrt: 2^-22.9, over the positive finite range.
    check_within(
        "sqrt.approx.f32",
        F32,
        got["sqrt"],
        xs,
        exact=math.sqrt,
        bound=relative(-23),
        domain=positive,
    )
    check_within(
        "sqrt.approx.ftz.f32",
        F32,
        got["sqrt_ftz"],
        flushed,
        exact=math.sqrt,
        bound=relative(-23),
        domain=positive,
    )
    sqrt_table: dict[str, Real] = {
        "-Inf": NAN,
        "-normal": NAN,
        "-0.0": -0.0,
        "+0.0": 0.0,
        "+Inf": INF,
        "NaN": NAN,
    }
    check_corners("sqrt.approx.f32", F32, got["sqrt"], xs, sqrt_table)
    check_within(
        "rsqrt.approx.f32",
        F32,
        got["rsqrt"],
        xs,
        exact=lambda x: 1 / math.sqrt(x),
        bound=relative(-22.9),
        domain=positive,
    )
    check_within(
        "rsqrt.approx.ftz.f32",
        F32,
        got["rsqrt_ftz"],
        flushed,
        exact=lambda x: 1 / math.sqrt(x),
        bound=relative(-22.9),
        domain=positive,
    )
    rsqrt_table: dict[str, Real] = {
        "-Inf": NAN,
        "-normal": NAN,
        "-0.0": -INF,
        "+0.0": INF,
        "+Inf": 0.0,
        "NaN": NAN,
    }
    check_corners("rsqrt.approx.f32", F32, got["rsqrt"], xs, rsqrt_table)


def positive_or_negative(x: Real) -> bool:
    return not isinstance(x, float)


def ftz_result(bound: Bound) -> Bound:
    """With `.ftz` a result below the normal range may also be flushed to zero."""

    def within(x: float, exact: float, got: Fraction) -> bool:
        if got == 0 and abs(Fraction(exact)) < F32.min_normal:
            return True
        return bound(x, exact, got)

    return within


def test_transcendentals_f32() -> None:
    a = f32_inputs("trig", 500, spread=(-2 * math.pi, 2 * math.pi))
    a += f32_inputs("trig-wide", 300, spread=(-100 * math.pi, 100 * math.pi))
    a += f32_inputs("exp", 500, spread=(-160, 130))
    a += f32_inputs("log", 400)
    a += [
        encode(F32, round_to(F32, Fraction(v), "rn"))
        for v in np.linspace(0.5, 2, 200).tolist()
    ]
    got = run_cases(
        """
        sin.approx.f32 %sin, %a;
        cos.approx.f32 %cos, %a;
        sin.approx.ftz.f32 %sin_ftz, %a;
        lg2.approx.f32 %lg2, %a;
        lg2.approx.ftz.f32 %lg2_ftz, %a;
        ex2.approx.f32 %ex2, %a;
        ex2.approx.ftz.f32 %ex2_ftz, %a;
        tanh.approx.f32 %tanh, %a;
        """,
        {"a": ("b32", a)},
        dict.fromkeys(
            ["sin", "cos", "sin_ftz", "lg2", "lg2_ftz", "ex2", "ex2_ftz", "tanh"], "b32"
        ),
    )
    xs = values(F32, a)
    two_pi = Fraction(math.pi) * 2

    def within_2pi(x: Real) -> bool:
        return not isinstance(x, float) and abs(x) <= two_pi

    def within_100pi(x: Real) -> bool:
        return not isinstance(x, float) and abs(x) <= 50 * two_pi

    assert (
        check_within(
            "sin.approx.f32",
            F32,
            got["sin"],
            xs,
            exact=math.sin,
            bound=absolute(-20.5),
            domain=within_2pi,
        )
        > 300
    )
    check_within(
        "sin.approx.f32 (100 pi)",
        F32,
        got["sin"],
        xs,
        exact=math.sin,
        bound=absolute(-14.7),
        domain=within_100pi,
    )
    check_within(
        "cos.approx.f32",
        F32,
        got["cos"],
        xs,
        exact=math.cos,
        bound=absolute(-20.5),
        domain=within_2pi,
    )
    check_within(
        "cos.approx.f32 (100 pi)",
        F32,
        got["cos"],
        xs,
        exact=math.cos,
        bound=absolute(-14.7),
        domain=within_100pi,
    )
    check_within(
        "sin.approx.ftz.f32",
        F32,
        got["sin_ftz"],
        [flush(F32, x) for x in xs],
        exact=math.sin,
        bound=absolute(-20.5),
        domain=within_2pi,
    )
    check_corners(
        "sin.approx.f32",
        F32,
        got["sin"],
        xs,
        {"-Inf": NAN, "-0.0": -0.0, "+0.0": 0.0, "+Inf": NAN, "NaN": NAN},
    )
    check_corners(
        "cos.approx.f32",
        F32,
        got["cos"],
        xs,
        {"-Inf": NAN, "-0.0": 1.0, "+0.0": 1.0, "+Inf": NAN, "NaN": NAN},
    )

    def near_one(x: Real) -> bool:
        return not isinstance(x, float) and Fraction(1, 2) < x < 2

    def away_from_one(x: Real) -> bool:
        return positive(x) and not near_one(x)

    assert (
        check_within(
            "lg2.approx.f32 (0.5, 2)",
            F32,
            got["lg2"],
            xs,
            exact=math.log2,
            bound=absolute(-22),
            domain=near_one,
        )
        > 150
    )
    check_within(
        "lg2.approx.f32",
        F32,
        got["lg2"],
        xs,
        exact=math.log2,
        bound=relative(-22),
        domain=away_from_one,
    )
    check_within(
        "lg2.approx.ftz.f32",
        F32,
        got["lg2_ftz"],
        [flush(F32, x) for x in xs],
        exact=math.log2,
        bound=relative(-22),
        domain=away_from_one,
    )
    lg2_table: dict[str, Real] = {
        "-Inf": NAN,
        "-normal": NAN,
        "-0.0": -INF,
        "+0.0": -INF,
        "+Inf": INF,
        "NaN": NAN,
    }
    check_corners("lg2.approx.f32", F32, got["lg2"], xs, lg2_table)

    def ex2(x: float) -> float:
        return math.inf if x >= 1024 else 2.0**x

    check_within(
        "ex2.approx.f32",
        F32,
        got["ex2"],
        xs,
        exact=ex2,
        bound=from_rounded(2),
        domain=finite_real,
    )
    check_within(
        "ex2.approx.ftz.f32",
        F32,
        got["ex2_ftz"],
        [flush(F32, x) for x in xs],
        exact=ex2,
        bound=ftz_result(from_rounded(2)),
        domain=finite_real,
    )
    check_corners(
        "ex2.approx.f32",
        F32,
        got["ex2"],
        xs,
        {"-Inf": 0.0, "-0.0": 1.0, "+0.0": 1.0, "+Inf": INF, "NaN": NAN},
    )
    check_within(
        "tanh.approx.f32",
        F32,
        got["tanh"],
        xs,
        exact=math.tanh,
        bound=relative(-11),
        domain=finite_real,
    )
    check_corners(
        "tanh.approx.f32",
        F32,
        got["tanh"],
        xs,
        {"-Inf": -1.0, "-0.0": -0.0, "+0.0": 0.0, "+Inf": 1.0, "NaN": NAN},
    )


def finite_real(x: Real) -> bool:
    return not isinstance(x, float)


def from_rounded(n: int) -> Bound:
    """At most n ulps from the correctly rounded result."""

    def within(_x: float, exact: float, got: Fraction) -> bool:
        rounded = round_to(F32, Fraction(exact), "rn")
        if isinstance(rounded, float):
            return rounded == 0.0 and got <= n * F32.quantum
        return abs(got - rounded) <= n * ulp(F32, exact)

    return within


def test_div_approx_and_full() -> None:
    """div.approx: 2 ulp for |b| in [2^-126, 2^126]; for 2^126 < |b| < 2^128 a sign-preserving
    zero (NaN if a is infinite). div.full: 2 ulp over the full range."""
    r = rng("divapprox")
    a = [
        encode(
            F32,
            round_to(
                F32, Fraction(math.ldexp(r.uniform(-1, 1), r.randint(-100, 100))), "rn"
            ),
        )
        for _ in range(600)
    ]
    b = [
        encode(
            F32,
            round_to(
                F32, Fraction(math.ldexp(r.uniform(-1, 1), r.randint(-100, 100))), "rn"
            ),
        )
        for _ in range(600)
    ]
    b[:40] = [
        encode(F32, round_to(F32, Fraction(math.ldexp(r.uniform(1, 2), 126)), "rn"))
        | (i % 2) << 31
        for i in range(40)
    ]
    a[:10] = [0x7F800000, 0xFF800000] * 5
    got = run_cases(
        "div.approx.f32 %approx, %a, %b;\ndiv.full.f32 %full, %a, %b;\ndiv.approx.ftz.f32 %approx_ftz, %a, %b;",
        {"a": ("b32", a), "b": ("b32", b)},
        {"approx": "b32", "full": "b32", "approx_ftz": "b32"},
    )
    xs, ys = values(F32, a), values(F32, b)
    huge = Fraction(2) ** 126
    for label in ("approx", "full", "approx_ftz"):
        wrong: list[str] = []
        for x, y, bits in zip(xs, ys, got[label].tolist(), strict=True):
            result = decode(F32, int(bits))
            if label != "full" and isinstance(y, Fraction) and abs(y) > huge:
                ok = _huge_divisor(x, y, result)
            elif isinstance(x, Fraction) and isinstance(y, Fraction):
                ok = _within_2_ulp(x / y, result, flushed=label == "approx_ftz")
            else:
                continue
            if not ok:
                wrong.append(f"  {float(x)!r} / {float(y)!r} -> {result!r}")
        assert not wrong, f"div.{label}.f32: {len(wrong)} wrong\n" + "\n".join(
            wrong[:10]
        )


def _huge_divisor(x: Real, y: Fraction, result: Real) -> bool:
    if is_nan(x) or (isinstance(x, float) and math.isinf(x)):
        return is_nan(result)
    return (
        isinstance(result, float)
        and result == 0.0
        and negative(result) == (negative(x) != negative(y))
    )


def _within_2_ulp(exact: Fraction, result: Real, *, flushed: bool) -> bool:
    if isinstance(result, float):
        if math.isinf(result):
            return abs(exact) > F32.largest and (result < 0) == (exact < 0)
        if flushed and abs(exact) < F32.min_normal:
            return True
        result = Fraction(0)
    return abs(result - exact) <= 2 * ulp(F32, float(exact))


def test_f64_gross_approximations() -> None:
    """rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 use the upper 32 bits of a, leave the low
    32 bits of d zero, flush subnormals and map NaN to 0x7fffffff00000000."""
    a = [b for (b,) in operand_tuples(F64, 1, "gross", 500)]
    got = run_cases(
        "rcp.approx.ftz.f64 %rcp, %a;\nrsqrt.approx.ftz.f64 %rsqrt, %a;\nrsqrt.approx.f64 %rsqrt_full, %a;",
        {"a": ("b64", a)},
        {"rcp": "b64", "rsqrt": "b64", "rsqrt_full": "b64"},
    )
    xs = values(F64, a)
    for label in ("rcp", "rsqrt"):
        assert all(int(v) & 0xFFFFFFFF == 0 for v in got[label]), (
            f"{label}: low word not zero"
        )
        nan_bits = [
            int(v) for x, v in zip(xs, got[label].tolist(), strict=True) if is_nan(x)
        ]
        assert nan_bits, label
        assert all(v == 0x7FFFFFFF00000000 for v in nan_bits), (
            f"{label}: NaN not canonical"
        )
    rcp_table: dict[str, Real] = {"-Inf": -0.0, "-0.0": -INF, "+0.0": INF, "+Inf": 0.0}
    check_corners("rcp.approx.ftz.f64", F64, got["rcp"], xs, rcp_table)
    subnormal = [
        v
        for x, v in zip(xs, got["rcp"].tolist(), strict=True)
        if isinstance(x, Fraction) and abs(x) < F64.min_normal
    ]
    assert subnormal
    assert all(decode(F64, int(v)) in (INF, -INF) for v in subnormal)
    rsqrt_table: dict[str, Real] = {"-Inf": NAN, "-0.0": -INF, "+0.0": INF, "+Inf": 0.0}
    check_corners("rsqrt.approx.ftz.f64", F64, got["rsqrt"], xs, rsqrt_table)
    check_corners(
        "rsqrt.approx.f64",
        F64,
        got["rsqrt_full"],
        xs,
        rsqrt_table | {"-normal": NAN, "NaN": NAN},
    )


@pytest.mark.parametrize("name", ["f16", "bf16"])
def test_half_precision_ex2_tanh(name: str) -> None:
    """ex2: relative error 2^-9.9 (f16), 2^-7 (bf16, which flushes subnormals); tanh:
    absolute error 2^-10.987 (f16), 2^-8 (bf16); the x2 forms work on each half."""
    fmt = FORMATS[name]
    a = [b for (b,) in operand_tuples(fmt, 1, "halfapprox", 600)]
    r = rng(f"halfapprox:{name}")
    a += [
        encode(fmt, round_to(fmt, Fraction(r.uniform(-20, 16)), "rn"))
        for _ in range(400)
    ]
    packed = [lo | (hi << 16) for lo, hi in zip(a, a[::-1], strict=True)]
    ex2 = "ex2.approx.ftz" if fmt is BF16 else "ex2.approx"
    got = run_cases(
        f"{ex2}.{name} %ex2, %a;\ntanh.approx.{name} %tanh, %a;\n{ex2}.{name}x2 %ex2x2, %p;\ntanh.approx.{name}x2 %tanhx2, %p;",
        {"a": ("b16", a), "p": ("b32", packed)},
        {"ex2": "b16", "tanh": "b16", "ex2x2": "b32", "tanhx2": "b32"},
    )
    xs = values(fmt, a)
    ex2_error, tanh_error = (-9.9, -10.987) if fmt is F16 else (-7, -8)
    inputs = [flush(fmt, x) for x in xs] if fmt is BF16 else xs

    def exp2(x: float) -> float:
        return math.inf if x >= 1024 else 2.0**x

    def ex2_bound(x: float, exact: float, got_value: Fraction) -> bool:
        if relative(ex2_error)(x, exact, got_value):
            return True
        # Results below the normal range keep only the format's absolute resolution, and
        # bf16 flushes them to zero.
        if abs(Fraction(exact)) >= fmt.min_normal:
            return False
        return (got_value == 0 and fmt is BF16) or abs(
            got_value - Fraction(exact)
        ) <= fmt.quantum

    for key, packed_key in (("ex2", "ex2x2"), ("tanh", "tanhx2")):
        fn: Callable[[float], float] = exp2 if key == "ex2" else math.tanh
        bound: Bound = ex2_bound if key == "ex2" else absolute(tanh_error)
        check_within(
            f"{key}.{name}",
            fmt,
            got[key],
            inputs,
            exact=fn,
            bound=bound,
            domain=finite_real,
        )
        low = (got[packed_key] & 0xFFFF).astype(np.uint64)
        high = (got[packed_key] >> 16).astype(np.uint64)
        check_within(
            f"{key}.{name}x2 (low)",
            fmt,
            low,
            inputs,
            exact=fn,
            bound=bound,
            domain=finite_real,
        )
        check_within(
            f"{key}.{name}x2 (high)",
            fmt,
            high,
            inputs[::-1],
            exact=fn,
            bound=bound,
            domain=finite_real,
        )
    check_corners(
        f"ex2.{name}",
        fmt,
        got["ex2"],
        xs,
        {"-Inf": 0.0, "-0.0": 1.0, "+0.0": 1.0, "+Inf": INF, "NaN": NAN},
    )
    check_corners(
        f"tanh.{name}",
        fmt,
        got["tanh"],
        xs,
        {"-Inf": -1.0, "-0.0": -0.0, "+0.0": 0.0, "+Inf": 1.0, "NaN": NAN},
    )
