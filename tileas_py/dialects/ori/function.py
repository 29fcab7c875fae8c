"""PTX functions, register declarations, labels and the other non-instruction body ops.

An `ori.func` body is a CFG of blocks. Its entry block is the *declaration block*: it holds
the function's `ori.reg` register declarations and function-scope `ori.var` variables (from
every `{ }` scope of the PTX, renamed apart where names clash) and ends in an
`ori.fallthrough` to the first block of code. Registers are the SSA results of `ori.reg`;
the entry block dominates every block, so any instruction anywhere may name any register
while the IR stays valid MLIR. Code blocks begin with an optional `ori.label` and end in a
branch (`ori.bra`), `ori.ret` / `ori.exit`, or an `ori.fallthrough` where PTX falls through.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    i64,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    opt_successor_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, IsTerminator
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.ori.attributes import (
    FunctionKind,
    FunctionKindAttr,
    Linkage,
    LinkageAttr,
    PtxType,
    PtxTypeAttr,
    RegisterClass,
    RegisterClassAttr,
    RegisterType,
    i64_attr,
)
from tileas_py.dialects.ori.declarations import (
    PERFORMANCE_DIRECTIVES,
    DirectiveAttr,
    ParamAttr,
)
from tileas_py.xdsl_gaps.verification import (
    QuickVerifiedOperation,
    quick_verified_op_definition,
)


def register_name_hint(ptx_name: str) -> str | None:
    """The MLIR value name a register prints with: its PTX name without `%`, if valid.

    xDSL drops a `_N` suffix from name hints (to number clashes itself), which would print
    PTX's `%r_1` as `%r`; a trailing `_` keeps it apart: `%r_1_`.
    """
    hint = ptx_name.lstrip("%")
    if not hint or not SSAValue.is_valid_name(hint):
        return None
    return hint + "_" if _NUMBERED_SUFFIX.search(hint) else hint


_NUMBERED_SUFFIX = re.compile(r"_\d+$")


_REG_PROPERTY_TYPES: dict[str, type[Attribute]] = {
    "ptx_type": PtxTypeAttr,
    "reg_name": StringAttr,
    "index": IntegerAttr,
    "reg_class": RegisterClassAttr,
}


@quick_verified_op_definition
class RegOp(QuickVerifiedOperation):
    """`.reg`: declares one PTX virtual register, whose handle every instruction names.

    `%r<100>` declares `%r0` ... `%r99`; each keeps the prefix and its index so that the
    PTX writer prints the group back as one declaration. The register class is the one
    ptxas's allocator puts the register in; unset, it follows from the PTX type (`pred`
    registers are predicates, the rest general), and passes may assign another.

    Example:
        %f3 = ori.reg f32 "%f3"
        %r5 = ori.reg b32 "%r" <5>
        %r7 = ori.reg b32 "%r" <7> class accumulator
    """

    name = "ori.reg"

    result = result_def(RegisterType)
    ptx_type = prop_def(PtxTypeAttr)
    reg_name = prop_def(StringAttr)
    index = opt_prop_def(IntegerAttr[I64])
    reg_class = opt_prop_def(RegisterClassAttr)

    assembly_format = (
        "$ptx_type $reg_name (`<` $index^ `>`)? (`class` $reg_class^)? attr-dict"
    )

    def __init__(
        self,
        ptx_type: PtxType,
        reg_name: str,
        index: int | None = None,
        reg_class: RegisterClass | None = None,
    ) -> None:
        super().__init__(
            result_types=[RegisterType()],
            properties={
                "ptx_type": PtxTypeAttr(ptx_type),
                "reg_name": StringAttr(reg_name),
                "index": None if index is None else i64_attr(index),
                "reg_class": None
                if reg_class is None
                else RegisterClassAttr(reg_class),
            },
        )
        self.result.name_hint = register_name_hint(self.ptx_name)

    @property
    def ptx_name(self) -> str:
        """The register's name in PTX: `%f3`, or prefix and index, `%r5`."""
        if self.index is None:
            return self.reg_name.data
        return f"{self.reg_name.data}{self.index.value.data}"

    @property
    def register_class(self) -> RegisterClass:
        """The assigned class, else the one the PTX type implies."""
        if self.reg_class is not None:
            return self.reg_class.data
        if self.ptx_type.data is PtxType.PRED:
            return RegisterClass.PREDICATE
        return RegisterClass.GENERAL

    @register_class.setter
    def register_class(self, reg_class: RegisterClass) -> None:
        self.reg_class = RegisterClassAttr(reg_class)

    def has_ordinary_shape(self) -> bool:
        """Known properties of their exact types, an i64 index, no operands, regions or
        successors, and one register-typed result."""
        properties = self.properties
        index = properties.get("index")
        return (
            self.has_property_types(_REG_PROPERTY_TYPES)
            and "ptx_type" in properties
            and "reg_name" in properties
            and (index is None or cast(IntegerAttr[I64], index).type == i64)
            and not self._operands
            and len(self.results) == 1
            and type(self.results[0].type) is RegisterType
            and not self.regions
            and not self._successors
        )

    def verify_(self) -> None:
        self.verify_ordinary_()

    def verify_ordinary_(self) -> None:
        func = self.parent_op()
        block = self.parent_block()
        if (
            not isinstance(func, FuncOp)
            or block is None
            or block is not func.body.blocks.first
        ):
            raise VerifyException(
                "registers are declared in the entry block of an 'ori.func'"
            )
        if self.index is not None and self.index.value.data < 0:
            raise VerifyException("a register index cannot be negative")


@irdl_op_definition
class LabelOp(IRDLOperation):
    """A PTX label: the name the block it starts has in PTX.

    Example:
        ori.label "$L__BB0_2"
    """

    name = "ori.label"

    label = prop_def(StringAttr)

    assembly_format = "$label attr-dict"

    def __init__(self, label: str) -> None:
        super().__init__(properties={"label": StringAttr(label)})

    def verify_(self) -> None:
        block = self.parent_block()
        if block is not None and block.first_op is not self:
            raise VerifyException("a label must be the first op of its block")


@irdl_op_definition
class LocOp(IRDLOperation):
    """`.loc`: the source position of the instructions that follow (debug line info).

    Example:
        ori.loc 1 61 0
        ori.loc 2 43 13 function_name @"$L__info_string0" inlined_at 1 67 17
    """

    name = "ori.loc"

    file = prop_def(IntegerAttr[I64])
    line = prop_def(IntegerAttr[I64])
    column = prop_def(IntegerAttr[I64])
    function_name = opt_prop_def(SymbolRefAttr)
    inlined_file = opt_prop_def(IntegerAttr[I64])
    inlined_line = opt_prop_def(IntegerAttr[I64])
    inlined_column = opt_prop_def(IntegerAttr[I64])

    assembly_format = (
        "$file $line $column (`function_name` $function_name^)? "
        "(`inlined_at` $inlined_file^ $inlined_line $inlined_column)? attr-dict"
    )

    def __init__(
        self,
        file: int,
        line: int,
        column: int,
        function_name: str | None = None,
        inlined_at: tuple[int, int, int] | None = None,
    ) -> None:
        super().__init__(
            properties={
                "file": i64_attr(file),
                "line": i64_attr(line),
                "column": i64_attr(column),
                "function_name": None
                if function_name is None
                else SymbolRefAttr(function_name),
            }
        )
        if inlined_at is not None:
            file, line, column = inlined_at
            self.inlined_file = i64_attr(file)
            self.inlined_line = i64_attr(line)
            self.inlined_column = i64_attr(column)

    @property
    def inlined_at(self) -> tuple[int, int, int] | None:
        """The file, line and column this position is inlined at, if any."""
        if (
            self.inlined_file is None
            or self.inlined_line is None
            or self.inlined_column is None
        ):
            return None
        return (
            self.inlined_file.value.data,
            self.inlined_line.value.data,
            self.inlined_column.value.data,
        )

    def verify_(self) -> None:
        parts = (self.inlined_file, self.inlined_line, self.inlined_column)
        if any(p is None for p in parts) and any(p is not None for p in parts):
            raise VerifyException("inlined_at needs a file, a line and a column")


@irdl_op_definition
class FallthroughOp(IRDLOperation):
    """Where PTX simply runs into the next block; nothing is printed for it.

    Without a successor (`end`) it marks code that runs off the end of the function.

    Example:
        ori.fallthrough ^bb1
        ori.fallthrough end
    """

    name = "ori.fallthrough"

    dest = opt_successor_def()

    traits = traits_def(IsTerminator())

    def __init__(self, dest: Block | None = None) -> None:
        super().__init__(successors=[dest])

    # `end` rather than nothing for the form without a successor: a block label after
    # it must never be read as its successor.
    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.dest is None:
            printer.print_string("end")
        else:
            printer.print_block_name(self.dest)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    @classmethod
    def parse(cls, parser: Parser) -> FallthroughOp:
        dest = None
        if parser.parse_optional_keyword("end") is None:
            dest = parser.parse_successor()
        op = FallthroughOp(dest)
        if (attributes := parser.parse_optional_attr_dict_with_keyword()) is not None:
            op.attributes.update(attributes.data)
        return op

    def verify_(self) -> None:
        block = self.parent_block()
        if self.dest is None and block is not None and block.next_block is not None:
            raise VerifyException(
                "only the last block of a function may fall off its end"
            )


@irdl_op_definition
class FuncOp(IRDLOperation):
    """A PTX function: a kernel (`.entry`) or a device function (`.func`).

    Parameters and return values are `.param` declarations; performance directives
    (`.maxntid`, `.reqntid`, `.minnctapersm`, `.maxnreg`, `.explicitcluster`,
    `.reqnctapercluster`, ...) follow the signature. A declaration (`.extern .func`, or a
    prototype) has an empty body.

    Not an MLIR symbol op: PTX may declare a function before defining it, which an MLIR
    symbol table would reject as a redefinition.

    Example:
        ori.func visible entry @k(u64 @k_param_0, align 64 b8 @k_param_1[128]) reqntid 128 {
          %r0 = ori.reg b32 "%r" <0>
          ori.fallthrough ^bb1
        ^bb1:
          ori.exit "exit"
        }
    """

    name = "ori.func"

    func_name = prop_def(StringAttr)
    kind = prop_def(FunctionKindAttr)
    linkage = opt_prop_def(LinkageAttr)
    params = prop_def(ArrayAttr[ParamAttr])
    returns = prop_def(ArrayAttr[ParamAttr])
    directives = prop_def(ArrayAttr[DirectiveAttr])
    body = region_def()

    traits = traits_def(IsolatedFromAbove())

    def __init__(
        self,
        func_name: str,
        kind: FunctionKind,
        params: Sequence[ParamAttr] = (),
        returns: Sequence[ParamAttr] = (),
        *,
        linkage: Linkage | None = None,
        directives: Sequence[DirectiveAttr] = (),
        body: Region | None = None,
    ) -> None:
        super().__init__(
            properties={
                "func_name": StringAttr(func_name),
                "kind": FunctionKindAttr(kind),
                "linkage": None if linkage is None else LinkageAttr(linkage),
                "params": ArrayAttr(params),
                "returns": ArrayAttr(returns),
                "directives": ArrayAttr(directives),
            },
            regions=[Region() if body is None else body],
        )

    @property
    def is_declaration(self) -> bool:
        return not self.body.blocks

    @property
    def declaration_block(self) -> Block:
        """The entry block, holding the register and variable declarations."""
        block = self.body.blocks.first
        assert block is not None, "a function declaration has no body"
        return block

    def registers(self) -> list[RegOp]:
        """The register declarations, in order."""
        return [op for op in self.declaration_block.ops if isinstance(op, RegOp)]

    def add_register(
        self, ptx_type: PtxType, reg_name: str, index: int | None = None
    ) -> RegOp:
        """Declare a fresh register at the end of the declaration block."""
        reg = RegOp(ptx_type, reg_name, index)
        terminator = self.declaration_block.last_op
        assert terminator is not None
        self.declaration_block.insert_op_before(reg, terminator)
        return reg

    def verify_(self) -> None:
        from tileas_py.dialects.ori.module_ops import VarOp

        if self.kind.data is FunctionKind.ENTRY and self.returns.data:
            raise VerifyException("a kernel (.entry) cannot return values")
        if self.is_declaration:
            return
        block = self.declaration_block
        terminator = block.last_op
        if not isinstance(terminator, FallthroughOp) or terminator.dest is None:
            raise VerifyException(
                "the declaration block must end in an 'ori.fallthrough' to the code"
            )
        names: set[str] = set()
        for op in block.ops:
            if op is terminator:
                break
            if not isinstance(op, RegOp | VarOp):
                raise VerifyException(
                    f"the declaration block holds only 'ori.reg' and 'ori.var', "
                    f"not '{op.name}'"
                )
            name = op.ptx_name if isinstance(op, RegOp) else op.var_name.data
            if name in names:
                raise VerifyException(f"'{name}' is declared twice in this function")
            names.add(name)

    # -- custom syntax --------------------------------------------------------------------

    def print(self, printer: Printer) -> None:
        if self.linkage is not None:
            printer.print_string(f" {self.linkage.data.value}")
        printer.print_string(f" {self.kind.data.value} ")
        printer.print_symbol_name(self.func_name.data)
        _print_params(printer, self.params)
        if self.returns.data:
            printer.print_string(" -> ")
            _print_params(printer, self.returns)
        for directive in self.directives:
            printer.print_string(" ")
            directive.print_body(printer)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        if self.body.blocks:
            printer.print_string(" ")
            printer.print_region(self.body)

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        linkage = parser.parse_optional_keyword_in(tuple(Linkage.__members__.values()))
        kind = parser.parse_keyword_in(tuple(FunctionKind.__members__.values()))
        name = parser.parse_symbol_name().data
        params = _parse_params(parser)
        returns: list[ParamAttr] = []
        if parser.parse_optional_punctuation("->") is not None:
            returns = _parse_params(parser)
        directives: list[DirectiveAttr] = []
        while (
            d := parser.parse_optional_keyword_in(PERFORMANCE_DIRECTIVES)
        ) is not None:
            directives.append(DirectiveAttr.parse_body(parser, d))
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_optional_region() or Region()
        op = FuncOp(
            name,
            FunctionKind(kind),
            params,
            returns,
            linkage=None if linkage is None else Linkage(linkage),
            directives=directives,
            body=body,
        )
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op


def _print_params(printer: Printer, params: ArrayAttr[ParamAttr]) -> None:
    printer.print_string("(")
    printer.print_list(params, lambda p: p.print_body(printer))
    printer.print_string(")")


def _parse_params(parser: Parser) -> list[ParamAttr]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, lambda: ParamAttr.parse_body(parser)
    )
