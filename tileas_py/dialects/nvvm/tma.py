"""Tensor Memory Accelerator copies (sm_90): `nvvm.cp.async.bulk.tensor.*`.

A TMA copy moves a box of a tensor described by a tensor map (`tmaDescriptor`, a generic
pointer) between global and shared memory; loads signal completion on an mbarrier with a
transaction count, stores are tracked by bulk async-groups.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmcpasyncbulktensorsharedclusterglobal-nvvmcpasyncbulktensorglobaltosharedclusterop
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cp-async-bulk-tensor
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import (
    I1,
    I16,
    I32,
    I64,
    BoolAttr,
    DenseArrayBase,
    i1,
    i16,
    i32,
    i64,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from tileas_py.diagnostics import PlainVerifyException
from tileas_py.dialects.nvvm.attrs import (
    CTAGroupKindAttr,
    TMALoadMode,
    TMALoadModeAttr,
    TMAStoreMode,
    TMAStoreModeAttr,
)
from tileas_py.dialects.nvvm.pointers import (
    SHARED,
    SHARED_CLUSTER,
    address_space,
    pointer,
)
from tileas_py.dialects.nvvm.syntax import (
    canonical_properties,
    parse_operand_list,
    parse_optional_keyword_operand,
    print_operand_list,
    print_properties_and_attributes,
    split_properties,
)
from tileas_py.dialects.nvvm.target import RequiresSM

_LOAD_DEFAULTS: dict[str, Attribute] = {
    "mode": TMALoadModeAttr(TMALoadMode.TILE),
    "isCTAOnly": BoolAttr.from_bool(False),
}
_STORE_DEFAULTS: dict[str, Attribute] = {"mode": TMAStoreModeAttr(TMAStoreMode.TILE)}


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


@canonical_properties
@irdl_op_definition
class CpAsyncBulkTensorGlobalToSharedClusterOp(IRDLOperation):
    """TMA load: copies a box of a global tensor into shared memory and completes
    transactions on the mbarrier `mbar` (`cp.async.bulk.tensor.Nd.shared::cluster.global`).

    The destination is shared::cluster memory (`!llvm.ptr<7>`), or shared::cta memory
    (`!llvm.ptr<3>`) with `isCTAOnly = true`. `multicast_mask` copies into several CTAs
    of the cluster; `im2col` offsets and `mode` select the im2col / gather modes.

    Example:
        nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %y] : !llvm.ptr<7>, !llvm.ptr
    """

    name = "nvvm.cp.async.bulk.tensor.shared.cluster.global"

    dstMem = operand_def(LLVMPointerType)
    tmaDescriptor = operand_def(LLVMPointerType)
    coordinates = var_operand_def(I32)
    mbar = operand_def(LLVMPointerType)
    im2colOffsets = var_operand_def(I16)
    multicastMask = opt_operand_def(I16)
    l2CacheHint = opt_operand_def(I64)
    predicate = opt_operand_def(I1)
    mode = opt_prop_def(TMALoadModeAttr, _LOAD_DEFAULTS["mode"])
    isCTAOnly = opt_prop_def(BoolAttr, BoolAttr.from_bool(False))
    group = opt_prop_def(CTAGroupKindAttr)

    traits = traits_def(RequiresSM(90))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

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
            properties={
                "mode": TMALoadModeAttr(mode),
                "isCTAOnly": BoolAttr.from_bool(False),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        dst = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        descriptor = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        mbar = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("box")
        coordinates = parse_operand_list(parser)
        offsets = []
        if parser.parse_optional_keyword("im2col") is not None:
            offsets = parse_operand_list(parser)
        mask = parse_optional_keyword_operand(parser, "multicast_mask")
        hint = parse_optional_keyword_operand(parser, "l2_cache_hint")
        predicate = parse_optional_keyword_operand(parser, "predicate")
        properties, attributes = split_properties(
            parser.parse_optional_attr_dict(), ("mode", "isCTAOnly", "group")
        )
        parser.parse_punctuation(":")
        dst_type = parser.parse_type()
        parser.parse_punctuation(",")
        descriptor_type = parser.parse_type()
        operands = [
            parser.resolve_operand(dst, dst_type),
            parser.resolve_operand(descriptor, descriptor_type),
            *(parser.resolve_operand(c, i32) for c in coordinates),
            parser.resolve_operand(mbar, pointer(SHARED)),
            *(parser.resolve_operand(o, i16) for o in offsets),
        ]
        optionals = ((mask, i16), (hint, i64), (predicate, i1))
        operands += [
            parser.resolve_operand(v, t) for v, t in optionals if v is not None
        ]
        properties = {**_LOAD_DEFAULTS, **properties}
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32,
            [1, 1, len(coordinates), 1, len(offsets)]
            + [0 if v is None else 1 for v, _ in optionals],
        )
        return cls.create(
            operands=operands, properties=properties, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(
            (self.dstMem, self.tmaDescriptor, self.mbar), printer.print_operand
        )
        printer.print_string(", box")
        print_operand_list(printer, self.coordinates)
        if self.im2colOffsets:
            printer.print_string(" im2col")
            print_operand_list(printer, self.im2colOffsets)
        for keyword, value in (
            ("multicast_mask", self.multicastMask),
            ("l2_cache_hint", self.l2CacheHint),
            ("predicate", self.predicate),
        ):
            if value is not None:
                printer.print_string(f" {keyword} = ")
                printer.print_operand(value)
        print_properties_and_attributes(printer, self, _LOAD_DEFAULTS)
        printer.print_string(" : ")
        printer.print_attribute(self.dstMem.type)
        printer.print_string(", ")
        printer.print_attribute(self.tmaDescriptor.type)

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


@canonical_properties
@irdl_op_definition
class CpAsyncBulkTensorSharedCTAToGlobalOp(IRDLOperation):
    """TMA store: copies a box from shared::cta memory into a global tensor
    (`cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group`).

    Example:
        nvvm.cp.async.bulk.tensor.global.shared.cta %tmap, %src, box[%x, %y] : !llvm.ptr, <3>
    """

    name = "nvvm.cp.async.bulk.tensor.global.shared.cta"

    tmaDescriptor = operand_def(LLVMPointerType)
    srcMem = operand_def(pointer(SHARED))
    coordinates = var_operand_def(I32)
    l2CacheHint = opt_operand_def(I64)
    predicate = opt_operand_def(I1)
    mode = opt_prop_def(TMAStoreModeAttr, _STORE_DEFAULTS["mode"])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

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

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        descriptor = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("box")
        coordinates = parse_operand_list(parser)
        hint = parse_optional_keyword_operand(parser, "l2_cache_hint")
        predicate = None
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("predicate")
            parser.parse_punctuation("=")
            predicate = parser.parse_unresolved_operand()
        properties, attributes = split_properties(
            parser.parse_optional_attr_dict(), ("mode",)
        )
        parser.parse_punctuation(":")
        descriptor_type = parser.parse_type()
        parser.parse_punctuation(",")
        # Upstream prints the fixed shared-pointer type bare, as `<3>`.
        if parser.parse_optional_punctuation("<") is not None:
            space = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(">")
            src_type: Attribute = pointer(space)
        else:
            src_type = parser.parse_type()
        operands = [
            parser.resolve_operand(descriptor, descriptor_type),
            parser.resolve_operand(src, src_type),
            *(parser.resolve_operand(c, i32) for c in coordinates),
        ]
        optionals = ((hint, i64), (predicate, i1))
        operands += [
            parser.resolve_operand(v, t) for v, t in optionals if v is not None
        ]
        properties = {**_STORE_DEFAULTS, **properties}
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32,
            [1, 1, len(coordinates)] + [0 if v is None else 1 for v, _ in optionals],
        )
        return cls.create(
            operands=operands, properties=properties, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.tmaDescriptor, self.srcMem), printer.print_operand)
        printer.print_string(", box")
        print_operand_list(printer, self.coordinates)
        if self.l2CacheHint is not None:
            printer.print_string(" l2_cache_hint = ")
            printer.print_operand(self.l2CacheHint)
        if self.predicate is not None:
            printer.print_string(", predicate = ")
            printer.print_operand(self.predicate)
        print_properties_and_attributes(printer, self, _STORE_DEFAULTS)
        printer.print_string(" : ")
        printer.print_attribute(self.tmaDescriptor.type)
        printer.print_string(f", <{address_space(self.srcMem.type)}>")

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
