"""Warp-level matrix ops of sm_70-sm_80: `wmma.load`, `wmma.store`, `wmma.mma`, and the
shared-memory fragment moves `ldmatrix` / `stmatrix`.

A WMMA configuration (shape, layout, element type, fragment) is valid when LLVM has an
intrinsic for it; `WMMA_*` below are upstream's tables of those configurations
(`NVVM_MMA_OPS` in NVVMOps.td), and the register types of each fragment follow upstream's
`inferMMAType`.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmwmmaload-nvvmwmmaloadop
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#warp-level-matrix-instructions-wmma
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import VectorType, f16, f32, f64, i32
from xdsl.dialects.llvm import LLVMStructType
from xdsl.ir import Attribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.nvvm.attrs import (
    LdStMatrixEltType,
    LdStMatrixEltTypeAttr,
    LdStMatrixShapeAttr,
    MMAFrag,
    MMAFragAttr,
    MMALayout,
    MMALayoutAttr,
    MMATypes,
    MMATypesAttr,
)
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import (
    ANY_PTR,
    ANY_TYPE,
    F64,
    I32,
    I32_ATTR,
    LLVM_STRUCT,
    LLVM_TYPE,
    address_space_of,
    any_of,
    int_value,
    of_class,
    ptr,
)
from tileas_py.dialects.nvvm.pointers import SHARED

_LAYOUT = of_class(MMALayoutAttr, MMALayoutAttr.SUMMARY)
_TYPE = of_class(MMATypesAttr, MMATypesAttr.SUMMARY)
_WIDE = ((16, 16, 16), (32, 8, 16), (8, 32, 16))

WMMA_LOAD_STORE: frozenset[tuple[tuple[int, int, int], str, str]] = frozenset(
    [(g, frag, t) for g in _WIDE for frag in "ab" for t in ("f16", "s8", "u8")]
    + [(g, frag, t) for g in _WIDE for frag in "cd" for t in ("f16", "f32", "s32")]
    + [((16, 16, 8), frag, "tf32") for frag in "ab"]
    + [((16, 16, 8), frag, "f32") for frag in "cd"]
    + [((8, 8, 4), frag, "f64") for frag in "abcd"]
)
"""(m, n, k), fragment, element type: upstream's `all_ldst_ops` (loads use a/b/c, stores d)."""

WMMA_MMA: frozenset[tuple[tuple[int, int, int], str, str]] = frozenset(
    [((8, 8, 4), "f64", "f64"), ((16, 16, 8), "tf32", "f32")]
    + [(g, "f16", d) for g in _WIDE for d in ("f16", "f32")]
    + [(g, a, "s32") for g in _WIDE for a in ("s8", "u8")]
)
"""(m, n, k), A type, D type: upstream's `all_wmma_ops`."""


def infer_mma_type(
    eltype: MMATypes, frag: MMAFrag, rows: int, cols: int
) -> tuple[Attribute, int]:
    """The register type of a fragment and how many registers hold it."""
    f16x2 = VectorType(f16, [2])
    a_or_b = frag in (MMAFrag.A, MMAFrag.B)
    if eltype is MMATypes.F16:
        return f16x2, 8 if a_or_b else 4
    if eltype is MMATypes.F32:
        return f32, 8
    if eltype is MMATypes.F64:
        return f64, 1 if a_or_b else 2
    if eltype is MMATypes.TF32:
        return i32, 4
    if eltype in (MMATypes.S8, MMATypes.U8):
        parallel = rows if frag is MMAFrag.A else cols
        return i32, {16: 2, 8: 1, 32: 4}.get(parallel, 0)
    return i32, 8


def infer_from_mnk(
    eltype: MMATypes, frag: MMAFrag, m: int, n: int, k: int
) -> tuple[Attribute, int]:
    rows, cols = {MMAFrag.A: (m, k), MMAFrag.B: (k, n)}.get(frag, (m, n))
    return infer_mma_type(eltype, frag, rows, cols)


def _struct(element: Attribute, count: int) -> LLVMStructType:
    return LLVMStructType.from_type_list([element] * count)


def _quoted(t: Attribute) -> str:
    return f"'{t}'"


def _mnk(op: NVVMOp) -> tuple[int, int, int]:
    return tuple(int_value(op.properties[k]) for k in "mnk")  # pyright: ignore[reportReturnType]


@irdl_op_definition
class WMMALoadOp(NVVMOp):
    """Loads a matrix fragment collectively across the warp (`wmma.load`).

    Example:
        %f = nvvm.wmma.load %ptr, %stride {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<a>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
    """

    name = "nvvm.wmma.load"

    ptr = operand_def(ANY_PTR)
    stride = operand_def(I32)
    m = prop_def(I32_ATTR)
    n = prop_def(I32_ATTR)
    k = prop_def(I32_ATTR)
    layout = prop_def(_LAYOUT)
    eltype = prop_def(_TYPE)
    frag = prop_def(of_class(MMAFragAttr, MMAFragAttr.SUMMARY))
    res = result_def(any_of(LLVM_STRUCT, F64))

    FORMAT: ClassVar[str] = "$ptr `,` $stride attr-dict `:` functional-type($ptr, $res)"

    def verify_(self) -> None:
        if address_space_of(self.ptr.type) not in (0, 1, 3):
            raise VerifyException("expected source pointer in memory space 0, 1, 3")
        m, n, k = _mnk(self)
        eltype = self.eltype.data
        frag = self.frag.data
        if ((m, n, k), frag.value, eltype.value) not in WMMA_LOAD_STORE:
            raise VerifyException("invalid attribute combination")
        element, count = infer_from_mnk(eltype, frag, m, n, k)
        if element == f64 and count == 1:
            if self.res.type != f64:
                raise VerifyException("expected destination type to be f64")
            return
        if self.res.type != _struct(element, count):
            raise VerifyException(
                f"expected destination type is a structure of {count} elements of type "
                f"{_quoted(element)}"
            )


@irdl_op_definition
class WMMAStoreOp(NVVMOp):
    """Stores a result fragment collectively across the warp (`wmma.store`).

    Example:
        nvvm.wmma.store %ptr, %stride, %d0, %d1, %d2, %d3 {eltype = #nvvm.mma_type<f16>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : !llvm.ptr<3>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>
    """

    name = "nvvm.wmma.store"

    ptr = operand_def(ANY_PTR)
    m = prop_def(I32_ATTR)
    n = prop_def(I32_ATTR)
    k = prop_def(I32_ATTR)
    layout = prop_def(_LAYOUT)
    eltype = prop_def(_TYPE)
    args = var_operand_def(LLVM_TYPE)
    stride = operand_def(I32)

    FORMAT: ClassVar[str] = (
        "$ptr `,` $stride `,` $args attr-dict `:` qualified(type($ptr)) `,` type($args)"
    )

    def verify_(self) -> None:
        if address_space_of(self.ptr.type) not in (0, 1, 3):
            raise VerifyException(
                "expected operands to be a source pointer in memory space 0, 1, 3"
            )
        m, n, k = _mnk(self)
        eltype = self.eltype.data
        if ((m, n, k), "d", eltype.value) not in WMMA_LOAD_STORE:
            raise VerifyException("invalid attribute combination")
        element, count = infer_from_mnk(eltype, MMAFrag.C, m, n, k)
        if len(self.args) != count:
            raise VerifyException(f"expected {count} data operands")
        if any(v.type != element for v in self.args):
            raise VerifyException(f"expected data operands of type {_quoted(element)}")


@irdl_op_definition
class WMMAMmaOp(NVVMOp):
    """Matrix multiply-accumulate on warp fragments (`wmma.mma`): the registers of A, B and
    C in order.

    Example:
        %d = nvvm.wmma.mma %a0, ..., %c7 {eltypeA = #nvvm.mma_type<tf32>, eltypeB = #nvvm.mma_type<f32>, k = 8 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (i32, ..., f32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
    """

    name = "nvvm.wmma.mma"

    m = prop_def(I32_ATTR)
    n = prop_def(I32_ATTR)
    k = prop_def(I32_ATTR)
    layoutA = prop_def(_LAYOUT)
    layoutB = prop_def(_LAYOUT)
    eltypeA = prop_def(_TYPE)
    eltypeB = prop_def(_TYPE)
    args = var_operand_def(LLVM_TYPE)
    res = result_def(LLVM_STRUCT)

    FORMAT: ClassVar[str] = "$args attr-dict `:` functional-type($args, $res)"

    def verify_(self) -> None:
        m, n, k = _mnk(self)
        a = self.eltypeA.data
        b = self.eltypeB.data
        if ((m, n, k), a.value, b.value) not in WMMA_MMA:
            raise VerifyException("invalid attribute combination")
        type_a = infer_from_mnk(a, MMAFrag.A, m, n, k)
        type_b = infer_from_mnk(a, MMAFrag.B, m, n, k)
        type_c = infer_from_mnk(b, MMAFrag.C, m, n, k)
        expected = [t for t, count in (type_a, type_b, type_c) for _ in range(count)]
        if len(self.args) != len(expected):
            raise VerifyException(f"expected {len(expected)} arguments")
        for index, (value, want) in enumerate(zip(self.args, expected, strict=True)):
            if value.type != want:
                raise VerifyException(
                    f"expected argument {index} to be of type {_quoted(want)}"
                )
        if self.res.type != _struct(*type_c):
            raise VerifyException(
                f"expected destination type is a structure of {type_c[1]} elements of "
                f"type {_quoted(type_c[0])}"
            )


_SHAPE = of_class(LdStMatrixShapeAttr, "Matrix shape for ldmatrix and stmatrix")
_ELT = of_class(LdStMatrixEltTypeAttr, LdStMatrixEltTypeAttr.SUMMARY)
_B8X16 = (LdStMatrixEltType.B8X16_B4X16_P64, LdStMatrixEltType.B8X16_B6X16_P32)


@irdl_op_definition
class StMatrixOp(NVVMOp):
    """Stores 1, 2 or 4 matrices from the warp's registers to shared memory (`stmatrix`).

    Example:
        nvvm.stmatrix %ptr, %r0, %r1 {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32
    """

    name = "nvvm.stmatrix"

    ptr = operand_def(ptr(SHARED))
    sources = var_operand_def(I32)
    layout = prop_def(_LAYOUT)
    shape = prop_def(_SHAPE)
    eltType = prop_def(_ELT)

    FORMAT: ClassVar[str] = "$ptr `,` $sources attr-dict `:` type(operands)"

    def verify_(self) -> None:
        if len(self.sources) not in (1, 2, 4):
            raise VerifyException("expected num attribute to be 1, 2 or 4")
        m, n = self.shape.m.data, self.shape.n.data
        elt = self.eltType.data
        if (m, n) == (8, 8):
            if elt is not LdStMatrixEltType.B16:
                raise VerifyException("expected element type to be B16 for 8x8 matrix")
        elif (m, n) == (16, 8):
            if elt is not LdStMatrixEltType.B8:
                raise VerifyException("expected element type to be B8 for 16x8 matrix")
            if self.layout.data is not MMALayout.COL:
                raise VerifyException("expected layout to be col for 16x8 matrix")
        else:
            raise VerifyException("expected shape to be 8x8 or 16x8")


@irdl_op_definition
class LdMatrixOp(NVVMOp):
    """Loads 1, 2 or 4 matrices from shared memory into the warp's registers (`ldmatrix`).

    Example:
        %r = nvvm.ldmatrix %ptr {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 1 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> i32
    """

    name = "nvvm.ldmatrix"

    ptr = operand_def(ptr(SHARED))
    num = prop_def(I32_ATTR)
    layout = prop_def(_LAYOUT)
    shape = prop_def(_SHAPE)
    eltType = prop_def(_ELT)
    res = result_def(ANY_TYPE)

    FORMAT: ClassVar[str] = "$ptr attr-dict `:` functional-type($ptr, $res)"

    def verify_(self) -> None:
        num = int_value(self.num)
        m, n = self.shape.m.data, self.shape.n.data
        elt = self.eltType.data
        layout = self.layout.data
        if (m, n) == (8, 8):
            if num not in (1, 2, 4):
                raise VerifyException(
                    "expected num attribute to be 1, 2 or 4 for 8x8 matrix"
                )
            if elt is not LdStMatrixEltType.B16:
                raise VerifyException("expected element type to be b16 for 8x8 matrix")
        elif (m, n) == (8, 16):
            if num not in (1, 2, 4):
                raise VerifyException(
                    "expected num attribute to be 1, 2 or 4 for 8x16 matrix"
                )
            if layout is not MMALayout.ROW:
                raise VerifyException("expected layout to be row for 8x16 matrix")
            if elt not in _B8X16:
                raise VerifyException(
                    "expected element type to be b8x16.b4x16_p64 or b8x16.b6x16_p32 "
                    "for 8x16 matrix"
                )
        elif (m, n) == (16, 16):
            if num not in (1, 2):
                raise VerifyException(
                    "expected num attribute to be 1 or 2 for 16x16 matrix"
                )
            if layout is not MMALayout.COL:
                raise VerifyException("expected layout to be col for 16x16 matrix")
            if elt not in (LdStMatrixEltType.B8, *_B8X16):
                raise VerifyException(
                    "expected element type to be b8, b8x16.b4x16_p64 or "
                    "b8x16.b6x16_p32 for 16x16 matrix"
                )
        else:
            raise VerifyException("expected shape to be 8x8, 8x16 or 16x16")
        count = num * 2 if (m, n) == (16, 16) else num
        if count == 1 and self.res.type != i32:
            raise VerifyException("expected destination type is i32")
        if count in (2, 4) and self.res.type != _struct(i32, count):
            raise VerifyException(
                f"expected destination type is a structure of {count} elements of "
                "type i32"
            )


WMMA_OPS = (WMMALoadOp, WMMAStoreOp, WMMAMmaOp, StMatrixOp, LdMatrixOp)
