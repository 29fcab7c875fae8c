"""MLIR declarative assembly formats for `nvvm` ops, printed and parsed as `mlir-tblgen`'s
generated code does.

An op gives its upstream format string (`let assemblyFormat = ...` of NVVMOps.td) as
`FORMAT`, e.g. ``"$kind $thread_mask `,` $val attr-dict `:` type($val) `->` type($res)"``.
`print_op` and `parse_op` interpret it with MLIR's rules, which differ from xDSL's own
declarative formats in ways that show in the output:

- spacing: a space before each element, except after `(`, `[`, `<`, `{` and before `,`,
  `)`, `]`, `>`, `<`, `(` when the previous element was not punctuation (`ro(%a : i32)`,
  `box[%x]`, but `: (`); attributes of the dialect print without their prefix, so an enum
  with a `<value>` syntax shows as `<cta>` and one whose syntax is its bare value as `  add`
  (its printer adds a space of its own: MLIR's output has two);
- `type($x)` of an operand confined to one pointer address space prints `<3>`;
- `attr-dict` prints the properties the format does not show, sorted by name with
  discardable attributes, default-valued ones left out;
- optional groups print when their anchor is present (a default-valued attribute is
  absent when it holds its default); a unit attribute anchor prints nothing itself.

MLIR reference: https://mlir.llvm.org/docs/DefiningDialects/Operations/#declarative-assembly-format
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    FunctionType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    i1,
    i32,
)
from xdsl.ir import Attribute, Data, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    OptionalDef,
    VarOperandDef,
    VarResultDef,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from tileas_py.dialects.nvvm.ods import (
    Ods,
    address_space_of,
    ods_of,
    operand_segment_sizes,
)

if TYPE_CHECKING:
    from tileas_py.dialects.nvvm.base import NVVMOp

# ---------------------------------------------------------------------------------------
# The format, as a tree


@dataclass(frozen=True)
class Literal:
    text: str


@dataclass(frozen=True)
class Var:
    name: str
    anchor: bool = False


@dataclass(frozen=True)
class TypeOf:
    target: str
    """An operand or result name, `operands` or `results`."""
    qualified: bool = False
    anchor: bool = False


@dataclass(frozen=True)
class FunctionalType:
    inputs: str
    outputs: str


@dataclass(frozen=True)
class AttrDict:
    with_keyword: bool = False


@dataclass(frozen=True)
class AllOperands:
    pass


@dataclass(frozen=True)
class Group:
    elements: tuple[Element, ...]
    anchor: str


Element = Literal | Var | TypeOf | FunctionalType | AttrDict | AllOperands | Group

_TOKEN = re.compile(
    r"\s*(`[^`]*`|\$\w+|functional-type|attr-dict-with-keyword|attr-dict|"
    r"[A-Za-z_][\w-]*|[()^?,])"
)


def compile_format(text: str) -> tuple[Element, ...]:
    tokens = _TOKEN.findall(text)
    position = 0

    def peek() -> str | None:
        return tokens[position] if position < len(tokens) else None

    def take(expected: str | None = None) -> str:
        nonlocal position
        token = tokens[position]
        assert expected is None or token == expected, (text, token, expected)
        position += 1
        return token

    def target() -> str:
        token = take()
        return token[1:] if token.startswith("$") else token

    def elements(closing: str | None) -> tuple[Element, ...]:
        found: list[Element] = []
        while (token := peek()) is not None and token != closing:
            take()
            if token.startswith("`"):
                found.append(Literal(token[1:-1]))
            elif token.startswith("$"):
                anchor = peek() == "^"
                if anchor:
                    take()
                found.append(Var(token[1:], anchor))
            elif token in ("type", "qualified"):
                take("(")
                if token == "qualified":
                    inner = take()
                    assert inner == "type", text
                    take("(")
                    found.append(TypeOf(target(), qualified=True))
                    take(")")
                else:
                    name = target()
                    take(")")
                    anchor = peek() == "^"
                    if anchor:
                        take()
                    found.append(TypeOf(name, anchor=anchor))
                    continue
                take(")")
            elif token == "functional-type":
                take("(")
                inputs = target()
                take(",")
                outputs = target()
                take(")")
                found.append(FunctionalType(inputs, outputs))
            elif token == "attr-dict":
                found.append(AttrDict())
            elif token == "attr-dict-with-keyword":
                found.append(AttrDict(with_keyword=True))
            elif token == "operands":
                found.append(AllOperands())
            elif token == "(":
                inner = elements(")")
                take(")")
                take("?")
                anchor = _anchor_of(inner)
                found.append(Group(inner, anchor))
            else:
                raise AssertionError(f"unsupported format token {token!r} in {text!r}")
        return tuple(found)

    return elements(None)


def _anchor_of(elements: Sequence[Element]) -> str:
    for element in elements:
        if isinstance(element, Var | TypeOf) and element.anchor:
            return element.name if isinstance(element, Var) else element.target
    raise AssertionError("optional group without anchor")


# ---------------------------------------------------------------------------------------
# Printing


def _space_before(value: str, last_was_punctuation: bool) -> bool:
    """OpFormatGen's `shouldEmitSpaceBefore`."""
    if len(value) != 1 and value != "->":
        return True
    if last_was_punctuation:
        return value[0] not in ">)}],"
    return value[0] not in "<>(){}[],"


@dataclass
class _PrintState:
    emit_space: bool = True
    last_was_punctuation: bool = False
    out: list[str] = field(default_factory=list[str])


def _operand_groups(op: IRDLOperation_) -> dict[str, list[SSAValue]]:
    op_def = op.get_irdl_definition()
    groups: dict[str, list[SSAValue]] = {}
    defs = op_def.operands
    sizes = operand_segment_sizes(op)
    if sizes is None:
        variadic = [i for i, (_, d) in enumerate(defs) if isinstance(d, VarOperandDef)]
        extra = len(op.operands) - (len(defs) - len(variadic))
        sizes = [extra if isinstance(d, VarOperandDef) else 1 for _, d in defs]
    start = 0
    for (name, _), size in zip(defs, sizes, strict=False):
        groups[name] = list(op.operands[start : start + size])
        start += size
    return groups


IRDLOperation_ = Any


def _result_groups(op: IRDLOperation_) -> dict[str, list[SSAValue]]:
    op_def = op.get_irdl_definition()
    groups: dict[str, list[SSAValue]] = {}
    defs = op_def.results
    fixed = sum(not isinstance(d, VarResultDef) for _, d in defs)
    extra = len(op.results) - fixed
    start = 0
    for name, d in defs:
        size = extra if isinstance(d, VarResultDef) else 1
        groups[name] = list(op.results[start : start + size])
        start += size
    return groups


def _property_default(op: IRDLOperation_, name: str) -> Attribute | None:
    prop = op.get_irdl_definition().properties.get(name)
    return None if prop is None else prop.default_value


def _present(op: IRDLOperation_, name: str) -> bool:
    values = _operand_groups(op) | _result_groups(op)
    if name in values:
        return bool(values[name])
    value = op.properties.get(name, op.attributes.get(name))
    return value is not None and value != _property_default(op, name)


def attr_class_of(constraint: object) -> type[Attribute] | None:
    """The dialect attribute class a property's constraint names, if any: the format
    shows such an attribute without its `#dialect.name` prefix."""
    ods = ods_of(constraint)
    if ods is not None:
        return ods.attr_type
    attr_type = getattr(constraint, "attr", None)
    if isinstance(attr_type, type) and issubclass(attr_type, Attribute):
        name = getattr(attr_type, "name", "")
        if isinstance(name, str) and name.startswith(("nvvm.", "llvm.")):
            return attr_type
    return None


def print_attribute_stripped(
    printer: Printer, attr: Attribute, force: bool = False
) -> None:
    """How an attribute named in a format prints: without dialect prefix or type."""
    if isinstance(attr, IntegerAttr) and cast(IntegerAttr[Any], attr).type == i1:
        printer.print_string(
            "true" if cast(IntegerAttr[Any], attr).value.data else "false"
        )
    elif isinstance(attr, IntegerAttr):
        printer.print_string(str(cast(IntegerAttr[Any], attr).value.data))
    elif isinstance(attr, StringAttr):
        printer.print_string_literal(attr.data)
    elif isinstance(attr, TypeAttribute):
        printer.print_attribute(attr)
    elif (force or attr.name.startswith("nvvm.")) and isinstance(attr, Data):
        cast(Data[Any], attr).print_parameter(printer)
    elif (force or attr.name.startswith("nvvm.")) and isinstance(
        attr, ParametrizedAttribute
    ):
        attr.print_parameters(printer)
    else:
        printer.print_attribute(attr)


def _type_text(printer: Printer, t: Attribute, stripped: bool) -> None:
    space = address_space_of(t)
    if stripped and space is not None and space != 0:
        printer.print_string(f"<{space}>")
    else:
        printer.print_attribute(t)


def _constraint_of(op: IRDLOperation_, name: str) -> Ods | None:
    op_def = op.get_irdl_definition()
    for n, d in (*op_def.operands, *op_def.results):
        if n == name:
            return ods_of(d.constr)
    return None


def print_op(op: NVVMOp, printer: Printer) -> None:
    state = _PrintState()
    out = _Out(printer, state)
    format_ = type(op).compiled_format()
    for element in format_:
        _print_element(op, element, out, visible=True)


@dataclass
class _Out:
    printer: Printer
    state: _PrintState

    def write(self, text: str, visible: bool) -> None:
        if visible:
            self.printer.print_string(text)


def _print_element(
    op: IRDLOperation_, element: Element, out: _Out, visible: bool
) -> None:
    state = out.state
    printer = out.printer
    if isinstance(element, Literal):
        value = element.text
        if state.emit_space and _space_before(value, state.last_was_punctuation):
            out.write(" ", visible)
        out.write(value, visible)
        state.emit_space = not (len(value) == 1 and value in "<({[")
        state.last_was_punctuation = value[0] != "_" and not value[0].isalpha()
        return
    if isinstance(element, Group):
        shown = visible and _present(op, element.anchor)
        for inner in element.elements:
            _print_element(op, inner, out, shown)
        return
    if isinstance(element, AttrDict):
        if visible:
            _print_attr_dict(op, printer, element.with_keyword)
        state.last_was_punctuation = False
        return
    if isinstance(element, Var) and element.anchor and _is_unit(op, element.name):
        # A unit attribute anchoring its group is shown by the group's presence alone.
        return
    if state.emit_space or not state.last_was_punctuation:
        out.write(" ", visible)
    state.last_was_punctuation = False
    state.emit_space = True
    if not visible:
        return
    if isinstance(element, Var):
        operands = _operand_groups(op)
        if element.name in operands:
            printer.print_list(operands[element.name], printer.print_operand)
        else:
            value = op.properties.get(element.name, op.attributes.get(element.name))
            prop = op.get_irdl_definition().properties.get(element.name)
            if value is None:
                pass
            elif prop is not None and attr_class_of(prop.constr) is not None:
                print_attribute_stripped(printer, value, force=True)
            elif value.name.startswith(("nvvm.", "llvm.")):
                # An attribute whose constraint names no class prints whole.
                printer.print_attribute(value)
            else:
                print_attribute_stripped(printer, value)
    elif isinstance(element, TypeOf):
        _print_types(op, printer, element)
    elif isinstance(element, FunctionalType):
        inputs = _types_of(op, element.inputs)
        outputs = _types_of(op, element.outputs)
        printer.print_string("(")
        printer.print_list(inputs, printer.print_attribute)
        printer.print_string(") -> ")
        if len(outputs) == 1 and not isinstance(outputs[0], FunctionType):
            printer.print_attribute(outputs[0])
        else:
            printer.print_string("(")
            printer.print_list(outputs, printer.print_attribute)
            printer.print_string(")")
    elif isinstance(element, AllOperands):
        printer.print_list(op.operands, printer.print_operand)


def _is_unit(op: IRDLOperation_, name: str) -> bool:
    prop = op.get_irdl_definition().properties.get(name)
    constraint = None if prop is None else ods_of(prop.constr)
    return constraint is not None and constraint.summary == "unit attribute"


def _types_of(op: IRDLOperation_, target: str) -> list[Attribute]:
    if target == "operands":
        return [v.type for v in op.operands]
    if target == "results":
        return [v.type for v in op.results]
    groups = _operand_groups(op) | _result_groups(op)
    return [v.type for v in groups[target]]


def _print_types(op: IRDLOperation_, printer: Printer, element: TypeOf) -> None:
    types = _types_of(op, element.target)
    constraint = _constraint_of(op, element.target)
    stripped = (
        not element.qualified
        and constraint is not None
        and constraint.stripped
        and len(types) == 1
    )
    printer.print_list(types, lambda t: _type_text(printer, t, stripped))


def _print_attr_dict(op: IRDLOperation_, printer: Printer, with_keyword: bool) -> None:
    shown = set(_format_names(cast("type[NVVMOp]", type(op)).compiled_format()))
    entries: dict[str, Attribute] = {}
    for name, value in op.properties.items():
        if name in shown or name == "operandSegmentSizes":
            continue
        if value == _property_default(op, name):
            continue
        entries[name] = value
    entries.update(op.attributes)
    if not entries:
        return
    if with_keyword:
        printer.print_string(" attributes")
    printer.print_string(" ")
    printer.print_attr_dict(dict(sorted(entries.items())))


def _format_names(elements: Sequence[Element]) -> list[str]:
    names: list[str] = []
    for element in elements:
        if isinstance(element, Var):
            names.append(element.name)
        elif isinstance(element, Group):
            names.extend(_format_names(element.elements))
    return names


# ---------------------------------------------------------------------------------------
# Parsing


@dataclass
class _ParseState:
    operands: dict[str, list[UnresolvedOperand]] = field(
        default_factory=dict[str, list[UnresolvedOperand]]
    )
    types: dict[str, list[Attribute]] = field(
        default_factory=dict[str, list[Attribute]]
    )
    properties: dict[str, Attribute] = field(default_factory=dict[str, Attribute])
    attributes: dict[str, Attribute] = field(default_factory=dict[str, Attribute])
    all_operand_types: list[Attribute] | None = None
    all_result_types: list[Attribute] | None = None


def parse_op(op_type: type[NVVMOp], parser: Parser) -> NVVMOp:
    state = _ParseState()
    for element in op_type.compiled_format():
        _parse_element(op_type, parser, element, state, optional=False)
    return _build(op_type, parser, state)


def _operand_defs(op_type: type[NVVMOp]) -> dict[str, Any]:
    return dict(op_type.get_irdl_definition().operands)


def _parse_element(
    op_type: type[NVVMOp],
    parser: Parser,
    element: Element,
    state: _ParseState,
    optional: bool,
) -> bool:
    """Parse one element; with `optional`, return False (consuming nothing) if absent."""
    if isinstance(element, Literal):
        text = element.text
        if text[0].isalpha() or text[0] == "_":
            if optional:
                return parser.parse_optional_keyword(text) is not None
            parser.parse_keyword(text)
        else:
            if optional:
                return parser.parse_optional_punctuation(text) is not None  # pyright: ignore[reportArgumentType]
            parser.parse_punctuation(text)  # pyright: ignore[reportArgumentType]
        return True
    if isinstance(element, Group):
        first, *rest = element.elements
        if not _parse_element(op_type, parser, first, state, optional=True):
            return False
        for inner in rest:
            _parse_element(op_type, parser, inner, state, optional=False)
        return True
    if isinstance(element, AttrDict):
        attrs = (
            parser.parse_optional_attr_dict_with_keyword()
            if element.with_keyword
            else parser.parse_optional_attr_dict()
        )
        if attrs is None:
            return True
        entries = dict(attrs.data) if not isinstance(attrs, dict) else attrs
        properties, attributes = split_properties(op_type, entries)
        state.properties.update(properties)
        state.attributes.update(attributes)
        return True
    if isinstance(element, Var):
        return _parse_var(op_type, parser, element, state, optional)
    if isinstance(element, TypeOf):
        _parse_types(op_type, parser, element, state)
        return True
    if isinstance(element, FunctionalType):
        inputs: list[Attribute] = list(
            parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        )
        parser.parse_punctuation("->")
        if parser.parse_optional_punctuation("(") is not None:
            outputs = (
                []
                if parser.parse_optional_punctuation(")") is not None
                else _rest_of_type_list(parser)
            )
        else:
            outputs: list[Attribute] = [parser.parse_type()]
        _assign_types(op_type, element.inputs, inputs, state)
        _assign_types(op_type, element.outputs, outputs, state)
        return True
    if isinstance(element, AllOperands):
        state.operands["$all"] = _parse_operand_list(parser)
        return True
    raise AssertionError(element)


def _rest_of_type_list(parser: Parser) -> list[Attribute]:
    types: list[Attribute] = [parser.parse_type()]
    while parser.parse_optional_punctuation(",") is not None:
        types.append(parser.parse_type())
    parser.parse_punctuation(")")
    return types


def _parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    first = parser.parse_optional_unresolved_operand()
    if first is None:
        return []
    values = [first]
    while parser.parse_optional_punctuation(",") is not None:
        values.append(parser.parse_unresolved_operand())
    return values


def _parse_var(
    op_type: type[NVVMOp],
    parser: Parser,
    element: Var,
    state: _ParseState,
    optional: bool,
) -> bool:
    operand_defs = _operand_defs(op_type)
    if element.name in operand_defs:
        d = operand_defs[element.name]
        if isinstance(d, VarOperandDef) and not isinstance(d, OptionalDef):
            state.operands[element.name] = _parse_operand_list(parser)
            return True
        if optional or isinstance(d, OptionalDef):
            value = parser.parse_optional_unresolved_operand()
            if value is None:
                if optional:
                    return False
                parser.raise_error("expected SSA operand")
            state.operands[element.name] = [value]
            return True
        state.operands[element.name] = [parser.parse_unresolved_operand()]
        return True
    prop = op_type.get_irdl_definition().properties[element.name]
    constraint = ods_of(prop.constr)
    if isinstance(constraint, Ods) and constraint.summary == "unit attribute":
        state.properties[element.name] = UnitAttr()
        return True
    attr = parse_attribute_stripped(
        parser, constraint if constraint is not None else prop.constr, optional
    )
    if attr is None:
        return False
    state.properties[element.name] = attr
    return True


def parse_attribute_stripped(
    parser: Parser, constraint: object, optional: bool = False
) -> Attribute | None:
    """An attribute as a format shows it (see `print_attribute_stripped`)."""
    if isinstance(constraint, Ods):
        summary = constraint.summary
        if summary.startswith(
            (
                "16-bit signless integer attribute",
                "32-bit signless integer attribute",
                "64-bit signless integer attribute",
            )
        ):
            width = int(summary.split("-", 1)[0])
            pos = parser.pos
            value = (
                parser.parse_optional_integer(allow_boolean=False)
                if optional
                else parser.parse_integer(allow_boolean=False)
            )
            if value is None:
                return None
            if not -(1 << (width - 1)) <= value < (1 << width):
                parser.raise_error("integer constant out of range for attribute", pos)
            return IntegerAttr(value, IntegerType(width))
        if summary == "bool attribute":
            value = (
                parser.parse_optional_boolean() if optional else parser.parse_boolean()
            )
            return None if value is None else BoolAttr.from_bool(value)
        if summary == "string attribute":
            value = (
                parser.parse_optional_str_literal()
                if optional
                else parser.parse_str_literal()
            )
            return None if value is None else StringAttr(value)
        if summary == "any type attribute":
            return parser.parse_optional_type() if optional else parser.parse_type()
    attr_type = attr_class_of(cast(object, constraint))
    if attr_type is not None:
        if peek_text(parser).startswith("#"):
            return parser.parse_attribute()
        if optional and not peek_text(parser).startswith("<"):
            return None
        if issubclass(attr_type, ParametrizedAttribute):
            return attr_type.new(attr_type.parse_parameters(parser))
        data_type = cast(type[Data[Any]], attr_type)
        return data_type.new(data_type.parse_parameter(parser))
    return parser.parse_optional_attribute() if optional else parser.parse_attribute()


def split_properties(
    op_type: type[IRDLOperation], entries: Mapping[str, Attribute]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """An `attr-dict` read as MLIR reads it for an op with properties: the entries that
    name one of the op's properties, and the discardable attributes."""
    names = op_type.get_irdl_definition().properties
    properties = {k: v for k, v in entries.items() if k in names}
    attributes = {k: v for k, v in entries.items() if k not in names}
    return properties, attributes


def peek_text(parser: Parser) -> str:
    """The text of the next token, left unread."""
    return parser._current_token.text  # pyright: ignore[reportPrivateUsage]


def _parse_types(
    op_type: type[NVVMOp], parser: Parser, element: TypeOf, state: _ParseState
) -> None:
    target = element.target
    groups = dict(op_type.get_irdl_definition().operands) | dict(
        op_type.get_irdl_definition().results
    )
    d = groups.get(target)
    single = d is not None and not isinstance(d, VarOperandDef | VarResultDef)
    if single or (
        d is not None and isinstance(d, OptionalDef) and target in state.operands
    ):
        constraint = ods_of(d.constr) if d is not None else None
        types = [_parse_one_type(parser, constraint, element.qualified)]
    else:
        types = _parse_type_list(parser)
    _assign_types(op_type, target, types, state)


def _parse_one_type(parser: Parser, constraint: object, qualified: bool) -> Attribute:
    if (
        not qualified
        and isinstance(constraint, Ods)
        and constraint.stripped
        and parser.parse_optional_punctuation("<") is not None
    ):
        space = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation(">")
        from tileas_py.dialects.nvvm.pointers import pointer

        return pointer(space)
    return parser.parse_type()


def _parse_type_list(parser: Parser) -> list[Attribute]:
    first = parser.parse_optional_type()
    if first is None:
        return []
    types: list[Attribute] = [first]
    while parser.parse_optional_punctuation(",") is not None:
        types.append(parser.parse_type())
    return types


def _assign_types(
    op_type: type[NVVMOp], target: str, types: list[Attribute], state: _ParseState
) -> None:
    if target == "operands":
        state.all_operand_types = types
    elif target == "results":
        state.all_result_types = types
    else:
        state.types[target] = types


def _build(op_type: type[NVVMOp], parser: Parser, state: _ParseState) -> NVVMOp:
    op_def = op_type.get_irdl_definition()
    operand_names = [name for name, _ in op_def.operands]
    unresolved: list[UnresolvedOperand] = []
    types: list[Attribute] = []
    sizes: list[int] = []
    if "$all" in state.operands:
        unresolved = state.operands["$all"]
        types = list(state.all_operand_types or [])
        sizes = [len(unresolved)]
    else:
        for name, d in op_def.operands:
            values = state.operands.get(name, [])
            sizes.append(len(values))
            unresolved.extend(values)
            known = state.types.get(name)
            if known is None and state.all_operand_types is not None:
                continue
            if known is None:
                constraint = ods_of(d.constr)
                buildable = None if constraint is None else constraint.buildable
                known = [buildable] * len(values) if buildable is not None else None
            if known is None:
                if values:
                    parser.raise_error(f"cannot infer the type of operand '{name}'")
                known = []
            if len(known) == 1 and len(values) > 1:
                known = known * len(values)
            types.extend(known)
        if state.all_operand_types is not None:
            types = list(state.all_operand_types)
    if len(types) != len(unresolved):
        parser.raise_error(
            f"{len(unresolved)} operands present, but expected {len(types)}"
        )
    operands = parser.resolve_operands(unresolved, types, parser.pos)
    result_types: list[Attribute] = []
    if state.all_result_types is not None:
        result_types = state.all_result_types
    else:
        for name, d in op_def.results:
            known = state.types.get(name)
            if known is None:
                constraint = ods_of(d.constr)
                buildable = None if constraint is None else constraint.buildable
                if buildable is not None and not isinstance(d, VarResultDef):
                    known = [buildable]
                elif isinstance(d, VarResultDef):
                    known = []
                else:
                    parser.raise_error(f"cannot infer the type of result '{name}'")
            result_types.extend(known)
    properties = dict(state.properties)
    if any(isinstance(o, AttrSizedOperandSegments) for o in op_def.options) and (
        "$all" not in state.operands
    ):
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)
    del operand_names
    return op_type.create(
        operands=operands,
        result_types=result_types,
        properties=properties,
        attributes=state.attributes,
    )
