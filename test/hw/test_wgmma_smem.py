"""`hw.wgmma_smem`: the byte a wgmma reads for each element of a shared-memory operand,
against addresses worked out by hand from the PTX ISA (9.7.15.5.1.2 "Shared Memory Matrix
Layout": the canonical layouts and the "Matrix Descriptor Format"; the 16-byte-cell tables
of 5.5.7 "Tensor-map swizzling modes" for Swizzle<B, 4, 3>).

Swizzle tables used below (cell stored at each position of a 128-byte line of the pattern):
    32B:  line 0: 0 1 2 3 4 5 6 7   line 1: 1 0 3 2 5 4 7 6
    64B:  line r < 4: cell c at position c ^ r
    128B: line r < 8: cell c at position c ^ r
test/sim/test_wgmma_operands.py sweeps every element against the tables themselves.
"""

import doctest

import pytest

from tileas_py.hw import wgmma_smem
from tileas_py.hw.smem_descriptor import SmemDescriptor, Swizzle
from tileas_py.hw.wgmma_smem import operand_addresses

# (descriptor word as the ISA example encodes it, element bytes, rows, k, k_major,
#  {(mn, k): byte address}) for the worked examples of 9.7.15.5.1.2.1.3.
_ISA_EXAMPLES = [
    # K-major, no swizzle, tf32: Swizzle<0,4,3> o ((8,2),(4,4)):((4,32),(1,64)),
    # LBO = 64 tf32 (encoded 16), SBO = 32 tf32 (encoded 8).
    # (9, 5): 1*4 + 1*32 + 1*1 + 1*64 = 101 elements = 404 bytes.
    (16 << 16 | 8 << 32, 4, 16, 16, True, {(0, 0): 0, (9, 5): 404, (0, 4): 256}),
    # K-major, 32B swizzle, tf32: Swizzle<1,4,3> o ((8,2),(4,4)):((8,64),(1,4)),
    # LBO unused (encoded 1), SBO = 64 tf32 (encoded 16). (5, 5): 45 elements = 180
    # bytes, line 1 cell 3 -> position 2: 128 + 32 + 4 = 164. (4, 0): 128 -> 144.
    (
        1 << 16 | 16 << 32 | 3 << 62,
        4,
        16,
        8,
        True,
        {(5, 5): 164, (4, 0): 144, (8, 0): 256},
    ),
    # MN-major, no swizzle, bf16: Swizzle<0,4,3> o ((8,1,2),(8,2)):((1,8,64),(8,128)),
    # LBO = 128 bf16 (encoded 16), SBO = 64 bf16 (encoded 8).
    # (9, 10): 1 + 64 + 2*8 + 128 = 209 elements = 418 bytes.
    (16 << 16 | 8 << 32, 2, 16, 16, False, {(9, 10): 418, (0, 7): 112, (8, 0): 128}),
    # MN-major, 32B swizzle, bf16: Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256)),
    # LBO = 128 bf16 (encoded 16), SBO = 256 bf16 (encoded 32). (12, 5): 4 + 8 + 80 = 92
    # elements = 184 bytes, line 1 cell 3 -> position 2: 168.
    (16 << 16 | 32 << 32 | 3 << 62, 2, 32, 16, False, {(12, 5): 168, (20, 9): 808}),
    # MN-major, 64B swizzle, bf16: Swizzle<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512)),
    # LBO = 256 bf16 (encoded 32), SBO = 512 bf16 (encoded 64). (37, 10): 5 + 256 + 64 +
    # 512 = 837 elements = 1674 bytes, line 13 (pattern line 1), cell 0 -> position 1: 1690.
    (32 << 16 | 64 << 32 | 2 << 62, 2, 64, 16, False, {(37, 10): 1690, (8, 2): 128}),
]


@pytest.mark.parametrize("example", _ISA_EXAMPLES)
def test_isa_canonical_layout_examples(
    example: tuple[int, int, int, int, bool, dict[tuple[int, int], int]],
) -> None:
    word, element_bytes, rows, k, k_major, expected = example
    addresses = operand_addresses(
        SmemDescriptor.decode(word), rows, k, element_bytes, k_major=k_major
    )
    assert {at: int(addresses[at]) for at in expected} == expected


def _descriptor(
    swizzle: Swizzle, lbo: int, sbo: int, start: int = 0, base_offset: int = 0
) -> SmemDescriptor:
    return SmemDescriptor(start, lbo, sbo, base_offset, swizzle)


# (descriptor, element bytes, k_major, {(mn, k): byte address}); rows are 64, k is the
# instruction's K for the element size.
_TABLES = [
    # K-major 128B f16, SBO 1024: row r at 128 (r % 8) + 1024 (r // 8), element k at 2 k.
    # (1, 0): 128, cell 0 -> position 1; (9, 15): 1182, line 9 (pattern line 1) cell 1 ->
    # position 0; (7, 0): 896, cell 0 -> position 7.
    (
        _descriptor(Swizzle.B128, 16, 1024),
        2,
        True,
        {
            (0, 8): 16,
            (1, 0): 144,
            (1, 8): 128,
            (7, 0): 1008,
            (8, 0): 1024,
            (9, 15): 1166,
        },
    ),
    # ... starting 32 bytes into the rows (the second K block of a 64-wide tile):
    # (1, 0): 160, cell 2 -> position 3: 176; (3, 9): 434, cell 3 -> position 0: 386.
    (
        _descriptor(Swizzle.B128, 16, 1024, start=32),
        2,
        True,
        {(0, 0): 32, (1, 0): 176, (3, 9): 386},
    ),
    # K-major 64B bf16, SBO 512: row r at 64 r. (2, 0): 128 -> 144; (3, 8): 208, line 1
    # cell 5 -> position 4: 192; (5, 3): 326, line 2 cell 4 -> position 6: 358.
    (
        _descriptor(Swizzle.B64, 16, 512),
        2,
        True,
        {(1, 0): 64, (2, 0): 144, (3, 8): 192, (5, 3): 358},
    ),
    # K-major 32B tf32, SBO 256: row r at 32 r. (4, 0): 144; (5, 5): 164.
    (
        _descriptor(Swizzle.B32, 16, 256),
        4,
        True,
        {(4, 0): 144, (5, 5): 164, (8, 0): 256},
    ),
    # K-major, no swizzle, f16, LBO 128, SBO 256: (9, 10): 16 + 256 + 4 + 128.
    (_descriptor(Swizzle.NONE, 128, 256), 2, True, {(9, 10): 404, (0, 8): 128}),
    # MN-major 128B bf16, LBO 8192, SBO 1024: mn at 2 (mn % 8) + 16 ((mn // 8) % 8),
    # k at 128 (k % 8) + 1024 (k // 8).
    (
        _descriptor(Swizzle.B128, 8192, 1024),
        2,
        False,
        {(0, 1): 144, (9, 1): 130, (63, 7): 910, (5, 8): 1034},
    ),
    # MN-major 64B f16, LBO 2048 (next 32 mn), SBO 512: (17, 3): 226, line 1 cell 6 ->
    # position 7: 242.
    (
        _descriptor(Swizzle.B64, 2048, 512),
        2,
        False,
        {(8, 2): 128, (40, 0): 2064, (17, 3): 242},
    ),
    # MN-major 32B f16, LBO 1024 (next 16 mn), SBO 256: (3, 12): 390, line 3 cell 0 ->
    # position 1: 406.
    (
        _descriptor(Swizzle.B32, 1024, 256),
        2,
        False,
        {(0, 4): 144, (8, 4): 128, (3, 12): 406, (16, 0): 1024},
    ),
    # MN-major, no swizzle, f16, LBO 128 (next 8 k), SBO 256 (next 8 mn).
    (_descriptor(Swizzle.NONE, 128, 256), 2, False, {(9, 10): 418, (0, 7): 112}),
]


@pytest.mark.parametrize(
    ("descriptor", "element_bytes", "k_major", "expected"), _TABLES
)
def test_canonical_layouts_of_every_swizzle_and_majorness(
    descriptor: SmemDescriptor,
    element_bytes: int,
    k_major: bool,
    expected: dict[tuple[int, int], int],
) -> None:
    k = 32 // element_bytes
    addresses = operand_addresses(descriptor, 64, k, element_bytes, k_major=k_major)
    assert {at: int(addresses[at]) for at in expected} == expected


def test_the_base_offset_names_where_the_pattern_starts() -> None:
    """K-major 128B f16 at shared 0x180 (line 3 of a 1024-byte pattern). With base offset
    0 the pattern starts on its 1024-byte boundary, so the first row is pattern line 3
    (cell 0 at position 3), as a TMA copy to 0x180 leaves it; with base offset
    (0x180 >> 7) & 7 = 3 the pattern starts at 0x180 itself."""
    anchored = operand_addresses(
        _descriptor(Swizzle.B128, 16, 1024, start=0x180), 64, 16, 2, k_major=True
    )
    assert [int(anchored[0, 0]), int(anchored[1, 0]), int(anchored[1, 8])] == [
        0x180 + 48,
        0x200 + 64,
        0x200 + 80,
    ]
    started = operand_addresses(
        _descriptor(Swizzle.B128, 16, 1024, start=0x180, base_offset=3),
        64,
        16,
        2,
        k_major=True,
    )
    assert [int(started[0, 0]), int(started[1, 0]), int(started[1, 8])] == [
        0x180,
        0x200 + 16,
        0x200,
    ]


@pytest.mark.parametrize("swizzle", [Swizzle.B32, Swizzle.B64])
def test_the_base_offset_counts_lines_of_the_narrower_patterns(
    swizzle: Swizzle,
) -> None:
    """The 64B pattern has 4 lines and the 32B one 2: base offsets 1 and 5 are the same
    phase for 64B (5 % 4 == 1), and for 32B too (both odd)."""
    one = operand_addresses(
        _descriptor(swizzle, 16, 1024, base_offset=1), 64, 16, 2, k_major=True
    )
    five = operand_addresses(
        _descriptor(swizzle, 16, 1024, base_offset=5), 64, 16, 2, k_major=True
    )
    zero = operand_addresses(_descriptor(swizzle, 16, 1024), 64, 16, 2, k_major=True)
    assert (one == five).all()
    assert (one != zero).any()


def test_the_base_offset_is_ignored_without_swizzling() -> None:
    plain = _descriptor(Swizzle.NONE, 128, 256)
    offset = _descriptor(Swizzle.NONE, 128, 256, base_offset=5)
    assert (
        operand_addresses(plain, 64, 16, 2, k_major=True)
        == operand_addresses(offset, 64, 16, 2, k_major=True)
    ).all()


def test_docstring_examples() -> None:
    result = doctest.testmod(wgmma_smem)
    assert result.attempted > 0
    assert result.failed == 0
