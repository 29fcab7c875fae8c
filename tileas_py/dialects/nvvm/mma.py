"""Warp-level matrix multiply-accumulate: `nvvm.mma.sync`, its sparse form `nvvm.mma.sp.sync`
and the block-scaled `nvvm.mma.block_scale` and `nvvm.mma.sp.block_scale`.

Each of the 32 threads of a warp passes its fragments of A, B and C; the op returns its
fragment of D as an LLVM struct. The PTX element types of A and B are written as
`multiplicandAPtxType`/`multiplicandBPtxType` unless the operand type implies them (f16
vectors, f64, f32 as tf32). Besides upstream's checks, an op inside a module whose target is
older than the variant's minimum SM (`tileas_py.hw.mma.MATRIX`) is rejected.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmmmasync-nvvmmmaop
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#warp-level-matrix-instructions-mma
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    UnitAttr,
    VectorType,
    f16,
    f32,
    f64,
    i16,
    i32,
)
from xdsl.dialects.llvm import LLVMStructType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tileas_py.diagnostics import PlainVerifyException
from tileas_py.dialects.nvvm.asm import split_properties
from tileas_py.dialects.nvvm.attrs import (
    BlockScaleFormat,
    BlockScaleFormatAttr,
    MMAB1Op,
    MMAB1OpAttr,
    MMABlockScaleKind,
    MMABlockScaleKindAttr,
    MMAIntOverflowAttr,
    MMAKindAttr,
    MMALayout,
    MMALayoutAttr,
    MMAShapeAttr,
    MMATypes,
    MMATypesAttr,
    ScaleVecSize,
    ScaleVecSizeAttr,
)
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import I16 as I16_ODS
from tileas_py.dialects.nvvm.ods import I32 as ODS_I32
from tileas_py.dialects.nvvm.ods import LLVM_STRUCT, LLVM_TYPE, UNIT_ATTR, of_class
from tileas_py.dialects.nvvm.target import target_archs
from tileas_py.hw import mma as hw_mma

_F16X2 = VectorType(f16, [2])
_INT4 = (MMATypes.S4, MMATypes.U4)
_INT8 = (MMATypes.S8, MMATypes.U8)
_INTEGER = (*_INT4, *_INT8, MMATypes.B1, MMATypes.S32)


def infer_operand_mma_type(type: Attribute, is_accumulator: bool) -> MMATypes | None:
    """The PTX type implied by an operand (or result) element type, if any."""
    if isinstance(type, Float64Type):
        return MMATypes.F64
    if isinstance(type, Float16Type) or type == _F16X2:
        return MMATypes.F16
    if isinstance(type, Float32Type):
        return MMATypes.F32 if is_accumulator else MMATypes.TF32
    if isinstance(type, IntegerType):
        return MMATypes.S32 if is_accumulator else None
    if isinstance(type, LLVMStructType):
        if not type.types.data:
            return None
        return infer_operand_mma_type(type.types.data[0], is_accumulator)
    return None


def _struct(types: Sequence[Attribute]) -> LLVMStructType:
    return LLVMStructType.from_type_list(types)


_F16X2X2 = _struct([_F16X2] * 2)
_F32X4 = _struct([f32] * 4)
_S32X4 = _struct([i32] * 4)
_S32X2 = _struct([i32] * 2)

Fragment = tuple[int, Attribute]
"""An operand list upstream's verifier accepts: so many registers of one type."""


@dataclass(frozen=True)
class MmaFragments:
    """The operand lists and results upstream's `nvvm.mma.sync` verifier accepts for one
    shape and A type (each list: any one of its options)."""

    a: tuple[Fragment, ...]
    b: tuple[Fragment, ...]
    c: tuple[Fragment, ...]
    result: tuple[Attribute, ...]


_M16_K_FACTOR: dict[MMATypes, int] = {
    MMATypes.TF32: 4,
    MMATypes.BF16: 8,
    MMATypes.F16: 8,
    MMATypes.S4: 32,
    MMATypes.U4: 32,
    MMATypes.B1: 128,
    MMATypes.S8: 16,
    MMATypes.U8: 16,
}
"""The A types of an M = 16 `mma.sync`, and the K of one 32-bit A or B register."""

_M16_FLOAT_RESULTS: dict[MMATypes, tuple[Attribute, ...]] = {
    MMATypes.TF32: (_F32X4,),
    MMATypes.BF16: (_F32X4,),
    MMATypes.F16: (_F16X2X2, _F32X4),
}

_M8_INTEGER = MmaFragments(((1, i32),), ((1, i32),), ((2, i32),), (_S32X2,))

_M8_FRAGMENTS: dict[MMATypes, MmaFragments] = {
    MMATypes.F16: MmaFragments(
        ((2, _F16X2),),
        ((2, _F16X2),),
        ((4, _F16X2), (8, f32)),
        (_struct([_F16X2] * 4), _struct([f32] * 8)),
    ),
    MMATypes.F64: MmaFragments(
        ((1, f64),), ((1, f64),), ((2, f64),), (_struct([f64] * 2),)
    ),
    **dict.fromkeys(_INTEGER, _M8_INTEGER),
}
"""The fragments of an M = 8 `mma.sync` by A type (one register per thread for A and B)."""


def _mma_sync_fragments(
    type_a: MMATypes, m: int, n: int, k: int
) -> MmaFragments | None:
    """What upstream's verifier expects of an `mma.sync` with this shape and A type; None
    where it knows no such variant."""
    if m == 8:
        return _M8_FRAGMENTS.get(type_a)
    if m != 16 or type_a not in _M16_K_FACTOR:
        return None
    per_register = k // _M16_K_FACTOR[type_a]
    element: Attribute = _F16X2 if type_a is MMATypes.F16 else i32
    integer = type_a in _INTEGER
    return MmaFragments(
        a=(((m // 8) * per_register, element),),
        b=(((n // 8) * per_register, element),),
        c=((4, i32),) if integer else ((2, _F16X2), (4, f32)),
        result=(_S32X4,) if integer else _M16_FLOAT_RESULTS[type_a],
    )


def _mma_sync_shapes(type_a: MMATypes) -> list[tuple[int, int, int]]:
    """The shapes of the `mma.sync` variants with this A type (`tileas_py.hw.mma.MATRIX`);
    upstream's verifier accepts the same ones, f64 at M = 16 aside, which it rejects
    before (`_M16_K_FACTOR`)."""
    if type_a.name not in hw_mma.MmaType.__members__:
        return []
    return [s.mnk for s in hw_mma.shapes_for(hw_mma.MmaType[type_a.name])]


@irdl_op_definition
class MmaOp(NVVMOp):
    """Cooperative warp matrix multiply-accumulate, `D = A * B + C` (`mma.sync.aligned`).

    `b1Op` (`xor_popc` or `and_popc`) is required for single-bit inputs and
    `intOverflowBehavior` (`wrapped` or `satfinite`) for 4- and 8-bit integer inputs.

    Example:
        %d = nvvm.mma.sync A[%a0, %a1, %a2, %a3] B[%b0, %b1] C[%c0, %c1]
            {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>,
             shape = #nvvm.shape<m = 16, n = 8, k = 16>}
            : (vector<2xf16>, vector<2xf16>, vector<2xf16>)
            -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
    """

    name = "nvvm.mma.sync"
    BEYOND_UPSTREAM: ClassVar[str] = (
        "the minimum SM of the shape and types on the module's targets (tileas_py.hw.mma)"
    )

    operandA = var_operand_def(LLVM_TYPE)
    operandB = var_operand_def(LLVM_TYPE)
    operandC = var_operand_def(LLVM_TYPE)
    shape = prop_def(MMAShapeAttr)
    b1Op = opt_prop_def(MMAB1OpAttr)
    intOverflowBehavior = opt_prop_def(MMAIntOverflowAttr)
    layoutA = prop_def(MMALayoutAttr)
    layoutB = prop_def(MMALayoutAttr)
    multiplicandAPtxType = opt_prop_def(MMATypesAttr)
    multiplicandBPtxType = opt_prop_def(MMATypesAttr)
    res = result_def(LLVM_STRUCT)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        result_type: LLVMStructType,
        a: Sequence[SSAValue],
        b: Sequence[SSAValue],
        c: Sequence[SSAValue],
        shape: MMAShapeAttr,
        *,
        ptx_types: tuple[MMATypes, MMATypes] | None = None,
        layouts: tuple[MMALayout, MMALayout] = (MMALayout.ROW, MMALayout.COL),
        b1_op: MMAB1OpAttr | None = None,
        int_overflow: MMAIntOverflowAttr | None = None,
    ) -> None:
        if ptx_types is None:
            inferred = (
                infer_operand_mma_type(a[0].type, False),
                infer_operand_mma_type(b[0].type, False),
            )
        else:
            inferred = ptx_types
        super().__init__(
            operands=[a, b, c],
            result_types=[result_type],
            properties={
                "shape": shape,
                "layoutA": MMALayoutAttr(layouts[0]),
                "layoutB": MMALayoutAttr(layouts[1]),
                "multiplicandAPtxType": None
                if inferred[0] is None
                else MMATypesAttr(inferred[0]),
                "multiplicandBPtxType": None
                if inferred[1] is None
                else MMATypesAttr(inferred[1]),
                "b1Op": b1_op,
                "intOverflowBehavior": int_overflow,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        fragments: list[list[UnresolvedOperand]] = []
        for name in ("A", "B", "C"):
            parser.parse_keyword(name)
            fragments.append(
                parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, parser.parse_unresolved_operand
                )
            )
        properties, attributes = split_properties(
            cls, parser.parse_optional_attr_dict()
        )
        parser.parse_punctuation(":")
        types_pos = parser.pos
        types = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_type
        )
        if len(types) != 3:
            parser.raise_error(
                f"custom op '{cls.name}' expected one type for each operand segment "
                f"but got {len(types)} types",
                types_pos,
            )
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        operands = [
            parser.resolve_operand(operand, type)
            for fragment, type in zip(fragments, types, strict=True)
            for operand in fragment
        ]
        for index, prop in enumerate(("multiplicandAPtxType", "multiplicandBPtxType")):
            # Upstream's parser infers A and B as accumulators; kept for identical IR.
            inferred = infer_operand_mma_type(types[index], is_accumulator=True)
            if prop in properties:
                continue
            if inferred is None:
                parser.raise_error(
                    f"custom op '{cls.name}' attribute {prop} is not provided "
                    "explicitly and cannot be inferred"
                )
            properties[prop] = MMATypesAttr(inferred)
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [len(f) for f in fragments]
        )
        return cls.create(
            operands=operands,
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        for name, fragment in (
            ("A", self.operandA),
            ("B", self.operandB),
            ("C", self.operandC),
        ):
            printer.print_string(f" {name}[")
            printer.print_list(fragment, printer.print_operand)
            printer.print_string("] ")
        hidden = {"operandSegmentSizes"}
        for prop, fragment in (
            ("multiplicandAPtxType", self.operandA),
            ("multiplicandBPtxType", self.operandB),
        ):
            if infer_operand_mma_type(fragment[0].type, False) is not None:
                hidden.add(prop)
        entries = {k: v for k, v in sorted(self.properties.items()) if k not in hidden}
        entries.update(self.attributes)
        printer.print_string(" ")
        printer.print_attr_dict(entries)
        printer.print_string(" : (")
        printer.print_list(
            (self.operandA[0].type, self.operandB[0].type, self.operandC[0].type),
            printer.print_attribute,
        )
        printer.print_string(") -> ")
        printer.print_attribute(self.res.type)

    def accumulator_ptx_type(self) -> MMATypes | None:
        return infer_operand_mma_type(self.operandC[0].type, True)

    def result_ptx_type(self) -> MMATypes | None:
        return infer_operand_mma_type(self.res.type, True)

    def verify_(self) -> None:
        if self.multiplicandAPtxType is None or self.multiplicandBPtxType is None:
            raise VerifyException(
                "requires multiplicandAPtxType and multiplicandBPtxType"
            )
        type_a = self.multiplicandAPtxType.data
        type_b = self.multiplicandBPtxType.data
        m, n, k = self.shape.mnk
        if m == 16 and type_a not in _M16_K_FACTOR:
            raise PlainVerifyException(f"invalid shape or multiplicand type: {type_a}")
        if m == 16 and self.result_ptx_type() != self.accumulator_ptx_type():
            raise VerifyException("ctype does not match dtype")
        expected = _mma_sync_fragments(type_a, m, n, k)
        _verify_fragments(
            self,
            m=m,
            n=n,
            k=k,
            allowed=_mma_sync_shapes(type_a) if expected is not None else [],
            expected_a=list(expected.a) if expected is not None else [],
            expected_b=list(expected.b) if expected is not None else [],
            expected_c=list(expected.c) if expected is not None else [],
            expected_result=list(expected.result) if expected is not None else [],
        )
        if type_a is MMATypes.B1 and self.b1Op is None:
            raise VerifyException("op requires b1Op attribute")
        if type_a in (*_INT4, *_INT8) and self.intOverflowBehavior is None:
            raise VerifyException("op requires intOverflowBehavior attribute")
        is_m8n8k4_f16 = (m, n, k) == (8, 8, 4) and type_a is MMATypes.F16
        row_col = (
            self.layoutA.data is MMALayout.ROW and self.layoutB.data is MMALayout.COL
        )
        if not is_m8n8k4_f16 and not row_col:
            raise VerifyException(
                "requires layoutA = #nvvm.mma_layout<row> and layoutB = "
                f"#nvvm.mma_layout<col> for shape <{m}, {n}, {k}> with element types "
                f"{type_a} and {type_b}. Only m8n8k4 with f16 supports other layouts."
            )
        self._verify_target(type_a, type_b)

    def _verify_target(self, type_a: MMATypes, type_b: MMATypes) -> None:
        shape = hw_mma.MmaShape.from_mnk(*self.shape.mnk)
        accumulator = self.accumulator_ptx_type()
        if shape is None or accumulator is None:
            return
        b1_op = None
        if self.b1Op is not None and self.b1Op.data is not MMAB1Op.NONE:
            b1_op = hw_mma.B1Op[self.b1Op.data.name]
        min_sm = hw_mma.min_sm(
            shape,
            hw_mma.MmaType.from_ptx(type_a),
            hw_mma.MmaType.from_ptx(type_b),
            hw_mma.MmaType.from_ptx(accumulator),
            b1_op,
        )
        for arch in target_archs(self):
            if min_sm is not None and arch.version < min_sm:
                raise VerifyException(f"is not supported on {arch}")


# ---------------------------------------------------------------------------------------
# The sparse and block-scaled forms share mma.sync's syntax: named operand lists
# (`A[...] B[...] ...`), an attribute dictionary that leaves out the PTX types the operand
# types imply, and `: (typeA, typeB, typeC) -> result`.

_SCALE_TYPES = (i32, i16, i16)
"""A scale operand list: the scale data, its byte index and its thread index."""


def _parse_fragments(
    parser: Parser, names: Sequence[str]
) -> list[list[UnresolvedOperand]]:
    fragments: list[list[UnresolvedOperand]] = []
    for name in names:
        parser.parse_keyword(name)
        fragments.append(
            parser.parse_optional_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_unresolved_operand
            )
            or []
        )
    return fragments


def _parse_signature(
    parser: Parser, count_message: Callable[[int], str]
) -> tuple[list[Attribute], Attribute]:
    """`: (tA, tB, tC) -> result`, with the operator's message if not three types."""
    parser.parse_punctuation(":")
    pos = parser.pos
    types: list[Attribute] = list(
        parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    )
    if len(types) != 3:
        parser.raise_error(count_message(len(types)), pos)
    parser.parse_punctuation("->")
    return types, parser.parse_type()


def _infer_ptx_types(
    op_name: str,
    properties: dict[str, Attribute],
    types: Sequence[Attribute],
    parser: Parser,
    *,
    required: bool,
    at: int,
) -> None:
    for index, prop in enumerate(("multiplicandAPtxType", "multiplicandBPtxType")):
        if prop in properties:
            continue
        inferred = infer_operand_mma_type(types[index], is_accumulator=False)
        if inferred is not None:
            properties[prop] = MMATypesAttr(inferred)
        elif required:
            parser.raise_error(
                f"custom op '{op_name}' attribute {prop} is not provided explicitly "
                "and cannot be inferred",
                at,
            )


def _print_fragments(
    printer: Printer,
    op: IRDLOperation,
    fragments: Sequence[tuple[str, Sequence[SSAValue]]],
) -> None:
    for name, values in fragments:
        printer.print_string(f" {name}[")
        printer.print_list(values, printer.print_operand)
        printer.print_string("]")
    hidden = {"operandSegmentSizes"}
    for prop, values in (
        ("multiplicandAPtxType", fragments[0][1]),
        ("multiplicandBPtxType", fragments[1][1]),
    ):
        if values and infer_operand_mma_type(values[0].type, False) is not None:
            hidden.add(prop)
    entries = {k: v for k, v in op.properties.items() if k not in hidden}
    entries.update(op.attributes)
    if entries:
        printer.print_string(" ")
        printer.print_attr_dict(dict(sorted(entries.items())))
    printer.print_string(" : (")
    printer.print_list(
        [values[0].type for _, values in fragments[:3]], printer.print_attribute
    )
    printer.print_string(") -> ")
    printer.print_attribute(op.results[0].type)


def _build(
    cls: type[NVVMOp],
    parser: Parser,
    *,
    fragments: list[list[UnresolvedOperand]],
    fragment_types: Sequence[Sequence[Attribute]],
    result: Attribute,
    properties: dict[str, Attribute],
    attributes: dict[str, Attribute],
) -> NVVMOp:
    operands = [
        parser.resolve_operand(value, types[min(index, len(types) - 1)])
        for fragment, types in zip(fragments, fragment_types, strict=True)
        for index, value in enumerate(fragment)
    ]
    # A scale list is three operands of their own; the others are one group each.
    sizes = [
        size
        for fragment, types in zip(fragments, fragment_types, strict=True)
        for size in ([1] * len(types) if len(types) > 1 else [len(fragment)])
    ]
    properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)
    return cls.create(
        operands=operands,
        result_types=[result],
        properties=properties,
        attributes=attributes,
    )


_SPARSE_FP8 = (
    MMATypes.E4M3,
    MMATypes.E5M2,
    MMATypes.E3M2,
    MMATypes.E2M3,
    MMATypes.E2M1,
)


_SPARSE_M16_K_FACTOR: dict[MMATypes, int] = {
    **{t: f for t, f in _M16_K_FACTOR.items() if t is not MMATypes.B1},
    **dict.fromkeys(_SPARSE_FP8, 32),
}
"""The A types of an M = 16 `mma.sp.sync`, and the K of one 32-bit B register."""

_SPARSE_M16_FLOAT_RESULTS: dict[MMATypes, tuple[Attribute, ...]] = {
    **_M16_FLOAT_RESULTS,
    **dict.fromkeys(_SPARSE_FP8, (_F16X2X2, _F32X4)),
}

_SPARSE_M8_K: dict[MMATypes, int] = {
    MMATypes.F16: 4,
    MMATypes.F64: 4,
    **dict.fromkeys(_INT4, 32),
    **dict.fromkeys(_INT8, 16),
}
"""The A types upstream's `mma.sp.sync` verifier accepts at M = 8, and their K."""


def _mma_sp_fragments(
    type_a: MMATypes, m: int, n: int, k: int
) -> tuple[MmaFragments, list[tuple[int, int, int]]] | None:
    """What upstream's verifier expects of an `mma.sp.sync` with this shape and A type
    (A holds half the elements of the dense form's), and the shapes it accepts; None
    where it knows no such variant."""
    if m == 8:
        if type_a not in _SPARSE_M8_K:
            return None
        return _M8_FRAGMENTS[type_a], [(8, 8, _SPARSE_M8_K[type_a])]
    if m != 16 or type_a not in _SPARSE_M16_K_FACTOR:
        return None
    k_factor = _SPARSE_M16_K_FACTOR[type_a]
    per_register = k // k_factor
    element: Attribute = _F16X2 if type_a is MMATypes.F16 else i32
    integer = type_a in (*_INT4, *_INT8)
    fragments = MmaFragments(
        a=(((m // 8) * per_register // 2, element),),
        b=(((n // 8) * per_register, element),),
        c=((4, i32),) if integer else ((2, _F16X2), (4, f32)),
        result=(_S32X4,) if integer else _SPARSE_M16_FLOAT_RESULTS[type_a],
    )
    shapes = [(16, 8, 2 * k_factor)]
    if type_a not in _SPARSE_FP8:
        shapes.append((16, 8, 4 * k_factor))
    return fragments, shapes


@irdl_op_definition
class MmaSpOp(NVVMOp):
    """Warp-level MMA with a 2:4 structured-sparse A (`mma.sp.sync.aligned`):
    `sparseMetadata` says which two of every four A elements are stored and `selector`
    which threads supply it.

    Example:
        %d = nvvm.mma.sp.sync A[%a0, %a1] B[%b0, %b1] C[%c0, %c1] sparseMetadata[%meta]
            selector[%sel] {shape = #nvvm.shape<m = 16, n = 8, k = 16>}
            : (vector<2xf16>, vector<2xf16>, vector<2xf16>)
            -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
    """

    name = "nvvm.mma.sp.sync"

    operandA = var_operand_def(LLVM_TYPE)
    operandB = var_operand_def(LLVM_TYPE)
    operandC = var_operand_def(LLVM_TYPE)
    sparseMetadata = operand_def(ODS_I32)
    sparsitySelector = operand_def(ODS_I32)
    shape = prop_def(MMAShapeAttr)
    intOverflowBehavior = opt_prop_def(MMAIntOverflowAttr)
    orderedMetadata = opt_prop_def(UNIT_ATTR)
    kind = opt_prop_def(of_class(MMAKindAttr, MMAKindAttr.SUMMARY))
    multiplicandAPtxType = opt_prop_def(MMATypesAttr)
    multiplicandBPtxType = opt_prop_def(MMATypesAttr)
    res = result_def(LLVM_STRUCT)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    _NAMES: ClassVar[tuple[str, ...]] = ("A", "B", "C", "sparseMetadata", "selector")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        fragments = _parse_fragments(parser, cls._NAMES)
        properties, attributes = split_properties(
            cls, parser.parse_optional_attr_dict()
        )
        types, result = _parse_signature(
            parser,
            lambda n: (
                f"custom op '{cls.name}' expected one type for each operand "
                f"segment but got {n} types"
            ),
        )
        _infer_ptx_types(cls.name, properties, types, parser, required=True, at=start)
        op = _build(
            cls,
            parser,
            fragments=fragments,
            fragment_types=[[t] for t in types] + [[i32], [i32]],
            result=result,
            properties=properties,
            attributes=attributes,
        )
        assert isinstance(op, cls)
        return op

    def print(self, printer: Printer) -> None:
        _print_fragments(
            printer,
            self,
            [
                ("A", self.operandA),
                ("B", self.operandB),
                ("C", self.operandC),
                ("sparseMetadata", [self.sparseMetadata]),
                ("selector", [self.sparsitySelector]),
            ],
        )

    def verify_(self) -> None:
        if self.multiplicandAPtxType is None or self.multiplicandBPtxType is None:
            raise VerifyException(
                "requires multiplicandAPtxType and multiplicandBPtxType"
            )
        type_a = self.multiplicandAPtxType.data
        m, n, k = self.shape.mnk
        if m == 16 and type_a not in _SPARSE_M16_K_FACTOR:
            raise PlainVerifyException(f"invalid shape or multiplicand type: {type_a}")
        if m == 16 and infer_operand_mma_type(
            self.res.type, True
        ) != infer_operand_mma_type(self.operandC[0].type, True):
            raise VerifyException("ctype does not match dtype")
        variant = _mma_sp_fragments(type_a, m, n, k)
        expected, allowed = variant if variant is not None else (None, [])
        _verify_fragments(
            self,
            m=m,
            n=n,
            k=k,
            allowed=allowed,
            expected_a=list(expected.a) if expected is not None else [],
            expected_b=list(expected.b) if expected is not None else [],
            expected_c=list(expected.c) if expected is not None else [],
            expected_result=list(expected.result) if expected is not None else [],
        )
        if type_a in (*_INT4, *_INT8) and self.intOverflowBehavior is None:
            raise VerifyException("op requires intOverflowBehavior attribute")


def _verify_fragments(
    op: MmaOp | MmaSpOp,
    *,
    m: int,
    n: int,
    k: int,
    allowed: list[tuple[int, int, int]],
    expected_a: list[tuple[int, Attribute]],
    expected_b: list[tuple[int, Attribute]],
    expected_c: list[tuple[int, Attribute]],
    expected_result: list[Attribute],
) -> None:
    """The shape, fragment and result checks mma.sync and mma.sp.sync share."""
    if not (expected_a and expected_b and expected_c) or (m, n, k) not in allowed:
        raise VerifyException(f"unimplemented variant for MMA shape <{m}, {n}, {k}>")
    for name, operands, expected in (
        ("A", op.operandA, expected_a),
        ("B", op.operandB, expected_b),
        ("C", op.operandC, expected_c),
    ):
        types = [o.type for o in operands]
        if not any(types == [t] * count for count, t in expected):
            options = "".join(f"{count}x{t} " for count, t in expected)
            got = ", ".join(str(t) for t in types)
            raise VerifyException(
                f"Could not match types for the {name} operands; expected one of "
                f"{options}but got {got}"
            )
    if op.res.type not in expected_result:
        options = ", ".join(str(t) for t in expected_result)
        raise VerifyException(
            "Could not match allowed types for the result; expected one of "
            f"{options} but got {op.res.type}"
        )


class _BlockScaleBase(NVVMOp):
    """The block-scaled MMAs' syntax (see above) and properties."""

    _NAMES: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        fragments = _parse_fragments(parser, cls._NAMES)
        properties, attributes = split_properties(
            cls, parser.parse_optional_attr_dict()
        )
        types, result = _parse_signature(
            parser, lambda n: f"custom op '{cls.name}' expected exactly 3 types"
        )
        if "orderedMetadata" in cls.get_irdl_definition().properties:
            properties.setdefault("orderedMetadata", UnitAttr())
        _infer_ptx_types(cls.name, properties, types, parser, required=False, at=start)
        sparse = [[i32], [i32]] if len(cls._NAMES) == 7 else []
        op = _build(
            cls,
            parser,
            fragments=fragments,
            fragment_types=[[t] for t in types] + sparse + [list(_SCALE_TYPES)] * 2,
            result=result,
            properties=properties,
            attributes=attributes,
        )
        assert isinstance(op, cls)
        return op

    def fragments(self) -> list[tuple[str, Sequence[SSAValue]]]:
        raise NotImplementedError

    def print(self, printer: Printer) -> None:
        _print_fragments(printer, self, self.fragments())


@irdl_op_definition
class MmaBlockScaleOp(_BlockScaleBase):
    """Warp-level MMA of MX-format operands scaled block-wise (`mma.sync.aligned...
    .block_scale`): `scaleA` and `scaleB` are each the scale data, its byte index and its
    thread index.

    Example:
        %d = nvvm.mma.block_scale A[%a0, %a1, %a2, %a3] B[%b0, %b1] C[%c0, %c1, %c2, %c3]
            scaleA[%sa, %ba, %ta] scaleB[%sb, %bb, %tb] {...} : (i32, i32, f32)
            -> !llvm.struct<(f32, f32, f32, f32)>
    """

    name = "nvvm.mma.block_scale"

    operandA = var_operand_def(LLVM_TYPE)
    operandB = var_operand_def(LLVM_TYPE)
    operandC = var_operand_def(LLVM_TYPE)
    scaleAData = operand_def(ODS_I32)
    byteIdA = operand_def(I16_ODS)
    threadIdA = operand_def(I16_ODS)
    scaleBData = operand_def(ODS_I32)
    byteIdB = operand_def(I16_ODS)
    threadIdB = operand_def(I16_ODS)
    shape = prop_def(MMAShapeAttr)
    multiplicandAPtxType = opt_prop_def(MMATypesAttr)
    multiplicandBPtxType = opt_prop_def(MMATypesAttr)
    scaleVecSize = prop_def(of_class(ScaleVecSizeAttr, ScaleVecSizeAttr.SUMMARY))
    blockScaleFormat = prop_def(
        of_class(BlockScaleFormatAttr, BlockScaleFormatAttr.SUMMARY)
    )
    kind = prop_def(of_class(MMABlockScaleKindAttr, MMABlockScaleKindAttr.SUMMARY))
    res = result_def(LLVM_STRUCT)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    _NAMES: ClassVar[tuple[str, ...]] = ("A", "B", "C", "scaleA", "scaleB")

    def fragments(self) -> list[tuple[str, Sequence[SSAValue]]]:
        return [
            ("A", self.operandA),
            ("B", self.operandB),
            ("C", self.operandC),
            ("scaleA", [self.scaleAData, self.byteIdA, self.threadIdA]),
            ("scaleB", [self.scaleBData, self.byteIdB, self.threadIdB]),
        ]

    def verify_(self) -> None:
        _verify_block_scale(self, sparse=False)


@irdl_op_definition
class MmaSpBlockScaleOp(_BlockScaleBase):
    """The block-scaled MMA with a 2:4 structured-sparse A
    (`mma.sp::ordered_metadata.sync.aligned...block_scale`).

    Example:
        %d = nvvm.mma.sp.block_scale A[...] B[...] C[...] sparseMetadata[%meta]
            selector[%sel] scaleA[%sa, %ba, %ta] scaleB[%sb, %bb, %tb] {...}
            : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    """

    name = "nvvm.mma.sp.block_scale"

    operandA = var_operand_def(LLVM_TYPE)
    operandB = var_operand_def(LLVM_TYPE)
    operandC = var_operand_def(LLVM_TYPE)
    sparseMetadata = operand_def(ODS_I32)
    sparsitySelector = operand_def(ODS_I32)
    scaleAData = operand_def(ODS_I32)
    byteIdA = operand_def(I16_ODS)
    threadIdA = operand_def(I16_ODS)
    scaleBData = operand_def(ODS_I32)
    byteIdB = operand_def(I16_ODS)
    threadIdB = operand_def(I16_ODS)
    shape = prop_def(MMAShapeAttr)
    multiplicandAPtxType = opt_prop_def(MMATypesAttr)
    multiplicandBPtxType = opt_prop_def(MMATypesAttr)
    orderedMetadata = opt_prop_def(UNIT_ATTR)
    scaleVecSize = prop_def(of_class(ScaleVecSizeAttr, ScaleVecSizeAttr.SUMMARY))
    blockScaleFormat = prop_def(
        of_class(BlockScaleFormatAttr, BlockScaleFormatAttr.SUMMARY)
    )
    kind = prop_def(of_class(MMABlockScaleKindAttr, MMABlockScaleKindAttr.SUMMARY))
    res = result_def(LLVM_STRUCT)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    _NAMES: ClassVar[tuple[str, ...]] = (
        "A",
        "B",
        "C",
        "sparseMetadata",
        "selector",
        "scaleA",
        "scaleB",
    )

    def fragments(self) -> list[tuple[str, Sequence[SSAValue]]]:
        return [
            ("A", self.operandA),
            ("B", self.operandB),
            ("C", self.operandC),
            ("sparseMetadata", [self.sparseMetadata]),
            ("selector", [self.sparsitySelector]),
            ("scaleA", [self.scaleAData, self.byteIdA, self.threadIdA]),
            ("scaleB", [self.scaleBData, self.byteIdB, self.threadIdB]),
        ]

    def verify_(self) -> None:
        if self.orderedMetadata is None:
            raise VerifyException("'orderedMetadata' attribute is mandatory")
        _verify_block_scale(self, sparse=True)


def _verify_block_scale(op: MmaBlockScaleOp | MmaSpBlockScaleOp, sparse: bool) -> None:
    """Upstream's geometry, kind, scale-vector-size and format rules of the block-scaled
    MMAs (the sparse ones have twice the K)."""
    m, n, k = op.shape.mnk
    wide, narrow = (128, 64) if sparse else (64, 32)
    kind = op.kind.data
    size = op.scaleVecSize.data
    fmt = op.blockScaleFormat.data
    name = f"mma.m16n8k{wide}" if (m, n, k) == (16, 8, wide) else ""
    if name:
        types = (op.multiplicandAPtxType, op.multiplicandBPtxType)
        if any(t is None or t.data is not MMATypes.E2M1 for t in types):
            raise VerifyException(
                f"unsupported MMATypes attribute for {name}.(mxf4nvf4|mxf4)"
            )
        if kind is MMABlockScaleKind.MXF4:
            if size is not ScaleVecSize.X2:
                raise VerifyException(
                    f"unsupported ScaleVecSize attribute for {name}.mxf4"
                )
            if fmt is not BlockScaleFormat.UE8M0:
                raise VerifyException(
                    f"unsupported BlockScaleFormat attribute for {name}.mxf4"
                )
        elif kind is MMABlockScaleKind.MXF4NVF4:
            if (size, fmt) not in (
                (ScaleVecSize.X2, BlockScaleFormat.UE8M0),
                (ScaleVecSize.X4, BlockScaleFormat.UE4M3),
            ):
                raise VerifyException(
                    "unsupported ScaleVecSize and BlockScaleFormat attributes for "
                    f"{name}.mxf4nvf4"
                )
        else:
            raise VerifyException(f"unsupported Kind attribute for {name}")
    elif (m, n, k) == (16, 8, narrow):
        if (kind, size, fmt) != (
            MMABlockScaleKind.MXF8F6F4,
            ScaleVecSize.X1,
            BlockScaleFormat.UE8M0,
        ):
            raise VerifyException(
                "unsupported Kind, ScaleVecSize and BlockScaleFormat attributes for "
                f"mma.m16n8k{narrow}"
            )
    else:
        sparse_text = "sparse " if sparse else ""
        raise VerifyException(
            f"unsupported Geom for {sparse_text}mma with block scaling"
        )


MMA_OPS = (MmaOp, MmaSpOp, MmaBlockScaleOp, MmaSpBlockScaleOp)
