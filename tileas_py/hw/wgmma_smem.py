"""Where a WGMMA shared-memory operand's elements are: the canonical layouts a matrix
descriptor names (sm_90a).

A descriptor (`smem_descriptor.SmemDescriptor`) gives a start address, a leading and a
stride byte offset (LBO, SBO), a matrix base offset and a swizzle mode; with the operand's
majorness (K-major, or M/N-major when the instruction's transpose bit is set) that fixes the
byte address of every element. In 16-byte chunks, with T elements per chunk and W = 1, 2, 4,
8 chunks per swizzle row (none, 32B, 64B, 128B), the PTX ISA's canonical layouts are
(`((shape), (shape)) : ((strides), (strides))`, MN index first, then K):

    K-major, no swizzle   ((8, m), (T, 2)) : ((1 chunk, SBO), (1 element, LBO))
    K-major, swizzled     ((8, m), (T, 2)) : ((W chunks, SBO), (1 element, 1 chunk))
    MN-major, no swizzle  ((T, m), (8, k)) : ((1 element, SBO), (1 chunk, LBO))
    MN-major, swizzled    ((T, W, m), (8, k)) : ((1 element, 1 chunk, LBO), (W chunks, SBO))

and the swizzle (`Swizzle<B, 4, 3>`, B = 1, 2, 3 for 32, 64, 128 bytes) XORs the 16-byte
chunk bits [4, 4 + B) of each address `start + offset` with the row of the 128-byte line
that address holds in the repeating pattern (2^B lines: 256, 512 or 1024 bytes).

The pattern's rows are counted from where it starts. The matrix base offset is that start's
phase, `(pattern start address >> 7) & 7`, and is 0 when the pattern starts on its own
boundary (PTX ISA, "Matrix Descriptor Format"): the row of the line at address `a` is
`((a >> 7) - base offset) mod 2^B`. With base offset 0 that is the address's own bits
[7, 7 + B), the pattern a TMA copy writes (PTX ISA, "Tensor-map swizzling modes": the copy's
swizzle base offset is `(dstMem / 128) % 2^B`, i.e. the pattern is anchored to the
address); a buffer that software swizzled from an unaligned start needs the base offset.
The field is ignored without swizzling.

PTX ISA, "Shared Memory Matrix Layout" and "Matrix Descriptor Format":
https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-shared-memory-layout
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tileas_py.hw.smem_descriptor import SmemDescriptor, Swizzle

CHUNK = 16
"""Bytes of a core-matrix row, the unit of the layouts."""

LINE = 128
"""Bytes of one line of a swizzle pattern."""

_CHUNKS_PER_ROW = {Swizzle.NONE: 1, Swizzle.B32: 2, Swizzle.B64: 4, Swizzle.B128: 8}
_SWIZZLE_BITS = {Swizzle.NONE: 0, Swizzle.B32: 1, Swizzle.B64: 2, Swizzle.B128: 3}

Ints = npt.NDArray[np.int64]


def swizzle_address(address: Ints, swizzle: Swizzle, base_offset: int = 0) -> Ints:
    """`Swizzle<B, 4, 3>` of shared-memory byte addresses whose pattern starts at phase
    `base_offset` (see the module docstring)."""
    bits = _SWIZZLE_BITS[swizzle]
    if bits == 0:
        return address
    mask = (1 << bits) - 1
    row = ((address >> 7) - base_offset) & mask
    return address ^ (row << 4)


def operand_addresses(
    descriptor: SmemDescriptor,
    mn: int,
    k: int,
    element_bytes: int,
    *,
    k_major: bool,
) -> Ints:
    """The shared-memory byte address of every element (i, j), i < mn, j < k, of the
    operand the descriptor names, as an (mn, k) array.

    Example:
        >>> d = SmemDescriptor(start_address=0, leading_byte_offset=128,
        ...                    stride_byte_offset=256)
        >>> operand_addresses(d, 16, 16, 2, k_major=True)[9, 10].item()
        404
    """
    swizzle = descriptor.swizzle
    offset = canonical_offsets(
        mn,
        k,
        element_bytes,
        k_major=k_major,
        swizzled=swizzle is not Swizzle.NONE,
        width=_CHUNKS_PER_ROW[swizzle],
        lbo=descriptor.leading_byte_offset,
        sbo=descriptor.stride_byte_offset,
    )
    return swizzle_address(
        descriptor.start_address + offset, swizzle, descriptor.base_offset
    )


def canonical_offsets(
    mn: int,
    k: int,
    element_bytes: int,
    *,
    k_major: bool,
    swizzled: bool,
    width: int,
    lbo: int,
    sbo: int,
) -> Ints:
    """The byte offset from the start of every element (i, j) of a canonical layout (see
    the module docstring), before the swizzle: `width` chunks a swizzle row, `lbo` and
    `sbo` the descriptor's leading and stride byte offsets. The tcgen05 descriptor names
    the same layouts (`tcgen05_smem`)."""
    per_chunk = CHUNK // element_bytes
    i = np.arange(mn, dtype=np.int64)[:, None]
    j = np.arange(k, dtype=np.int64)[None, :]
    if k_major:
        row = (i % 8) * width * CHUNK + (i // 8) * sbo
        inner = (j % per_chunk) * element_bytes
        column = (j // per_chunk) * (CHUNK if swizzled else lbo)
        return row + inner + column
    if not swizzled:
        return (
            (i % per_chunk) * element_bytes
            + (i // per_chunk) * sbo
            + (j % 8) * CHUNK
            + (j // 8) * lbo
        )
    return (
        (i % per_chunk) * element_bytes
        + ((i // per_chunk) % width) * CHUNK
        + (i // (per_chunk * width)) * lbo
        + (j % 8) * width * CHUNK
        + (j // 8) * sbo
    )
