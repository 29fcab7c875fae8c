"""What an SSA value becomes in ori, and a compact way to write PTX operand lists.

A lowered value is a tuple of *elements*, one per scalar leaf of its type: a register
(`RegOp`), a constant kept as an immediate until an instruction needs it in a register
(`ImmAttr`, `FloatImmAttr`), or an `Address` (a register or symbol plus a byte offset) for
pointers, so that `getelementptr` offsets fold into `[%rd1+16]`.

Instruction operands are written as in PTX: `Def(reg)` for a register the instruction
writes, a bare `RegOp` for one it reads, `InOut(reg)` for both, `Address` for `[...]`,
`Vector` for `{...}`, `Pair` for `a|b`, `Parens` for a call's `(...)` lists, and ori's
operand attributes (immediates, symbols, special registers, `_`) as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Attribute, SSAValue

from tileas_py.dialects.ori.attributes import (
    SLOTS,
    AddressAttr,
    FloatImmAttr,
    ImmAttr,
    NotAttr,
    PairAttr,
    ParenAttr,
    Role,
    VectorAttr,
)
from tileas_py.dialects.ori.function import RegOp

Constant = ImmAttr | FloatImmAttr


@dataclass(frozen=True)
class Address:
    """`[base+offset]`: a pointer value, or a memory operand with more bracketed parts."""

    base: RegOp | SymbolRefAttr
    offset: int = 0
    rest: tuple[Operand, ...] = ()


Element = RegOp | Constant | Address
"""One scalar of a lowered value."""

Lowered = tuple[Element, ...]
"""A lowered value: one element per scalar leaf of its type."""


@dataclass(frozen=True)
class Def:
    """A register the instruction writes."""

    reg: RegOp


@dataclass(frozen=True)
class InOut:
    """A register the instruction reads and writes."""

    reg: RegOp


@dataclass(frozen=True)
class Vector:
    """`{a, b, ...}`."""

    items: tuple[Operand, ...]


@dataclass(frozen=True)
class Pair:
    """`a|b`."""

    first: Operand
    second: Operand


@dataclass(frozen=True)
class Parens:
    """`(a, b, ...)`."""

    items: tuple[Operand, ...]


@dataclass(frozen=True)
class Negated:
    """`!p`."""

    operand: Operand


Operand = RegOp | Def | InOut | Address | Vector | Pair | Parens | Negated | Attribute


def build_layout(
    operands: Sequence[Operand],
) -> tuple[list[Attribute], list[SSAValue]]:
    """The ori operand layout of `operands` and the registers its slots stand for."""
    registers: list[SSAValue] = []

    def convert(operand: Operand, role: Role) -> Attribute:
        if isinstance(operand, RegOp):
            registers.append(operand.result)
            return SLOTS[role]
        if isinstance(operand, Def):
            return convert(operand.reg, Role.DEF)
        if isinstance(operand, InOut):
            return convert(operand.reg, Role.INOUT)
        if isinstance(operand, Address):
            base = convert(operand.base, role)
            rest = [convert(item, role) for item in operand.rest]
            return AddressAttr(base, operand.offset, rest)
        if isinstance(operand, Vector):
            return VectorAttr([convert(item, role) for item in operand.items])
        if isinstance(operand, Parens):
            return ParenAttr([convert(item, role) for item in operand.items])
        if isinstance(operand, Pair):
            return PairAttr(convert(operand.first, role), convert(operand.second, role))
        if isinstance(operand, Negated):
            return NotAttr(convert(operand.operand, role))
        return operand

    return [convert(operand, Role.USE) for operand in operands], registers
