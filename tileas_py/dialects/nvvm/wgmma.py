"""Warpgroup MMA (sm_90a): `nvvm.wgmma.fence.aligned`, `nvvm.wgmma.mma_async`,
`nvvm.wgmma.commit.group.sync.aligned` and `nvvm.wgmma.wait.group.sync.aligned`.

A WGMMA region is a fence, one or more `mma_async` that thread the accumulator struct from
one to the next, a commit closing the group, and a wait that leaves at most N groups in
flight (reference note 001). Shapes and types are checked against `tileas_py.hw.wgmma`.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmwgmmamma_async-nvvmwgmmammaasyncop
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-instructions
"""

from __future__ import annotations

from typing import Any, ClassVar, Self, TypeVar

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.dialects.llvm import LLVMStructType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tileas_py.diagnostics import PlainVerifyException
from tileas_py.dialects.nvvm.attrs import (
    MMAIntOverflow,
    MMAIntOverflowAttr,
    MMALayout,
    MMALayoutAttr,
    MMAShapeAttr,
    WGMMAScaleIn,
    WGMMAScaleInAttr,
    WGMMAScaleOutAttr,
    WGMMATypesAttr,
)
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import I64, I64_ATTR, LLVM_STRUCT
from tileas_py.dialects.nvvm.target import RequiresSMa, declared_targets, ptx_version
from tileas_py.hw import wgmma
from tileas_py.hw.wgmma import WgmmaType

_SM90A = RequiresSMa((90,))
_MIXED_INTEGER_PTX = (8, 4)
_EnumAttrT = TypeVar("_EnumAttrT", bound=EnumAttribute[Any])


@irdl_op_definition
class WgmmaFenceAlignedOp(NVVMOp):
    """Orders prior register and shared-memory accesses before the next `mma_async`
    (`wgmma.fence.sync.aligned`).

    Example:
        nvvm.wgmma.fence.aligned
    """

    name = "nvvm.wgmma.fence.aligned"

    traits = traits_def(_SM90A)
    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class WgmmaGroupSyncAlignedOp(NVVMOp):
    """Closes the current group of `mma_async` ops (`wgmma.commit_group.sync.aligned`).

    Example:
        nvvm.wgmma.commit.group.sync.aligned
    """

    name = "nvvm.wgmma.commit.group.sync.aligned"

    traits = traits_def(_SM90A)
    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class WgmmaWaitGroupSyncOp(NVVMOp):
    """Waits until at most `group` committed WGMMA groups are still in flight
    (`wgmma.wait_group.sync.aligned N`); 0 drains them all.

    Example:
        nvvm.wgmma.wait.group.sync.aligned 0
    """

    name = "nvvm.wgmma.wait.group.sync.aligned"

    group = prop_def(I64_ATTR)

    traits = traits_def(_SM90A)
    FORMAT: ClassVar[str] = "attr-dict $group"

    def __init__(self, group: int) -> None:
        super().__init__(properties={"group": IntegerAttr(group, i64)})


def _parse_enum(parser: Parser, kind: type[_EnumAttrT]) -> _EnumAttrT:
    """An enum attribute in bare (`<f32>`) or qualified (`#nvvm.wgmma_type<f32>`) form."""
    return kind(kind.parse_parameter(parser))


@irdl_op_definition
class WgmmaMmaAsyncOp(NVVMOp):
    """Asynchronous warpgroup MMA: `D = A * B + D` (or `A * B` when `scaleD` is zero) on an
    `m64nNkK` tile, with A and B read through shared-memory descriptors.

    The accumulator struct `inouts` is threaded through consecutive `mma_async` ops of a
    group and must not be read before a `wgmma.wait.group.sync.aligned` drains the group.

    Example:
        %d1 = nvvm.wgmma.mma_async %descA, %descB, %d0, #nvvm.shape<m = 64, n = 64, k = 16>,
            D [<f32>, #nvvm.wgmma_scale_out<one>],
            A [<f16>, #nvvm.wgmma_scale_in<one>, <row>],
            B [<f16>, #nvvm.wgmma_scale_in<one>, <col>]
            : !llvm.struct<(f32, ...)> -> !llvm.struct<(f32, ...)>
    """

    name = "nvvm.wgmma.mma_async"
    BEYOND_UPSTREAM: ClassVar[str] = "ptxas's PTX ISA 8.4 floor for mixed s8/u8 inputs"

    inouts = operand_def(LLVM_STRUCT)
    descriptorA = operand_def(I64)
    descriptorB = operand_def(I64)
    shape = prop_def(MMAShapeAttr)
    typeA = prop_def(WGMMATypesAttr)
    typeB = prop_def(WGMMATypesAttr)
    typeD = prop_def(WGMMATypesAttr)
    scaleD = prop_def(WGMMAScaleOutAttr)
    scaleA = prop_def(WGMMAScaleInAttr)
    scaleB = prop_def(WGMMAScaleInAttr)
    layoutA = prop_def(MMALayoutAttr)
    layoutB = prop_def(MMALayoutAttr)
    satfinite = opt_prop_def(MMAIntOverflowAttr)
    res = result_def(LLVM_STRUCT)

    traits = traits_def(_SM90A)

    def __init__(
        self,
        descriptor_a: SSAValue,
        descriptor_b: SSAValue,
        inouts: SSAValue,
        *,
        shape: MMAShapeAttr,
        type_d: WGMMATypesAttr,
        scale_d: WGMMAScaleOutAttr,
        a: tuple[WGMMATypesAttr, WGMMAScaleInAttr, MMALayoutAttr],
        b: tuple[WGMMATypesAttr, WGMMAScaleInAttr, MMALayoutAttr],
        satfinite: MMAIntOverflowAttr | None = None,
    ) -> None:
        super().__init__(
            operands=[inouts, descriptor_a, descriptor_b],
            result_types=[inouts.type],
            properties={
                "shape": shape,
                "typeD": type_d,
                "scaleD": scale_d,
                "typeA": a[0],
                "scaleA": a[1],
                "layoutA": a[2],
                "typeB": b[0],
                "scaleB": b[1],
                "layoutB": b[2],
                "satfinite": satfinite,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        desc_a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        desc_b = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        inouts = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        shape = MMAShapeAttr.new(MMAShapeAttr.parse_parameters(parser))
        properties: dict[str, Attribute] = {"shape": shape}
        parser.parse_punctuation(",")
        parser.parse_keyword("D")
        parser.parse_punctuation("[")
        properties["typeD"] = _parse_enum(parser, WGMMATypesAttr)
        parser.parse_punctuation(",")
        properties["scaleD"] = _parse_enum(parser, WGMMAScaleOutAttr)
        if parser.parse_optional_punctuation(",") is not None:
            properties["satfinite"] = _parse_enum(parser, MMAIntOverflowAttr)
        parser.parse_punctuation("]")
        for operand in ("A", "B"):
            parser.parse_punctuation(",")
            parser.parse_keyword(operand)
            parser.parse_punctuation("[")
            properties[f"type{operand}"] = _parse_enum(parser, WGMMATypesAttr)
            parser.parse_punctuation(",")
            properties[f"scale{operand}"] = _parse_enum(parser, WGMMAScaleInAttr)
            parser.parse_punctuation(",")
            properties[f"layout{operand}"] = _parse_enum(parser, MMALayoutAttr)
            parser.parse_punctuation("]")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        inouts_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        operands = [
            parser.resolve_operand(inouts, inouts_type),
            parser.resolve_operand(desc_a, i64),
            parser.resolve_operand(desc_b, i64),
        ]
        return cls.create(
            operands=operands,
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(
            (self.descriptorA, self.descriptorB, self.inouts), printer.print_operand
        )
        printer.print_string(", ")
        self.shape.print_parameters(printer)
        d: list[EnumAttribute[Any]] = [self.typeD, self.scaleD]
        if self.satfinite is not None:
            d.append(self.satfinite)
        for keyword, attrs in (
            ("D", d),
            ("A", [self.typeA, self.scaleA, self.layoutA]),
            ("B", [self.typeB, self.scaleB, self.layoutB]),
        ):
            printer.print_string(f", {keyword}[")
            printer.print_list(attrs, lambda a: a.print_parameter(printer))
            printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.inouts.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        if self.inouts.type != self.res.type:
            raise VerifyException(
                "failed to verify that input struct and result struct must be the same "
                "type"
            )
        struct = self.res.type
        if not isinstance(struct, LLVMStructType):
            raise VerifyException("expected results to be struct")
        elements = struct.types.data
        for element in elements:
            if element != elements[0]:
                raise VerifyException(
                    f"all elements in struct must be same type but there is '{element}'"
                )
        type_d = WgmmaType(self.typeD.data)
        type_a = WgmmaType(self.typeA.data)
        type_b = WgmmaType(self.typeB.data)
        if type_d not in wgmma.ACCUMULATOR_TYPES:
            raise VerifyException(f"does not support the given output type {type_d}")
        negated = WGMMAScaleIn.NEG in (self.scaleA.data, self.scaleB.data)
        if type_d == WgmmaType.S32 and negated:
            raise VerifyException("has s32 output, scaleA and scaleB cannot be neg")
        if not wgmma.is_legal_combination(type_d, type_a, type_b):
            raise VerifyException(
                f"{type_d} += {type_a} * {type_b}, it is not supported."
            )
        m, n, k = self.shape.mnk
        if m != wgmma.M:
            raise VerifyException("shape 'm' must be 64")
        if k != wgmma.k_for(type_a):
            raise VerifyException(
                f"shape 'k' must be {wgmma.k_for(type_a)} for input type {type_a}"
            )
        if n not in wgmma.legal_n(type_a):
            raise VerifyException(
                f"has input type {type_a} n is set to {n}, it is not supported."
            )
        transposed = (
            self.layoutA.data is MMALayout.COL or self.layoutB.data is MMALayout.ROW
        )
        if transposed and not wgmma.supports_transpose(type_a):
            raise VerifyException(
                f"given layouts layout_a = {self.layoutA.data} and layout_b = "
                f"{self.layoutB.data} for input types {type_a} and {type_b} requires "
                "transpose. However, this is only supported for: f16 and bf16"
            )
        expected = wgmma.result_elements(n, type_d)
        if len(elements) != expected:
            raise VerifyException(
                f"results {expected}, however output struct has {len(elements)} elements"
            )
        saturates = (
            self.satfinite is not None
            and self.satfinite.data is MMAIntOverflow.SATFINITE
        )
        if type_d != WgmmaType.S32 and saturates:
            raise VerifyException(
                " `satfinite` can be only used with s32 accumulator, however the "
                f"current accumulator is {type_d}"
            )
        self._verify_ptx_version(type_a, type_b)

    def _verify_ptx_version(self, type_a: WgmmaType, type_b: WgmmaType) -> None:
        """Not upstream's: ptxas rejects s8 with u8 below PTX ISA 8.4, in its words (the
        PTX version of a target is the one convert-nvvm-to-ori writes for it)."""
        if {type_a, type_b} != {WgmmaType.S8, WgmmaType.U8}:
            return
        for target in declared_targets(self):
            arch = target.arch
            if not target.verifies_target or arch is None:
                continue
            major, minor = ptx_version(arch, target.features.data).split(".")
            if (int(major), int(minor)) < _MIXED_INTEGER_PTX:
                raise PlainVerifyException(
                    "Feature 'WGMMA with mixed integer types' requires PTX ISA "
                    ".version 8.4 or later"
                )


WGMMA_OPS = (
    WgmmaFenceAlignedOp,
    WgmmaGroupSyncAlignedOp,
    WgmmaWaitGroupSyncOp,
    WgmmaMmaAsyncOp,
)
