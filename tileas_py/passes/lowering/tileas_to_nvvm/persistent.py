"""Program ids in `convert-tileas-to-nvvm`, of ordinary and of dynamic persistent kernels
(`tileas-dynamic-persistent`).

In an ordinary kernel the program id is the CTA's id: `nv_tileaa.get_program_id x` is
`%ctaid.x`. In a kernel with a cluster (`num_ctas` > 1) the CTAs of a cluster run one
program together, each on its piece of the cluster's tiles (`cta.py`): the program id is
the cluster's, `%clusterid.x` (as in Triton), and what is said below of CTAs holds of
clusters (`%nclusterid` for `%nctaid`).

A persistent kernel (one with `nv_tileas.persistent_grid`) is launched on fewer CTAs
than it has tiles, and receives the tile grid (Tx, Ty, Tz) as its last three
parameters. Its tiles are numbered x fastest, t = x + Tx (y + Ty z), and CTA c (its
linear id in the launch grid, `%ctaid.x` fastest) runs the tiles c, c + G, c + 2G, ...
where G is the number of CTAs launched (`%nctaid.x * %nctaid.y * %nctaid.z`):

- `get_program_id` (outside the tile loop: the first tile) is tile c;
- `is_valid_program_id %x, %y, %z` is x < Tx and y < Ty and z < Tz;
- `cancel_next_program_id` (sm_90 has no hardware tile scheduler, sm_100's
  `clusterlaunchcontrol.try_cancel` is not modelled) is the tile G further on.

With the dynamic scheduler (`nv_tileas.tile_scheduler = "dynamic"`) the kernel takes a
global i32 counter, which the launcher zeroes, as the parameter before the tile grid,
and `cancel_next_program_id` is the tile G + n, where n is what the counter held: the
first thread of the CTA (of a cluster: of its CTA of rank 0) takes n with
`atom.global.add.u32` and writes it into a 4-byte slot of shared memory (of every CTA
of the cluster, through `mapa`: the CTAs of a cluster take one tile together); the
CTA (the cluster) meets, every thread reads n, and the CTA meets again before the slot
can be written for the next tile. So a CTA that finishes early takes the next tile not
yet taken, whichever CTA would have run it under static striding.

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

After, with the dynamic scheduler (abridged, no cluster):

    scf.if %tid_is_0 {
      %n = llvm.inline_asm has_side_effects "atom.global.add.u32 $0, [$1], 1;", "=r,l" %tile_counter
      llvm.store %n, %slot : i32, !llvm.ptr<3>
    }
    nvvm.barrier0
    %n = llvm.load %slot : !llvm.ptr<3> -> i32
    nvvm.barrier0
    %t = %n + nctaid.x * nctaid.y * nctaid.z
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntAttr,
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
from tileas_py.dialects.nv_tileas.attrs import PERSISTENT_GRID, TILE_SCHEDULER
from tileas_py.dialects.nv_tileas.ops import CancelNextProgramIdOp, KernelOp
from tileas_py.dialects.nvvm import sreg
from tileas_py.passes.lowering.tileas_to_nvvm.cluster import (
    cluster_ctas,
    cluster_rank,
    cluster_sync,
    enclosing_function,
    on_condition,
    remote,
)
from tileas_py.passes.lowering.tileas_to_nvvm.kernel import (
    SharedRequest,
    shared_slice,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    agent_barrier,
    constant,
    thread_id,
)

GRID_CONSTANT_SUFFIX = "_persistent_grid"
GLOBAL_I32_PTR = llvm.LLVMPointerType(IntAttr(1))
TILE_TAKE = "atom.global.add.u32 $0, [$1], 1;"
"""How the dynamic scheduler takes a tile number from its counter."""
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
_CLUSTERID: tuple[SpecialRegister, ...] = (
    sreg.ClusterIdXOp,
    sreg.ClusterIdYOp,
    sreg.ClusterIdZOp,
)
_NCLUSTERID: tuple[SpecialRegister, ...] = (
    sreg.ClusterDimXOp,
    sreg.ClusterDimYOp,
    sreg.ClusterDimZOp,
)


def program_registers(
    op: Operation,
) -> tuple[tuple[SpecialRegister, ...], tuple[SpecialRegister, ...]]:
    """The special registers of a program's id and of the launch's program grid: the
    CTA's (`%ctaid`, `%nctaid`), or in a kernel with a cluster the cluster's
    (`%clusterid`, `%nclusterid`): the CTAs of a cluster run one program together."""
    if cluster_ctas(op) > 1:
        return _CLUSTERID, _NCLUSTERID
    return _CTAID, _NCTAID


def persistent_grid(function: Operation) -> tuple[int, ...] | None:
    grid = function.attributes.get(PERSISTENT_GRID)
    if not isinstance(grid, DenseArrayBase):
        return None
    values = grid.get_values()
    return tuple(int(v) for v in values)


def dynamic_scheduler(function: Operation) -> bool:
    """Whether `function` takes its tiles from an atomic counter."""
    scheduler = function.attributes.get(TILE_SCHEDULER)
    return isinstance(scheduler, StringAttr) and scheduler.data == "dynamic"


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
    if dynamic_scheduler(function):
        counter = (
            entry.arg_types[-4] if entry is not None and len(entry.args) > 3 else None
        )
        if counter != GLOBAL_I32_PTR:
            emit_error(
                function,
                f'a kernel with {TILE_SCHEDULER} = "dynamic" takes its tile counter '
                "(!llvm.ptr<1>) as the parameter before the tile grid",
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

    def launched_programs(self, counts: Sequence[SpecialRegister]) -> SSAValue:
        gx, gy, gz = self.read(counts)
        return self.emit(arith.MuliOp(gx, self.emit(arith.MuliOp(gy, gz))))


class LowerGetProgramId(RewritePattern):
    """`nv_tileaa.get_program_id x`: `%ctaid.x`; in a persistent kernel, the first tile
    of the CTA."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: nv_tileaa.GetProgramIdOp, rewriter: PatternRewriter
    ) -> None:
        dim = nv_tileaa.PROGRAM_ID_DIMS.index(op.dim.data)
        ids, counts = program_registers(op)
        grid = tile_grid(op)
        if grid is None:
            rewriter.replace(op, ids[dim](i32))
            return
        tiles = TileMath(rewriter)
        program = tiles.linear(tiles.read(ids), tiles.read(counts))
        first_tile = tiles.delinearize(program, grid)
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
        _, counts = program_registers(op)
        tiles = TileMath(rewriter)
        valid: SSAValue | None = None
        for dim, value in enumerate((op.x, op.y, op.z)):
            size = (
                grid[dim] if grid is not None else tiles.read(counts[dim : dim + 1])[0]
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
        _, counts = program_registers(op)
        if grid is None:
            x, y, z = current
            (size,) = tiles.read(counts[:1])
            rewriter.replace(op, [], [tiles.emit(arith.AddiOp(x, size)), y, z])
            return
        function = enclosing_function(op)
        if dynamic_scheduler(function):
            entry = function.regions[0].blocks.first
            assert entry is not None
            tile = take_tile(rewriter, op, entry.args[-4])
        else:
            tile = tiles.linear(current, grid)
        following = tiles.emit(arith.AddiOp(tile, tiles.launched_programs(counts)))
        rewriter.replace(op, [], tiles.delinearize(following, grid))


def take_tile(
    rewriter: PatternRewriter, op: CancelNextProgramIdOp, counter: SSAValue
) -> SSAValue:
    """The number the tile counter holds, taken (and incremented) once per CTA, or per
    cluster, and read by all its threads from `op`'s shared slot."""
    slot = shared_slice(rewriter, op)
    assert slot is not None
    ctas = cluster_ctas(op)
    first = rewriter.insert(
        arith.CmpiOp(thread_id(rewriter), constant(rewriter, 0), "eq")
    ).result
    if ctas > 1:
        rank_0 = rewriter.insert(
            arith.CmpiOp(cluster_rank(rewriter), constant(rewriter, 0), "eq")
        ).result
        first = rewriter.insert(arith.AndIOp(first, rank_0)).result
    with on_condition(rewriter, first):
        taken = rewriter.insert(
            llvm.InlineAsmOp(TILE_TAKE, "=r,l", [counter], [i32], has_side_effects=True)
        ).results[0]
        if ctas == 1:
            rewriter.insert(llvm.StoreOp(taken, slot))
        else:
            for rank in range(ctas):
                peer_slot = remote(rewriter, slot, constant(rewriter, rank))
                rewriter.insert(llvm.StoreOp(taken, peer_slot))

    def meet() -> None:
        if ctas > 1:
            cluster_sync(rewriter)
        else:
            agent_barrier(rewriter, op)

    meet()
    number = rewriter.insert(llvm.LoadOp(slot, i32)).dereferenced_value
    meet()  # every thread has read the slot before the next tile's write
    return number


def _scheduler_slot(op: Operation) -> tuple[int, int] | None:
    """`cancel_next_program_id` of the dynamic scheduler: a 4-byte slot for the tile
    number its CTA takes."""
    return (4, 4) if dynamic_scheduler(enclosing_function(op)) else None


SHARED: dict[type[Operation], SharedRequest] = {
    CancelNextProgramIdOp: _scheduler_slot,
}


PATTERNS: tuple[RewritePattern, ...] = (
    LowerGetProgramId(),
    LowerIsValidProgramId(),
    LowerCancelNextProgramId(),
)
