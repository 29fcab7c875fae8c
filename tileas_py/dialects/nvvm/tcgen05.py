"""Fifth-generation tensor cores (sm_100 Blackwell): tensor-memory allocation, the
tcgen05 fences and waits, `nvvm.tcgen05.commit`, `nvvm.tcgen05.cp` and `nvvm.tcgen05.mma`.

`nvvm.tcgen05.mma` is checked twice: by upstream MLIR's verifier (with its messages), then
by cicc's tcgen05.mma rules from `tileas_py.hw.tcgen05` (reference note 004, with cicc's
messages) for what this op can express: the kind, the CTA group, the collector mode, the
A shift and the scale-input accumulator, against each declared target.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmtcgen05mma-nvvmtcgen05mmaop
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#tensorcore-5th-generation-instructions
"""

from __future__ import annotations

from typing import Self, cast

from xdsl.dialects.builtin import (
    I1,
    I16,
    I32,
    I64,
    DenseArrayBase,
    UnitAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tileas_py.diagnostics import PlainVerifyException
from tileas_py.dialects.nvvm.attrs import (
    CTAGroupKind,
    CTAGroupKindAttr,
    Tcgen05CpMulticast,
    Tcgen05CpMulticastAttr,
    Tcgen05CpShape,
    Tcgen05CpShapeAttr,
    Tcgen05CpSrcFormatAttr,
    Tcgen05FenceKindAttr,
    Tcgen05MMACollectorOp,
    Tcgen05MMACollectorOpAttr,
    Tcgen05MMAKindAttr,
    Tcgen05WaitKindAttr,
)
from tileas_py.dialects.nvvm.pointers import (
    TENSOR,
    address_space,
    pointer,
)
from tileas_py.dialects.nvvm.syntax import (
    canonical_properties,
    parse_optional_keyword_operand,
    print_properties_and_attributes,
    split_properties,
)
from tileas_py.dialects.nvvm.target import RequiresSMa, target_archs
from tileas_py.hw import tcgen05 as hw_tcgen05

_TCGEN05 = RequiresSMa((100, 101))
_CTA_1 = CTAGroupKindAttr(CTAGroupKind.CTA_1)


@canonical_properties
@irdl_op_definition
class Tcgen05AllocOp(IRDLOperation):
    """Allocates `nCols` (a power of two) columns of tensor memory and writes their
    address to `addr` (`tcgen05.alloc`).

    Example:
        nvvm.tcgen05.alloc %slot, %ncols : !llvm.ptr<3>, i32
    """

    name = "nvvm.tcgen05.alloc"

    addr = operand_def(LLVMPointerType)
    nCols = operand_def(I32)
    group = opt_prop_def(CTAGroupKindAttr, _CTA_1)

    traits = traits_def(_TCGEN05)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$addr `,` $nCols attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue, n_cols: SSAValue) -> None:
        super().__init__(operands=[addr, n_cols], properties={"group": _CTA_1})


@canonical_properties
@irdl_op_definition
class Tcgen05DeallocOp(IRDLOperation):
    """Frees `nCols` columns of tensor memory at `taddr` (`tcgen05.dealloc`).

    Example:
        nvvm.tcgen05.dealloc %tmem, %ncols : !llvm.ptr<6>, i32
    """

    name = "nvvm.tcgen05.dealloc"

    taddr = operand_def(pointer(TENSOR))
    nCols = operand_def(I32)
    group = opt_prop_def(CTAGroupKindAttr, _CTA_1)

    traits = traits_def(_TCGEN05)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$taddr `,` $nCols attr-dict `:` type(operands)"

    def __init__(self, taddr: SSAValue, n_cols: SSAValue) -> None:
        super().__init__(operands=[taddr, n_cols], properties={"group": _CTA_1})


@canonical_properties
@irdl_op_definition
class Tcgen05RelinquishAllocPermitOp(IRDLOperation):
    """Gives up the CTA's right to allocate tensor memory
    (`tcgen05.relinquish_alloc_permit`).

    Example:
        nvvm.tcgen05.relinquish_alloc_permit
    """

    name = "nvvm.tcgen05.relinquish_alloc_permit"

    group = opt_prop_def(CTAGroupKindAttr, _CTA_1)

    traits = traits_def(_TCGEN05)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__(properties={"group": _CTA_1})


@canonical_properties
@irdl_op_definition
class Tcgen05FenceOp(IRDLOperation):
    """Orders async tcgen05 ops against thread synchronization
    (`tcgen05.fence::before_thread_sync` / `::after_thread_sync`).

    Example:
        nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    """

    name = "nvvm.tcgen05.fence"

    kind = prop_def(Tcgen05FenceKindAttr)

    traits = traits_def(_TCGEN05)
    assembly_format = "$kind attr-dict"

    def __init__(self, kind: Tcgen05FenceKindAttr) -> None:
        super().__init__(properties={"kind": kind})


@canonical_properties
@irdl_op_definition
class Tcgen05WaitOp(IRDLOperation):
    """Waits for the thread's prior `tcgen05.ld` or `tcgen05.st` ops
    (`tcgen05.wait::ld` / `::st`).

    Example:
        nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
    """

    name = "nvvm.tcgen05.wait"

    kind = prop_def(Tcgen05WaitKindAttr)

    traits = traits_def(_TCGEN05)
    assembly_format = "$kind attr-dict"

    def __init__(self, kind: Tcgen05WaitKindAttr) -> None:
        super().__init__(properties={"kind": kind})


@canonical_properties
@irdl_op_definition
class Tcgen05CommitOp(IRDLOperation):
    """Makes the mbarrier at `addr` track the completion of the thread's prior async
    tcgen05 ops, optionally in several CTAs of the cluster (`tcgen05.commit`).

    Example:
        nvvm.tcgen05.commit %bar, multicast_mask = %mask : !llvm.ptr<3>, i16
    """

    name = "nvvm.tcgen05.commit"

    addr = operand_def(LLVMPointerType)
    multicastMask = opt_operand_def(I16)
    group = opt_prop_def(CTAGroupKindAttr, _CTA_1)

    traits = traits_def(_TCGEN05)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$addr (`,` `multicast_mask` `=` $multicastMask^)? attr-dict `:` type(operands)"
    )

    def __init__(self, addr: SSAValue, multicast_mask: SSAValue | None = None) -> None:
        super().__init__(
            operands=[addr, [] if multicast_mask is None else [multicast_mask]],
            properties={"group": _CTA_1},
        )


@canonical_properties
@irdl_op_definition
class Tcgen05CpOp(IRDLOperation):
    """Copies a matrix described by the shared-memory descriptor `smem_desc` into tensor
    memory at `taddr` (`tcgen05.cp`).

    Example:
        nvvm.tcgen05.cp %tmem, %desc {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}
    """

    name = "nvvm.tcgen05.cp"

    shape = prop_def(Tcgen05CpShapeAttr)
    group = opt_prop_def(CTAGroupKindAttr, _CTA_1)
    multicast = opt_prop_def(
        Tcgen05CpMulticastAttr, Tcgen05CpMulticastAttr(Tcgen05CpMulticast.NONE)
    )
    srcFormat = opt_prop_def(Tcgen05CpSrcFormatAttr)
    taddr = operand_def(pointer(TENSOR))
    smem_desc = operand_def(I64)

    traits = traits_def(_TCGEN05)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$taddr `,` $smem_desc attr-dict"

    def __init__(
        self, taddr: SSAValue, smem_desc: SSAValue, shape: Tcgen05CpShapeAttr
    ) -> None:
        super().__init__(
            operands=[taddr, smem_desc],
            properties={
                "shape": shape,
                "group": _CTA_1,
                "multicast": Tcgen05CpMulticastAttr(Tcgen05CpMulticast.NONE),
            },
        )

    def verify_(self) -> None:
        multicast = self.multicast.data
        match self.shape.data:
            case (
                Tcgen05CpShape.SHAPE_128x256b
                | Tcgen05CpShape.SHAPE_128x128b
                | Tcgen05CpShape.SHAPE_4x256b
            ):
                if multicast is not Tcgen05CpMulticast.NONE:
                    raise PlainVerifyException(
                        "Invalid multicast type for tcgen05.cp Op"
                    )
            case Tcgen05CpShape.SHAPE_64x128b:
                if multicast not in (
                    Tcgen05CpMulticast.WARPX2_01_23,
                    Tcgen05CpMulticast.WARPX2_02_13,
                ):
                    raise PlainVerifyException(
                        "Shape 64x128b requires multicast warpx2_01_23 or warpx2_02_13 "
                        "for tcgen05.cp Op"
                    )
            case Tcgen05CpShape.SHAPE_32x128b:
                if multicast is not Tcgen05CpMulticast.WARPX4:
                    raise PlainVerifyException(
                        "Shape 32x128b requires multicast warpx4 for tcgen05.cp Op"
                    )


_DISCARD = Tcgen05MMACollectorOpAttr(Tcgen05MMACollectorOp.DISCARD)
_MMA_PROPERTIES = ("kind", "ctaGroup", "collectorOp", "aShift")


@canonical_properties
@irdl_op_definition
class Tcgen05MMAOp(IRDLOperation):
    """Asynchronous tensor-core MMA into tensor memory: `D = A * B (+ D)` (`tcgen05.mma`).

    D lives in tensor memory (`matrixD`); A is in tensor memory (`!llvm.ptr<6>`) or in
    shared memory behind a descriptor (i64); B is a shared-memory descriptor. `idesc`
    describes the instruction, `enableInputD` accumulates into D. Optional operands scale
    the accumulator (`scale`) and disable output lanes (`mask`, 4 lanes per CTA group).

    Example:
        nvvm.tcgen05.mma %d, %adesc, %bdesc, %idesc, %acc
            {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>}
            : (!llvm.ptr<6>, i64, i64, i32, i1)
    """

    name = "nvvm.tcgen05.mma"

    matrixD = operand_def(pointer(TENSOR))
    matrixA = operand_def()
    matrixB = operand_def(I64)
    idesc = operand_def(I32)
    enableInputD = operand_def(I1)
    scaleInputD = opt_operand_def(I64)
    disableOutputLane = opt_operand_def(VectorType)
    kind = prop_def(Tcgen05MMAKindAttr)
    ctaGroup = prop_def(CTAGroupKindAttr)
    collectorOp = opt_prop_def(Tcgen05MMACollectorOpAttr, _DISCARD)
    aShift = opt_prop_def(UnitAttr)

    traits = traits_def(RequiresSMa((100, 110)))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        matrix_d: SSAValue,
        matrix_a: SSAValue,
        matrix_b: SSAValue,
        idesc: SSAValue,
        enable_input_d: SSAValue,
        *,
        kind: Tcgen05MMAKindAttr,
        cta_group: CTAGroupKindAttr = _CTA_1,
        collector: Tcgen05MMACollectorOpAttr = _DISCARD,
        a_shift: bool = False,
        scale_input_d: SSAValue | None = None,
        disable_output_lane: SSAValue | None = None,
    ) -> None:
        super().__init__(
            operands=[
                matrix_d,
                matrix_a,
                matrix_b,
                idesc,
                enable_input_d,
                [] if scale_input_d is None else [scale_input_d],
                [] if disable_output_lane is None else [disable_output_lane],
            ],
            properties={
                "aShift": UnitAttr() if a_shift else None,
                "collectorOp": collector,
                "ctaGroup": cta_group,
                "kind": kind,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        names = [parser.parse_unresolved_operand()]
        for _ in range(4):
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        scale = parse_optional_keyword_operand(parser, "scale")
        mask = parse_optional_keyword_operand(parser, "mask")
        properties, attributes = split_properties(
            parser.parse_optional_attr_dict(), _MMA_PROPERTIES
        )
        parser.parse_punctuation(":")
        types_pos = parser.pos
        types = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_type
        )
        present = [*names, *(v for v in (scale, mask) if v is not None)]
        if len(types) != len(present):
            parser.raise_error(
                f"expected {len(present)} operand types but got {len(types)}", types_pos
            )
        operands = [
            parser.resolve_operand(v, t) for v, t in zip(present, types, strict=True)
        ]
        properties = {"collectorOp": _DISCARD, **properties}
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [1, 1, 1, 1, 1, int(scale is not None), int(mask is not None)]
        )
        return cls.create(
            operands=operands, properties=properties, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(
            (self.matrixD, self.matrixA, self.matrixB, self.idesc, self.enableInputD),
            printer.print_operand,
        )
        if self.scaleInputD is not None:
            printer.print_string(" scale = ")
            printer.print_operand(self.scaleInputD)
        if self.disableOutputLane is not None:
            printer.print_string(" mask = ")
            printer.print_operand(self.disableOutputLane)
        print_properties_and_attributes(printer, self, {"collectorOp": _DISCARD})
        printer.print_string(" : (")
        printer.print_list((o.type for o in self.operands), printer.print_attribute)
        printer.print_string(")")

    def verify_(self) -> None:
        a_space = address_space(self.matrixA.type)
        if a_space != TENSOR and self.matrixA.type != i64:
            raise VerifyException(
                "operand #1 must be LLVM pointer in address space 6 or 64-bit signless "
                f"integer, but got '{self.matrixA.type}'"
            )
        lanes = self.disableOutputLane
        if lanes is not None:
            expected = 4 if self.ctaGroup.data is CTAGroupKind.CTA_1 else 8
            lane_type = lanes.type
            length = (
                lane_type.get_shape()[0] if isinstance(lane_type, VectorType) else 0
            )
            is_i32 = (
                isinstance(lane_type, VectorType)
                and cast(VectorType[Attribute], lane_type).element_type == i32
            )
            if length != expected or not is_i32:
                raise PlainVerifyException(
                    f"Disable Output Lane of length {length} is incompatible with "
                    "CtaGroupAttr"
                )
        shifted = self.aShift is not None
        if shifted and a_space != TENSOR:
            raise PlainVerifyException(
                "A-shift can be applied only when matrix A is in tensor memory"
            )
        collector = self.collectorOp.data
        if shifted and collector in (
            Tcgen05MMACollectorOp.FILL,
            Tcgen05MMACollectorOp.USE,
        ):
            raise PlainVerifyException(
                "Cannot use collector buffer operation fill or use with ashift"
            )
        self._verify_cicc_rules()

    def cicc_view(self) -> hw_tcgen05.Tcgen05Mma:
        """This op as the features cicc validates."""
        return hw_tcgen05.Tcgen05Mma(
            kind=hw_tcgen05.Kind[self.kind.data.name],
            cta_group=2 if self.ctaGroup.data is CTAGroupKind.CTA_2 else 1,
            collector=hw_tcgen05.Collector[self.collectorOp.data.name],
            ashift=self.aShift is not None,
            scale_input_accumulator=self.scaleInputD is not None,
        )

    def _verify_cicc_rules(self) -> None:
        mma = self.cicc_view()
        if mma.scale_input_accumulator and mma.kind not in hw_tcgen05.SCALE_INPUT_KINDS:
            raise PlainVerifyException(hw_tcgen05.SCALE_INPUT_KIND)
        for arch in target_archs(self):
            error = hw_tcgen05.first_error(mma, arch)
            if error is not None:
                raise PlainVerifyException(error)


TCGEN05_OPS = (
    Tcgen05AllocOp,
    Tcgen05DeallocOp,
    Tcgen05RelinquishAllocPermitOp,
    Tcgen05FenceOp,
    Tcgen05WaitOp,
    Tcgen05CommitOp,
    Tcgen05CpOp,
    Tcgen05MMAOp,
)
