"""Where a tcgen05 shared-memory operand's elements are: the canonical layouts an sm_100
descriptor (`tcgen05_descriptor.Tcgen05SmemDescriptor`) names.

The canonical layouts are the WGMMA ones (`wgmma_smem`, PTX ISA "Shared Memory Matrix
Layout"): in 16-byte chunks, T elements a chunk, W = 1, 2, 4, 8 chunks a swizzle row (none,
32B, 64B, 128B; 8 for the 128B mode with 32-byte atoms), MN index first, then K:

    K-major, no swizzle   ((8, m), (T, 2)) : ((1 chunk, SBO), (1 element, LBO))
    K-major, swizzled     ((8, m), (T, 2)) : ((W chunks, SBO), (1 element, 1 chunk))
    MN-major, no swizzle  ((T, m), (8, k)) : ((1 element, SBO), (1 chunk, LBO))
    MN-major, swizzled    ((T, W, m), (8, k)) : ((1 element, 1 chunk, LBO), (W chunks, SBO))

The swizzle XORs the atom index inside a 128-byte line (bits [a, 7) of the address, a = 4
for 16-byte atoms, 5 for 32-byte ones) with the line's row in the repeating pattern, counted
from the base offset: `Swizzle<3,4,3>` (128B), `<2,4,3>` (64B), `<1,4,3>` (32B) and
`<2,5,2>` for 128B with 32-byte atoms (CUTLASS `Layout_MN_SW128_32B_Atom`).

PTX ISA, "Shared memory descriptor" and "Matrix layouts" (tcgen05):
https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-shared-memory-descriptor
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tileas_py.hw.tcgen05_descriptor import LeadingMode, Swizzle, Tcgen05SmemDescriptor
from tileas_py.hw.wgmma_smem import canonical_offsets

CHUNK = 16
LINE = 128

Ints = npt.NDArray[np.int64]


def swizzle_address(address: Ints, swizzle: Swizzle, base_offset: int = 0) -> Ints:
    """The byte each logical byte address of a pattern starting at phase `base_offset`
    is stored at."""
    if swizzle is Swizzle.NONE:
        return address
    atom_shift = swizzle.atom_bytes.bit_length() - 1
    bits = (swizzle.row_bytes // swizzle.atom_bytes).bit_length() - 1
    row = ((address >> 7) - base_offset) & ((1 << bits) - 1)
    return address ^ (row << atom_shift)


def operand_addresses(
    descriptor: Tcgen05SmemDescriptor,
    mn: int,
    k: int,
    element_bytes: int,
    *,
    k_major: bool,
) -> Ints:
    """The shared-memory byte address of every element (i, j), i < mn, j < k, of the
    operand the descriptor names, as an (mn, k) array.

    Example:
        >>> d = Tcgen05SmemDescriptor(start_address=0, leading_byte_offset=128,
        ...                           stride_byte_offset=256)
        >>> operand_addresses(d, 16, 16, 2, k_major=True)[9, 10].item()
        404
    """
    if descriptor.leading_mode is LeadingMode.ABSOLUTE:
        raise ValueError(
            "the absolute leading-dimension mode (sm_103a) is not modelled"
        )
    swizzle = descriptor.swizzle
    offset = canonical_offsets(
        mn,
        k,
        element_bytes,
        k_major=k_major,
        swizzled=swizzle is not Swizzle.NONE,
        width=swizzle.row_bytes // CHUNK,
        lbo=descriptor.leading_byte_offset,
        sbo=descriptor.stride_byte_offset,
    )
    return swizzle_address(
        descriptor.start_address + offset, swizzle, descriptor.base_offset
    )
