"""`ori-apply-post-sync-wars`: ptxas's ApplyPostSyncronizationWars (phase 100, seed 003).

Seed 003: write-after-read hazards that the synchronization inserted by phase 99 creates or
exposes: an instruction that reads its registers late (a store's data, a barrier's or
WARPSYNC's register operand) may still be reading when a later instruction overwrites
them. The phase finds them and resolves them with scoreboard waits, DEPBARs and stall
counts; it runs at -O2 and above, on architectures that override it.

The model (`scoreboards`): every instruction that reads its sources late gets a read
scoreboard (`#ori.ctrl<rd = N>`, SB1..SB5 in turn, continuing after the write scoreboards
phase 99 handed out), and every later instruction that overwrites one of those registers
while the read may still be pending gets the scoreboard in its wait mask; a wait already
in a control word (from phase 99) counts as completing the reads on that scoreboard too.
Calls and returns wait for everything.

Not modelled: the per-opcode severity tiers and stall-slot insertion of the seed's
detector, WAITDP, and the Mercury-pipeline reruns.

Example:

    ori.inst "st.global.u32" ([%rd1], %r1)
    ori.inst "mov.u32" (def %r1, 0)

becomes

    ori.inst "st.global.u32" ([%rd1], %r1) attributes {ori.ctrl = #ori.ctrl<rd = 1>}
    ori.inst "mov.u32" (def %r1, 0) attributes {ori.ctrl = #ori.ctrl<wait = [1]>}
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tileas_py.dialects.ori.analysis import ControlFlowGraph, instructions
from tileas_py.dialects.ori.instructions import InstructionOp
from tileas_py.dialects.ori.sass import control_word, set_control_word
from tileas_py.passes.ori.common import defined_functions
from tileas_py.passes.ori.scoreboards import (
    LateWork,
    RoundRobin,
    reads_late,
)


@dataclass(frozen=True)
class ApplyPostSyncWarsPass(ModulePass):
    """Protects registers read late from being overwritten too early (phase 100).

    See the module docstring for the model and an example.
    """

    name = "ori-apply-post-sync-wars"

    opt_level: int = 3
    """ptxas's -O level; the phase runs at -O2 and above."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.opt_level <= 1:
            return
        for func in defined_functions(op):
            scoreboards = RoundRobin()
            late: dict[InstructionOp, int] = {}
            for inst in instructions(func):
                word = control_word(inst)
                if word.write is not None:
                    scoreboards.next()
                if reads_late(inst):
                    late[inst] = scoreboards.next()
                    set_control_word(inst, replace(word, read=late[inst]))
            LateWork(func, ControlFlowGraph(func), late, results=False).add_waits()
