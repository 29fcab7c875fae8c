"""WGMMA operand layouts, checked against the PTX ISA's canonical layouts and CUTLASS's
fragment layouts, both written out here in CuTe's (shape, stride) notation."""

import doctest
import itertools

import pytest

from tileas_py.hw import wgmma_layout
from tileas_py.hw.smem_descriptor import SmemDescriptor, Swizzle
from tileas_py.hw.wgmma_layout import (
    OperandTiling,
    SharedTileLayout,
    a_fragment_offsets,
    accumulator_offsets,
    elements_per_register,
    fragment_origin,
)

IntTuple = int | tuple["IntTuple", ...]


def size(shape: IntTuple) -> int:
    if isinstance(shape, int):
        return shape
    total = 1
    for s in shape:
        total *= size(s)
    return total


def crd2idx(coordinate: int, shape: IntTuple, stride: IntTuple) -> int:
    """CuTe's `crd2idx` for an integer coordinate: split it colexicographically over the
    (nested) shape and sum the strides."""
    if isinstance(shape, int):
        assert isinstance(stride, int)
        return coordinate * stride
    assert isinstance(stride, tuple)
    index = 0
    for sub_shape, sub_stride in zip(shape, stride, strict=True):
        index += crd2idx(coordinate % size(sub_shape), sub_shape, sub_stride)
        coordinate //= size(sub_shape)
    return index


def swizzle(address: int, bits: int) -> int:
    """CuTe's `Swizzle<bits, 4, 3>`."""
    mask = (1 << bits) - 1
    return address ^ (((address >> 7) & mask) << 4)


_SWIZZLE_BYTES = {Swizzle.NONE: 0, Swizzle.B32: 32, Swizzle.B64: 64, Swizzle.B128: 128}


def canonical_address(
    d: SmemDescriptor, k_major: bool, element_bytes: int, mn: int, k: int
) -> int:
    """The byte the hardware reads for element (mn, k) of an instruction through `d`: the
    PTX ISA's table "Canonical Layouts", with LBO / SBO in elements."""
    t = 16 // element_bytes
    s = _SWIZZLE_BYTES[d.swizzle]
    lbo = d.leading_byte_offset // element_bytes
    sbo = d.stride_byte_offset // element_bytes
    m_big, k_big = 64, 64  # enough repeats for any instruction
    if k_major:
        shape_mn, shape_k = (8, m_big), (t, 2 * k_big)
        if s == 0:
            stride_mn, stride_k = (t, sbo), (1, lbo)
        else:
            stride_mn, stride_k = ((s // 16) * t, sbo), (1, t)
    elif s == 0:
        shape_mn, shape_k = (t, 1, m_big), (8, k_big)
        stride_mn, stride_k = (1, t, sbo), (t, lbo)
    else:
        w = s // 16
        shape_mn, shape_k = (t, w, m_big), (8, k_big)
        stride_mn, stride_k = (1, t, lbo), (w * t, sbo)
    element = crd2idx(mn, shape_mn, stride_mn) + crd2idx(k, shape_k, stride_k)
    bits = {0: 0, 32: 1, 64: 2, 128: 3}[s]
    return swizzle(d.start_address + element * element_bytes, bits)


# (element bytes, instruction K, majornesses allowed): f16/bf16, tf32, 8-bit inputs.
_TYPES = [(2, 16, (True, False)), (4, 8, (True,)), (1, 32, (True,))]


@pytest.mark.parametrize("swizzle_bytes", [0, 32, 64, 128])
@pytest.mark.parametrize(("element_bytes", "k", "majors"), _TYPES)
def test_descriptors_walk_the_tile_as_the_canonical_layouts_say(
    swizzle_bytes: int, element_bytes: int, k: int, majors: tuple[bool, ...]
) -> None:
    # A 128 x (4 instruction K) A operand, and a (4 K) x N B operand read 64 wide.
    for k_major, (mn_total, mn_inst) in itertools.product(
        majors, [(128, 64), (128, 32)]
    ):
        k_total = 4 * k
        inner, outer = (k_total, mn_total) if k_major else (mn_total, k_total)
        layout = SharedTileLayout(inner, outer, element_bytes, swizzle_bytes)
        tiling = OperandTiling(layout, k_major, mn_inst, k)
        if tiling.problem() is not None:
            continue
        base = tiling.descriptor()
        for mn_tile, k_tile in itertools.product(range(mn_total // mn_inst), range(4)):
            offset = tiling.byte_offset(mn_tile, k_tile)
            d = base.advance(offset)
            for mn, kk in itertools.product(range(mn_inst), range(k)):
                row, col = mn_tile * mn_inst + mn, k_tile * k + kk
                stored = (
                    layout.address(inner=col, outer=row)
                    if k_major
                    else layout.address(inner=row, outer=col)
                )
                assert canonical_address(d, k_major, element_bytes, mn, kk) == stored


def test_every_swizzle_and_majorness_is_exercised() -> None:
    exercised: set[tuple[int, bool]] = set()
    for swizzle_bytes, k_major in itertools.product([0, 32, 64, 128], [True, False]):
        layout = SharedTileLayout(64 if k_major else 128, 64, 2, swizzle_bytes)
        if OperandTiling(layout, k_major, 64, 16).problem() is None:
            exercised.add((swizzle_bytes, k_major))
    assert len(exercised) == 8


def test_upstream_mlir_128x128x64_f16_increments() -> None:
    # nvgpu.warpgroup.mma's test: A 128x64 f16 K-major, B 64x128 f16 N-major (transposed
    # B: row layout), both 128B-swizzled, m64n128k16: A + 2, 4, 6, 512, ... B + 128, ...
    a = OperandTiling(SharedTileLayout(64, 128, 2, 128), True, 64, 16)
    b = OperandTiling(SharedTileLayout(128, 64, 2, 128), False, 128, 16)
    increments_a = [a.byte_offset(m, k) >> 4 for m in range(2) for k in range(4)]
    increments_b = [b.byte_offset(0, k) >> 4 for k in range(4)]
    assert increments_a == [0, 2, 4, 6, 512, 514, 516, 518]
    assert increments_b == [0, 128, 256, 384]


def test_descriptor_fields() -> None:
    # The PTX ISA's K-major 32B tf32 example: LBO unused (encoded 1), SBO 64 elements.
    k32 = SharedTileLayout(8, 16, 4, 32).descriptor(k_major=True)
    assert (k32.leading_byte_offset, k32.stride_byte_offset) == (16, 64 * 4)
    assert k32.swizzle == Swizzle.B32
    # Unswizzled K-major: LBO is the next 16-byte column of core matrices (a panel).
    k0 = SharedTileLayout(16, 64, 2, 0).descriptor(k_major=True)
    assert (k0.leading_byte_offset, k0.stride_byte_offset) == (64 * 16, 128)
    # MN-major: the panels run along K first, so LBO (swizzled) or SBO (interleaved) is
    # a panel, where the ISA's examples put the MN repeats first; both are canonical.
    mn64 = SharedTileLayout(64, 16, 2, 64).descriptor(k_major=False)
    assert (mn64.leading_byte_offset, mn64.stride_byte_offset) == (16 * 64, 8 * 64)
    mn0 = SharedTileLayout(16, 16, 2, 0).descriptor(k_major=False)
    assert (mn0.leading_byte_offset, mn0.stride_byte_offset) == (128, 16 * 16)


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        (SharedTileLayout(32, 64, 2, 128), "multiple of 128 bytes, got 64"),
        (SharedTileLayout(4, 64, 2, 0), "unswizzled WGMMA layout needs"),
        (SharedTileLayout(64, 12, 2, 128), "multiple of 8, got 12"),
        (SharedTileLayout(64, 64, 2, 16), "swizzle must be 0, 32, 64 or 128"),
    ],
)
def test_unstorable_tiles_are_explained(layout: SharedTileLayout, message: str) -> None:
    problem = layout.problem()
    assert problem is not None
    assert message in problem


def test_mn_major_instruction_must_fill_panels() -> None:
    tiling = OperandTiling(SharedTileLayout(128, 64, 2, 128), False, 32, 16)
    assert tiling.problem() == (
        "an mn-major operand read 32 elements (64 bytes) at a time needs them to fill "
        "whole 128-byte panels"
    )
    assert (
        OperandTiling(SharedTileLayout(128, 64, 2, 64), False, 32, 16).problem() is None
    )


def test_swizzle_keeps_addresses_inside_their_pattern() -> None:
    layout = SharedTileLayout(64, 64, 2, 128)
    addresses = {layout.address(inner=c, outer=r) for r in range(64) for c in range(64)}
    assert addresses == set(range(0, layout.size, 2))


# CUTLASS's SM90 GMMA fragment layouts: (thread, value) -> m + 64 * k (or n).
_A_LAYOUTS = {
    16: (((4, 8, 4), (2, 2, 2)), ((128, 1, 16), (64, 8, 512))),
    8: (((4, 8, 4), (4, 2, 2)), ((256, 1, 16), (64, 8, 1024))),
    32: (((4, 8, 4), (2, 2)), ((64, 1, 16), (8, 256))),
}


@pytest.mark.parametrize("bits", [16, 8, 32])
def test_a_fragment_matches_cutlass(bits: int) -> None:
    shape, stride = _A_LAYOUTS[bits]
    per_register = elements_per_register(bits)
    offsets = [e for register in a_fragment_offsets(bits) for e in register]
    assert len(offsets) == size(shape[1])
    for thread in range(128):
        row0, col0 = fragment_origin(thread // 32, thread % 32, per_register)
        for value, (drow, dcol) in enumerate(offsets):
            index = crd2idx(thread, shape[0], stride[0]) + crd2idx(
                value, shape[1], stride[1]
            )
            assert (row0 + drow, col0 + dcol) == (index % 64, index // 64)


@pytest.mark.parametrize("n", [8, 24, 64, 256])
def test_accumulator_fragment_matches_cutlass(n: int) -> None:
    shape = ((4, 8, 4), (2, 2, n // 8))
    stride = ((128, 1, 16), (64, 8, 512))
    offsets = accumulator_offsets(n)
    assert len(offsets) == n // 2
    seen: set[tuple[int, int]] = set()
    for thread in range(128):
        row0, col0 = fragment_origin(thread // 32, thread % 32, 2)
        for value, (drow, dcol) in enumerate(offsets):
            index = crd2idx(thread, shape[0], stride[0]) + crd2idx(
                value, shape[1], stride[1]
            )
            assert (row0 + drow, col0 + dcol) == (index % 64, index // 64)
            seen.add((row0 + drow, col0 + dcol))
    assert len(seen) == 64 * n


def test_docstring_examples() -> None:
    result = doctest.testmod(wgmma_layout)
    assert result.attempted > 0
    assert result.failed == 0
