"""The sm_100 shared-memory matrix descriptor of `tcgen05.mma` and `tcgen05.cp` (UMMA).

A tcgen05 operand in shared memory is named by a 64-bit descriptor, the PTX ISA's
"Shared memory descriptor" (tcgen05, Table 40). It differs from the sm_90 WGMMA descriptor
(`smem_descriptor.SmemDescriptor`) in four places: bits 46-48 hold the fixed value 0b001,
bit 52 selects how the leading-dimension field is read, the swizzle mode takes three bits
(61-63) with its own encodings, and one of them is a 128-byte swizzle with 32-byte atoms:

    bits  0-13  start address                (x & 0x3FFFF) >> 4
    bits 16-29  leading-dimension offset     (x & 0x3FFFF) >> 4 (byte offset, or with
                                             bit 52 set a byte address: sm_103a only)
    bits 32-45  stride-dimension offset      (x & 0x3FFFF) >> 4
    bits 46-48  0b001
    bits 49-51  matrix base offset
    bit  52     leading-dimension stride mode (0 relative offset, 1 absolute address)
    bits 61-63  swizzle: 0 none, 1 128B with 32B atoms, 2 128B, 4 64B, 6 32B

Bits 14-15, 30-31 and 53-60 are zero; swizzle values 3, 5 and 7 are invalid.

PTX ISA, "Shared Memory Descriptor":
https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-shared-memory-descriptor
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum

_UNIT = 16
_FIELD_BITS = 14
_FIELD_MASK = (1 << _FIELD_BITS) - 1
_ADDRESS_LIMIT = 1 << 18
"""matrix-descriptor-encode keeps address bits 4-17: shared memory below 256 KiB."""

_START_SHIFT = 0
_LEADING_SHIFT = 16
_STRIDE_SHIFT = 32
_FIXED_SHIFT = 46
FIXED_VALUE = 0b001
"""Bits 46-48 of every sm_100 descriptor (an sm_90 WGMMA descriptor has 0 there)."""
_BASE_OFFSET_SHIFT = 49
_LEADING_MODE_SHIFT = 52
_SWIZZLE_SHIFT = 61

_DEFINED_BITS = (
    (_FIELD_MASK << _START_SHIFT)
    | (_FIELD_MASK << _LEADING_SHIFT)
    | (_FIELD_MASK << _STRIDE_SHIFT)
    | (0b111 << _FIXED_SHIFT)
    | (0b111 << _BASE_OFFSET_SHIFT)
    | (1 << _LEADING_MODE_SHIFT)
    | (0b111 << _SWIZZLE_SHIFT)
)
RESERVED_BITS = ((1 << 64) - 1) & ~_DEFINED_BITS
"""Bits 14-15, 30-31 and 53-60: zero in a valid descriptor."""


class Swizzle(IntEnum):
    """The swizzle mode of bits 61-63."""

    NONE = 0
    B128_ATOM32 = 1
    """128-byte swizzle whose unit is a 32-byte atom instead of a 16-byte chunk."""
    B128 = 2
    B64 = 4
    B32 = 6

    @property
    def row_bytes(self) -> int:
        """Bytes of one swizzled row (16, one chunk, without swizzling)."""
        return {
            Swizzle.NONE: 16,
            Swizzle.B128_ATOM32: 128,
            Swizzle.B128: 128,
            Swizzle.B64: 64,
            Swizzle.B32: 32,
        }[self]

    @property
    def atom_bytes(self) -> int:
        """Bytes the swizzle moves as one unit."""
        return 32 if self is Swizzle.B128_ATOM32 else 16

    @property
    def pattern_bytes(self) -> int:
        """Where the repeating pattern starts over (PTX ISA Table 41): 1024 for 128B,
        512 for 64B, 256 for 32B; the 32-byte-atom mode repeats after 4 lines."""
        return {
            Swizzle.NONE: 0,
            Swizzle.B128_ATOM32: 512,
            Swizzle.B128: 1024,
            Swizzle.B64: 512,
            Swizzle.B32: 256,
        }[self]


class LeadingMode(IntEnum):
    """Bit 52: how the leading-dimension field is read."""

    RELATIVE = 0
    """A byte offset from the start address."""
    ABSOLUTE = 1
    """A byte address (sm_103a)."""


def encode_address(name: str, value: int) -> int:
    """matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4, for a 16-byte aligned value
    below 256 KiB (the descriptor keeps nothing else)."""
    if value < 0 or value % _UNIT:
        raise ValueError(f"{name} must be a non-negative multiple of 16, got {value}")
    if value >= _ADDRESS_LIMIT:
        raise ValueError(f"{name} {value:#x} does not fit (below {_ADDRESS_LIMIT:#x})")
    return (value & (_ADDRESS_LIMIT - 1)) >> 4


@dataclass(frozen=True)
class Tcgen05SmemDescriptor:
    """The fields of one sm_100 shared-memory descriptor, in bytes.

    Example:
        >>> d = Tcgen05SmemDescriptor(start_address=0x400, leading_byte_offset=16,
        ...                           stride_byte_offset=1024, swizzle=Swizzle.B128)
        >>> hex(d.encode())
        '0x4000404000010040'
        >>> Tcgen05SmemDescriptor.decode(d.encode()) == d
        True
    """

    start_address: int
    leading_byte_offset: int
    """Leading-dimension byte offset (or address, with `LeadingMode.ABSOLUTE`)."""
    stride_byte_offset: int
    base_offset: int = 0
    """Matrix base offset (0-7): `(pattern start >> 7) & 7` when the swizzle pattern does
    not start on its boundary."""
    leading_mode: LeadingMode = LeadingMode.RELATIVE
    swizzle: Swizzle = Swizzle.NONE

    def __post_init__(self) -> None:
        encode_address("start address", self.start_address)
        encode_address("leading-dimension offset", self.leading_byte_offset)
        encode_address("stride-dimension offset", self.stride_byte_offset)
        if not 0 <= self.base_offset <= 7:
            raise ValueError(f"base offset must be in 0..7, got {self.base_offset}")
        if not isinstance(self.swizzle, Swizzle):
            raise TypeError(f"swizzle must be a Swizzle, got {self.swizzle!r}")

    def encode(self) -> int:
        """The 64-bit descriptor word."""
        return (
            encode_address("", self.start_address) << _START_SHIFT
            | encode_address("", self.leading_byte_offset) << _LEADING_SHIFT
            | encode_address("", self.stride_byte_offset) << _STRIDE_SHIFT
            | FIXED_VALUE << _FIXED_SHIFT
            | self.base_offset << _BASE_OFFSET_SHIFT
            | int(self.leading_mode) << _LEADING_MODE_SHIFT
            | int(self.swizzle) << _SWIZZLE_SHIFT
        )

    @classmethod
    def decode(cls, raw: int) -> Tcgen05SmemDescriptor:
        """Read a descriptor word; a ValueError says what is wrong with it."""
        if not 0 <= raw < 1 << 64:
            raise ValueError(f"a descriptor is a 64-bit word, got {raw:#x}")
        fixed = (raw >> _FIXED_SHIFT) & 0b111
        if fixed != FIXED_VALUE:
            raise ValueError(
                f"descriptor {raw:#018x} has {fixed:#05b} in bits 46-48, not the sm_100 "
                "value 0b001 (an sm_90 wgmma descriptor?)"
            )
        if raw & RESERVED_BITS:
            bits = [i for i in range(64) if raw & RESERVED_BITS & (1 << i)]
            raise ValueError(
                f"descriptor {raw:#018x} sets reserved bit(s) {', '.join(map(str, bits))}"
            )
        mode = (raw >> _SWIZZLE_SHIFT) & 0b111
        if mode not in Swizzle._value2member_map_:
            raise ValueError(
                f"descriptor {raw:#018x} has the invalid swizzle mode {mode}"
            )

        def field(shift: int) -> int:
            return ((raw >> shift) & _FIELD_MASK) << 4

        return cls(
            start_address=field(_START_SHIFT),
            leading_byte_offset=field(_LEADING_SHIFT),
            stride_byte_offset=field(_STRIDE_SHIFT),
            base_offset=(raw >> _BASE_OFFSET_SHIFT) & 0b111,
            leading_mode=LeadingMode((raw >> _LEADING_MODE_SHIFT) & 1),
            swizzle=Swizzle(mode),
        )

    def advance(self, byte_offset: int) -> Tcgen05SmemDescriptor:
        """The descriptor of the matrix `byte_offset` bytes further on (what adding
        `byte_offset >> 4` to the word does while the start address field does not carry)."""
        return replace(self, start_address=self.start_address + byte_offset)
