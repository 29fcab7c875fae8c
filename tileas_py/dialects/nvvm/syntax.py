"""Shared pieces of the custom syntax of `nvvm` ops: properties written in the attribute
dictionary (as MLIR prints them), and bracketed operand lists."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

IRDLOperationT = TypeVar("IRDLOperationT", bound=IRDLOperation)


def split_properties(
    attributes: Mapping[str, Attribute], property_names: Iterable[str]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Sort a parsed attribute dictionary into (properties, discardable attributes)."""
    names = set(property_names)
    properties = {k: v for k, v in attributes.items() if k in names}
    discardable = {k: v for k, v in attributes.items() if k not in names}
    return properties, discardable


def print_properties_and_attributes(
    printer: Printer,
    op: IRDLOperation,
    defaults: Mapping[str, Attribute],
    hidden: Iterable[str] = ("operandSegmentSizes",),
) -> None:
    """` {...}` with the op's non-default properties and its attributes, MLIR-style."""
    skip = set(hidden)
    entries = {
        k: v for k, v in op.properties.items() if k not in skip and defaults.get(k) != v
    }
    entries.update(op.attributes)
    entries = dict(sorted(entries.items()))
    if entries:
        printer.print_string(" ")
        printer.print_attr_dict(entries)


def parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """`[%a, %b]` (possibly empty)."""
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )


def parse_optional_keyword_operand(
    parser: Parser, keyword: str
) -> UnresolvedOperand | None:
    """`keyword = %value`, if the keyword is next."""
    if parser.parse_optional_keyword(keyword) is None:
        return None
    parser.parse_punctuation("=")
    return parser.parse_unresolved_operand()


def print_operand_list(printer: Printer, values: Iterable[SSAValue]) -> None:
    printer.print_string("[")
    printer.print_list(values, printer.print_operand)
    printer.print_string("]")


def canonical_properties(op_type: type[IRDLOperationT]) -> type[IRDLOperationT]:
    """Store parsed properties the way MLIR does: every default-valued property present,
    and all of them sorted by name. The generic form then matches mlir-opt's, and an op
    whose properties sit in its attribute dictionary prints them in upstream's order.
    Apply on top of `@irdl_op_definition`."""
    generated = op_type.parse
    defaults = {
        name: prop.default_value
        for name, prop in op_type.get_irdl_definition().properties.items()
        if prop.default_value is not None
    }

    def parse(cls: type[IRDLOperationT], parser: Parser) -> IRDLOperationT:
        op = generated.__func__(cls, parser)  # pyright: ignore[reportFunctionMemberAccess]
        op.properties = dict(sorted((defaults | op.properties).items()))
        return op

    op_type.parse = classmethod(parse)  # pyright: ignore[reportAttributeAccessIssue]
    return op_type
