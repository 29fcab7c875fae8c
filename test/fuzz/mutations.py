"""The mutations of the fuzzer (see fuzzer.py): byte, token and line edits of a seed input.

Each mutator takes the case's random choices (`Mutation`) and the input bytes and returns
new bytes: lines and tokens deleted, duplicated, swapped or replaced by those of another
seed, splices, numeric boundary values, truncation, random and non-UTF-8 bytes, deep
nesting, very long lines and numbers, and `// -----` split markers.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Seed:
    """One input of the corpus: `kind` is the file extension tileas-opt reads it as."""

    name: str
    corpus: str
    kind: str
    data: bytes


_TOKEN = re.compile(
    rb"[A-Za-z_$%#!^@.][\w$.]*|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\"(?:[^\"\\\n]|\\.)*\"|\S"
)
_NUMBER = re.compile(rb"(?<![\w.$%])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")

BOUNDARY_NUMBERS: tuple[bytes, ...] = (
    b"0",
    b"-1",
    b"1",
    b"-0",
    b"2",
    b"3",
    b"7",
    b"127",
    b"128",
    b"255",
    b"256",
    b"4096",
    b"65535",
    b"65536",
    b"2147483647",
    b"2147483648",
    b"-2147483648",
    b"-2147483649",
    b"4294967295",
    b"4294967296",
    b"9223372036854775807",
    b"9223372036854775808",
    b"-9223372036854775809",
    b"18446744073709551616",
    b"340282366920938463463374607431768211456",
    b"1" * 5000,
    b"0x",
    b"0xFFFFFFFFFFFFFFFFFFFF",
    b"0x7fffffff",
    b"0b102",
    b"09",
    b"1e309",
    b"-1e309",
    b"1.5",
    b"nan",
    b"inf",
    b"0f7FC00000",
    b"0d7FF8000000000000",
    b"1e-400",
)

NESTING: tuple[tuple[bytes, bytes], ...] = (
    (b"(", b")"),
    (b"[", b"]"),
    (b"{", b"}"),
    (b"<", b">"),
    (b"!llvm.ptr<", b">"),
    (b"tensor<", b">"),
    (b"!nvvm.struct<(", b")>"),
    (b"scf.execute_region { ", b" }"),
    (b"[[", b"]]"),
)


@dataclass
class Mutation:
    """The random choices of one case; `applied` names the mutations, for the report."""

    rng: random.Random
    seeds: Sequence[Seed]
    applied: list[str] = field(default_factory=lambda: [])


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def tokens_of(data: bytes) -> list[tuple[int, int]]:
    return [m.span() for m in _TOKEN.finditer(data)]


def _pick_token(m: Mutation, data: bytes) -> tuple[int, int] | None:
    tokens = tokens_of(data)
    return m.rng.choice(tokens) if tokens else None


def delete_line(m: Mutation, data: bytes) -> bytes:
    lines = _lines(data)
    i = m.rng.randrange(len(lines))
    n = m.rng.choice((1, 1, 1, 2, 5))
    return b"\n".join(lines[:i] + lines[i + n :])


def duplicate_line(m: Mutation, data: bytes) -> bytes:
    lines = _lines(data)
    i = m.rng.randrange(len(lines))
    j = m.rng.randrange(len(lines) + 1)
    return b"\n".join([*lines[:j], lines[i], *lines[j:]])


def swap_lines(m: Mutation, data: bytes) -> bytes:
    lines = _lines(data)
    i, j = m.rng.randrange(len(lines)), m.rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def delete_token(m: Mutation, data: bytes) -> bytes:
    span = _pick_token(m, data)
    if span is None:
        return data
    return data[: span[0]] + data[span[1] :]


def duplicate_token(m: Mutation, data: bytes) -> bytes:
    span = _pick_token(m, data)
    if span is None:
        return data
    token = data[span[0] : span[1]]
    return data[: span[1]] + b" " + token + data[span[1] :]


def swap_tokens(m: Mutation, data: bytes) -> bytes:
    tokens = tokens_of(data)
    if len(tokens) < 2:
        return data
    a, b = sorted(m.rng.sample(tokens, 2))
    if a[1] > b[0]:
        return data
    return (
        data[: a[0]]
        + data[b[0] : b[1]]
        + data[a[1] : b[0]]
        + data[a[0] : a[1]]
        + data[b[1] :]
    )


def _token_class(token: bytes) -> int:
    return 0 if token[:1].isdigit() or token[:1] == b"-" else 1 if len(token) > 1 else 2


def replace_token(m: Mutation, data: bytes) -> bytes:
    """A token of another seed of the same kind, in place of one of this; mostly one of
    the same class (name, number, punctuation), which keeps more inputs well-formed."""
    span = _pick_token(m, data)
    if span is None:
        return data
    token = data[span[0] : span[1]]
    donor = m.rng.choice(m.seeds).data
    tokens = [donor[a:b] for a, b in tokens_of(donor)]
    if m.rng.random() < 0.8:
        tokens = [t for t in tokens if _token_class(t) == _token_class(token)]
    if not tokens:
        return data
    return data[: span[0]] + m.rng.choice(tokens) + data[span[1] :]


def replace_line(m: Mutation, data: bytes) -> bytes:
    """A line of another seed in place of one of this."""
    lines = _lines(data)
    donor = _lines(m.rng.choice(m.seeds).data)
    lines[m.rng.randrange(len(lines))] = m.rng.choice(donor)
    return b"\n".join(lines)


def splice(m: Mutation, data: bytes) -> bytes:
    """A few lines of another seed, inserted at a random line."""
    donor = _lines(m.rng.choice(m.seeds).data)
    start = m.rng.randrange(len(donor))
    piece = donor[start : start + m.rng.choice((1, 2, 4, 10, 40))]
    lines = _lines(data)
    at = m.rng.randrange(len(lines) + 1)
    return b"\n".join([*lines[:at], *piece, *lines[at:]])


def boundary_number(m: Mutation, data: bytes) -> bytes:
    numbers = [x.span() for x in _NUMBER.finditer(data)]
    if not numbers:
        return data
    start, end = m.rng.choice(numbers)
    return data[:start] + m.rng.choice(BOUNDARY_NUMBERS) + data[end:]


def truncate(m: Mutation, data: bytes) -> bytes:
    return data[: m.rng.randrange(len(data) + 1)]


def random_bytes(m: Mutation, data: bytes) -> bytes:
    at = m.rng.randrange(len(data) + 1)
    alphabet = m.rng.choice(
        (
            b"{}[]()<>,;:=@%#!^\"'\\-+*./ \n\t0123456789abcdefxyz_$",
            bytes(range(256)),
        )
    )
    noise = bytes(m.rng.choice(alphabet) for _ in range(m.rng.randrange(1, 9)))
    cut = m.rng.choice((0, 0, 1, 4))
    return data[:at] + noise + data[at + cut :]


def non_utf8(m: Mutation, data: bytes) -> bytes:
    at = m.rng.randrange(len(data) + 1)
    bad = m.rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80abc", b"\xfe\xff"))
    return data[:at] + bad + data[at:]


def deep_nesting(m: Mutation, data: bytes) -> bytes:
    opening, closing = m.rng.choice(NESTING)
    depth = m.rng.choice((50, 300, 1000, 5000, 20000))
    span = _pick_token(m, data)
    if span is None:
        return opening * depth + closing * depth
    start, end = span
    closed = m.rng.random() < 0.5
    return (
        data[:start]
        + opening * depth
        + data[start:end]
        + (closing * depth if closed else b"")
        + data[end:]
    )


def long_line(m: Mutation, data: bytes) -> bytes:
    span = _pick_token(m, data)
    if span is None:
        return data
    start, end = span
    token = data[start:end]
    count = m.rng.choice((1000, 20000, 100000))
    choice = m.rng.randrange(3)
    if choice == 0:
        filler = b", ".join([token] * count)
    elif choice == 1:
        filler = token + b"x" * count
    else:
        filler = b"9" * count
    return data[:start] + filler + data[end:]


def split_marker(m: Mutation, data: bytes) -> bytes:
    lines = _lines(data)
    at = m.rng.randrange(len(lines) + 1)
    return b"\n".join([*lines[:at], b"// -----", *lines[at:]])


MUTATORS: tuple[Callable[[Mutation, bytes], bytes], ...] = (
    delete_line,
    delete_line,
    duplicate_line,
    swap_lines,
    delete_token,
    delete_token,
    duplicate_token,
    swap_tokens,
    replace_token,
    replace_token,
    replace_token,
    replace_line,
    splice,
    boundary_number,
    boundary_number,
    truncate,
    random_bytes,
    non_utf8,
    deep_nesting,
    long_line,
    split_marker,
)


def mutate(m: Mutation, data: bytes) -> bytes:
    """One to four mutations of `data`, mostly the cheap local ones."""
    for _ in range(m.rng.choice((1, 1, 1, 2, 2, 3, 4))):
        mutator = m.rng.choice(MUTATORS)
        m.applied.append(mutator.__name__)
        data = mutator(m, data) if data else data
    return data
