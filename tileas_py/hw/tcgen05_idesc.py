"""The instruction descriptor of `tcgen05.mma` (kinds f16, tf32, f8f6f4 and i8).

The 32-bit instruction descriptor, in a register, gives the shape, the operand types, the
negations and transposes of one `tcgen05.mma`. Its layout for the kinds without block
scaling (PTX ISA, "Instruction descriptor", Table 42):

    bits  0-1   sparsity selector            bit  2   sparse
    bit   3     saturate (kind::i8)          bits 4-5 D type: F16 0, F32 1, S32 2
    bits  7-9   A type                       bits 10-12 B type
    bit  13     negate A                     bit 14   negate B
    bit  15     transpose A                  bit 16   transpose B
    bits 17-22  N >> 3                       bits 24-28 M >> 4
    bits 30-31  maximum shift (`.ws` only)   bits 6, 23, 29: zero

A and B type codes per kind: f16: F16 0, BF16 1; tf32: TF32 2; f8f6f4: E4M3 0, E5M2 1,
E2M3 3, E3M2 4, E2M1 5; i8: U8 0, S8 1. "Transpose" means MN-major (the default is
K-major). The shapes of Table 39 (dense, without `.ws`): M 64 or 128 with N a multiple of 8
up to 256 for `.cta_group::1`; M 128 or 256 with N a multiple of 16 up to 256 for
`.cta_group::2`; K is 16 (f16), 8 (tf32) or 32 (f8f6f4, i8).

PTX ISA, "Instruction descriptor":
https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-instruction-descriptor
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class MmaKind(StrEnum):
    F16 = "f16"
    TF32 = "tf32"
    F8F6F4 = "f8f6f4"
    I8 = "i8"


TYPE_CODES: dict[MmaKind, dict[str, int]] = {
    MmaKind.F16: {"f16": 0, "bf16": 1},
    MmaKind.TF32: {"tf32": 2},
    MmaKind.F8F6F4: {"e4m3": 0, "e5m2": 1, "e2m3": 3, "e3m2": 4, "e2m1": 5},
    MmaKind.I8: {"u8": 0, "s8": 1},
}
"""The A / B type codes of bits 7-9 and 10-12, per kind."""

D_TYPE_CODES = {"f16": 0, "f32": 1, "s32": 2}
D_TYPES: dict[MmaKind, tuple[str, ...]] = {
    MmaKind.F16: ("f16", "f32"),
    MmaKind.TF32: ("f32",),
    MmaKind.F8F6F4: ("f16", "f32"),
    MmaKind.I8: ("s32",),
}
K: dict[MmaKind, int] = {
    MmaKind.F16: 16,
    MmaKind.TF32: 8,
    MmaKind.F8F6F4: 32,
    MmaKind.I8: 32,
}
"""K of a dense MMA of each kind."""

_RESERVED = (1 << 6) | (1 << 23) | (1 << 29)


@dataclass(frozen=True)
class InstructionDescriptor:
    """The fields of one instruction descriptor.

    Example:
        >>> d = InstructionDescriptor(MmaKind.F16, "f32", "f16", "f16", m=128, n=256)
        >>> hex(d.encode())
        '0x8400010'
        >>> InstructionDescriptor.decode(d.encode(), MmaKind.F16) == d
        True
    """

    kind: MmaKind
    d_type: str
    a_type: str
    b_type: str
    m: int
    n: int
    transpose_a: bool = False
    """A is M-major (else K-major)."""
    transpose_b: bool = False
    """B is N-major (else K-major)."""
    negate_a: bool = False
    negate_b: bool = False
    saturate: bool = False
    sparse: bool = False
    sparsity_selector: int = 0
    max_shift: int = 0

    def __post_init__(self) -> None:
        codes = TYPE_CODES[self.kind]
        for name, value in (("A", self.a_type), ("B", self.b_type)):
            if value not in codes:
                raise ValueError(
                    f"{name} type '{value}' is not one of kind::{self.kind}'s "
                    f"({', '.join(codes)})"
                )
        if self.d_type not in D_TYPES[self.kind]:
            raise ValueError(
                f"D type '{self.d_type}' is not one of kind::{self.kind}'s "
                f"({', '.join(D_TYPES[self.kind])})"
            )
        if self.kind is MmaKind.I8 and (self.negate_a or self.negate_b):
            raise ValueError("kind::i8 cannot negate A or B")
        if self.saturate and self.kind is not MmaKind.I8:
            raise ValueError("saturate is for kind::i8 only")
        if self.m % 16 or not 16 <= self.m <= 496:
            raise ValueError(f"M {self.m} is not a multiple of 16 that fits bits 24-28")
        if self.n % 8 or not 8 <= self.n <= 504:
            raise ValueError(f"N {self.n} is not a multiple of 8 that fits bits 17-22")
        if not 0 <= self.sparsity_selector <= 3 or not 0 <= self.max_shift <= 3:
            raise ValueError("the sparsity selector and the maximum shift are 2 bits")

    def encode(self) -> int:
        codes = TYPE_CODES[self.kind]
        return (
            self.sparsity_selector
            | int(self.sparse) << 2
            | int(self.saturate) << 3
            | D_TYPE_CODES[self.d_type] << 4
            | codes[self.a_type] << 7
            | codes[self.b_type] << 10
            | int(self.negate_a) << 13
            | int(self.negate_b) << 14
            | int(self.transpose_a) << 15
            | int(self.transpose_b) << 16
            | (self.n >> 3) << 17
            | (self.m >> 4) << 24
            | self.max_shift << 30
        )

    @classmethod
    def decode(cls, raw: int, kind: MmaKind) -> InstructionDescriptor:
        """Read a descriptor word for an MMA of `kind` (the kind is the instruction's
        `.kind`, not a field); a ValueError says what is wrong with it."""
        if not 0 <= raw < 1 << 32:
            raise ValueError(f"an instruction descriptor is 32 bits, got {raw:#x}")
        if raw & _RESERVED:
            raise ValueError(
                f"instruction descriptor {raw:#010x} sets reserved bits (6, 23 or 29)"
            )
        by_code = {code: name for name, code in TYPE_CODES[kind].items()}
        d_by_code = {code: name for name, code in D_TYPE_CODES.items()}

        def type_at(shift: int, operand: str) -> str:
            code = (raw >> shift) & 0b111
            if code not in by_code:
                raise ValueError(
                    f"instruction descriptor {raw:#010x}: {operand} type code {code} is "
                    f"not one of kind::{kind}'s"
                )
            return by_code[code]

        d_code = (raw >> 4) & 0b11
        if d_code not in d_by_code:
            raise ValueError(
                f"instruction descriptor {raw:#010x}: D type code {d_code} is invalid"
            )
        n = ((raw >> 17) & 0x3F) << 3
        m = ((raw >> 24) & 0x1F) << 4
        if n == 0 or m == 0:
            raise ValueError(
                f"instruction descriptor {raw:#010x} has M {m} and N {n}; neither may be 0"
            )
        return cls(
            kind,
            d_by_code[d_code],
            type_at(7, "A"),
            type_at(10, "B"),
            m=m,
            n=n,
            transpose_a=bool(raw >> 15 & 1),
            transpose_b=bool(raw >> 16 & 1),
            negate_a=bool(raw >> 13 & 1),
            negate_b=bool(raw >> 14 & 1),
            saturate=bool(raw >> 3 & 1),
            sparse=bool(raw >> 2 & 1),
            sparsity_selector=raw & 0b11,
            max_shift=raw >> 30 & 0b11,
        )


def shape_error(m: int, n: int, cta_group: int) -> str | None:
    """Why (M, N) is not a dense `tcgen05.mma` shape of `cta_group` (Table 39), or None."""
    if cta_group == 1:
        if m not in (64, 128):
            return f"M {m} is not 64 or 128 (.cta_group::1)"
        if n % 8 or not 8 <= n <= 256:
            return f"N {n} is not a multiple of 8 from 8 to 256 (.cta_group::1)"
        return None
    if m not in (128, 256):
        return f"M {m} is not 128 or 256 (.cta_group::2)"
    if n % 16 or not 16 <= n <= 256:
        return f"N {n} is not a multiple of 16 from 16 to 256 (.cta_group::2)"
    return None
