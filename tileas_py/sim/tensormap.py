"""`TensorMap`: what CUDA's `cuTensorMapEncodeTiled` encodes, for the simulated TMA.

A tensor map names a global array, the box a TMA copy moves, the element strides of its
traversal, the shared-memory swizzle and the out-of-bounds fill. Everything here is in
numpy order (outermost dimension first); PTX's coordinates are innermost first. The
driver's rules are checked at construction (`ValueError`). The map's 128-byte encoding is
not public, so a kernel that reads the bytes of a map, or rewrites it with
`tensormap.replace`, stops the run.

What a tiled copy moves (PTX ISA, "Tensors", tiled mode): along each dimension the box
visits `ceil(box / element stride)` elements from the coordinate, `element stride` apart;
the driver ignores the innermost element stride ("TMA doesn't support the stride for
dimension zero"). Elements outside the tensor read as zero (or NaN) and are not written
by a store. In shared memory the box is dense, innermost dimension fastest, except that a
swizzled box whose inner rows are narrower than the swizzle span still takes the whole
span per row (CUDA Programming Guide, "TMA Swizzle": "if the swizzle width exceeds the inner
dimension, ensure that the shared memory is allocated to accommodate the full swizzle
width"). The swizzle then permutes the 16-byte chunks of every 128-byte line by the line's
place in the pattern, which is anchored to the shared-memory address. sm_100 adds 128-byte
swizzles that move 32- or 64-byte atoms instead of 16-byte chunks (`swizzle_atom`; CUDA's
`CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B` / `_ATOM_64B`): the 4 (2) atoms of a line are
permuted by the line's place in a 4- (2-) line pattern, the layout the sm_100 MMA reads with
its "128-byte swizzle with 32-byte atoms" descriptor mode. (The `_ATOM_32B_FLIP_8B` variant
is not modelled.)

CUDA Driver API, "Tensor Map Object Management":
https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TENSOR__MEMORY.html
PTX ISA, "Tensor Copy" and "Tensor-map swizzling modes":
https://docs.nvidia.com/cuda/parallel-thread-execution/#tensor-copy
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import Any

import numpy as np
import numpy.typing as npt

SWIZZLES = (0, 32, 64, 128)
SWIZZLE_ATOMS = (16, 32, 64)
"""Bytes the 128-byte swizzle moves as a unit: 16 (every SM), 32 or 64 (sm_100)."""
MAX_RANK = 5
MAX_BOX = 256
MAX_ELEMENT_STRIDE = 8
ALIGNMENT = 16
MAX_GLOBAL_STRIDE = 1 << 40
SHARED_ALIGNMENT = 128
"""A TMA copy's shared-memory box must start on 128 bytes (CUDA Programming Guide, "TMA
Swizzle", Table 25)."""


@dataclass(frozen=True, eq=False)
class TensorMap:
    """A tiled tensor map over `array`.

    Example:
        >>> import numpy as np
        >>> a = np.zeros((256, 256), dtype=np.float16)
        >>> TensorMap(a, box=(64, 64), swizzle=128).box_bytes
        8192
    """

    array: npt.NDArray[Any]
    box: tuple[int, ...]
    swizzle: int = 0
    element_strides: tuple[int, ...] | None = None
    oob_fill: str = "zero"
    swizzle_atom: int = 16

    def __init__(
        self,
        array: npt.NDArray[Any],
        box: Sequence[int],
        swizzle: int = 0,
        element_strides: Sequence[int] | None = None,
        oob_fill: str = "zero",
        *,
        swizzle_atom: int = 16,
    ) -> None:
        object.__setattr__(self, "array", array)
        object.__setattr__(self, "box", tuple(int(b) for b in box))
        object.__setattr__(self, "swizzle", swizzle)
        object.__setattr__(
            self,
            "element_strides",
            None if element_strides is None else tuple(int(s) for s in element_strides),
        )
        object.__setattr__(self, "oob_fill", oob_fill)
        object.__setattr__(self, "swizzle_atom", swizzle_atom)
        self._check()

    def _check(self) -> None:
        array = self.array
        if not isinstance(array, np.ndarray):
            raise ValueError("a TensorMap needs a numpy array")
        rank = array.ndim
        if not 1 <= rank <= MAX_RANK:
            raise ValueError(f"tensor rank must be 1 to {MAX_RANK}, got {rank}")
        if len(self.box) != rank:
            raise ValueError(f"box has {len(self.box)} extents for a rank-{rank} array")
        if any(not 1 <= b <= MAX_BOX for b in self.box):
            raise ValueError(f"box extents must be 1 to {MAX_BOX}, got {self.box}")
        strides = self.element_strides or (1,) * rank
        if len(strides) != rank or any(
            not 1 <= s <= MAX_ELEMENT_STRIDE for s in strides
        ):
            raise ValueError(
                f"element strides must be {rank} values from 1 to {MAX_ELEMENT_STRIDE}, got {strides}"
            )
        if self.swizzle not in SWIZZLES:
            raise ValueError(
                f"swizzle must be 0, 32, 64 or 128 bytes, got {self.swizzle}"
            )
        if self.swizzle_atom not in SWIZZLE_ATOMS:
            raise ValueError(
                f"swizzle_atom must be 16, 32 or 64 bytes, got {self.swizzle_atom}"
            )
        if self.swizzle_atom != 16 and self.swizzle != 128:
            raise ValueError(
                f"a {self.swizzle_atom}-byte swizzle atom needs the 128-byte swizzle"
            )
        if self.oob_fill not in ("zero", "nan"):
            raise ValueError(f"oob_fill must be 'zero' or 'nan', got {self.oob_fill!r}")
        if (
            self.oob_fill == "nan"
            and array.dtype.kind != "f"
            and "float" not in array.dtype.name
        ):
            raise ValueError("oob_fill='nan' needs a floating-point array")
        itemsize = array.dtype.itemsize
        if array.strides[-1] != itemsize:
            raise ValueError("the innermost dimension must be contiguous")
        for axis, stride in enumerate(array.strides[:-1]):
            if stride <= 0 or stride % ALIGNMENT or stride >= MAX_GLOBAL_STRIDE:
                raise ValueError(
                    f"global stride of dimension {axis} is {stride} bytes; it must be a "
                    f"positive multiple of {ALIGNMENT} below 2^40"
                )
        inner = self.box[-1] * itemsize
        if inner % ALIGNMENT:
            raise ValueError(
                f"the inner box is {inner} bytes; it must be a multiple of {ALIGNMENT}"
            )
        if self.swizzle and inner > self.swizzle:
            raise ValueError(
                f"the inner box is {inner} bytes, wider than the {self.swizzle}-byte swizzle span"
            )

    @property
    def strides(self) -> tuple[int, ...]:
        """Element strides of the traversal (numpy order), as the hardware applies them:
        the innermost one is always 1, whatever was given."""
        given = self.element_strides or (1,) * self.array.ndim
        return (*given[:-1], 1)

    @property
    def counts(self) -> tuple[int, ...]:
        """Elements moved along each dimension (numpy order)."""
        return tuple(-(-b // s) for b, s in zip(self.box, self.strides, strict=True))

    @property
    def box_bytes(self) -> int:
        """Bytes one copy moves (and its mbarrier transaction count)."""
        return prod(self.counts) * self.array.dtype.itemsize

    @property
    def row_bytes(self) -> int:
        """Bytes of one row of the box (its innermost dimension)."""
        return self.counts[-1] * self.array.dtype.itemsize

    @property
    def row_pitch(self) -> int:
        """Bytes from one row of the box to the next in shared memory: the row, or the
        whole swizzle span when the box is swizzled."""
        return max(self.row_bytes, self.swizzle)

    @property
    def shared_bytes(self) -> int:
        """Bytes of shared memory the box spans."""
        return prod(self.counts[:-1]) * self.row_pitch


def swizzle_offsets(
    offsets: npt.NDArray[np.int64], swizzle: int, atom: int = 16
) -> npt.NDArray[np.int64]:
    """Where the hardware puts logical shared-memory byte addresses under a swizzle mode:
    `Swizzle<B, 4, 3>` on the address (the 16-byte chunk index, bits 4.., XORed with the
    line bits 7..), B = 3, 2, 1 for 128, 64 and 32 bytes; with `atom` 32 or 64 (128-byte
    swizzle only) `Swizzle<2, 5, 2>` or `<1, 6, 1>`. The pattern is anchored to the address,
    so a box at `dstMem` starts at phase `(dstMem / 128) % 2^B`, the "swizzle base offset"
    of the PTX ISA."""
    if swizzle == 0:
        return offsets
    # `atom` bytes move as a unit: Swizzle<log2(swizzle / atom), log2(atom), 7 - log2(atom)>.
    shift = atom.bit_length() - 1
    bits = (swizzle // atom).bit_length() - 1
    mask = (1 << bits) - 1
    return offsets ^ (((offsets >> 7) & mask) << shift)


def box_elements(
    tmap: TensorMap, coords: Sequence[int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """For the box at `coords` (PTX order, innermost first): the flat element index in the
    array of every element of the box in shared-memory order, and whether it is in bounds."""
    rank = tmap.array.ndim
    if len(coords) != rank:
        raise ValueError(f"{len(coords)} coordinates for a rank-{rank} tensor map")
    starts = list(reversed([int(c) for c in coords]))  # numpy order
    axes = [
        start + stride * np.arange(count)
        for start, stride, count in zip(starts, tmap.strides, tmap.counts, strict=True)
    ]
    grids = np.meshgrid(*axes, indexing="ij")
    inside = np.ones(grids[0].shape, dtype=np.bool_)
    flat = np.zeros(grids[0].shape, dtype=np.int64)
    # The simulator stores every array C-contiguous (see `launch`).
    element_strides = [int(prod(tmap.array.shape[axis + 1 :])) for axis in range(rank)]
    for grid, extent, stride in zip(
        grids, tmap.array.shape, element_strides, strict=True
    ):
        inside &= (grid >= 0) & (grid < extent)
        flat += np.clip(grid, 0, extent - 1) * stride
    return flat.reshape(-1), inside.reshape(-1)


def box_shared_offsets(tmap: TensorMap) -> npt.NDArray[np.int64]:
    """The unswizzled byte offset in shared memory of every element of the box, in the
    order of `box_elements`: rows of the innermost dimension, `row_pitch` apart."""
    itemsize = tmap.array.dtype.itemsize
    inner = tmap.counts[-1]
    index = np.arange(prod(tmap.counts), dtype=np.int64)
    return (index // inner) * tmap.row_pitch + (index % inner) * itemsize
