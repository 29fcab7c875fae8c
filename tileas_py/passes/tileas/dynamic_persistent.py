"""`tileas-dynamic-persistent`: make kernels dynamic persistent (TileASDynamicPersistent, D16).

A persistent kernel launches about one CTA per SM; each CTA keeps asking the tile
scheduler for another program id until the grid is done, instead of the hardware
launching one CTA per program id. The launch grid the kernel is built for is recorded on
it (`nv_tileas.persistent_grid`), and the tile grid becomes three kernel parameters, so
that a launcher runs the whole tile grid on that many CTAs (docs/tileas-to-ptx.md,
"Launching a persistent kernel").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IntAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    i32,
)
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable, is_side_effect_free
from xdsl.utils.exceptions import PassFailedException
from xdsl.utils.hints import isa

from tileas_py.diagnostics import emit_error, emit_warning
from tileas_py.dialects import nv_tileaa
from tileas_py.dialects.nv_tileaa import (
    PROGRAM_ID_DIMS,
    GetProgramIdOp,
    IsValidProgramIdOp,
    kernel_spec_of,
)
from tileas_py.dialects.nv_tileas import (
    DYNAMIC_PERSISTENT,
    PERSISTENT_GRID,
    TILE_SCHEDULER,
    CancelNextProgramIdOp,
    ClusterBarrierArriveOp,
    ClusterBarrierWaitOp,
    CreatePipelineOp,
    KernelOp,
    MBarrierCreateOp,
    MBarrierWaitOp,
)

GLOBAL_PTR = llvm.LLVMPointerType(IntAttr(1))

TILE_GRID_NAMES = ("tile_grid_x", "tile_grid_y", "tile_grid_z")
"""The kernel parameters a persistent kernel receives the tile grid in (its last three)."""

TILE_COUNTER_NAME = "tile_counter"
"""The parameter of a kernel with the dynamic scheduler: its tile counter, before the
tile grid."""

SCHEDULERS = ("static", "dynamic")

PERSISTENT_STATE = (CreatePipelineOp, MBarrierCreateOp)
"""Ops that set up state a CTA keeps across its tiles; they stay before the loop."""


def is_dynamic_persistent(kernel: KernelOp) -> bool:
    """Whether a `scf.while` of the kernel already tests `is_valid_program_id`."""
    return any(
        isinstance(op, scf.WhileOp)
        and any(isinstance(c, IsValidProgramIdOp) for c in op.before_region.walk())
        for op in kernel.walk()
    )


def is_one_time_sync(op: Operation) -> bool:
    """A cluster barrier, or an mbarrier wait for a constant phase: where the kernel
    waits once (the cluster's set-up before the first tile, its drain after the last);
    run per tile, each would wait again for a phase that never comes."""
    if isinstance(op, ClusterBarrierArriveOp | ClusterBarrierWaitOp):
        return True
    return isinstance(op, MBarrierWaitOp) and isinstance(
        op.phase.owner, arith.ConstantOp
    )


def reads_program_id(op: Operation) -> bool:
    return any(isinstance(inner, GetProgramIdOp) for inner in op.walk())


def producers(op: Operation, body: Block) -> list[Operation] | None:
    """The ops of `body` that compute `op`'s operands, transitively, in program order;
    None unless all are free of side effects and of program ids (so they can run once,
    before the loop)."""
    found: dict[Operation, None] = {}
    pending = list(op.operands)
    while pending:
        owner = pending.pop().owner
        if not isinstance(owner, Operation) or owner in found:
            continue
        if owner.parent_block() is not body or isinstance(owner, PERSISTENT_STATE):
            continue
        if not is_side_effect_free(owner) or reads_program_id(owner):
            return None
        found[owner] = None
        pending.extend(owner.operands)
    return [o for o in body.ops if o in found]


class KernelPartition:
    """A kernel body split into what runs once before the tile loop (set-up state and
    the leading one-time synchronisation with what it reads), once after it (the
    trailing one-time synchronisation) and once per tile (the rest)."""

    def __init__(self, body: Block) -> None:
        terminator = body.last_op
        assert terminator is not None
        ops = [op for op in body.ops if op is not terminator]
        self.before: dict[Operation, None] = {
            op: None for op in ops if isinstance(op, PERSISTENT_STATE)
        }
        self.after: dict[Operation, None] = {}
        self.take_syncs(ops, body, self.before)
        self.take_syncs(reversed(ops), body, self.after)
        self.per_tile = [
            op for op in ops if op not in self.before and op not in self.after
        ]
        # In program order.
        self.before = {op: None for op in ops if op in self.before}
        self.after = {op: None for op in ops if op in self.after}

    def take_syncs(
        self, ops: Iterable[Operation], body: Block, into: dict[Operation, None]
    ) -> None:
        """Move the one-time syncs of the run of `ops` that nothing with an effect
        precedes into `into`, with their side-effect-free operands (to `before`)."""
        for op in ops:
            if op in self.before or op in self.after:
                continue
            if is_one_time_sync(op):
                needed = producers(op, body)
                if needed is not None:
                    self.before.update(dict.fromkeys(needed))
                    into[op] = None
                    continue
            if not is_side_effect_free(op):
                return


def add_tile_grid_parameters(
    kernel: KernelOp, counter: bool = False
) -> tuple[BlockArgument, ...]:
    """Append the tile grid (x, y, z: three i32) to the kernel's parameters, after the
    tile counter (a global i32 pointer) when `counter`."""
    entry = kernel.body.block
    names = ((TILE_COUNTER_NAME,) if counter else ()) + TILE_GRID_NAMES
    types = ((GLOBAL_PTR,) if counter else ()) + (i32,) * len(TILE_GRID_NAMES)
    added = tuple(entry.insert_arg(t, len(entry.args)) for t in types)
    for arg, name in zip(added, names, strict=True):
        arg.name_hint = name
    kernel.function_type = FunctionType.from_lists(entry.arg_types, [])
    if kernel.arg_attrs is not None:
        kernel.arg_attrs = ArrayAttr(
            [*kernel.arg_attrs.data, *(DictionaryAttr({}) for _ in added)]
        )
    return added


def launch_grid(kernel: KernelOp, num_sms: int) -> tuple[int, int, int]:
    """One CTA per SM, in whole clusters (`.reqnctapercluster` divides the grid)."""
    spec = kernel_spec_of(kernel)
    cluster = spec.num_ctas.data if spec is not None else 1
    return (max(num_sms // cluster, 1) * cluster, 1, 1)


def make_dynamic_persistent(
    kernel: KernelOp, callees: TileIdCallees, num_sms: int, scheduler: str = "static"
) -> None:
    if len(kernel.body.blocks) != 1:
        emit_error(kernel, "expected a kernel body with a single block")
    body = kernel.body.block
    terminator = body.last_op
    assert terminator is not None
    partition = KernelPartition(body)
    for op in partition.before:
        op.detach()
        body.insert_op_before(op, terminator)

    launch_ids = [GetProgramIdOp(dim) for dim in PROGRAM_ID_DIMS]
    Rewriter.insert_op(launch_ids, InsertPoint.before(terminator))

    before = Block(arg_types=[i32] * 3)
    valid = IsValidProgramIdOp(*before.args)
    before.add_ops([valid, scf.ConditionOp(valid, *before.args)])

    after = Block(arg_types=[i32] * 3)
    for op in partition.per_tile:
        op.detach()
        after.add_op(op)
    for op in list(after.walk()):
        if isinstance(op, GetProgramIdOp):
            dim = PROGRAM_ID_DIMS.index(op.dim.data)
            op.result.replace_all_uses_with(after.args[dim])
            Rewriter.erase_op(op)
    callees.pass_tile_id(after, after.args)
    next_ids = CancelNextProgramIdOp()
    after.add_ops([next_ids, scf.YieldOp(*next_ids.results)])

    loop = scf.WhileOp(launch_ids, [i32] * 3, Region(before), Region(after))
    Rewriter.insert_op(loop, InsertPoint.before(terminator))
    for op in partition.after:
        op.detach()
        body.insert_op_before(op, terminator)
    add_tile_grid_parameters(kernel, counter=scheduler == "dynamic")
    kernel.attributes[PERSISTENT_GRID] = DenseArrayBase.from_list(
        i32, launch_grid(kernel, num_sms)
    )
    if scheduler == "dynamic":
        kernel.attributes[TILE_SCHEDULER] = StringAttr(scheduler)


FUNCTIONS = (func.FuncOp, nv_tileaa.FuncOp)
"""The callees whose program ids follow the persistent loop's."""


class TileIdCallees:
    """Functions called from a tile loop that read `get_program_id`: each gets a clone
    that takes the tile id (x, y, z) as three trailing i32 parameters instead (the
    original keeps serving its other callers)."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self.reads: dict[Operation, bool] = {}
        self.clones: dict[Operation, Operation] = {}

    def callee(self, call: func.CallOp) -> Operation | None:
        target = SymbolTable.lookup_symbol(self.module, call.callee)
        return (
            target
            if isinstance(target, FUNCTIONS) and target.regions[0].blocks
            else None
        )

    def reads_program_id(self, function: Operation) -> bool:
        """Whether `function`, or a function it calls, reads a program id."""
        if function not in self.reads:
            self.reads[function] = False  # recursion: decided by the other calls
            self.reads[function] = any(
                isinstance(op, GetProgramIdOp)
                or (
                    isinstance(op, func.CallOp)
                    and (callee := self.callee(op)) is not None
                    and self.reads_program_id(callee)
                )
                for op in function.walk()
            )
        return self.reads[function]

    def pass_tile_id(
        self, region_or_block: Block | Operation, ids: Sequence[SSAValue]
    ) -> None:
        """Make the calls in `region_or_block` that reach a program id call the clone
        that takes the tile id, passing `ids`."""
        ops = region_or_block.walk()
        for call in [op for op in ops if isinstance(op, func.CallOp)]:
            callee = self.callee(call)
            if callee is None or not self.reads_program_id(callee):
                continue
            clone = self.clone_for_tile_id(callee)
            name = clone.properties["sym_name"]
            assert isinstance(name, StringAttr)
            call.callee = SymbolRefAttr(name)
            call.operands = (*call.operands, *ids)

    def clone_for_tile_id(self, function: Operation) -> Operation:
        if function in self.clones:
            return self.clones[function]
        clone = function.clone()
        name = function.properties["sym_name"]
        assert isinstance(name, StringAttr)
        clone.properties["sym_name"] = StringAttr(
            self.unique_name(f"{name.data}_tile_id")
        )
        self.clones[function] = clone
        entry = clone.regions[0].blocks.first
        assert entry is not None
        ids = tuple(entry.insert_arg(i32, len(entry.args)) for _ in PROGRAM_ID_DIMS)
        for arg, dim in zip(ids, PROGRAM_ID_DIMS, strict=True):
            arg.name_hint = f"tile_id_{dim}"
        old_type = clone.properties["function_type"]
        assert isinstance(old_type, FunctionType)
        clone.properties["function_type"] = FunctionType.from_lists(
            entry.arg_types, old_type.outputs.data
        )
        arg_attrs = clone.properties.get("arg_attrs")
        if isa(arg_attrs, ArrayAttr[DictionaryAttr]):
            clone.properties["arg_attrs"] = ArrayAttr(
                [*arg_attrs.data, *(DictionaryAttr({}) for _ in ids)]
            )
        for op in list(clone.walk()):
            if isinstance(op, GetProgramIdOp):
                dim = PROGRAM_ID_DIMS.index(op.dim.data)
                op.result.replace_all_uses_with(ids[dim])
                Rewriter.erase_op(op)
        block = function.parent_block()
        assert block is not None
        block.insert_op_after(clone, function)
        self.pass_tile_id(clone, ids)
        return clone

    def unique_name(self, name: str) -> str:
        candidate, suffix = name, 0
        while SymbolTable.lookup_symbol(self.module, candidate) is not None:
            suffix += 1
            candidate = f"{name}_{suffix}"
        return candidate


@dataclass(frozen=True)
class DynamicPersistentPass(ModulePass):
    """
    Makes each `nv_tileas.kernel` dynamic persistent ("Make the kernel into dynamic
    persistent kernels").

    The kernel body becomes the body of an `scf.while` that carries the program id
    (x, y, z): the loop starts from the launch's `nv_tileaa.get_program_id` values, runs
    while `nv_tileaa.is_valid_program_id` holds, and asks for the next id with
    `nv_tileas.cancel_next_program_id` before its `scf.yield`. Every
    `nv_tileaa.get_program_id` of the body (nested regions included) is replaced by the
    loop-carried id of its dimension, and a function the body calls that reads one
    (itself or through its own calls) is called as a clone, `<name>_tile_id`, that
    takes the id as three trailing i32 parameters. Everything else of the body, among
    it the five ops tileiras rebuilds per iteration (`alloc_tensor`, `convert_layout`,
    `nv_tileaa.extract`, `arith.constant`, `arith.negf`), is evaluated per iteration
    inside the loop. What a CTA does once stays outside it: the state it keeps across
    tiles (`create_pipeline`, `mbarrier.create`) and, before the loop, the one-time
    synchronisation that only side-effect-free ops precede (cluster barriers and
    `mbarrier.wait`s of a constant phase, with the side-effect-free ops they read),
    after the loop the one-time synchronisation that only side-effect-free ops follow.
    No barrier or fence is added between iterations.

    The kernel records the launch grid it is built for as `nv_tileas.persistent_grid =
    array<i32: N, 1, 1>`, N = `num-sms` rounded down to whole clusters, and takes the
    tile grid (the program ids are below it) as three trailing i32 parameters
    `%tile_grid_x`, `%tile_grid_y`, `%tile_grid_z`: the launcher launches N CTAs and
    passes the grid it would have launched (docs/tileas-to-ptx.md). With the `static`
    scheduler CTA c runs the tiles c, c + N, c + 2N, ... of the tile grid, x fastest;
    in a kernel with a cluster a program is a cluster, and cluster c runs the tiles c,
    c + N / num_ctas, ... With the `dynamic` scheduler the kernel also gets
    `nv_tileas.tile_scheduler = "dynamic"` and a parameter `%tile_counter:
    !llvm.ptr<1>` before the tile grid: after its first tile, a CTA (a cluster) takes
    the tile the counter hands out next (`convert-tileas-to-nvvm` lowers it as an
    atomic add; the launcher zeroes the counter before each launch).

    A kernel that already has such a loop gets the warning
    "Kernel is already dynamic persistent" and is left unchanged.

    Before:
    ```
    nv_tileas.kernel @k(%v: !view) attributes {...} {
      %pid = nv_tileaa.get_program_id x
      "use"(%pid) : (i32) -> ()
      nv_tileas.return
    }
    ```
    After:
    ```
    nv_tileas.kernel @k(%v: !view, %tile_grid_x: i32, %tile_grid_y: i32, %tile_grid_z: i32) attributes {..., nv_tileas.persistent_grid = array<i32: 132, 1, 1>} {
      %x0 = nv_tileaa.get_program_id x
      %y0 = nv_tileaa.get_program_id y
      %z0 = nv_tileaa.get_program_id z
      %r:3 = scf.while (%x = %x0, %y = %y0, %z = %z0) : (i32, i32, i32) -> (i32, i32, i32) {
        %valid = nv_tileaa.is_valid_program_id %x, %y, %z
        scf.condition(%valid) %x, %y, %z : i32, i32, i32
      } do {
      ^bb0(%x: i32, %y: i32, %z: i32):
        "use"(%x) : (i32) -> ()
        %nx, %ny, %nz = nv_tileas.cancel_next_program_id
        scf.yield %nx, %ny, %nz : i32, i32, i32
      }
      nv_tileas.return
    }
    ```
    """

    name = "tileas-dynamic-persistent"

    num_sms: int = 132
    """The CTAs the kernel is launched on: one per SM (132 on an H100 SXM)."""

    marked_only: bool = False
    """Only kernels with the unit attribute `nv_tileas.dynamic_persistent`
    (`tileas-to-ptx` sets this)."""

    scheduler: str = "static"
    """How a CTA (of a cluster: the cluster) finds its next tile: `static`, the tile as
    many tiles further on as run at once; `dynamic`, the next number an atomic tile
    counter in global memory hands out (`nv_tileas.tile_scheduler = "dynamic"`; the
    kernel takes a pointer to the counter, which the launcher zeroes, before the tile
    grid)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.num_sms < 1:
            raise PassFailedException(
                f"tileas-dynamic-persistent: num-sms must be positive, got {self.num_sms}"
            )
        if self.scheduler not in SCHEDULERS:
            raise PassFailedException(
                "tileas-dynamic-persistent: scheduler must be static or dynamic, got "
                f"'{self.scheduler}'"
            )
        callees = TileIdCallees(op)
        kernels = [k for k in op.walk() if isinstance(k, KernelOp)]
        for kernel in kernels:
            if self.marked_only and DYNAMIC_PERSISTENT not in kernel.attributes:
                continue
            if is_dynamic_persistent(kernel):
                emit_warning(kernel, "Kernel is already dynamic persistent")
                continue
            make_dynamic_persistent(kernel, callees, self.num_sms, self.scheduler)
