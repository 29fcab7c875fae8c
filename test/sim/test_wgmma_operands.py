"""The wgmma operand layouts the simulator uses (`hw.wgmma_smem` for shared-memory operands,
`hw.wgmma_layout` for register fragments, shared with the WGMMA emitter), element by element
against the PTX ISA's tables and formulas as `ptx_isa` writes them out."""

import itertools
from dataclasses import dataclass

import pytest
from ptx_isa import (  # pyright: ignore[reportImplicitRelativeImport]
    IntTuple,
    a_position,
    accumulator_position,
    canonical_layout,
    crd2idx,
    operand_byte_address,
    swizzled,
)

from tileas_py.hw.smem_descriptor import SmemDescriptor, Swizzle
from tileas_py.hw.wgmma_layout import (
    a_fragment_offsets,
    accumulator_offsets,
    elements_per_register,
    fragment_origin,
)
from tileas_py.hw.wgmma_smem import operand_addresses

_MODES = {0: Swizzle.NONE, 32: Swizzle.B32, 64: Swizzle.B64, 128: Swizzle.B128}


@dataclass(frozen=True)
class Example:
    """A worked example of 9.7.15.5.1.2.1.3: T, LBO and SBO in elements, its "Exact
    layout" and the extents it covers."""

    k_major: bool
    swizzle: int
    t: int
    lbo: int
    sbo: int
    shape: tuple[IntTuple, IntTuple]
    stride: tuple[IntTuple, IntTuple]
    extent: tuple[int, int]


_EXACT = [
    Example(True, 0, 4, 64, 32, ((8, 2), (4, 4)), ((4, 32), (1, 64)), (16, 16)),
    Example(True, 32, 4, 0, 64, ((8, 2), (4, 4)), ((8, 64), (1, 4)), (16, 8)),
    Example(
        False, 0, 8, 128, 64, ((8, 1, 2), (8, 2)), ((1, 8, 64), (8, 128)), (16, 16)
    ),
    Example(
        False, 32, 8, 128, 256, ((8, 2, 2), (8, 2)), ((1, 8, 128), (16, 256)), (32, 16)
    ),
    Example(
        False, 64, 8, 256, 512, ((8, 4, 2), (8, 2)), ((1, 8, 256), (32, 512)), (64, 16)
    ),
]


@pytest.mark.parametrize("example", _EXACT)
def test_the_reference_canonical_layouts_give_the_isa_examples(
    example: Example,
) -> None:
    """`ptx_isa.canonical_layout` reproduces each example's exact layout (the tf32 32B one
    only over one instruction's K: the example's second K block would overlap row 1)."""
    (mn_shape, k_shape), (mn_stride, k_stride) = canonical_layout(
        example.k_major, example.swizzle, example.t, example.lbo, example.sbo
    )
    for mn, k in itertools.product(range(example.extent[0]), range(example.extent[1])):
        ours = crd2idx(mn, mn_shape, mn_stride) + crd2idx(k, k_shape, k_stride)
        theirs = crd2idx(mn, example.shape[0], example.stride[0]) + crd2idx(
            k, example.shape[1], example.stride[1]
        )
        assert ours == theirs, (mn, k)


def test_the_reference_swizzle_is_a_permutation_of_each_pattern() -> None:
    for swizzle, period in [(32, 256), (64, 512), (128, 1024)]:
        assert sorted(swizzled(a, swizzle) for a in range(period)) == list(
            range(period)
        )
        assert swizzled(period + 0x90, swizzle) == period + swizzled(0x90, swizzle)


# (element bytes, instruction K, majornesses the ISA allows for the type).
_TYPES = [(2, 16, (True, False)), (4, 8, (True,)), (1, 32, (True,))]
_STARTS = [(0, 0), (32, 0), (0x180, 0), (0x180, 3), (1024 + 64, 5)]


@pytest.mark.parametrize("swizzle", [0, 32, 64, 128])
@pytest.mark.parametrize(("element_bytes", "k", "majors"), _TYPES)
def test_every_element_of_every_canonical_layout(
    swizzle: int, element_bytes: int, k: int, majors: tuple[bool, ...]
) -> None:
    """64 rows (an A operand, or a B operand of N = 64), with start addresses inside a
    swizzle row and off the pattern boundary, with and without a base offset."""
    rows = 64
    for k_major, (start, base_offset), (lbo, sbo) in itertools.product(
        majors, _STARTS, [(128, 256), (4096, 512)]
    ):
        descriptor = SmemDescriptor(start, lbo, sbo, base_offset, _MODES[swizzle])
        got = operand_addresses(descriptor, rows, k, element_bytes, k_major=k_major)
        for mn, kk in itertools.product(range(rows), range(k)):
            assert int(got[mn, kk]) == operand_byte_address(
                k_major=k_major,
                swizzle=swizzle,
                element_bytes=element_bytes,
                start=start,
                lbo=lbo,
                sbo=sbo,
                base_offset=base_offset if swizzle else 0,
                mn=mn,
                k=kk,
            ), (k_major, start, base_offset, lbo, sbo, mn, kk)


@pytest.mark.parametrize("n", [8, 16, 24, 64, 256])
def test_accumulator_fragment_is_the_isa_layout(n: int) -> None:
    """Figures 149 / 151 / 153: thread t's d_i, for every thread and register."""
    offsets = accumulator_offsets(n)
    assert len(offsets) == n // 2
    for thread, (i, (drow, dcol)) in itertools.product(range(128), enumerate(offsets)):
        row0, col0 = fragment_origin(thread // 32, thread % 32, 2)
        assert (row0 + drow, col0 + dcol) == accumulator_position(thread, i)


@pytest.mark.parametrize("bits", [16, 32, 8])
def test_a_fragment_is_the_isa_layout(bits: int) -> None:
    """Figures 148 / 150 / 152: thread t's a_i, low elements of each register first."""
    per_register = elements_per_register(bits)
    offsets = [e for register in a_fragment_offsets(bits) for e in register]
    assert len(offsets) == 4 * per_register
    for thread, (i, (drow, dcol)) in itertools.product(range(128), enumerate(offsets)):
        row0, col0 = fragment_origin(thread // 32, thread % 32, per_register)
        assert (row0 + drow, col0 + dcol) == a_position(thread, i, bits)
