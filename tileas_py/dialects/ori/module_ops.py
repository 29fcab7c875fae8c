"""Module-level PTX directives and variable declarations.

A PTX module is a `builtin.module` whose ops, in order, are its directives (`ori.version`,
`ori.target`, `ori.address_size`, `ori.pragma`, `ori.file`, `ori.section`), its variables
(`ori.var`) and its functions (`ori.func`).
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#directives
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    IntAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Block, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from tileas_py.dialects.ori.attributes import (
    FloatImmAttr,
    GenericAddressAttr,
    ImmAttr,
    Linkage,
    LinkageAttr,
    PtxTypeAttr,
    StateSpace,
    StateSpaceAttr,
    i64_attr,
)
from tileas_py.dialects.ori.declarations import UNSIZED, Declarator


@irdl_op_definition
class VersionOp(IRDLOperation):
    """`.version`: the PTX ISA version of the module.

    Example:
        ori.version "8.7"
    """

    name = "ori.version"

    version = prop_def(StringAttr)

    assembly_format = "$version attr-dict"

    def __init__(self, version: str) -> None:
        super().__init__(properties={"version": StringAttr(version)})

    def verify_(self) -> None:
        major, dot, minor = self.version.data.partition(".")
        if not (dot and major.isdigit() and minor.isdigit()):
            raise VerifyException(
                f"PTX version '{self.version.data}' is not MAJOR.MINOR"
            )


@irdl_op_definition
class TargetOp(IRDLOperation):
    """`.target`: the target architecture and options (`sm_90a`, `debug`, ...).

    Example:
        ori.target ["sm_90a"]
    """

    name = "ori.target"

    targets = prop_def(ArrayAttr[StringAttr])

    assembly_format = "$targets attr-dict"

    def __init__(self, targets: Sequence[str]) -> None:
        super().__init__(
            properties={"targets": ArrayAttr(StringAttr(t) for t in targets)}
        )

    def verify_(self) -> None:
        if not self.targets.data:
            raise VerifyException(".target needs at least one target")


@irdl_op_definition
class AddressSizeOp(IRDLOperation):
    """`.address_size`: the width of addresses, 32 or 64.

    Example:
        ori.address_size 64
    """

    name = "ori.address_size"

    size = prop_def(IntegerAttr[I64])

    assembly_format = "$size attr-dict"

    def __init__(self, size: int) -> None:
        super().__init__(properties={"size": i64_attr(size)})

    def verify_(self) -> None:
        if self.size.value.data not in (32, 64):
            raise VerifyException(
                f"address size must be 32 or 64, got {self.size.value.data}"
            )


@irdl_op_definition
class PragmaOp(IRDLOperation):
    """`.pragma`: a compiler directive string, at module level or inside a function.

    Example:
        ori.pragma ["nounroll"]
    """

    name = "ori.pragma"

    strings = prop_def(ArrayAttr[StringAttr])

    assembly_format = "$strings attr-dict"

    def __init__(self, strings: Sequence[str]) -> None:
        super().__init__(
            properties={"strings": ArrayAttr(StringAttr(s) for s in strings)}
        )


NEXT_KNOB_PREFIX = "next "
"""A pragma whose every string has this prefix (`next knob FenceCode`) belongs to the
instruction right after it: ptxas's OCG reads it as a knob of that one instruction."""


def is_next_pragma(op: Operation | None) -> TypeGuard[PragmaOp]:
    """An `ori.pragma` that belongs to the instruction after it."""
    return (
        isinstance(op, PragmaOp)
        and bool(op.strings.data)
        and all(s.data.startswith(NEXT_KNOB_PREFIX) for s in op.strings)
    )


def pragmas_of(op: Operation) -> list[PragmaOp]:
    """The `next` pragmas right before `op`, which belong to it, in order."""
    pragmas: list[PragmaOp] = []
    previous = op.prev_op
    while isinstance(previous, PragmaOp) and is_next_pragma(previous):
        pragmas.append(previous)
        previous = previous.prev_op
    return pragmas[::-1]


def trailing_pragmas(block: Block) -> list[PragmaOp]:
    """The `next` pragmas at the end of `block`, which belong to what comes next."""
    last = block.last_op
    return [*pragmas_of(last), last] if is_next_pragma(last) else []


def start_of(op: Operation) -> Operation:
    """Where `op` starts with its pragmas: code inserted before `op` goes before this, so
    that a pragma stays right before the instruction it belongs to."""
    pragmas = pragmas_of(op)
    return pragmas[0] if pragmas else op


@irdl_op_definition
class FileOp(IRDLOperation):
    """`.file`: a source file index for `.loc` debug directives.

    Example:
        ori.file 1 "kernel.cu" timestamp 1700000000 size 2048
    """

    name = "ori.file"

    index = prop_def(IntegerAttr[I64])
    path = prop_def(StringAttr)
    timestamp = opt_prop_def(IntegerAttr[I64])
    size = opt_prop_def(IntegerAttr[I64])

    assembly_format = (
        "$index $path (`timestamp` $timestamp^)? (`size` $size^)? attr-dict"
    )

    def __init__(
        self,
        index: int,
        path: str,
        timestamp: int | None = None,
        size: int | None = None,
    ) -> None:
        super().__init__(
            properties={
                "index": i64_attr(index),
                "path": StringAttr(path),
                "timestamp": None if timestamp is None else i64_attr(timestamp),
                "size": None if size is None else i64_attr(size),
            }
        )


@irdl_op_definition
class SectionOp(IRDLOperation):
    """`.section`: a debug section, kept as its raw PTX text between the braces.

    Example:
        ori.section ".debug_str" "\\n$L__info_string0:\\n.b8 107\\n.b8 0\\n"
    """

    name = "ori.section"

    section = prop_def(StringAttr)
    body = prop_def(StringAttr)

    assembly_format = "$section $body attr-dict"

    def __init__(self, section: str, body: str) -> None:
        super().__init__(
            properties={"section": StringAttr(section), "body": StringAttr(body)}
        )


INITIALIZER_LEAVES = (ImmAttr, FloatImmAttr, SymbolRefAttr, GenericAddressAttr)


def _check_initializer(init: Attribute) -> None:
    if isa(init, ArrayAttr[Attribute]):
        for element in init:
            _check_initializer(element)
    elif not isinstance(init, INITIALIZER_LEAVES):
        raise VerifyException(f"{init} cannot initialize a PTX variable")


def _print_initializer(printer: Printer, init: Attribute) -> None:
    if isa(init, ArrayAttr[Attribute]):
        printer.print_string("[")
        printer.print_list(init, lambda e: _print_initializer(printer, e))
        printer.print_string("]")
    elif isinstance(init, ImmAttr):
        printer.print_int(init.value.data)
    elif isinstance(init, FloatImmAttr):
        printer.print_string(f"f{init.width.data}({init.bits.data:#x})")
    elif isinstance(init, GenericAddressAttr):
        printer.print_string("generic(")
        printer.print_attribute(init.symbol)
        printer.print_string(")")
    else:
        printer.print_attribute(init)


def _parse_initializer(parser: Parser) -> Attribute:
    if parser.parse_optional_punctuation("[") is not None:
        if parser.parse_optional_punctuation("]") is not None:
            return ArrayAttr(())
        elements = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, lambda: _parse_initializer(parser)
        )
        parser.parse_punctuation("]")
        return ArrayAttr(elements)
    if (value := parser.parse_optional_integer(allow_boolean=False)) is not None:
        return ImmAttr(value)
    if (width := parser.parse_optional_keyword_in(("f32", "f64"))) is not None:
        parser.parse_punctuation("(")
        bits = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation(")")
        return FloatImmAttr(int(width[1:]), bits)
    if parser.parse_optional_keyword("generic") is not None:
        parser.parse_punctuation("(")
        symbol = parser.parse_symbol_name()
        parser.parse_punctuation(")")
        return GenericAddressAttr(SymbolRefAttr(symbol))
    return SymbolRefAttr(parser.parse_symbol_name())


@irdl_op_definition
class VarOp(IRDLOperation):
    """A PTX variable: `.global`, `.shared`, `.const`, `.local` or `.param` storage.

    At module level it is a global declaration; inside a function it sits in the
    declaration block (`.local` stack depots, call-sequence `.param` scratch variables).
    Not an MLIR symbol op: PTX may declare a name (`.extern`) before defining it, which an
    MLIR symbol table would reject as a redefinition.

    Example:
        ori.var visible global align 1 b8 @"$str"[4] = [104, 105, 10, 0]
        ori.var extern shared align 16 b8 @global_smem[]
    """

    name = "ori.var"

    space = prop_def(StateSpaceAttr)
    linkage = opt_prop_def(LinkageAttr)
    var_name = prop_def(StringAttr)
    ptx_type = prop_def(PtxTypeAttr)
    align = opt_prop_def(IntAttr)
    vector = opt_prop_def(IntAttr)
    dims = prop_def(ArrayAttr[IntAttr])
    init = opt_prop_def(Attribute)

    def __init__(
        self,
        space: StateSpace,
        declarator: Declarator,
        *,
        linkage: Linkage | None = None,
        init: Attribute | None = None,
    ) -> None:
        super().__init__(
            properties={
                "space": StateSpaceAttr(space),
                "linkage": None if linkage is None else LinkageAttr(linkage),
                "var_name": StringAttr(declarator.name),
                "ptx_type": PtxTypeAttr(declarator.ptx_type),
                "align": None
                if declarator.align is None
                else IntAttr(declarator.align),
                "vector": None
                if declarator.vector is None
                else IntAttr(declarator.vector),
                "dims": ArrayAttr(IntAttr(d) for d in declarator.dims),
                "init": init,
            }
        )

    @property
    def declarator(self) -> Declarator:
        return Declarator(
            self.ptx_type.data,
            self.var_name.data,
            None if self.align is None else self.align.data,
            None if self.vector is None else self.vector.data,
            tuple(d.data for d in self.dims),
        )

    def verify_(self) -> None:
        from tileas_py.dialects.ori.function import FuncOp

        parent = self.parent_op()
        block = self.parent_block()
        in_function = isinstance(parent, FuncOp) and block is parent.body.blocks.first
        if parent is not None and not isinstance(parent, ModuleOp) and not in_function:
            raise VerifyException(
                "variables are declared at module level or in the entry block of an "
                "'ori.func'"
            )
        if self.align is not None and (
            self.align.data <= 0 or self.align.data & (self.align.data - 1)
        ):
            raise VerifyException(
                f"alignment must be a power of two, got {self.align.data}"
            )
        if any(d.data < UNSIZED or d.data == 0 for d in self.dims):
            raise VerifyException("array dimensions must be positive or unsized")
        if self.init is not None:
            _check_initializer(self.init)

    def print(self, printer: Printer) -> None:
        if self.linkage is not None:
            printer.print_string(f" {self.linkage.data.value}")
        printer.print_string(f" {self.space.data.value} ")
        self.declarator.print(printer)
        if self.init is not None:
            printer.print_string(" = ")
            _print_initializer(printer, self.init)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    @classmethod
    def parse(cls, parser: Parser) -> VarOp:
        linkage = parser.parse_optional_keyword_in(tuple(Linkage.__members__.values()))
        space = parser.parse_keyword_in(tuple(StateSpace.__members__.values()))
        declarator = Declarator.parse(parser)
        init = None
        if parser.parse_optional_punctuation("=") is not None:
            init = _parse_initializer(parser)
        op = VarOp(
            StateSpace(space),
            declarator,
            linkage=None if linkage is None else Linkage(linkage),
            init=init,
        )
        if (attributes := parser.parse_optional_attr_dict_with_keyword()) is not None:
            op.attributes.update(attributes.data)
        return op
