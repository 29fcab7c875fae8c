"""The `cute_nvgpu` dialect: CuTe's NVIDIA GPU atoms as tileiras uses them.

An MMA atom names one hardware matrix instruction and how its operands are fed. The sm90
atom is Hopper's warp-group MMA (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply",
https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-instructions):
its verifier holds the legal `wgmma.mma_async` shapes and types, so that anything that
carries an atom (such as `nv_tileas.dot`) can be lowered to `nvvm.wgmma.*` without checks
of its own. Also here: atom values and their runtime fields (`make_mma_atom`,
`atom.set_value`), the atom applied to a whole tile (`atom.gemm`), the GMMA shared-memory
descriptor, `arch.make_warp_uniform`, and the sm100 SMEM -> TMEM (S2T) copy atom
that the Blackwell 2-CTA / 4-CTA paths read their multicast width from.

The sm100 atom is Blackwell's `tcgen05.mma` (PTX ISA, "TensorCore 5th Generation",
https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-mma-instructions-mma),
whose instruction descriptor (`hw.tcgen05_idesc`) it builds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, TypeVar

from xdsl.dialects.builtin import (
    I64,
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    FloatTF32Type,
    IntAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tileas_py.dialects.utils import verified
from tileas_py.hw.tcgen05_idesc import (
    TYPE_CODES,
    InstructionDescriptor,
    MmaKind,
    shape_error,
)
from tileas_py.hw.tcgen05_idesc import K as TCGEN05_K

SHARED_ADDRESS_SPACE = 3

E = TypeVar("E", bound=StrEnum)


class Major(StrEnum):
    """Which dimension of an MMA operand is contiguous in shared memory."""

    K = "k"
    MN = "mn"


@irdl_attr_definition
class MajorAttr(EnumAttribute[Major], SpacedOpaqueSyntaxAttribute):
    """An operand's majorness: `#cute_nvgpu<major k>`."""

    name = "cute_nvgpu.major"


class FragKind(StrEnum):
    """Where a warp-group MMA reads A from: shared memory (`ss`) or registers (`rs`)."""

    SS = "ss"
    RS = "rs"


@irdl_attr_definition
class FragKindAttr(EnumAttribute[FragKind], SpacedOpaqueSyntaxAttribute):
    """Where A comes from: `#cute_nvgpu<frag_kind ss>`."""

    name = "cute_nvgpu.frag_kind"


def element_type_name(t: Attribute) -> str:
    """The PTX name of an MMA element type (`f16`, `e4m3`, `s8`, `b1`, ...)."""
    match t:
        case Float16Type():
            return "f16"
        case BFloat16Type():
            return "bf16"
        case Float32Type():
            return "f32"
        case Float8E4M3FNType():
            return "e4m3"
        case Float8E5M2Type():
            return "e5m2"
        case IntegerType(width=IntAttr(data=1)):
            return "b1"
        case IntegerType(width=IntAttr(data=8), signedness=s):
            return "u8" if s.data == Signedness.UNSIGNED else "s8"
        case IntegerType(width=IntAttr(data=32)):
            return "s32"
        case FloatTF32Type():
            return "tf32"
        case _:
            return str(t)


# Input family -> (K per instruction, legal accumulator types, mn-major allowed,
# integer-style N lattice). PTX ISA, wgmma.mma_async "Matrix shape" and "Data types".
_WGMMA_FAMILIES: dict[str, tuple[int, tuple[str, ...], bool, bool]] = {
    "f16": (16, ("f16", "f32"), True, False),
    "bf16": (16, ("f32",), True, False),
    "tf32": (8, ("f32",), False, False),
    "fp8": (32, ("f16", "f32"), False, False),
    "int8": (32, ("s32",), False, True),
    "b1": (256, ("s32",), False, True),
}


def wgmma_family(a: str, b: str) -> str | None:
    """The wgmma input family of an (A, B) element-type pair, None when illegal."""
    fp8 = {"e4m3", "e5m2"}
    int8 = {"s8", "u8"}
    if a in fp8 and b in fp8:
        return "fp8"
    if a in int8 and b in int8:
        return "int8"
    if a == b and a in ("f16", "bf16", "tf32", "b1"):
        return a
    return None


def legal_wgmma_n(n: int, integer_lattice: bool) -> bool:
    if integer_lattice:
        return n in (8, 16, 24) or (n % 16 == 0 and 32 <= n <= 256)
    return n % 8 == 0 and 8 <= n <= 256


def _parse_enum(parser: AttrParser, enum: type[E], what: str) -> E:
    pos = parser.pos
    word = parser.parse_identifier()
    try:
        return enum(word)
    except ValueError:
        choices = ", ".join(f"`{e.value}`" for e in enum)
        parser.raise_error(f"expected {what} {choices}, got `{word}`", pos, parser.pos)


def _print_mma_operands(
    printer: Printer, atom: SM90MmaAtomType | SM100MmaAtomType
) -> None:
    """`MxNxK, ab_major = (a, b), elem_type = (A, B, C` of an MMA atom (the caller
    closes the list and adds its own fields)."""
    printer.print_string(f"{atom.m.data}x{atom.n.data}x{atom.k.data}")
    printer.print_string(
        f", ab_major = ({atom.a_major.data}, {atom.b_major.data}), elem_type = ("
    )
    printer.print_list(
        (atom.a_type, atom.b_type, atom.acc_type), printer.print_attribute
    )


def _parse_mma_operands(parser: AttrParser) -> list[Attribute]:
    """The parameters `_print_mma_operands` prints: M, N, K, A's and B's majorness and
    the three element types."""
    pos = parser.pos
    dims = parser.parse_dimension_list()
    if len(dims) != 3:
        parser.raise_error("expected an MxNxK shape", pos, parser.pos)
    parser.parse_punctuation(",")
    parser.parse_keyword("ab_major")
    parser.parse_punctuation("=")
    parser.parse_punctuation("(")
    a_major = _parse_enum(parser, Major, "majorness")
    parser.parse_punctuation(",")
    b_major = _parse_enum(parser, Major, "majorness")
    parser.parse_punctuation(")")
    parser.parse_punctuation(",")
    parser.parse_keyword("elem_type")
    parser.parse_punctuation("=")
    types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    if len(types) != 3:
        parser.raise_error("expected three element types (A, B, accumulator)")
    return [
        *(IntAttr(d) for d in dims),
        MajorAttr(a_major),
        MajorAttr(b_major),
        *types,
    ]


@irdl_attr_definition
class SM90MmaAtomType(ParametrizedAttribute, TypeAttribute):
    """
    A Hopper warp-group MMA atom: one `wgmma.mma_async.sync.aligned.m{M}n{N}k{K}` with
    its operand majorness, element types (A, B, accumulator) and A's residency.

    The verifier accepts exactly the PTX `wgmma.mma_async` shapes and types: M = 64;
    K = 16 (f16, bf16), 8 (tf32), 32 (e4m3 / e5m2, s8 / u8), 256 (b1); N a multiple of 8
    up to 256 (8, 16, 24 or a multiple of 16 for integer and b1 inputs); mn-major
    (transposed) operands only for f16 / bf16; `rs` only with a k-major A.

    Example: `!cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>`
    """

    name = "cute_nvgpu.sm90.mma"

    m: IntAttr
    n: IntAttr
    k: IntAttr
    a_major: MajorAttr
    b_major: MajorAttr
    a_type: TypeAttribute
    b_type: TypeAttribute
    acc_type: TypeAttribute
    frag_kind: FragKindAttr

    def __init__(
        self,
        shape: tuple[int, int, int],
        ab_major: tuple[Major, Major],
        elem_type: tuple[TypeAttribute, TypeAttribute, TypeAttribute],
        frag_kind: FragKind = FragKind.SS,
    ) -> None:
        m, n, k = shape
        super().__init__(
            IntAttr(m),
            IntAttr(n),
            IntAttr(k),
            MajorAttr(ab_major[0]),
            MajorAttr(ab_major[1]),
            *elem_type,
            FragKindAttr(frag_kind),
        )

    @property
    def shape(self) -> tuple[int, int, int]:
        return (self.m.data, self.n.data, self.k.data)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_mma_operands(printer, self)
            printer.print_string(f"), frag_kind = {self.frag_kind.data}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            operands = _parse_mma_operands(parser)
            parser.parse_punctuation(",")
            parser.parse_keyword("frag_kind")
            parser.parse_punctuation("=")
            frag_kind = _parse_enum(parser, FragKind, "fragment kind")
        params = (*operands, FragKindAttr(frag_kind))
        return verified(parser, cls, start, params)

    @property
    def family(self) -> str | None:
        return wgmma_family(
            element_type_name(self.a_type), element_type_name(self.b_type)
        )

    def verify(self) -> None:
        m, n, k = self.shape
        a, b = element_type_name(self.a_type), element_type_name(self.b_type)
        acc = element_type_name(self.acc_type)
        if m != 64:
            raise VerifyException(f"sm90 wgmma requires M = 64, got {m}")
        family = wgmma_family(a, b)
        if family is None:
            raise VerifyException(
                f"unsupported sm90 wgmma input types A = {a}, B = {b}"
            )
        family_k, accumulators, transposable, integer_lattice = _WGMMA_FAMILIES[family]
        if acc not in accumulators:
            raise VerifyException(
                f"sm90 wgmma with {a} inputs accumulates in "
                f"{' or '.join(accumulators)}, got {acc}"
            )
        if k != family_k:
            raise VerifyException(
                f"sm90 wgmma with {a} inputs requires K = {family_k}, got {k}"
            )
        if not legal_wgmma_n(n, integer_lattice):
            lattice = (
                "8, 16, 24 or a multiple of 16 up to 256"
                if integer_lattice
                else "a multiple of 8 between 8 and 256"
            )
            raise VerifyException(f"WGMMA N must be {lattice}, got {n}")
        majors = (self.a_major.data, self.b_major.data)
        if Major.MN in majors and not transposable:
            raise VerifyException(f"mn-major operands need f16 or bf16 inputs, got {a}")
        if self.frag_kind.data == FragKind.RS and self.a_major.data != Major.K:
            raise VerifyException("frag_kind = rs requires a k-major A operand")


TCGEN05_ACCUMULATORS: dict[MmaKind, tuple[str, ...]] = {
    MmaKind.F16: ("f16", "f32"),
    MmaKind.TF32: ("f32",),
    MmaKind.F8F6F4: ("f16", "f32"),
    MmaKind.I8: ("s32",),
}
"""The accumulator types of each tcgen05 kind (PTX ISA, tcgen05.mma "Data types")."""


def tcgen05_kind(a: str, b: str) -> MmaKind | None:
    """The `.kind` of a tcgen05.mma with these A and B types, None when illegal (f16 and
    bf16 may not be mixed; the i8 and f8f6f4 kinds mix their types)."""
    if a == b and a in TYPE_CODES[MmaKind.F16]:
        return MmaKind.F16
    if a == b and a in TYPE_CODES[MmaKind.TF32]:
        return MmaKind.TF32
    for kind in (MmaKind.I8, MmaKind.F8F6F4):
        if a in TYPE_CODES[kind] and b in TYPE_CODES[kind]:
            return kind
    return None


@irdl_attr_definition
class SM100MmaAtomType(ParametrizedAttribute, TypeAttribute):
    """
    A Blackwell (sm_100) MMA atom: one `tcgen05.mma.cta_group::G.kind::K` with A and B
    in shared memory, D in tensor memory: CuTe's `SM100_MMA_F16BF16_SS`,
    `SM100_MMA_TF32_SS`, `SM100_MMA_F8F6F4_SS` and `SM100_MMA_S8_SS`, and with
    `cta_group = 2` their `_2x1SM_SS` forms, where a pair of CTAs computes one M x N
    tile (each CTA holding M / 2 rows of A and D and N / 2 columns of B).

    The kind follows from the element types (A, B, accumulator); the verifier accepts
    the dense shapes of the PTX ISA (Table 39): M = 64 or 128 with N a multiple of 8 up
    to 256 for `cta_group = 1`, M = 128 or 256 with N a multiple of 16 up to 256 for
    `cta_group = 2`; K = 16 (f16, bf16), 8 (tf32), 32 (e4m3 / e5m2, s8 / u8).

    Example: `!cute_nvgpu.sm100.mma<128x256x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1>`
    """

    name = "cute_nvgpu.sm100.mma"

    m: IntAttr
    n: IntAttr
    k: IntAttr
    a_major: MajorAttr
    b_major: MajorAttr
    a_type: TypeAttribute
    b_type: TypeAttribute
    acc_type: TypeAttribute
    cta_group: IntAttr

    def __init__(
        self,
        shape: tuple[int, int, int],
        ab_major: tuple[Major, Major],
        elem_type: tuple[TypeAttribute, TypeAttribute, TypeAttribute],
        cta_group: int = 1,
    ) -> None:
        m, n, k = shape
        super().__init__(
            IntAttr(m),
            IntAttr(n),
            IntAttr(k),
            MajorAttr(ab_major[0]),
            MajorAttr(ab_major[1]),
            *elem_type,
            IntAttr(cta_group),
        )

    @property
    def shape(self) -> tuple[int, int, int]:
        return (self.m.data, self.n.data, self.k.data)

    @property
    def kind(self) -> MmaKind:
        kind = tcgen05_kind(
            element_type_name(self.a_type), element_type_name(self.b_type)
        )
        assert kind is not None, "checked by the verifier"
        return kind

    def instruction_descriptor(self) -> InstructionDescriptor:
        """The instruction descriptor of this atom's `tcgen05.mma` (PTX ISA Table 42)."""
        return InstructionDescriptor(
            self.kind,
            element_type_name(self.acc_type),
            element_type_name(self.a_type),
            element_type_name(self.b_type),
            m=self.m.data,
            n=self.n.data,
            transpose_a=self.a_major.data == Major.MN,
            transpose_b=self.b_major.data == Major.MN,
        )

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_mma_operands(printer, self)
            printer.print_string(f"), cta_group = {self.cta_group.data}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            operands = _parse_mma_operands(parser)
            parser.parse_punctuation(",")
            parser.parse_keyword("cta_group")
            parser.parse_punctuation("=")
            cta_group = parser.parse_integer(allow_boolean=False)
        params = (*operands, IntAttr(cta_group))
        return verified(parser, cls, start, params)

    def verify(self) -> None:
        m, n, k = self.shape
        a, b = element_type_name(self.a_type), element_type_name(self.b_type)
        acc = element_type_name(self.acc_type)
        group = self.cta_group.data
        if group not in (1, 2):
            raise VerifyException(f"sm100 mma cta_group must be 1 or 2, got {group}")
        kind = tcgen05_kind(a, b)
        if kind is None:
            raise VerifyException(f"unsupported sm100 mma input types A = {a}, B = {b}")
        if acc not in TCGEN05_ACCUMULATORS[kind]:
            raise VerifyException(
                f"sm100 mma kind::{kind} accumulates in "
                f"{' or '.join(TCGEN05_ACCUMULATORS[kind])}, got {acc}"
            )
        if k != TCGEN05_K[kind]:
            raise VerifyException(
                f"sm100 mma kind::{kind} requires K = {TCGEN05_K[kind]}, got {k}"
            )
        problem = shape_error(m, n, group)
        if problem is not None:
            raise VerifyException(f"sm100 mma shape: {problem}")


@irdl_attr_definition
class UniversalFmaAtomType(ParametrizedAttribute, TypeAttribute):
    """
    The universal FMA atom: one scalar fused multiply-add per thread, the fallback MMA
    atom of every target (A, B and accumulator element types).

    Example: `!cute_nvgpu.universal_fma<f32, f32, f32>`
    """

    name = "cute_nvgpu.universal_fma"

    a_type: TypeAttribute
    b_type: TypeAttribute
    acc_type: TypeAttribute

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_list(
                (self.a_type, self.b_type, self.acc_type), printer.print_attribute
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        types = parser.parse_comma_separated_list(
            parser.Delimiter.ANGLE, parser.parse_type
        )
        if len(types) != 3:
            parser.raise_error("expected three element types (A, B, accumulator)")
        return verified(parser, cls, start, tuple(types))


MmaAtomType = SM90MmaAtomType | SM100MmaAtomType | UniversalFmaAtomType
MmaAtomConstraint = (
    base(SM90MmaAtomType) | base(SM100MmaAtomType) | base(UniversalFmaAtomType)
)


@irdl_attr_definition
class SmemDescType(ParametrizedAttribute, TypeAttribute):
    """
    A GMMA shared-memory matrix descriptor: the 64-bit word `wgmma.mma_async` reads an
    SMEM operand through.

    Example: `!cute_nvgpu.smem_desc`
    """

    name = "cute_nvgpu.smem_desc"


# tcgen05.cp shapes in the order of tileiras's S2T shape enum: index 1 and 2 multicast to
# 2 warps' worth of TMEM lanes, index 3 to 4 (PTX ISA, tcgen05.cp "Shapes").
S2T_SHAPES = (
    "128x256b",
    "64x128b.warpx2::02_13",
    "64x128b.warpx2::01_23",
    "32x128b.warpx4",
    "128x128b",
    "4x256b",
)
S2T_CTA_GROUPS = (1, 2, 4)


@irdl_attr_definition
class S2tCopyAtomType(ParametrizedAttribute, TypeAttribute):
    """
    The sm100 shared-memory -> tensor-memory copy atom (`tcgen05.cp`), with its shape and
    the number of cooperating CTAs (`cta_group`, 1, 2 or 4).

    `multicast_width` is what the Blackwell 2-CTA / 4-CTA lowering reads: 4 for the
    `warpx4` shape, 2 for the `warpx2` shapes, 1 otherwise.

    Example: `!cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 2>`
    """

    name = "cute_nvgpu.sm100.s2t_copy"

    shape: StringAttr
    cta_group: IntAttr

    def __init__(self, shape: str, cta_group: int) -> None:
        super().__init__(StringAttr(shape), IntAttr(cta_group))

    @property
    def shape_index(self) -> int:
        return S2T_SHAPES.index(self.shape.data)

    @property
    def multicast_width(self) -> int:
        return {1: 2, 2: 2, 3: 4}.get(self.shape_index, 1)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string("shape = ")
            printer.print_string_literal(self.shape.data)
            printer.print_string(f", cta_group = {self.cta_group.data}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            parser.parse_keyword("shape")
            parser.parse_punctuation("=")
            shape = parser.parse_str_literal()
            parser.parse_punctuation(",")
            parser.parse_keyword("cta_group")
            parser.parse_punctuation("=")
            cta_group = parser.parse_integer(allow_boolean=False)
        return verified(parser, cls, start, (StringAttr(shape), IntAttr(cta_group)))

    def verify(self) -> None:
        if self.shape.data not in S2T_SHAPES:
            raise VerifyException(
                f"unknown tcgen05.cp shape '{self.shape.data}'; expected one of "
                + ", ".join(S2T_SHAPES)
            )
        if self.cta_group.data not in S2T_CTA_GROUPS:
            raise VerifyException(
                f"cta_group must be 1, 2 or 4, got {self.cta_group.data}"
            )


SWIZZLE_BYTES = (0, 32, 64, 128)
DESC_OFFSET_LIMIT = 1 << 18
"""LBO / SBO are stored >> 4 in 14-bit fields, so byte offsets stay below 2^18."""


@irdl_op_definition
class MakeGmmaSmemDescOp(IRDLOperation):
    """
    Builds the GMMA shared-memory descriptor of an SMEM operand tile.

    `lbo` / `sbo` are the leading / stride byte offsets (16-byte aligned), `base_offset`
    the 3-bit matrix base offset, `swizzle` the swizzle span in bytes (0 for none).
    Packing into the 64-bit word happens at lowering.

    Example:
    `%d = cute_nvgpu.make_gmma_smem_desc %smem lbo = 2048 sbo = 0 base_offset = 0 swizzle = 128 : !llvm.ptr<3>`
    """

    name = "cute_nvgpu.make_gmma_smem_desc"

    base_address = operand_def(LLVMPointerType)
    lbo = prop_def(IntegerAttr[I64])
    sbo = prop_def(IntegerAttr[I64])
    base_offset = prop_def(IntegerAttr[I64])
    swizzle = prop_def(IntegerAttr[I64])
    result = result_def(SmemDescType)

    traits = traits_def(Pure())

    assembly_format = (
        "$base_address `lbo` `=` $lbo `sbo` `=` $sbo `base_offset` `=` $base_offset"
        " `swizzle` `=` $swizzle attr-dict `:` type($base_address)"
    )

    def __init__(
        self,
        base_address: SSAValue | Operation,
        *,
        lbo: int,
        sbo: int,
        base_offset: int = 0,
        swizzle: int = 128,
    ) -> None:
        super().__init__(
            operands=[base_address],
            properties={
                "lbo": IntegerAttr(lbo, 64),
                "sbo": IntegerAttr(sbo, 64),
                "base_offset": IntegerAttr(base_offset, 64),
                "swizzle": IntegerAttr(swizzle, 64),
            },
            result_types=[SmemDescType()],
        )

    def verify_(self) -> None:
        pointer = self.base_address.type
        assert isinstance(pointer, LLVMPointerType)
        if pointer.addr_space != IntAttr(SHARED_ADDRESS_SPACE):
            raise VerifyException(
                "base address must be a shared-memory pointer (!llvm.ptr<3>)"
            )
        for field, value in (
            ("lbo", self.lbo.value.data),
            ("sbo", self.sbo.value.data),
        ):
            if value % 16 or not 0 <= value < DESC_OFFSET_LIMIT:
                raise VerifyException(
                    f"{field} must be a multiple of 16 below {DESC_OFFSET_LIMIT}, got {value}"
                )
        if not 0 <= self.base_offset.value.data < 8:
            raise VerifyException(
                f"base_offset must be between 0 and 7, got {self.base_offset.value.data}"
            )
        if self.swizzle.value.data not in SWIZZLE_BYTES:
            raise VerifyException(
                f"swizzle must be 0, 32, 64 or 128 bytes, got {self.swizzle.value.data}"
            )


class MmaAtomField(StrEnum):
    """A runtime field of an sm90 MMA atom."""

    ACCUM_C = "accum_c"
    """scale-d: 0 overwrites the accumulator, 1 accumulates into it."""
    NEG_A = "neg_a"
    """imm-scale-a = -1: negate A."""
    NEG_B = "neg_b"
    """imm-scale-b = -1: negate B."""


@irdl_attr_definition
class MmaAtomFieldAttr(EnumAttribute[MmaAtomField], SpacedOpaqueSyntaxAttribute):
    """A runtime field of an sm90 MMA atom: `#cute_nvgpu<atom_field accum_c>`."""

    name = "cute_nvgpu.atom_field"


@irdl_op_definition
class AtomSetValueOp(IRDLOperation):
    """
    Returns the atom with one runtime field set (`accum_c` is wgmma's scale-d; `neg_a` /
    `neg_b` its imm-scale-a / imm-scale-b, which integer atoms do not have).

    Example: `%acc = cute_nvgpu.atom.set_value %atom, accum_c, %true : !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>`
    """

    name = "cute_nvgpu.atom.set_value"

    T: ClassVar = VarConstraint("T", base(SM90MmaAtomType))

    atom = operand_def(T)
    field = prop_def(MmaAtomFieldAttr)
    value = operand_def(i1)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$atom `,` $field `,` $value attr-dict `:` type($atom)"

    def __init__(
        self,
        atom: SSAValue | Operation,
        field: MmaAtomField,
        value: SSAValue | Operation,
    ) -> None:
        super().__init__(
            operands=[atom, value],
            properties={"field": MmaAtomFieldAttr(field)},
            result_types=[SSAValue.get(atom).type],
        )

    def verify_(self) -> None:
        atom = self.atom.type
        assert isinstance(atom, SM90MmaAtomType)
        if self.field.data != MmaAtomField.ACCUM_C and atom.family in ("int8", "b1"):
            raise VerifyException(
                f"{self.field.data} is not supported by {element_type_name(atom.a_type)} "
                "wgmma atoms"
            )


@irdl_op_definition
class MakeMmaAtomOp(IRDLOperation):
    """
    An MMA atom value with its runtime fields at their defaults: `accum_c` set (the MMA
    accumulates into C), `neg_a` and `neg_b` clear. `atom.set_value` changes them.

    Example: `%atom = cute_nvgpu.make_mma_atom : !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>`
    """

    name = "cute_nvgpu.make_mma_atom"

    result = result_def(SM90MmaAtomType)

    traits = traits_def(Pure())

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, atom: SM90MmaAtomType) -> None:
        super().__init__(result_types=[atom])


def verify_gemm_operands(
    atom: SM90MmaAtomType | UniversalFmaAtomType,
    a: Attribute,
    b: Attribute,
    c: Attribute,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Check that A is M x K, B is K x N and C is M x N, with the atom's element types;
    the shapes of A and B. Shared by every op that applies an atom to a tile."""
    tiles = (a, b, c)
    shapes: list[tuple[int, ...]] = []
    for t in tiles:
        assert isinstance(t, TensorType)
        shapes.append(tuple(t.get_shape()))
    if any(len(s) != 2 for s in shapes) or not (
        shapes[0][1] == shapes[1][0]
        and shapes[0][0] == shapes[2][0]
        and shapes[1][1] == shapes[2][1]
    ):
        raise VerifyException(
            "expected A: MxK, B: KxN and C: MxN, got "
            + ", ".join(str(list(s)) for s in shapes)
        )
    for operand, t, expected in zip(
        "ABC", tiles, (atom.a_type, atom.b_type, atom.acc_type), strict=True
    ):
        assert isinstance(t, TensorType)
        if t.get_element_type() != expected:
            raise VerifyException(
                f"{operand} has element type {t.get_element_type()} but the atom "
                f"expects {expected}"
            )
    return shapes[0], shapes[1]


def verify_wgmma_tiling(
    atom: SM90MmaAtomType, a_shape: tuple[int, ...], b_shape: tuple[int, ...]
) -> None:
    """Check that the atom's M x N x K instruction tiles the M x K by K x N product."""
    (m, k), n = a_shape, b_shape[1]
    for dim, size, atom_size in (("M", m, atom.m), ("N", n, atom.n), ("K", k, atom.k)):
        if size % atom_size.data:
            raise VerifyException(
                f"tile {dim} = {size} is not a multiple of the atom's "
                f"{dim} = {atom_size.data}"
            )


@irdl_op_definition
class AtomGemmOp(IRDLOperation):
    """
    Applies an MMA atom to a whole tile, CuTe's `gemm(atom, D, A, B, C)`: `D = A * B + C`
    (`D = A * B` when the atom's `accum_c` is clear), negating A or B when `neg_a` /
    `neg_b` are set.

    A is M x K, B is K x N, C and D are M x N, with the atom's element types; the tile is
    covered by (M / atom M) x (N / atom N) x (K / atom K) atom instructions. For an sm90
    wgmma atom A comes from shared memory (`frag_kind = ss`) or registers (`rs`), B from
    shared memory, and `wait_group` is how many wgmma groups may stay in flight after the
    tile (when absent, the lowering's default).

    Example:
    ```
    %d = cute_nvgpu.atom.gemm %atom, %a, %b, %c wait_group = 0
        : !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>,
          tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #acc>
    ```
    """

    name = "cute_nvgpu.atom.gemm"

    T: ClassVar = VarConstraint("T", base(TensorType))

    atom = operand_def(SM90MmaAtomType)
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = operand_def(T)
    wait_group = opt_prop_def(IntegerAttr[I64])
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = (
        "$atom `,` $a `,` $b `,` $c (`wait_group` `=` $wait_group^)? attr-dict"
        " `:` type($atom) `,` type($a) `,` type($b) `->` type($c)"
    )

    def __init__(
        self,
        atom: SSAValue | Operation,
        a: SSAValue | Operation,
        b: SSAValue | Operation,
        c: SSAValue | Operation,
        wait_group: int | None = None,
    ) -> None:
        super().__init__(
            operands=[atom, a, b, c],
            properties={
                "wait_group": None
                if wait_group is None
                else IntegerAttr(wait_group, i64)
            },
            result_types=[SSAValue.get(c).type],
        )

    def verify_(self) -> None:
        atom = self.atom.type
        assert isinstance(atom, SM90MmaAtomType)
        a_shape, b_shape = verify_gemm_operands(
            atom, self.a.type, self.b.type, self.c.type
        )
        verify_wgmma_tiling(atom, a_shape, b_shape)
        if self.wait_group is not None and self.wait_group.value.data < 0:
            raise VerifyException("wait_group must be non-negative")


@irdl_op_definition
class MakeWarpUniformOp(IRDLOperation):
    """
    Asserts that a scalar has the same value in every lane of the warp, so that branches
    on it stay uniform (used for the rank predicates of the 2-CTA / 4-CTA copy paths).

    Example: `%u = cute_nvgpu.arch.make_warp_uniform %p : i1`
    """

    name = "cute_nvgpu.arch.make_warp_uniform"

    T: ClassVar = VarConstraint("T", base(IntegerType))

    value = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation) -> None:
        super().__init__(operands=[value], result_types=[SSAValue.get(value).type])


TENSOR_ADDRESS_SPACE = 6


@irdl_op_definition
class MakeS2tCopyAtomOp(IRDLOperation):
    """
    An S2T copy atom value (CuTe's `make_copy_atom(SM100_UTCCP_*)`): the shape of its
    `tcgen05.cp` and how many CTAs cooperate.

    Example: `%atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 2>`
    """

    name = "cute_nvgpu.make_s2t_copy_atom"

    result = result_def(S2tCopyAtomType)

    traits = traits_def(Pure())

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, atom: S2tCopyAtomType) -> None:
        super().__init__(result_types=[atom])


@irdl_op_definition
class AtomCopyS2tOp(IRDLOperation):
    """
    Copies the matrix that the shared-memory descriptor `desc` describes, in each
    cooperating CTA's shared memory, into that CTA's tensor memory at `tmem`, and signals
    its completion with one arrival on `mbarrier` in each of those CTAs (CuTe's
    `copy(atom, src, dst)` of an `SM100_UTCCP_*` atom, with its `umma_arrive`).

    Every thread of the CTA reaches the op. With `cta_group = 2` the cooperating CTAs are
    a pair of the cluster (ranks 2j and 2j + 1): the lowering initialises `mbarrier` in
    both (one arrival each), makes the pair meet, and the even CTA issues the pair's
    `tcgen05.cp.cta_group::2` and its multicast commit. `mbarrier` is the copy's own: it
    completes phase 0, which the readers wait for.

    Example:
    ```
    cute_nvgpu.atom.copy_s2t %atom, %tmem, %desc, %bar
        : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 2>, !llvm.ptr<6>, !llvm.ptr<3>
    ```
    """

    name = "cute_nvgpu.atom.copy_s2t"

    atom = operand_def(S2tCopyAtomType)
    tmem = operand_def(LLVMPointerType)
    desc = operand_def(I64)
    mbarrier = operand_def(LLVMPointerType)

    assembly_format = (
        "$atom `,` $tmem `,` $desc `,` $mbarrier attr-dict"
        " `:` type($atom) `,` type($tmem) `,` type($mbarrier)"
    )

    def __init__(
        self,
        atom: SSAValue | Operation,
        tmem: SSAValue | Operation,
        desc: SSAValue | Operation,
        mbarrier: SSAValue | Operation,
    ) -> None:
        super().__init__(operands=[atom, tmem, desc, mbarrier])

    def verify_(self) -> None:
        pointer = self.tmem.type
        assert isinstance(pointer, LLVMPointerType)
        if pointer.addr_space != IntAttr(TENSOR_ADDRESS_SPACE):
            raise VerifyException(
                "the destination of an S2T copy is a tensor-memory address "
                f"(!llvm.ptr<6>), got {pointer}"
            )
        atom = self.atom.type
        assert isinstance(atom, S2tCopyAtomType)
        if atom.cta_group.data == 4 and atom.multicast_width != 4:
            raise VerifyException(
                "a 4-CTA S2T copy multicasts to the four warps' lanes: its shape must "
                f"be 32x128b.warpx4, got '{atom.shape.data}'"
            )


S2T_COLUMNS = {"256b": 8, "128b": 4}
"""The 32-bit tensor-memory columns one row of each S2T shape's copy fills."""


@irdl_op_definition
class AtomPartitionDOp(IRDLOperation):
    """
    CTA `rank`'s slice of the tensor-memory destination of an S2T copy whose atom's
    `cta_group` CTAs split it (CuTe's `partition_D` of the tiled copy, seed 002's
    4-CTA path): the destination's columns are cut into slices of the atom's row width
    (4 columns for the 128-bit shapes, 8 for the 256-bit ones), and CTA `rank` takes
    slice `rank mod cta_group`.

    Example:
    ```
    %dst = cute_nvgpu.atom.partition_d %atom, %tmem, %rank
        : !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 4>, !llvm.ptr<6>
    ```
    """

    name = "cute_nvgpu.atom.partition_d"

    T: ClassVar = VarConstraint("T", base(LLVMPointerType))

    atom = operand_def(S2tCopyAtomType)
    tmem = operand_def(T)
    rank = operand_def(IntegerType(32))
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = (
        "$atom `,` $tmem `,` $rank attr-dict `:` type($atom) `,` type($tmem)"
    )

    def __init__(
        self,
        atom: SSAValue | Operation,
        tmem: SSAValue | Operation,
        rank: SSAValue | Operation,
    ) -> None:
        super().__init__(
            operands=[atom, tmem, rank], result_types=[SSAValue.get(tmem).type]
        )

    def verify_(self) -> None:
        pointer = self.tmem.type
        assert isinstance(pointer, LLVMPointerType)
        if pointer.addr_space != IntAttr(TENSOR_ADDRESS_SPACE):
            raise VerifyException(
                "partition_d slices a tensor-memory address (!llvm.ptr<6>), got "
                f"{pointer}"
            )

    @property
    def slice_columns(self) -> int:
        atom = self.atom.type
        assert isinstance(atom, S2tCopyAtomType)
        return S2T_COLUMNS[atom.shape.data.split(".")[0].split("x")[1]]


CuteNvgpu = Dialect(
    "cute_nvgpu",
    [
        MakeGmmaSmemDescOp,
        MakeMmaAtomOp,
        AtomSetValueOp,
        AtomGemmOp,
        MakeWarpUniformOp,
        MakeS2tCopyAtomOp,
        AtomCopyS2tOp,
        AtomPartitionDOp,
    ],
    [
        SM90MmaAtomType,
        SM100MmaAtomType,
        UniversalFmaAtomType,
        SmemDescType,
        S2tCopyAtomType,
        MajorAttr,
        FragKindAttr,
        MmaAtomFieldAttr,
    ],
)
