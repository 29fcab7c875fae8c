"""What a TMA tile-mode copy moves and where it puts it, computed from the PTX ISA's words
with numpy indexing (the expectations of test_tensormap.py and test_layout_kernels.py):

- PTX ISA 5.5.3 "Tiled Mode": the box starts at the coordinates and visits, along each
  dimension, `ceil(box / stride)` elements `stride` apart; elements outside the tensor are
  zero (or the OOB NaN). The driver ignores the innermost element stride.
- In shared memory the box is dense, innermost dimension fastest; a swizzled box gives each
  row the whole swizzle span (CUDA Programming Guide, "TMA Swizzle"), and the 16-byte cells
  of each 128-byte line move as 5.5.7's tables say, the pattern anchored to the address.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from math import prod
from typing import Any

import numpy as np
import numpy.typing as npt
from ptx_isa import swizzled  # pyright: ignore[reportImplicitRelativeImport]


def box_indices(
    shape: Sequence[int],
    coords: Sequence[int],
    box: Sequence[int],
    strides: Sequence[int] | None,
) -> list[npt.NDArray[np.int64]]:
    """Per dimension (numpy order), the indices the box visits; `coords` in PTX order."""
    starts = list(reversed(coords))
    given = list(strides) if strides is not None else [1] * len(shape)
    given[-1] = 1
    return [
        start + step * np.arange(-(-extent // step), dtype=np.int64)
        for start, extent, step in zip(starts, box, given, strict=True)
    ]


def load_box(
    array: npt.NDArray[Any],
    coords: Sequence[int],
    box: Sequence[int],
    strides: Sequence[int] | None = None,
    fill: float = 0,
) -> npt.NDArray[Any]:
    """The box as the copy reads it, out-of-bounds elements set to `fill`."""
    axes = box_indices(array.shape, coords, box, strides)
    out = np.full([len(a) for a in axes], fill, dtype=array.dtype)
    valid = [(a >= 0) & (a < n) for a, n in zip(axes, array.shape, strict=True)]
    inside = np.ix_(*[a[v] for a, v in zip(axes, valid, strict=True)])
    out[np.ix_(*[np.flatnonzero(v) for v in valid])] = array[inside]
    return out


def in_bounds(
    shape: Sequence[int],
    coords: Sequence[int],
    box: Sequence[int],
    strides: Sequence[int] | None = None,
) -> npt.NDArray[np.bool_]:
    axes = box_indices(shape, coords, box, strides)
    masks = [(a >= 0) & (a < n) for a, n in zip(axes, shape, strict=True)]
    grids = np.meshgrid(*masks, indexing="ij")
    inside: npt.NDArray[np.bool_] = reduce(np.logical_and, grids)
    return inside


def shared_image(
    box: npt.NDArray[Any], swizzle: int, base: int, buffer_bytes: int, background: int
) -> npt.NDArray[np.uint8]:
    """The bytes of a shared buffer (1024-aligned) after the box lands at `base` in it."""
    image = np.full(buffer_bytes, background, dtype=np.uint8)
    itemsize = box.dtype.itemsize
    row_bytes = box.shape[-1] * itemsize
    pitch = max(row_bytes, swizzle)
    rows = np.ascontiguousarray(box).view(np.uint8).reshape(-1, row_bytes)
    for r in range(prod(box.shape[:-1])):
        for byte in range(row_bytes):
            image[swizzled(base + r * pitch + byte, swizzle)] = rows[r, byte]
    return image
