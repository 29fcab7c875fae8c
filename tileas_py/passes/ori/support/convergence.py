"""Where a warp may be diverged: the dataflow behind WARPSYNC and BSSY / BSYNC placement.

A forward *may* analysis over the CFG with one bit of state, "the threads of the warp may
not all be here together". It becomes true after a divergent branch (`WarpUniformity`;
not on the side that stays when the other ends its threads: ptxas's `@P0 EXIT`), after a
call of an extern function, or after a call of a function that may return diverged; it
becomes false after anything that makes the warp converge: an instruction that needs the
whole warp (a CTA barrier, `setmaxnreg`, a full-mask warp-level `.sync` op), for which the
expansion puts a `WARPSYNC.ALL` first where needed, an explicit `WARPSYNC.ALL`, or the
`BSYNC` that closes a `BSSY` region (which restores the state before its `BSSY`).

Linear in the size of the function per iteration; it reaches its fixed point in a few.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Block

from tileas_py.analysis.divergence import WarpUniformity
from tileas_py.dialects.ori.analysis import ControlFlowGraph
from tileas_py.dialects.ori.attributes import FunctionKind, ImmAttr
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import (
    BarrierOp,
    BraOp,
    CallOp,
    ExitOp,
    InstructionOp,
    RetOp,
)
from tileas_py.dialects.ori.sass import SassOp, sass_opcode
from tileas_py.passes.ori.support.common import callee_name, ocg_intrinsic, opcode_parts

FULL_MASK = 0xFFFFFFFF
WARP_SYNC_ROOTS = frozenset({"shfl", "vote", "match", "redux"})
"""Warp-level operations with a member mask (`shfl.sync ... mask`)."""


def member_mask(inst: InstructionOp) -> ImmAttr | bool | None:
    """The member mask of a warp-level `.sync` op: the immediate, True for a register
    mask, None for an instruction without one."""
    parts = opcode_parts(inst)
    if "sync" not in parts or not inst.layout.data:
        return None
    is_warp_sync = parts[0] in WARP_SYNC_ROOTS or parts[:2] == ["bar", "warp"]
    if not is_warp_sync:
        return None
    mask = inst.layout.data[-1]
    return mask if isinstance(mask, ImmAttr) else True


def has_full_mask(inst: InstructionOp) -> bool:
    mask = member_mask(inst)
    return isinstance(mask, ImmAttr) and mask.value.data & FULL_MASK == FULL_MASK


def needs_whole_warp(inst: InstructionOp) -> bool:
    """Whether the instruction needs every thread of the warp to execute it together
    (`.aligned` CTA barriers and warpgroup ops, `setmaxnreg`, full-mask warp-level
    syncs), which ptxas meets with a `WARPSYNC.ALL` where the warp may be diverged."""
    parts = opcode_parts(inst)
    if sass_opcode(inst) == "":
        return False  # dropped (an ignored setmaxnreg)
    if isinstance(inst, BarrierOp):
        return parts[:2] != ["barrier", "cluster"]
    if parts[0] == "wgmma" and "aligned" in parts:
        return True
    if parts[0] == "setmaxnreg":
        return True
    return has_full_mask(inst)


CalleeState = Callable[[str], bool]
"""Whether the function of that name may return with its warp diverged."""


class Convergence:
    """The may-be-diverged state before every instruction of one function."""

    def __init__(
        self,
        func: FuncOp,
        uniformity: WarpUniformity,
        callee_diverges: CalleeState,
        bsync_of: dict[SassOp, SassOp] | None = None,
    ) -> None:
        self.cfg = ControlFlowGraph(func)
        self.is_kernel = func.kind.data is FunctionKind.ENTRY
        self.uniformity = uniformity
        self.callee_diverges = callee_diverges
        self.bsync_of = bsync_of or {}
        self.before: dict[InstructionOp, bool] = {}
        count = len(self.cfg.blocks)
        self.entry = [False] * count
        self.exit = [False] * count
        changed = True
        while changed:
            changed = False
            for index in self.cfg.reverse_postorder:
                block = self.cfg.blocks[index]
                out = self._through(block, self.entry[index])
                if out != self.exit[index]:
                    self.exit[index] = out
                    changed = True
                leaving = out or self._ends_divergent(block)
                for successor in self.cfg.successors[index]:
                    if leaving and not self.entry[successor]:
                        self.entry[successor] = True
                        changed = True

    def _ends_divergent(self, block: Block) -> bool:
        terminator = block.last_op
        if isinstance(terminator, BraOp) and self._exits(terminator.target):
            return False  # the threads that branch leave: the others stay together
        return isinstance(terminator, InstructionOp) and self.uniformity.is_divergent(
            terminator
        )

    def _exits(self, block: Block) -> bool:
        """A block that only ends its threads (`exit`, or `ret` in a kernel)."""
        body = [op for op in block.ops if isinstance(op, InstructionOp)]
        if len(body) != 1 or body[0].guard is not None:
            return False
        return isinstance(body[0], ExitOp) or (
            isinstance(body[0], RetOp) and self.is_kernel
        )

    def _through(self, block: Block, state: bool) -> bool:
        for op in block.ops:
            if isinstance(op, InstructionOp):
                self.before[op] = state
                state = self._transfer(op, state)
        return state

    def _transfer(self, op: InstructionOp, state: bool) -> bool:
        if isinstance(op, SassOp):
            opcode = op.opcode.data
            if opcode == "WARPSYNC.ALL":
                return False
            if opcode.startswith("BSYNC") and (bssy := self.bsync_of.get(op)):
                return self.before.get(bssy, state)
            return state
        if needs_whole_warp(op):
            return False
        if isinstance(op, CallOp) and ocg_intrinsic(op) is None:
            name = callee_name(op)
            return state or name is None or self.callee_diverges(name)
        return state

    def diverged_before(self, inst: InstructionOp) -> bool:
        """Whether the warp may be diverged when `inst` issues."""
        return self.before.get(inst, False)

    def returns_diverged(self) -> bool:
        """Whether the function may return with its warp diverged."""
        return any(
            self.exit[i] or self._ends_divergent(block)
            for i, block in enumerate(self.cfg.blocks)
            if isinstance(block.last_op, RetOp)
        )
