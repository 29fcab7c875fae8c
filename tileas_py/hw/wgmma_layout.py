"""Where WGMMA operands live: the shared-memory tiles its descriptors describe, and the
register fragments of A and of the accumulator D (sm_90a).

PTX ISA, "Register Fragments and Shared Memory Matrix Layouts":
https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-register-fragment

**Shared memory.** A 2-D tile is stored as *panels*: its contiguous ("inner") dimension is
cut into spans of `P` bytes (the swizzle width, or one 16-byte core-matrix column without
swizzling); a panel holds every row of the other ("outer") dimension, `P` bytes a row, and
the panels follow each other. Within a swizzle pattern (8 rows) the 16-byte chunks of a
row are permuted by `Swizzle<B, 4, 3>` on the address: bits [4, 4 + B) ^= bits [7, 7 + B)
(B = 3, 2, 1 for 128, 64, 32 bytes). That is the PTX ISA's canonical layout for both
majornesses:

    K-major  ((8,m),(T,2k)) : ((P/16*T, SBO),(1, T))   SBO = 8 P  (no swizzle: LBO = panel)
    MN-major ((T,W,m),(8,k)) : ((1,T,LBO),(W*T, SBO))  LBO = panel, SBO = 8 P
                                                       (no swizzle: SBO = panel, LBO = 128)

with T the elements of 16 bytes and W = P / 16, so one descriptor per operand covers the
whole tile and each instruction's sub-tile starts at the logical (unswizzled) byte offset of
its first element: the hardware applies the swizzle to the address it computes. Buffers are
aligned to 1024 bytes, so every panel starts on a swizzle-pattern boundary and the matrix
base offset is 0.

**Registers.** Warp w of the warpgroup owns rows 16 w .. 16 w + 15 of A and of D. Lane l
of it starts at row `l / 4` and at column `(l % 4) * v`, where v is the number of elements
one 32-bit register holds; every register element sits at a fixed offset from there (the
layouts CUTLASS names `ALayout_64x{8,16,32}` and `CLayout_64xN`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tileas_py.hw.smem_descriptor import SmemDescriptor, Swizzle

CORE_MATRIX_ROWS = 8
"""Rows of a core matrix (and of one swizzle pattern)."""

CHUNK_BYTES = 16
"""Bytes of a core-matrix row: the unit swizzling permutes."""

INSTRUCTION_K_BYTES = 32
"""Every WGMMA instruction reads 256 bits of K per row: K = 256 / element bits."""

BUFFER_ALIGNMENT = 1024
"""Shared-memory tiles start on a 128-byte swizzle pattern (and so on every smaller one)."""

WARPGROUP_THREADS = 128
ROWS_PER_WARP = 16
A_REGISTERS = 4
"""A fragment of every input type is four 32-bit registers."""

_SWIZZLE_MODES = {
    0: Swizzle.NONE,
    32: Swizzle.B32,
    64: Swizzle.B64,
    128: Swizzle.B128,
}
_SWIZZLE_BITS = {0: 0, 32: 1, 64: 2, 128: 3}


@dataclass(frozen=True)
class SharedTileLayout:
    """A 2-D tile in shared memory, stored as swizzled panels (see the module docstring).

    Example:
        >>> a = SharedTileLayout(inner=64, outer=128, element_bytes=2, swizzle=128)
        >>> a.offset(inner=8, outer=3), a.address(inner=8, outer=3)
        (400, 416)
        >>> b = SharedTileLayout(inner=128, outer=64, element_bytes=2, swizzle=128)
        >>> b.offset(inner=64, outer=0)
        8192
    """

    inner: int
    """Elements along the contiguous dimension."""
    outer: int
    """Elements along the other dimension (the rows of each panel)."""
    element_bytes: int
    swizzle: int
    """Swizzle width in bytes: 0 (none), 32, 64 or 128."""

    @property
    def panel_bytes(self) -> int:
        """Bytes of one panel row: the swizzle width, or a 16-byte chunk without swizzling."""
        return self.swizzle or CHUNK_BYTES

    @property
    def panel_stride(self) -> int:
        """Bytes from one panel to the next."""
        return self.outer * self.panel_bytes

    @property
    def size(self) -> int:
        return self.inner * self.outer * self.element_bytes

    def problem(self) -> str | None:
        """Why the tile cannot be stored this way, or None."""
        if self.swizzle not in _SWIZZLE_MODES:
            return f"swizzle must be 0, 32, 64 or 128 bytes, got {self.swizzle}"
        row_bytes = self.inner * self.element_bytes
        if row_bytes % self.panel_bytes:
            what = (
                f"{self.swizzle}-byte swizzling"
                if self.swizzle
                else "an unswizzled WGMMA layout"
            )
            return (
                f"{what} needs the contiguous dimension to span a multiple of "
                f"{self.panel_bytes} bytes, got {row_bytes}"
            )
        if self.outer % CORE_MATRIX_ROWS:
            return (
                f"the other dimension must be a multiple of {CORE_MATRIX_ROWS}, got "
                f"{self.outer}"
            )
        return None

    def offset(self, *, inner: int, outer: int) -> int:
        """Logical byte offset of an element (before swizzling)."""
        byte = inner * self.element_bytes
        panel, within = divmod(byte, self.panel_bytes)
        return panel * self.panel_stride + outer * self.panel_bytes + within

    @property
    def swizzle_bits(self) -> int:
        """B of `Swizzle<B, 4, 3>`: how many chunk-index bits the row index permutes."""
        return _SWIZZLE_BITS[self.swizzle]

    def physical(self, offset: int) -> int:
        """Where a logical byte offset is stored: `Swizzle<B, 4, 3>` of it."""
        mask = (1 << self.swizzle_bits) - 1
        return offset ^ (((offset >> 7) & mask) << 4)

    def address(self, *, inner: int, outer: int) -> int:
        """Byte offset from the buffer start where an element is stored."""
        return self.physical(self.offset(inner=inner, outer=outer))

    def descriptor(self, *, k_major: bool) -> SmemDescriptor:
        """The matrix descriptor of the tile at shared address 0 (the emitter adds the
        buffer's address at run time), read as a K-major or MN-major operand."""
        if k_major:
            leading = self.panel_stride if not self.swizzle else CHUNK_BYTES
            stride = CORE_MATRIX_ROWS * self.panel_bytes
        elif self.swizzle:
            leading = self.panel_stride
            stride = CORE_MATRIX_ROWS * self.panel_bytes
        else:
            leading = CORE_MATRIX_ROWS * CHUNK_BYTES
            stride = self.panel_stride
        return SmemDescriptor(
            start_address=0,
            leading_byte_offset=leading,
            stride_byte_offset=stride,
            swizzle=_SWIZZLE_MODES[self.swizzle],
        )


@dataclass(frozen=True)
class OperandTiling:
    """How the instructions of a tile loop read one shared operand (A: M x K, B: K x N).

    `mn` / `k` are the instruction's extents, the tile is `layout`, and `k_major` says
    which of the tile's dimensions is contiguous.
    """

    layout: SharedTileLayout
    k_major: bool
    mn: int
    """Rows of A (64) or columns of B (the atom's N) each instruction reads."""
    k: int
    """The instruction's K."""

    def problem(self) -> str | None:
        """Why one descriptor cannot walk this tile, or None."""
        if (problem := self.layout.problem()) is not None:
            return problem
        if self.k_major:
            return None
        extent = self.mn * self.layout.element_bytes
        if extent % self.layout.panel_bytes:
            return (
                f"an mn-major operand read {self.mn} elements ({extent} bytes) at a time "
                f"needs them to fill whole {self.layout.panel_bytes}-byte panels"
            )
        return None

    def byte_offset(self, mn_tile: int, k_tile: int) -> int:
        """Logical byte offset of instruction tile (mn_tile, k_tile) from the tile start:
        what the descriptor advances by (in 16-byte units)."""
        mn, k = mn_tile * self.mn, k_tile * self.k
        if self.k_major:
            return self.layout.offset(inner=k, outer=mn)
        return self.layout.offset(inner=mn, outer=k)

    def descriptor(self) -> SmemDescriptor:
        return self.layout.descriptor(k_major=self.k_major)


def elements_per_register(element_bits: int) -> int:
    """Elements one 32-bit fragment register holds."""
    return 32 // element_bits


def fragment_origin(warp: int, lane: int, per_register: int) -> tuple[int, int]:
    """(row, column) of the first element a thread holds in A or in D, in its 64-row tile."""
    return ROWS_PER_WARP * warp + lane // 4, (lane % 4) * per_register


def accumulator_offsets(n: int) -> tuple[tuple[int, int], ...]:
    """(row, column) offset from `fragment_origin(..., 2)` of each accumulator value
    d0, d1, ..., d(N/2 - 1) of an m64nN instruction (an f16 register packs two of them)."""
    return tuple(
        (CORE_MATRIX_ROWS * ((r >> 1) & 1), 8 * (r >> 2) + (r & 1))
        for r in range(n // 2)
    )


def a_fragment_offsets(element_bits: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per register of a register-resident A (four of them), the (row, column) offset
    from `fragment_origin(..., per register)` of each element it packs, low bits first."""
    k = INSTRUCTION_K_BYTES * 8 // element_bits
    per_register = elements_per_register(element_bits)
    return tuple(
        tuple(
            (CORE_MATRIX_ROWS * (j & 1), (k // 2) * (j >> 1) + i)
            for i in range(per_register)
        )
        for j in range(A_REGISTERS)
    )
