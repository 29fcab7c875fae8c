"""Conversions (`cvt`): f32 to tf32, packed f32/f16/bf16 pairs to 8-, 6- and 4-bit floats
and back, and the stochastically rounded f32x2 / f32x4 forms of sm_100a.

The target (or source) narrow float type is a `TypeAttr` (`dstTy` / `srcType`), printed in
parentheses after the result type: `: i16(f8E4M3FN)`. Upstream's messages name the types
in quotes, as MLIR's diagnostics print types.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cvt
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from xdsl.dialects.builtin import (
    BoolAttr,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
)
from xdsl.ir import Attribute, TypeAttribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tileas_py.diagnostics import PlainVerifyException
from tileas_py.dialects.nvvm.attrs import (
    FPRoundingMode,
    FPRoundingModeAttr,
    SaturationMode,
    SaturationModeAttr,
)
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import (
    BF16,
    BOOL_ATTR,
    F16,
    F32,
    I8,
    I16,
    I32,
    TYPE_ATTR,
    any_of,
    of_class,
    vector_of,
)
from tileas_py.dialects.nvvm.target import RequiresSMa

_FALSE = BoolAttr.from_bool(False)
_RND = of_class(FPRoundingModeAttr, FPRoundingModeAttr.SUMMARY)
_SAT = of_class(SaturationModeAttr, SaturationModeAttr.SUMMARY)
_RND_NONE = FPRoundingModeAttr(FPRoundingMode.NONE)
_SAT_NONE = SaturationModeAttr(SaturationMode.NONE)
_I16_OR_2xI8 = any_of(I16, vector_of([2], I8))


def _q(t: Attribute | str) -> str:
    return f"'{t}'"


F4E2M1FN = _q("f4E2M1FN")
F6E2M3FN = _q("f6E2M3FN")
F6E3M2FN = _q("f6E3M2FN")
F8E4M3FN = _q("f8E4M3FN")
F8E5M2 = _q("f8E5M2")
F8E8M0FNU = _q("f8E8M0FNU")


def _flag(attr: Attribute) -> bool:
    return bool(cast(Any, attr).value.data)


def _type_of(attr: Attribute) -> Attribute:
    assert isinstance(attr, TypeAttribute)
    return attr


@irdl_op_definition
class ConvertFloatToTF32Op(NVVMOp):
    """Converts f32 to tf32, returned in an i32 (`cvt.*.tf32.f32`).

    Example:
        %r = nvvm.convert.float.to.tf32 %x {rnd = #nvvm.fp_rnd_mode<rn>}
    """

    name = "nvvm.convert.float.to.tf32"

    src = operand_def(F32)
    rnd = prop_def(_RND, default_value=_RND_NONE)
    sat = prop_def(_SAT, default_value=_SAT_NONE)
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    res = result_def(I32)

    FORMAT: ClassVar[str] = "$src attr-dict"

    def verify_(self) -> None:
        rnd = self.rnd.data
        if rnd is FPRoundingMode.RNA:
            if _flag(self.relu):
                raise PlainVerifyException("Relu not supported with rna rounding mode.")
        elif rnd not in (FPRoundingMode.RN, FPRoundingMode.RZ):
            raise PlainVerifyException(
                "Only {rn,rz,rna} rounding modes supported for ConvertFloatToTF32Op."
            )


@irdl_op_definition
class ConvertF32x2ToF4x2Op(NVVMOp):
    """Converts two f32 to a packed pair of f4E2M1FN in an i8.

    Example:
        %r = nvvm.convert.f32x2.to.f4x2 %a, %b : i8 (f4E2M1FN)
    """

    name = "nvvm.convert.f32x2.to.f4x2"

    a = operand_def(F32)
    b = operand_def(F32)
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    dstTy = prop_def(TYPE_ATTR)
    dst = result_def(I8)

    FORMAT: ClassVar[str] = "$a `,` $b attr-dict `:` type($dst) `(` $dstTy `)`"

    def verify_(self) -> None:
        if not isinstance(self.dstTy, Float4E2M1FNType):
            raise VerifyException(
                f"Only {F4E2M1FN} type is supported for conversions from f32x2 to f4x2."
            )


@irdl_op_definition
class ConvertF32x2ToF6x2Op(NVVMOp):
    """Converts two f32 to a pair of 6-bit floats (`cvt.rn.satfinite.e2m3x2.f32`).

    Example:
        %r = nvvm.convert.f32x2.to.f6x2 %a, %b : vector<2xi8> (f6E2M3FN)
    """

    name = "nvvm.convert.f32x2.to.f6x2"

    a = operand_def(F32)
    b = operand_def(F32)
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    dstTy = prop_def(TYPE_ATTR)
    dst = result_def(_I16_OR_2xI8)

    FORMAT: ClassVar[str] = "$a `,` $b attr-dict `:` type($dst) `(` $dstTy `)`"

    def verify_(self) -> None:
        if not isinstance(self.dstTy, Float6E2M3FNType | Float6E3M2FNType):
            raise VerifyException(
                f"Only {F6E2M3FN} and {F6E3M2FN} types are supported for conversions "
                "from f32x2 to f6x2."
            )


@irdl_op_definition
class ConvertF32x2ToF8x2Op(NVVMOp):
    """Converts two f32 to a pair of 8-bit floats.

    Example:
        %r = nvvm.convert.f32x2.to.f8x2 %a, %b {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16 (f8E4M3FN)
    """

    name = "nvvm.convert.f32x2.to.f8x2"

    a = operand_def(F32)
    b = operand_def(F32)
    rnd = prop_def(_RND, default_value=_RND_NONE)
    sat = prop_def(_SAT, default_value=_SAT_NONE)
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    dstTy = prop_def(TYPE_ATTR)
    dst = result_def(_I16_OR_2xI8)

    FORMAT: ClassVar[str] = "$a `,` $b attr-dict `:` type($dst) `(` $dstTy `)`"

    def verify_(self) -> None:
        rnd = self.rnd.data
        dst = self.dstTy
        if isinstance(dst, Float8E4M3FNType | Float8E5M2Type):
            if rnd is not FPRoundingMode.RN:
                raise VerifyException(
                    "Only RN rounding mode is supported for conversions from f32x2 to "
                    f"{F8E4M3FN} and {F8E5M2} types"
                )
            if self.sat.data is not SaturationMode.SATFINITE:
                raise VerifyException(
                    "Only SATFINITE saturation mode is supported for conversions from "
                    f"f32x2 to {F8E4M3FN} and {F8E5M2} types"
                )
        elif isinstance(dst, Float8E8M0FNUType):
            if rnd not in (FPRoundingMode.RZ, FPRoundingMode.RP):
                raise VerifyException(
                    "Only RZ and RP rounding modes are supported for conversions from "
                    f"f32x2 to {F8E8M0FNU} type"
                )
            if _flag(self.relu):
                raise VerifyException(
                    f"relu not supported for conversions to {F8E8M0FNU} type"
                )
        else:
            raise VerifyException(
                f"Only {F8E4M3FN}, {F8E5M2}, and {F8E8M0FNU} types are supported for "
                "conversions from f32x2 to f8x2"
            )


@irdl_op_definition
class ConvertF16x2ToF8x2Op(NVVMOp):
    """Converts an f16 pair to a pair of 8-bit floats.

    Example:
        %r = nvvm.convert.f16x2.to.f8x2 %a : vector<2xf16> -> i16 (f8E4M3FN)
    """

    name = "nvvm.convert.f16x2.to.f8x2"

    a = operand_def(vector_of([2], F16))
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    dstTy = prop_def(TYPE_ATTR)
    dst = result_def(_I16_OR_2xI8)

    FORMAT: ClassVar[str] = "$a attr-dict `:` type($a) `->` type($dst) `(` $dstTy `)`"

    def verify_(self) -> None:
        if not isinstance(self.dstTy, Float8E4M3FNType | Float8E5M2Type):
            raise VerifyException(
                f"Only {F8E4M3FN} and {F8E5M2} types are supported for conversions "
                "from f16x2 to f8x2."
            )


@irdl_op_definition
class ConvertBF16x2ToF8x2Op(NVVMOp):
    """Converts a bf16 pair to a pair of f8E8M0FNU.

    Example:
        %r = nvvm.convert.bf16x2.to.f8x2 %a {rnd = #nvvm.fp_rnd_mode<rz>} : vector<2xbf16> -> i16 (f8E8M0FNU)
    """

    name = "nvvm.convert.bf16x2.to.f8x2"

    a = operand_def(vector_of([2], BF16))
    rnd = prop_def(_RND, default_value=_RND_NONE)
    sat = prop_def(_SAT, default_value=_SAT_NONE)
    dstTy = prop_def(TYPE_ATTR)
    dst = result_def(_I16_OR_2xI8)

    FORMAT: ClassVar[str] = "$a attr-dict `:` type($a) `->` type($dst) `(` $dstTy `)`"

    def verify_(self) -> None:
        if not isinstance(self.dstTy, Float8E8M0FNUType):
            raise VerifyException(
                f"Only {F8E8M0FNU} type is supported for conversions from bf16x2 to f8x2."
            )
        if self.rnd.data not in (FPRoundingMode.RZ, FPRoundingMode.RP):
            raise VerifyException(
                "Only RZ and RP rounding modes are supported for conversions from "
                "bf16x2 to f8x2."
            )


class _ConvertToFP16x2(NVVMOp):
    """Shared verification of the conversions from packed narrow floats to f16 / bf16."""

    ALLOWED: ClassVar[tuple[type[Attribute], ...]]
    MESSAGE: ClassVar[str]

    def verify_(self) -> None:
        src = self.properties["srcType"]
        if not isinstance(src, self.ALLOWED):
            raise VerifyException(self.MESSAGE)


_CONVERT_TO_FP16X2 = "$src attr-dict `:` type($src) `(` $srcType `)` `->` type($dst)"


@irdl_op_definition
class ConvertF8x2ToF16x2Op(_ConvertToFP16x2):
    """Converts a pair of 8-bit floats to f16x2.

    Example:
        %r = nvvm.convert.f8x2.to.f16x2 %a : vector<2xi8> (f8E4M3FN) -> vector<2xf16>
    """

    name = "nvvm.convert.f8x2.to.f16x2"

    src = operand_def(vector_of([2], I8))
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    srcType = prop_def(TYPE_ATTR)
    dst = result_def(vector_of([2], F16))

    FORMAT: ClassVar[str] = _CONVERT_TO_FP16X2
    ALLOWED: ClassVar[tuple[type[Attribute], ...]] = (Float8E4M3FNType, Float8E5M2Type)
    MESSAGE: ClassVar[str] = (
        f"Only {F8E4M3FN} and {F8E5M2} types are supported for conversions from f8x2 "
        "to f16x2."
    )


@irdl_op_definition
class ConvertF8x2ToBF16x2Op(_ConvertToFP16x2):
    """Converts a pair of f8E8M0FNU to bf16x2.

    Example:
        %r = nvvm.convert.f8x2.to.bf16x2 %a : vector<2xi8> (f8E8M0FNU) -> vector<2xbf16>
    """

    name = "nvvm.convert.f8x2.to.bf16x2"

    src = operand_def(vector_of([2], I8))
    srcType = prop_def(TYPE_ATTR)
    dst = result_def(vector_of([2], BF16))

    FORMAT: ClassVar[str] = _CONVERT_TO_FP16X2
    ALLOWED: ClassVar[tuple[type[Attribute], ...]] = (Float8E8M0FNUType,)
    MESSAGE: ClassVar[str] = (
        f"Only {F8E8M0FNU} type is supported for conversions from f8x2 to bf16x2."
    )


@irdl_op_definition
class ConvertF6x2ToF16x2Op(_ConvertToFP16x2):
    """Converts a pair of 6-bit floats to f16x2.

    Example:
        %r = nvvm.convert.f6x2.to.f16x2 %a : vector<2xi8> (f6E2M3FN) -> vector<2xf16>
    """

    name = "nvvm.convert.f6x2.to.f16x2"

    src = operand_def(vector_of([2], I8))
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    srcType = prop_def(TYPE_ATTR)
    dst = result_def(vector_of([2], F16))

    FORMAT: ClassVar[str] = _CONVERT_TO_FP16X2
    ALLOWED: ClassVar[tuple[type[Attribute], ...]] = (
        Float6E2M3FNType,
        Float6E3M2FNType,
    )
    MESSAGE: ClassVar[str] = (
        f"Only {F6E2M3FN} and {F6E3M2FN} types are supported for conversions from "
        "f6x2 to f16x2."
    )


@irdl_op_definition
class ConvertF4x2ToF16x2Op(_ConvertToFP16x2):
    """Converts a packed pair of f4E2M1FN (an i8) to f16x2.

    Example:
        %r = nvvm.convert.f4x2.to.f16x2 %a : i8 (f4E2M1FN) -> vector<2xf16>
    """

    name = "nvvm.convert.f4x2.to.f16x2"

    src = operand_def(I8)
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    srcType = prop_def(TYPE_ATTR)
    dst = result_def(vector_of([2], F16))

    FORMAT: ClassVar[str] = _CONVERT_TO_FP16X2
    ALLOWED: ClassVar[tuple[type[Attribute], ...]] = (Float4E2M1FNType,)
    MESSAGE: ClassVar[str] = (
        f"Only {F4E2M1FN} type is supported for conversions from f4x2 to f16x2."
    )


class _ConvertF32x2ToFPx2(NVVMOp):
    """Two f32 to packed f16 / bf16, rounded `rn`, `rz` or stochastically (`rs`, with
    `random_bits`)."""

    DST: ClassVar[str]

    def verify_(self) -> None:
        rnd = cast(FPRoundingModeAttr, self.properties["rnd"]).data
        if rnd not in (FPRoundingMode.RN, FPRoundingMode.RZ, FPRoundingMode.RS):
            raise VerifyException(
                "Only RN, RZ, and RS rounding modes are supported for conversions from "
                f"f32x2 to {self.DST}."
            )
        has_bits = len(self.operands) == 3
        if rnd is FPRoundingMode.RS and not has_bits:
            raise VerifyException("random_bits is required for RS rounding mode.")
        if rnd is not FPRoundingMode.RS and has_bits:
            raise VerifyException(
                "random_bits not supported for RN and RZ rounding modes."
            )


_F32X2_FORMAT = "$src_hi `,` $src_lo (`,` $random_bits^)? attr-dict `:` type($dst)"


@irdl_op_definition
class ConvertF32x2ToF16x2Op(_ConvertF32x2ToFPx2):
    """Converts two f32 to f16x2 (`cvt.{rn,rz,rs}.f16x2.f32`).

    Example:
        %r = nvvm.convert.f32x2.to.f16x2 %hi, %lo, %bits {rnd = #nvvm.fp_rnd_mode<rs>} : vector<2xf16>
    """

    name = "nvvm.convert.f32x2.to.f16x2"

    src_hi = operand_def(F32)
    src_lo = operand_def(F32)
    random_bits = opt_operand_def(I32)
    rnd = prop_def(_RND, default_value=_RND_NONE)
    sat = prop_def(_SAT, default_value=_SAT_NONE)
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    dst = result_def(vector_of([2], F16))

    traits = traits_def(Pure())

    FORMAT: ClassVar[str] = _F32X2_FORMAT
    DST: ClassVar[str] = "f16x2"


@irdl_op_definition
class ConvertF32x2ToBF16x2Op(_ConvertF32x2ToFPx2):
    """Converts two f32 to bf16x2 (`cvt.{rn,rz,rs}.bf16x2.f32`).

    Example:
        %r = nvvm.convert.f32x2.to.bf16x2 %hi, %lo {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
    """

    name = "nvvm.convert.f32x2.to.bf16x2"

    src_hi = operand_def(F32)
    src_lo = operand_def(F32)
    random_bits = opt_operand_def(I32)
    rnd = prop_def(_RND, default_value=_RND_NONE)
    sat = prop_def(_SAT, default_value=_SAT_NONE)
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    dst = result_def(vector_of([2], BF16))

    traits = traits_def(Pure())

    FORMAT: ClassVar[str] = _F32X2_FORMAT
    DST: ClassVar[str] = "bf16x2"


class _ConvertF32x4(NVVMOp):
    ALLOWED: ClassVar[tuple[type[Attribute], ...]]
    MESSAGE: ClassVar[str]

    def verify_(self) -> None:
        if not isinstance(_type_of(self.properties["dstTy"]), self.ALLOWED):
            raise VerifyException(self.MESSAGE)


_F32X4_FORMAT = (
    "$src `,` $rbits attr-dict `:` type($src) `->` type($dst) `(` $dstTy `)`"
)


@irdl_op_definition
class ConvertF32x4ToF8x4Op(_ConvertF32x4):
    """Converts four f32 to 8-bit floats with stochastic rounding (sm_100a).

    Example:
        %r = nvvm.convert.f32x4.to.f8x4 %v, %bits : vector<4xf32> -> vector<4xi8> (f8E4M3FN)
    """

    name = "nvvm.convert.f32x4.to.f8x4"

    src = operand_def(vector_of([4], F32))
    rbits = operand_def(I32)
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    dstTy = prop_def(TYPE_ATTR)
    dst = result_def(vector_of([4], I8))

    traits = traits_def(Pure(), RequiresSMa((100, 103)))

    FORMAT: ClassVar[str] = _F32X4_FORMAT
    ALLOWED: ClassVar[tuple[type[Attribute], ...]] = (Float8E4M3FNType, Float8E5M2Type)
    MESSAGE: ClassVar[str] = (
        f"Only {F8E4M3FN} and {F8E5M2} types are supported for conversions from "
        "f32x4 to f8x4."
    )


@irdl_op_definition
class ConvertF32x4ToF6x4Op(_ConvertF32x4):
    """Converts four f32 to 6-bit floats with stochastic rounding (sm_100a).

    Example:
        %r = nvvm.convert.f32x4.to.f6x4 %v, %bits : vector<4xf32> -> vector<4xi8> (f6E2M3FN)
    """

    name = "nvvm.convert.f32x4.to.f6x4"

    src = operand_def(vector_of([4], F32))
    rbits = operand_def(I32)
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    dstTy = prop_def(TYPE_ATTR)
    dst = result_def(vector_of([4], I8))

    traits = traits_def(Pure(), RequiresSMa((100, 103)))

    FORMAT: ClassVar[str] = _F32X4_FORMAT
    ALLOWED: ClassVar[tuple[type[Attribute], ...]] = (
        Float6E2M3FNType,
        Float6E3M2FNType,
    )
    MESSAGE: ClassVar[str] = (
        f"Only {F6E2M3FN} and {F6E3M2FN} types are supported for conversions from "
        "f32x4 to f6x4."
    )


@irdl_op_definition
class ConvertF32x4ToF4x4Op(_ConvertF32x4):
    """Converts four f32 to f4E2M1FN with stochastic rounding, packed in an i16
    (sm_100a).

    Example:
        %r = nvvm.convert.f32x4.to.f4x4 %v, %bits : vector<4xf32> -> i16 (f4E2M1FN)
    """

    name = "nvvm.convert.f32x4.to.f4x4"

    src = operand_def(vector_of([4], F32))
    rbits = operand_def(I32)
    relu = prop_def(BOOL_ATTR, default_value=_FALSE)
    dstTy = prop_def(TYPE_ATTR)
    dst = result_def(I16)

    traits = traits_def(Pure(), RequiresSMa((100, 103)))

    FORMAT: ClassVar[str] = _F32X4_FORMAT
    ALLOWED: ClassVar[tuple[type[Attribute], ...]] = (Float4E2M1FNType,)
    MESSAGE: ClassVar[str] = (
        f"Only {F4E2M1FN} type is supported for conversions from f32x4 to f4x4."
    )


CONVERT_OPS = (
    ConvertFloatToTF32Op,
    ConvertF32x2ToF4x2Op,
    ConvertF32x2ToF6x2Op,
    ConvertF32x2ToF8x2Op,
    ConvertF16x2ToF8x2Op,
    ConvertBF16x2ToF8x2Op,
    ConvertF8x2ToF16x2Op,
    ConvertF8x2ToBF16x2Op,
    ConvertF6x2ToF16x2Op,
    ConvertF4x2ToF16x2Op,
    ConvertF32x2ToF16x2Op,
    ConvertF32x2ToBF16x2Op,
    ConvertF32x4ToF8x4Op,
    ConvertF32x4ToF6x4Op,
    ConvertF32x4ToF4x4Op,
)
