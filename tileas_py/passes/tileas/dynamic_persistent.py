"""`tileas-dynamic-persistent`: make kernels dynamic persistent (TileASDynamicPersistent, D16).

A persistent kernel launches about one CTA per SM; each CTA keeps asking the tile
scheduler for another program id until the grid is done, instead of the hardware
launching one CTA per program id.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tileas_py.diagnostics import emit_error, emit_warning
from tileas_py.dialects.nv_tileaa import (
    PROGRAM_ID_DIMS,
    GetProgramIdOp,
    IsValidProgramIdOp,
)
from tileas_py.dialects.nv_tileas import (
    CancelNextProgramIdOp,
    CreatePipelineOp,
    KernelOp,
    MBarrierCreateOp,
)

PERSISTENT_STATE = (CreatePipelineOp, MBarrierCreateOp)
"""Ops that set up state a CTA keeps across its tiles; they stay before the loop."""


def is_dynamic_persistent(kernel: KernelOp) -> bool:
    """Whether a `scf.while` of the kernel already tests `is_valid_program_id`."""
    return any(
        isinstance(op, scf.WhileOp)
        and any(isinstance(c, IsValidProgramIdOp) for c in op.before_region.walk())
        for op in kernel.walk()
    )


def make_dynamic_persistent(kernel: KernelOp) -> None:
    if len(kernel.body.blocks) != 1:
        emit_error(kernel, "expected a kernel body with a single block")
    body = kernel.body.block
    terminator = body.last_op
    assert terminator is not None
    per_tile = [
        op
        for op in body.ops
        if op is not terminator and not isinstance(op, PERSISTENT_STATE)
    ]

    launch_ids = [GetProgramIdOp(dim) for dim in PROGRAM_ID_DIMS]
    Rewriter.insert_op(launch_ids, InsertPoint.before(terminator))

    before = Block(arg_types=[i32] * 3)
    valid = IsValidProgramIdOp(*before.args)
    before.add_ops([valid, scf.ConditionOp(valid, *before.args)])

    after = Block(arg_types=[i32] * 3)
    for op in per_tile:
        op.detach()
        after.add_op(op)
    for op in list(after.walk()):
        if isinstance(op, GetProgramIdOp):
            dim = PROGRAM_ID_DIMS.index(op.dim.data)
            op.result.replace_all_uses_with(after.args[dim])
            Rewriter.erase_op(op)
    next_ids = CancelNextProgramIdOp()
    after.add_ops([next_ids, scf.YieldOp(*next_ids.results)])

    loop = scf.WhileOp(launch_ids, [i32] * 3, Region(before), Region(after))
    Rewriter.insert_op(loop, InsertPoint.before(terminator))


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
    loop-carried id of its dimension. Everything else of the body, among it the five ops
    tileiras rebuilds per iteration (`alloc_tensor`, `convert_layout`, `nv_tileaa.extract`,
    `arith.constant`, `arith.negf`), is evaluated per iteration inside the loop; only the
    state a CTA keeps across tiles (`create_pipeline`, `mbarrier.create`) stays before it.
    No barrier or fence is added between iterations.

    A kernel that already has such a loop gets the warning
    "Kernel is already dynamic persistent" and is left unchanged.

    Before:
    ```
    nv_tileas.kernel @k(...) attributes {...} {
      %pid = nv_tileaa.get_program_id x
      "use"(%pid) : (i32) -> ()
      nv_tileas.return
    }
    ```
    After:
    ```
    nv_tileas.kernel @k(...) attributes {...} {
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

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels: list[Operation] = [k for k in op.walk() if isinstance(k, KernelOp)]
        for kernel in kernels:
            assert isinstance(kernel, KernelOp)
            if is_dynamic_persistent(kernel):
                emit_warning(kernel, "Kernel is already dynamic persistent")
                continue
            make_dynamic_persistent(kernel)
