"""The custom syntax of PTX operand lists inside ori instructions.

It reads like PTX with MLIR values for the registers:

    (def {%f1, %f2}, [%rd1 + 16], f32(0x3F800000), sreg(%tid.x), @smem, not %p2, _)

A `def` or `inout` keyword in front of an operand gives every register in it that role
(`use` is the default); a register inside a vector may carry its own keyword when the roles
of one operand are mixed. `@name` is a symbol, `sreg(%x)` a special register, `f32(bits)` /
`f64(bits)` a float immediate, `_` a sink, `a | b` a pair, `not %p` a negated predicate and
`(...)` a parenthesised list (call arguments).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from tileas_py.dialects.ori.attributes import (
    SINK,
    SLOTS,
    AddressAttr,
    FloatImmAttr,
    ImmAttr,
    NotAttr,
    PairAttr,
    ParenAttr,
    Role,
    SinkAttr,
    SlotAttr,
    SpecialRegAttr,
    VectorAttr,
    slots_of,
)

_ROLE_KEYWORDS = ("def", "inout")


class OperandPrinter:
    """Prints an operand layout, taking each register slot's value from `values` in order."""

    def __init__(self, printer: Printer, values: Sequence[SSAValue]) -> None:
        self.printer = printer
        self.values: Iterator[SSAValue] = iter(values)

    def print_layout(self, layout: Sequence[Attribute]) -> None:
        self.printer.print_list(layout, self.print_top_level)

    def print_top_level(self, operand: Attribute) -> None:
        roles = {slot.role for slot in slots_of(operand)}
        shared = roles.pop() if len(roles) == 1 else None
        if shared is not None and shared is not Role.USE:
            self.printer.print_string(f"{shared.value} ")
        self.print_operand(operand, shared)

    def print_operand(self, operand: Attribute, shared: Role | None) -> None:
        p = self.printer
        if isinstance(operand, SlotAttr):
            if shared is None and operand.role is not Role.USE:
                p.print_string(f"{operand.role.value} ")
            p.print_operand(next(self.values))
        elif isinstance(operand, ImmAttr):
            p.print_int(operand.value.data)
        elif isinstance(operand, FloatImmAttr):
            p.print_string(f"f{operand.width.data}({operand.bits.data:#x})")
        elif isinstance(operand, SymbolRefAttr):
            p.print_attribute(operand)
        elif isinstance(operand, SpecialRegAttr):
            p.print_string(f"sreg({operand.reg_name.data})")
        elif isinstance(operand, SinkAttr):
            p.print_string("_")
        elif isinstance(operand, AddressAttr):
            p.print_string("[")
            self.print_operand(operand.base, shared)
            offset = operand.offset.data
            if offset:
                p.print_string(f" + {offset}" if offset > 0 else f" - {-offset}")
            for item in operand.rest:
                p.print_string(", ")
                self.print_operand(item, shared)
            p.print_string("]")
        elif isinstance(operand, VectorAttr):
            p.print_string("{")
            p.print_list(operand.elements, lambda e: self.print_operand(e, shared))
            p.print_string("}")
        elif isinstance(operand, ParenAttr):
            p.print_string("(")
            p.print_list(operand.elements, lambda e: self.print_operand(e, shared))
            p.print_string(")")
        elif isinstance(operand, PairAttr):
            self.print_operand(operand.first, shared)
            p.print_string(" | ")
            self.print_operand(operand.second, shared)
        elif isinstance(operand, NotAttr):
            p.print_string("not ")
            self.print_operand(operand.operand, shared)
        else:
            p.print_attribute(operand)


class OperandParser:
    """Parses an operand list, collecting the registers it names in order."""

    def __init__(self, parser: Parser) -> None:
        self.parser = parser
        self.registers: list[UnresolvedOperand] = []

    def parse_layout(self) -> list[Attribute]:
        """The operands inside `( ... )`; the caller has consumed the `(`."""
        if self.parser.parse_optional_punctuation(")") is not None:
            return []
        layout = self.parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, self.parse_top_level
        )
        self.parser.parse_punctuation(")")
        return layout

    def parse_top_level(self) -> Attribute:
        role = self._parse_optional_role() or Role.USE
        return self.parse_operand(role)

    def _parse_optional_role(self) -> Role | None:
        keyword = self.parser.parse_optional_keyword_in(_ROLE_KEYWORDS)
        return None if keyword is None else Role(keyword)

    def parse_operand(self, role: Role) -> Attribute:
        operand = self._parse_single(role)
        if self.parser.parse_optional_punctuation("|") is not None:
            return PairAttr(operand, self._parse_single(role))
        return operand

    def _parse_single(self, role: Role) -> Attribute:
        p = self.parser
        if (own_role := self._parse_optional_role()) is not None:
            role = own_role
        if (register := p.parse_optional_unresolved_operand()) is not None:
            self.registers.append(register)
            return SLOTS[role]
        if (integer := p.parse_optional_integer(allow_boolean=False)) is not None:
            return ImmAttr(integer)
        if (symbol := p.parse_optional_symbol_name()) is not None:
            return SymbolRefAttr(symbol)
        if (width := p.parse_optional_keyword_in(("f32", "f64"))) is not None:
            p.parse_punctuation("(")
            bits = p.parse_integer(allow_boolean=False, allow_negative=False)
            p.parse_punctuation(")")
            return FloatImmAttr(int(width[1:]), bits)
        if p.parse_optional_keyword("sreg") is not None:
            p.parse_punctuation("(")
            name = "%" + p.parse_unresolved_operand().operand_name
            p.parse_punctuation(")")
            return SpecialRegAttr(name)
        if p.parse_optional_keyword("_") is not None:
            return SINK
        if p.parse_optional_keyword("not") is not None:
            return NotAttr(self._parse_single(role))
        if p.parse_optional_punctuation("[") is not None:
            return self._parse_address(role)
        if p.parse_optional_punctuation("{") is not None:
            elements = p.parse_comma_separated_list(
                Parser.Delimiter.NONE, lambda: self.parse_operand(role)
            )
            p.parse_punctuation("}")
            return VectorAttr(elements)
        if p.parse_optional_punctuation("(") is not None:
            if p.parse_optional_punctuation(")") is not None:
                return ParenAttr(())
            elements = p.parse_comma_separated_list(
                Parser.Delimiter.NONE, lambda: self.parse_operand(role)
            )
            p.parse_punctuation(")")
            return ParenAttr(elements)
        p.raise_error("expected a PTX operand")

    def _parse_address(self, role: Role) -> AddressAttr:
        p = self.parser
        base = self._parse_single(role)
        offset = 0
        if p.parse_optional_punctuation("+") is not None:
            offset = p.parse_integer(allow_boolean=False)
        elif p.parse_optional_punctuation("-") is not None:
            offset = -p.parse_integer(allow_boolean=False, allow_negative=False)
        rest: list[Attribute] = []
        while p.parse_optional_punctuation(",") is not None:
            rest.append(self.parse_operand(role))
        p.parse_punctuation("]")
        return AddressAttr(base, offset, rest)
