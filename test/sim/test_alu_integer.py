"""Integer and bit instructions against Python integers, following the ISA's semantics
pseudo-code: wrap-around add/sub/mul, mul.hi and .wide, mad, div/rem of negative values,
saturation, shifts past the width, funnel shifts, bfe/bfi/prmt/lop3/bfind/brev/popc/clz,
dp4a/dp2a, sad, bmsk and szext.
PTX ISA: "Integer Arithmetic Instructions" (9.7.1), "Logic and Shift Instructions" (9.7.8),
prmt (9.7.9.7)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from operand_values import rng
from ptx_cases import run_cases
from test_alu_convert import int_values, signed_value

TYPES = [f"{kind}{bits}" for bits in (16, 32, 64) for kind in ("u", "s")]


def wrap(value: int, bits: int) -> int:
    return value & ((1 << bits) - 1)


def reg(bits: int) -> str:
    return f"b{max(bits, 16)}"


def check(
    label: str, got: np.ndarray, expected: list[int], *operands: list[int]
) -> None:
    wrong = [
        f"  ({', '.join(hex(op[i]) for op in operands)}) -> {int(g):#x}, expected {e:#x}"
        for i, (g, e) in enumerate(zip(got.tolist(), expected, strict=True))
        if int(g) != e
    ]
    assert not wrong, f"{label}: {len(wrong)} of {len(expected)} wrong\n" + "\n".join(
        wrong[:10]
    )


def trunc_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


@pytest.mark.parametrize("name", TYPES)
def test_arithmetic(name: str) -> None:
    bits, signed = int(name[1:]), name[0] == "s"
    a = int_values(bits, 600, "arith-a")
    b = int_values(bits, 600, "arith-b")[::-1]
    c = int_values(bits, 600, "arith-c")
    nonzero = [v or 1 for v in b]
    r = reg(bits)
    body = [
        f"add.{name} %add, %a, %b;",
        f"sub.{name} %sub, %a, %b;",
        f"mul.lo.{name} %mul_lo, %a, %b;",
        f"mul.hi.{name} %mul_hi, %a, %b;",
        f"mad.lo.{name} %mad_lo, %a, %b, %c;",
        f"mad.hi.{name} %mad_hi, %a, %b, %c;",
        f"div.{name} %div, %a, %n;",
        f"rem.{name} %rem, %a, %n;",
        f"min.{name} %min, %a, %b;",
        f"max.{name} %max, %a, %b;",
        f"sad.{name} %sad, %a, %b, %c;",
    ]
    outputs = dict.fromkeys(
        [
            "add",
            "sub",
            "mul_lo",
            "mul_hi",
            "mad_lo",
            "mad_hi",
            "div",
            "rem",
            "min",
            "max",
            "sad",
        ],
        r,
    )
    if signed:
        body += [f"abs.{name} %abs, %a;", f"neg.{name} %neg, %a;"]
        outputs |= {"abs": r, "neg": r}
    if bits < 64:
        body += [
            f"mul.wide.{name} %wide, %a, %b;",
            f"mad.wide.{name} %mad_wide, %a, %b, %w;",
        ]
        outputs |= {"wide": f"b{2 * bits}", "mad_wide": f"b{2 * bits}"}
    wide_c = int_values(2 * bits, 600, "arith-w") if bits < 64 else c
    inputs = {
        "a": (r, a),
        "b": (r, b),
        "c": (r, c),
        "n": (r, nonzero),
        "w": (f"b{2 * bits}", wide_c),
    }
    if bits == 64:
        del inputs["w"]
    got = run_cases("\n".join(body), inputs, outputs)
    x = [signed_value(v, bits, signed) for v in a]
    y = [signed_value(v, bits, signed) for v in b]
    z = [signed_value(v, bits, signed) for v in c]
    n = [signed_value(v, bits, signed) for v in nonzero]
    pairs = list(zip(x, y, strict=True))
    check(f"add.{name}", got["add"], [wrap(p + q, bits) for p, q in pairs], a, b)
    check(f"sub.{name}", got["sub"], [wrap(p - q, bits) for p, q in pairs], a, b)
    check(f"mul.lo.{name}", got["mul_lo"], [wrap(p * q, bits) for p, q in pairs], a, b)
    check(
        f"mul.hi.{name}",
        got["mul_hi"],
        [wrap((p * q) >> bits, bits) for p, q in pairs],
        a,
        b,
    )
    check(
        f"mad.lo.{name}",
        got["mad_lo"],
        [wrap(p * q + s, bits) for (p, q), s in zip(pairs, z, strict=True)],
        a,
        b,
        c,
    )
    check(
        f"mad.hi.{name}",
        got["mad_hi"],
        [wrap(((p * q) >> bits) + s, bits) for (p, q), s in zip(pairs, z, strict=True)],
        a,
        b,
        c,
    )
    check(
        f"div.{name}",
        got["div"],
        [wrap(trunc_div(p, q), bits) for p, q in zip(x, n, strict=True)],
        a,
        nonzero,
    )
    check(
        f"rem.{name}",
        got["rem"],
        [wrap(p - trunc_div(p, q) * q, bits) for p, q in zip(x, n, strict=True)],
        a,
        nonzero,
    )
    check(f"min.{name}", got["min"], [wrap(min(p, q), bits) for p, q in pairs], a, b)
    check(f"max.{name}", got["max"], [wrap(max(p, q), bits) for p, q in pairs], a, b)
    check(
        f"sad.{name}",
        got["sad"],
        [wrap(abs(p - q) + s, bits) for (p, q), s in zip(pairs, z, strict=True)],
        a,
        b,
        c,
    )
    if signed:
        check(f"abs.{name}", got["abs"], [wrap(abs(p), bits) for p in x], a)
        check(f"neg.{name}", got["neg"], [wrap(-p, bits) for p in x], a)
    if bits < 64:
        check(
            f"mul.wide.{name}",
            got["wide"],
            [wrap(p * q, 2 * bits) for p, q in pairs],
            a,
            b,
        )
        w = [signed_value(v, 2 * bits, signed) for v in wide_c]
        check(
            f"mad.wide.{name}",
            got["mad_wide"],
            [wrap(p * q + s, 2 * bits) for (p, q), s in zip(pairs, w, strict=True)],
            a,
            b,
            wide_c,
        )


def test_saturating_s32() -> None:
    """add.sat, sub.sat and mad.hi.sat clamp to the s32 range; max.relu / min.relu clamp
    negatives to zero."""
    a = int_values(32, 800, "sat-a")
    b = int_values(32, 800, "sat-b")[::-1]
    c = int_values(32, 800, "sat-c")
    got = run_cases(
        """
        add.sat.s32 %add, %a, %b;
        sub.sat.s32 %sub, %a, %b;
        mad.hi.sat.s32 %mad, %a, %b, %c;
        max.relu.s32 %max, %a, %b;
        min.relu.s32 %min, %a, %b;
        """,
        {"a": ("b32", a), "b": ("b32", b), "c": ("b32", c)},
        dict.fromkeys(["add", "sub", "mad", "max", "min"], "b32"),
    )

    def sat(v: int) -> int:
        return wrap(min(max(v, -(2**31)), 2**31 - 1), 32)

    x = [signed_value(v, 32, True) for v in a]
    y = [signed_value(v, 32, True) for v in b]
    z = [signed_value(v, 32, True) for v in c]
    check(
        "add.sat.s32", got["add"], [sat(p + q) for p, q in zip(x, y, strict=True)], a, b
    )
    check(
        "sub.sat.s32", got["sub"], [sat(p - q) for p, q in zip(x, y, strict=True)], a, b
    )
    check(
        "mad.hi.sat.s32",
        got["mad"],
        [sat(((p * q) >> 32) + s) for p, q, s in zip(x, y, z, strict=True)],
        a,
        b,
        c,
    )
    check(
        "max.relu.s32",
        got["max"],
        [wrap(max(p, q, 0), 32) for p, q in zip(x, y, strict=True)],
        a,
        b,
    )
    check(
        "min.relu.s32",
        got["min"],
        [wrap(max(min(p, q), 0), 32) for p, q in zip(x, y, strict=True)],
        a,
        b,
    )


def test_mul24() -> None:
    """mul24 multiplies the low 24 bits (sign-extended for .s32); .hi takes bits 47..16."""
    a = int_values(32, 600, "m24-a")
    b = int_values(32, 600, "m24-b")[::-1]
    c = int_values(32, 600, "m24-c")
    got = run_cases(
        """
        mul24.lo.u32 %lo_u, %a, %b;
        mul24.hi.u32 %hi_u, %a, %b;
        mul24.lo.s32 %lo_s, %a, %b;
        mul24.hi.s32 %hi_s, %a, %b;
        mad24.lo.s32 %mad_s, %a, %b, %c;
        mad24.hi.u32 %mad_hi_u, %a, %b, %c;
        """,
        {"a": ("b32", a), "b": ("b32", b), "c": ("b32", c)},
        dict.fromkeys(["lo_u", "hi_u", "lo_s", "hi_s", "mad_s", "mad_hi_u"], "b32"),
    )

    def low24(v: int, signed: bool) -> int:
        return signed_value(v & 0xFFFFFF, 24, signed)

    for signed, suffix in ((False, "u"), (True, "s")):
        products = [
            low24(p, signed) * low24(q, signed) for p, q in zip(a, b, strict=True)
        ]
        check(
            f"mul24.lo.{suffix}32",
            got[f"lo_{suffix}"],
            [wrap(v, 32) for v in products],
            a,
            b,
        )
        check(
            f"mul24.hi.{suffix}32",
            got[f"hi_{suffix}"],
            [wrap(v >> 16, 32) for v in products],
            a,
            b,
        )
    signed_products = [
        low24(p, True) * low24(q, True) for p, q in zip(a, b, strict=True)
    ]
    check(
        "mad24.lo.s32",
        got["mad_s"],
        [wrap(v + s, 32) for v, s in zip(signed_products, c, strict=True)],
        a,
        b,
        c,
    )
    unsigned_products = [
        low24(p, False) * low24(q, False) for p, q in zip(a, b, strict=True)
    ]
    check(
        "mad24.hi.u32",
        got["mad_hi_u"],
        [wrap((v >> 16) + s, 32) for v, s in zip(unsigned_products, c, strict=True)],
        a,
        b,
        c,
    )


def shift_amounts(count: int) -> list[int]:
    r = rng("shift")
    return [r.choice([r.randint(0, 70), r.getrandbits(32)]) for _ in range(count)]


@pytest.mark.parametrize("bits", [16, 32, 64])
def test_shifts(bits: int) -> None:
    """Amounts past the width give 0 (shl, shr of unsigned) or the sign fill (shr.s)."""
    a = int_values(bits, 600, "shift")
    n = shift_amounts(600)
    got = run_cases(
        f"shl.b{bits} %shl, %a, %n;\nshr.u{bits} %shr_u, %a, %n;\nshr.s{bits} %shr_s, %a, %n;\nshr.b{bits} %shr_b, %a, %n;",
        {"a": (reg(bits), a), "n": ("b32", n)},
        dict.fromkeys(["shl", "shr_u", "shr_s", "shr_b"], reg(bits)),
    )
    clamped = [min(k, bits) for k in n]
    check(
        f"shl.b{bits}",
        got["shl"],
        [wrap(v << k, bits) for v, k in zip(a, clamped, strict=True)],
        a,
        n,
    )
    check(
        f"shr.u{bits}",
        got["shr_u"],
        [v >> k for v, k in zip(a, clamped, strict=True)],
        a,
        n,
    )
    check(
        f"shr.b{bits}",
        got["shr_b"],
        [v >> k for v, k in zip(a, clamped, strict=True)],
        a,
        n,
    )
    check(
        f"shr.s{bits}",
        got["shr_s"],
        [
            wrap(signed_value(v, bits, True) >> k, bits)
            for v, k in zip(a, clamped, strict=True)
        ],
        a,
        n,
    )


def test_funnel_shifts() -> None:
    r = rng("shf")
    a = [r.getrandbits(32) for _ in range(500)]
    b = [r.getrandbits(32) for _ in range(500)]
    n = shift_amounts(500)
    got = run_cases(
        """
        shf.l.wrap.b32 %lw, %a, %b, %n;
        shf.l.clamp.b32 %lc, %a, %b, %n;
        shf.r.wrap.b32 %rw, %a, %b, %n;
        shf.r.clamp.b32 %rc, %a, %b, %n;
        """,
        {"a": ("b32", a), "b": ("b32", b), "n": ("b32", n)},
        dict.fromkeys(["lw", "lc", "rw", "rc"], "b32"),
    )
    joined = [(y << 32) | x for x, y in zip(a, b, strict=True)]
    modes: dict[str, Callable[[int], int]] = {
        "wrap": lambda k: k & 31,
        "clamp": lambda k: min(k, 32),
    }
    for mode, amount in modes.items():
        left = [
            wrap((v << amount(k)) >> 32, 32) for v, k in zip(joined, n, strict=True)
        ]
        right = [wrap(v >> amount(k), 32) for v, k in zip(joined, n, strict=True)]
        check(f"shf.l.{mode}", got[f"l{mode[0]}"], left, a, b, n)
        check(f"shf.r.{mode}", got[f"r{mode[0]}"], right, a, b, n)


@pytest.mark.parametrize("bits", [32, 64])
def test_bit_counting(bits: int) -> None:
    a = int_values(bits, 600, "bits")
    r = reg(bits)
    got = run_cases(
        f"""
        popc.b{bits} %popc, %a;
        clz.b{bits} %clz, %a;
        brev.b{bits} %brev, %a;
        bfind.u{bits} %bfind_u, %a;
        bfind.s{bits} %bfind_s, %a;
        bfind.shiftamt.u{bits} %shift_u, %a;
        bfind.shiftamt.s{bits} %shift_s, %a;
        """,
        {"a": (r, a)},
        {
            "popc": "b32",
            "clz": "b32",
            "brev": r,
            "bfind_u": "b32",
            "bfind_s": "b32",
            "shift_u": "b32",
            "shift_s": "b32",
        },
    )
    check(f"popc.b{bits}", got["popc"], [bin(v).count("1") for v in a], a)
    check(f"clz.b{bits}", got["clz"], [bits - v.bit_length() for v in a], a)
    check(f"brev.b{bits}", got["brev"], [int(f"{v:0{bits}b}"[::-1], 2) for v in a], a)

    def bfind(v: int, signed: bool, shiftamt: bool) -> int:
        if signed and v >> (bits - 1):
            v = ~v & ((1 << bits) - 1)
        if v == 0:
            return 0xFFFFFFFF
        msb = v.bit_length() - 1
        return bits - 1 - msb if shiftamt else msb

    for key, signed, shiftamt in (
        ("bfind_u", False, False),
        ("bfind_s", True, False),
        ("shift_u", False, True),
        ("shift_s", True, True),
    ):
        check(
            f"bfind {key}.{bits}", got[key], [bfind(v, signed, shiftamt) for v in a], a
        )


def field_operands(count: int, salt: str) -> tuple[list[int], list[int]]:
    """Start and length operands: mostly in 0..bits+2, some anywhere in 0..255 and above
    (only the low 8 bits count)."""
    r = rng(salt)
    pos = [
        r.choice([r.randint(0, 66), r.randint(0, 255), r.getrandbits(32)])
        for _ in range(count)
    ]
    length = [
        r.choice([r.randint(0, 66), r.randint(0, 255), r.getrandbits(32)])
        for _ in range(count)
    ]
    return pos, length


@pytest.mark.parametrize("bits", [32, 64])
def test_bfe_bfi(bits: int) -> None:
    a = int_values(bits, 800, "bfe-a")
    b = int_values(bits, 800, "bfe-b")
    pos, length = field_operands(800, f"bfe{bits}")
    r = reg(bits)
    got = run_cases(
        f"""
        bfe.u{bits} %bfe_u, %a, %p, %l;
        bfe.s{bits} %bfe_s, %a, %p, %l;
        bfi.b{bits} %bfi, %a, %b, %p, %l;
        """,
        {"a": (r, a), "b": (r, b), "p": ("b32", pos), "l": ("b32", length)},
        {"bfe_u": r, "bfe_s": r, "bfi": r},
    )
    msb = bits - 1

    def bfe(v: int, b_: int, c_: int, signed: bool) -> int:
        p, n = b_ & 0xFF, c_ & 0xFF
        sbit = 0 if not signed or n == 0 else (v >> min(p + n - 1, msb)) & 1
        out = 0
        for i in range(bits):
            bit = (v >> (p + i)) & 1 if i < n and p + i <= msb else sbit
            out |= bit << i
        return out

    def bfi(x: int, y: int, c_: int, d_: int) -> int:
        p, n = c_ & 0xFF, d_ & 0xFF
        f = y
        i = 0
        while i < n and p + i <= msb:
            f = (f & ~(1 << (p + i))) | (((x >> i) & 1) << (p + i))
            i += 1
        return f

    check(
        f"bfe.u{bits}",
        got["bfe_u"],
        [bfe(v, p, n, False) for v, p, n in zip(a, pos, length, strict=True)],
        a,
        pos,
        length,
    )
    check(
        f"bfe.s{bits}",
        got["bfe_s"],
        [bfe(v, p, n, True) for v, p, n in zip(a, pos, length, strict=True)],
        a,
        pos,
        length,
    )
    check(
        f"bfi.b{bits}",
        got["bfi"],
        [bfi(x, y, p, n) for x, y, p, n in zip(a, b, pos, length, strict=True)],
        a,
        b,
        pos,
        length,
    )


PRMT_MODES: dict[str, Callable[[int], list[int]]] = {
    # Source byte of d.b0 .. d.b3 for selector c[1:0], from the ISA's table.
    "f4e": lambda s: [s, s + 1, s + 2, s + 3],
    "b4e": lambda s: [s, (s - 1) % 8, (s - 2) % 8, (s - 3) % 8],
    "rc8": lambda s: [s] * 4,
    "ecl": lambda s: [max(i, s) for i in range(4)],
    "ecr": lambda s: [min(i, s) for i in range(4)],
    "rc16": lambda s: [2 * (s & 1), 2 * (s & 1) + 1] * 2,
}


def test_prmt() -> None:
    r = rng("prmt")
    a = [r.getrandbits(32) for _ in range(600)]
    b = [r.getrandbits(32) for _ in range(600)]
    c = [r.getrandbits(32) for _ in range(600)]
    body = "prmt.b32 %default, %a, %b, %c;\n" + "\n".join(
        f"prmt.b32.{mode} %{mode}, %a, %b, %c;" for mode in PRMT_MODES
    )
    got = run_cases(
        body,
        {"a": ("b32", a), "b": ("b32", b), "c": ("b32", c)},
        dict.fromkeys(["default", *PRMT_MODES], "b32"),
    )

    def byte(source: int, index: int) -> int:
        return (source >> (8 * index)) & 0xFF

    def default(x: int, y: int, sel: int) -> int:
        source = (y << 32) | x
        out = 0
        for i in range(4):
            nibble = (sel >> (4 * i)) & 0xF
            value = byte(source, nibble & 7)
            if nibble & 8:
                value = 0xFF if value & 0x80 else 0
            out |= value << (8 * i)
        return out

    check(
        "prmt.b32",
        got["default"],
        [default(x, y, s) for x, y, s in zip(a, b, c, strict=True)],
        a,
        b,
        c,
    )
    for mode, table in PRMT_MODES.items():
        expected = [
            sum(
                byte((y << 32) | x, index) << (8 * i)
                for i, index in enumerate(table(s & 3))
            )
            for x, y, s in zip(a, b, c, strict=True)
        ]
        check(f"prmt.b32.{mode}", got[mode], expected, a, b, c)


def test_logic_and_lop3() -> None:
    r = rng("lop3")
    count = 512
    a = [r.getrandbits(32) for _ in range(count)]
    b = [r.getrandbits(32) for _ in range(count)]
    c = [r.getrandbits(32) for _ in range(count)]
    wide_a = int_values(64, count, "logic-a")
    wide_b = int_values(64, count, "logic-b")
    luts = [*range(0, 256, 7), 0x96, 0xE8, 0xFE, 0x80, 0xF0, 0xCC, 0xAA]
    body = "\n".join(f"lop3.b32 %lut{lut}, %a, %b, %c, {lut};" for lut in luts)
    body += """
        and.b64 %and, %wa, %wb;
        or.b64 %or, %wa, %wb;
        xor.b64 %xor, %wa, %wb;
        not.b64 %not, %wa;
        cnot.b32 %cnot, %c0;
    """
    c0 = [v if i % 3 else 0 for i, v in enumerate(c)]
    got = run_cases(
        body,
        {
            "a": ("b32", a),
            "b": ("b32", b),
            "c": ("b32", c),
            "wa": ("b64", wide_a),
            "wb": ("b64", wide_b),
            "c0": ("b32", c0),
        },
        {f"lut{lut}": "b32" for lut in luts}
        | {"and": "b64", "or": "b64", "xor": "b64", "not": "b64", "cnot": "b32"},
    )

    def lop3(x: int, y: int, z: int, lut: int) -> int:
        out = 0
        for bit in range(32):
            index = (((x >> bit) & 1) << 2) | (((y >> bit) & 1) << 1) | ((z >> bit) & 1)
            out |= ((lut >> index) & 1) << bit
        return out

    for lut in luts:
        check(
            f"lop3 {lut:#x}",
            got[f"lut{lut}"],
            [lop3(x, y, z, lut) for x, y, z in zip(a, b, c, strict=True)],
            a,
            b,
            c,
        )
    check(
        "and.b64",
        got["and"],
        [x & y for x, y in zip(wide_a, wide_b, strict=True)],
        wide_a,
        wide_b,
    )
    check(
        "or.b64",
        got["or"],
        [x | y for x, y in zip(wide_a, wide_b, strict=True)],
        wide_a,
        wide_b,
    )
    check(
        "xor.b64",
        got["xor"],
        [x ^ y for x, y in zip(wide_a, wide_b, strict=True)],
        wide_a,
        wide_b,
    )
    check("not.b64", got["not"], [wrap(~x, 64) for x in wide_a], wide_a)
    check("cnot.b32", got["cnot"], [int(x == 0) for x in c0], c0)


def test_dot_products() -> None:
    r = rng("dp")
    a = [r.getrandbits(32) for _ in range(500)]
    b = [r.getrandbits(32) for _ in range(500)]
    c = [r.getrandbits(32) for _ in range(500)]
    kinds = [("u32", "u32"), ("u32", "s32"), ("s32", "u32"), ("s32", "s32")]
    body: list[str] = []
    for ta, tb in kinds:
        body.append(f"dp4a.{ta}.{tb} %dp4a_{ta}_{tb}, %a, %b, %c;")
        for half in ("lo", "hi"):
            body.append(f"dp2a.{half}.{ta}.{tb} %dp2a_{half}_{ta}_{tb}, %a, %b, %c;")
    outputs = {line.split()[1].strip("%,"): "b32" for line in body}
    got = run_cases(
        "\n".join(body), {"a": ("b32", a), "b": ("b32", b), "c": ("b32", c)}, outputs
    )

    def parts(v: int, width: int, count: int, signed: bool) -> list[int]:
        return [
            signed_value((v >> (width * i)) & ((1 << width) - 1), width, signed)
            for i in range(count)
        ]

    for ta, tb in kinds:
        sa, sb = ta[0] == "s", tb[0] == "s"
        signed_c = sa or sb
        acc = [signed_value(v, 32, signed_c) for v in c]
        dp4a = [
            wrap(
                s
                + sum(
                    p * q
                    for p, q in zip(parts(x, 8, 4, sa), parts(y, 8, 4, sb), strict=True)
                ),
                32,
            )
            for x, y, s in zip(a, b, acc, strict=True)
        ]
        check(f"dp4a.{ta}.{tb}", got[f"dp4a_{ta}_{tb}"], dp4a, a, b, c)
        for half, start in (("lo", 0), ("hi", 2)):
            dp2a = [
                wrap(
                    s
                    + sum(
                        p * q
                        for p, q in zip(
                            parts(x, 16, 2, sa),
                            parts(y, 8, 4, sb)[start : start + 2],
                            strict=True,
                        )
                    ),
                    32,
                )
                for x, y, s in zip(a, b, acc, strict=True)
            ]
            check(
                f"dp2a.{half}.{ta}.{tb}", got[f"dp2a_{half}_{ta}_{tb}"], dp2a, a, b, c
            )


def test_bmsk_szext() -> None:
    r = rng("bmsk")
    a = [r.choice([r.randint(0, 40), r.getrandbits(32)]) for _ in range(600)]
    b = [r.choice([r.randint(0, 40), r.getrandbits(32)]) for _ in range(600)]
    v = [r.getrandbits(32) for _ in range(600)]
    got = run_cases(
        """
        bmsk.clamp.b32 %bmsk_clamp, %a, %b;
        bmsk.wrap.b32 %bmsk_wrap, %a, %b;
        szext.clamp.s32 %sz_clamp_s, %v, %b;
        szext.wrap.s32 %sz_wrap_s, %v, %b;
        szext.clamp.u32 %sz_clamp_u, %v, %b;
        szext.wrap.u32 %sz_wrap_u, %v, %b;
        """,
        {"a": ("b32", a), "b": ("b32", b), "v": ("b32", v)},
        dict.fromkeys(
            [
                "bmsk_clamp",
                "bmsk_wrap",
                "sz_clamp_s",
                "sz_wrap_s",
                "sz_clamp_u",
                "sz_wrap_u",
            ],
            "b32",
        ),
    )
    ones = 0xFFFFFFFF

    def bmsk(x: int, y: int, clamp: bool) -> int:
        a1, b1 = x & 0x1F, y & 0x1F
        mask0 = (ones << a1) & ones
        mask1 = (ones << (a1 + b1)) & ones
        overflow = a1 + b1 >= 32
        if clamp:
            if x >= 32:
                mask0 = 0
            overflow = overflow or x >= 32 or y >= 32
        if overflow:
            mask1 = 0
        elif b1 == 0:
            mask1 = ones
        return mask0 & ~mask1 & ones

    def szext(x: int, y: int, clamp: bool, signed: bool) -> int:
        b1 = y & 0x1F
        too_large = y >= 32 and clamp
        mask = 0 if too_large else (ones << b1) & ones
        sign = (
            False
            if b1 == 0 or too_large or not signed
            else bool((x >> ((b1 - 1) & 0x1F)) & 1)
        )
        return ((x & ~mask) | (mask if sign else 0)) & ones

    for mode in ("clamp", "wrap"):
        clamp = mode == "clamp"
        check(
            f"bmsk.{mode}",
            got[f"bmsk_{mode}"],
            [bmsk(x, y, clamp) for x, y in zip(a, b, strict=True)],
            a,
            b,
        )
        for kind, signed in (("s", True), ("u", False)):
            check(
                f"szext.{mode}.{kind}32",
                got[f"sz_{mode}_{kind}"],
                [szext(x, y, clamp, signed) for x, y in zip(v, b, strict=True)],
                v,
                b,
            )


def test_carry_chains() -> None:
    """add.cc / addc / sub.cc / subc / mad.cc / madc propagate CC.CF per thread: 128-bit sums
    and differences from 32- and 64-bit limbs, and a 64 x 32-bit product."""
    limbs = [int_values(32, 500, f"limb{i}") for i in range(8)]
    a, b = limbs[:4], limbs[4:]
    x = [int_values(64, 500, "wide-x"), int_values(64, 500, "wide-y")[::-1]]
    y = [int_values(64, 500, "wide-z"), int_values(64, 500, "wide-w")]
    body = """
        add.cc.u32 %s0, %a0, %b0;
        addc.cc.u32 %s1, %a1, %b1;
        addc.cc.u32 %s2, %a2, %b2;
        addc.u32 %s3, %a3, %b3;
        sub.cc.u32 %d0, %a0, %b0;
        subc.cc.u32 %d1, %a1, %b1;
        subc.cc.u32 %d2, %a2, %b2;
        subc.u32 %d3, %a3, %b3;
        add.cc.u64 %w0, %x0, %y0;
        addc.u64 %w1, %x1, %y1;
        mul.lo.u32 %m0, %a0, %b0;
        mul.hi.u32 %t, %a0, %b0;
        mad.lo.cc.u32 %m1, %a1, %b0, %t;
        madc.hi.u32 %m2, %a1, %b0, 0;
    """
    inputs = {f"a{i}": ("b32", a[i]) for i in range(4)} | {
        f"b{i}": ("b32", b[i]) for i in range(4)
    }
    inputs |= {"x0": ("b64", x[0]), "x1": ("b64", x[1]), "y0": ("b64", y[0])}
    inputs |= {"y1": ("b64", y[1])}
    outputs = {f"{k}{i}": "b32" for k in ("s", "d") for i in range(4)}
    outputs |= {"w0": "b64", "w1": "b64", "m0": "b32", "m1": "b32", "m2": "b32"}
    got = run_cases(body, inputs, outputs, scratch=".reg .b32 %t;")

    def join(parts: list[list[int]], width: int) -> list[int]:
        return [
            sum(p << (width * i) for i, p in enumerate(ps))
            for ps in zip(*parts, strict=True)
        ]

    def words(values: list[int], width: int, count: int) -> list[list[int]]:
        return [
            [(v >> (width * i)) & ((1 << width) - 1) for v in values]
            for i in range(count)
        ]

    wa, wb = join(a, 32), join(b, 32)
    for i, expected in enumerate(
        words([wrap(p + q, 128) for p, q in zip(wa, wb, strict=True)], 32, 4)
    ):
        check(f"add chain word {i}", got[f"s{i}"], expected, a[i], b[i])
    for i, expected in enumerate(
        words([wrap(p - q, 128) for p, q in zip(wa, wb, strict=True)], 32, 4)
    ):
        check(f"sub chain word {i}", got[f"d{i}"], expected, a[i], b[i])
    sums = [wrap(p + q, 128) for p, q in zip(join(x, 64), join(y, 64), strict=True)]
    for i, expected in enumerate(words(sums, 64, 2)):
        check(f"add.u64 chain word {i}", got[f"w{i}"], expected, x[i], y[i])
    products = [p * q for p, q in zip(join(a[:2], 32), b[0], strict=True)]
    for i, expected in enumerate(words(products, 32, 3)):
        check(f"mad.cc product word {i}", got[f"m{i}"], expected, a[0], a[1], b[0])
