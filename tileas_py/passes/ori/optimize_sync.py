"""`ori-optimize-sync`: ptxas's OptimizeSyncInstructions (phase 71, seed 003).

Seed 003: at -O3, merges a barrier into an identical one in a dominating block, eliminates
synchronization instructions proven redundant, and CSEs DEPBAR pairs (hash-based, over the
barrier registers of their uses). The model, behind `sync-mode` (off by default, because
ptxas 13.5 keeps every barrier and every memory barrier, `membar_sys_back_to_back` and
`bar_dominated_identical_across_branch` in the corpus):

- *merge dominated identical barriers*: a `bar.sync` / `barrier.sync` equivalent to one
  executed on every path before it, with nothing it orders in between, at the same loop
  depth as the nearest dominating one (`sync_redundancy`), is removed; calls stop the proof;
- *eliminate redundant fences*: a `membar` / `fence` goes when an equal or stronger fence
  (semantics sc > acq_rel > acquire, release; scope sys > gpu > cluster > cta) executed on
  every path before it with no memory access in between; proxy fences and
  `fence.mbarrier_init` only by an identical one;
- *DEPBAR CSE*: a `cp.async.wait_group N` / `cp.async.bulk.wait_group[.read] N` is removed
  when at most N groups can be pending there anyway: a may-analysis of the most groups
  pending (commits add one, waits bound it, `wait_all` empties it, calls and a `.func`'s
  entry make it unknown), maximum at joins.

Example (`sync-mode=1`):

    ori.membar "membar.sys"
    ori.membar "membar.gl"

becomes

    ori.membar "membar.sys"
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tileas_py.dialects.ori.analysis import ControlFlowGraph, instructions
from tileas_py.dialects.ori.attributes import FunctionKind
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import (
    CallOp,
    CpAsyncBulkCommitGroupOp,
    CpAsyncBulkWaitGroupOp,
    CpAsyncCommitGroupOp,
    CpAsyncWaitAllOp,
    CpAsyncWaitGroupOp,
    InstructionOp,
)
from tileas_py.passes.ori.support.common import (
    block_instructions,
    defined_functions,
    erase,
)
from tileas_py.passes.ori.support.sync_events import (
    FenceKind,
    accesses_memory,
    fence_kind,
)
from tileas_py.passes.ori.support.sync_redundancy import (
    FactNumbering,
    facts_before,
    redundant_barriers,
)

UNKNOWN = 1 << 30
"""More groups than any wait count: nothing is known about the pending groups."""


@dataclass(frozen=True)
class OptimizeSyncPass(ModulePass):
    """Removes barriers, fences and async-group waits proven redundant (phase 71).

    See the module docstring for the three optimizations.
    """

    name = "ori-optimize-sync"

    opt_level: int = 3
    """ptxas's -O level; the phase runs at -O3 only (seed 003)."""
    sync_mode: int = 0
    """0 keeps every synchronization instruction (ptxas 13.5); 1 and above runs the
    three optimizations."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.opt_level <= 2 or self.sync_mode <= 0:
            return
        for func in defined_functions(op):
            cfg = ControlFlowGraph(func)
            redundant = [
                *redundant_barriers(func, _never, across_blocks=True),
                *_redundant_fences(func, cfg),
                *_redundant_waits(func, cfg),
            ]
            for inst in redundant:
                erase(inst)


def _redundant_fences(func: FuncOp, cfg: ControlFlowGraph) -> list[InstructionOp]:
    kinds: FactNumbering[FenceKind] = FactNumbering()
    for inst in instructions(func):
        if (kind := fence_kind(inst)) is not None:
            kinds.mask(kind.covers())

    def transfer(inst: InstructionOp) -> tuple[int, int]:
        if (kind := fence_kind(inst)) is not None:
            return 0, kinds.mask(kind.covers())
        if accesses_memory(inst) or isinstance(inst, CallOp):
            return -1, 0
        return 0, 0

    before = facts_before(cfg, transfer)
    return [
        inst
        for inst, facts in before.items()
        if (kind := fence_kind(inst)) is not None and facts & kinds(kind)
    ]


def _never(call: CallOp) -> bool:
    return False


_CP_ASYNC, _BULK, _BULK_READ = range(3)


def _wait_transfer(inst: InstructionOp, pending: list[int]) -> list[int]:
    """Most groups pending after `inst` (cp.async, bulk, bulk reads), from before it."""
    cp_async, bulk, bulk_read = pending
    if isinstance(inst, CpAsyncCommitGroupOp):
        return [min(cp_async + 1, UNKNOWN), bulk, bulk_read]
    if isinstance(inst, CpAsyncBulkCommitGroupOp):
        return [cp_async, min(bulk + 1, UNKNOWN), min(bulk_read + 1, UNKNOWN)]
    if isinstance(inst, CpAsyncWaitAllOp):
        return [0, bulk, bulk_read]
    if isinstance(inst, CpAsyncWaitGroupOp) and inst.guard is None:
        return [min(cp_async, inst.pending), bulk, bulk_read]
    if isinstance(inst, CpAsyncBulkWaitGroupOp) and inst.guard is None:
        if "read" in inst.opcode.data.split("."):
            return [cp_async, bulk, min(bulk_read, inst.pending)]
        return [cp_async, min(bulk, inst.pending), min(bulk_read, inst.pending)]
    if isinstance(inst, CallOp):
        return [UNKNOWN] * 3
    return pending


def _redundant_waits(func: FuncOp, cfg: ControlFlowGraph) -> list[InstructionOp]:
    count = len(cfg.blocks)
    start = 0 if func.kind.data is FunctionKind.ENTRY else UNKNOWN
    entry: list[list[int] | None] = [None] * count
    exit_: list[list[int] | None] = [None] * count
    if count:
        entry[0] = [start] * 3
    changed = True
    while changed:
        changed = False
        for b in cfg.reverse_postorder:
            if b != 0:
                incoming = [exit_[p] for p in cfg.predecessors[b]]
                known = [p for p in incoming if p is not None]
                if not known:
                    continue
                joined = [max(values) for values in zip(*known, strict=True)]
                previous = entry[b]
                if previous is not None:
                    # Widen: a count still growing around a loop is unknown.
                    joined = [
                        UNKNOWN if new > old else new
                        for new, old in zip(joined, previous, strict=True)
                    ]
                entry[b] = joined
            state = entry[b]
            assert state is not None
            for inst in block_instructions(cfg.blocks[b]):
                state = _wait_transfer(inst, state)
            if state != exit_[b]:
                exit_[b] = state
                changed = True
    redundant: list[InstructionOp] = []
    for b in cfg.reverse_postorder:
        state = entry[b]
        if state is None:
            continue
        for inst in block_instructions(cfg.blocks[b]):
            if _is_satisfied_wait(inst, state):
                redundant.append(inst)
            state = _wait_transfer(inst, state)
    return redundant


def _is_satisfied_wait(inst: InstructionOp, pending: list[int]) -> bool:
    if inst.guard is not None:
        return False
    if isinstance(inst, CpAsyncWaitGroupOp):
        return pending[_CP_ASYNC] <= inst.pending
    if isinstance(inst, CpAsyncBulkWaitGroupOp):
        kind = _BULK_READ if "read" in inst.opcode.data.split(".") else _BULK
        return pending[kind] <= inst.pending
    return False
