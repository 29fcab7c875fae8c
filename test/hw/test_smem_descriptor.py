"""WGMMA shared-memory descriptors: the PTX ISA bit layout, checked against independent oracles."""

import ctypes
import doctest
import random

import pytest

from tileas_py.hw import smem_descriptor
from tileas_py.hw.smem_descriptor import (
    RESERVED_BITS,
    SmemDescriptor,
    Swizzle,
    decode_seed_001_layout,
    descriptor_increment,
)


class CutlassGmmaDescriptor(ctypes.LittleEndianStructure):
    """CUTLASS's `GmmaDescriptor` bitfield union, rebuilt with ctypes as an independent oracle."""

    _fields_ = (
        ("start_address", ctypes.c_uint16, 14),
        ("pad0", ctypes.c_uint16, 2),
        ("leading_byte_offset", ctypes.c_uint16, 14),
        ("pad1", ctypes.c_uint16, 2),
        ("stride_byte_offset", ctypes.c_uint16, 14),
        ("pad2", ctypes.c_uint16, 2),
        ("pad3", ctypes.c_uint8, 1),
        ("base_offset", ctypes.c_uint8, 3),
        ("pad4", ctypes.c_uint8, 4),
        ("pad5", ctypes.c_uint8, 6),
        ("layout_type", ctypes.c_uint8, 2),
    )


def cutlass_encode(d: SmemDescriptor) -> int:
    bits = CutlassGmmaDescriptor()
    bits.start_address = d.start_address >> 4
    bits.leading_byte_offset = d.leading_byte_offset >> 4
    bits.stride_byte_offset = d.stride_byte_offset >> 4
    bits.base_offset = d.base_offset
    bits.layout_type = int(d.swizzle)
    return int.from_bytes(bytes(bits), "little")


def random_descriptor(rng: random.Random) -> SmemDescriptor:
    def field() -> int:
        return rng.randrange(1 << 14) * 16

    return SmemDescriptor(
        start_address=field(),
        leading_byte_offset=field(),
        stride_byte_offset=field(),
        base_offset=rng.randrange(8),
        swizzle=rng.choice(list(Swizzle)),
    )


def test_encoding_matches_cutlass_bitfields() -> None:
    assert ctypes.sizeof(CutlassGmmaDescriptor) == 8
    rng = random.Random(90)
    for _ in range(500):
        d = random_descriptor(rng)
        assert d.encode() == cutlass_encode(d)


def test_decode_inverts_encode() -> None:
    rng = random.Random(1)
    for _ in range(500):
        d = random_descriptor(rng)
        assert SmemDescriptor.decode(d.encode()) == d


def test_each_field_lands_on_its_ptx_isa_bits() -> None:
    zero = SmemDescriptor(0, 0, 0)
    assert zero.encode() == 0
    assert SmemDescriptor(16, 0, 0).encode() == 1 << 0
    assert SmemDescriptor(0, 16, 0).encode() == 1 << 16
    assert SmemDescriptor(0, 0, 16).encode() == 1 << 32
    assert SmemDescriptor(0, 0, 0, base_offset=1).encode() == 1 << 49
    assert [SmemDescriptor(0, 0, 0, swizzle=s).encode() >> 62 for s in Swizzle] == [
        0,
        1,
        2,
        3,
    ]


def test_all_ones_fields_leave_exactly_the_reserved_bits_clear() -> None:
    top = (1 << 14) - 1
    full = SmemDescriptor(top * 16, top * 16, top * 16, 7, Swizzle.B32).encode()
    assert full == ((1 << 64) - 1) & ~RESERVED_BITS
    assert SmemDescriptor.decode(full).start_address == top * 16


def test_upstream_mlir_generate_descriptor_for_128x64_f16_swizzle_128b() -> None:
    # nvgpu.warpgroup.generate.descriptor on memref<128x64xf16> with a 128B-swizzled tensor
    # map: stride = 8 rows of 128 B, leading = 128 (tensor-map dim 0) rows of 128 B.
    rows, swizzle_row_bytes = 128, 128
    d = SmemDescriptor(
        start_address=0,
        leading_byte_offset=rows * swizzle_row_bytes,
        stride_byte_offset=8 * swizzle_row_bytes,
        swizzle=Swizzle.B128,
    )
    # The upstream test checks the same word built as (1 << 62) | (64 << 32) | (1024 << 16).
    assert d.encode() >> 62 == 1
    assert (d.encode() >> 32) & 0x3FFF == 64
    assert (d.encode() >> 16) & 0x3FFF == 1024
    assert d.encode() & RESERVED_BITS == 0


def test_upstream_mlir_128x128x64_f16_advancement_from_layout() -> None:
    # nvgpu.warpgroup.mma on A: memref<128x64xf16> (K-major rows of 64 halves = one 128 B
    # swizzle row) and B: memref<64x128xf16> (N-major, 64-wide 128 B swizzle panels), cut
    # into m64n128k16 instructions: the byte offsets follow from the layout alone.
    elem_bytes, wgmma_m, wgmma_k, total_k, swizzle_row_bytes = 2, 64, 16, 64, 128
    a = SmemDescriptor(0, 16, 1024, swizzle=Swizzle.B128)
    b = SmemDescriptor(0x2000, 16, 1024, swizzle=Swizzle.B128)

    def a_offset(m: int, k: int) -> int:
        return k * wgmma_k * elem_bytes + m * wgmma_m * total_k * elem_bytes

    def b_offset(k: int) -> int:
        return k * wgmma_k * swizzle_row_bytes

    a_increments = [
        a.advance(a_offset(m, k)).encode() - a.encode()
        for m in (0, 1)
        for k in range(4)
    ]
    b_increments = [b.advance(b_offset(k)).encode() - b.encode() for k in range(4)]
    assert a_increments == [0, 2, 4, 6, 512, 514, 516, 518]
    assert b_increments == [0, 128, 256, 384]
    assert [descriptor_increment(b_offset(k)) for k in range(4)] == b_increments


def test_advance_moves_only_the_start_address() -> None:
    d = SmemDescriptor(0x1000, 2048, 1024, base_offset=3, swizzle=Swizzle.B64)
    moved = d.advance(96)
    assert moved.start_address == 0x1000 + 96
    assert (moved.leading_byte_offset, moved.stride_byte_offset) == (2048, 1024)
    assert (moved.base_offset, moved.swizzle) == (3, Swizzle.B64)
    assert d.advance(96).advance(-96) == d


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ((8, 0, 0, 0), "start address must be a non-negative multiple of 16"),
        ((-16, 0, 0, 0), "start address must be a non-negative multiple of 16"),
        ((1 << 18, 0, 0, 0), "does not fit the 14-bit field"),
        ((0, 24, 0, 0), "leading byte offset must be"),
        ((0, 0, 1 << 18, 0), "stride byte offset 262144 does not fit"),
        ((0, 0, 0, 8), "base offset must be in 0..7"),
        ((0, 0, 0, -1), "base offset must be in 0..7"),
    ],
)
def test_invalid_fields_are_rejected(
    fields: tuple[int, int, int, int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        SmemDescriptor(*fields)


def test_swizzle_must_be_the_enum() -> None:
    with pytest.raises(TypeError, match="swizzle must be a Swizzle"):
        SmemDescriptor(0, 0, 0, swizzle=1)  # pyright: ignore[reportArgumentType]


def test_advance_rejects_misalignment_and_overflow() -> None:
    d = SmemDescriptor((1 << 18) - 16, 0, 0)
    with pytest.raises(ValueError, match="multiple of 16 bytes, got 8"):
        d.advance(8)
    with pytest.raises(ValueError, match="does not fit the 14-bit field"):
        d.advance(16)
    with pytest.raises(ValueError, match="non-negative"):
        SmemDescriptor(0, 0, 0).advance(-16)


def test_decode_rejects_reserved_bits_and_wide_words() -> None:
    with pytest.raises(ValueError, match="sets reserved bit"):
        SmemDescriptor.decode(1 << 14)
    with pytest.raises(ValueError, match=r"reserved bit.*52"):
        SmemDescriptor.decode(1 << 52)
    with pytest.raises(ValueError, match="64-bit word"):
        SmemDescriptor.decode(1 << 64)


def test_seed_001_worked_example_decodes_differently_under_the_isa() -> None:
    raw = 0x0010_0000_0200_1000
    seed = decode_seed_001_layout(raw)
    assert (seed.start_addr, seed.lbo, seed.sbo, seed.base_offset) == (
        0x1000,
        0x800,
        0,
        0,
    )
    assert (seed.reserved, seed.swizzle_mode, seed.pad) == (0, 1, 0)
    # Under the ISA bit 52 is reserved: the seed's "128B swizzle" is no valid descriptor.
    with pytest.raises(ValueError, match=r"reserved bit.*52"):
        SmemDescriptor.decode(raw)
    # Without that bit the rest reads as start 0x10000 B, leading offset 0x2000 B, no swizzle.
    isa = SmemDescriptor.decode(raw & ~(1 << 52))
    assert (isa.start_address, isa.leading_byte_offset) == (0x10000, 0x2000)
    assert (isa.stride_byte_offset, isa.swizzle) == (0, Swizzle.NONE)
    # The seed's intended fields, packed the ISA way.
    intended = SmemDescriptor(0x1000 << 4, 0x800 << 4, 0, swizzle=Swizzle.B128)
    assert intended.encode() == 0x4000_0000_0800_1000


def test_swizzle_row_bytes() -> None:
    assert [s.row_bytes for s in Swizzle] == [None, 128, 64, 32]


def test_docstring_examples() -> None:
    result = doctest.testmod(smem_descriptor)
    assert result.attempted > 0
    assert result.failed == 0
