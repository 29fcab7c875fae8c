"""`cvt` in every direction, checked bit for bit against exact references: float narrowing
in each rounding mode (with `.ftz`, `.sat`, `.relu`, `.satfinite`), tf32 and the fp8
formats, packing into and out of f16x2 / bf16x2 / e4m3x2 / e5m2x2, float to integer with the
integer rounding modes, saturation and PTX's NaN rule, integer to float, integer to integer
with and without `.sat`, and rounding a float to an integral value.
PTX ISA: "Data Movement and Conversion Instructions: cvt" (9.7.9.21)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from float_checks import (
    Expected,
    assert_results,
    canonical_nan,
    flush,
    register,
    relu,
    saturate,
    values,
)
from float_reference import (
    BF16,
    E4M3,
    E5M2,
    F16,
    F32,
    F64,
    FORMATS,
    TF32,
    Format,
    Real,
    encode,
    is_nan,
    negative,
    round_to,
)
from operand_values import operand_tuples, rng
from ptx_cases import run_cases

MODES = ("rn", "rz", "rm", "rp")


def narrowing_cases(source: Format, count: int) -> list[int]:
    """Source values, including every rounding tie and the range limits of the narrow
    formats (built as exact rationals, rounded toward zero into the source)."""
    bits = [b for (b,) in operand_tuples(source, 1, "narrow", count // 2)]
    r = rng(f"narrow:{source.name}")
    for target in (F16, BF16, E4M3, E5M2, TF32, F32):
        if target.bits >= source.bits and target is not TF32:
            continue
        for _ in range(count // 12):
            # A value of the target with one or two extra bits: ties and near-ties.
            exponent = r.randint(target.emin - target.mantissa - 2, target.emax + 1)
            steps = r.getrandbits(target.mantissa + 3) | (1 << (target.mantissa + 2))
            value = (
                Fraction(steps, 1 << (target.mantissa + 2)) * Fraction(2) ** exponent
            )
            if r.random() < 0.3:
                value += Fraction(2) ** (exponent - target.mantissa - 20)
            rounded = round_to(source, -value if r.random() < 0.5 else value, "rz")
            bits.append(_bits(source, rounded))
    return bits


def _bits(fmt: Format, value: Real) -> int:
    return encode(fmt, value)


def convert(
    source: Real,
    target: Format,
    mode: str,
    *,
    ftz: bool = False,
    sat: bool = False,
    relu_: bool = False,
    satfinite: bool = False,
) -> Expected:
    x = flush(F32, source) if ftz else source
    r: Expected = round_to(target, x, mode, satfinite=satfinite)
    if ftz and target is F32:
        r = flush(F32, r)
    if relu_:
        r = relu(r)
    if sat and r is not None:
        r = saturate(r)
    return r


@pytest.mark.parametrize(
    ("source", "targets"),
    [("f32", ["f16", "bf16"]), ("f64", ["f32", "f16", "bf16"]), ("f16", ["bf16"])],
)
def test_float_narrowing_in_every_mode(source: str, targets: list[str]) -> None:
    src = FORMATS[source]
    a = narrowing_cases(src, 1400)
    body: list[str] = []
    outputs: dict[str, str] = {}
    for target in targets:
        for mode in MODES:
            name = f"{target}_{mode}"
            body.append(f"cvt.{mode}.{target}.{source} %{name}, %a;")
            outputs[name] = register(FORMATS[target])
    got = run_cases("\n".join(body), {"a": (register(src), a)}, outputs)
    xs = values(src, a)
    for target in targets:
        fmt = FORMATS[target]
        for mode in MODES:
            expected = [convert(x, fmt, mode) for x in xs]
            assert_results(
                f"cvt.{mode}.{target}.{source}",
                fmt,
                got[f"{target}_{mode}"],
                expected,
                [a],
            )


def test_narrowing_modifiers() -> None:
    """`.ftz` (f32 inputs and results), `.sat` ([0, 1], NaN to +0), `.relu` (negatives to 0,
    NaN to the canonical NaN) and `.satfinite` (overflow and infinities to the largest
    finite value, NaN stays NaN)."""
    a = narrowing_cases(F32, 1200)
    plan: dict[str, tuple[str, Format, dict[str, bool], str]] = {
        "f16_sat": ("cvt.rn.sat.f16.f32", F16, {"sat": True}, "rn"),
        "f16_relu": ("cvt.rz.relu.f16.f32", F16, {"relu_": True}, "rz"),
        "f16_satfinite": ("cvt.rn.satfinite.f16.f32", F16, {"satfinite": True}, "rn"),
        "f16_relu_satfinite": (
            "cvt.rn.relu.satfinite.f16.f32",
            F16,
            {"relu_": True, "satfinite": True},
            "rn",
        ),
        "bf16_relu": ("cvt.rn.relu.bf16.f32", BF16, {"relu_": True}, "rn"),
        "bf16_satfinite": (
            "cvt.rz.satfinite.bf16.f32",
            BF16,
            {"satfinite": True},
            "rz",
        ),
        "f32_ftz": ("cvt.ftz.f32.f32", F32, {"ftz": True}, "rn"),
        "f32_sat": ("cvt.sat.f32.f32", F32, {"sat": True}, "rn"),
        "f16_ftz": ("cvt.rn.ftz.f16.f32", F16, {"ftz": True}, "rn"),
    }
    body = "\n".join(f"{inst} %{out}, %a;" for out, (inst, *_) in plan.items())
    got = run_cases(
        body,
        {"a": ("b32", a)},
        {out: register(fmt) for out, (_, fmt, _, _) in plan.items()},
    )
    xs = values(F32, a)
    for out, (inst, fmt, flags, mode) in plan.items():
        expected = [convert(x, fmt, mode, **flags) for x in xs]
        compare = canonical_nan if flags.get("relu_") else None
        kwargs = {"compare": compare} if compare else {}
        assert_results(inst, fmt, got[out], expected, [a], **kwargs)


def test_tf32() -> None:
    """cvt.rna.tf32.f32 rounds to 10 mantissa bits, ties away from zero, and keeps the result
    in an f32 container whose low 13 bits are zero; .rn and .rz (sm_90) likewise."""
    a = narrowing_cases(F32, 1200)
    plan: dict[str, tuple[str, str, dict[str, bool]]] = {
        "rna": ("cvt.rna.tf32.f32", "rna", {}),
        "rna_satfinite": ("cvt.rna.satfinite.tf32.f32", "rna", {"satfinite": True}),
        "rn": ("cvt.rn.tf32.f32", "rn", {}),
        "rz_relu": ("cvt.rz.relu.tf32.f32", "rz", {"relu_": True}),
    }
    body = "\n".join(f"{inst} %{out}, %a;" for out, (inst, _, _) in plan.items())
    got = run_cases(body, {"a": ("b32", a)}, {out: "b32" for out in plan})
    xs = values(F32, a)
    for out, (inst, mode, flags) in plan.items():
        expected = [convert(x, TF32, mode, **flags) for x in xs]
        # Non-NaN results compare as whole words: their low 13 bits must be zero.
        assert_results(inst, TF32, got[out], expected, [a])


def test_widening_is_exact() -> None:
    f16 = [b for (b,) in operand_tuples(F16, 1, "widen", 300)]
    bf16 = [b for (b,) in operand_tuples(BF16, 1, "widen", 300)]
    f32 = [b for (b,) in operand_tuples(F32, 1, "widen", 300)]
    got = run_cases(
        """
        cvt.f32.f16 %f32_f16, %h;
        cvt.f64.f16 %f64_f16, %h;
        cvt.f32.bf16 %f32_bf16, %g;
        cvt.f64.f32 %f64_f32, %s;
        cvt.ftz.f64.f32 %f64_f32_ftz, %s;
        """,
        {"h": ("b16", f16), "g": ("b16", bf16), "s": ("b32", f32)},
        {
            "f32_f16": "b32",
            "f64_f16": "b64",
            "f32_bf16": "b32",
            "f64_f32": "b64",
            "f64_f32_ftz": "b64",
        },
    )
    assert_results("cvt.f32.f16", F32, got["f32_f16"], values(F16, f16), [f16])
    assert_results("cvt.f64.f16", F64, got["f64_f16"], values(F16, f16), [f16])
    assert_results("cvt.f32.bf16", F32, got["f32_bf16"], values(BF16, bf16), [bf16])
    assert_results("cvt.f64.f32", F64, got["f64_f32"], values(F32, f32), [f32])
    flushed = [flush(F32, x) for x in values(F32, f32)]
    assert_results("cvt.ftz.f64.f32", F64, got["f64_f32_ftz"], flushed, [f32])


# -- packed conversions ---------------------------------------------------------------------


def _half(bits: np.ndarray, index: int, width: int) -> np.ndarray:
    return (bits.astype(np.uint64) >> np.uint64(index * width)) & np.uint64(
        (1 << width) - 1
    )


def test_pack_two_f32() -> None:
    """cvt.*.{f16x2,bf16x2,e4m3x2,e5m2x2}.f32 d, a, b puts a in the upper half, b in the lower."""
    cases = narrowing_cases(F32, 1000)
    a = cases
    b = cases[::-1]
    plan: dict[str, tuple[str, Format, int, str, dict[str, bool]]] = {
        "f16x2": ("cvt.rn.f16x2.f32", F16, 16, "rn", {}),
        "f16x2_rz_relu": (
            "cvt.rz.relu.satfinite.f16x2.f32",
            F16,
            16,
            "rz",
            {"relu_": True, "satfinite": True},
        ),
        "bf16x2": ("cvt.rn.bf16x2.f32", BF16, 16, "rn", {}),
        "bf16x2_rz": (
            "cvt.rz.satfinite.bf16x2.f32",
            BF16,
            16,
            "rz",
            {"satfinite": True},
        ),
        "e4m3x2": ("cvt.rn.satfinite.e4m3x2.f32", E4M3, 8, "rn", {"satfinite": True}),
        "e4m3x2_relu": (
            "cvt.rn.satfinite.relu.e4m3x2.f32",
            E4M3,
            8,
            "rn",
            {"satfinite": True, "relu_": True},
        ),
        "e5m2x2": ("cvt.rn.satfinite.e5m2x2.f32", E5M2, 8, "rn", {"satfinite": True}),
    }
    body = "\n".join(f"{inst} %{out}, %a, %b;" for out, (inst, *_) in plan.items())
    got = run_cases(
        body,
        {"a": ("b32", a), "b": ("b32", b)},
        {
            out: "b32" if width == 16 else "b16"
            for out, (_, _, width, _, _) in plan.items()
        },
    )
    xa, xb = values(F32, a), values(F32, b)
    for out, (inst, fmt, width, mode, flags) in plan.items():
        compare = canonical_nan if flags.get("relu_") else None
        kwargs = {"compare": compare} if compare else {}
        high = [convert(x, fmt, mode, **flags) for x in xa]
        low = [convert(x, fmt, mode, **flags) for x in xb]
        assert_results(
            f"{inst} (upper: a)", fmt, _half(got[out], 1, width), high, [a], **kwargs
        )
        assert_results(
            f"{inst} (lower: b)", fmt, _half(got[out], 0, width), low, [b], **kwargs
        )


def test_fp8_pairs_to_and_from_f16x2() -> None:
    """e4m3x2 / e5m2x2 -> f16x2 is exact for every byte; f16x2 -> fp8 rounds each half."""
    every_byte = list(range(256))
    pairs = [
        lo | (hi << 8) for lo, hi in zip(every_byte, every_byte[::-1], strict=True)
    ]
    halves = [b for (b,) in operand_tuples(F16, 1, "tofp8", 600)]
    packed = [lo | (hi << 16) for lo, hi in zip(halves, halves[::-1], strict=True)]
    got = run_cases(
        """
        cvt.rn.f16x2.e4m3x2 %from_e4m3, %p;
        cvt.rn.f16x2.e5m2x2 %from_e5m2, %p;
        cvt.rn.relu.f16x2.e4m3x2 %from_e4m3_relu, %p;
        """,
        {"p": ("b16", pairs)},
        {"from_e4m3": "b32", "from_e5m2": "b32", "from_e4m3_relu": "b32"},
    )
    for out, fmt, post in (
        ("from_e4m3", E4M3, None),
        ("from_e5m2", E5M2, None),
        ("from_e4m3_relu", E4M3, relu),
    ):
        for index in (0, 1):
            source = [(p >> (8 * index)) & 0xFF for p in pairs]
            expected: list[Expected] = [
                post(x) if post else x for x in values(fmt, source)
            ]
            assert_results(
                f"cvt {out} half {index}",
                F16,
                _half(got[out], index, 16),
                expected,
                [source],
            )
    got = run_cases(
        """
        cvt.rn.satfinite.e4m3x2.f16x2 %to_e4m3, %h;
        cvt.rn.satfinite.e5m2x2.f16x2 %to_e5m2, %h;
        """,
        {"h": ("b32", packed)},
        {"to_e4m3": "b16", "to_e5m2": "b16"},
    )
    for out, fmt in (("to_e4m3", E4M3), ("to_e5m2", E5M2)):
        for index in (0, 1):
            source = [(p >> (16 * index)) & 0xFFFF for p in packed]
            expected = [
                convert(x, fmt, "rn", satfinite=True) for x in values(F16, source)
            ]
            assert_results(
                f"cvt {out} half {index}",
                fmt,
                _half(got[out], index, 8),
                expected,
                [source],
            )


# -- float <-> integer ------------------------------------------------------------------------

INTEGER_MODES = {"rni": "rn", "rzi": "rz", "rmi": "rm", "rpi": "rp"}


def integral(x: Fraction | int, mode: str) -> int:
    if mode == "rni":
        return round(x)  # Python rounds halves to even
    if mode == "rzi":
        return math.trunc(x)
    if mode == "rmi":
        return math.floor(x)
    return math.ceil(x)


def float_to_int(x: Real, source: Format, bits: int, signed: bool, mode: str) -> int:
    """Round to an integer, clamp to the destination's range; NaN gives 0, except from f64
    or into a 64-bit type, where it gives 1 << (bits - 1)."""
    low, high = (
        (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    )
    if is_nan(x):
        return 1 << (bits - 1) if source is F64 or bits == 64 else 0
    if isinstance(x, float):
        value = (low if x < 0 else high) if math.isinf(x) else 0
    else:
        value = integral(x, mode)
    return min(max(value, low), high) & ((1 << bits) - 1)


def extend(value: int, bits: int, signed: bool, register_bits: int) -> int:
    """The register's bits after writing a `bits`-wide result: sign-extended for signed types."""
    value &= (1 << bits) - 1
    if signed and value >> (bits - 1):
        value -= 1 << bits
    return value & ((1 << register_bits) - 1)


INT_TYPES = [f"{kind}{bits}" for bits in (8, 16, 32, 64) for kind in ("s", "u")]


def reg_bits(bits: int) -> int:
    return max(bits, 16)


@pytest.mark.parametrize("source", ["f32", "f64", "f16", "bf16"])
def test_float_to_int(source: str) -> None:
    src = FORMATS[source]
    a = [b for (b,) in operand_tuples(src, 1, "toint", 500)]
    r = rng(f"toint:{source}")
    # Values around every integer range limit and halfway cases.
    for bits in (8, 16, 32, 64):
        for edge in (1 << (bits - 1), 1 << bits):
            for delta in (-1, -Fraction(1, 2), 0, Fraction(1, 2), 1):
                for sign in (1, -1):
                    a.append(_bits(src, round_to(src, sign * (edge + delta), "rn")))
    for _ in range(200):
        a.append(
            _bits(
                src,
                round_to(
                    src,
                    Fraction(r.randint(-40, 40), 2) + r.choice([0, Fraction(1, 2**20)]),
                    "rn",
                ),
            )
        )
    body: list[str] = []
    outputs: dict[str, str] = {}
    for dest in INT_TYPES:
        for mode in INTEGER_MODES:
            body.append(f"cvt.{mode}.{dest}.{source} %{dest}_{mode}, %a;")
            outputs[f"{dest}_{mode}"] = f"b{reg_bits(int(dest[1:]))}"
    if source == "f32":
        body.append("cvt.rzi.ftz.s32.f32 %ftz, %a;")
        outputs["ftz"] = "b32"
    got = run_cases("\n".join(body), {"a": (register(src), a)}, outputs)
    xs = values(src, a)
    for dest in INT_TYPES:
        bits, signed = int(dest[1:]), dest[0] == "s"
        for mode in INTEGER_MODES:
            expected = [
                extend(
                    float_to_int(x, src, bits, signed, mode),
                    bits,
                    signed,
                    reg_bits(bits),
                )
                for x in xs
            ]
            _assert_ints(
                f"cvt.{mode}.{dest}.{source}", got[f"{dest}_{mode}"], expected, a
            )
    if source == "f32":
        expected = [float_to_int(flush(F32, x), F32, 32, True, "rzi") for x in xs]
        _assert_ints("cvt.rzi.ftz.s32.f32", got["ftz"], expected, a)


def _assert_ints(
    label: str, got: np.ndarray, expected: list[int], operands: list[int]
) -> None:
    wrong = [
        f"  {op:#x} -> {int(g):#x}, expected {e:#x}"
        for op, g, e in zip(operands, got.tolist(), expected, strict=True)
        if int(g) != e
    ]
    assert not wrong, f"{label}: {len(wrong)} of {len(expected)} wrong\n" + "\n".join(
        wrong[:10]
    )


def int_values(bits: int, count: int, salt: str) -> list[int]:
    """Unsigned patterns of `bits` bits: the limits, small values and random ones, many
    beyond 2^p of the narrow float formats so that every mode rounds differently."""
    r = rng(f"int:{bits}:{salt}")
    mask = (1 << bits) - 1
    edges = [
        0,
        1,
        2,
        3,
        mask,
        mask - 1,
        1 << (bits - 1),
        (1 << (bits - 1)) - 1,
        (1 << (bits - 1)) + 1,
    ]
    out = [e & mask for e in edges]
    while len(out) < count:
        width = r.randint(1, bits)
        out.append(r.getrandbits(width) & mask)
        if r.random() < 0.5:  # negative values of the signed reading
            out.append((-r.getrandbits(width)) & mask)
    return out[:count]


def signed_value(bits_value: int, bits: int, signed: bool) -> int:
    if signed and bits_value >> (bits - 1):
        return bits_value - (1 << bits)
    return bits_value


@pytest.mark.parametrize("source", INT_TYPES)
def test_int_to_float(source: str) -> None:
    bits, signed = int(source[1:]), source[0] == "s"
    a = int_values(bits, 600, "tofloat")
    body: list[str] = []
    outputs: dict[str, str] = {}
    targets = ["f16", "bf16", "f32", "f64"]
    for target in targets:
        for mode in MODES:
            body.append(f"cvt.{mode}.{target}.{source} %{target}_{mode}, %a;")
            outputs[f"{target}_{mode}"] = register(FORMATS[target])
    got = run_cases("\n".join(body), {"a": (f"b{reg_bits(bits)}", a)}, outputs)
    ints = [signed_value(v, bits, signed) for v in a]
    for target in targets:
        fmt = FORMATS[target]
        for mode in MODES:
            expected: list[Expected] = [
                round_to(fmt, Fraction(v), mode) if v else 0.0 for v in ints
            ]
            assert_results(
                f"cvt.{mode}.{target}.{source}",
                fmt,
                got[f"{target}_{mode}"],
                expected,
                [a],
            )


@pytest.mark.parametrize("source", INT_TYPES)
def test_int_to_int(source: str) -> None:
    """Narrowing chops (or clamps with `.sat`), widening sign- or zero-extends by the
    source type, and the result is extended into the register by the destination type."""
    bits, signed = int(source[1:]), source[0] == "s"
    a = int_values(bits, 300, "toint")
    body: list[str] = []
    outputs: dict[str, str] = {}
    for dest in INT_TYPES:
        if dest == source:
            continue
        body.append(f"cvt.{dest}.{source} %{dest}, %a;")
        body.append(f"cvt.sat.{dest}.{source} %{dest}_sat, %a;")
        outputs[dest] = outputs[f"{dest}_sat"] = f"b{reg_bits(int(dest[1:]))}"
    got = run_cases("\n".join(body), {"a": (f"b{reg_bits(bits)}", a)}, outputs)
    ints = [signed_value(v, bits, signed) for v in a]
    for dest in INT_TYPES:
        if dest == source:
            continue
        width, dest_signed = int(dest[1:]), dest[0] == "s"
        low, high = (
            (-(1 << (width - 1)), (1 << (width - 1)) - 1)
            if dest_signed
            else (0, (1 << width) - 1)
        )
        wrapped = [extend(v, width, dest_signed, reg_bits(width)) for v in ints]
        clamped = [
            extend(min(max(v, low), high), width, dest_signed, reg_bits(width))
            for v in ints
        ]
        _assert_ints(f"cvt.{dest}.{source}", got[dest], wrapped, a)
        _assert_ints(f"cvt.sat.{dest}.{source}", got[f"{dest}_sat"], clamped, a)


@pytest.mark.parametrize("name", ["f32", "f64", "f16", "bf16"])
def test_round_to_integral_value(name: str) -> None:
    """cvt.rni.f32.f32 and friends round to an integral value, kept in the float format."""
    fmt = FORMATS[name]
    a = [b for (b,) in operand_tuples(fmt, 1, "integral", 400)]
    r = rng(f"integral:{name}")
    for _ in range(200):
        a.append(_bits(fmt, round_to(fmt, Fraction(r.randint(-200, 200), 4), "rn")))
    reg = register(fmt)
    body = "\n".join(f"cvt.{mode}.{name}.{name} %{mode}, %a;" for mode in INTEGER_MODES)
    outputs = {mode: reg for mode in INTEGER_MODES}
    if name == "f32":
        body += "\ncvt.rni.ftz.f32.f32 %ftz, %a;"
        outputs["ftz"] = reg
    got = run_cases(body, {"a": (reg, a)}, outputs)
    xs = values(fmt, a)

    def expect(x: Real, mode: str) -> Real:
        if isinstance(x, float):
            return x
        n = integral(x, mode)
        return Fraction(n) if n else (-0.0 if negative(x) else 0.0)

    for mode in INTEGER_MODES:
        assert_results(
            f"cvt.{mode}.{name}.{name}",
            fmt,
            got[mode],
            [expect(x, mode) for x in xs],
            [a],
        )
    if name == "f32":
        expected = [expect(flush(F32, x), "rni") for x in xs]
        assert_results("cvt.rni.ftz.f32.f32", fmt, got["ftz"], expected, [a])
