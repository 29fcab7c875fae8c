"""Warp-level `mma.sync`: cicc's packed MMA descriptor, its PTX string builder, and the
shape x type x architecture matrix.

cicc (reference note 004, "Packed MMA Descriptor") encodes every MMA operation as one 64-bit
word that its PTX printer queries by key (`"shape"`, `"aty"`, `"rnd"`, ...). Some keys share
bits and are only meaningful in the context that queries them: `rnd` (bits 2:0) overlaps
`rowcol`/`mid` (bits 0 and 2:1, used by fragment loads and stores), and `ety` (bits 27:24,
the accumulator type of a fragment store) overlaps `al`/`bl`. `MmaDescriptor` is the view
`mma.sync` uses; `pack`/`query` give raw access to every key.

The PTX builder prints the modifiers ptxas accepts: a rounding mode only on an f64 MMA and
`.satfinite` only on a 4- or 8-bit integer one (the `rnd` bits mean something else in
other contexts, and ptxas rejects the modifiers elsewhere: "Illegal rounding modifier for
instruction 'mma'", "Illegal modifier '.satfinite' for instruction 'mma'").

The matrix of legal (shape, input type, accumulator type, single-bit operation, minimum SM)
combinations is what ptxas 13.5 accepts for `mma.sync.aligned` (sm_70 and sm_72, which
ptxas 13 no longer targets, from the PTX ISA); test/hw/test_mma_vs_ptxas.py assembles one
probe per rule with ptxas, and docs/fidelity.md lists where it differs from the reference
notes.

PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#warp-level-matrix-instructions-mma
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class MmaDescriptorError(Exception):
    """A descriptor word that cicc's PTX builder would reject (its fatal-error texts)."""


class MmaType(IntEnum):
    """cicc's element-type enum (descriptor fields `aty`, `bty`, `ety`)."""

    B1 = 1
    S4 = 2
    U4 = 3
    S8 = 4
    U8 = 5
    F16 = 6
    BF16 = 7
    TF32 = 8
    F64 = 9
    F32 = 10
    S32 = 11

    @property
    def ptx(self) -> str:
        return self.name.lower()

    @property
    def bits(self) -> int:
        return _TYPE_BITS[self]

    @classmethod
    def from_ptx(cls, name: str) -> MmaType:
        return cls[name.upper()]


_TYPE_BITS = {
    MmaType.B1: 1,
    MmaType.S4: 4,
    MmaType.U4: 4,
    MmaType.S8: 8,
    MmaType.U8: 8,
    MmaType.F16: 16,
    MmaType.BF16: 16,
    MmaType.TF32: 19,
    MmaType.F64: 64,
    MmaType.F32: 32,
    MmaType.S32: 32,
}


class MmaShape(IntEnum):
    """cicc's shape enum (descriptor field `shape`)."""

    M8N8K4 = 0x01
    M8N8K16 = 0x02
    M8N8K32 = 0x03
    M8N8K64 = 0x04
    M8N8K128 = 0x05
    M8N32K16 = 0x06
    M16N8K4 = 0x10
    M16N8K8 = 0x11
    M16N8K16 = 0x12
    M16N8K32 = 0x13
    M16N8K64 = 0x14
    M16N8K128 = 0x15
    M16N8K256 = 0x16
    M16N16K16 = 0x17
    M32N8K16 = 0x18
    M16N16K8 = 0x19

    @property
    def ptx(self) -> str:
        return self.name.lower()

    @property
    def mnk(self) -> tuple[int, int, int]:
        m, rest = self.name[1:].split("N")
        n, k = rest.split("K")
        return int(m), int(n), int(k)

    @classmethod
    def from_mnk(cls, m: int, n: int, k: int) -> MmaShape | None:
        return cls.__members__.get(f"M{m}N{n}K{k}")


class Layout(IntEnum):
    ROW = 0
    COL = 1


class B1Op(IntEnum):
    """Field `opc`: the reduction of a single-bit MMA."""

    DEFAULT = 0
    AND_POPC = 1
    XOR_POPC = 2


class Rounding(IntEnum):
    """Field `rnd`: the rounding modifier of an f64 MMA."""

    NONE = 0
    RN = 1
    RM = 2
    RP = 3
    RZ = 4


class Fragment(IntEnum):
    """Field `mid`: which matrix a fragment load or store addresses."""

    A = 0
    B = 1
    C = 2
    D = 3


FIELDS: dict[str, tuple[int, int]] = {
    "rowcol": (0, 1),
    "mid": (1, 2),
    "rnd": (0, 3),
    "opc": (4, 4),
    "aty": (8, 8),
    "bty": (16, 8),
    "al": (24, 2),
    "bl": (26, 2),
    "ety": (24, 4),
    "satf": (28, 1),
    "shape": (32, 8),
}
"""Query key -> (lowest bit, width), exactly as the PTX builder extracts them."""


def query(word: int, key: str) -> int:
    """The value the PTX builder reads for `key` from a descriptor word."""
    low, width = FIELDS[key]
    return (word >> low) & ((1 << width) - 1)


def pack(**fields: int) -> int:
    """A descriptor word with the given keys set; overlapping keys must agree bit for bit."""
    word = 0
    claimed = 0
    for key, value in fields.items():
        low, width = FIELDS[key]
        mask = ((1 << width) - 1) << low
        if value < 0 or value >> width:
            raise MmaDescriptorError(f"value {value} does not fit field '{key}'")
        bits = value << low
        if (word ^ bits) & claimed & mask:
            raise MmaDescriptorError(
                f"field '{key}' disagrees with an overlapping field"
            )
        word |= bits
        claimed |= mask
    return word


def element_type(code: int) -> MmaType:
    if code not in MmaType._value2member_map_:
        raise MmaDescriptorError("Wrong MMA element type")
    return MmaType(code)


def shape_of(code: int) -> MmaShape:
    if code not in MmaShape._value2member_map_:
        raise MmaDescriptorError(f"unrecognized MMA shape enum 0x{code:02x}")
    return MmaShape(code)


@dataclass(frozen=True)
class MmaDescriptor:
    """The fields of an `mma.sync` descriptor word."""

    shape: MmaShape
    a_type: MmaType
    b_type: MmaType
    a_layout: Layout = Layout.ROW
    b_layout: Layout = Layout.COL
    satfinite: bool = False
    b1_op: B1Op = B1Op.DEFAULT
    rounding: Rounding = Rounding.NONE

    def encode(self) -> int:
        return pack(
            rnd=self.rounding,
            opc=self.b1_op,
            aty=self.a_type,
            bty=self.b_type,
            al=self.a_layout,
            bl=self.b_layout,
            satf=int(self.satfinite),
            shape=self.shape,
        )

    @classmethod
    def decode(cls, word: int) -> MmaDescriptor:
        rounding = query(word, "rnd")
        if rounding not in Rounding._value2member_map_:
            raise MmaDescriptorError(f"unrecognized rounding mode {rounding}")
        b1_op = query(word, "opc")
        if b1_op not in B1Op._value2member_map_:
            raise MmaDescriptorError(f"unrecognized MMA operation {b1_op}")
        return cls(
            shape=shape_of(query(word, "shape")),
            a_type=element_type(query(word, "aty")),
            b_type=element_type(query(word, "bty")),
            a_layout=Layout.COL if query(word, "al") else Layout.ROW,
            b_layout=Layout.COL if query(word, "bl") else Layout.ROW,
            satfinite=bool(query(word, "satf")),
            b1_op=B1Op(b1_op),
            rounding=Rounding(rounding),
        )


def mma_sync_ptx(word: int, c_type: int, d_type: int | None = None) -> str:
    """The PTX mnemonic cicc prints for a descriptor word and the C (and D, when it
    differs) type codes, e.g. `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`."""
    desc = MmaDescriptor.decode(word)
    c = element_type(c_type)
    d = c if d_type is None else element_type(d_type)
    parts = [
        "mma.sync.aligned",
        desc.shape.ptx,
        "col" if desc.a_layout else "row",
        "col" if desc.b_layout else "row",
    ]
    if desc.rounding is not Rounding.NONE and desc.a_type is MmaType.F64:
        parts.append(desc.rounding.name.lower())
    if desc.satfinite and desc.a_type in SATURATING_INPUTS:
        parts.append("satfinite")
    parts += [d.ptx, desc.a_type.ptx, desc.b_type.ptx, c.ptx]
    if desc.b1_op is B1Op.AND_POPC:
        parts.append("and.popc")
    elif desc.b1_op is B1Op.XOR_POPC:
        parts.append("xor.popc")
    return ".".join(parts)


SATURATING_INPUTS = frozenset({MmaType.S4, MmaType.U4, MmaType.S8, MmaType.U8})
"""The input types whose MMA takes `.satfinite`."""

_ANY_B1_OP = frozenset({B1Op.XOR_POPC, B1Op.AND_POPC})


@dataclass(frozen=True)
class MmaVariant:
    """One row of the matrix: a shape, its input types, accumulators, the single-bit
    operations it allows (single-bit inputs only) and its minimum SM."""

    shape: MmaShape
    inputs: frozenset[MmaType]
    accumulators: frozenset[MmaType]
    min_sm: int
    b1_ops: frozenset[B1Op] = frozenset()


def _variant(
    shape: MmaShape,
    inputs: set[MmaType],
    accumulators: set[MmaType],
    min_sm: int,
    b1_ops: frozenset[B1Op] = frozenset(),
) -> MmaVariant:
    return MmaVariant(shape, frozenset(inputs), frozenset(accumulators), min_sm, b1_ops)


_F16_ACC = {MmaType.F16, MmaType.F32}
_INT8 = {MmaType.S8, MmaType.U8}
_INT4 = {MmaType.S4, MmaType.U4}

MATRIX: tuple[MmaVariant, ...] = (
    _variant(MmaShape.M8N8K4, {MmaType.F16}, _F16_ACC, 70),
    _variant(MmaShape.M8N8K4, {MmaType.F64}, {MmaType.F64}, 80),
    _variant(MmaShape.M16N8K8, {MmaType.F16}, _F16_ACC, 75),
    _variant(MmaShape.M16N8K16, {MmaType.F16}, _F16_ACC, 80),
    _variant(MmaShape.M16N8K8, {MmaType.BF16}, {MmaType.F32}, 80),
    _variant(MmaShape.M16N8K16, {MmaType.BF16}, {MmaType.F32}, 80),
    _variant(MmaShape.M16N8K4, {MmaType.TF32}, {MmaType.F32}, 80),
    _variant(MmaShape.M16N8K8, {MmaType.TF32}, {MmaType.F32}, 80),
    _variant(MmaShape.M16N8K4, {MmaType.F64}, {MmaType.F64}, 90),
    _variant(MmaShape.M16N8K8, {MmaType.F64}, {MmaType.F64}, 90),
    _variant(MmaShape.M16N8K16, {MmaType.F64}, {MmaType.F64}, 90),
    _variant(MmaShape.M8N8K16, _INT8, {MmaType.S32}, 75),
    _variant(MmaShape.M16N8K16, _INT8, {MmaType.S32}, 80),
    _variant(MmaShape.M16N8K32, _INT8, {MmaType.S32}, 80),
    _variant(MmaShape.M8N8K32, _INT4, {MmaType.S32}, 75),
    _variant(MmaShape.M16N8K32, _INT4, {MmaType.S32}, 80),
    _variant(MmaShape.M16N8K64, _INT4, {MmaType.S32}, 80),
    # ptxas: "Modifier '.and' on 'mma' requires .target sm_80 or higher".
    _variant(
        MmaShape.M8N8K128, {MmaType.B1}, {MmaType.S32}, 75, frozenset({B1Op.XOR_POPC})
    ),
    _variant(
        MmaShape.M8N8K128, {MmaType.B1}, {MmaType.S32}, 80, frozenset({B1Op.AND_POPC})
    ),
    _variant(MmaShape.M16N8K128, {MmaType.B1}, {MmaType.S32}, 80, _ANY_B1_OP),
    _variant(MmaShape.M16N8K256, {MmaType.B1}, {MmaType.S32}, 80, _ANY_B1_OP),
)
"""Every `mma.sync.aligned` variant with its minimum SM (ptxas 13.5, PTX ISA for sm_7x)."""


def find_variant(
    shape: MmaShape,
    a_type: MmaType,
    b_type: MmaType,
    accumulator: MmaType,
    b1_op: B1Op | None = None,
) -> MmaVariant | None:
    """The matrix row that allows this combination, if any. A single-bit MMA is matched
    with its operation when given (`b1_op`), else with any."""
    for variant in MATRIX:
        if (
            variant.shape == shape
            and a_type in variant.inputs
            and b_type in variant.inputs
            and accumulator in variant.accumulators
            and (b1_op is None or not variant.b1_ops or b1_op in variant.b1_ops)
        ):
            return variant
    return None


def min_sm(
    shape: MmaShape,
    a_type: MmaType,
    b_type: MmaType,
    accumulator: MmaType,
    b1_op: B1Op | None = None,
) -> int | None:
    """The oldest SM that runs this `mma.sync`, or None where no SM does."""
    variant = find_variant(shape, a_type, b_type, accumulator, b1_op)
    return None if variant is None else variant.min_sm


def shapes_for(a_type: MmaType) -> tuple[MmaShape, ...]:
    return tuple(v.shape for v in MATRIX if a_type in v.inputs)
