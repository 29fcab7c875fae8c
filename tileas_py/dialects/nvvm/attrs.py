"""Attributes of the `nvvm` dialect: MMA shapes, enums and LLVM's constant ranges.

Every enum attribute prints as upstream's `#nvvm.name<value>`. Inside an op's custom syntax
the bare `<value>` form is printed, and both forms are accepted when parsing, as MLIR's
`parseCustomAttributeWithFallback` does, so upstream test inputs written either way parse.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#attributes
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import IntAttr, IntegerType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


def accept_qualified_name(parser: AttrParser, name: str) -> None:
    """Let `#name<...>` stand where only `<...>` is expected (MLIR's fallback parsing)."""
    parser.parse_optional_characters(f"#{name}")


class MMALayout(StrEnum):
    ROW = "row"
    COL = "col"


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


class MMAB1Op(StrEnum):
    NONE = "none"
    XOR_POPC = "xor_popc"
    AND_POPC = "and_popc"


class MMAIntOverflow(StrEnum):
    SATFINITE = "satfinite"
    WRAPPED = "wrapped"


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


class WGMMAScaleIn(StrEnum):
    ONE = "one"
    NEG = "neg"


class WGMMAScaleOut(StrEnum):
    ZERO = "zero"
    ONE = "one"


class ProxyKind(StrEnum):
    ALIAS = "alias"
    ASYNC = "async"
    ASYNC_GLOBAL = "async.global"
    ASYNC_SHARED = "async.shared"
    TENSORMAP = "tensormap"
    GENERIC = "generic"


class SharedSpace(StrEnum):
    CTA = "cta"
    CLUSTER = "cluster"


class MemScopeKind(StrEnum):
    CTA = "cta"
    CLUSTER = "cluster"
    GPU = "gpu"
    SYS = "sys"


class SetMaxRegisterAction(StrEnum):
    INCREASE = "increase"
    DECREASE = "decrease"


class BarrierReduction(StrEnum):
    AND = "and"
    OR = "or"
    POPC = "popc"


class CTAGroupKind(StrEnum):
    CTA_1 = "cta_1"
    CTA_2 = "cta_2"


class TMALoadMode(StrEnum):
    TILE = "tile"
    IM2COL = "im2col"
    IM2COL_W = "im2col_w"
    IM2COL_W_128 = "im2col_w_128"
    TILE_GATHER4 = "tile_gather4"


class TMAStoreMode(StrEnum):
    TILE = "tile"
    IM2COL = "im2col"
    IM2COL_W = "im2col_w"
    TILE_SCATTER4 = "tile_scatter4"


class Tcgen05FenceKind(StrEnum):
    BEFORE = "before"
    AFTER = "after"


class Tcgen05WaitKind(StrEnum):
    LOAD = "load"
    STORE = "store"


class Tcgen05CpShape(StrEnum):
    SHAPE_128x256b = "shape_128x256b"
    SHAPE_4x256b = "shape_4x256b"
    SHAPE_128x128b = "shape_128x128b"
    SHAPE_64x128b = "shape_64x128b"
    SHAPE_32x128b = "shape_32x128b"


class Tcgen05CpMulticast(StrEnum):
    NONE = "none"
    WARPX2_02_13 = "warpx2_02_13"
    WARPX2_01_23 = "warpx2_01_23"
    WARPX4 = "warpx4"


class Tcgen05CpSrcFormat(StrEnum):
    B6x16_P32 = "b6x16_p32"
    B4x16_P64 = "b4x16_p64"


class Tcgen05MMAKind(StrEnum):
    F16 = "f16"
    TF32 = "tf32"
    F8F6F4 = "f8f6f4"
    I8 = "i8"


class Tcgen05MMACollectorOp(StrEnum):
    DISCARD = "discard"
    LASTUSE = "lastuse"
    FILL = "fill"
    USE = "use"


# Each enum attribute below is `#nvvm.<mnemonic><value>`; the two overrides put the value
# in angle brackets and accept the qualified spelling in bare position.


@irdl_attr_definition
class MMALayoutAttr(EnumAttribute[MMALayout]):
    name = "nvvm.mma_layout"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> MMALayout:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class MMATypesAttr(EnumAttribute[MMATypes]):
    name = "nvvm.mma_type"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> MMATypes:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class MMAB1OpAttr(EnumAttribute[MMAB1Op]):
    name = "nvvm.mma_b1op"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> MMAB1Op:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class MMAIntOverflowAttr(EnumAttribute[MMAIntOverflow]):
    name = "nvvm.mma_int_overflow"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> MMAIntOverflow:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class WGMMATypesAttr(EnumAttribute[WGMMATypes]):
    name = "nvvm.wgmma_type"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> WGMMATypes:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class WGMMAScaleInAttr(EnumAttribute[WGMMAScaleIn]):
    name = "nvvm.wgmma_scale_in"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> WGMMAScaleIn:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class WGMMAScaleOutAttr(EnumAttribute[WGMMAScaleOut]):
    name = "nvvm.wgmma_scale_out"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> WGMMAScaleOut:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class ProxyKindAttr(EnumAttribute[ProxyKind]):
    name = "nvvm.proxy_kind"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ProxyKind:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class SharedSpaceAttr(EnumAttribute[SharedSpace]):
    name = "nvvm.shared_space"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> SharedSpace:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class MemScopeKindAttr(EnumAttribute[MemScopeKind]):
    name = "nvvm.mem_scope"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> MemScopeKind:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class SetMaxRegisterActionAttr(
    EnumAttribute[SetMaxRegisterAction], SpacedOpaqueSyntaxAttribute
):
    """Upstream gives this enum no syntax of its own: it prints as `#nvvm<action increase>`."""

    name = "nvvm.action"


@irdl_attr_definition
class BarrierReductionAttr(EnumAttribute[BarrierReduction]):
    name = "nvvm.reduction"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> BarrierReduction:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class CTAGroupKindAttr(EnumAttribute[CTAGroupKind]):
    name = "nvvm.cta_group"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> CTAGroupKind:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class TMALoadModeAttr(EnumAttribute[TMALoadMode]):
    name = "nvvm.tma_load_mode"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> TMALoadMode:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class TMAStoreModeAttr(EnumAttribute[TMAStoreMode]):
    name = "nvvm.tma_store_mode"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> TMAStoreMode:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class Tcgen05FenceKindAttr(EnumAttribute[Tcgen05FenceKind]):
    name = "nvvm.tcgen05_fence"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Tcgen05FenceKind:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class Tcgen05WaitKindAttr(EnumAttribute[Tcgen05WaitKind]):
    name = "nvvm.tcgen05_wait"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Tcgen05WaitKind:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class Tcgen05CpShapeAttr(EnumAttribute[Tcgen05CpShape]):
    name = "nvvm.tcgen05_cp_shape"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Tcgen05CpShape:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class Tcgen05CpMulticastAttr(EnumAttribute[Tcgen05CpMulticast]):
    name = "nvvm.tcgen05_cp_multicast"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Tcgen05CpMulticast:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class Tcgen05CpSrcFormatAttr(EnumAttribute[Tcgen05CpSrcFormat]):
    name = "nvvm.tcgen05_cp_src_fmt"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Tcgen05CpSrcFormat:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class Tcgen05MMAKindAttr(EnumAttribute[Tcgen05MMAKind]):
    name = "nvvm.tcgen05_mma_kind"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Tcgen05MMAKind:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            pos = parser.pos
            value = parser.parse_identifier()
            if value not in Tcgen05MMAKind._value2member_map_:
                parser.raise_error(
                    "expected ::mlir::NVVM::Tcgen05MMAKind to be one of: f8f6f4, i8, "
                    "f16, tf32",
                    pos,
                )
            return Tcgen05MMAKind(value)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class Tcgen05MMACollectorOpAttr(EnumAttribute[Tcgen05MMACollectorOp]):
    name = "nvvm.tcgen05_mma_collectorop"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Tcgen05MMACollectorOp:
        accept_qualified_name(parser, cls.name)
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


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
