"""Fifth-generation tensor cores (sm_100 Blackwell): tensor-memory allocation, the
tcgen05 fences and waits, `nvvm.tcgen05.commit`, `.cp`, `.shift`, the tensor-memory loads
and stores (`.ld`, `.st`), the shared-memory descriptor builder `.mma_smem_desc`, and the
MMAs: `.mma`, `.mma.sp` (sparse A), `.mma.block_scale`, `.mma.sp.block_scale`, `.mma.ws`
and `.mma.ws.sp` (weight-stationary).

`nvvm.tcgen05.mma` is checked twice: by upstream MLIR's verifier (with its messages), then
by cicc's tcgen05.mma rules from `tileas_py.hw.tcgen05` (reference note 004, with cicc's
messages) for what this op can express: the kind, the CTA group, the collector mode, the
A shift and the scale-input accumulator, against each declared target, following ptxas
13.5 where cicc and ptxas disagree (a scale input on kind::i8 is accepted).

Every tcgen05 instruction is gated on the targets ptxas 13.5 assembles it for
(`Tcgen05Targets`), not upstream's list: sm_100a/f, sm_103a/f and sm_110a/f
(`tcgen05.shift`: the arch-conditional ones), and a target whose features ask for a PTX
ISA version without tcgen05 (`+ptx80`) is rejected (docs/fidelity.md, "tcgen05 gating").

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmtcgen05mma-nvvmtcgen05mmaop
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#tensorcore-5th-generation-instructions
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, cast

from xdsl.dialects.builtin import UnitAttr, VectorType, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)

from tileas_py.diagnostics import PlainVerifyException
from tileas_py.dialects.nvvm.attrs import (
    CTAGroupKind,
    CTAGroupKindAttr,
    MMABlockScaleKind,
    MMABlockScaleKindAttr,
    Tcgen05CpMulticast,
    Tcgen05CpMulticastAttr,
    Tcgen05CpShape,
    Tcgen05CpShapeAttr,
    Tcgen05CpSrcFormatAttr,
    Tcgen05FenceKindAttr,
    Tcgen05LdStShape,
    Tcgen05LdStShapeAttr,
    Tcgen05MMABlockScale,
    Tcgen05MMABlockScaleAttr,
    Tcgen05MMACollectorBBuffer,
    Tcgen05MMACollectorBBufferAttr,
    Tcgen05MMACollectorOp,
    Tcgen05MMACollectorOpAttr,
    Tcgen05MMAKindAttr,
    Tcgen05WaitKindAttr,
)
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import (
    ANY_PTR,
    I1,
    I8,
    I16,
    I32,
    I64,
    UNIT_ATTR,
    any_of,
    of_class,
    ptr,
    vector_of,
)
from tileas_py.dialects.nvvm.pointers import TENSOR, address_space
from tileas_py.dialects.nvvm.target import (
    TargetSMTrait,
    declared_targets,
    requested_ptx_version,
    target_archs,
)
from tileas_py.hw import tcgen05 as hw_tcgen05
from tileas_py.hw.arch import Arch


@dataclass(frozen=True)
class Tcgen05Targets(TargetSMTrait):
    """The targets ptxas 13.5 assembles a tcgen05 instruction for
    (`hw.tcgen05.supports_tcgen05`): the arch- and family-conditional sm_100, sm_103 and
    sm_110; with `arch_only`, the arch-conditional ones only (`tcgen05.shift`). Upstream
    gates on sm_100a / sm_101a (sm_110a for the MMAs) only; docs/fidelity.md.

    A target whose features ask for a PTX ISA version without the instruction (`+ptx80`)
    is rejected in ptxas's words: tcgen05 needs PTX ISA 8.6, and each target its own
    first version (`hw.tcgen05.TARGET_PTX_VERSION`)."""

    instruction: str
    """The PTX instruction (`tcgen05.alloc`), for ptxas's version message."""
    arch_only: bool = False

    def supports(self, arch: Arch) -> bool:
        if self.arch_only and not arch.is_arch_conditional:
            return False
        return hw_tcgen05.supports_tcgen05(arch)

    def describe(self) -> str:
        suffix = "a" if self.arch_only else "a/f"
        return ", ".join(f"sm_{v}{suffix}" for v in sorted(hw_tcgen05.TCGEN05_SMS))

    def verify(self, op: Operation) -> None:
        super().verify(op)
        for target in declared_targets(op):
            arch = target.arch
            requested = requested_ptx_version(target.features.data)
            if not target.verifies_target or arch is None or requested is None:
                continue
            if requested < hw_tcgen05.MIN_PTX_VERSION:
                raise PlainVerifyException(
                    hw_tcgen05.PTX_VERSION.format(
                        op=self.instruction.removeprefix("tcgen05.")
                    )
                )
            if requested < hw_tcgen05.TARGET_PTX_VERSION[arch]:
                major, minor = requested
                raise PlainVerifyException(
                    f"PTX .version {major}.{minor} does not support .target {arch}"
                )


_TCGEN05_MMA = Tcgen05Targets("tcgen05.mma")
_CTA_1 = CTAGroupKindAttr(CTAGroupKind.CTA_1)
_DISCARD = Tcgen05MMACollectorOpAttr(Tcgen05MMACollectorOp.DISCARD)
_B0 = Tcgen05MMACollectorBBufferAttr(Tcgen05MMACollectorBBuffer.B0)
_DEFAULT_SCALE = Tcgen05MMABlockScaleAttr(Tcgen05MMABlockScale.DEFAULT)

_TMEM = ptr(TENSOR)
_SMEM_SLOT = any_of(ANY_PTR, ptr(3))
_TMEM_OR_DESC = any_of(ptr(TENSOR), I64)
_I32_OR_VECTOR = any_of(I32, vector_of((2, 4, 8, 16, 32, 64, 128), I32))
_LANES = vector_of((4, 8), I32, fixed=True)
_GROUP = of_class(CTAGroupKindAttr, CTAGroupKindAttr.SUMMARY)
_COLLECTOR = of_class(Tcgen05MMACollectorOpAttr, Tcgen05MMACollectorOpAttr.SUMMARY)
_MMA_KIND = of_class(Tcgen05MMAKindAttr, Tcgen05MMAKindAttr.SUMMARY)
_BLOCK_SCALE_KIND = of_class(MMABlockScaleKindAttr, MMABlockScaleKindAttr.SUMMARY)


@irdl_op_definition
class Tcgen05AllocOp(NVVMOp):
    """Allocates `nCols` (a power of two) columns of tensor memory and writes their
    address to `addr` (`tcgen05.alloc`).

    Example:
        nvvm.tcgen05.alloc %slot, %ncols : !llvm.ptr<3>, i32
    """

    name = "nvvm.tcgen05.alloc"

    addr = operand_def(_SMEM_SLOT)
    nCols = operand_def(I32)
    group = prop_def(_GROUP, default_value=_CTA_1)

    traits = traits_def(Tcgen05Targets("tcgen05.alloc"))
    FORMAT: ClassVar[str] = "$addr `,` $nCols attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue, n_cols: SSAValue) -> None:
        super().__init__(operands=[addr, n_cols], properties={"group": _CTA_1})


@irdl_op_definition
class Tcgen05DeallocOp(NVVMOp):
    """Frees `nCols` columns of tensor memory at `taddr` (`tcgen05.dealloc`).

    Example:
        nvvm.tcgen05.dealloc %tmem, %ncols : !llvm.ptr<6>, i32
    """

    name = "nvvm.tcgen05.dealloc"

    taddr = operand_def(_TMEM)
    nCols = operand_def(I32)
    group = prop_def(_GROUP, default_value=_CTA_1)

    traits = traits_def(Tcgen05Targets("tcgen05.dealloc"))
    FORMAT: ClassVar[str] = "$taddr `,` $nCols attr-dict `:` type(operands)"

    def __init__(self, taddr: SSAValue, n_cols: SSAValue) -> None:
        super().__init__(operands=[taddr, n_cols], properties={"group": _CTA_1})


@irdl_op_definition
class Tcgen05RelinquishAllocPermitOp(NVVMOp):
    """Gives up the CTA's right to allocate tensor memory
    (`tcgen05.relinquish_alloc_permit`).

    Example:
        nvvm.tcgen05.relinquish_alloc_permit
    """

    name = "nvvm.tcgen05.relinquish_alloc_permit"

    group = prop_def(_GROUP, default_value=_CTA_1)

    traits = traits_def(Tcgen05Targets("tcgen05.relinquish_alloc_permit"))
    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self) -> None:
        super().__init__(properties={"group": _CTA_1})


@irdl_op_definition
class Tcgen05FenceOp(NVVMOp):
    """Orders async tcgen05 ops against thread synchronization
    (`tcgen05.fence::before_thread_sync` / `::after_thread_sync`).

    Example:
        nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    """

    name = "nvvm.tcgen05.fence"

    kind = prop_def(Tcgen05FenceKindAttr)

    traits = traits_def(Tcgen05Targets("tcgen05.fence"))
    FORMAT: ClassVar[str] = "$kind attr-dict"

    def __init__(self, kind: Tcgen05FenceKindAttr) -> None:
        super().__init__(properties={"kind": kind})


@irdl_op_definition
class Tcgen05WaitOp(NVVMOp):
    """Waits for the thread's prior `tcgen05.ld` or `tcgen05.st` ops
    (`tcgen05.wait::ld` / `::st`).

    Example:
        nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
    """

    name = "nvvm.tcgen05.wait"

    kind = prop_def(Tcgen05WaitKindAttr)

    traits = traits_def(Tcgen05Targets("tcgen05.wait"))
    FORMAT: ClassVar[str] = "$kind attr-dict"

    def __init__(self, kind: Tcgen05WaitKindAttr) -> None:
        super().__init__(properties={"kind": kind})


@irdl_op_definition
class Tcgen05CommitOp(NVVMOp):
    """Makes the mbarrier at `addr` track the completion of the thread's prior async
    tcgen05 ops, optionally in several CTAs of the cluster (`tcgen05.commit`).

    Example:
        nvvm.tcgen05.commit %bar, multicast_mask = %mask : !llvm.ptr<3>, i16
    """

    name = "nvvm.tcgen05.commit"

    addr = operand_def(_SMEM_SLOT)
    multicastMask = opt_operand_def(I16)
    group = prop_def(_GROUP, default_value=_CTA_1)

    traits = traits_def(Tcgen05Targets("tcgen05.commit"))
    FORMAT: ClassVar[str] = (
        "$addr (`,` `multicast_mask` `=` $multicastMask^)? attr-dict `:` type(operands)"
    )

    def __init__(self, addr: SSAValue, multicast_mask: SSAValue | None = None) -> None:
        super().__init__(
            operands=[addr, [] if multicast_mask is None else [multicast_mask]],
            properties={"group": _CTA_1},
        )


@irdl_op_definition
class Tcgen05ShiftOp(NVVMOp):
    """Shifts the rows of the 32-lane matrix at `taddr` down by one (`tcgen05.shift`).

    Example:
        nvvm.tcgen05.shift %tmem : !llvm.ptr<6>
    """

    name = "nvvm.tcgen05.shift"

    taddr = operand_def(_TMEM)
    group = prop_def(_GROUP, default_value=_CTA_1)

    traits = traits_def(Tcgen05Targets("tcgen05.shift", arch_only=True))
    FORMAT: ClassVar[str] = "$taddr attr-dict `:` type(operands)"

    def __init__(self, taddr: SSAValue) -> None:
        super().__init__(operands=[taddr], properties={"group": _CTA_1})


@irdl_op_definition
class Tcgen05CpOp(NVVMOp):
    """Copies a matrix described by the shared-memory descriptor `smem_desc` into tensor
    memory at `taddr` (`tcgen05.cp`).

    Example:
        nvvm.tcgen05.cp %tmem, %desc {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}
    """

    name = "nvvm.tcgen05.cp"

    shape = prop_def(Tcgen05CpShapeAttr)
    group = prop_def(_GROUP, default_value=_CTA_1)
    multicast = prop_def(
        of_class(Tcgen05CpMulticastAttr, Tcgen05CpMulticastAttr.SUMMARY),
        default_value=Tcgen05CpMulticastAttr(Tcgen05CpMulticast.NONE),
    )
    srcFormat = opt_prop_def(Tcgen05CpSrcFormatAttr)
    taddr = operand_def(_TMEM)
    smem_desc = operand_def(I64)

    traits = traits_def(Tcgen05Targets("tcgen05.cp"))
    FORMAT: ClassVar[str] = "$taddr `,` $smem_desc attr-dict"

    def __init__(
        self, taddr: SSAValue, smem_desc: SSAValue, shape: Tcgen05CpShapeAttr
    ) -> None:
        super().__init__(operands=[taddr, smem_desc], properties={"shape": shape})

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


def _vector_length(t: Attribute) -> int:
    return (
        cast(VectorType[Attribute], t).get_shape()[0]
        if isinstance(t, VectorType)
        else 1
    )


def _verify_ld_st(
    shape: Tcgen05LdStShape, offset: SSAValue | None, length: int, what: str
) -> None:
    """Upstream's checks of `tcgen05.ld` and `tcgen05.st` (`what` names the value)."""
    if shape is Tcgen05LdStShape.SHAPE_16X32BX2 and offset is None:
        raise PlainVerifyException("shape 16x32bx2 requires offset argument")
    minimum = {Tcgen05LdStShape.SHAPE_16X128B: 2, Tcgen05LdStShape.SHAPE_16X256B: 4}
    if length < minimum.get(shape, 1):
        raise PlainVerifyException(
            f"invalid {what} length {length} for shape {shape.value} in "
            f"tcgen05.{'ld' if what == 'result type' else 'st'} Op"
        )


@irdl_op_definition
class Tcgen05LdOp(NVVMOp):
    """Loads a warp's slice of the tensor-memory matrix at `tmemAddr` into registers
    (`tcgen05.ld.sync.aligned`); `pack` packs two 16-bit elements per register.

    Example:
        %r = nvvm.tcgen05.ld %tmem {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<4xi32>
    """

    name = "nvvm.tcgen05.ld"

    pack = opt_prop_def(UNIT_ATTR)
    shape = prop_def(Tcgen05LdStShapeAttr)
    tmemAddr = operand_def(_TMEM)
    offset = opt_operand_def(I64)
    res = result_def(_I32_OR_VECTOR)

    traits = traits_def(Tcgen05Targets("tcgen05.ld"))
    FORMAT: ClassVar[str] = (
        "$tmemAddr (`,` $offset^)? (`pack` $pack^)? attr-dict `:` type($res)"
    )

    def __init__(
        self,
        tmem_addr: SSAValue,
        shape: Tcgen05LdStShape,
        result_type: Attribute,
        *,
        offset: SSAValue | None = None,
        pack: bool = False,
    ) -> None:
        super().__init__(
            operands=[tmem_addr, [] if offset is None else [offset]],
            result_types=[result_type],
            properties={
                "shape": Tcgen05LdStShapeAttr(shape),
                "pack": UnitAttr() if pack else None,
            },
        )

    def verify_(self) -> None:
        length = _vector_length(self.res.type)
        _verify_ld_st(self.shape.data, self.offset, length, "result type")


@irdl_op_definition
class Tcgen05StOp(NVVMOp):
    """Stores a warp's registers into the tensor-memory matrix at `tmemAddr`
    (`tcgen05.st.sync.aligned`); `unpack` splits each register into two 16-bit elements.

    Example:
        nvvm.tcgen05.st %tmem, %v {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<4xi32>
    """

    name = "nvvm.tcgen05.st"

    unpack = opt_prop_def(UNIT_ATTR)
    shape = prop_def(Tcgen05LdStShapeAttr)
    tmemAddr = operand_def(_TMEM)
    val = operand_def(_I32_OR_VECTOR)
    offset = opt_operand_def(I64)

    traits = traits_def(Tcgen05Targets("tcgen05.st"))
    FORMAT: ClassVar[str] = (
        "$tmemAddr `,` $val (`,` $offset^)? (`unpack` $unpack^)? attr-dict `:` type($val)"
    )

    def __init__(
        self,
        tmem_addr: SSAValue,
        val: SSAValue,
        shape: Tcgen05LdStShape,
        *,
        offset: SSAValue | None = None,
        unpack: bool = False,
    ) -> None:
        super().__init__(
            operands=[tmem_addr, val, [] if offset is None else [offset]],
            properties={
                "shape": Tcgen05LdStShapeAttr(shape),
                "unpack": UnitAttr() if unpack else None,
            },
        )

    def verify_(self) -> None:
        length = _vector_length(self.val.type)
        _verify_ld_st(self.shape.data, self.offset, length, "input")


@irdl_op_definition
class Tcgen05MmaSmemDescOp(NVVMOp):
    """Packs the fields of a shared-memory matrix descriptor for `tcgen05.mma` into an
    i64: start address, leading and stride dimension offsets, base offset, leading
    dimension mode and swizzle mode.

    Example:
        %desc = nvvm.tcgen05.mma_smem_desc(%start, %lead, %stride, %base, %mode, %swizzle)
            : (i32, i32, i32, i8, i1, i8) -> i64
    """

    name = "nvvm.tcgen05.mma_smem_desc"

    startAddr = operand_def(I32)
    leadingDimOffset = operand_def(I32)
    strideDimOffset = operand_def(I32)
    baseOffset = operand_def(I8)
    leadingDimMode = operand_def(I1)
    swizzleMode = operand_def(I8)
    res = result_def(I64)

    FORMAT: ClassVar[str] = (
        "`(` operands `)` attr-dict `:` `(` type(operands) `)` `->` type($res)"
    )

    def __init__(self, fields: tuple[SSAValue, ...]) -> None:
        super().__init__(operands=list(fields), result_types=[i64])


def verify_tcgen05_mma(
    matrix_a: SSAValue,
    lanes: SSAValue | None,
    group: CTAGroupKind,
    a_shift: bool,
    collector: Tcgen05MMACollectorOp,
) -> None:
    """Upstream's `verifyTcgen05MMAOp`, shared by `tcgen05.mma` and `tcgen05.mma.sp`."""
    if lanes is not None:
        length = _vector_length(lanes.type)
        if length != (4 if group is CTAGroupKind.CTA_1 else 8):
            raise PlainVerifyException(
                f"Disable Output Lane of length {length} is incompatible with "
                "CtaGroupAttr"
            )
    if a_shift and address_space(matrix_a.type) != TENSOR:
        raise PlainVerifyException(
            "A-shift can be applied only when matrix A is in tensor memory"
        )
    if a_shift and collector in (Tcgen05MMACollectorOp.FILL, Tcgen05MMACollectorOp.USE):
        raise PlainVerifyException(
            "Cannot use collector buffer operation fill or use with ashift"
        )


class _Tcgen05MmaBase(NVVMOp):
    """A tcgen05 MMA. Each has D in tensor memory, A in tensor memory or behind a
    shared-memory descriptor, B's descriptor, the instruction descriptor and whether D
    is accumulated into, declared first in each op (xDSL orders a subclass's operands
    before its base's)."""

    traits = traits_def(_TCGEN05_MMA)


@irdl_op_definition
class Tcgen05MMAOp(_Tcgen05MmaBase):
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
    BEYOND_UPSTREAM: ClassVar[str] = (
        "cicc's tcgen05.mma rules on the module's targets (tileas_py.hw.tcgen05)"
    )

    matrixD = operand_def(_TMEM)
    matrixA = operand_def(_TMEM_OR_DESC)
    matrixB = operand_def(I64)
    idesc = operand_def(I32)
    enableInputD = operand_def(I1)
    scaleInputD = opt_operand_def(I64)
    disableOutputLane = opt_operand_def(_LANES)
    kind = prop_def(_MMA_KIND)
    ctaGroup = prop_def(_GROUP)
    collectorOp = prop_def(_COLLECTOR, default_value=_DISCARD)
    aShift = opt_prop_def(UNIT_ATTR)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT: ClassVar[str] = (
        "$matrixD `,` $matrixA `,` $matrixB `,` $idesc `,` $enableInputD "
        "(`scale` `=` $scaleInputD^)? (`mask` `=` $disableOutputLane^)? attr-dict "
        "`:` `(` type(operands) `)`"
    )

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

    def verify_(self) -> None:
        verify_tcgen05_mma(
            self.matrixA,
            self.disableOutputLane,
            self.ctaGroup.data,
            self.aShift is not None,
            self.collectorOp.data,
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
        # ptxas also takes (and drops) a scale input on kind::i8; cicc's rule does not.
        if (
            mma.scale_input_accumulator
            and mma.kind not in hw_tcgen05.SCALE_INPUT_KINDS
            and mma.kind is not hw_tcgen05.Kind.I8
        ):
            raise PlainVerifyException(hw_tcgen05.SCALE_INPUT_KIND)
        for arch in target_archs(self):
            error = hw_tcgen05.first_error(mma, arch)
            if error is not None:
                raise PlainVerifyException(error)


@irdl_op_definition
class Tcgen05MMASparseOp(_Tcgen05MmaBase):
    """`tcgen05.mma.sp`: `tcgen05.mma` with a 2:4 structured-sparse A, whose metadata
    is in tensor memory at `sparseMetadata`.

    Example:
        nvvm.tcgen05.mma.sp %d, %a, %bdesc, %idesc, %acc, %meta
            {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>}
            : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>)
    """

    name = "nvvm.tcgen05.mma.sp"

    matrixD = operand_def(_TMEM)
    matrixA = operand_def(_TMEM_OR_DESC)
    matrixB = operand_def(I64)
    idesc = operand_def(I32)
    enableInputD = operand_def(I1)
    sparseMetadata = operand_def(_TMEM)
    scaleInputD = opt_operand_def(I64)
    disableOutputLane = opt_operand_def(_LANES)
    kind = prop_def(_MMA_KIND)
    ctaGroup = prop_def(_GROUP)
    collectorOp = prop_def(_COLLECTOR, default_value=_DISCARD)
    aShift = opt_prop_def(UNIT_ATTR)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT: ClassVar[str] = (
        "$matrixD `,` $matrixA `,` $matrixB `,` $idesc `,` $enableInputD `,` "
        "$sparseMetadata (`scale` `=` $scaleInputD^)? (`mask` `=` $disableOutputLane^)? "
        "attr-dict `:` `(` type(operands) `)`"
    )

    def verify_(self) -> None:
        verify_tcgen05_mma(
            self.matrixA,
            self.disableOutputLane,
            self.ctaGroup.data,
            self.aShift is not None,
            self.collectorOp.data,
        )


def _verify_block_scale(kind: MMABlockScaleKind, scale: Tcgen05MMABlockScale) -> None:
    """Upstream's `verifyTcgen05MMABlockScaleOp`."""
    if scale is Tcgen05MMABlockScale.DEFAULT and kind is MMABlockScaleKind.MXF4NVF4:
        raise PlainVerifyException("mxf4nvf4 requires block scale attribute")
    if scale is Tcgen05MMABlockScale.BLOCK16 and kind is not MMABlockScaleKind.MXF4NVF4:
        raise PlainVerifyException(
            f"{kind.value} kind does not support block16 attribute"
        )


@irdl_op_definition
class Tcgen05MMABlockScaleOp(_Tcgen05MmaBase):
    """`tcgen05.mma.block_scale`: an MX-format MMA whose A and B are scaled block-wise
    by the factors in tensor memory at `scaleA` and `scaleB`.

    Example:
        nvvm.tcgen05.mma.block_scale %d, %a, %bdesc, %idesc, %acc, %sa, %sb
            {kind = #nvvm.block_scale_kind<mxf8f6f4>, ctaGroup = #nvvm.cta_group<cta_1>}
            : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
    """

    name = "nvvm.tcgen05.mma.block_scale"

    matrixD = operand_def(_TMEM)
    matrixA = operand_def(_TMEM_OR_DESC)
    matrixB = operand_def(I64)
    idesc = operand_def(I32)
    enableInputD = operand_def(I1)
    scaleA = operand_def(_TMEM)
    scaleB = operand_def(_TMEM)
    kind = prop_def(_BLOCK_SCALE_KIND)
    ctaGroup = prop_def(_GROUP)
    blockScale = prop_def(
        of_class(Tcgen05MMABlockScaleAttr, Tcgen05MMABlockScaleAttr.SUMMARY),
        default_value=_DEFAULT_SCALE,
    )
    collectorOp = prop_def(_COLLECTOR, default_value=_DISCARD)

    FORMAT: ClassVar[str] = (
        "$matrixD `,` $matrixA `,` $matrixB `,` $idesc `,` $enableInputD `,` $scaleA "
        "`,` $scaleB attr-dict `:` `(` type(operands) `)`"
    )

    def verify_(self) -> None:
        _verify_block_scale(self.kind.data, self.blockScale.data)


@irdl_op_definition
class Tcgen05MMASparseBlockScaleOp(_Tcgen05MmaBase):
    """`tcgen05.mma.sp.block_scale`: the block-scaled MMA with a structured-sparse A.

    Example:
        nvvm.tcgen05.mma.sp.block_scale %d, %a, %bdesc, %idesc, %acc, %meta, %sa, %sb
            {kind = #nvvm.block_scale_kind<mxf8f6f4>, ctaGroup = #nvvm.cta_group<cta_1>}
            : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>, !llvm.ptr<6>)
    """

    name = "nvvm.tcgen05.mma.sp.block_scale"

    matrixD = operand_def(_TMEM)
    matrixA = operand_def(_TMEM_OR_DESC)
    matrixB = operand_def(I64)
    idesc = operand_def(I32)
    enableInputD = operand_def(I1)
    sparseMetadata = operand_def(_TMEM)
    scaleA = operand_def(_TMEM)
    scaleB = operand_def(_TMEM)
    kind = prop_def(_BLOCK_SCALE_KIND)
    ctaGroup = prop_def(_GROUP)
    blockScale = prop_def(
        of_class(Tcgen05MMABlockScaleAttr, Tcgen05MMABlockScaleAttr.SUMMARY),
        default_value=_DEFAULT_SCALE,
    )
    collectorOp = prop_def(_COLLECTOR, default_value=_DISCARD)

    FORMAT: ClassVar[str] = (
        "$matrixD `,` $matrixA `,` $matrixB `,` $idesc `,` $enableInputD `,` "
        "$sparseMetadata `,` $scaleA `,` $scaleB attr-dict `:` `(` type(operands) `)`"
    )

    def verify_(self) -> None:
        _verify_block_scale(self.kind.data, self.blockScale.data)


_COLLECTOR_B = of_class(
    Tcgen05MMACollectorBBufferAttr, Tcgen05MMACollectorBBufferAttr.SUMMARY
)


@irdl_op_definition
class Tcgen05MMAWsOp(_Tcgen05MmaBase):
    """`tcgen05.mma.ws`: the weight-stationary MMA (one CTA), B kept in collector buffer
    `collectorBBuffer`; `zeroColMask` zeroes columns of the result.

    Example:
        nvvm.tcgen05.mma.ws %d, %a, %bdesc, %idesc, %acc {kind = #nvvm.tcgen05_mma_kind<f16>}
            : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
    """

    name = "nvvm.tcgen05.mma.ws"

    matrixD = operand_def(_TMEM)
    matrixA = operand_def(_TMEM_OR_DESC)
    matrixB = operand_def(I64)
    idesc = operand_def(I32)
    enableInputD = operand_def(I1)
    zeroColMask = opt_operand_def(I64)
    kind = prop_def(_MMA_KIND)
    collectorBBuffer = prop_def(_COLLECTOR_B, default_value=_B0)
    collectorOp = prop_def(_COLLECTOR, default_value=_DISCARD)

    FORMAT: ClassVar[str] = (
        "$matrixD `,` $matrixA `,` $matrixB `,` $idesc `,` $enableInputD "
        "(`,` $zeroColMask^)? attr-dict `:` `(` type(operands) `)`"
    )


@irdl_op_definition
class Tcgen05MMAWsSparseOp(_Tcgen05MmaBase):
    """`tcgen05.mma.ws.sp`: the weight-stationary MMA with a structured-sparse A.

    Example:
        nvvm.tcgen05.mma.ws.sp %d, %a, %bdesc, %idesc, %acc, %meta
            {kind = #nvvm.tcgen05_mma_kind<f16>}
            : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>)
    """

    name = "nvvm.tcgen05.mma.ws.sp"

    matrixD = operand_def(_TMEM)
    matrixA = operand_def(_TMEM_OR_DESC)
    matrixB = operand_def(I64)
    idesc = operand_def(I32)
    enableInputD = operand_def(I1)
    sparseMetadata = operand_def(_TMEM)
    zeroColMask = opt_operand_def(I64)
    kind = prop_def(_MMA_KIND)
    collectorBBuffer = prop_def(_COLLECTOR_B, default_value=_B0)
    collectorOp = prop_def(_COLLECTOR, default_value=_DISCARD)

    FORMAT: ClassVar[str] = (
        "$matrixD `,` $matrixA `,` $matrixB `,` $idesc `,` $enableInputD `,` "
        "$sparseMetadata (`,` $zeroColMask^)? attr-dict `:` `(` type(operands) `)`"
    )


TCGEN05_OPS = (
    Tcgen05AllocOp,
    Tcgen05DeallocOp,
    Tcgen05RelinquishAllocPermitOp,
    Tcgen05FenceOp,
    Tcgen05WaitOp,
    Tcgen05CommitOp,
    Tcgen05ShiftOp,
    Tcgen05CpOp,
    Tcgen05LdOp,
    Tcgen05StOp,
    Tcgen05MmaSmemDescOp,
    Tcgen05MMAOp,
    Tcgen05MMASparseOp,
    Tcgen05MMABlockScaleOp,
    Tcgen05MMASparseBlockScaleOp,
    Tcgen05MMAWsOp,
    Tcgen05MMAWsSparseOp,
)
