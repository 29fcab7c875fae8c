"""The state spaces of a launch and the generic address space over them.

Every space is a flat byte array (a `Region`); an access names a space and an address and
resolves to byte offsets in one region, or stops the run with a located error when it is
out of bounds or misaligned. Global memory is one region per allocation (each numpy array
the launch was given, plus the module's `.global` variables), placed far apart in the
generic space so that running off an allocation never lands in another.

The generic address space (what `cvta` produces and plain `ld` / `st` take):

    shared  0x1000_0000_0000 + shared::cluster address
    local   0x2000_0000_0000 + local offset (of the accessing thread)
    param   0x3000_0000_0000 + kernel-parameter offset
    const   0x4000_0000_0000 + const offset
    global  0x5000_0000_0000 + allocation << 36 + offset

A shared::cta address is an offset into the CTA's shared memory. A shared::cluster address
is either a shared::cta address (the executing CTA's) or, as `mapa` makes it, the offset
with `(rank + 1) << 24` added, naming the CTA of that rank in the cluster.
PTX ISA, "State Spaces" and "Generic Addressing":
https://docs.nvidia.com/cuda/parallel-thread-execution/#state-spaces
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from tileas_py.sim.races import Shadow

Ints = npt.NDArray[np.int64]
Addresses = npt.NDArray[np.uint64]

WINDOW_SHIFT = 44
SHARED_WINDOW = 1
LOCAL_WINDOW = 2
PARAM_WINDOW = 3
CONST_WINDOW = 4
GLOBAL_WINDOW = 5
ALLOCATION_SHIFT = 36
RANK_SHIFT = 24
OFFSET_MASK = (1 << RANK_SHIFT) - 1

GENERIC_SHARED = SHARED_WINDOW << WINDOW_SHIFT
GENERIC_LOCAL = LOCAL_WINDOW << WINDOW_SHIFT
GENERIC_PARAM = PARAM_WINDOW << WINDOW_SHIFT
GENERIC_CONST = CONST_WINDOW << WINDOW_SHIFT
GENERIC_GLOBAL = GLOBAL_WINDOW << WINDOW_SHIFT


def global_base(allocation: int) -> int:
    """The generic (= global) address of an allocation's first byte."""
    return GENERIC_GLOBAL + (allocation << ALLOCATION_SHIFT)


@dataclass(eq=False)
class Region:
    """A flat byte array: shared memory (all CTAs), a global allocation, the parameters..."""

    name: str
    size: int
    """Bytes that may be accessed (per thread or CTA for the per-owner spaces)."""
    data: npt.NDArray[np.uint8]
    shadow: Shadow | None = None
    writable: bool = True
    array: npt.NDArray[Any] | None = None
    """The numpy array a global allocation came from (copied back after the run)."""
    label: str = ""
    """How reports name it: `shared`, `global arg 0`, ..."""
    extra: dict[str, Any] = field(default_factory=dict[str, Any])


def new_region(
    name: str, size: int, *, owners: int = 1, shadow: Shadow | None = None
) -> Region:
    # Padded to 16 bytes so aligned wide views of the data never fall off its end.
    total = -(-max(size * owners, 1) // 16) * 16
    return Region(name, size, np.zeros(total, dtype=np.uint8), shadow, label=name)


def _wide(region: Region, offsets: Ints, size: int) -> bool:
    """Whether the accesses can go through a view of `size`-byte words: each must sit on
    a multiple of its size in the region's data. An access aligned in its own space need
    not be: the spaces of the threads (local) and of the CTAs (shared) are laid out one
    after another, each as long as it is."""
    return (
        size in (1, 2, 4, 8)
        and region.data.shape[0] % 8 == 0
        and not (offsets & (size - 1)).any()
    )


def gather(region: Region, offsets: Ints, size: int) -> npt.NDArray[np.uint8]:
    """The `size` bytes at each offset, as an (n, size) array."""
    if _wide(region, offsets, size):
        wide = region.data.view(_UNSIGNED[size])
        return wide[offsets // size].view(np.uint8).reshape(-1, size)
    index = offsets[:, None] + np.arange(size)
    return region.data[index]


def scatter(
    region: Region, offsets: Ints, values: npt.NDArray[np.uint8], size: int
) -> None:
    """Store (n, size) bytes at each offset (later rows win where offsets repeat)."""
    if _wide(region, offsets, size):
        wide = region.data.view(_UNSIGNED[size])
        wide[offsets // size] = (
            np.ascontiguousarray(values).view(_UNSIGNED[size]).reshape(-1)
        )
        return
    index = offsets[:, None] + np.arange(size)
    region.data[index] = values


def byte_indices(offsets: Ints, size: int) -> Ints:
    """Every byte of each access, flattened (row-major: access, then byte)."""
    return (offsets[:, None] + np.arange(size)).reshape(-1)


_UNSIGNED: dict[int, Any] = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
