"""How tile-level values become per-thread LLVM values in `convert-tileas-to-nvvm`.

This is the one place that states the value conventions every pattern module of the pass
(`kernel.py`, `dot.py`, `store.py`, and those that come later) relies on. It follows MLIR's
dialect-conversion practice (https://mlir.llvm.org/docs/DialectConversion/#type-conversion):
a pattern reads the LLVM value of a tile operand with `to_llvm(rewriter, value, op)` and
hands its own LLVM results back as tile values with `from_llvm(...)`; both insert a
`builtin.unrealized_conversion_cast`, and the pass folds each cast pair away once every op
is lowered, so patterns never depend on the order in which they run.

| tile-level type | LLVM value (per thread) |
| --- | --- |
| `!nv_tileas.tiled_view<...>` (a kernel parameter) | `!llvm.ptr`: the generic address of the CUtensorMap kernel parameter (`llvm.byval` + `nvvm.grid_constant`) |
| `tensor<..., #nv_tileas.shared<...>>` | `!llvm.ptr<3>`: the base address of its buffer |
| `!nv_tileas.mbarrier` | `!llvm.ptr<3>`: the address of the 8-byte barrier |
| `tensor<MxN, #nv_tileas.mma<...>>` (accumulator) | `fragment_type(t)`: the warpgroup's WGMMA D fragments |
| register-resident A of a `frag_kind = rs` atom | `a_fragment_type(t, k)`: the WGMMA A fragments |
| `tensor<..., #nv_tileas.blocked<...>>` (a register tile) | `BlockedTile(t).llvm_type`: the thread's elements |
| `tensor<128xN, #nv_tileas.tmem>` (sm_100 tensor memory) | `TMEM_TILE`, `!llvm.struct<(ptr<6>, i1)>`: its buffer's address and whether it holds data (`tmem.py`) |
| `index`, `iN`, `fN` | unchanged |

**Accumulator fragments.** `warps_per_cta = [4 W, 1]`: W warpgroups (128 threads each)
split the M x N accumulator by rows, warpgroup g of the agent holding rows
`g M / W .. (g + 1) M / W - 1` (Triton's and CUTLASS's cooperative split of a 128-row tile
over two consumer warpgroups). A warpgroup's M / W rows are covered by (M / W / 64) x (N / n)
instruction tiles, n being the encoding's `instr_shape[1]`; each thread holds, per tile,
the registers of one `m64nNk*` D operand: N / 2 `f32` or `i32`, or N / 4 `vector<2xf16>`
for an f16 accumulator (two values per 32-bit register, the form `nvvm.wgmma.mma_async`
takes). `fragment_type` is the struct of these per-tile structs, m-tile-major (tile
(m, n) is member `m * (N / n) + n`) — upstream NVGPU's
`!llvm.struct<(struct<(f32, ...)>, ...)>`. Value j of tile (m, n) (for f16: half j % 2 of
register j // 2) held by lane `lane` of warp `warp` of the agent is the element at

    row = (M / W) (warp / 4) + 64 m + 16 (warp % 4) + lane / 4 + dr,
    col = n * n_instr + 2 (lane % 4) + dc

with (dr, dc) = `hw.wgmma_layout.accumulator_offsets(n_instr)[j]`
(`accumulator_element` computes it).

**Blocked register tiles.** A `#nv_tileas.blocked` layout gives each thread
`size_per_thread` contiguous elements, arranges a warp's lanes `threads_per_warp` and the
agent's warps `warps_per_cta`, lanes and warps numbered along `order` (fastest dimension
first), as in Triton's blocked layout. Together they cover a *CTA tile* of
`size_per_thread * threads_per_warp * warps_per_cta` elements per dimension, which the
tile repeats a whole number of times. A thread's elements are a flat struct, its
repetitions outermost and its `size_per_thread` block inside, each enumerated along
`order`; element `e` lies at

    coordinate[d] = origin[d] + BlockedTile.offsets[e][d],
    origin[d] = (warp[d] * threads_per_warp[d] + lane[d]) * size_per_thread[d]

(`warp[d]`, `lane[d]`: the thread's warp in its agent and its lane, delinearized along
`order`), so each element sits at a constant offset from the thread's origin.

**Register A.** Per (m-tile, k-tile), m-tile-major, four `i32` registers packing
32 / element-bits elements each (`hw.wgmma_layout.a_fragment_offsets`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cached_property
from typing import cast

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    Float16Type,
    FloatAttr,
    FloatTF32Type,
    IntAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnrealizedConversionCastOp,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas.attrs import (
    BlockedEncodingAttr,
    MBarrierType,
    MmaEncodingAttr,
    SharedEncodingAttr,
    TiledViewType,
    TmemEncodingAttr,
    ints,
)
from tileas_py.hw import wgmma_layout
from tileas_py.hw.wgmma import FLOAT_N
from tileas_py.hw.wgmma import M as WGMMA_M

GENERIC_PTR = llvm.LLVMPointerType()
"""`!llvm.ptr`: a generic address (a CUtensorMap kernel parameter)."""

SHARED_PTR = llvm.LLVMPointerType(IntAttr(3))
"""`!llvm.ptr<3>`: a shared-memory address (a buffer, an mbarrier)."""

GLOBAL_PTR = llvm.LLVMPointerType(IntAttr(1))
"""`!llvm.ptr<1>`: a plain global-memory address."""

TMEM_PTR = llvm.LLVMPointerType(IntAttr(6))
"""`!llvm.ptr<6>`: a tensor-memory address (sm_100), `lane << 16 | column`."""

TMEM_TILE = llvm.LLVMStructType.from_type_list([TMEM_PTR, i1])
"""A `#nv_tileas.tmem` tile: its buffer's address, and whether it holds data (`tmem.py`)."""

TENSOR_MAP_BYTES = 128
"""A CUtensorMap is an opaque 128-byte, 64-byte aligned object."""


def element_bits(t: Attribute) -> int:
    """Bits of a tile element type (integer or floating point)."""
    if isinstance(t, IntegerType):
        return cast(IntegerType, t).bitwidth
    assert isinstance(t, AnyFloat)
    if isinstance(t, FloatTF32Type):
        return 32  # tf32 occupies a 32-bit container (bitwidth says 19)
    bits: int = t.bitwidth
    return bits


WARPGROUP_WARPS = 4


def accumulator_warpgroups(t: TensorType[Attribute]) -> int:
    """W: the warpgroups an mma-encoded accumulator is split over (by rows)."""
    encoding = t.encoding
    assert isinstance(encoding, MmaEncodingAttr)
    return max(1, ints(encoding.warps_per_cta)[0] // WARPGROUP_WARPS)


def accumulator_shape(t: TensorType[Attribute]) -> tuple[int, int, int]:
    """(m tiles, n tiles, instruction N) of the part of an mma-encoded accumulator tile
    that one warpgroup holds."""
    encoding = t.encoding
    assert isinstance(encoding, MmaEncodingAttr)
    rows, cols = t.get_shape()
    n_instr = ints(encoding.instr_shape)[1]
    rows //= accumulator_warpgroups(t)
    return rows // WGMMA_M, cols // n_instr, n_instr


def accumulator_problem(t: TensorType[Attribute]) -> str | None:
    """Why an mma-encoded tile is not an accumulator of WGMMA instruction tiles (None if
    it is one)."""
    encoding = t.encoding
    assert isinstance(encoding, MmaEncodingAttr)
    m, n, _ = ints(encoding.instr_shape)
    if m != WGMMA_M or n not in FLOAT_N:
        return (
            f"an #nv_tileas.mma accumulator's instr_shape {list(ints(encoding.instr_shape))} "
            f"is not a WGMMA shape (M = {WGMMA_M}, N a multiple of 8 up to 256)"
        )
    warps = list(ints(encoding.warps_per_cta))
    if len(warps) != 2 or warps[1] != 1 or warps[0] % WARPGROUP_WARPS or not warps[0]:
        return (
            "a WGMMA accumulator is held by whole warpgroups splitting its rows "
            f"(warps_per_cta = [4 W, 1]), got {warps}"
        )
    rows, cols = t.get_shape()
    groups = warps[0] // WARPGROUP_WARPS
    if rows % (m * groups) or cols % n:
        split = f" split over {groups} warpgroups" if groups > 1 else ""
        return (
            f"an accumulator of shape [{rows}, {cols}]{split} is not a whole number of "
            f"its {m}x{n} instruction tiles" + (" per warpgroup" if groups > 1 else "")
        )
    return None


def checked_fragment_type(
    op: Operation, t: TensorType[Attribute]
) -> llvm.LLVMStructType:
    """`fragment_type(t)`, or a diagnostic at `op` if `t` is not a WGMMA accumulator."""
    problem = accumulator_problem(t)
    if problem is not None:
        emit_error(op, problem)
    return fragment_type(t)


def tile_fragment_type(element: Attribute, n_instr: int) -> llvm.LLVMStructType:
    """The D registers of one `m64n{n_instr}` instruction tile."""
    if isinstance(element, Float16Type):
        return llvm.LLVMStructType.from_type_list(
            [VectorType(element, [2])] * (n_instr // 4)
        )
    return llvm.LLVMStructType.from_type_list([element] * (n_instr // 2))


def fragment_type(t: TensorType[Attribute]) -> llvm.LLVMStructType:
    """The per-thread accumulator of an mma-encoded tile: one member struct per
    (m-tile, n-tile), m-tile-major (see the module docstring)."""
    m_tiles, n_tiles, n_instr = accumulator_shape(t)
    tile = tile_fragment_type(t.get_element_type(), n_instr)
    return llvm.LLVMStructType.from_type_list([tile] * (m_tiles * n_tiles))


def accumulator_registers(fragments: llvm.LLVMStructType) -> int:
    """The 32-bit registers a thread's accumulator fragments occupy (an f16 pair is one)."""
    count = 0
    for tile in fragments.types.data:
        assert isinstance(tile, llvm.LLVMStructType)
        count += len(tile.types.data)
    return count


def accumulator_element(
    t: TensorType[Attribute], warp: int, lane: int, member: int, j: int
) -> tuple[int, int]:
    """(row, col) of value `j` of fragment member `member` held by `lane` of `warp` (of
    the agent)."""
    m_tiles, n_tiles, n_instr = accumulator_shape(t)
    m, n = divmod(member, n_tiles)
    group, warp_in_group = divmod(warp, WARPGROUP_WARPS)
    row0, col0 = wgmma_layout.fragment_origin(warp_in_group, lane, 2)
    dr, dc = wgmma_layout.accumulator_offsets(n_instr)[j]
    first = group * m_tiles * WGMMA_M
    return first + WGMMA_M * m + row0 + dr, n * n_instr + col0 + dc


def a_fragment_type(t: TensorType[Attribute], k_instr: int) -> llvm.LLVMStructType:
    """The per-thread register-resident A operand (M x K): four i32 per (m, k) tile."""
    rows, cols = t.get_shape()
    tile = llvm.LLVMStructType.from_type_list([i32] * wgmma_layout.A_REGISTERS)
    count = (rows // WGMMA_M) * (cols // k_instr)
    return llvm.LLVMStructType.from_type_list([tile] * count)


def _along(counts: tuple[int, ...], order: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every index of a `counts` box, dimension `order[0]` fastest."""
    indices: list[tuple[int, ...]] = []
    for number in range(math.prod(counts)):
        index = [0] * len(counts)
        rest = number
        for d in order:
            rest, index[d] = divmod(rest, counts[d])
        indices.append(tuple(index))
    return indices


class BlockedTile:
    """A `#nv_tileas.blocked` register tile as each thread holds it (the module
    docstring's convention)."""

    def __init__(self, t: TensorType[Attribute]) -> None:
        encoding = t.encoding
        assert isinstance(encoding, BlockedEncodingAttr)
        self.shape = tuple(t.get_shape())
        self.element: Attribute = t.get_element_type()
        self.size_per_thread = ints(encoding.size_per_thread)
        self.threads_per_warp = ints(encoding.threads_per_warp)
        self.warps_per_cta = ints(encoding.warps_per_cta)
        self.order = ints(encoding.order)
        self.cta_tile = tuple(
            size * threads * warps
            for size, threads, warps in zip(
                self.size_per_thread,
                self.threads_per_warp,
                self.warps_per_cta,
                strict=True,
            )
        )

    @property
    def warps(self) -> int:
        return math.prod(self.warps_per_cta)

    def covers(self) -> bool:
        """Whether the tile is a whole number of CTA tiles (no element held twice)."""
        return len(self.shape) == len(self.cta_tile) and all(
            size % tile == 0
            for size, tile in zip(self.shape, self.cta_tile, strict=True)
        )

    @cached_property
    def offsets(self) -> list[tuple[int, ...]]:
        """Each held element's coordinates relative to the thread's origin."""
        repeats = tuple(s // t for s, t in zip(self.shape, self.cta_tile, strict=True))
        return [
            tuple(r * t + e for r, t, e in zip(rep, self.cta_tile, inner, strict=True))
            for rep in _along(repeats, self.order)
            for inner in _along(self.size_per_thread, self.order)
        ]

    @property
    def llvm_type(self) -> llvm.LLVMStructType:
        return llvm.LLVMStructType.from_type_list([self.element] * len(self.offsets))


def convert_type(t: Attribute) -> Attribute | None:
    """The LLVM type of a tile-level type that has one by itself, or None.

    Scalars are their own LLVM type; a register-resident A operand has no type of its own
    (its fragments depend on the atom that reads it: `a_fragment_type`)."""
    if isinstance(t, TiledViewType):
        return GENERIC_PTR
    if isinstance(t, MBarrierType):
        return SHARED_PTR
    if isinstance(t, TensorType):
        encoding = t.encoding
        if isinstance(encoding, SharedEncodingAttr):
            return SHARED_PTR
        if isinstance(encoding, MmaEncodingAttr):
            tile = cast(TensorType[Attribute], t)
            return None if accumulator_problem(tile) else fragment_type(tile)
        if isinstance(encoding, BlockedEncodingAttr):
            tile = BlockedTile(cast(TensorType[Attribute], t))
            return tile.llvm_type if tile.covers() else None
        if isinstance(encoding, TmemEncodingAttr):
            return TMEM_TILE
        return None
    if (
        isinstance(t, IntegerType | AnyFloat)
        or t.name == "index"
        or t.name.startswith("llvm.")
    ):
        return cast(Attribute, t)
    return None


def scalar_constant(
    rewriter: PatternRewriter, element: Attribute, value: int | float
) -> SSAValue:
    """`llvm.mlir.constant` of `value` as an `element` (integer or float) scalar."""
    attr: Attribute = (
        IntegerAttr(int(value), cast(IntegerType, element))
        if isinstance(element, IntegerType)
        else FloatAttr(float(value), cast(AnyFloat, element))
    )
    return rewriter.insert(llvm.ConstantOp(attr, cast(Attribute, element))).result


def member_position(index: int) -> DenseArrayBase[IntegerType]:
    """The `position` of member `index` of an LLVM struct."""
    return DenseArrayBase.from_list(i64, [index])


def extract_member(
    rewriter: PatternRewriter, struct: SSAValue, index: int, member: Attribute
) -> SSAValue:
    """Member `index` (of type `member`) of an LLVM struct value."""
    return rewriter.insert(
        llvm.ExtractValueOp(member_position(index), struct, member)
    ).res


def pack_members(
    rewriter: PatternRewriter, values: Sequence[SSAValue], t: llvm.LLVMStructType
) -> SSAValue:
    """A struct of type `t` holding `values`: `llvm.mlir.undef`, then one
    `llvm.insertvalue` per member."""
    struct: SSAValue = rewriter.insert(llvm.UndefOp(t)).res
    for index, value in enumerate(values):
        struct = rewriter.insert(
            llvm.InsertValueOp(member_position(index), struct, value)
        ).results[0]
    return struct


def is_tile_type(t: Attribute) -> bool:
    """Whether values of this type must be lowered (everything but LLVM-level types)."""
    if isinstance(t, TensorType | TiledViewType | MBarrierType):
        return True
    return t.name.startswith(("nv_tileas.", "nv_tileaa.", "cute_nvgpu."))


def to_llvm(
    rewriter: PatternRewriter, value: SSAValue, before: Operation, to: Attribute
) -> SSAValue:
    """`value` as a value of LLVM type `to`, through an unrealized cast before `before`
    (or the input of the cast that made `value` from such a value)."""
    if value.type == to:
        return value
    source = cast_from(value, to)
    if source is not None:
        return source
    conversion = UnrealizedConversionCastOp.get([value], [to])
    rewriter.insert(conversion, InsertPoint.before(before))
    return conversion.results[0]


def cast_from(value: SSAValue, source_type: Attribute) -> SSAValue | None:
    """The value of type `source_type` that a cast made `value` from, if one did."""
    owner = value.owner
    if (
        isinstance(owner, UnrealizedConversionCastOp)
        and len(owner.inputs) == 1
        and owner.inputs[0].type == source_type
    ):
        return owner.inputs[0]
    return None


def from_llvm(
    rewriter: PatternRewriter, value: SSAValue, before: Operation, to: Attribute
) -> SSAValue:
    """An LLVM value handed back as a tile-level value of type `to`."""
    if value.type == to:
        return value
    conversion = UnrealizedConversionCastOp.get([value], [to])
    rewriter.insert(conversion, InsertPoint.before(before))
    return conversion.results[0]


def defining_op_through_casts(value: SSAValue) -> Operation | None:
    """The op that defines `value`, looking through unrealized casts."""
    owner = value.owner
    while isinstance(owner, UnrealizedConversionCastOp) and len(owner.inputs) == 1:
        owner = owner.inputs[0].owner
    return owner if isinstance(owner, Operation) else None
