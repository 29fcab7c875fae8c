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


def core_bits(fmt: Format) -> list[int]:
    """Both signs of zero, the subnormal and normal limits, 1, the largest finite value,
    infinity and NaN: every combination of these is tested."""
    step = 1 << fmt.shift
    min_normal = encode(fmt, fmt.min_normal)
    magnitudes = [0, step, min_normal - step, min_normal, encode(fmt, 1)]
    magnitudes += [encode(fmt, fmt.largest), *_specials(fmt)]
    return [bits | sign for bits in magnitudes for sign in (0, fmt.sign_bit)]


def edge_bits(fmt: Format) -> list[int]:
    """Neighbours of the core values, mixed into the random operands."""
    step = 1 << fmt.shift
    min_normal = encode(fmt, fmt.min_normal)
    one, largest = encode(fmt, 1), encode(fmt, fmt.largest)
    magnitudes = [2 * step, min_normal + step, one - step, one + step, largest - step]
    magnitudes += [encode(fmt, 2) - step, encode(fmt, 3)]
    return [bits | sign for bits in magnitudes for sign in (0, fmt.sign_bit)]


def _specials(fmt: Format) -> list[int]:
    """Infinity and a quiet NaN (e4m3 has only NaN)."""
    if not fmt.ieee:
        return [fmt.canonical_nan]
    infinity = ((1 << fmt.exponent) - 1) << (fmt.mantissa + fmt.shift)
    return [infinity, infinity | (1 << (fmt.mantissa - 1 + fmt.shift))]


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
    """Every combination of the core hard cases (for three operands, of half of them),
    then random, tie-prone and edge operands up to `count` tuples."""
    r = rng(f"{fmt.name}:{arity}:{salt}")
    core = core_bits(fmt)
    if arity >= 3:  # +0, -0, the smallest subnormal, ±1, infinity, NaN
        core = [core[0], core[1], core[2], core[8], core[9], *core[12:][::2]]
    specials = core_bits(fmt) + edge_bits(fmt)
    cases = list(itertools.product(core, repeat=arity))
    while len(cases) < count:
        choice = r.random()
        if choice < 0.25:
            cases.append(tuple(random_bits(fmt, r) for _ in range(arity)))
        elif choice < 0.7:
            e = r.randint(fmt.emin - 2, fmt.emax)
            spread, kept = fmt.mantissa + 3, (fmt.mantissa + 3) // 2
            cases.append(
                tuple(
                    short_bits(fmt, r, exponent=e, spread=spread, kept=kept)
                    for _ in range(arity)
                )
            )
        elif choice < 0.85:
            # Near the edges: tiny products, huge sums.
            e = r.choice([fmt.emin // 2 - 1, fmt.emin, fmt.emax // 2 + 1, fmt.emax])
            cases.append(
                tuple(
                    short_bits(fmt, r, exponent=e, spread=3, kept=fmt.mantissa)
                    for _ in range(arity)
                )
            )
        else:
            # Edge values against random ones.
            cases.append(
                tuple(
                    r.choice(specials) if r.random() < 0.5 else random_bits(fmt, r)
                    for _ in range(arity)
                )
            )
    return cases


def columns(cases: list[tuple[int, ...]]) -> Iterator[list[int]]:
    return (list(column) for column in zip(*cases, strict=True))
