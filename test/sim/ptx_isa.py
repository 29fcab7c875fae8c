"""The PTX ISA's layout figures and tables, written out as data and tiny formulas, for the
simulator's layout tests. Nothing here imports tileas_py: these are the expectations.

Sections of the PTX ISA (https://docs.nvidia.com/cuda/parallel-thread-execution/):

- 5.5.3 "Tiled Mode": bounding box, traversal stride, out-of-bound fill;
- 5.5.7 "Tensor-map swizzling modes": the 16-byte-cell tables below, and the swizzle base
  offset `(dstMem / 128) % lines` of a box that does not start on its pattern boundary;
- 9.7.15.5.1.2 "Shared Memory Matrix Layout": the canonical layouts of wgmma operands,
  in CuTe notation, and the matrix descriptor's base offset;
- 9.7.15.5.1.1 "Register Fragments" (Figures 148-153): warp w of the warpgroup holds rows
  16 w .. 16 w + 15, laid out within the warp as the mma.m16n8k{16,8,32} fragments, whose
  row / column formulas are text in 9.7.14.5 ("Matrix Fragments for mma.m16n8k*");
- 9.7.9.x "ldmatrix" / "stmatrix": threads 8 i .. 8 i + 7 give the rows of matrix i;
  thread t holds row t / 4, columns 2 (t % 4) and 2 (t % 4) + 1.
"""

from __future__ import annotations

# -- 5.5.7 Tensor-map swizzling modes ------------------------------------------------------------
# Each row is one 128-byte line of the repeating pattern; entry p is the 16-byte cell of the
# source line stored at position p ("... shows the pattern of the destination data layout").
SWIZZLE_PATTERNS: dict[int, tuple[tuple[int, ...], ...]] = {
    0: ((0, 1, 2, 3, 4, 5, 6, 7),),
    32: (
        (0, 1, 2, 3, 4, 5, 6, 7),
        (1, 0, 3, 2, 5, 4, 7, 6),
    ),
    64: (
        (0, 1, 2, 3, 4, 5, 6, 7),
        (1, 0, 3, 2, 5, 4, 7, 6),
        (2, 3, 0, 1, 6, 7, 4, 5),
        (3, 2, 1, 0, 7, 6, 5, 4),
    ),
    128: (
        (0, 1, 2, 3, 4, 5, 6, 7),
        (1, 0, 3, 2, 5, 4, 7, 6),
        (2, 3, 0, 1, 6, 7, 4, 5),
        (3, 2, 1, 0, 7, 6, 5, 4),
        (4, 5, 6, 7, 0, 1, 2, 3),
        (5, 4, 7, 6, 1, 0, 3, 2),
        (6, 7, 4, 5, 2, 3, 0, 1),
        (7, 6, 5, 4, 3, 2, 1, 0),
    ),
}
"""Starting address of the pattern: 256, 512 and 1024 bytes for 32B, 64B and 128B."""


def swizzled(address: int, swizzle: int, base_offset: int = 0) -> int:
    """Where the byte at unswizzled shared address `address` is stored; the pattern's
    first line is at phase `base_offset` (0: the pattern starts on its boundary)."""
    rows = SWIZZLE_PATTERNS[swizzle]
    line, cell, byte = address // 128, (address // 16) % 8, address % 16
    row = rows[(line - base_offset) % len(rows)]
    return line * 128 + row.index(cell) * 16 + byte


# -- 9.7.15.5.1.2.1.3 Canonical layouts ----------------------------------------------------------
IntTuple = int | tuple["IntTuple", ...]


def _size(shape: IntTuple) -> int:
    if isinstance(shape, int):
        return shape
    total = 1
    for s in shape:
        total *= _size(s)
    return total


def crd2idx(coordinate: int, shape: IntTuple, stride: IntTuple) -> int:
    """CuTe's index of an integer coordinate: split colexicographically over the shape."""
    if isinstance(shape, int):
        assert isinstance(stride, int)
        return coordinate * stride
    assert isinstance(stride, tuple)
    index = 0
    for sub_shape, sub_stride in zip(shape, stride, strict=True):
        index += crd2idx(coordinate % _size(sub_shape), sub_shape, sub_stride)
        coordinate //= _size(sub_shape)
    return index


_WIDTH = {0: 1, 32: 2, 64: 4, 128: 8}
_REPEATS = 64
"""m and k of the canonical layouts: more repeats than any instruction reads."""


def canonical_layout(
    k_major: bool, swizzle: int, t: int, lbo: int, sbo: int
) -> tuple[tuple[IntTuple, IntTuple], tuple[IntTuple, IntTuple]]:
    """The table of 9.7.15.5.1.2.1.3 for T elements per 16 bytes, LBO and SBO in elements:
    ((MN shape, K shape), (MN stride, K stride))."""
    w, m, k = _WIDTH[swizzle], _REPEATS, _REPEATS
    if k_major:
        if swizzle == 0:
            return ((8, m), (t, 2 * k)), ((1 * t, sbo), (1, lbo))
        return ((8, m), (t, 2 * k)), ((w * t, sbo), (1, t))
    if swizzle == 0:
        return ((t, 1, m), (8, k)), ((1, t, sbo), (1 * t, lbo))
    return ((t, w, m), (8, k)), ((1, t, lbo), (w * t, sbo))


def operand_byte_address(
    *,
    k_major: bool,
    swizzle: int,
    element_bytes: int,
    start: int,
    lbo: int,
    sbo: int,
    base_offset: int,
    mn: int,
    k: int,
) -> int:
    """Where a wgmma reads element (mn, k) of an operand whose descriptor holds `start`,
    `lbo`, `sbo` (bytes), `base_offset` and `swizzle`: the canonical layout, then
    `Swizzle<B, 4, 3>` "on the previous column", i.e. on the byte address."""
    t = 16 // element_bytes
    (mn_shape, k_shape), (mn_stride, k_stride) = canonical_layout(
        k_major, swizzle, t, lbo // element_bytes, sbo // element_bytes
    )
    element = crd2idx(mn, mn_shape, mn_stride) + crd2idx(k, k_shape, k_stride)
    return swizzled(start + element * element_bytes, swizzle, base_offset)


# -- Register fragments (9.7.14.5 formulas; 9.7.15.5.1.1 figures) -------------------------------
def _thread(thread: int) -> tuple[int, int, int]:
    """(warp of the warpgroup, groupID, threadID_in_group)."""
    warp, lane = divmod(thread, 32)
    return warp, lane >> 2, lane % 4


def accumulator_position(thread: int, i: int) -> tuple[int, int]:
    """(row, column) of d_i of an m64nN accumulator: per 8 columns, mma's c0..c3
    (row = groupID for c0, c1, groupID + 8 for c2, c3; col = 2 tig + (i & 1))."""
    warp, group, tig = _thread(thread)
    row = 16 * warp + group + 8 * ((i >> 1) & 1)
    return row, 8 * (i >> 2) + 2 * tig + (i & 1)


def a_position(thread: int, i: int, element_bits: int) -> tuple[int, int]:
    """(row, column) of a_i of a register A fragment: mma.m16n8k16 (16-bit), m16n8k8
    (tf32) or m16n8k32 (8-bit) A, in the warp's 16 rows."""
    warp, group, tig = _thread(thread)
    if element_bits == 16:
        # row = groupID for a0, a1, a4, a5; col = 2 tig + (i & 1) (+ 8 for i >= 4)
        row = group + 8 * ((i >> 1) & 1)
        col = 2 * tig + (i & 1) + 8 * (i >= 4)
    elif element_bits == 32:
        # row = groupID for a0, a2; col = tig for a0, a1, tig + 4 for a2, a3
        row = group + 8 * (i & 1)
        col = tig + 4 * (i >= 2)
    else:
        # row = groupID for 0 <= i < 4 || 8 <= i < 12; col = 4 tig + (i & 3) (+ 16, i >= 8)
        row = group + 8 * (4 <= i < 8 or i >= 12)
        col = 4 * tig + (i & 3) + 16 * (i >= 8)
    return 16 * warp + row, col


def matrix_fragment(lane: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """ldmatrix / stmatrix m8n8 .b16: the (row, column) of the low and the high half of a
    lane's register ("a group of four threads loads an entire row")."""
    row, column = lane >> 2, 2 * (lane % 4)
    return (row, column), (row, column + 1)


# -- 9.7.15.5.1.2.2 Matrix descriptor format ------------------------------------------------------
DESCRIPTOR_SWIZZLE = {0: 0, 128: 1, 64: 2, 32: 3}
"""Bits 62-63: 0 no swizzle, 1 128-Byte, 2 64-Byte, 3 32-Byte."""


def descriptor_word(
    *, start: int, lbo: int, sbo: int, base_offset: int = 0, swizzle: int = 0
) -> int:
    """Bits 0-13 start, 16-29 LBO, 32-45 SBO (each `(x & 0x3FFFF) >> 4`), 49-51 base
    offset, 62-63 swizzle mode."""

    def encode(x: int) -> int:
        return (x & 0x3FFFF) >> 4

    return (
        encode(start)
        | encode(lbo) << 16
        | encode(sbo) << 32
        | (base_offset & 7) << 49
        | DESCRIPTOR_SWIZZLE[swizzle] << 62
    )
