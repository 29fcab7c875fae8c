"""xDSL's `gpu` dialect with upstream MLIR's `gpu.module`: a target list and its syntax.

Upstream declares the targets a GPU module is compiled for on the module itself,
`gpu.module @m [#nvvm.target<chip = "sm_90a">] { ... }`, and NVVM ops inside check their
SM against them. xDSL 0.74's `gpu.module` has neither the `targets` property nor that
syntax, so `tileas-opt` and `tileas_py.api` load this dialect under the name `gpu` in its
place: every other op and attribute is xDSL's, and `gpu.module` is xDSL's with the
property and the syntax added (so xDSL's `gpu.func`, whose parent must be a `gpu.module`,
still nests in it). Plain `xdsl-opt` keeps xDSL's own dialect.
MLIR reference: https://mlir.llvm.org/docs/Dialects/GPU/#gpumodule-gpugpumoduleop
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import gpu
from xdsl.dialects.builtin import (
    ArrayAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Block, Dialect, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, NoTerminator, SymbolOpInterface, SymbolTable


@irdl_op_definition
class GPUModuleOp(gpu.ModuleOp):
    """A module of GPU code, with the targets it is compiled for.

    Example:
        gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
        }
    """

    name = "gpu.module"

    # An IRDL subclass declares every field again (the parent's are accessors by now).
    body = region_def("single_block")
    sym_name = prop_def(SymbolNameConstraint())
    targets = opt_prop_def(ArrayAttr[Attribute])
    offloadingHandler = opt_prop_def(Attribute)

    traits = traits_def(
        IsolatedFromAbove(), NoTerminator(), SymbolOpInterface(), SymbolTable()
    )

    def __init__(
        self,
        name: SymbolRefAttr | StringAttr,
        body: Region,
        targets: ArrayAttr[Attribute] | None = None,
    ) -> None:
        sym = name if isinstance(name, StringAttr) else name.root_reference
        properties: dict[str, Attribute] = {"sym_name": sym}
        if targets is not None:
            properties["targets"] = targets
        IRDLOperation.__init__(self, properties=properties, regions=[body])

    def verify_(self) -> None:
        """Nothing beyond the fields; defined so that xDSL's generated check of the
        parent op, which has no `targets`, is not run too."""

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_symbol_name()
        handler = None
        if parser.parse_optional_punctuation("<") is not None:
            handler = parser.parse_attribute()
            parser.parse_punctuation(">")
        targets = None
        if parser.parse_optional_punctuation("[") is not None:
            items: list[Attribute] = []
            if parser.parse_optional_punctuation("]") is None:
                items = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, parser.parse_attribute
                )
                parser.parse_punctuation("]")
            targets = ArrayAttr(items)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        op = cls.create(
            properties={"sym_name": name}
            | ({"targets": targets} if targets is not None else {})
            | ({"offloadingHandler": handler} if handler is not None else {}),
            regions=[body],
        )
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.offloadingHandler is not None:
            printer.print_string(" <")
            printer.print_attribute(self.offloadingHandler)
            printer.print_string(">")
        if self.targets is not None:
            printer.print_string(" [")
            printer.print_list(self.targets, printer.print_attribute)
            printer.print_string("]")
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_empty_block=False)


GPU = Dialect(
    "gpu",
    [GPUModuleOp if op is gpu.ModuleOp else op for op in gpu.GPU.operations],
    list(gpu.GPU.attributes),
)
"""xDSL's `gpu` dialect, with `gpu.module` taking upstream's targets and syntax."""
