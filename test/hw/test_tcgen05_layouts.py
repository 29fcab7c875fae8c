"""The sm_100 descriptors and tensor-memory layouts against the PTX ISA's tables.

The expectations are written out here from the PTX ISA (tcgen05 "Shared memory descriptor"
Tables 40-41, "Instruction descriptor" Table 42) and, for the fragment and data-path
layouts whose ISA figures are pictures, from CUTLASS's CuTe layouts of the same figures
(`copy_traits_sm100.hpp`, `mma_traits_sm100.hpp`), evaluated by a small CuTe layout
function below; nothing here is computed by the code under test.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tileas_py.hw import smem_descriptor as sm90
from tileas_py.hw import tmem, wgmma_smem
from tileas_py.hw.tcgen05_descriptor import (
    LeadingMode,
    Swizzle,
    Tcgen05SmemDescriptor,
)
from tileas_py.hw.tcgen05_idesc import InstructionDescriptor, MmaKind, shape_error
from tileas_py.hw.tcgen05_smem import operand_addresses, swizzle_address

# -- Table 40: shared memory descriptor layout (bit ranges, inclusive) ---------------------------
TABLE_40 = {
    "start": (0, 13),
    "leading": (16, 29),
    "stride": (32, 45),
    "fixed": (46, 48),
    "base_offset": (49, 51),
    "leading_mode": (52, 52),
    "swizzle": (61, 63),
}
SWIZZLE_CODES = {"none": 0, "128B-32B-atom": 1, "128B": 2, "64B": 4, "32B": 6}


def _bits(word: int, field: str) -> int:
    low, high = TABLE_40[field]
    return (word >> low) & ((1 << (high - low + 1)) - 1)


def _encode(x: int) -> int:
    """matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4."""
    return (x & 0x3FFFF) >> 4


def test_smem_descriptor_fields_are_where_table_40_puts_them() -> None:
    d = Tcgen05SmemDescriptor(
        start_address=0x3FFF0,
        leading_byte_offset=0x1230,
        stride_byte_offset=0x20000,
        base_offset=5,
        leading_mode=LeadingMode.ABSOLUTE,
        swizzle=Swizzle.B64,
    )
    word = d.encode()
    assert _bits(word, "start") == _encode(0x3FFF0)
    assert _bits(word, "leading") == _encode(0x1230)
    assert _bits(word, "stride") == _encode(0x20000)
    assert _bits(word, "fixed") == 0b001
    assert _bits(word, "base_offset") == 5
    assert _bits(word, "leading_mode") == 1
    assert _bits(word, "swizzle") == SWIZZLE_CODES["64B"]
    used = 0
    for low, high in TABLE_40.values():
        used |= ((1 << (high - low + 1)) - 1) << low
    assert word & ~used == 0
    assert Tcgen05SmemDescriptor.decode(word) == d


@pytest.mark.parametrize(("name", "code"), SWIZZLE_CODES.items())
def test_swizzle_encodings(name: str, code: int) -> None:
    d = Tcgen05SmemDescriptor(0, 16, 1024, swizzle=Swizzle(code))
    assert _bits(d.encode(), "swizzle") == code
    assert Tcgen05SmemDescriptor.decode(d.encode()).swizzle == Swizzle(code)
    assert name


@pytest.mark.parametrize("code", [3, 5, 7])
def test_invalid_swizzle_values(code: int) -> None:
    word = Tcgen05SmemDescriptor(0, 16, 1024).encode() | code << 61
    with pytest.raises(ValueError, match=f"invalid swizzle mode {code}"):
        Tcgen05SmemDescriptor.decode(word)


def test_an_sm90_descriptor_is_refused() -> None:
    hopper = sm90.SmemDescriptor(0x400, 16, 1024, swizzle=sm90.Swizzle.B128).encode()
    with pytest.raises(ValueError, match="not the sm_100 value 0b001"):
        Tcgen05SmemDescriptor.decode(hopper)


@pytest.mark.parametrize("bit", [14, 15, 30, 31, 53, 60])
def test_reserved_bits(bit: int) -> None:
    word = Tcgen05SmemDescriptor(0, 16, 1024).encode() | 1 << bit
    with pytest.raises(ValueError, match=f"reserved bit\\(s\\) {bit}"):
        Tcgen05SmemDescriptor.decode(word)


def test_addresses_must_be_16_byte_aligned_and_below_256_kib() -> None:
    with pytest.raises(ValueError, match="multiple of 16"):
        Tcgen05SmemDescriptor(8, 16, 1024)
    with pytest.raises(ValueError, match="does not fit"):
        Tcgen05SmemDescriptor(0x40000, 16, 1024)


def test_a_kernel_built_descriptor_decodes() -> None:
    """How hand-written sm_100 kernels build one: start, SBO, 1 << 46, 2 << 61."""
    a, sbo = 0x1400, 1024
    word = _encode(a) | _encode(sbo) << 32 | 1 << 46 | 2 << 61
    d = Tcgen05SmemDescriptor.decode(word)
    assert (d.start_address, d.stride_byte_offset, d.swizzle) == (a, sbo, Swizzle.B128)
    assert d.encode() == word


# -- Table 41 and the swizzle patterns ---------------------------------------------------------
TABLE_41 = {Swizzle.B128: 1024, Swizzle.B64: 512, Swizzle.B32: 256}


@pytest.mark.parametrize(("swizzle", "start"), TABLE_41.items())
def test_pattern_starts(swizzle: Swizzle, start: int) -> None:
    assert swizzle.pattern_bytes == start
    # The pattern repeats: an address and the one `start` bytes later swizzle alike.
    address = np.arange(4 * start, dtype=np.int64)
    assert np.array_equal(
        swizzle_address(address + start, swizzle) - start,
        swizzle_address(address, swizzle),
    )


@pytest.mark.parametrize(
    ("ours", "hopper"),
    [
        (Swizzle.B128, sm90.Swizzle.B128),
        (Swizzle.B64, sm90.Swizzle.B64),
        (Swizzle.B32, sm90.Swizzle.B32),
        (Swizzle.NONE, sm90.Swizzle.NONE),
    ],
)
def test_16_byte_atom_swizzles_are_hoppers(ours: Swizzle, hopper: sm90.Swizzle) -> None:
    address = np.arange(4096, dtype=np.int64)
    for base in range(8):
        assert np.array_equal(
            swizzle_address(address, ours, base),
            wgmma_smem.swizzle_address(address, hopper, base),
        )


def test_128b_swizzle_with_32_byte_atoms() -> None:
    """Each 128-byte line holds four 32-byte atoms; line r of the 4-line pattern stores
    atom a at position a ^ r (CuTe `Swizzle<2,5,2>`), bytes inside an atom unmoved."""
    address = np.arange(2048, dtype=np.int64)
    got = swizzle_address(address, Swizzle.B128_ATOM32)
    line, atom, byte = address // 128, (address // 32) % 4, address % 32
    assert np.array_equal(got, line * 128 + (atom ^ (line % 4)) * 32 + byte)
    assert Swizzle.B128_ATOM32.pattern_bytes == 512


def test_operand_addresses_use_the_canonical_layouts() -> None:
    """K-major f16, 128B swizzle: row i of an 8-row group is line i; column j is chunk j / 8
    of the line, swizzled by the line's row; groups are SBO apart."""
    d = Tcgen05SmemDescriptor(0, 16, 1024, swizzle=Swizzle.B128)
    got = operand_addresses(d, 16, 64, 2, k_major=True)
    i, j = np.meshgrid(np.arange(16), np.arange(64), indexing="ij")
    line = i % 8 + (i // 8) * 8
    chunk = (j // 8) ^ (i % 8)
    assert np.array_equal(got, line * 128 + chunk * 16 + (j % 8) * 2)


# -- Table 42: instruction descriptor ------------------------------------------------------------
TABLE_42 = {
    "sparse_selector": (0, 1),
    "sparse": (2, 2),
    "saturate": (3, 3),
    "d_type": (4, 5),
    "a_type": (7, 9),
    "b_type": (10, 12),
    "negate_a": (13, 13),
    "negate_b": (14, 14),
    "transpose_a": (15, 15),
    "transpose_b": (16, 16),
    "n": (17, 22),
    "m": (24, 28),
    "max_shift": (30, 31),
}
TABLE_42_TYPES = {
    MmaKind.TF32: {"tf32": 2},
    MmaKind.F16: {"f16": 0, "bf16": 1},
    MmaKind.F8F6F4: {"e4m3": 0, "e5m2": 1, "e2m3": 3, "e3m2": 4, "e2m1": 5},
    MmaKind.I8: {"u8": 0, "s8": 1},
}


def _field(word: int, name: str) -> int:
    low, high = TABLE_42[name]
    return (word >> low) & ((1 << (high - low + 1)) - 1)


@pytest.mark.parametrize("kind", list(MmaKind))
def test_instruction_descriptor_table_42(kind: MmaKind) -> None:
    d_type = {"tf32": "f32", "f16": "f32", "f8f6f4": "f16", "i8": "s32"}[kind]
    for a_type, code in TABLE_42_TYPES[kind].items():
        d = InstructionDescriptor(
            kind,
            d_type,
            a_type,
            next(iter(TABLE_42_TYPES[kind])),
            m=128,
            n=200,
            transpose_a=True,
            saturate=kind is MmaKind.I8,
            negate_b=kind is not MmaKind.I8,
        )
        word = d.encode()
        assert _field(word, "a_type") == code
        assert _field(word, "d_type") == {"f16": 0, "f32": 1, "s32": 2}[d_type]
        assert _field(word, "n") == 200 >> 3
        assert _field(word, "m") == 128 >> 4
        assert _field(word, "transpose_a") == 1
        assert _field(word, "transpose_b") == 0
        assert _field(word, "negate_b") == int(kind is not MmaKind.I8)
        assert _field(word, "saturate") == int(kind is MmaKind.I8)
        assert word & (1 << 6 | 1 << 23 | 1 << 29) == 0
        assert InstructionDescriptor.decode(word, kind) == d


def test_a_kernel_built_instruction_descriptor() -> None:
    """A hand-written sm_100 GEMM's bf16 -> f32 descriptor, M 128, N 128."""
    word = (1 << 4) | (1 << 7) | (1 << 10) | ((128 >> 3) << 17) | ((128 >> 4) << 24)
    d = InstructionDescriptor.decode(word, MmaKind.F16)
    assert (d.d_type, d.a_type, d.b_type, d.m, d.n) == ("f32", "bf16", "bf16", 128, 128)


@pytest.mark.parametrize(
    ("word", "message"),
    [
        (1 << 6, "reserved"),
        (1 << 4 | 7 << 7 | 1 << 17 | 8 << 24, "A type code 7"),
        (1 << 4 | 1 << 17, "M 0"),
        (3 << 4 | 1 << 17 | 8 << 24, "D type code 3"),
    ],
)
def test_bad_instruction_descriptors(word: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        InstructionDescriptor.decode(word, MmaKind.F16)


def test_kind_rules_of_the_descriptor() -> None:
    with pytest.raises(ValueError, match="cannot negate"):
        InstructionDescriptor(MmaKind.I8, "s32", "s8", "s8", 128, 64, negate_a=True)
    with pytest.raises(ValueError, match="D type 'f16'"):
        InstructionDescriptor(MmaKind.TF32, "f16", "tf32", "tf32", 128, 64)


def test_table_39_shapes() -> None:
    assert shape_error(64, 8, 1) is None
    assert shape_error(128, 256, 1) is None
    assert shape_error(256, 64, 1) is not None
    assert shape_error(128, 24, 2) is not None
    assert shape_error(256, 48, 2) is None
    assert shape_error(64, 64, 2) is not None


# -- Tensor-memory fragments (Figures 183-187, as CUTLASS encodes them) -------------------------


def cute(shape: Any, stride: Any, index: int) -> int:
    """A CuTe layout (nested shape, stride) at a linear (column-major) index."""
    if isinstance(shape, int):
        return (index % shape) * stride
    total = 0
    for s, d in zip(shape, stride, strict=True):
        size = int(np.prod(_flat(s)))
        total += cute(s, d, index % size)
        index //= size
    return total


def _flat(shape: Any) -> list[int]:
    return [shape] if isinstance(shape, int) else [x for s in shape for x in _flat(s)]


# (shape, num): (bits per lane of the reference tile, thread layout, value layout), from the
# `DstLayout` of `SM100_TMEM_LOAD_<shape>` (map (thread, value bit) -> reference bit; the
# reference tile is the bits of each lane, then the lanes: ValID ((bits, 16 or 32), (1, DP))).
CUTLASS_FRAGMENTS: dict[tuple[tmem.Shape, int], tuple[int, Any, Any]] = {
    (tmem.Shape.S16X256B, 1): (256, ((4, 8), (64, 256)), ((64, 2), (1, 2048))),
    (tmem.Shape.S16X256B, 2): (512, ((4, 8), (64, 512)), ((64, 2, 2), (1, 4096, 256))),
    (tmem.Shape.S16X128B, 1): (128, ((4, 8), (32, 128)), ((32, 2), (1, 1024))),
    (tmem.Shape.S16X128B, 2): (256, ((4, 8), (32, 256)), ((32, 2, 2), (1, 2048, 128))),
    (tmem.Shape.S16X64B, 1): (64, ((2, 2, 8), (512, 32, 64)), (32, 1)),
    (tmem.Shape.S16X64B, 4): (256, ((2, 2, 8), (2048, 32, 256)), ((32, 4), (1, 64))),
    (tmem.Shape.S16X32BX2, 1): (64, ((16, 2), (64, 32)), (32, 1)),
    (tmem.Shape.S16X32BX2, 2): (128, ((16, 2), (128, 64)), (64, 1)),
}


@pytest.mark.parametrize(("shape", "num"), CUTLASS_FRAGMENTS)
def test_fragments_match_cutlass(shape: tmem.Shape, num: int) -> None:
    width, (t_shape, t_stride), (v_shape, v_stride) = CUTLASS_FRAGMENTS[shape, num]
    registers = shape.registers_per_repetition * num
    # CUTLASS issues .16x32bx2.xN with the upper half N columns to the right.
    split = num if shape is tmem.Shape.S16X32BX2 else 0
    for t in range(32):
        ours = tmem.fragment(shape, num, t, split)
        assert len(ours) == registers
        for k in range(registers):
            ref = cute(t_shape, t_stride, t) + cute(v_shape, v_stride, 32 * k)
            assert ours[k] == (ref // width, (ref % width) // 32)


@pytest.mark.parametrize("shape", list(tmem.Shape))
@pytest.mark.parametrize("num", [1, 4])
def test_each_fragment_covers_its_block_once(shape: tmem.Shape, num: int) -> None:
    lanes, columns = tmem.fragment_table(shape, num, num)
    cells = set(
        zip(lanes.reshape(-1).tolist(), columns.reshape(-1).tolist(), strict=True)
    )
    assert len(cells) == lanes.size
    assert {lane for lane, _ in cells} == set(range(shape.lanes))
    assert len(cells) == shape.lanes * shape.columns_per_repetition * num * (
        2 if shape is tmem.Shape.S16X32BX2 else 1
    )


def test_32x32b_is_lane_per_thread() -> None:
    """Figure 183: thread t holds lane t, register i column i."""
    assert tmem.fragment(tmem.Shape.S32X32B, 3, 7) == [(7, 0), (7, 1), (7, 2)]


@pytest.mark.parametrize(
    ("rows", "n", "cta_group", "t_shape", "t_stride"),
    [
        # tmem_frg atoms in "virtual" addresses: lane stride 1, column stride 128.
        (128, 64, 1, (128, 64), (1, 128)),
        (64, 64, 1, ((16, 4), 64), ((1, 32), 128)),
        (64, 64, 2, (64, (32, 2)), (1, (128, 64))),
    ],
)
def test_data_path_layouts_match_cutlass(
    rows: int, n: int, cta_group: int, t_shape: Any, t_stride: Any
) -> None:
    lanes, columns = tmem.accumulator_cells(rows, n, cta_group)
    for i in range(rows):
        for j in range(n):
            virtual = cute(t_shape, t_stride, i + rows * j)
            assert (lanes[i, j], columns[i, j]) == (virtual % 128, virtual // 128)


def test_warp_quarters() -> None:
    assert tmem.warp_lanes(0) == range(0, 32)
    assert tmem.warp_lanes(6) == range(64, 96)
    assert tmem.split(tmem.address(97, 300)) == (97, 300)
