"""Asynchronous copies: `cp.async` (sm_80) and the bulk copies of sm_90 (`cp.async.bulk`,
bulk prefetches and the tensor prefetch and reduction of TMA), with their commit and wait
groups.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cp-async
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, i32
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
    LoadCacheModifierAttr,
    LoadCacheModifierKind,
    TMALoadMode,
    TMALoadModeAttr,
    TMAReduxKindAttr,
    TMAStoreMode,
    TMAStoreModeAttr,
)
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import (
    ANY_PTR,
    I1_ATTR,
    I16,
    I32,
    I32_ATTR,
    I64,
    LLVM_TYPE,
    UNIT_ATTR,
    any_of,
    confined,
    int_value,
    of_class,
    ptr,
)
from tileas_py.dialects.nvvm.pointers import GENERIC, GLOBAL, SHARED, SHARED_CLUSTER
from tileas_py.dialects.nvvm.target import RequiresSM
from tileas_py.dialects.nvvm.tma import verify_tma_load_params, verify_tma_store_params


@irdl_op_definition
class CpAsyncOp(NVVMOp):
    """Copies 4, 8 or 16 bytes from global to shared memory asynchronously
    (`cp.async.{ca,cg}.shared.global`); `cpSize` bytes are copied and the rest zeroed.

    Example:
        nvvm.cp.async.shared.global %dst, %src, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
    """

    name = "nvvm.cp.async.shared.global"

    dst = operand_def(ptr(SHARED))
    src = operand_def(ptr(GLOBAL))
    size = prop_def(I32_ATTR)
    modifier = prop_def(of_class(LoadCacheModifierAttr, LoadCacheModifierAttr.SUMMARY))
    cpSize = opt_operand_def(LLVM_TYPE)

    FORMAT: ClassVar[str] = (
        "$dst `,` $src `,` $size `,` `cache` `=` $modifier (`,` $cpSize^)? attr-dict "
        "`:` type(operands)"
    )

    def __init__(
        self,
        dst: SSAValue,
        src: SSAValue,
        size: int,
        modifier: LoadCacheModifierKind,
        cp_size: SSAValue | None = None,
    ) -> None:
        super().__init__(
            operands=[dst, src, [] if cp_size is None else [cp_size]],
            properties={
                "size": IntegerAttr(size, i32),
                "modifier": LoadCacheModifierAttr(modifier),
            },
        )

    def verify_(self) -> None:
        modifier = self.modifier.data
        size = int_value(self.size)
        if modifier not in (LoadCacheModifierKind.CG, LoadCacheModifierKind.CA):
            raise PlainVerifyException("Only CG and CA cache modifiers are supported.")
        if size not in (4, 8, 16):
            raise PlainVerifyException("expected byte size to be either 4, 8 or 16.")
        if modifier is LoadCacheModifierKind.CG and size != 16:
            raise PlainVerifyException(
                "CG cache modifier is only support for 16 bytes copy."
            )


@irdl_op_definition
class CpAsyncCommitGroupOp(NVVMOp):
    """Commits the thread's pending `cp.async` copies as a group.

    Example:
        nvvm.cp.async.commit.group
    """

    name = "nvvm.cp.async.commit.group"
    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class CpAsyncWaitGroupOp(NVVMOp):
    """Waits until at most `n` `cp.async` groups are pending.

    Example:
        nvvm.cp.async.wait.group 0
    """

    name = "nvvm.cp.async.wait.group"

    n = prop_def(I32_ATTR)

    FORMAT: ClassVar[str] = "$n attr-dict"

    def __init__(self, n: int) -> None:
        super().__init__(properties={"n": IntegerAttr(n, i32)})


@irdl_op_definition
class CpAsyncMBarrierArriveOp(NVVMOp):
    """Makes an mbarrier track the thread's prior `cp.async` copies
    (`cp.async.mbarrier.arrive`); `noinc` leaves the pending count alone.

    Example:
        nvvm.cp.async.mbarrier.arrive %bar {noinc = true} : !llvm.ptr<3>
    """

    name = "nvvm.cp.async.mbarrier.arrive"

    addr = operand_def(any_of(ptr(GENERIC), ptr(SHARED)))
    noinc = prop_def(I1_ATTR, default_value=BoolAttr.from_bool(False))

    FORMAT: ClassVar[str] = "$addr attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue) -> None:
        super().__init__(operands=[addr])


@irdl_op_definition
class CpAsyncBulkCommitGroupOp(NVVMOp):
    """Commits the pending bulk copies as a bulk async-group.

    Example:
        nvvm.cp.async.bulk.commit.group
    """

    name = "nvvm.cp.async.bulk.commit.group"
    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class CpAsyncBulkWaitGroupOp(NVVMOp):
    """Waits until at most `group` bulk async-groups are pending; with `read`, until their
    sources have been read.

    Example:
        nvvm.cp.async.bulk.wait_group 0 {read}
    """

    name = "nvvm.cp.async.bulk.wait_group"

    group = prop_def(confined(I32_ATTR, minimum=0))
    read = opt_prop_def(UNIT_ATTR)

    traits = traits_def(RequiresSM(90))

    FORMAT: ClassVar[str] = "$group attr-dict"

    def __init__(self, group: int) -> None:
        super().__init__(properties={"group": IntegerAttr(group, i32)})


@irdl_op_definition
class CpAsyncBulkPrefetchOp(NVVMOp):
    """Prefetches `size` bytes of global memory into L2 (`cp.async.bulk.prefetch.L2`).

    Example:
        nvvm.cp.async.bulk.prefetch %src, %size : !llvm.ptr<1>
    """

    name = "nvvm.cp.async.bulk.prefetch"

    srcMem = operand_def(ptr(GLOBAL))
    size = operand_def(I32)
    l2CacheHint = opt_operand_def(I64)

    FORMAT: ClassVar[str] = (
        "$srcMem `,` $size (`l2_cache_hint` `=` $l2CacheHint^ )? attr-dict "
        "`:` type($srcMem)"
    )


@irdl_op_definition
class CpAsyncBulkGlobalToSharedClusterOp(NVVMOp):
    """Copies `size` bytes from global to shared memory of this CTA (`!llvm.ptr<3>`) or of
    the cluster (`!llvm.ptr<7>`, optionally multicast) (`cp.async.bulk.shared::*.global`).

    Example:
        nvvm.cp.async.bulk.shared.cluster.global %dst, %src, %mbar, %size : !llvm.ptr<7>, !llvm.ptr<1>
    """

    name = "nvvm.cp.async.bulk.shared.cluster.global"

    dstMem = operand_def(any_of(ptr(SHARED), ptr(SHARED_CLUSTER)))
    srcMem = operand_def(ptr(GLOBAL))
    mbar = operand_def(ptr(SHARED))
    size = operand_def(I32)
    multicastMask = opt_operand_def(I16)
    l2CacheHint = opt_operand_def(I64)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    FORMAT: ClassVar[str] = (
        "$dstMem `,` $srcMem `,` $mbar `,` $size "
        "(`multicast_mask` `=` $multicastMask^ )? "
        "(`l2_cache_hint` `=` $l2CacheHint^ )? attr-dict `:` type($dstMem) `,` type($srcMem)"
    )

    def verify_(self) -> None:
        from tileas_py.dialects.nvvm.ods import address_space_of

        if (
            address_space_of(self.dstMem.type) == SHARED
            and self.multicastMask is not None
        ):
            raise PlainVerifyException(
                "Multicast is not supported with shared::cta mode."
            )


@irdl_op_definition
class CpAsyncBulkSharedCTAToSharedClusterOp(NVVMOp):
    """Copies `size` bytes from this CTA's shared memory to a CTA of the cluster.

    Example:
        nvvm.cp.async.bulk.shared.cluster.shared.cta %dst, %src, %mbar, %size : !llvm.ptr<7>, !llvm.ptr<3>
    """

    name = "nvvm.cp.async.bulk.shared.cluster.shared.cta"

    dstMem = operand_def(ptr(SHARED_CLUSTER))
    srcMem = operand_def(ptr(SHARED))
    mbar = operand_def(ptr(SHARED))
    size = operand_def(I32)

    FORMAT: ClassVar[str] = (
        "$dstMem `,` $srcMem `,` $mbar `,` $size attr-dict `:` type($dstMem) `,` "
        "type($srcMem)"
    )


@irdl_op_definition
class CpAsyncBulkSharedCTAToGlobalOp(NVVMOp):
    """Copies `size` bytes from shared to global memory; `byteMask` selects the bytes of
    each 16-byte chunk (`cp.async.bulk.global.shared::cta`).

    Example:
        nvvm.cp.async.bulk.global.shared.cta %dst, %src, %size : !llvm.ptr<1>, !llvm.ptr<3>
    """

    name = "nvvm.cp.async.bulk.global.shared.cta"

    dstMem = operand_def(ptr(GLOBAL))
    srcMem = operand_def(ptr(SHARED))
    size = operand_def(I32)
    l2CacheHint = opt_operand_def(I64)
    byteMask = opt_operand_def(I16)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    FORMAT: ClassVar[str] = (
        "$dstMem `,` $srcMem `,` $size (`l2_cache_hint` `=` $l2CacheHint^ )? "
        "(`byte_mask` `=` $byteMask^ )? attr-dict `:` type($dstMem) `,` type($srcMem)"
    )


@irdl_op_definition
class CpAsyncBulkTensorPrefetchOp(NVVMOp):
    """Prefetches a tensor box into L2 (`cp.async.bulk.prefetch.tensor`).

    Example:
        nvvm.cp.async.bulk.tensor.prefetch %desc, box[%x, %y] : !llvm.ptr
    """

    name = "nvvm.cp.async.bulk.tensor.prefetch"

    tmaDescriptor = operand_def(ANY_PTR)
    coordinates = var_operand_def(I32)
    im2colOffsets = var_operand_def(I16)
    mode = prop_def(
        of_class(TMALoadModeAttr, TMALoadModeAttr.SUMMARY),
        default_value=TMALoadModeAttr(TMALoadMode.TILE),
    )
    l2CacheHint = opt_operand_def(I64)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    FORMAT: ClassVar[str] = (
        "$tmaDescriptor `,` `box` `[`$coordinates `]` "
        "(`im2col` `[` $im2colOffsets^ `]` )? (`l2_cache_hint` `=` $l2CacheHint^ )? "
        "attr-dict `:` type($tmaDescriptor)"
    )

    def verify_(self) -> None:
        verify_tma_load_params(
            len(self.coordinates), len(self.im2colOffsets), self.mode.data
        )


@irdl_op_definition
class CpAsyncBulkTensorReduceOp(NVVMOp):
    """Reduces a shared-memory tensor box into global memory (`cp.reduce.async.bulk.tensor`).

    Example:
        nvvm.cp.async.bulk.tensor.reduce %desc, %src, box[%x] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, !llvm.ptr<3>
    """

    name = "nvvm.cp.async.bulk.tensor.reduce"

    tmaDescriptor = operand_def(ANY_PTR)
    srcMem = operand_def(ptr(SHARED))
    redKind = prop_def(of_class(TMAReduxKindAttr, TMAReduxKindAttr.SUMMARY))
    mode = prop_def(
        of_class(TMAStoreModeAttr, TMAStoreModeAttr.SUMMARY),
        default_value=TMAStoreModeAttr(TMAStoreMode.TILE),
    )
    coordinates = var_operand_def(I32)
    l2CacheHint = opt_operand_def(I64)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    FORMAT: ClassVar[str] = (
        "$tmaDescriptor `,` $srcMem `,` `box` `[`$coordinates `]` "
        "(`l2_cache_hint` `=` $l2CacheHint^ )? attr-dict `:` type($tmaDescriptor) `,` "
        "type($srcMem)"
    )

    def verify_(self) -> None:
        mode = self.mode.data
        if mode is TMAStoreMode.TILE_SCATTER4:
            raise PlainVerifyException(
                "Scatter mode unsupported for CpAsyncBulkTensorReduceOp"
            )
        verify_tma_store_params(len(self.coordinates), mode is TMAStoreMode.IM2COL, 0)


CP_ASYNC_OPS = (
    CpAsyncOp,
    CpAsyncCommitGroupOp,
    CpAsyncWaitGroupOp,
    CpAsyncMBarrierArriveOp,
    CpAsyncBulkCommitGroupOp,
    CpAsyncBulkWaitGroupOp,
    CpAsyncBulkPrefetchOp,
    CpAsyncBulkGlobalToSharedClusterOp,
    CpAsyncBulkSharedCTAToSharedClusterOp,
    CpAsyncBulkSharedCTAToGlobalOp,
    CpAsyncBulkTensorPrefetchOp,
    CpAsyncBulkTensorReduceOp,
)
