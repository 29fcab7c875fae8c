"""`ori-do-synchronization`: ptxas's OriDoSyncronization (phase 99, seed 003).

Seed 003: after the IR-level optimizations, the phase reuses the scheduler's dependency DAG
and per-block liveness bit vectors to insert the synchronization that data dependences need
(its per-instruction callback emits a wait wherever a dependence edge crosses the current
program point), block by block, propagating the live sets across joins, calls and GMMA
arrive points. ptxas spells the phase "Syncronization".

The model works on the scoreboard level of ori (`scoreboards`): every instruction whose
results arrive late, or that signals its completion (the proxy fence, the cp.async commit,
the mbarrier init), gets a write scoreboard (`#ori.ctrl<wr = N>`, SB1..SB5 in turn), and
every instruction that reads or overwrites a register still in flight, or accesses memory
after such a completion, gets the scoreboard in its wait mask (`#ori.ctrl<wait = [N]>`),
found by a forward may-analysis of the pending registers over the CFG; calls wait for
everything, returns for nothing of this phase (results nobody reads are dropped). It runs
at -O2 and above, as the seed gates it.

Compared with the control bits of ptxas 13.5's SASS (`test/ptxas/test_scoreboards.py`):
which instructions release a write scoreboard, and which each wait depends on.
Not modelled: ptxas's final scoreboard numbers (phase 115, AdvancedScoreboardsAndOpexes),
where its scheduler moves a wait, stall counts, and the GMMA arrive / IMMA special cases
of the seed's dispatch table.

Example:

    ori.inst "ld.global.u32" (def %r1, [%rd1])
    ori.inst "add.u32" (def %r2, %r1, 1)

becomes

    ori.inst "ld.global.u32" (def %r1, [%rd1]) attributes {ori.ctrl = #ori.ctrl<wr = 1>}
    ori.inst "add.u32" (def %r2, %r1, 1) attributes {ori.ctrl = #ori.ctrl<wait = [1]>}
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tileas_py.dialects.ori.analysis import ControlFlowGraph, instructions
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import InstructionOp
from tileas_py.dialects.ori.sass import control_word, set_control_word
from tileas_py.passes.ori.support.scoreboard_phase import ScoreboardPhase
from tileas_py.passes.ori.support.scoreboards import RoundRobin, writes_late


@dataclass(frozen=True)
class DoSynchronizationPass(ScoreboardPhase):
    """Assigns write scoreboards to late results and waits to their users (phase 99).

    See the module docstring for the model and an example.
    """

    name = "ori-do-synchronization"

    LATE_RESULTS = True

    def assign_scoreboards(
        self, func: FuncOp, cfg: ControlFlowGraph
    ) -> dict[InstructionOp, int]:
        scoreboards = RoundRobin()
        late: dict[InstructionOp, int] = {}
        for inst in instructions(func):
            if writes_late(inst):
                late[inst] = scoreboards.next()
                word = control_word(inst)
                set_control_word(inst, replace(word, write=late[inst]))
        return late
