"""`sim.tensormap`: the driver's rules for a tiled tensor map, the elements a box visits and
where they land in shared memory, against `tma_reference` (the PTX ISA's tiled mode and
swizzle tables, computed with numpy indexing)."""

import itertools
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from ptx_isa import swizzled  # pyright: ignore[reportImplicitRelativeImport]
from tma_reference import (  # pyright: ignore[reportImplicitRelativeImport]
    in_bounds,
    load_box,
)

from tileas_py.sim.tensormap import (
    TensorMap,
    box_elements,
    box_shared_offsets,
    swizzle_offsets,
)


def _array(shape: tuple[int, ...], dtype: Any = np.int16) -> npt.NDArray[Any]:
    return np.arange(int(np.prod(shape)), dtype=np.int64).astype(dtype).reshape(shape)


def _check_box(tmap: TensorMap, coords: list[int]) -> None:
    elements, inside = box_elements(tmap, coords)
    expected = load_box(tmap.array, coords, tmap.box, tmap.element_strides)
    mask = in_bounds(tmap.array.shape, coords, tmap.box, tmap.element_strides)
    assert inside.tolist() == mask.reshape(-1).tolist()
    got = tmap.array.reshape(-1)[elements]
    assert (got[inside] == expected.reshape(-1)[inside]).all()


# A 2-D 24 x 40 int16 tensor, boxes of 8 x 16: inside, over each edge, over two corners,
# wholly outside, and from negative coordinates (PTX order: innermost first).
_COORDS_2D = [
    [0, 0],
    [16, 8],
    [-8, 4],
    [32, 4],
    [8, -3],
    [8, 20],
    [-5, -5],
    [30, 21],
    [40, 0],
    [-16, -8],
]


@pytest.mark.parametrize("coords", _COORDS_2D)
def test_box_inside_and_across_each_edge(coords: list[int]) -> None:
    _check_box(TensorMap(_array((24, 40)), (8, 16)), coords)


@pytest.mark.parametrize(
    ("shape", "box", "strides", "coords"),
    [
        ((64,), (32,), None, [40]),
        ((64,), (16,), (4,), [-4]),
        ((6, 40), (4, 16), (3, 1), [8, 1]),
        ((5, 6, 24), (2, 4, 8), (2, 3, 1), [-2, 3, 4]),
        ((3, 4, 5, 16), (2, 3, 2, 8), (1, 2, 3, 1), [12, 2, -1, 1]),
        ((2, 3, 4, 5, 8), (2, 2, 3, 4, 8), (1, 2, 2, 3, 1), [0, 3, 2, -1, 1]),
    ],
)
def test_boxes_of_every_rank_with_element_strides(
    shape: tuple[int, ...],
    box: tuple[int, ...],
    strides: tuple[int, ...] | None,
    coords: list[int],
) -> None:
    _check_box(TensorMap(_array(shape), box, element_strides=strides), coords)


def test_the_innermost_element_stride_is_ignored() -> None:
    """Driver API: "when interleave is CU_TENSOR_MAP_INTERLEAVE_NONE, the first element of
    [elementStrides] is ignored since TMA doesn't support the stride for dimension zero"."""
    strided = TensorMap(_array((8, 64)), (4, 16), element_strides=(2, 4))
    assert strided.counts == (2, 16)
    assert strided.box_bytes == 2 * 16 * 2
    elements, _ = box_elements(strided, [8, 1])
    assert elements.reshape(2, 16).tolist() == [
        list(range(64 + 8, 64 + 24)),
        list(range(3 * 64 + 8, 3 * 64 + 24)),
    ]


def test_transaction_bytes_and_the_shared_footprint() -> None:
    """The copy moves ceil(box / stride) elements per dimension; a swizzled row narrower
    than the span still takes the span in shared memory."""
    a = np.zeros((64, 64), dtype=np.float16)
    dense = TensorMap(a, (64, 64), swizzle=128)
    assert (dense.box_bytes, dense.row_pitch, dense.shared_bytes) == (8192, 128, 8192)
    narrow = TensorMap(a, (16, 16), swizzle=64)
    assert (narrow.box_bytes, narrow.row_pitch, narrow.shared_bytes) == (512, 64, 1024)
    plain = TensorMap(a, (16, 8))
    assert (plain.box_bytes, plain.row_pitch, plain.shared_bytes) == (256, 16, 256)
    strided = TensorMap(a, (15, 16), element_strides=(4, 1))
    assert (strided.counts, strided.box_bytes) == ((4, 16), 128)


@pytest.mark.parametrize("swizzle", [0, 32, 64, 128])
@pytest.mark.parametrize("base", [0, 128, 384, 1024 + 640])
def test_where_each_element_lands_in_shared_memory(swizzle: int, base: int) -> None:
    """Every element's shared byte address, for every swizzle mode and for boxes that
    start at each phase of the pattern ("swizzle base offset" (dstMem / 128) % lines),
    including rows narrower than the span."""
    for inner in {16, max(swizzle, 16)}:
        a = _array((16, inner), np.int16)
        tmap = TensorMap(a, (16, inner // 2 if inner > 16 else inner), swizzle=swizzle)
        offsets = swizzle_offsets(base + box_shared_offsets(tmap), swizzle)
        rows, cols = tmap.counts
        pitch = max(cols * 2, swizzle)
        for (r, c), got in zip(
            itertools.product(range(rows), range(cols)), offsets.tolist(), strict=True
        ):
            assert got == swizzled(base + r * pitch + 2 * c, swizzle), (r, c)


def test_swizzle_offsets_follow_the_isa_tables() -> None:
    """5.5.7: each 16-byte cell of a line, for every line of each repeating pattern."""
    for swizzle, period in [(32, 256), (64, 512), (128, 1024)]:
        addresses = np.arange(2 * period, dtype=np.int64)
        assert swizzle_offsets(addresses, swizzle).tolist() == [
            swizzled(int(a), swizzle) for a in addresses
        ]
    assert swizzle_offsets(np.arange(256, dtype=np.int64), 0).tolist() == list(
        range(256)
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"box": (257, 8)}, "box extents must be 1 to 256"),
        ({"box": (8, 0)}, "box extents must be 1 to 256"),
        ({"box": (8, 4)}, "inner box is 8 bytes; it must be a multiple of 16"),
        ({"box": (8, 64), "swizzle": 64}, "wider than the 64-byte swizzle span"),
        ({"box": (8, 8), "swizzle": 16}, "swizzle must be 0, 32, 64 or 128"),
        ({"box": (8, 8), "element_strides": (9, 1)}, "element strides must be"),
        ({"box": (8, 8), "element_strides": (1, 0)}, "element strides must be"),
        ({"box": (8,)}, "box has 1 extents for a rank-2 array"),
        ({"box": (8, 8), "oob_fill": "nan"}, "needs a floating-point array"),
        ({"box": (8, 8), "oob_fill": "one"}, "oob_fill must be 'zero' or 'nan'"),
    ],
)
def test_the_drivers_rules(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TensorMap(np.zeros((16, 64), dtype=np.int16), **kwargs)


def test_the_drivers_rules_on_the_array() -> None:
    with pytest.raises(ValueError, match="global stride of dimension 0 is 20 bytes"):
        TensorMap(np.zeros((4, 10), dtype=np.int16), (2, 8))
    with pytest.raises(ValueError, match="innermost dimension must be contiguous"):
        TensorMap(np.zeros((16, 32), dtype=np.int16)[:, ::2], (2, 8))
    with pytest.raises(ValueError, match="tensor rank must be 1 to 5"):
        TensorMap(np.zeros((1,) * 6, dtype=np.int16), (1,) * 6)
    TensorMap(np.zeros((16, 64), dtype=np.float16), (8, 8), oob_fill="nan")
