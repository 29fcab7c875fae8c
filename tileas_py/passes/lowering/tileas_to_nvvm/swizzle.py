"""Per-thread addresses in a swizzled shared tile, in `convert-tileas-to-nvvm`.

A thread that touches several elements of a `#nv_tileas.shared` tile (an accumulator staged
for a TMA store, a register A loaded with `ldmatrix`) reaches element e at the tile's
linear offset `T + C_e` (`hw.wgmma_layout.SharedTileLayout.offset`): T depends on the thread
only, C_e is a constant. The swizzle (`Swizzle<B, 4, 3>`: bits 4.. ^= bits 7..) reads bits
7-9 of the offset and writes bits 4-6, so adding a multiple of 1024 commutes with it:
`physical(T + C) = physical(T + C mod 1024) + (C - C mod 1024)`. `ThreadAddresses` computes
one runtime swizzle per distinct `C mod 1024` and makes the rest an immediate offset.

`splits_additively` checks, for every thread of the warpgroups at compile time, that the
element's offset is the thread's plus the constant (no panel boundary between them).
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import arith
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tileas_py.hw import wgmma_layout
from tileas_py.passes.lowering.tileas_to_nvvm.threads import constant, shared_address

SWIZZLE_PERIOD = 1024
"""A swizzle pattern repeats every 1024 bytes: adding a multiple leaves it unchanged."""

Point = tuple[int, int]
"""(row, column) of an element: the tile's outer and inner coordinates."""


def splits_additively(
    layout: wgmma_layout.SharedTileLayout,
    threads: Iterable[Point],
    constants: Iterable[Point],
) -> bool:
    """Whether `offset(t + c) == offset(t) + offset(c)` for every thread t and constant c."""

    def offset(point: Point) -> int:
        return layout.offset(inner=point[1], outer=point[0])

    points = list(threads)
    for c in constants:
        part = offset(c)
        if any(offset((t[0] + c[0], t[1] + c[1])) != offset(t) + part for t in points):
            return False
    return True


class ThreadAddresses:
    """`buffer + physical(thread + c)` for the constants c a thread asks for."""

    def __init__(
        self,
        rewriter: PatternRewriter,
        buffer: SSAValue,
        thread: SSAValue,
        layout: wgmma_layout.SharedTileLayout,
    ) -> None:
        self.rewriter = rewriter
        self.buffer = buffer
        self.thread = thread
        self.layout = layout
        self.bases: dict[int, SSAValue] = {}

    def _binary(
        self, kind: type[arith.SignlessIntegerBinaryOperation], a: SSAValue, b: int
    ) -> SSAValue:
        return self.rewriter.insert(kind(a, constant(self.rewriter, b))).result

    def address(self, offset: int) -> SSAValue:
        """The address of the element `offset` bytes (linear) after the thread's."""
        rewriter = self.rewriter
        low = offset % SWIZZLE_PERIOD if self.layout.swizzle else 0
        if low not in self.bases:
            linear = (
                self.thread if not low else self._binary(arith.AddiOp, self.thread, low)
            )
            physical = linear
            if self.layout.swizzle:
                mask = (1 << self.layout.swizzle_bits) - 1
                row = self._binary(arith.ShRUIOp, linear, 7)
                bits = self._binary(arith.AndIOp, row, mask)
                flip = self._binary(arith.ShLIOp, bits, 4)
                physical = rewriter.insert(arith.XOrIOp(linear, flip)).result
            self.bases[low] = shared_address(rewriter, self.buffer, physical)
        base = self.bases[low]
        if offset == low:
            return base
        return shared_address(rewriter, base, offset - low)
