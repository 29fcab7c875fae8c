"""Comparison and selection: setp with every comparison (ordered and unordered on floats,
signed and unsigned on integers), both destinations and the boolean combiner with a negated
predicate; set, selp, slct, testp and copysign.
PTX ISA: "Comparison and Selection Instructions" (9.7.6), "Half Precision Comparison
Instructions" (9.7.7), testp and copysign (9.7.3.1-2)."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from float_checks import flush, register, values
from float_reference import F16, F32, FORMATS, Format, Real, is_nan, negative
from operand_values import columns, operand_tuples, rng
from ptx_cases import run_cases
from test_alu_convert import int_values, signed_value

FLOAT_OPS = (
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "equ",
    "neu",
    "ltu",
    "leu",
    "gtu",
    "geu",
    "num",
    "nan",
)
ORDER: dict[str, Callable[[Fraction, Fraction], bool]] = {
    "eq": lambda x, y: x == y,
    "ne": lambda x, y: x != y,
    "lt": lambda x, y: x < y,
    "le": lambda x, y: x <= y,
    "gt": lambda x, y: x > y,
    "ge": lambda x, y: x >= y,
}
BIG = Fraction(2) ** 20000


def numeric(x: Real) -> Fraction:
    """A value on the number line: ±0 are one point, infinities beyond every float."""
    if isinstance(x, float):
        return BIG if x > 0 else -BIG if x < 0 else Fraction(0)
    return Fraction(x)


def float_compare(op: str, x: Real, y: Real) -> bool:
    unordered = is_nan(x) or is_nan(y)
    if op == "num":
        return not unordered
    if op == "nan":
        return unordered
    if op.endswith("u"):
        return unordered or ORDER[op[:-1]](numeric(x), numeric(y))
    return not unordered and ORDER[op](numeric(x), numeric(y))


@pytest.mark.parametrize("name", ["f32", "f64", "f16", "bf16"])
def test_setp_float(name: str) -> None:
    fmt = FORMATS[name]
    a, b = columns(operand_tuples(fmt, 2, "setp", 700))
    body = [f"setp.{op}.{name} %{op}|%not_{op}, %a, %b;" for op in FLOAT_OPS]
    outputs = {op: "pred" for op in FLOAT_OPS} | {
        f"not_{op}": "pred" for op in FLOAT_OPS
    }
    if name in ("f32", "f16"):
        body.append(f"setp.lt.ftz.{name} %lt_ftz, %a, %b;")
        outputs["lt_ftz"] = "pred"
    reg = register(fmt)
    got = run_cases("\n".join(body), {"a": (reg, a), "b": (reg, b)}, outputs)
    xs, ys = values(fmt, a), values(fmt, b)
    for op in FLOAT_OPS:
        expected = [float_compare(op, x, y) for x, y in zip(xs, ys, strict=True)]
        _assert_flags(f"setp.{op}.{name}", got[op], expected, a, b)
        _assert_flags(
            f"setp.{op}.{name} (q)", got[f"not_{op}"], [not e for e in expected], a, b
        )
    if "lt_ftz" in got:
        expected = [
            float_compare("lt", flush(fmt, x), flush(fmt, y))
            for x, y in zip(xs, ys, strict=True)
        ]
        _assert_flags(f"setp.lt.ftz.{name}", got["lt_ftz"], expected, a, b)


@pytest.mark.parametrize("name", ["f16", "bf16"])
def test_setp_packed(name: str) -> None:
    """setp.op.f16x2 p|q: p compares the lower halves, q the upper halves."""
    fmt = FORMATS[name]
    a, b = columns(operand_tuples(fmt, 2, "setpx2", 400))
    pa = [x | (y << 16) for x, y in zip(a, a[::-1], strict=True)]
    pb = [x | (y << 16) for x, y in zip(b, b[::-1], strict=True)]
    ops = ("lt", "geu", "nan")
    body = "\n".join(f"setp.{op}.{name}x2 %{op}_lo|%{op}_hi, %a, %b;" for op in ops)
    got = run_cases(
        body,
        {"a": ("b32", pa), "b": ("b32", pb)},
        {f"{op}_{h}": "pred" for op in ops for h in ("lo", "hi")},
    )
    xs, ys = values(fmt, a), values(fmt, b)
    for op in ops:
        low = [float_compare(op, x, y) for x, y in zip(xs, ys, strict=True)]
        _assert_flags(f"setp.{op}.{name}x2 (p)", got[f"{op}_lo"], low, pa, pb)
        _assert_flags(f"setp.{op}.{name}x2 (q)", got[f"{op}_hi"], low[::-1], pa, pb)


def _assert_flags(
    label: str, got: np.ndarray, expected: list[bool], a: list[int], b: list[int]
) -> None:
    wrong = [
        f"  ({x:#x}, {y:#x}) -> {bool(g)}, expected {e}"
        for x, y, g, e in zip(a, b, got.tolist(), expected, strict=True)
        if bool(g) != e
    ]
    assert not wrong, f"{label}: {len(wrong)} of {len(expected)} wrong\n" + "\n".join(
        wrong[:10]
    )


INT_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "eq": lambda x, y: x == y,
    "ne": lambda x, y: x != y,
    "lt": lambda x, y: x < y,
    "le": lambda x, y: x <= y,
    "gt": lambda x, y: x > y,
    "ge": lambda x, y: x >= y,
    "lo": lambda x, y: x < y,
    "ls": lambda x, y: x <= y,
    "hi": lambda x, y: x > y,
    "hs": lambda x, y: x >= y,
}


@pytest.mark.parametrize(
    "name", ["s16", "u16", "s32", "u32", "s64", "u64", "b32", "b64"]
)
def test_setp_integer(name: str) -> None:
    """Signed types compare as two's complement, unsigned and bit types as unsigned
    (`lo`/`ls`/`hi`/`hs` always unsigned)."""
    bits = int(name[1:])
    a = int_values(bits, 500, "setp-a")
    b = int_values(bits, 500, "setp-b")[::-1]
    b[:50] = a[:50]  # equal operands
    ops = ["eq", "ne"] if name[0] == "b" else list(INT_COMPARE)
    if name[0] == "s":
        ops = [op for op in ops if op not in ("lo", "ls", "hi", "hs")]
    body = "\n".join(f"setp.{op}.{name} %{op}, %a, %b;" for op in ops)
    reg = f"b{max(bits, 16)}"
    got = run_cases(body, {"a": (reg, a), "b": (reg, b)}, {op: "pred" for op in ops})
    signed = name[0] == "s"
    xs = [signed_value(v, bits, signed) for v in a]
    ys = [signed_value(v, bits, signed) for v in b]
    for op in ops:
        expected = [INT_COMPARE[op](x, y) for x, y in zip(xs, ys, strict=True)]
        _assert_flags(f"setp.{op}.{name}", got[op], expected, a, b)


def test_setp_boolean_combiner() -> None:
    """p = BoolOp(a cmp b, c) and q = BoolOp(!(a cmp b), c), with c optionally negated."""
    r = rng("combiner")
    a = [r.getrandbits(3) for _ in range(256)]
    b = [r.getrandbits(3) for _ in range(256)]
    c = [r.getrandbits(1) for _ in range(256)]
    combiners: dict[str, Callable[[bool, bool], bool]] = {
        "and": lambda t, u: t and u,
        "or": lambda t, u: t or u,
        "xor": lambda t, u: t != u,
    }
    body: list[str] = []
    outputs: dict[str, str] = {}
    for op in combiners:
        body.append(f"setp.lt.{op}.s32 %{op}_p|%{op}_q, %a, %b, %c;")
        body.append(f"setp.lt.{op}.s32 %{op}_np|%{op}_nq, %a, %b, !%c;")
        outputs |= {f"{op}_{s}": "pred" for s in ("p", "q", "np", "nq")}
    body.append("setp.ne.and.s32 %only_p, %a, %b, !%c;")
    outputs["only_p"] = "pred"
    got = run_cases(
        "\n".join(body), {"a": ("b32", a), "b": ("b32", b), "c": ("pred", c)}, outputs
    )
    t = [x < y for x, y in zip(a, b, strict=True)]
    for op, fn in combiners.items():
        for suffix, negated in (("", False), ("n", True)):
            u = [bool(v) != negated for v in c]
            _assert_flags(
                f"setp.lt.{op} p {suffix}",
                got[f"{op}_{suffix}p"],
                [fn(x, y) for x, y in zip(t, u, strict=True)],
                a,
                b,
            )
            _assert_flags(
                f"setp.lt.{op} q {suffix}",
                got[f"{op}_{suffix}q"],
                [fn(not x, y) for x, y in zip(t, u, strict=True)],
                a,
                b,
            )
    expected = [x != y and not v for x, y, v in zip(a, b, c, strict=True)]
    _assert_flags("setp.ne.and (one destination)", got["only_p"], expected, a, b)


def test_set_selp_slct() -> None:
    """set writes all ones (integer destination) or 1.0 (float destination) when true;
    selp picks a when the predicate holds; slct picks a when c >= 0 (-0.0 included, NaN
    not; .ftz flushes a subnormal c first)."""
    fa, fb = columns(operand_tuples(F32, 2, "set", 600))
    r = rng("selp")
    ia = [r.getrandbits(32) for _ in fa]
    ib = [r.getrandbits(32) for _ in fa]
    p = [r.getrandbits(1) for _ in fa]
    wide = [r.getrandbits(64) for _ in fa]
    body = """
        set.lt.u32.f32 %set_u32, %a, %b;
        set.gtu.f32.f32 %set_f32, %a, %b;
        set.lt.and.s32.s32 %set_and, %ia, %ib, !%p;
        selp.b32 %selp32, %ia, %ib, %p;
        slct.b32.s32 %slct_s32, %ia, %ib, %a;
        slct.b32.f32 %slct_f32, %ia, %ib, %a;
        slct.ftz.b32.f32 %slct_ftz, %ia, %ib, %a;
        mov.b64 %i64, {%ib, %ia};
        selp.b64 %selp64, %w, %i64, %p;
    """
    got = run_cases(
        body,
        {
            "a": ("b32", fa),
            "b": ("b32", fb),
            "ia": ("b32", ia),
            "ib": ("b32", ib),
            "p": ("pred", p),
            "w": ("b64", wide),
        },
        {
            "set_u32": "b32",
            "set_f32": "b32",
            "set_and": "b32",
            "selp32": "b32",
            "selp64": "b64",
            "slct_s32": "b32",
            "slct_f32": "b32",
            "slct_ftz": "b32",
        },
        scratch=".reg .b64 %i64;",
    )
    xs, ys = values(F32, fa), values(F32, fb)
    _check_ints(
        "set.lt.u32.f32",
        got["set_u32"],
        [
            0xFFFFFFFF if float_compare("lt", x, y) else 0
            for x, y in zip(xs, ys, strict=True)
        ],
    )
    _check_ints(
        "set.gtu.f32.f32",
        got["set_f32"],
        [
            0x3F800000 if float_compare("gtu", x, y) else 0
            for x, y in zip(xs, ys, strict=True)
        ],
    )
    sa = [signed_value(v, 32, True) for v in ia]
    sb = [signed_value(v, 32, True) for v in ib]
    _check_ints(
        "set.lt.and.s32.s32",
        got["set_and"],
        [
            0xFFFFFFFF if x < y and not q else 0
            for x, y, q in zip(sa, sb, p, strict=True)
        ],
    )
    _check_ints(
        "selp.b32",
        got["selp32"],
        [x if q else y for x, y, q in zip(ia, ib, p, strict=True)],
    )
    _check_ints(
        "selp.b64",
        got["selp64"],
        [
            w if q else (y | (x << 32))
            for w, x, y, q in zip(wide, ia, ib, p, strict=True)
        ],
    )
    as_int = [signed_value(v, 32, True) for v in fa]
    _check_ints(
        "slct.b32.s32",
        got["slct_s32"],
        [x if c >= 0 else y for x, y, c in zip(ia, ib, as_int, strict=True)],
    )

    def selects_a(c: Real) -> bool:
        return not is_nan(c) and (not negative(c) or c == 0)

    _check_ints(
        "slct.b32.f32",
        got["slct_f32"],
        [x if selects_a(c) else y for x, y, c in zip(ia, ib, xs, strict=True)],
    )
    _check_ints(
        "slct.ftz.b32.f32",
        got["slct_ftz"],
        [
            x if selects_a(flush(F32, c)) else y
            for x, y, c in zip(ia, ib, xs, strict=True)
        ],
    )


def _check_ints(label: str, got: np.ndarray, expected: list[int]) -> None:
    wrong = [
        f"  case {i}: {int(g):#x}, expected {e:#x}"
        for i, (g, e) in enumerate(zip(got.tolist(), expected, strict=True))
        if int(g) != e
    ]
    assert not wrong, f"{label}: {len(wrong)} of {len(expected)} wrong\n" + "\n".join(
        wrong[:10]
    )


TESTS: dict[str, Callable[[Format, Real], bool]] = {
    "finite": lambda f, x: not isinstance(x, float) or math.isfinite(x),
    "infinite": lambda f, x: isinstance(x, float) and math.isinf(x),
    "number": lambda f, x: not is_nan(x),
    "notanumber": lambda f, x: is_nan(x),
    # Zeros count as normal numbers.
    "normal": lambda f, x: (
        (isinstance(x, float) and x == 0.0)
        or (not isinstance(x, float) and abs(x) >= f.min_normal)
    ),
    "subnormal": lambda f, x: not isinstance(x, float) and abs(x) < f.min_normal,
}


@pytest.mark.parametrize("name", ["f32", "f64"])
def test_testp_and_copysign(name: str) -> None:
    fmt = FORMATS[name]
    a, b = columns(operand_tuples(fmt, 2, "testp", 500))
    reg = register(fmt)
    body = "\n".join(f"testp.{test}.{name} %{test}, %a;" for test in TESTS)
    body += f"\ncopysign.{name} %copy, %a, %b;"
    got = run_cases(
        body,
        {"a": (reg, a), "b": (reg, b)},
        {test: "pred" for test in TESTS} | {"copy": reg},
    )
    xs = values(fmt, a)
    for test, fn in TESTS.items():
        _assert_flags(f"testp.{test}.{name}", got[test], [fn(fmt, x) for x in xs], a, a)
    # copysign: the sign bit of a on the bits of b, even for NaN.
    sign = fmt.sign_bit
    _check_ints(
        f"copysign.{name}",
        got["copy"],
        [(y & ~sign) | (x & sign) for x, y in zip(a, b, strict=True)],
    )


def test_set_half_precision_and_lop3_predicate() -> None:
    """set on f16 / f16x2 sources: 1.0 per true half into a float destination, 0xffff per
    true half into a .u32 one; lop3.BoolOp writes d and p = BoolOp(d != 0, q)."""
    a, b = columns(operand_tuples(F16, 2, "seth", 400))
    pa = [x | (y << 16) for x, y in zip(a, a[::-1], strict=True)]
    pb = [x | (y << 16) for x, y in zip(b, b[::-1], strict=True)]
    r = rng("lop3p")
    q = [r.getrandbits(1) for _ in a]
    got = run_cases(
        """
        set.gtu.f16.f16 %set_f16, %a, %b;
        set.lt.f16x2.f16x2 %set_x2, %pa, %pb;
        set.lt.u32.f16x2 %set_u32, %pa, %pb;
        lop3.or.b32 %lop|%flag, %pa, %pb, %pa, 0x3c, %q;
        """,
        {
            "a": ("b16", a),
            "b": ("b16", b),
            "pa": ("b32", pa),
            "pb": ("b32", pb),
            "q": ("pred", q),
        },
        {
            "set_f16": "b16",
            "set_x2": "b32",
            "set_u32": "b32",
            "lop": "b32",
            "flag": "pred",
        },
    )
    xs, ys = values(F16, a), values(F16, b)
    one = 0x3C00
    gtu = [float_compare("gtu", x, y) for x, y in zip(xs, ys, strict=True)]
    _check_ints("set.gtu.f16.f16", got["set_f16"], [one if t else 0 for t in gtu])
    lt = [float_compare("lt", x, y) for x, y in zip(xs, ys, strict=True)]
    halves = list(zip(lt, lt[::-1], strict=True))
    _check_ints(
        "set.lt.f16x2.f16x2",
        got["set_x2"],
        [(one if lo else 0) | ((one if hi else 0) << 16) for lo, hi in halves],
    )
    _check_ints(
        "set.lt.u32.f16x2",
        got["set_u32"],
        [(0xFFFF if lo else 0) | ((0xFFFF if hi else 0) << 16) for lo, hi in halves],
    )
    # 0x3c is a ^ b.
    lop = [x ^ y for x, y in zip(pa, pb, strict=True)]
    _check_ints("lop3.or.b32 (d)", got["lop"], lop)
    _assert_flags(
        "lop3.or.b32 (p)",
        got["flag"],
        [d != 0 or bool(v) for d, v in zip(lop, q, strict=True)],
        pa,
        pb,
    )
