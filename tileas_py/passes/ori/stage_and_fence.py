"""`ori-stage-and-fence`: ptxas's StageAndFence (phase 25, seed 003).

Seed 003: after loop unrolling, replicated loads and stores may cross a synchronization
boundary that was inside the original loop body; the phase walks the loops (highest index
first), rejects those whose body can hide the hazard (its budget test, knob 900's 0.5
scale), picks a fence strength and inserts a fence at the boundary of unrolled iterations.
It runs at -O3 only, with loop unrolling enabled, behind knob 487; knob 429 (`+N-` /
`-N-`) selects loops by id.

The model, per natural loop whose body holds a synchronization boundary (a CTA barrier,
a memory fence, an mbarrier wait, a cp.async / bulk wait): the *head* is the memory
accesses some path from the header reaches before any boundary, the *tail* those from
which some path reaches a back edge without one. When unrolled, the tail of one iteration
runs right before the head of the next with no boundary in between, so if a tail access
and a head access may conflict (one of them writes, both may touch the same shared or
global memory; generic addresses may touch either), the phase puts a fence at the end of
each latch, before its back edge: `fence.acq_rel.cta` when only shared memory is involved,
`fence.acq_rel.gpu` otherwise (`fence-scope` overrides it). A loop is skipped when its
budget, `instructions - floor(budget_scale * (head + tail accesses))`, exceeds ten times
the fence's cost (seed 003's rejection code 7: enough independent work to hide the hazard).

ptxas 13.5 inserts no fence in any experiment (`bar_in_uniform_loop`,
`cp_async_pipeline_loop`): the default, `enable=false`, reproduces that.

Example (`enable=true`):

    ^loop:
      ori.inst "st.shared.u32" ([%r4], %r5)
      ori.bar "bar.sync" (0)
      ori.inst "ld.shared.u32" (def %r7, [@buf])
      ori.bra if %p1 "bra" ^loop, ^done

becomes

    ^loop:
      ...
      ori.inst "ld.shared.u32" (def %r7, [@buf])
      ori.fence "fence.acq_rel.cta"
      ori.bra if %p1 "bra" ^loop, ^done
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block
from xdsl.passes import ModulePass

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.ori.analysis import ControlFlowGraph
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import (
    BarrierOp,
    FenceOp,
    InstructionOp,
    MembarOp,
)
from tileas_py.dialects.ori.loops import Loop, loop_nest
from tileas_py.passes.ori.support.common import (
    block_instructions,
    defined_functions,
    opcode_parts,
)
from tileas_py.passes.ori.support.sync_events import accesses_memory

FENCE_COST = {"cta": 4, "gpu": 8, "sys": 12}
"""Relative cost of the fence, for the budget test."""
_FILTER = re.compile(r"(?:[+-]\d+-)*")
_SPACES = ("shared", "global")


@dataclass(frozen=True)
class StageAndFencePass(ModulePass):
    """Fences the iteration boundary of loops whose accesses cross a sync (phase 25).

    See the module docstring for the model.
    """

    name = "ori-stage-and-fence"

    opt_level: int = 3
    """ptxas's -O level; the phase runs at -O3 only."""
    enable: bool = False
    """Seed 003's knob 487 gate; ptxas 13.5 shows no fence, so it is off by default."""
    loop_filter: str = ""
    """Seed 003's knob 429: `+N-` fences only loop N, `-N-` never loop N (ids count the
    loop headers in block order from 0); several may follow each other."""
    budget_scale: float = 0.5
    """Seed 003's knob 900, the scale of the budget test."""
    fence_scope: Literal["auto", "cta", "gpu", "sys"] = "auto"
    """The fence's scope: `auto` picks cta for shared memory only, else gpu."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.opt_level <= 2 or not self.enable:
            return
        if _FILTER.fullmatch(self.loop_filter) is None:
            emit_error(
                None,
                f"loop-filter '{self.loop_filter}' is not a sequence of '+N-' / '-N-'",
            )
        for func in defined_functions(op):
            self._fence_loops(func)

    def _selected(self, loop_id: int) -> bool:
        wanted = {int(n) for n in re.findall(r"\+(\d+)-", self.loop_filter)}
        unwanted = {int(n) for n in re.findall(r"-(\d+)-", self.loop_filter)}
        return loop_id not in unwanted and (not wanted or loop_id in wanted)

    def _fence_loops(self, func: FuncOp) -> None:
        cfg = ControlFlowGraph(func)
        loops = sorted(loop_nest(cfg).loops, key=lambda loop: loop.header)
        for loop_id in reversed(range(len(loops))):
            loop = loops[loop_id]
            if not self._selected(loop_id):
                continue
            scope = self._fence_scope(cfg, loop)
            if scope is None:
                continue
            for latch in loop.latches:
                terminator = cfg.blocks[latch].last_op
                assert terminator is not None
                fence = FenceOp(f"fence.acq_rel.{scope}")
                fence.location = terminator.location
                cfg.blocks[latch].insert_op_before(fence, terminator)

    def _fence_scope(self, cfg: ControlFlowGraph, loop: Loop) -> str | None:
        """The scope of the fence the loop needs, None when it needs none."""
        body = [
            i for b in sorted(loop.blocks) for i in block_instructions(cfg.blocks[b])
        ]
        if not any(is_boundary(i) for i in body):
            return None
        head = _before_boundary(cfg, loop, forward=True)
        tail = _before_boundary(cfg, loop, forward=False)
        spaces = _conflicting_spaces(head, tail)
        if not spaces:
            return None
        scope = self.fence_scope
        if scope == "auto":
            scope = "cta" if spaces == {"shared"} else "gpu"
        budget = len(body) - math.floor(self.budget_scale * (len(head) + len(tail)))
        if 10 * FENCE_COST[scope] < budget:
            return None
        return scope


def is_boundary(inst: InstructionOp) -> bool:
    """A synchronization boundary inside a loop body."""
    parts = opcode_parts(inst)
    if isinstance(inst, BarrierOp | MembarOp | FenceOp):
        return True
    return (parts[0] == "mbarrier" and parts[1] in ("try_wait", "test_wait")) or (
        parts[0] == "cp" and any(p.startswith("wait") for p in parts)
    )


def _before_boundary(
    cfg: ControlFlowGraph, loop: Loop, *, forward: bool
) -> list[InstructionOp]:
    """Memory accesses reached from the header (forward) or reaching a latch (backward)
    along a path inside the loop that crosses no boundary."""
    starts = [loop.header] if forward else loop.latches
    found: list[InstructionOp] = []
    stack = list(starts)
    seen = set(starts)
    while stack:
        index = stack.pop()
        block: Block = cfg.blocks[index]
        insts = list(block_instructions(block))
        if not forward:
            insts.reverse()
        crossed = False
        for inst in insts:
            if is_boundary(inst):
                crossed = True
                break
            if accesses_memory(inst):
                found.append(inst)
        if crossed:
            continue
        edges = cfg.successors[index] if forward else cfg.predecessors[index]
        for neighbour in edges:
            back_edge = neighbour == loop.header if forward else index == loop.header
            if neighbour in loop.blocks and not back_edge and neighbour not in seen:
                seen.add(neighbour)
                stack.append(neighbour)
    return found


def _spaces(inst: InstructionOp) -> set[str]:
    parts = set(opcode_parts(inst))
    named = {s for s in _SPACES if any(p.startswith(s) for p in parts)}
    if "local" in parts:
        return set()
    return named or set(_SPACES)


def _writes(inst: InstructionOp) -> bool:
    root = opcode_parts(inst)[0]
    return root in ("st", "atom", "red", "cp", "sust", "sured", "stmatrix")


def _conflicting_spaces(
    head: list[InstructionOp], tail: list[InstructionOp]
) -> set[str]:
    """The spaces where a tail access and a head access may conflict (one writes)."""

    def touched(accesses: list[InstructionOp]) -> tuple[set[str], set[str]]:
        read: set[str] = set()
        written: set[str] = set()
        for inst in accesses:
            (written if _writes(inst) else read).update(_spaces(inst))
        return read | written, written

    head_any, head_written = touched(head)
    tail_any, tail_written = touched(tail)
    return (tail_written & head_any) | (tail_any & head_written)
