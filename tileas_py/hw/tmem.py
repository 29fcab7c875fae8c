"""Tensor memory (sm_100): addresses, the lanes a warp may touch, and where data lies.

Each CTA has 128 lanes x 512 columns of 32-bit cells. An address is `lane << 16 | column`.
A warp reaches the 32 lanes of its quarter: warp w of a warpgroup (`(%tid / 32) % 4`) the
lanes 32 w .. 32 w + 31 (PTX ISA, "Tensor Memory" access restrictions).

`fragment` is the register layout of `tcgen05.ld` / `tcgen05.st` (PTX ISA, "Matrix fragments
for shape .32x32b" ... ".16x32bx2", Figures 183-187): for each register of one thread, the
(lane, column) of its cell relative to the address. `accumulator_cells` is where `tcgen05.mma`
keeps the rows and columns of D (PTX ISA, "Data path layout organization"): row i in lane i
for M = 128 per CTA; for M = 64 (`.cta_group::1`) rows 16 p .. 16 p + 15 in lanes 32 p ..
32 p + 15; for M = 128 with `.cta_group::2` (64 rows per CTA) the left half of the columns in
lanes 0-63 and the right half in lanes 64-127, N / 2 columns wide. The `.16x*` fragment
layouts and the data-path layouts were written from the PTX ISA's figures as CUTLASS encodes
them (`cute/atom/copy_traits_sm100.hpp`, `mma_traits_sm100.hpp` `tmem_frg`).
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np
import numpy.typing as npt

LANES = 128
COLUMNS = 512
WARP_LANES = 32
LANE_SHIFT = 16

Ints = npt.NDArray[np.int64]


def address(lane: int, column: int) -> int:
    return lane << LANE_SHIFT | column


def split(taddr: int) -> tuple[int, int]:
    """(lane, column) of a tensor-memory address."""
    return (taddr >> LANE_SHIFT) & 0xFFFF, taddr & 0xFFFF


def warp_lanes(warp_in_warpgroup: int) -> range:
    """The lanes a warp may access: its quarter of the tensor memory."""
    base = (warp_in_warpgroup % 4) * WARP_LANES
    return range(base, base + WARP_LANES)


class Shape(StrEnum):
    """The data-movement shapes of `tcgen05.ld` / `tcgen05.st`."""

    S32X32B = "32x32b"
    S16X64B = "16x64b"
    S16X128B = "16x128b"
    S16X256B = "16x256b"
    S16X32BX2 = "16x32bx2"

    @property
    def lanes(self) -> int:
        return 32 if self is Shape.S32X32B else 16

    @property
    def registers_per_repetition(self) -> int:
        return {
            Shape.S32X32B: 1,
            Shape.S16X64B: 1,
            Shape.S16X128B: 2,
            Shape.S16X256B: 4,
            Shape.S16X32BX2: 1,
        }[self]

    @property
    def columns_per_repetition(self) -> int:
        return {
            Shape.S32X32B: 1,
            Shape.S16X64B: 2,
            Shape.S16X128B: 4,
            Shape.S16X256B: 8,
            Shape.S16X32BX2: 1,
        }[self]


NUMS = (1, 2, 4, 8, 16, 32, 64, 128)
"""`.num` = `.x1` ... `.x128`: repetitions of the shape along the columns."""


def fragment(
    shape: Shape, num: int, thread: int, half_split: int = 0
) -> list[tuple[int, int]]:
    """(lane, column) offsets of each register of lane `thread` (0-31) of the warp, in
    register order, for `.shape.num` (`half_split`: the `.16x32bx2` column offset of the
    upper 16 threads)."""
    t = thread
    cells: list[tuple[int, int]] = []
    for r in range(num):
        if shape is Shape.S32X32B:
            cells.append((t, r))
        elif shape is Shape.S16X64B:
            cells.append((t // 4 + 8 * (t % 2), 2 * r + (t // 2) % 2))
        elif shape is Shape.S16X128B:
            column = 4 * r + t % 4
            cells += [(t // 4, column), (t // 4 + 8, column)]
        elif shape is Shape.S16X256B:
            column = 8 * r + 2 * (t % 4)
            lane = t // 4
            cells += [
                (lane, column),
                (lane, column + 1),
                (lane + 8, column),
                (lane + 8, column + 1),
            ]
        else:
            cells.append((t % 16, r + (t // 16) * half_split))
    return cells


def fragment_table(shape: Shape, num: int, half_split: int = 0) -> tuple[Ints, Ints]:
    """(lanes, columns), each (32 threads, registers): `fragment` for a whole warp."""
    table = [fragment(shape, num, t, half_split) for t in range(WARP_LANES)]
    cells = np.array(table, dtype=np.int64)
    return cells[:, :, 0], cells[:, :, 1]


def accumulator_cells(rows: int, n: int, cta_group: int) -> tuple[Ints, Ints]:
    """(lanes, columns), each (rows, n): where row i, column j of one CTA's part of D
    lies, relative to the D address. `rows` is M per CTA (M / cta_group)."""
    i = np.arange(rows, dtype=np.int64)[:, None]
    j = np.arange(n, dtype=np.int64)[None, :]
    if rows == LANES:
        return np.broadcast_to(i, (rows, n)).copy(), np.broadcast_to(
            j, (rows, n)
        ).copy()
    if rows == 64 and cta_group == 1:
        lanes = (i % 16) + 32 * (i // 16)
        return np.broadcast_to(lanes, (rows, n)).copy(), np.broadcast_to(
            j, (rows, n)
        ).copy()
    if rows == 64 and cta_group == 2:
        half = n // 2
        return i + 64 * (j // half), np.broadcast_to(j % half, (rows, n)).copy()
    raise ValueError(
        f"no data-path layout for {rows} rows per CTA (cta_group::{cta_group})"
    )
