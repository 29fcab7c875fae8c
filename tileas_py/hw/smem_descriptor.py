"""WGMMA shared-memory matrix descriptors (sm_90a).

A `wgmma.mma_async` operand that lives in shared memory is named by a 64-bit matrix
descriptor. The layout is the one of the PTX ISA, section "Matrix Descriptor Format"
(https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-shared-memory-layout-matrix-descriptor),
and the one upstream MLIR (`nvgpu.warpgroup.generate.descriptor` in
`mlir/lib/Conversion/NVGPUToNVVM/NVGPUToNVVM.cpp`) and CUTLASS (`GmmaDescriptor`) build:

    bits  0-13  start address        >> 4
    bits 16-29  leading byte offset  >> 4
    bits 32-45  stride byte offset   >> 4
    bits 49-51  matrix base offset
    bits 62-63  swizzle mode (0 none, 1 128B, 2 64B, 3 32B)

Every other bit is zero. Successive `mma_async` instructions of one tile loop reuse a
descriptor by adding a byte offset, in 16-byte units, to its start-address field.

Seed 001 documents a different packing; `decode_seed_001_layout` reads a word that way,
only so that docs/fidelity.md can show the two decodings side by side.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum
from typing import NamedTuple

_ADDRESS_FIELD_BITS = 14
_UNIT = 16
"""Addresses and offsets are stored right-shifted by 4: the hardware works in 16-byte units."""

_MAX_ENCODED_BYTES = ((1 << _ADDRESS_FIELD_BITS) - 1) * _UNIT

_START_ADDRESS_SHIFT = 0
_LEADING_BYTE_OFFSET_SHIFT = 16
_STRIDE_BYTE_OFFSET_SHIFT = 32
_BASE_OFFSET_SHIFT = 49
_BASE_OFFSET_BITS = 3
_SWIZZLE_SHIFT = 62

_ADDRESS_FIELD_MASK = (1 << _ADDRESS_FIELD_BITS) - 1
_DEFINED_BITS = (
    (_ADDRESS_FIELD_MASK << _START_ADDRESS_SHIFT)
    | (_ADDRESS_FIELD_MASK << _LEADING_BYTE_OFFSET_SHIFT)
    | (_ADDRESS_FIELD_MASK << _STRIDE_BYTE_OFFSET_SHIFT)
    | (((1 << _BASE_OFFSET_BITS) - 1) << _BASE_OFFSET_SHIFT)
    | (0b11 << _SWIZZLE_SHIFT)
)
RESERVED_BITS = ((1 << 64) - 1) & ~_DEFINED_BITS
"""The bits of a descriptor word that must be zero."""


class Swizzle(IntEnum):
    """The swizzle mode of bits 62-63 (PTX calls the 0 mode "no swizzling" / interleave)."""

    NONE = 0
    B128 = 1
    B64 = 2
    B32 = 3

    @property
    def row_bytes(self) -> int | None:
        """Width in bytes of one swizzled row, None when the layout is not swizzled."""
        return {
            Swizzle.NONE: None,
            Swizzle.B128: 128,
            Swizzle.B64: 64,
            Swizzle.B32: 32,
        }[self]


def _check_encodable(name: str, byte_value: int) -> None:
    if byte_value < 0 or byte_value % _UNIT != 0:
        raise ValueError(
            f"{name} must be a non-negative multiple of 16 bytes, got {byte_value}"
        )
    if byte_value > _MAX_ENCODED_BYTES:
        raise ValueError(
            f"{name} {byte_value} does not fit the 14-bit field "
            f"(at most {_MAX_ENCODED_BYTES} bytes)"
        )


def descriptor_increment(byte_offset: int) -> int:
    """What to add to an encoded descriptor to move its start address by `byte_offset` bytes.

    This is the immediate an emitter adds to a runtime descriptor value (`desc + 2` for
    32 bytes), as upstream MLIR's WGMMA lowering does between `mma_async` instructions.
    """
    if byte_offset % _UNIT != 0:
        raise ValueError(
            f"descriptor advance must be a multiple of 16 bytes, got {byte_offset}"
        )
    return byte_offset >> 4


@dataclass(frozen=True)
class SmemDescriptor:
    """The fields of one WGMMA shared-memory matrix descriptor, in bytes.

    Example:
        >>> d = SmemDescriptor(start_address=0x400, leading_byte_offset=16,
        ...                    stride_byte_offset=1024, swizzle=Swizzle.B128)
        >>> hex(d.encode())
        '0x4000004000010040'
        >>> SmemDescriptor.decode(d.encode()) == d
        True
        >>> d.advance(32).start_address
        1056
    """

    start_address: int
    """Shared-memory byte address of the matrix (16-byte aligned, below 256 KiB)."""
    leading_byte_offset: int
    """Leading-dimension byte offset (ignored by the hardware for swizzled K-major layouts)."""
    stride_byte_offset: int
    """Stride-dimension byte offset: the distance between consecutive 8-row core-matrix groups."""
    base_offset: int = 0
    """Matrix base offset (0-7), for swizzle patterns that do not start on a pattern boundary."""
    swizzle: Swizzle = Swizzle.NONE

    def __post_init__(self) -> None:
        _check_encodable("start address", self.start_address)
        _check_encodable("leading byte offset", self.leading_byte_offset)
        _check_encodable("stride byte offset", self.stride_byte_offset)
        if not 0 <= self.base_offset < 1 << _BASE_OFFSET_BITS:
            raise ValueError(f"base offset must be in 0..7, got {self.base_offset}")
        if not isinstance(self.swizzle, Swizzle):
            raise TypeError(f"swizzle must be a Swizzle, got {self.swizzle!r}")

    def encode(self) -> int:
        """The 64-bit descriptor word."""
        return (
            (self.start_address >> 4) << _START_ADDRESS_SHIFT
            | (self.leading_byte_offset >> 4) << _LEADING_BYTE_OFFSET_SHIFT
            | (self.stride_byte_offset >> 4) << _STRIDE_BYTE_OFFSET_SHIFT
            | self.base_offset << _BASE_OFFSET_SHIFT
            | self.swizzle << _SWIZZLE_SHIFT
        )

    @classmethod
    def decode(cls, raw: int) -> SmemDescriptor:
        """Read a 64-bit descriptor word; reserved bits must be zero."""
        if not 0 <= raw < 1 << 64:
            raise ValueError(f"a descriptor is a 64-bit word, got {raw:#x}")
        if raw & RESERVED_BITS:
            bits = [i for i in range(64) if raw & RESERVED_BITS & (1 << i)]
            raise ValueError(
                f"descriptor {raw:#018x} sets reserved bit(s) {', '.join(map(str, bits))}"
            )
        return cls(
            start_address=((raw >> _START_ADDRESS_SHIFT) & _ADDRESS_FIELD_MASK) << 4,
            leading_byte_offset=(
                (raw >> _LEADING_BYTE_OFFSET_SHIFT) & _ADDRESS_FIELD_MASK
            )
            << 4,
            stride_byte_offset=(
                (raw >> _STRIDE_BYTE_OFFSET_SHIFT) & _ADDRESS_FIELD_MASK
            )
            << 4,
            base_offset=(raw >> _BASE_OFFSET_SHIFT) & ((1 << _BASE_OFFSET_BITS) - 1),
            swizzle=Swizzle((raw >> _SWIZZLE_SHIFT) & 0b11),
        )

    def advance(self, byte_offset: int) -> SmemDescriptor:
        """The descriptor of the matrix `byte_offset` bytes further on in shared memory.

        Equivalent to `decode(encode() + descriptor_increment(byte_offset))` when the new
        start address still fits its field; a carry out of the 14-bit field would corrupt
        the reserved bits 14-15, so it is an error here rather than a silent wrap.
        """
        return replace(
            self,
            start_address=self.start_address
            + descriptor_increment(byte_offset) * _UNIT,
        )


class Seed001Fields(NamedTuple):
    """A descriptor word read with seed 001's packing (not the hardware's)."""

    start_addr: int
    """Bits 0-13."""
    lbo: int
    """Bits 14-29."""
    sbo: int
    """Bits 30-45."""
    base_offset: int
    """Bits 46-48."""
    reserved: int
    """Bits 49-51."""
    swizzle_mode: int
    """Bits 52-53."""
    pad: int
    """Bits 54-63."""


def decode_seed_001_layout(raw: int) -> Seed001Fields:
    """Read `raw` with the packing seed 001 prints, for the comparison in docs/fidelity.md.

    The hardware does not use this layout: see `SmemDescriptor` for the PTX ISA one.
    """

    def bits(low: int, width: int) -> int:
        return (raw >> low) & ((1 << width) - 1)

    return Seed001Fields(
        start_addr=bits(0, 14),
        lbo=bits(14, 16),
        sbo=bits(30, 16),
        base_offset=bits(46, 3),
        reserved=bits(49, 3),
        swizzle_mode=bits(52, 2),
        pad=bits(54, 10),
    )
