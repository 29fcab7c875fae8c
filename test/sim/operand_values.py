"""Operand values for the instruction tests: the hard cases of each format (zeros, the
subnormal and normal limits, the largest finite values, infinities, NaN, neighbours of 1)
and random values chosen to hit ties, cancellation, underflow and overflow."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction

from float_reference import Format, encode, round_bits

SEED = 20240613


def rng(salt: str) -> random.Random:
    return random.Random(f"{SEED}:{salt}")


def special_bits(fmt: Format) -> list[int]:
    """Bit patterns of the values where formats and rounding modes disagree most."""
    sign = fmt.sign_bit
    one = encode(fmt, 1)
    step = 1 << fmt.shift
    largest = encode(fmt, fmt.largest)
    positive = [
        0,
        step,  # smallest subnormal
        2 * step,
        encode(fmt, fmt.min_normal) - step,  # largest subnormal
        encode(fmt, fmt.min_normal),
        encode(fmt, fmt.min_normal) + step,
        one - step,
        one,
        one + step,
        encode(fmt, 2) - step,
        encode(fmt, 3),
        largest - step,
        largest,
    ]
    if fmt.ieee:
        top = ((1 << fmt.exponent) - 1) << (fmt.mantissa + fmt.shift)
        positive += [top, top | (1 << (fmt.mantissa - 1 + fmt.shift))]  # inf, NaN
    else:
        positive.append(fmt.canonical_nan)
    return positive + [bits | sign for bits in positive]


def random_bits(fmt: Format, r: random.Random) -> int:
    """Any pattern: every exponent is as likely, so subnormals and specials show up."""
    return r.getrandbits(fmt.bits - fmt.shift) << fmt.shift


def short_bits(
    fmt: Format, r: random.Random, *, exponent: int, spread: int, kept: int
) -> int:
    """A value ±2^e * 1.xxx with e in exponent ± spread and only `kept` random mantissa bits:
    sums and products of such values are often exact or exactly halfway."""
    e = r.randint(exponent - spread, exponent + spread)
    e = max(min(e, fmt.emax), fmt.emin - fmt.mantissa)
    kept = min(kept, fmt.mantissa)
    significand = Fraction((1 << kept) | r.getrandbits(kept), 1 << kept)
    bits = round_bits(fmt, significand * Fraction(2) ** e, "rz")
    return bits | (fmt.sign_bit if r.random() < 0.5 else 0)


def operand_tuples(
    fmt: Format, arity: int, salt: str, count: int
) -> list[tuple[int, ...]]:
    """Every combination of a few hard cases, then random and tie-prone operands."""
    r = rng(f"{fmt.name}:{arity}:{salt}")
    specials = special_bits(fmt)
    core = specials if arity < 3 else specials[:: max(1, len(specials) // 8)]
    cases = list(itertools.product(core, repeat=arity))
    while len(cases) < count:
        choice = r.random()
        if choice < 0.3:
            cases.append(tuple(random_bits(fmt, r) for _ in range(arity)))
        elif choice < 0.8:
            e = r.randint(fmt.emin - 2, fmt.emax)
            cases.append(
                tuple(
                    short_bits(
                        fmt,
                        r,
                        exponent=e,
                        spread=fmt.mantissa + 3,
                        kept=(fmt.mantissa + 3) // 2,
                    )
                    for _ in range(arity)
                )
            )
        else:
            # Near the edges: tiny products, huge sums.
            e = r.choice([fmt.emin // 2 - 1, fmt.emin, fmt.emax // 2 + 1, fmt.emax])
            cases.append(
                tuple(
                    short_bits(fmt, r, exponent=e, spread=3, kept=fmt.mantissa)
                    for _ in range(arity)
                )
            )
    return cases


def columns(cases: list[tuple[int, ...]]) -> Iterator[list[int]]:
    return (list(column) for column in zip(*cases, strict=True))
