"""Float arithmetic runs exactly as PTX defines it: add, sub, mul, fma, div, rcp and sqrt are
correctly rounded in every mode (fma once), in f32, f64, f16, bf16 and the packed types,
with `.ftz`, `.sat` and `.relu`; min and max follow the ISA's NaN and signed-zero rules.
Each test runs one kernel over hundreds of operand tuples and compares every result, bit
for bit, with the exact reference in `float_reference`.
PTX ISA: "Floating Point Instructions" (9.7.3) and "Half Precision Floating Point
Instructions" (9.7.4)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
import numpy.typing as npt
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
    F16,
    F32,
    F64,
    FORMATS,
    Format,
    Real,
    add,
    decode,
    div,
    encode,
    fma,
    is_nan,
    mul,
    negative,
    round_to,
    sqrt_rounded,
)
from operand_values import columns, operand_tuples, rng
from ptx_cases import run_cases

from tileas_py.sim.isa.alu import float_arith
from tileas_py.sim.ptx_types import ptx_type

MODES = ("rn", "rz", "rm", "rp")


def negate(x: Real) -> Real:
    return -x


def exact(op: str, x: Real, y: Real, z: Real, mode: str) -> Real:
    if op == "add":
        return add(x, y, mode)
    if op == "sub":
        return add(x, negate(y), mode)
    if op == "mul":
        return mul(x, y)
    return fma(x, y, z, mode)


@pytest.mark.parametrize("name", ["f32", "f64"])
def test_add_sub_mul_fma_in_every_rounding_mode(name: str) -> None:
    fmt = FORMATS[name]
    cases = operand_tuples(fmt, 3, "arith", 1000)
    a, b, c = columns(cases)
    ops = ("add", "sub", "mul", "fma")
    body: list[str] = []
    outputs: dict[str, str] = {}
    for op in ops:
        for mode in MODES:
            operands = "%a, %b, %c" if op == "fma" else "%a, %b"
            body.append(f"{op}.{mode}.{name} %{op}_{mode}, {operands};")
            outputs[f"{op}_{mode}"] = register(fmt)
    reg = register(fmt)
    got = run_cases(
        "\n".join(body), {"a": (reg, a), "b": (reg, b), "c": (reg, c)}, outputs
    )
    xs, ys, zs = values(fmt, a), values(fmt, b), values(fmt, c)
    for op in ops:
        for mode in MODES:
            expected = [
                round_to(fmt, exact(op, x, y, z, mode), mode)
                for x, y, z in zip(xs, ys, zs, strict=True)
            ]
            assert_results(
                f"{op}.{mode}.{name}", fmt, got[f"{op}_{mode}"], expected, [a, b, c]
            )


def test_mad_is_fma() -> None:
    """mad.rnd.f32 and mad.rnd.f64 are fma: one rounding of a*b+c."""
    cases = operand_tuples(F32, 3, "mad", 500)
    a, b, c = columns(cases)
    got = run_cases(
        "mad.rz.f32 %d, %a, %b, %c;\nmad.rm.f32 %e, %a, %b, %c;",
        {"a": ("b32", a), "b": ("b32", b), "c": ("b32", c)},
        {"d": "b32", "e": "b32"},
    )
    xs, ys, zs = values(F32, a), values(F32, b), values(F32, c)
    for out, mode in (("d", "rz"), ("e", "rm")):
        expected = [
            round_to(F32, fma(x, y, z, mode), mode)
            for x, y, z in zip(xs, ys, zs, strict=True)
        ]
        assert_results(f"mad.{mode}.f32", F32, got[out], expected, [a, b, c])


def test_f32_ftz_and_sat() -> None:
    """`.ftz` flushes subnormal inputs and results (after rounding) to zeros of the same sign;
    `.sat` clamps the result to [0, 1] and turns NaN into +0."""
    cases = operand_tuples(F32, 3, "ftz", 900)
    a, b, c = columns(cases)
    body = """
        add.rn.ftz.f32 %add_ftz, %a, %b;
        mul.rp.ftz.f32 %mul_ftz, %a, %b;
        fma.rm.ftz.f32 %fma_ftz, %a, %b, %c;
        sub.rz.sat.f32 %sub_sat, %a, %b;
        mul.rn.ftz.sat.f32 %mul_ftz_sat, %a, %b;
        fma.rp.sat.f32 %fma_sat, %a, %b, %c;
        add.ftz.sat.f32 %add_default, %a, %b;
    """
    names = [
        "add_ftz",
        "mul_ftz",
        "fma_ftz",
        "sub_sat",
        "mul_ftz_sat",
        "fma_sat",
        "add_default",
    ]
    got = run_cases(
        body,
        {"a": ("b32", a), "b": ("b32", b), "c": ("b32", c)},
        {n: "b32" for n in names},
    )
    xs, ys, zs = values(F32, a), values(F32, b), values(F32, c)

    def expect(op: str, mode: str, ftz: bool, sat: bool) -> list[Expected]:
        out: list[Expected] = []
        for operands in zip(xs, ys, zs, strict=True):
            x, y, z = (flush(F32, v) for v in operands) if ftz else operands
            r: Real = round_to(F32, exact(op, x, y, z, mode), mode)
            if ftz:
                r = flush(F32, r)
            out.append(saturate(r) if sat else r)
        return out

    plan = {
        "add_ftz": ("add", "rn", True, False),
        "mul_ftz": ("mul", "rp", True, False),
        "fma_ftz": ("fma", "rm", True, False),
        "sub_sat": ("sub", "rz", False, True),
        "mul_ftz_sat": ("mul", "rn", True, True),
        "fma_sat": ("fma", "rp", False, True),
        "add_default": ("add", "rn", True, True),
    }
    for name, (op, mode, ftz, sat) in plan.items():
        assert_results(name, F32, got[name], expect(op, mode, ftz, sat), [a, b, c])


def divide(x: Real, y: Real) -> Real:
    return div(x, y)


@pytest.mark.parametrize("name", ["f32", "f64"])
def test_div_rcp_sqrt_in_every_rounding_mode(name: str) -> None:
    fmt = FORMATS[name]
    cases = operand_tuples(fmt, 2, "div", 900)
    a, b = columns(cases)
    body: list[str] = []
    outputs: dict[str, str] = {}
    for mode in MODES:
        body += [
            f"div.{mode}.{name} %div_{mode}, %a, %b;",
            f"rcp.{mode}.{name} %rcp_{mode}, %a;",
            f"sqrt.{mode}.{name} %sqrt_{mode}, %a;",
        ]
        outputs |= {f"{op}_{mode}": register(fmt) for op in ("div", "rcp", "sqrt")}
    reg = register(fmt)
    got = run_cases("\n".join(body), {"a": (reg, a), "b": (reg, b)}, outputs)
    xs, ys = values(fmt, a), values(fmt, b)
    for mode in MODES:
        quotients = [
            round_to(fmt, div(x, y), mode) for x, y in zip(xs, ys, strict=True)
        ]
        assert_results(f"div.{mode}.{name}", fmt, got[f"div_{mode}"], quotients, [a, b])
        inverses = [round_to(fmt, div(Fraction(1), x), mode) for x in xs]
        assert_results(f"rcp.{mode}.{name}", fmt, got[f"rcp_{mode}"], inverses, [a])
        roots = [sqrt_rounded(fmt, x, mode) for x in xs]
        assert_results(f"sqrt.{mode}.{name}", fmt, got[f"sqrt_{mode}"], roots, [a])


def test_div_sqrt_ftz() -> None:
    cases = operand_tuples(F32, 2, "divftz", 600)
    a, b = columns(cases)
    got = run_cases(
        "div.rn.ftz.f32 %q, %a, %b;\nsqrt.rz.ftz.f32 %s, %a;\nrcp.rp.ftz.f32 %r, %a;",
        {"a": ("b32", a), "b": ("b32", b)},
        {"q": "b32", "s": "b32", "r": "b32"},
    )
    xs = [flush(F32, x) for x in values(F32, a)]
    ys = [flush(F32, y) for y in values(F32, b)]
    quotients = [
        flush(F32, round_to(F32, div(x, y), "rn")) for x, y in zip(xs, ys, strict=True)
    ]
    assert_results("div.rn.ftz.f32", F32, got["q"], quotients, [a, b])
    roots = [flush(F32, sqrt_rounded(F32, x, "rz")) for x in xs]
    assert_results("sqrt.rz.ftz.f32", F32, got["s"], roots, [a])
    inverses = [flush(F32, round_to(F32, div(Fraction(1), x), "rp")) for x in xs]
    assert_results("rcp.rp.ftz.f32", F32, got["r"], inverses, [a])


# -- half precision ---------------------------------------------------------------------------


def pack(low: list[int], high: list[int], width: int) -> list[int]:
    return [lo | (hi << width) for lo, hi in zip(low, high, strict=True)]


def halves(bits: list[int], width: int) -> tuple[list[int], list[int]]:
    mask = (1 << width) - 1
    return [b & mask for b in bits], [(b >> width) & mask for b in bits]


HalfOp = Callable[[Real, Real, Real], Real]


def half_plan(fmt: Format) -> dict[str, tuple[str, str, Callable[[Real], Expected]]]:
    """output -> (instruction, reference op, post-processing), for f16 or bf16."""
    keep: Callable[[Real], Expected] = lambda r: r  # noqa: E731
    plan: dict[str, tuple[str, str, Callable[[Real], Expected]]] = {
        "add": ("add", "add", keep),
        "sub": ("sub.rn", "sub", keep),
        "mul": ("mul", "mul", keep),
        "fma": ("fma.rn", "fma", keep),
        "fma_relu": ("fma.rn.relu", "fma", relu),
    }
    if fmt is F16:
        plan |= {
            "add_sat": ("add.sat", "add", saturate),
            "fma_sat": ("fma.rn.sat", "fma", saturate),
            "mul_ftz": ("mul.ftz", "mul", keep),
            "fma_ftz_relu": ("fma.rn.ftz.relu", "fma", relu),
        }
    return plan


@pytest.mark.parametrize("name", ["f16", "bf16"])
def test_half_precision_scalar_and_packed(name: str) -> None:
    """f16 and bf16 arithmetic (round to nearest even, the only mode), scalar and in both
    halves of the x2 types, which are computed independently."""
    fmt = FORMATS[name]
    cases = operand_tuples(fmt, 3, "half", 900)
    a, b, c = columns(cases)
    plan = half_plan(fmt)
    # The packed operands pair each case with the case halfway down the list.
    shift = len(cases) // 2
    pa, pb, pc = (pack(col, col[shift:] + col[:shift], 16) for col in (a, b, c))
    body: list[str] = []
    for out, (inst, _, _) in plan.items():
        operands = "%a, %b, %c" if "fma" in inst else "%a, %b"
        body.append(f"{inst}.{name} %{out}, {operands};")
        body.append(f"{inst}.{name}x2 %x2_{out}, {operands.replace('%', '%p')};")
    got = run_cases(
        "\n".join(body),
        {
            "a": ("b16", a),
            "b": ("b16", b),
            "c": ("b16", c),
            "pa": ("b32", pa),
            "pb": ("b32", pb),
            "pc": ("b32", pc),
        },
        {out: "b16" for out in plan} | {f"x2_{out}": "b32" for out in plan},
    )
    xs, ys, zs = values(fmt, a), values(fmt, b), values(fmt, c)
    for out, (inst, op, post) in plan.items():
        ftz = ".ftz" in inst
        expected: list[Expected] = []
        for operands in zip(xs, ys, zs, strict=True):
            x, y, z = (flush(fmt, v) for v in operands) if ftz else operands
            r = round_to(fmt, exact(op, x, y, z, "rn"), "rn")
            expected.append(post(flush(fmt, r) if ftz else r))
        compare = canonical_nan if "relu" in inst else None
        kwargs = {"compare": compare} if compare else {}
        assert_results(f"{inst}.{name}", fmt, got[out], expected, [a, b, c], **kwargs)
        low, high = halves(got[f"x2_{out}"].tolist(), 16)
        assert_results(
            f"{inst}.{name}x2 (low)", fmt, _array(low), expected, [a, b, c], **kwargs
        )
        rotated = expected[shift:] + expected[:shift]
        assert_results(
            f"{inst}.{name}x2 (high)",
            fmt,
            _array(high),
            rotated,
            [pa, pb, pc],
            **kwargs,
        )


def _array(bits: list[int]) -> npt.NDArray[np.uint64]:
    return np.array(bits, dtype=np.uint64)


# -- min / max --------------------------------------------------------------------------------


def min_max(x: Real, y: Real, is_max: bool, propagate_nan: bool) -> Real:
    """The ISA's min/max: NaN only if both are NaN (or either with `.NaN`); -0 < +0."""
    if (is_nan(x) and is_nan(y)) or (propagate_nan and (is_nan(x) or is_nan(y))):
        return float("nan")
    if is_nan(x):
        return y
    if is_nan(y):
        return x
    key_x, key_y = _order(x), _order(y)
    if is_max:
        return x if key_x > key_y else y
    return x if key_x < key_y else y


def _order(x: Real) -> tuple[Fraction, int]:
    if isinstance(x, float):
        if x == float("inf"):
            return (Fraction(10) ** 400, 0)
        if x == float("-inf"):
            return (-(Fraction(10) ** 400), 0)
        return (Fraction(0), 0 if negative(x) else 1)
    return (Fraction(x), 0)


def xorsign_abs(
    x: Real, y: Real, is_max: bool, propagate_nan: bool, flip: bool
) -> Real:
    """min/max of the magnitudes, with the XOR of the operands' sign bits (NaN's too)."""
    r = min_max(abs_value(x), abs_value(y), is_max, propagate_nan)
    if is_nan(r):
        return r
    return negate(r) if flip else r


def abs_value(x: Real) -> Real:
    return abs(x)


@pytest.mark.parametrize("name", ["f32", "f64", "f16", "bf16"])
def test_min_max(name: str) -> None:
    fmt = FORMATS[name]
    cases = operand_tuples(fmt, 2, "minmax", 700)
    a, b = columns(cases)
    reg = register(fmt)
    variants = {"min": ("min", False), "max": ("max", True)}
    if name != "f64":
        variants |= {"min_nan": ("min.NaN", False), "max_nan": ("max.NaN", True)}
        variants |= {
            "min_xor": ("min.xorsign.abs", False),
            "max_xor": ("max.xorsign.abs", True),
        }
    if name == "f32":
        variants |= {"max_ftz": ("max.ftz", True)}
    body = "\n".join(
        f"{inst}.{name} %{out}, %a, %b;" for out, (inst, _) in variants.items()
    )
    got = run_cases(
        body, {"a": (reg, a), "b": (reg, b)}, {out: reg for out in variants}
    )
    xs, ys = values(fmt, a), values(fmt, b)
    for out, (inst, is_max) in variants.items():
        propagate = ".NaN" in inst
        if "xorsign" in inst:
            flips = [bool((p ^ q) & fmt.sign_bit) for p, q in zip(a, b, strict=True)]
            expected = [
                xorsign_abs(x, y, is_max, propagate, flip)
                for x, y, flip in zip(xs, ys, flips, strict=True)
            ]
        elif ".ftz" in inst:
            expected = [
                flush(fmt, min_max(flush(fmt, x), flush(fmt, y), is_max, propagate))
                for x, y in zip(xs, ys, strict=True)
            ]
        else:
            expected = [
                min_max(x, y, is_max, propagate) for x, y in zip(xs, ys, strict=True)
            ]
        compare = canonical_nan if propagate else None
        kwargs = {"compare": compare} if compare else {}
        assert_results(f"{inst}.{name}", fmt, got[out], expected, [a, b], **kwargs)


def test_abs_neg() -> None:
    """abs and neg change only the sign (`.ftz` flushes subnormals first)."""
    a = [bits for (bits,) in operand_tuples(F32, 1, "absneg", 300)]
    got = run_cases(
        "abs.f32 %abs, %a;\nneg.f32 %neg, %a;\nabs.ftz.f32 %abs_ftz, %a;\nneg.ftz.f32 %neg_ftz, %a;",
        {"a": ("b32", a)},
        {"abs": "b32", "neg": "b32", "abs_ftz": "b32", "neg_ftz": "b32"},
    )
    xs = values(F32, a)
    assert_results("abs.f32", F32, got["abs"], [abs_value(x) for x in xs], [a])
    assert_results("neg.f32", F32, got["neg"], [negate(x) for x in xs], [a])
    flushed = [flush(F32, x) for x in xs]
    assert_results(
        "abs.ftz.f32", F32, got["abs_ftz"], [abs_value(x) for x in flushed], [a]
    )
    assert_results(
        "neg.ftz.f32", F32, got["neg_ftz"], [negate(x) for x in flushed], [a]
    )


@pytest.mark.parametrize("name", ["f64", "f16", "bf16"])
def test_abs_neg_other_formats(name: str) -> None:
    fmt = FORMATS[name]
    a = [bits for (bits,) in operand_tuples(fmt, 1, "absneg", 200)]
    reg = register(fmt)
    got = run_cases(
        f"abs.{name} %abs, %a;\nneg.{name} %neg, %a;",
        {"a": (reg, a)},
        {"abs": reg, "neg": reg},
    )
    xs = values(fmt, a)
    assert_results(f"abs.{name}", fmt, got["abs"], [abs_value(x) for x in xs], [a])
    assert_results(f"neg.{name}", fmt, got["neg"], [negate(x) for x in xs], [a])


def test_reference_sanity() -> None:
    """The reference itself: a few results every IEEE implementation agrees on."""
    assert (
        encode(F32, round_to(F32, add(Fraction(1), Fraction(1, 2**24), "rn"), "rn"))
        == 0x3F800000
    )
    assert (
        encode(F32, round_to(F32, add(Fraction(1), Fraction(1, 2**24), "rp"), "rp"))
        == 0x3F800001
    )
    assert decode(F16, 0x7C00) == float("inf")
    assert is_nan(round_to(F64, mul(float("inf"), 0.0), "rn"))
    assert negative(add(Fraction(1), Fraction(-1), "rm"))
    assert not negative(add(Fraction(1), Fraction(-1), "rn"))
    assert encode(BF16, round_to(BF16, Fraction(3, 2**9) + 1, "rn")) == 0x3F81


@pytest.mark.parametrize("name", ["f16", "f32", "e4m3", "e5m2"])
def test_reference_rounding_brackets_the_value(name: str) -> None:
    """The reference itself, against the definitions: every bit pattern decodes and
    encodes back; a value rounded down (up) is the largest (smallest) representable value
    not above (below) it; rz and rn pick one of the two, rn the nearer (ties: the even one)."""
    fmt = FORMATS[name]
    r = rng(f"reference:{name}")
    for bits in (r.getrandbits(fmt.bits) for _ in range(300)):
        value = decode(fmt, bits)
        if not is_nan(value):
            assert encode(fmt, value) == bits
    step = fmt.quantum
    for _ in range(300):
        x = Fraction(r.randint(-(10**12), 10**12), r.randint(1, 10**12))
        x *= Fraction(2) ** r.randint(fmt.emin - fmt.mantissa - 2, fmt.emax)
        if x == 0 or abs(x) > fmt.largest:
            continue
        down, up = round_to(fmt, x, "rm"), round_to(fmt, x, "rp")
        low, high = Fraction(down), Fraction(up)
        assert low <= x <= high
        assert low == high or _next_up(fmt, low) == high, (x, low, high)
        assert high - low <= abs(x) * Fraction(2, 2**fmt.mantissa) + step
        toward_zero = round_to(fmt, x, "rz")
        assert toward_zero == (down if x > 0 else up)
        nearest = Fraction(round_to(fmt, x, "rn"))
        assert abs(nearest - x) <= min(x - low, high - x)
        if x - low == high - x:
            assert (encode(fmt, nearest) >> fmt.shift) % 2 == 0


def _next_up(fmt: Format, x: Fraction) -> Fraction:
    """The representable value after x (x not the largest)."""
    bits = encode(fmt, x if x != 0 else 0.0)
    if x < 0:
        value = decode(fmt, bits - 1) if bits != fmt.sign_bit else Fraction(0)
    else:
        value = decode(fmt, bits + 1)
    return Fraction(value) if not isinstance(value, float) else Fraction(0)


def test_f32x2_and_three_operand_min_max() -> None:
    """The sm_100 forms: f32x2 arithmetic on both words of a .b64, each rounded alone, and
    min / max of three operands (pairwise, in order)."""
    a, b, c = columns(operand_tuples(F32, 3, "x2", 500))
    shift = len(a) // 3
    pa, pb, pc = (
        [lo | (hi << 32) for lo, hi in zip(col, col[shift:] + col[:shift], strict=True)]
        for col in (a, b, c)
    )
    got = run_cases(
        """
        add.rz.f32x2 %add, %pa, %pb;
        fma.rm.f32x2 %fma, %pa, %pb, %pc;
        min.f32 %min3, %a, %b, %c;
        max.NaN.f32 %max3, %a, %b, %c;
        """,
        {
            "a": ("b32", a),
            "b": ("b32", b),
            "c": ("b32", c),
            "pa": ("b64", pa),
            "pb": ("b64", pb),
            "pc": ("b64", pc),
        },
        {"add": "b64", "fma": "b64", "min3": "b32", "max3": "b32"},
    )
    xs, ys, zs = values(F32, a), values(F32, b), values(F32, c)
    for out, op, mode in (("add", "add", "rz"), ("fma", "fma", "rm")):
        expected = [
            round_to(F32, exact(op, x, y, z, mode), mode)
            for x, y, z in zip(xs, ys, zs, strict=True)
        ]
        words = got[out].astype(np.uint64)
        low = words & np.uint64(0xFFFFFFFF)
        high = words >> np.uint64(32)
        assert_results(f"{op}.{mode}.f32x2 (low)", F32, low, expected, [a, b, c])
        rotated = expected[shift:] + expected[:shift]
        assert_results(f"{op}.{mode}.f32x2 (high)", F32, high, rotated, [pa, pb, pc])
    smallest = [
        min_max(min_max(x, y, False, False), z, False, False)
        for x, y, z in zip(xs, ys, zs, strict=True)
    ]
    assert_results("min.f32 (three)", F32, got["min3"], smallest, [a, b, c])
    largest = [
        min_max(min_max(x, y, True, True), z, True, True)
        for x, y, z in zip(xs, ys, zs, strict=True)
    ]
    assert_results(
        "max.NaN.f32 (three)",
        F32,
        got["max3"],
        largest,
        [a, b, c],
        compare=canonical_nan,
    )


def test_float_arith_for_atomics() -> None:
    """`float_arith`, which atom / red use: rounds like `add`, and with ftz=True (what
    atom.add.f32 does) flushes subnormal inputs and results."""
    a, b = columns(operand_tuples(F32, 2, "atomic", 400))
    xs = np.array(a, dtype=np.uint32).view(np.float32)
    ys = np.array(b, dtype=np.uint32).view(np.float32)
    f32 = ptx_type("f32")
    plain = float_arith("add", [xs, ys], f32, "rn").view(np.uint32)
    flushed = float_arith("add", [xs, ys], f32, "rn", ftz=True).view(np.uint32)
    pairs = list(zip(values(F32, a), values(F32, b), strict=True))
    expected = [round_to(F32, add(x, y, "rn"), "rn") for x, y in pairs]
    assert_results("float_arith add", F32, plain, expected, [a, b])
    expected = [
        flush(F32, round_to(F32, add(flush(F32, x), flush(F32, y), "rn"), "rn"))
        for x, y in pairs
    ]
    assert_results("float_arith add ftz", F32, flushed, expected, [a, b])
