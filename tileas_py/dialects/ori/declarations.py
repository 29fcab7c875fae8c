"""Declarators shared by PTX variables and parameters, and function performance directives.

A declarator is the part of a PTX declaration after its state space:
`.align 64 .b8 k_param_3[128]`, `.u64 .ptr .global .align 16 p`, `.v4 .f32 coeffs[8]`.
In ori's custom syntax it reads the same without the dots:
`align 64 b8 @k_param_3[128]`, `u64 ptr global align 16 @p`, `v4 f32 @coeffs[8]`.
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#variable-declarations
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from xdsl.dialects.builtin import ArrayAttr, IntAttr, NoneAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.ori.attributes import PtxType, PtxTypeAttr

UNSIZED = -1
"""The extent of an unsized array dimension, `[]`."""

POINTER_SPACES = ("generic", "global", "shared", "const", "local")
"""`.ptr` spaces of a kernel parameter; `generic` is a bare `.ptr`."""

PERFORMANCE_DIRECTIVES = (
    "maxntid",
    "reqntid",
    "minnctapersm",
    "maxnctapersm",
    "maxnreg",
    "maxclusterrank",
    "reqnctapercluster",
    "explicitcluster",
    "blocksareclusters",
    "noreturn",
    "abi_preserve",
    "abi_preserve_control",
)
"""PTX directives that may follow a function's signature."""


@dataclass(frozen=True)
class Declarator:
    """The fields of a PTX declarator, with None for the parts it leaves out."""

    ptx_type: PtxType
    name: str
    align: int | None = None
    vector: int | None = None
    dims: tuple[int, ...] = ()
    ptr_space: str | None = None
    ptr_align: int | None = None

    def print(self, printer: Printer) -> None:
        if self.align is not None:
            printer.print_string(f"align {self.align} ")
        if self.vector is not None:
            printer.print_string(f"v{self.vector} ")
        printer.print_string(str(self.ptx_type))
        if self.ptr_space is not None:
            printer.print_string(" ptr")
            if self.ptr_space != "generic":
                printer.print_string(f" {self.ptr_space}")
            if self.ptr_align is not None:
                printer.print_string(f" align {self.ptr_align}")
        printer.print_string(" ")
        printer.print_symbol_name(self.name)
        for dim in self.dims:
            printer.print_string("[]" if dim == UNSIZED else f"[{dim}]")

    @staticmethod
    def parse(parser: AttrParser) -> Declarator:
        align = vector = ptr_space = ptr_align = None
        if parser.parse_optional_keyword("align") is not None:
            align = parser.parse_integer(allow_boolean=False, allow_negative=False)
        if (v := parser.parse_optional_keyword_in(("v2", "v4", "v8"))) is not None:
            vector = int(v[1:])
        ptx_type = PtxType(
            parser.parse_keyword_in(tuple(PtxType.__members__.values()), " a PTX type")
        )
        if parser.parse_optional_keyword("ptr") is not None:
            ptr_space = (
                parser.parse_optional_keyword_in(POINTER_SPACES[1:]) or "generic"
            )
            if parser.parse_optional_keyword("align") is not None:
                ptr_align = parser.parse_integer(
                    allow_boolean=False, allow_negative=False
                )
        name = parser.parse_symbol_name().data
        dims: list[int] = []
        while parser.parse_optional_punctuation("[") is not None:
            if parser.parse_optional_punctuation("]") is not None:
                dims.append(UNSIZED)
                continue
            dims.append(parser.parse_integer(allow_boolean=False, allow_negative=False))
            parser.parse_punctuation("]")
        return Declarator(
            ptx_type, name, align, vector, tuple(dims), ptr_space, ptr_align
        )

    def ptx(self, space: str) -> str:
        """The declarator in PTX, after the state space `space` (`.param`, `.global`)."""
        parts = [space]
        if self.align is not None:
            parts.append(f".align {self.align}")
        if self.vector is not None:
            parts.append(f".v{self.vector}")
        parts.append(f".{self.ptx_type.value}")
        if self.ptr_space is not None:
            parts.append(".ptr")
            if self.ptr_space != "generic":
                parts.append(f".{self.ptr_space}")
            if self.ptr_align is not None:
                parts.append(f".align {self.ptr_align}")
        dims = "".join("[]" if d == UNSIZED else f"[{d}]" for d in self.dims)
        parts.append(self.name + dims)
        return " ".join(parts)


def _optional_int(value: int | None) -> IntAttr | NoneAttr:
    return NoneAttr() if value is None else IntAttr(value)


def _int_or_none(attr: IntAttr | NoneAttr) -> int | None:
    return None if isinstance(attr, NoneAttr) else attr.data


class ParamSpace(StrEnum):
    """Where a function parameter lives: the `.param` space, or a register (`.func`s only),
    which the body names like one of its own."""

    PARAM = "param"
    REG = "reg"


@irdl_attr_definition
class ParamAttr(ParametrizedAttribute):
    """A parameter or return value of a PTX function: `.param`, or `.reg` for a `.func`.

    Example: `#ori.param<align 64 b8 @k_param_3[128]>`, `#ori.param<u64 ptr global align 16 @p>`,
    `#ori.param<reg b32 @a>`
    """

    name = "ori.param"

    param_name: StringAttr
    ptx_type: PtxTypeAttr
    align: IntAttr | NoneAttr
    dims: ArrayAttr[IntAttr]
    ptr_space: StringAttr | NoneAttr
    ptr_align: IntAttr | NoneAttr
    space: StringAttr

    def __init__(
        self, declarator: Declarator, space: ParamSpace = ParamSpace.PARAM
    ) -> None:
        super().__init__(
            StringAttr(declarator.name),
            PtxTypeAttr(declarator.ptx_type),
            _optional_int(declarator.align),
            ArrayAttr(IntAttr(d) for d in declarator.dims),
            NoneAttr()
            if declarator.ptr_space is None
            else StringAttr(declarator.ptr_space),
            _optional_int(declarator.ptr_align),
            StringAttr(space.value),
        )

    @property
    def is_register(self) -> bool:
        """A `.reg` parameter: a register of the function's body."""
        return self.space.data == ParamSpace.REG

    @property
    def ptx(self) -> str:
        """The parameter in PTX: `.param .u64 p`, `.reg .b32 a`."""
        return self.declarator.ptx(f".{self.space.data}")

    def print_body(self, printer: Printer) -> None:
        if self.is_register:
            printer.print_string("reg ")
        self.declarator.print(printer)

    @staticmethod
    def parse_body(parser: AttrParser) -> ParamAttr:
        space = ParamSpace.PARAM
        if parser.parse_optional_keyword("reg") is not None:
            space = ParamSpace.REG
        return ParamAttr(Declarator.parse(parser), space)

    @property
    def declarator(self) -> Declarator:
        return Declarator(
            self.ptx_type.data,
            self.param_name.data,
            _int_or_none(self.align),
            None,
            tuple(d.data for d in self.dims),
            self.ptr_space.data if isinstance(self.ptr_space, StringAttr) else None,
            _int_or_none(self.ptr_align),
        )

    def verify(self) -> None:
        if (
            isinstance(self.ptr_space, StringAttr)
            and self.ptr_space.data not in POINTER_SPACES
        ):
            raise VerifyException(
                f"unknown pointer state space '{self.ptr_space.data}'"
            )
        if self.is_register and (self.dims.data or self.ptr_space != NoneAttr()):
            raise VerifyException("a register parameter is a scalar")

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_body(printer)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return ParamAttr.parse_body(parser).parameters


@irdl_attr_definition
class DirectiveAttr(ParametrizedAttribute):
    """A performance directive of a function: `.maxntid 256, 1, 1`, `.explicitcluster`.

    Example: `#ori.directive<maxntid 256, 1, 1>`
    """

    name = "ori.directive"

    directive: StringAttr
    values: ArrayAttr[IntAttr]

    def __init__(self, directive: str, values: Sequence[int] = ()) -> None:
        super().__init__(StringAttr(directive), ArrayAttr(IntAttr(v) for v in values))

    def verify(self) -> None:
        if self.directive.data not in PERFORMANCE_DIRECTIVES:
            raise VerifyException(f"unknown function directive '{self.directive.data}'")

    def print_body(self, printer: Printer) -> None:
        printer.print_string(self.directive.data)
        if self.values:
            printer.print_string(" ")
            printer.print_list(self.values, lambda v: printer.print_int(v.data))

    @staticmethod
    def parse_body(parser: AttrParser, directive: str) -> DirectiveAttr:
        values: list[int] = []
        if (first := parser.parse_optional_integer(allow_boolean=False)) is not None:
            values.append(first)
            while parser.parse_optional_punctuation(",") is not None:
                values.append(parser.parse_integer(allow_boolean=False))
        return DirectiveAttr(directive, values)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_body(printer)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            directive = parser.parse_keyword_in(PERFORMANCE_DIRECTIVES)
            return DirectiveAttr.parse_body(parser, directive).parameters
