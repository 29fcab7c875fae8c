"""The `nv_tileaa` dialect: tileiras's "tile address-agnostic" kernel level.

`nv_tileaa` is the level a tile kernel enters tileiras at, before layouts and agents are
assigned (see the TileAS CTA / cluster family notes, `shared/seeds/002_*.txt`). This module
models the parts the CTA / cluster passes read and write:

- `#nv_tileaa.kernel_spec<num_ctas = N>`, the function attribute `nv_tileaa.kernel_spec`
  that carries the cluster size (CTAs per cluster) and an auxiliary scalar;
- `#nv_tileaa.target_spec<sm = 90>`, the module attribute `nv_tileaa.target_spec` that
  names the SM the module is compiled for;
- `nv_tileaa.func` / `nv_tileaa.return`, a device function;
- `nv_tileaa.get_program_id`, `nv_tileaa.is_valid_program_id` (the persistent-grid
  scheduler's program ids) and `nv_tileaa.extract` (one element of a tile).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyTensorType,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntAttr,
    StringAttr,
    SymbolNameConstraint,
    TensorType,
    i1,
    i32,
)
from xdsl.dialects.utils import (
    EnumAttribute,
    parse_func_op_like,
    print_func_op_like,
)
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    AlwaysSpeculatable,
    CallableOpInterface,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoMemoryEffect,
    OpTrait,
    Pure,
    ReturnLike,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa
from xdsl.utils.str_enum import StrEnum

from tileas_py.analysis.enclosing import module_attribute
from tileas_py.dialects.utils import verified

KERNEL_SPEC = "nv_tileaa.kernel_spec"
"""The function attribute holding a `KernelSpecAttr`."""

TARGET_SPEC = "nv_tileaa.target_spec"
"""The module attribute holding a `TargetSpecAttr`."""

MAX_CLUSTER_SIZE = 16
"""Hopper and Blackwell allow up to 16 CTAs per cluster (8 portable, 16 non-portable)."""

KNOWN_SMS = (80, 86, 87, 89, 90, 100, 101, 102, 103, 110, 120, 121)
"""SM numbers tileiras targets: Ampere, Ada, Hopper, Blackwell (datacenter, Thor, consumer)."""


@irdl_attr_definition
class KernelSpecAttr(ParametrizedAttribute):
    """
    The cluster geometry of a kernel: how many CTAs form one cluster, plus an auxiliary
    scalar that tileiras carries next to it (opaque here; printed only when non-zero).

    Example: `#nv_tileaa.kernel_spec<num_ctas = 2>`, `#nv_tileaa.kernel_spec<num_ctas = 4, aux = 1>`
    """

    name = "nv_tileaa.kernel_spec"

    num_ctas: IntAttr
    aux: IntAttr

    def __init__(self, num_ctas: int, aux: int = 0) -> None:
        super().__init__(IntAttr(num_ctas), IntAttr(aux))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(f"num_ctas = {self.num_ctas.data}")
            if self.aux.data:
                printer.print_string(f", aux = {self.aux.data}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            parser.parse_keyword("num_ctas")
            parser.parse_punctuation("=")
            num_ctas = parser.parse_integer(allow_boolean=False)
            aux = 0
            if parser.parse_optional_punctuation(","):
                parser.parse_keyword("aux")
                parser.parse_punctuation("=")
                aux = parser.parse_integer(allow_boolean=False)
        return verified(parser, cls, start, (IntAttr(num_ctas), IntAttr(aux)))

    def verify(self) -> None:
        n = self.num_ctas.data
        if n < 1 or n > MAX_CLUSTER_SIZE or n & (n - 1):
            raise VerifyException(
                f"num_ctas must be a power of two between 1 and {MAX_CLUSTER_SIZE}, got {n}"
            )
        if not 0 <= self.aux.data < 2**32:
            raise VerifyException(
                f"aux must be an unsigned 32-bit value, got {self.aux.data}"
            )


@irdl_attr_definition
class TargetSpecAttr(ParametrizedAttribute):
    """
    The SM a module is compiled for (80 Ampere, 90 Hopper, 100-103 Blackwell, 110 Thor,
    120 consumer Blackwell, ...).

    Example: `module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>}`
    """

    name = "nv_tileaa.target_spec"

    sm: IntAttr

    def __init__(self, sm: int) -> None:
        super().__init__(IntAttr(sm))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<sm = {self.sm.data}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            parser.parse_keyword("sm")
            parser.parse_punctuation("=")
            sm = parser.parse_integer(allow_boolean=False)
        return verified(parser, cls, start, (IntAttr(sm),))

    def verify(self) -> None:
        if self.sm.data not in KNOWN_SMS:
            known = ", ".join(map(str, KNOWN_SMS))
            raise VerifyException(
                f"unknown SM number {self.sm.data}; expected one of {known}"
            )


def kernel_spec_of(op: Operation) -> KernelSpecAttr | None:
    """The `nv_tileaa.kernel_spec` of a function-like op, if it has one."""
    spec = op.attributes.get(KERNEL_SPEC)
    return spec if isinstance(spec, KernelSpecAttr) else None


def target_sm_of(op: Operation) -> int | None:
    """The SM number in the `nv_tileaa.target_spec` of the module enclosing `op`."""
    spec = module_attribute(op, TARGET_SPEC, TargetSpecAttr)
    return None if spec is None else spec.sm.data


class ProgramIdDim(StrEnum):
    X = "x"
    Y = "y"
    Z = "z"


@irdl_attr_definition
class ProgramIdDimAttr(EnumAttribute[ProgramIdDim], SpacedOpaqueSyntaxAttribute):
    """A grid dimension: `#nv_tileaa<dim x>`."""

    name = "nv_tileaa.dim"


PROGRAM_ID_DIMS = (ProgramIdDim.X, ProgramIdDim.Y, ProgramIdDim.Z)


class FuncCallable(CallableOpInterface):
    """`nv_tileaa.func` is callable through its body."""

    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        assert isinstance(op, FuncOp)
        return op.body

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.function_type.inputs.data

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.function_type.outputs.data


@irdl_op_definition
class FuncOp(IRDLOperation):
    """
    A tile-level device function.

    Written like `func.func`; may carry `nv_tileaa.kernel_spec` and `nv_tileas.num_warps`.

    Example:
    ```
    nv_tileaa.func @add(%a: i32, %b: i32) -> i32 {
      %s = arith.addi %a, %b : i32
      nv_tileaa.return %s : i32
    }
    ```
    """

    name = "nv_tileaa.func"

    body = region_def()
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), FuncCallable())

    def __init__(
        self,
        name: str,
        function_type: FunctionType,
        region: Region | None = None,
    ) -> None:
        if region is None:
            region = Region(Block(arg_types=function_type.inputs))
        super().__init__(
            properties={"sym_name": StringAttr(name), "function_type": function_type},
            regions=[region],
        )

    def verify_(self) -> None:
        verify_entry_block_matches(self.body, self.function_type)

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        name, inputs, outputs, region, extra, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type")
        )
        op = cls(name, FunctionType.from_lists(inputs, outputs), region)
        if arg_attrs is not None:
            op.arg_attrs = arg_attrs
        if res_attrs is not None:
            op.res_attrs = res_attrs
        if extra is not None:
            op.attributes |= extra.data
        return op

    def print(self, printer: Printer) -> None:
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            arg_attrs=self.arg_attrs,
            res_attrs=self.res_attrs,
            reserved_attr_names=("sym_name", "function_type", "arg_attrs"),
        )


def verify_entry_block_matches(body: Region, function_type: FunctionType) -> None:
    """A function body's entry block takes exactly the function's input types."""
    if not body.blocks:
        raise VerifyException("expected a body with an entry block")
    entry = body.blocks.first
    assert entry is not None
    if tuple(entry.arg_types) != function_type.inputs.data:
        raise VerifyException(
            "entry block arguments do not match the function input types"
        )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """
    Returns from an `nv_tileaa.func`.

    Example: `nv_tileaa.return %s : i32`
    """

    name = "nv_tileaa.return"

    arguments = var_operand_def()

    traits = traits_def(HasParent(FuncOp), IsTerminator(), ReturnLike(), Pure())

    assembly_format = "attr-dict ($arguments^ `:` type($arguments))?"

    def __init__(self, *values: SSAValue | Operation) -> None:
        super().__init__(operands=[values])

    def verify_(self) -> None:
        func = self.parent_op()
        assert isinstance(func, FuncOp)
        expected = func.function_type.outputs.data
        if tuple(self.arguments.types) != expected:
            raise VerifyException(
                "returned types do not match the function result types"
            )


@irdl_op_definition
class GetProgramIdOp(IRDLOperation):
    """
    The program id (tile coordinate in the launch grid) along one grid dimension.

    In a dynamic persistent kernel the id comes from the tile scheduler instead; see
    `tileas-dynamic-persistent`.

    Example: `%pid = nv_tileaa.get_program_id x`
    """

    name = "nv_tileaa.get_program_id"

    dim = prop_def(ProgramIdDimAttr)
    result = result_def(i32)

    traits = traits_def(Pure())

    assembly_format = "$dim attr-dict"

    def __init__(self, dim: ProgramIdDim) -> None:
        super().__init__(properties={"dim": ProgramIdDimAttr(dim)}, result_types=[i32])


@irdl_op_definition
class IsValidProgramIdOp(IRDLOperation):
    """
    Whether the tile scheduler's program id (x, y, z) still names a tile of the grid.

    The condition of a dynamic persistent kernel's `scf.while` loop.

    Example: `%valid = nv_tileaa.is_valid_program_id %x, %y, %z`
    """

    name = "nv_tileaa.is_valid_program_id"

    x = operand_def(i32)
    y = operand_def(i32)
    z = operand_def(i32)
    result = result_def(i1)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$x `,` $y `,` $z attr-dict"

    def __init__(
        self, x: SSAValue | Operation, y: SSAValue | Operation, z: SSAValue | Operation
    ) -> None:
        super().__init__(operands=[x, y, z], result_types=[i1])


def _extract_traits() -> tuple[OpTrait, ...]:
    # nv_tileas's ops import this module: its effects are looked up once both exist.
    from tileas_py.dialects.nv_tileas.effects import ReadsSharedOperands

    return (ReadsSharedOperands(), AlwaysSpeculatable())


@irdl_op_definition
class ExtractOp(IRDLOperation):
    """
    Reads one element of a tile.

    Example: `%e = nv_tileaa.extract %t[%i, %j] : tensor<16x16xf32> -> f32`
    """

    name = "nv_tileaa.extract"

    tensor = operand_def(TensorType)
    indices = var_operand_def(IndexType)
    result = result_def()

    traits = lazy_traits_def(_extract_traits)

    assembly_format = (
        "$tensor `[` $indices `]` attr-dict `:` type($tensor) `->` type($result)"
    )

    def __init__(
        self, tensor: SSAValue | Operation, indices: Sequence[SSAValue | Operation]
    ) -> None:
        tensor_type = SSAValue.get(tensor).type
        assert isa(tensor_type, AnyTensorType)
        super().__init__(
            operands=[tensor, indices],
            result_types=[tensor_type.get_element_type()],
        )

    def verify_(self) -> None:
        tensor_type = self.tensor.type
        assert isinstance(tensor_type, TensorType)
        if len(self.indices) != tensor_type.get_num_dims():
            raise VerifyException(
                f"expected {tensor_type.get_num_dims()} indices, got {len(self.indices)}"
            )
        if self.result.type != tensor_type.get_element_type():
            raise VerifyException("result type must be the element type of the tensor")


NvTileaa = Dialect(
    "nv_tileaa",
    [
        FuncOp,
        ReturnOp,
        GetProgramIdOp,
        IsValidProgramIdOp,
        ExtractOp,
    ],
    [
        KernelSpecAttr,
        TargetSpecAttr,
        ProgramIdDimAttr,
    ],
)
