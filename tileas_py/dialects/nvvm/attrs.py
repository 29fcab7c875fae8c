"""Attributes of the `nvvm` dialect: its enums, MMA shapes and LLVM's constant ranges.

Enums come in upstream's two syntaxes. Most are `#nvvm.name<value>` (`AngleEnumAttr`); in an
op's custom syntax they print without the prefix, `<value>`. Those whose upstream syntax is
the bare value (`BareEnumAttr`) print as `#nvvm<name value>`, and in custom syntax as the
value preceded by a space of their own (MLIR shows `nvvm.shfl.sync  bfly`). Both forms are
read wherever one is expected, as MLIR's `parseCustomAttributeWithFallback` does. An
unknown value gets upstream's message, e.g. `expected ::mlir::NVVM::MemScopeKind to be one
of: cta, cluster, gpu, sys`.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#attributes
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Generic, TypeVar, cast

from xdsl.dialects.builtin import IntAttr, IntegerType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, OpaqueSyntaxAttribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


def accept_qualified_name(parser: AttrParser, name: str) -> None:
    """Let `#name<...>` stand where only `<...>` is expected (MLIR's fallback parsing)."""
    parser.parse_optional_characters(f"#{name}")


E = TypeVar("E", bound=StrEnum)


def _parse_enum_value(parser: AttrParser, enum: type[StrEnum], message: str) -> StrEnum:
    pos = parser.pos
    value = parser.parse_optional_identifier()
    if value is None or value not in enum._value2member_map_:
        parser.raise_error(message, pos)
    return enum(value)


class AngleEnum(Generic[E]):
    """Mixin of an enum attribute with upstream's `<value>` syntax: `#nvvm.mem_scope<cta>`."""

    name: ClassVar[str]
    enum_type: ClassVar[type[StrEnum]]
    CPP_ENUM: ClassVar[str]
    SUMMARY: ClassVar[str]
    data: E

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> E:
        accept_qualified_name(parser, cls.name)
        values = ", ".join(e.value for e in cls.enum_type)
        with parser.in_angle_brackets():
            return cast(
                E,
                _parse_enum_value(
                    parser,
                    cls.enum_type,
                    f"expected ::mlir::NVVM::{cls.CPP_ENUM} to be one of: {values}",
                ),
            )

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)


class BareEnum(Generic[E]):
    """Mixin of an enum attribute whose upstream syntax is its bare value:
    `#nvvm<shfl_kind bfly>` (with `OpaqueSyntaxAttribute`)."""

    enum_type: ClassVar[type[StrEnum]]
    CPP_ENUM: ClassVar[str]
    SUMMARY: ClassVar[str]
    I32_ENUM: ClassVar[bool] = False
    """Upstream's `I32Enum` (not `I32EnumAttr`), which words its error differently."""
    data: E

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> E:
        values = ", ".join(e.value for e in cls.enum_type)
        if cls.I32_ENUM:
            message = f"expected one of [{values}] for {cls.SUMMARY}"
        else:
            message = f"expected ::mlir::NVVM::{cls.CPP_ENUM} to be one of: {values}"
        return cast(E, _parse_enum_value(parser, cls.enum_type, message))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f" {self.data.value}")


class MMALayout(StrEnum):
    ROW = "row"
    COL = "col"


@irdl_attr_definition
class MMALayoutAttr(AngleEnum[MMALayout], EnumAttribute[MMALayout]):
    name = "nvvm.mma_layout"
    CPP_ENUM = "MMALayout"
    SUMMARY = "NVVM MMA layout"


class MMATypes(StrEnum):
    F16 = "f16"
    F32 = "f32"
    TF32 = "tf32"
    BF16 = "bf16"
    S8 = "s8"
    U8 = "u8"
    S32 = "s32"
    S4 = "s4"
    U4 = "u4"
    B1 = "b1"
    F64 = "f64"
    E4M3 = "e4m3"
    E5M2 = "e5m2"
    E3M2 = "e3m2"
    E2M3 = "e2m3"
    E2M1 = "e2m1"


@irdl_attr_definition
class MMATypesAttr(AngleEnum[MMATypes], EnumAttribute[MMATypes]):
    name = "nvvm.mma_type"
    CPP_ENUM = "MMATypes"
    SUMMARY = "NVVM MMA types"


class MMAB1Op(StrEnum):
    NONE = "none"
    XOR_POPC = "xor_popc"
    AND_POPC = "and_popc"


@irdl_attr_definition
class MMAB1OpAttr(AngleEnum[MMAB1Op], EnumAttribute[MMAB1Op]):
    name = "nvvm.mma_b1op"
    CPP_ENUM = "MMAB1Op"
    SUMMARY = "MMA binary operations"


class MMAIntOverflow(StrEnum):
    SATFINITE = "satfinite"
    WRAPPED = "wrapped"


@irdl_attr_definition
class MMAIntOverflowAttr(AngleEnum[MMAIntOverflow], EnumAttribute[MMAIntOverflow]):
    name = "nvvm.mma_int_overflow"
    CPP_ENUM = "MMAIntOverflow"
    SUMMARY = "MMA overflow options"


class MMAFrag(StrEnum):
    A = "a"
    B = "b"
    C = "c"


@irdl_attr_definition
class MMAFragAttr(AngleEnum[MMAFrag], EnumAttribute[MMAFrag]):
    name = "nvvm.mma_frag"
    CPP_ENUM = "MMAFrag"
    SUMMARY = "NVVM MMA frag type"


class MMAKind(StrEnum):
    F8F6F4 = "f8f6f4"


@irdl_attr_definition
class MMAKindAttr(AngleEnum[MMAKind], EnumAttribute[MMAKind]):
    name = "nvvm.mma_kind"
    CPP_ENUM = "MMAKind"
    SUMMARY = "MMA operation kind"


class WGMMATypes(StrEnum):
    F16 = "f16"
    TF32 = "tf32"
    U8 = "u8"
    S8 = "s8"
    B1 = "b1"
    BF16 = "bf16"
    E4M3 = "e4m3"
    E5M2 = "e5m2"
    F32 = "f32"
    S32 = "s32"


@irdl_attr_definition
class WGMMATypesAttr(AngleEnum[WGMMATypes], EnumAttribute[WGMMATypes]):
    name = "nvvm.wgmma_type"
    CPP_ENUM = "WGMMATypes"
    SUMMARY = "NVVM WGMMA types"


class WGMMAScaleIn(StrEnum):
    ONE = "one"
    NEG = "neg"


@irdl_attr_definition
class WGMMAScaleInAttr(AngleEnum[WGMMAScaleIn], EnumAttribute[WGMMAScaleIn]):
    name = "nvvm.wgmma_scale_in"
    CPP_ENUM = "WGMMAScaleIn"
    SUMMARY = "WGMMA overflow options"


class WGMMAScaleOut(StrEnum):
    ZERO = "zero"
    ONE = "one"


@irdl_attr_definition
class WGMMAScaleOutAttr(AngleEnum[WGMMAScaleOut], EnumAttribute[WGMMAScaleOut]):
    name = "nvvm.wgmma_scale_out"
    CPP_ENUM = "WGMMAScaleOut"
    SUMMARY = "WGMMA input predicate"


class ProxyKind(StrEnum):
    ALIAS = "alias"
    ASYNC = "async"
    ASYNC_GLOBAL = "async.global"
    ASYNC_SHARED = "async.shared"
    TENSORMAP = "tensormap"
    GENERIC = "generic"


@irdl_attr_definition
class ProxyKindAttr(AngleEnum[ProxyKind], EnumAttribute[ProxyKind]):
    name = "nvvm.proxy_kind"
    CPP_ENUM = "ProxyKind"
    SUMMARY = "Proxy kind"


class SharedSpace(StrEnum):
    CTA = "cta"
    CLUSTER = "cluster"


@irdl_attr_definition
class SharedSpaceAttr(AngleEnum[SharedSpace], EnumAttribute[SharedSpace]):
    name = "nvvm.shared_space"
    CPP_ENUM = "SharedSpace"
    SUMMARY = "Shared memory space"


class MemScopeKind(StrEnum):
    CTA = "cta"
    CLUSTER = "cluster"
    GPU = "gpu"
    SYS = "sys"


@irdl_attr_definition
class MemScopeKindAttr(AngleEnum[MemScopeKind], EnumAttribute[MemScopeKind]):
    name = "nvvm.mem_scope"
    CPP_ENUM = "MemScopeKind"
    SUMMARY = "NVVM Memory Scope kind"


class MemOrderKind(StrEnum):
    WEAK = "weak"
    RELAXED = "relaxed"
    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQ_REL = "acq_rel"
    SC = "sc"
    MMIO = "mmio"
    VOLATILE = "volatile"


@irdl_attr_definition
class MemOrderKindAttr(AngleEnum[MemOrderKind], EnumAttribute[MemOrderKind]):
    name = "nvvm.mem_order"
    CPP_ENUM = "MemOrderKind"
    SUMMARY = "NVVM Memory Ordering kind"


class BarrierReduction(StrEnum):
    POPC = "popc"
    AND = "and"
    OR = "or"


@irdl_attr_definition
class BarrierReductionAttr(
    AngleEnum[BarrierReduction], EnumAttribute[BarrierReduction]
):
    name = "nvvm.reduction"
    CPP_ENUM = "BarrierReduction"
    SUMMARY = "NVVM barrier reduction operation"


class CTAGroupKind(StrEnum):
    CTA_1 = "cta_1"
    CTA_2 = "cta_2"


@irdl_attr_definition
class CTAGroupKindAttr(AngleEnum[CTAGroupKind], EnumAttribute[CTAGroupKind]):
    name = "nvvm.cta_group"
    CPP_ENUM = "CTAGroupKind"
    SUMMARY = "NVVM CTA group kind"


class TMALoadMode(StrEnum):
    TILE = "tile"
    IM2COL = "im2col"
    IM2COL_W = "im2col_w"
    IM2COL_W_128 = "im2col_w_128"
    TILE_GATHER4 = "tile_gather4"


@irdl_attr_definition
class TMALoadModeAttr(AngleEnum[TMALoadMode], EnumAttribute[TMALoadMode]):
    name = "nvvm.tma_load_mode"
    CPP_ENUM = "TMALoadMode"
    SUMMARY = "List of Load-Modes supported for TMA Tensor Ops"


class TMAStoreMode(StrEnum):
    TILE = "tile"
    IM2COL = "im2col"
    TILE_SCATTER4 = "tile_scatter4"


@irdl_attr_definition
class TMAStoreModeAttr(AngleEnum[TMAStoreMode], EnumAttribute[TMAStoreMode]):
    name = "nvvm.tma_store_mode"
    CPP_ENUM = "TMAStoreMode"
    SUMMARY = "NVVM TMA Store Mode"


class TMAReduxKind(StrEnum):
    ADD = "add"
    MAX = "max"
    MIN = "min"
    INC = "inc"
    DEC = "dec"
    AND = "and"
    OR = "or"
    XOR = "xor"


@irdl_attr_definition
class TMAReduxKindAttr(AngleEnum[TMAReduxKind], EnumAttribute[TMAReduxKind]):
    name = "nvvm.tma_redux_kind"
    CPP_ENUM = "TMAReduxKind"
    SUMMARY = "NVVM TMA redux kind"


class FPRoundingMode(StrEnum):
    NONE = "none"
    RN = "rn"
    RM = "rm"
    RP = "rp"
    RZ = "rz"
    RNA = "rna"
    RS = "rs"


@irdl_attr_definition
class FPRoundingModeAttr(AngleEnum[FPRoundingMode], EnumAttribute[FPRoundingMode]):
    name = "nvvm.fp_rnd_mode"
    CPP_ENUM = "FPRoundingMode"
    SUMMARY = "NVVM FPRoundingMode kind"


class SaturationMode(StrEnum):
    NONE = "none"
    SATFINITE = "satfinite"


@irdl_attr_definition
class SaturationModeAttr(AngleEnum[SaturationMode], EnumAttribute[SaturationMode]):
    name = "nvvm.sat_mode"
    CPP_ENUM = "SaturationMode"
    SUMMARY = "NVVM SaturationMode kind"


class LdStMatrixEltType(StrEnum):
    B16 = "b16"
    B8 = "b8"
    B8X16_B6X16_P32 = "b8x16.b6x16_p32"
    B8X16_B4X16_P64 = "b8x16.b4x16_p64"


@irdl_attr_definition
class LdStMatrixEltTypeAttr(
    AngleEnum[LdStMatrixEltType], EnumAttribute[LdStMatrixEltType]
):
    name = "nvvm.ld_st_matrix_elt_type"
    CPP_ENUM = "LdStMatrixEltType"
    SUMMARY = "Element type for ldmatrix and stmatrix"


class DotAccumulateType(StrEnum):
    SIGNED = "signed"
    UNSIGNED = "unsigned"


@irdl_attr_definition
class DotAccumulateTypeAttr(
    AngleEnum[DotAccumulateType], EnumAttribute[DotAccumulateType]
):
    name = "nvvm.dot_accumulate_type"
    CPP_ENUM = "DotAccumulateType"
    SUMMARY = "NVVM DotAccumulateType"


class PermuteMode(StrEnum):
    DEFAULT = "default"
    F4E = "f4e"
    B4E = "b4e"
    RC8 = "rc8"
    ECL = "ecl"
    ECR = "ecr"
    RC16 = "rc16"


@irdl_attr_definition
class PermuteModeAttr(AngleEnum[PermuteMode], EnumAttribute[PermuteMode]):
    name = "nvvm.permute_mode"
    CPP_ENUM = "PermuteMode"
    SUMMARY = "NVVM permute mode"


class Tcgen05FenceKind(StrEnum):
    BEFORE = "before"
    AFTER = "after"


@irdl_attr_definition
class Tcgen05FenceKindAttr(
    AngleEnum[Tcgen05FenceKind], EnumAttribute[Tcgen05FenceKind]
):
    name = "nvvm.tcgen05_fence"
    CPP_ENUM = "Tcgen05FenceKind"
    SUMMARY = "NVVM Tcgen05 fence kind"


class Tcgen05WaitKind(StrEnum):
    LOAD = "load"
    STORE = "store"


@irdl_attr_definition
class Tcgen05WaitKindAttr(AngleEnum[Tcgen05WaitKind], EnumAttribute[Tcgen05WaitKind]):
    name = "nvvm.tcgen05_wait"
    CPP_ENUM = "Tcgen05WaitKind"
    SUMMARY = "NVVM Tcgen05 wait kind"


class Tcgen05CpShape(StrEnum):
    SHAPE_128x256b = "shape_128x256b"
    SHAPE_4x256b = "shape_4x256b"
    SHAPE_128x128b = "shape_128x128b"
    SHAPE_64x128b = "shape_64x128b"
    SHAPE_32x128b = "shape_32x128b"


@irdl_attr_definition
class Tcgen05CpShapeAttr(AngleEnum[Tcgen05CpShape], EnumAttribute[Tcgen05CpShape]):
    name = "nvvm.tcgen05_cp_shape"
    CPP_ENUM = "Tcgen05CpShape"
    SUMMARY = "tcgen05 cp shapes"


class Tcgen05CpMulticast(StrEnum):
    NONE = "none"
    WARPX2_02_13 = "warpx2_02_13"
    WARPX2_01_23 = "warpx2_01_23"
    WARPX4 = "warpx4"


@irdl_attr_definition
class Tcgen05CpMulticastAttr(
    AngleEnum[Tcgen05CpMulticast], EnumAttribute[Tcgen05CpMulticast]
):
    name = "nvvm.tcgen05_cp_multicast"
    CPP_ENUM = "Tcgen05CpMulticast"
    SUMMARY = "tcgen05 cp multicast"


class Tcgen05CpSrcFormat(StrEnum):
    B6x16_P32 = "b6x16_p32"
    B4x16_P64 = "b4x16_p64"


@irdl_attr_definition
class Tcgen05CpSrcFormatAttr(
    AngleEnum[Tcgen05CpSrcFormat], EnumAttribute[Tcgen05CpSrcFormat]
):
    name = "nvvm.tcgen05_cp_src_fmt"
    CPP_ENUM = "Tcgen05CpSrcFormat"
    SUMMARY = "tcgen05 cp source format"


class Tcgen05LdStShape(StrEnum):
    SHAPE_16X64B = "shape_16x64b"
    SHAPE_16X128B = "shape_16x128b"
    SHAPE_16X256B = "shape_16x256b"
    SHAPE_32X32B = "shape_32x32b"
    SHAPE_16X32BX2 = "shape_16x32bx2"


@irdl_attr_definition
class Tcgen05LdStShapeAttr(
    AngleEnum[Tcgen05LdStShape], EnumAttribute[Tcgen05LdStShape]
):
    name = "nvvm.tcgen05_ldst_shape"
    CPP_ENUM = "Tcgen05LdStShape"
    SUMMARY = ""


class Tcgen05MMAKind(StrEnum):
    F8F6F4 = "f8f6f4"
    I8 = "i8"
    F16 = "f16"
    TF32 = "tf32"


@irdl_attr_definition
class Tcgen05MMAKindAttr(AngleEnum[Tcgen05MMAKind], EnumAttribute[Tcgen05MMAKind]):
    name = "nvvm.tcgen05_mma_kind"
    CPP_ENUM = "Tcgen05MMAKind"
    SUMMARY = "tcgen05 MMA Supported Types"


class Tcgen05MMACollectorOp(StrEnum):
    DISCARD = "discard"
    LASTUSE = "lastuse"
    FILL = "fill"
    USE = "use"


@irdl_attr_definition
class Tcgen05MMACollectorOpAttr(
    AngleEnum[Tcgen05MMACollectorOp], EnumAttribute[Tcgen05MMACollectorOp]
):
    name = "nvvm.tcgen05_mma_collectorop"
    CPP_ENUM = "Tcgen05MMACollectorOp"
    SUMMARY = "tcgen05.mma Collector Buffer Operation"


class Tcgen05MMACollectorBBuffer(StrEnum):
    B0 = "b0"
    B1 = "b1"
    B2 = "b2"
    B3 = "b3"


@irdl_attr_definition
class Tcgen05MMACollectorBBufferAttr(
    AngleEnum[Tcgen05MMACollectorBBuffer], EnumAttribute[Tcgen05MMACollectorBBuffer]
):
    name = "nvvm.tcgen05_mma_collectorb"
    CPP_ENUM = "Tcgen05MMACollectorBBuffer"
    SUMMARY = "tcgen05 MMA Collector Buffer B Attribute"


class Tcgen05MMABlockScale(StrEnum):
    DEFAULT = "default"
    BLOCK16 = "block16"
    BLOCK32 = "block32"


@irdl_attr_definition
class Tcgen05MMABlockScaleAttr(
    AngleEnum[Tcgen05MMABlockScale], EnumAttribute[Tcgen05MMABlockScale]
):
    name = "nvvm.tcgen05_mma_block_scale"
    CPP_ENUM = "Tcgen05MMABlockScale"
    SUMMARY = "tcgen05.mma block scale attribute"


class MMABlockScaleKind(StrEnum):
    MXF8F6F4 = "mxf8f6f4"
    MXF4 = "mxf4"
    MXF4NVF4 = "mxf4nvf4"


@irdl_attr_definition
class MMABlockScaleKindAttr(
    AngleEnum[MMABlockScaleKind], EnumAttribute[MMABlockScaleKind]
):
    name = "nvvm.block_scale_kind"
    CPP_ENUM = "MMABlockScaleKind"
    SUMMARY = "Block Scale Kind"


class ScaleVecSize(StrEnum):
    X1 = "x1"
    X2 = "x2"
    X4 = "x4"


@irdl_attr_definition
class ScaleVecSizeAttr(AngleEnum[ScaleVecSize], EnumAttribute[ScaleVecSize]):
    name = "nvvm.scale_vec_size"
    CPP_ENUM = "ScaleVecSize"
    SUMMARY = "MMA Scale Vector Sizes"


class BlockScaleFormat(StrEnum):
    UE8M0 = "ue8m0"
    UE4M3 = "ue4m3"


@irdl_attr_definition
class BlockScaleFormatAttr(
    AngleEnum[BlockScaleFormat], EnumAttribute[BlockScaleFormat]
):
    name = "nvvm.block_scale_format"
    CPP_ENUM = "BlockScaleFormat"
    SUMMARY = "MMA Block Scale Format"


class SetMaxRegisterAction(StrEnum):
    DECREASE = "decrease"
    INCREASE = "increase"


@irdl_attr_definition
class SetMaxRegisterActionAttr(
    BareEnum[SetMaxRegisterAction],
    EnumAttribute[SetMaxRegisterAction],
    OpaqueSyntaxAttribute,
):
    name = "nvvm.action"
    CPP_ENUM = "SetMaxRegisterAction"
    SUMMARY = "NVVM set max register action"


class ShflKind(StrEnum):
    BFLY = "bfly"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShflKindAttr(BareEnum[ShflKind], EnumAttribute[ShflKind], OpaqueSyntaxAttribute):
    name = "nvvm.shfl_kind"
    CPP_ENUM = "ShflKind"
    SUMMARY = "NVVM shuffle kind"


class VoteSyncKind(StrEnum):
    ANY = "any"
    ALL = "all"
    BALLOT = "ballot"
    UNI = "uni"


@irdl_attr_definition
class VoteSyncKindAttr(
    BareEnum[VoteSyncKind], EnumAttribute[VoteSyncKind], OpaqueSyntaxAttribute
):
    name = "nvvm.vote_sync_kind"
    CPP_ENUM = "VoteSyncKind"
    SUMMARY = "NVVM vote sync kind"


class ReduxKind(StrEnum):
    ADD = "add"
    AND = "and"
    MAX = "max"
    MIN = "min"
    OR = "or"
    UMAX = "umax"
    UMIN = "umin"
    XOR = "xor"
    FMIN = "fmin"
    FMAX = "fmax"


@irdl_attr_definition
class ReduxKindAttr(
    BareEnum[ReduxKind], EnumAttribute[ReduxKind], OpaqueSyntaxAttribute
):
    name = "nvvm.redux_kind"
    CPP_ENUM = "ReduxKind"
    SUMMARY = "NVVM redux kind"


class LoadCacheModifierKind(StrEnum):
    CA = "ca"
    CG = "cg"
    CS = "cs"
    LU = "lu"
    CV = "cv"


@irdl_attr_definition
class LoadCacheModifierAttr(
    BareEnum[LoadCacheModifierKind],
    EnumAttribute[LoadCacheModifierKind],
    OpaqueSyntaxAttribute,
):
    name = "nvvm.load_cache_modifier"
    CPP_ENUM = "LoadCacheModifierKind"
    SUMMARY = "NVVM load cache modifier kind"


class MatchSyncKind(StrEnum):
    ANY = "any"
    ALL = "all"


@irdl_attr_definition
class MatchSyncKindAttr(
    BareEnum[MatchSyncKind], EnumAttribute[MatchSyncKind], OpaqueSyntaxAttribute
):
    name = "nvvm.match_sync_kind"
    CPP_ENUM = "MatchSyncKind"
    SUMMARY = "NVVM match sync kind"


class GridDepActionKind(StrEnum):
    WAIT = "wait"
    LAUNCH_DEPENDENTS = "launch_dependents"


@irdl_attr_definition
class GridDepActionAttr(
    BareEnum[GridDepActionKind], EnumAttribute[GridDepActionKind], OpaqueSyntaxAttribute
):
    name = "nvvm.grid_dep_action"
    CPP_ENUM = "GridDepActionKind"
    SUMMARY = "Action kind for grid dependency control"
    I32_ENUM = True


class PrefetchCacheLevel(StrEnum):
    L1 = "L1"
    L2 = "L2"


@irdl_attr_definition
class PrefetchCacheLevelAttr(
    BareEnum[PrefetchCacheLevel],
    EnumAttribute[PrefetchCacheLevel],
    OpaqueSyntaxAttribute,
):
    name = "nvvm.prefetch_cache_level"
    CPP_ENUM = "PrefetchCacheLevel"
    SUMMARY = "NVVM Prefetch Cache Level"
    I32_ENUM = True


class CacheEvictionPriority(StrEnum):
    EVICT_NORMAL = "evict_normal"
    EVICT_FIRST = "evict_first"
    EVICT_LAST = "evict_last"
    EVICT_UNCHANGED = "evict_unchanged"
    NO_ALLOCATE = "no_allocate"


@irdl_attr_definition
class CacheEvictionPriorityAttr(
    BareEnum[CacheEvictionPriority],
    EnumAttribute[CacheEvictionPriority],
    OpaqueSyntaxAttribute,
):
    name = "nvvm.cache_eviction_priority"
    CPP_ENUM = "CacheEvictionPriority"
    SUMMARY = "NVVM Cache Eviction Priority"
    I32_ENUM = True


class ClusterLaunchControlQueryType(StrEnum):
    IS_CANCELED = "is_canceled"
    GET_FIRST_CTA_ID_X = "get_first_cta_id_x"
    GET_FIRST_CTA_ID_Y = "get_first_cta_id_y"
    GET_FIRST_CTA_ID_Z = "get_first_cta_id_z"


@irdl_attr_definition
class ClusterLaunchControlQueryTypeAttr(
    BareEnum[ClusterLaunchControlQueryType],
    EnumAttribute[ClusterLaunchControlQueryType],
    OpaqueSyntaxAttribute,
):
    name = "nvvm.cluster_launch_control_query_type"
    CPP_ENUM = "ClusterLaunchControlQueryType"
    SUMMARY = "NVVM ClusterLaunchControlQueryType"
    I32_ENUM = True


@irdl_attr_definition
class MMAShapeAttr(ParametrizedAttribute):
    """The `m`, `n`, `k` of an MMA instruction: `#nvvm.shape<m = 64, n = 128, k = 16>`."""

    name = "nvvm.shape"

    m: IntAttr
    n: IntAttr
    k: IntAttr

    def __init__(self, m: int | IntAttr, n: int | IntAttr, k: int | IntAttr) -> None:
        def to_attr(v: int | IntAttr) -> IntAttr:
            return v if isinstance(v, IntAttr) else IntAttr(v)

        super().__init__(to_attr(m), to_attr(n), to_attr(k))

    @property
    def mnk(self) -> tuple[int, int, int]:
        return self.m.data, self.n.data, self.k.data

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        accept_qualified_name(parser, cls.name)
        values: dict[str, int] = {}
        with parser.in_angle_brackets():
            for key in ("m", "n", "k"):
                if key != "m":
                    parser.parse_punctuation(",")
                parser.parse_keyword(key)
                parser.parse_punctuation("=")
                values[key] = parser.parse_integer(allow_boolean=False)
        return IntAttr(values["m"]), IntAttr(values["n"]), IntAttr(values["k"])

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<m = {self.m.data}, n = {self.n.data}, k = {self.k.data}>"
        )


@irdl_attr_definition
class LdStMatrixShapeAttr(ParametrizedAttribute):
    """The `m`, `n` of an `ldmatrix` / `stmatrix`: `#nvvm.ld_st_matrix_shape<m = 8, n = 8>`."""

    name = "nvvm.ld_st_matrix_shape"

    m: IntAttr
    n: IntAttr

    def __init__(self, m: int, n: int) -> None:
        super().__init__(IntAttr(m), IntAttr(n))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        accept_qualified_name(parser, cls.name)
        values: dict[str, int] = {}
        with parser.in_angle_brackets():
            for key in ("m", "n"):
                if key != "m":
                    parser.parse_punctuation(",")
                parser.parse_keyword(key)
                parser.parse_punctuation("=")
                values[key] = parser.parse_integer(allow_boolean=False)
        return IntAttr(values["m"]), IntAttr(values["n"])

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<m = {self.m.data}, n = {self.n.data}>")


@irdl_attr_definition
class LLVMConstantRangeAttr(ParametrizedAttribute):
    """LLVM's `#llvm.constant_range<i32, 0, 128>`: the half-open range [lower, upper).

    xDSL's `llvm` dialect has no such attribute; `nvvm` defines it because the special
    register ops carry it as their `range` property.
    """

    name = "llvm.constant_range"

    type: IntegerType
    lower: IntAttr
    upper: IntAttr

    def __init__(self, type: IntegerType, lower: int, upper: int) -> None:
        super().__init__(type, IntAttr(lower), IntAttr(upper))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            type = parser.parse_type()
            parser.parse_punctuation(",")
            lower = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(",")
            upper = parser.parse_integer(allow_boolean=False)
        if not isinstance(type, IntegerType):
            parser.raise_error("expected an integer type in a constant range")
        return cast(Attribute, type), IntAttr(lower), IntAttr(upper)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.type)
        printer.print_string(f", {self.lower.data}, {self.upper.data}>")


ATTRIBUTES: tuple[type[Attribute], ...] = tuple(
    value
    for value in list(globals().values())
    if isinstance(value, type)
    and issubclass(value, Attribute)
    and getattr(value, "name", "").startswith(("nvvm.", "llvm.constant_range"))
)
"""Every attribute this module defines (the dialect registers them)."""
