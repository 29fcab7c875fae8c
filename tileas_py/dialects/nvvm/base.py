"""What every `nvvm` op shares with its MLIR counterpart beyond its own definition.

- Properties and discardable attributes are kept sorted by name, and default-valued
  properties are always present, as MLIR stores them: the generic form then prints
  `<{...}>` and `{...}` in mlir-opt's order.
- An op with a `FORMAT` (its upstream `assemblyFormat`) reads and prints it with
  `asm.parse_op` / `asm.print_op`.
- Verification runs MLIR's ODS checks (`ods.verify_ods`), the SM-gating traits, the
  op's own checks (`verify_`), then the IRDL checks, and only then the checks of the op's place in its block: MLIR verifies an op
  before it looks for the terminator of the block around it.
"""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.printer import Printer

from tileas_py.dialects.nvvm import asm
from tileas_py.dialects.nvvm.ods import verify_ods
from tileas_py.dialects.nvvm.target import TargetSMTrait

_COMPILED: dict[type[NVVMOp], tuple[asm.Element, ...]] = {}


class NVVMOp(IRDLOperation):
    """Base class of the `nvvm` ops (see the module docstring)."""

    FORMAT: ClassVar[str] = ""
    """The op's upstream declarative assembly format; empty if it has none."""

    BEYOND_UPSTREAM: ClassVar[str] = ""
    """The checks this op makes that upstream's does not (docs/nvvm-coverage.md)."""

    @classmethod
    def compiled_format(cls) -> tuple[asm.Element, ...]:
        compiled = _COMPILED.get(cls)
        if compiled is None:
            assert cls.FORMAT, cls.name
            compiled = _COMPILED[cls] = asm.compile_format(cls.FORMAT)
        return compiled

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        if not cls.FORMAT:
            return super().parse(parser)
        op = asm.parse_op(cls, parser)
        assert isinstance(op, cls)
        return op

    def print(self, printer: Printer) -> None:
        if not type(self).FORMAT:
            return super().print(printer)
        asm.print_op(self, printer)

    def __post_init__(self) -> None:
        # The properties the op was built or read with, before the defaults are added:
        # MLIR's messages about a property show only those.
        self.given_properties = dict(self.properties)
        defined = self.get_irdl_definition().properties
        if defined:
            # MLIR reads only the properties an op defines and drops the others.
            for name in [n for n in self.properties if n not in defined]:
                del self.properties[name]
        super().__post_init__()
        for name, prop in self.get_irdl_definition().properties.items():
            if name not in self.properties and prop.default_value is not None:
                self.properties[name] = prop.default_value
        self.properties = dict(sorted(self.properties.items()))
        self.attributes = dict(sorted(self.attributes.items()))

    def verify(self, verify_nested_ops: bool = True) -> None:
        verify_ods(self)
        # Then the op's traits (the SM-gating ones), and only then its own verifier.
        for trait in self.get_traits_of_type(TargetSMTrait):
            trait.verify(self)
        self.verify_()
        super().verify(verify_nested_ops)
