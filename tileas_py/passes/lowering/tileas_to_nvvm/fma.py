"""`nv_tileas.dot` with the universal FMA atom in `convert-tileas-to-nvvm`: a register
tile `D = A * B + C` computed with one scalar `fma.rn` per element and K step.

A, B and C are `#nv_tileas.blocked` register tiles (`blocked.py`) whose element types
are one floating-point type. A thread holds only part of A's rows and B's columns, so the
operands go through shared memory, as Triton's FMA dot does for operands that are not in
its dot-operand layout: the dot gets a scratch slice of the kernel's shared buffer
(`SHARED`), A row-major then B row-major, and per thread

1. an agent barrier (readers of the previous dot are done with the scratch);
2. `st.shared` of its elements of A and of B;
3. an agent barrier (the whole of A and B is there);
4. for each k, `ld.shared` of A[r][k] for each of its rows r of C and of B[k][c] for
   each of its columns c, then `llvm.intr.fma` (`fma.rn`) into each of its elements
   C[r][c].

Rows and columns are the thread's origin plus constants (`conventions.BlockedTile`), so
each load is a constant offset from one address per operand.

Before (A 32 x 32 in `#blk`, B and C too):

    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.universal_fma<f32, f32, f32> wait_group = 0 : tensor<32x32xf32, #blk>, tensor<32x32xf32, #blk> -> tensor<32x32xf32, #blk>

After, abridged:

    nvvm.barrier id = %c2 number_of_threads = %c128
    llvm.store %a0, %pa0 : f32, !llvm.ptr<3>
    ...
    nvvm.barrier id = %c2 number_of_threads = %c128
    %x = llvm.load %qa0 : !llvm.ptr<3> -> f32
    %y = llvm.load %qb0 : !llvm.ptr<3> -> f32
    %d0 = llvm.intr.fma(%x, %y, %c0) : (f32, f32, f32) -> f32
"""

from __future__ import annotations

import math
from typing import cast

from xdsl.dialects import llvm
from xdsl.dialects.builtin import AnyFloat, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.diagnostics import emit_error
from tileas_py.dialects import cute_nvgpu
from tileas_py.dialects.nv_tileas.ops import DotOp, shape_of
from tileas_py.passes.lowering.tileas_to_nvvm.blocked import (
    IndexMath,
    blocked_tile,
    dense_strides,
    element_address,
    origin_address,
    row_major,
    store_elements,
    thread_origin,
)
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    BlockedTile,
    element_bits,
    extract_member,
    from_llvm,
    pack_members,
    to_llvm,
)
from tileas_py.passes.lowering.tileas_to_nvvm.kernel import SharedRequest, shared_slice
from tileas_py.passes.lowering.tileas_to_nvvm.threads import agent_barrier

SCRATCH_ALIGNMENT = 16


def _bytes(t: TensorType[Attribute]) -> int:
    return element_bits(t.get_element_type()) * math.prod(t.get_shape()) // 8


def _scratch(op: Operation) -> tuple[int, int] | None:
    """A and B of an FMA dot, one after the other."""
    assert isinstance(op, DotOp)
    if not isinstance(op.atom, cute_nvgpu.UniversalFmaAtomType):
        return None
    a = cast(TensorType[Attribute], op.a.type)
    b = cast(TensorType[Attribute], op.b.type)
    return _a_bytes(a) + _bytes(b), SCRATCH_ALIGNMENT


def _a_bytes(a: TensorType[Attribute]) -> int:
    """A's part of the scratch, rounded up so that B starts aligned."""
    return -(-_bytes(a) // SCRATCH_ALIGNMENT) * SCRATCH_ALIGNMENT


SHARED: dict[type[Operation], SharedRequest] = {DotOp: _scratch}


def _operand_tiles(op: DotOp) -> tuple[BlockedTile, BlockedTile, BlockedTile]:
    tiles = [blocked_tile(op, value) for value in (op.a, op.b, op.c)]
    a, b, c = tiles
    if a is None or b is None or c is None:
        emit_error(
            op,
            "a dot with the universal FMA atom takes #nv_tileas.blocked register "
            "tiles for A, B and C",
        )
    elements = {a.element, b.element, c.element}
    if len(elements) != 1 or not isinstance(c.element, AnyFloat):
        emit_error(
            op,
            "a dot with the universal FMA atom is lowered only when A, B and C have "
            "one floating-point element type",
        )
    return a, b, c


class LowerFmaDot(RewritePattern):
    """`nv_tileas.dot` with `!cute_nvgpu.universal_fma` to per-thread FMAs."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DotOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.atom, cute_nvgpu.UniversalFmaAtomType):
            return
        a, b, c = _operand_tiles(op)
        scratch = shared_slice(rewriter, op)
        if scratch is None:
            return
        a_scratch, b_scratch = _stage_operands(rewriter, op, (a, b), scratch)
        result = _accumulate(rewriter, op, c, a_scratch, b_scratch)
        rewriter.replace(op, [], [from_llvm(rewriter, result, op, op.result.type)])


def _stage_operands(
    rewriter: PatternRewriter,
    op: DotOp,
    tiles: tuple[BlockedTile, BlockedTile],
    scratch: SSAValue,
) -> tuple[SSAValue, SSAValue]:
    """Every thread writes its elements of A and B into the scratch, row-major, between
    two agent barriers; returns where A and B start."""
    a, b = tiles
    b_offset = _a_bytes(cast(TensorType[Attribute], op.a.type)) * 8
    b_scratch = element_address(
        rewriter, scratch, b_offset // element_bits(b.element), b.element
    )
    agent_barrier(rewriter, op)
    for tile, value, base in ((a, op.a, scratch), (b, op.b, b_scratch)):
        strides = dense_strides(tile.shape, row_major(2))
        struct = to_llvm(rewriter, value, op, tile.llvm_type)
        here = origin_address(rewriter, tile, base, strides)
        store_elements(rewriter, tile, struct, here, strides)
    agent_barrier(rewriter, op)
    return scratch, b_scratch


def _accumulate(
    rewriter: PatternRewriter,
    op: DotOp,
    c: BlockedTile,
    a_scratch: SSAValue,
    b_scratch: SSAValue,
) -> SSAValue:
    """The thread's elements of `A * B + C`, K step by K step, reading the rows of A
    and the columns of B it needs from the scratch (C's origin plus constants)."""
    (_, depth), (_, cols) = shape_of(op.a.type), shape_of(op.b.type)
    element = c.element
    row0, col0 = thread_origin(rewriter, c)
    im = IndexMath(rewriter)
    a_here = (
        a_scratch
        if row0 is None
        else element_address(rewriter, a_scratch, im.mul(row0, depth), element)
    )
    b_here = (
        b_scratch
        if col0 is None
        else element_address(rewriter, b_scratch, col0, element)
    )
    accumulator = to_llvm(rewriter, op.c, op, c.llvm_type)
    sums = [
        extract_member(rewriter, accumulator, index, element)
        for index in range(len(c.offsets))
    ]
    own_rows = sorted({r for r, _ in c.offsets})
    own_cols = sorted({col for _, col in c.offsets})

    def load(here: SSAValue, offset: int) -> SSAValue:
        address = element_address(rewriter, here, offset, element)
        return rewriter.insert(llvm.LoadOp(address, element)).dereferenced_value

    for k in range(depth):
        a_k = {r: load(a_here, r * depth + k) for r in own_rows}
        b_k = {col: load(b_here, k * cols + col) for col in own_cols}
        sums = [
            rewriter.insert(llvm.FMAOp(a_k[r], b_k[col], total)).res
            for (r, col), total in zip(c.offsets, sums, strict=True)
        ]
    return pack_members(rewriter, sums, c.llvm_type)


PATTERNS: tuple[RewritePattern, ...] = (LowerFmaDot(),)
