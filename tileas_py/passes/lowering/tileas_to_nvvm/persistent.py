"""Program ids in `convert-tileas-to-nvvm`, of ordinary and of dynamic persistent kernels
(`tileas-dynamic-persistent`).

In an ordinary kernel the program id is the CTA's id: `nv_tileaa.get_program_id x` is
`%ctaid.x`.

A persistent kernel (one with `nv_tileas.persistent_grid`) is launched on fewer CTAs
than it has tiles, and receives the tile grid (Tx, Ty, Tz) as its last three
parameters. Its tiles are numbered x fastest, t = x + Tx (y + Ty z), and CTA c (its
linear id in the launch grid, `%ctaid.x` fastest) runs the tiles c, c + G, c + 2G, ...
where G is the number of CTAs launched (`%nctaid.x * %nctaid.y * %nctaid.z`):

- `get_program_id` (outside the tile loop: the first tile) is tile c;
- `is_valid_program_id %x, %y, %z` is x < Tx and y < Ty and z < Tz;
- `cancel_next_program_id` (sm_90 has no hardware tile scheduler, sm_100's
  `clusterlaunchcontrol.try_cancel` is not modelled) is the tile G further on.

A kernel with a persistent loop but no `nv_tileas.persistent_grid` (written by hand)
takes its launch grid as the tile grid: an id is valid inside `%nctaid`, the next one is
a launch grid further along x.

The launch grid the kernel was built for is also emitted as a constant the launcher can
read, `llvm.mlir.global external constant @<kernel>_persistent_grid` in the constant
address space (PTX `.visible .const .align 4 .b32 <kernel>_persistent_grid[3]`).

Before (in a persistent kernel):

    %x0 = nv_tileaa.get_program_id x
    %v = nv_tileaa.is_valid_program_id %x, %y, %z
    %nx, %ny, %nz = nv_tileas.cancel_next_program_id

After (abridged):

    %c = ctaid.x + nctaid.x * (ctaid.y + nctaid.y * ctaid.z)
    %x0 = arith.remui %c, %tile_grid_x : i32
    %v = (x < tile_grid_x) & (y < tile_grid_y) & (z < tile_grid_z)
    %t = x + tile_grid_x * (y + tile_grid_y * z) + nctaid.x * nctaid.y * nctaid.z
    %nx = arith.remui %t, %tile_grid_x : i32 ...
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    StringAttr,
    TensorType,
    i32,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.diagnostics import emit_error
from tileas_py.dialects import nv_tileaa
from tileas_py.dialects.nv_tileaa import IsValidProgramIdOp
from tileas_py.dialects.nv_tileas.attrs import PERSISTENT_GRID
from tileas_py.dialects.nv_tileas.ops import CancelNextProgramIdOp, KernelOp
from tileas_py.dialects.nvvm import sreg

GRID_CONSTANT_SUFFIX = "_persistent_grid"
CONSTANT_ADDRESS_SPACE = 4

SpecialRegister = type[sreg.RangeableSpecialRegisterOp]

_CTAID: tuple[SpecialRegister, ...] = (
    sreg.BlockIdXOp,
    sreg.BlockIdYOp,
    sreg.BlockIdZOp,
)
_NCTAID: tuple[SpecialRegister, ...] = (
    sreg.GridDimXOp,
    sreg.GridDimYOp,
    sreg.GridDimZOp,
)


def persistent_grid(function: Operation) -> tuple[int, ...] | None:
    grid = function.attributes.get(PERSISTENT_GRID)
    if not isinstance(grid, DenseArrayBase):
        return None
    values = grid.get_values()
    return tuple(int(v) for v in values)


def tile_grid(op: Operation) -> tuple[SSAValue, ...] | None:
    """The tile grid parameters (x, y, z) of the persistent kernel enclosing `op`; None
    outside a persistent kernel."""
    function = op.parent_op()
    while function is not None and not isinstance(function, KernelOp | llvm.FuncOp):
        function = function.parent_op()
    if function is None or persistent_grid(function) is None:
        return None
    entry = function.regions[0].blocks.first
    assert isinstance(entry, Block)
    return tuple(entry.args[-3:])


def declare_persistent_grid(function: Operation) -> None:
    """`@<kernel>_persistent_grid`, the launch grid of a persistent kernel as a constant
    a launcher reads (`cuModuleGetGlobal`), before `function`; checks the kernel has
    the tile grid parameters its program ids are lowered with."""
    grid = persistent_grid(function)
    if PERSISTENT_GRID not in function.attributes:
        return
    entry = function.regions[0].blocks.first
    parameters = tuple(entry.arg_types[-3:]) if entry is not None else ()
    if grid is None or len(grid) != 3 or min(grid) < 1 or parameters != (i32,) * 3:
        emit_error(
            function,
            f"a kernel with {PERSISTENT_GRID} records a launch grid "
            "(array<i32: x, y, z>, positive) and takes the tile grid as its last three "
            "i32 parameters",
        )
    name = function.properties.get("sym_name")
    assert isinstance(name, StringAttr)
    values = DenseIntOrFPElementsAttr.from_list(
        TensorType(i32, [len(grid)]), list(grid)
    )
    constant = llvm.GlobalOp(
        llvm.LLVMArrayType(len(grid), i32),
        name.data + GRID_CONSTANT_SUFFIX,
        "external",
        addr_space=CONSTANT_ADDRESS_SPACE,
        constant=True,
        value=values,
        alignment=4,
    )
    block = function.parent_block()
    assert block is not None
    block.insert_op_before(constant, function)


class TileMath:
    """i32 arithmetic on tile numbers."""

    def __init__(self, rewriter: PatternRewriter) -> None:
        self.rewriter = rewriter

    def emit(self, op: Operation) -> SSAValue:
        return self.rewriter.insert(op).results[0]

    def read(self, kinds: Sequence[SpecialRegister]) -> list[SSAValue]:
        return [self.emit(kind(i32)) for kind in kinds]

    def linear(self, index: Sequence[SSAValue], counts: Sequence[SSAValue]) -> SSAValue:
        """`index[0] + counts[0] * (index[1] + counts[1] * index[2])`."""
        total = index[2]
        for i, n in ((index[1], counts[1]), (index[0], counts[0])):
            total = self.emit(arith.AddiOp(i, self.emit(arith.MuliOp(n, total))))
        return total

    def delinearize(
        self, number: SSAValue, counts: Sequence[SSAValue]
    ) -> list[SSAValue]:
        """(x, y, z) of `number` in a grid of `counts`, x fastest."""
        x = self.emit(arith.RemUIOp(number, counts[0]))
        rest = self.emit(arith.DivUIOp(number, counts[0]))
        y = self.emit(arith.RemUIOp(rest, counts[1]))
        z = self.emit(arith.DivUIOp(rest, counts[1]))
        return [x, y, z]

    def launched_ctas(self) -> SSAValue:
        gx, gy, gz = self.read(_NCTAID)
        return self.emit(arith.MuliOp(gx, self.emit(arith.MuliOp(gy, gz))))


class LowerGetProgramId(RewritePattern):
    """`nv_tileaa.get_program_id x`: `%ctaid.x`; in a persistent kernel, the first tile
    of the CTA."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: nv_tileaa.GetProgramIdOp, rewriter: PatternRewriter
    ) -> None:
        dim = nv_tileaa.PROGRAM_ID_DIMS.index(op.dim.data)
        grid = tile_grid(op)
        if grid is None:
            rewriter.replace(op, _CTAID[dim](i32))
            return
        tiles = TileMath(rewriter)
        cta = tiles.linear(tiles.read(_CTAID), tiles.read(_NCTAID))
        first_tile = tiles.delinearize(cta, grid)
        for sibling in adjacent_program_ids(op):
            index = nv_tileaa.PROGRAM_ID_DIMS.index(sibling.dim.data)
            rewriter.replace(sibling, [], [first_tile[index]])
        rewriter.replace(op, [], [first_tile[dim]])


def adjacent_program_ids(
    op: nv_tileaa.GetProgramIdOp,
) -> list[nv_tileaa.GetProgramIdOp]:
    """The `get_program_id` ops right after `op` (as `tileas-dynamic-persistent` emits
    them), which share its computation of the first tile."""
    following: list[nv_tileaa.GetProgramIdOp] = []
    current = op.next_op
    while isinstance(current, nv_tileaa.GetProgramIdOp):
        following.append(current)
        current = current.next_op
    return following


class LowerIsValidProgramId(RewritePattern):
    """`is_valid_program_id`: every coordinate inside the tile grid (the launch grid
    outside a persistent kernel)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: IsValidProgramIdOp, rewriter: PatternRewriter
    ) -> None:
        grid = tile_grid(op)
        tiles = TileMath(rewriter)
        valid: SSAValue | None = None
        for dim, value in enumerate((op.x, op.y, op.z)):
            size = (
                grid[dim] if grid is not None else tiles.read(_NCTAID[dim : dim + 1])[0]
            )
            inside = tiles.emit(arith.CmpiOp(value, size, "ult"))
            valid = inside if valid is None else tiles.emit(arith.AndIOp(valid, inside))
        assert valid is not None
        rewriter.replace(op, [], [valid])


def _loop_program_id(op: Operation) -> tuple[SSAValue, ...] | None:
    """The (x, y, z) the enclosing persistent `scf.while` carries into its body."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, scf.WhileOp):
        parent = parent.parent_op()
    if parent is None or len(parent.after_region.block.args) != 3:
        return None
    return tuple(parent.after_region.block.args)


class LowerCancelNextProgramId(RewritePattern):
    """`cancel_next_program_id`: the tile as many tiles further on as CTAs run (one
    launch grid further along x outside a persistent kernel)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: CancelNextProgramIdOp, rewriter: PatternRewriter
    ) -> None:
        current = _loop_program_id(op)
        if current is None:
            # Outside tileas-dynamic-persistent's loop: left to the pass's report.
            return
        tiles = TileMath(rewriter)
        grid = tile_grid(op)
        if grid is None:
            x, y, z = current
            (size,) = tiles.read(_NCTAID[:1])
            rewriter.replace(op, [], [tiles.emit(arith.AddiOp(x, size)), y, z])
            return
        tile = tiles.linear(current, grid)
        following = tiles.emit(arith.AddiOp(tile, tiles.launched_ctas()))
        rewriter.replace(op, [], tiles.delinearize(following, grid))


PATTERNS: tuple[RewritePattern, ...] = (
    LowerGetProgramId(),
    LowerIsValidProgramId(),
    LowerCancelNextProgramId(),
)
