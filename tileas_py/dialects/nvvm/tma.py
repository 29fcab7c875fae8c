"""Tensor Memory Accelerator copies (sm_90): `nvvm.cp.async.bulk.tensor.*`.

A TMA copy moves a box of a tensor described by a tensor map (`tmaDescriptor`, a generic
pointer) between global and shared memory; loads signal completion on an mbarrier with a
transaction count, stores are tracked by bulk async-groups.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmcpasyncbulktensorsharedclusterglobal-nvvmcpasyncbulktensorglobaltosharedclusterop
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cp-async-bulk-tensor
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr
from xdsl.ir import SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    traits_def,
    var_operand_def,
)

from tileas_py.diagnostics import PlainVerifyException
from tileas_py.dialects.nvvm.attrs import (
    CTAGroupKindAttr,
    TMALoadMode,
    TMALoadModeAttr,
    TMAStoreMode,
    TMAStoreModeAttr,
)
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import (
    BOOL_ATTR,
    I16,
    I32,
    I64,
    PTX_PREDICATE,
    any_of,
    of_class,
    ptr,
)
from tileas_py.dialects.nvvm.pointers import (
    GENERIC,
    SHARED,
    SHARED_CLUSTER,
    address_space,
)
from tileas_py.dialects.nvvm.target import RequiresSM


def verify_tma_store_params(dims: int, is_im2col: bool, im2col_offsets: int) -> None:
    """Upstream's checks shared by TMA stores and reductions."""
    if dims < 1 or dims > 5:
        raise PlainVerifyException("expects coordinates between 1 to 5 dimension")
    if is_im2col:
        if dims < 3:
            raise PlainVerifyException(
                "to use im2col mode, the tensor has to be at least 3-dimensional"
            )
        if im2col_offsets and dims != im2col_offsets + 2:
            raise PlainVerifyException(
                "im2col offsets must be 2 less than number of coordinates"
            )


def verify_tma_load_params(dims: int, im2col_offsets: int, mode: TMALoadMode) -> None:
    """Upstream's checks shared by TMA loads and prefetches."""
    if dims < 1 or dims > 5:
        raise PlainVerifyException("expects coordinates between 1 to 5 dimension")
    if mode is TMALoadMode.TILE_GATHER4 and dims != 5:
        raise PlainVerifyException("Gather4 mode expects 5 coordinates")
    is_im2col = mode in (
        TMALoadMode.IM2COL,
        TMALoadMode.IM2COL_W,
        TMALoadMode.IM2COL_W_128,
    )
    if is_im2col and dims < 3:
        raise PlainVerifyException(
            f"to use {mode} mode, the tensor has to be at least 3-dimensional"
        )
    expected = {TMALoadMode.IM2COL: dims - 2}.get(mode, 2 if is_im2col else 0)
    if im2col_offsets != expected:
        raise PlainVerifyException(
            f" im2col offsets expected {expected} (provided {im2col_offsets})"
        )


@irdl_op_definition
class CpAsyncBulkTensorGlobalToSharedClusterOp(NVVMOp):
    """TMA load: copies a box of a global tensor into shared memory and completes
    transactions on the mbarrier `mbar` (`cp.async.bulk.tensor.Nd.shared::cluster.global`).

    The destination is shared::cluster memory (`!llvm.ptr<7>`), or shared::cta memory
    (`!llvm.ptr<3>`) with `isCTAOnly = true`. `multicast_mask` copies into several CTAs
    of the cluster; `im2col` offsets and `mode` select the im2col / gather modes.

    Example:
        nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] : !llvm.ptr<7>, !llvm.ptr
    """

    name = "nvvm.cp.async.bulk.tensor.shared.cluster.global"

    dstMem = operand_def(any_of(ptr(SHARED), ptr(SHARED_CLUSTER)))
    tmaDescriptor = operand_def(ptr(GENERIC))
    coordinates = var_operand_def(I32)
    mbar = operand_def(ptr(SHARED))
    im2colOffsets = var_operand_def(I16)
    multicastMask = opt_operand_def(I16)
    l2CacheHint = opt_operand_def(I64)
    predicate = opt_operand_def(PTX_PREDICATE)
    mode = prop_def(
        of_class(TMALoadModeAttr, TMALoadModeAttr.SUMMARY),
        default_value=TMALoadModeAttr(TMALoadMode.TILE),
    )
    isCTAOnly = prop_def(BOOL_ATTR, default_value=BoolAttr.from_bool(False))
    group = opt_prop_def(of_class(CTAGroupKindAttr, CTAGroupKindAttr.SUMMARY))

    traits = traits_def(RequiresSM(90))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT: ClassVar[str] = (
        "$dstMem `,` $tmaDescriptor `,` $mbar `,` `box` `[`$coordinates `]` "
        "(`im2col` `[` $im2colOffsets^ `]` )? (`multicast_mask` `=` $multicastMask^ )? "
        "(`l2_cache_hint` `=` $l2CacheHint^ )? (`predicate` `=` $predicate^)? "
        "attr-dict  `:` type($dstMem) `,` type($tmaDescriptor)"
    )

    def __init__(
        self,
        dst: SSAValue,
        tma_descriptor: SSAValue,
        coordinates: list[SSAValue],
        mbar: SSAValue,
        *,
        im2col_offsets: list[SSAValue] | None = None,
        multicast_mask: SSAValue | None = None,
        l2_cache_hint: SSAValue | None = None,
        mode: TMALoadMode = TMALoadMode.TILE,
    ) -> None:
        offsets = im2col_offsets or []
        super().__init__(
            operands=[
                dst,
                tma_descriptor,
                coordinates,
                mbar,
                offsets,
                [] if multicast_mask is None else [multicast_mask],
                [] if l2_cache_hint is None else [l2_cache_hint],
                [],
            ],
            properties={"mode": TMALoadModeAttr(mode)},
        )

    def verify_(self) -> None:
        mode = self.mode.data
        cta_only = bool(self.isCTAOnly.value.data)
        if self.predicate is not None:
            if cta_only:
                raise PlainVerifyException(
                    "Predicate is supported only for shared::cluster mode."
                )
            if mode not in (TMALoadMode.TILE, TMALoadMode.IM2COL):
                raise PlainVerifyException(
                    "Predicate is supported only for Tile and Im2col modes."
                )
        else:
            expected = SHARED if cta_only else SHARED_CLUSTER
            if address_space(self.dstMem.type) != expected:
                raise PlainVerifyException(
                    "Shared::cta destination requires address-space 3."
                    if cta_only
                    else "Shared::cluster destination requires address-space 7."
                )
            if cta_only and self.multicastMask is not None:
                raise PlainVerifyException(
                    "Multicast is not supported with shared::cta mode."
                )
            if cta_only and self.group is not None:
                raise PlainVerifyException(
                    "CTAGroup is not supported with shared::cta mode."
                )
        verify_tma_load_params(len(self.coordinates), len(self.im2colOffsets), mode)


@irdl_op_definition
class CpAsyncBulkTensorSharedCTAToGlobalOp(NVVMOp):
    """TMA store: copies a box from shared::cta memory into a global tensor
    (`cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group`).

    Example:
        nvvm.cp.async.bulk.tensor.global.shared.cta %tmap, %src, box[%x, %y] : !llvm.ptr, <3>
    """

    name = "nvvm.cp.async.bulk.tensor.global.shared.cta"

    tmaDescriptor = operand_def(ptr(GENERIC))
    srcMem = operand_def(ptr(SHARED))
    coordinates = var_operand_def(I32)
    l2CacheHint = opt_operand_def(I64)
    predicate = opt_operand_def(PTX_PREDICATE)
    mode = prop_def(
        of_class(TMAStoreModeAttr, TMAStoreModeAttr.SUMMARY),
        default_value=TMAStoreModeAttr(TMAStoreMode.TILE),
    )

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    FORMAT: ClassVar[str] = (
        "$tmaDescriptor `,` $srcMem `,` `box` `[`$coordinates `]` "
        "(`l2_cache_hint` `=` $l2CacheHint^ )? (`,` `predicate` `=` $predicate^)? "
        "attr-dict `:` type($tmaDescriptor) `,` type($srcMem)"
    )

    def __init__(
        self,
        tma_descriptor: SSAValue,
        src: SSAValue,
        coordinates: list[SSAValue],
        *,
        l2_cache_hint: SSAValue | None = None,
        mode: TMAStoreMode = TMAStoreMode.TILE,
    ) -> None:
        super().__init__(
            operands=[
                tma_descriptor,
                src,
                coordinates,
                [] if l2_cache_hint is None else [l2_cache_hint],
                [],
            ],
            properties={"mode": TMAStoreModeAttr(mode)},
        )

    def verify_(self) -> None:
        mode = self.mode.data
        if self.predicate is not None:
            if mode is not TMAStoreMode.TILE:
                raise PlainVerifyException(
                    "Inline-ptx lowering supported only for Tile mode."
                )
            if self.l2CacheHint is not None:
                raise PlainVerifyException(
                    "Inline-ptx lowering unsupported with L2 cache-hint."
                )
        dims = len(self.coordinates)
        if mode is TMAStoreMode.TILE_SCATTER4:
            if dims != 5:
                raise PlainVerifyException("Scatter4 mode expects 5 coordinates")
            return
        verify_tma_store_params(dims, mode is TMAStoreMode.IM2COL, 0)


TMA_OPS = (
    CpAsyncBulkTensorGlobalToSharedClusterOp,
    CpAsyncBulkTensorSharedCTAToGlobalOp,
)
