"""Types and attributes of the `ori` dialect: registers, PTX types and PTX operands.

A PTX register is a value of the single type `!ori.reg`; what kind of register it is (its
PTX type, its name, its ptxas register class) is recorded once, on the `ori.reg` op that
declares it, so a pass changes a register's class in one place.

The operands of a PTX instruction are kept as a tree of attributes (the operand *layout*)
that mirrors the PTX text: immediates, symbols, special registers, addresses, vectors,
`a|b` pairs, `!p` negations and `(...)` call lists. Each register in the tree is a
`#ori.slot<role>` leaf standing for the next SSA operand of the instruction, and its role
says whether the instruction reads it (`use`), writes it (`def`) or both (`inout`).
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#instruction-operands
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from enum import auto
from functools import lru_cache
from typing import Any

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    IntAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    TypeAttribute,
)
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum


@irdl_attr_definition
class RegisterType(ParametrizedAttribute, TypeAttribute):
    """A PTX virtual register; its PTX type and class live on its `ori.reg` declaration."""

    name = "ori.reg"


class PtxType(StrEnum):
    """The fundamental PTX types a register or variable is declared with."""

    B8 = auto()
    B16 = auto()
    B32 = auto()
    B64 = auto()
    B128 = auto()
    U8 = auto()
    U16 = auto()
    U32 = auto()
    U64 = auto()
    S8 = auto()
    S16 = auto()
    S32 = auto()
    S64 = auto()
    F16 = auto()
    F16X2 = auto()
    BF16 = auto()
    BF16X2 = auto()
    F32 = auto()
    F64 = auto()
    PRED = auto()


@irdl_attr_definition
class PtxTypeAttr(EnumAttribute[PtxType], SpacedOpaqueSyntaxAttribute):
    name = "ori.ptx_type"


class RegisterClass(StrEnum):
    """The register files of ptxas's allocator; `accumulator` is its class 6 (Tensor/Acc)."""

    GENERAL = auto()
    PREDICATE = auto()
    UNIFORM = auto()
    UNIFORM_PREDICATE = auto()
    BARRIER = auto()
    ACCUMULATOR = auto()


@irdl_attr_definition
class RegisterClassAttr(EnumAttribute[RegisterClass], SpacedOpaqueSyntaxAttribute):
    name = "ori.reg_class"


class StateSpace(StrEnum):
    """Where a PTX variable lives."""

    GLOBAL = auto()
    SHARED = auto()
    CONST = auto()
    LOCAL = auto()
    PARAM = auto()


@irdl_attr_definition
class StateSpaceAttr(EnumAttribute[StateSpace], SpacedOpaqueSyntaxAttribute):
    name = "ori.state_space"


class Linkage(StrEnum):
    """PTX linking directives."""

    VISIBLE = auto()
    EXTERN = auto()
    WEAK = auto()
    COMMON = auto()


@irdl_attr_definition
class LinkageAttr(EnumAttribute[Linkage], SpacedOpaqueSyntaxAttribute):
    name = "ori.linkage"


class FunctionKind(StrEnum):
    """`.entry` (a kernel) or `.func` (a device function)."""

    ENTRY = auto()
    FUNC = auto()


@irdl_attr_definition
class FunctionKindAttr(EnumAttribute[FunctionKind], SpacedOpaqueSyntaxAttribute):
    name = "ori.function_kind"


class Role(StrEnum):
    """What an instruction does with a register operand."""

    USE = auto()
    DEF = auto()
    INOUT = auto()

    @property
    def reads(self) -> bool:
        return self is not Role.DEF

    @property
    def writes(self) -> bool:
        return self is not Role.USE


# ---------------------------------------------------------------------------------------
# Operand leaves


@irdl_attr_definition
class SlotAttr(ParametrizedAttribute):
    """A register operand: the next SSA operand of the instruction, read and/or written."""

    name = "ori.slot"

    role_name: StringAttr

    def __init__(self, role: Role) -> None:
        super().__init__(StringAttr(str(role)))

    @property
    def role(self) -> Role:
        return Role(self.role_name.data)

    def verify(self) -> None:
        if self.role_name.data not in Role.__members__.values():
            raise VerifyException(
                f"unknown register role '{self.role_name.data}', expected use, def or inout"
            )

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.role_name.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            role = parser.parse_keyword_in(tuple(Role.__members__.values()))
        return (StringAttr(role),)


USE_SLOT = SlotAttr(Role.USE)
DEF_SLOT = SlotAttr(Role.DEF)
INOUT_SLOT = SlotAttr(Role.INOUT)
SLOTS = {Role.USE: USE_SLOT, Role.DEF: DEF_SLOT, Role.INOUT: INOUT_SLOT}


@irdl_attr_definition
class ImmAttr(ParametrizedAttribute):
    """An integer immediate (`42`, `-1`, `0xFFFFFFFF`), of any width and sign."""

    name = "ori.imm"

    value: IntAttr

    def __init__(self, value: int) -> None:
        super().__init__(IntAttr(value))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_int(self.value.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (IntAttr(parser.parse_integer(allow_boolean=False)),)


@irdl_attr_definition
class FloatImmAttr(ParametrizedAttribute):
    """A float immediate by its bits, PTX's exact `0f3F800000` (f32) / `0d...` (f64) form."""

    name = "ori.fimm"

    width: IntAttr
    bits: IntAttr

    def __init__(self, width: int, bits: int) -> None:
        super().__init__(IntAttr(width), IntAttr(bits))

    def verify(self) -> None:
        if self.width.data not in (32, 64):
            raise VerifyException(
                f"float immediates are f32 or f64, not {self.width.data} bits"
            )
        if not 0 <= self.bits.data < 1 << self.width.data:
            raise VerifyException(
                f"float immediate bits {self.bits.data:#x} do not fit in {self.width.data} bits"
            )

    @property
    def ptx(self) -> str:
        """The PTX spelling, `0f3F800000` or `0d3FF0000000000000`."""
        if self.width.data == 32:
            return f"0f{self.bits.data:08X}"
        return f"0d{self.bits.data:016X}"

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(f"f{self.width.data} {self.bits.data:#x}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            width = 32 if parser.parse_keyword_in(("f32", "f64")) == "f32" else 64
            bits = parser.parse_integer(allow_boolean=False, allow_negative=False)
        return (IntAttr(width), IntAttr(bits))


@irdl_attr_definition
class SpecialRegAttr(ParametrizedAttribute):
    """A read-only special register such as `%tid.x` or `%clusterid.x`."""

    name = "ori.sreg"

    reg_name: StringAttr

    def __init__(self, reg_name: str) -> None:
        super().__init__(StringAttr(reg_name))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.reg_name.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (StringAttr(parser.parse_str_literal()),)


@irdl_attr_definition
class SinkAttr(ParametrizedAttribute):
    """PTX's `_`: an operand position whose value is discarded."""

    name = "ori.sink"


SINK = SinkAttr()


# ---------------------------------------------------------------------------------------
# Composite operands


@irdl_attr_definition
class AddressAttr(ParametrizedAttribute):
    """`[base+offset]`, optionally with more bracketed operands: `[%rd1, {%r1, %r2}]`."""

    name = "ori.addr"

    base: Attribute
    offset: IntAttr
    rest: ArrayAttr

    def __init__(
        self, base: Attribute, offset: int = 0, rest: Sequence[Attribute] = ()
    ) -> None:
        super().__init__(base, IntAttr(offset), ArrayAttr(rest))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.base)
            if self.offset.data:
                printer.print_string(f" + {self.offset.data}")
            for item in self.rest:
                printer.print_string(", ")
                printer.print_attribute(item)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            base = parser.parse_attribute()
            offset = 0
            if parser.parse_optional_punctuation("+") is not None:
                offset = parser.parse_integer(allow_boolean=False)
            rest: list[Attribute] = []
            while parser.parse_optional_punctuation(",") is not None:
                rest.append(parser.parse_attribute())
        return (base, IntAttr(offset), ArrayAttr(rest))


def _print_list(printer: Printer, elements: ArrayAttr[Attribute]) -> None:
    with printer.in_angle_brackets():
        printer.print_list(elements, printer.print_attribute)


def _parse_list(parser: AttrParser) -> Sequence[Attribute]:
    with parser.in_angle_brackets():
        if parser.parse_optional_punctuation(">") is not None:
            return (ArrayAttr(()),)
        elements = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_attribute
        )
    return (ArrayAttr(elements),)


@irdl_attr_definition
class VectorAttr(ParametrizedAttribute):
    """A vector operand, `{%f1, %f2, %f3, %f4}`."""

    name = "ori.vec"

    elements: ArrayAttr[Attribute]

    def __init__(self, elements: Sequence[Attribute]) -> None:
        super().__init__(ArrayAttr(elements))

    def print_parameters(self, printer: Printer) -> None:
        _print_list(printer, self.elements)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return _parse_list(parser)


@irdl_attr_definition
class ParenAttr(ParametrizedAttribute):
    """A parenthesised operand list, as `call` uses for its return and argument lists."""

    name = "ori.paren"

    elements: ArrayAttr[Attribute]

    def __init__(self, elements: Sequence[Attribute]) -> None:
        super().__init__(ArrayAttr(elements))

    def print_parameters(self, printer: Printer) -> None:
        _print_list(printer, self.elements)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return _parse_list(parser)


@irdl_attr_definition
class PairAttr(ParametrizedAttribute):
    """Two results of one instruction, `%p|%q` (setp, shfl.sync, elect.sync)."""

    name = "ori.pair"

    first: Attribute
    second: Attribute

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.first)
            printer.print_string(" | ")
            printer.print_attribute(self.second)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            first = parser.parse_attribute()
            parser.parse_punctuation("|")
            second = parser.parse_attribute()
        return (first, second)


@irdl_attr_definition
class NotAttr(ParametrizedAttribute):
    """A negated predicate source operand, `!%p`."""

    name = "ori.not"

    operand: Attribute

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.operand)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (parser.parse_attribute(),)


OPERAND_LEAVES = (
    SlotAttr,
    ImmAttr,
    FloatImmAttr,
    SpecialRegAttr,
    SinkAttr,
    SymbolRefAttr,
)


def nested_operands(operand: Attribute) -> tuple[Attribute, ...]:
    """The operands directly inside one operand, in PTX order: an address's base and
    offset terms, the elements of a vector or a parenthesized list, a pair's halves, a
    negation's operand; none inside a leaf (a register slot, an immediate, a symbol...).

    Looked up by the operand's exact type: the phases walk every operand tree many times,
    and a chain of `isinstance` checks on attributes (abstract classes) was a tenth of it.
    """
    nested = _NESTED.get(type(operand))
    return () if nested is None else nested(operand)


_NESTED: dict[type[Attribute], Callable[[Any], tuple[Attribute, ...]]] = {
    AddressAttr: lambda address: (address.base, *address.rest.data),
    VectorAttr: lambda vector: vector.elements.data,
    ParenAttr: lambda paren: paren.elements.data,
    PairAttr: lambda pair: (pair.first, pair.second),
    NotAttr: lambda negation: (negation.operand,),
}


def slots_of(operand: Attribute) -> Iterator[SlotAttr]:
    """The register slots inside one operand, in PTX order."""
    if type(operand) is SlotAttr:
        yield operand
        return
    for nested in nested_operands(operand):
        yield from slots_of(nested)


def check_operand(operand: Attribute) -> None:
    """Raise VerifyException unless `operand` is a well-formed PTX operand tree."""
    if isinstance(operand, OPERAND_LEAVES):
        return
    if isinstance(operand, AddressAttr):
        if not isinstance(
            operand.base, SlotAttr | SymbolRefAttr | ImmAttr | SpecialRegAttr
        ):
            raise VerifyException(
                "an address base must be a register, a symbol or an immediate"
            )
        for item in operand.rest:
            check_operand(item)
        return
    if isinstance(operand, VectorAttr | ParenAttr):
        for item in operand.elements:
            check_operand(item)
        return
    if isinstance(operand, PairAttr):
        check_operand(operand.first)
        check_operand(operand.second)
        return
    if isinstance(operand, NotAttr):
        check_operand(operand.operand)
        return
    raise VerifyException(f"{operand} is not a PTX operand")


@irdl_attr_definition
class GenericAddressAttr(ParametrizedAttribute):
    """`generic(sym)` in a variable initializer: the generic address of a variable."""

    name = "ori.generic"

    symbol: SymbolRefAttr

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.symbol)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (SymbolRefAttr(parser.parse_symbol_name()),)


@lru_cache(maxsize=1 << 16)
def i64_attr(value: int) -> IntegerAttr[I64]:
    """`IntegerAttr(value, i64)`, one object per value: ori holds one per register index
    and `.loc` field, and building an `IntegerAttr` checks its range every time."""
    return IntegerAttr(value, i64)
