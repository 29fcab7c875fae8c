"""`ori-apply-post-sync-wars`: ptxas's ApplyPostSyncronizationWars (phase 100, seed 003).

Seed 003: write-after-read hazards that the synchronization inserted by phase 99 creates or
exposes: an instruction that reads its registers late (a store's data, a barrier's or
WARPSYNC's register operand) may still be reading when a later instruction overwrites
them. The phase finds them and resolves them with scoreboard waits, DEPBARs and stall
counts; it runs at -O2 and above, on architectures that override it.

The model (`scoreboards`): an instruction that reads its sources late gets a read
scoreboard (`#ori.ctrl<rd = N>`, SB1..SB5 in turn, continuing after the write scoreboards
phase 99 handed out) when something after it may overwrite one of them (in its block, or
in a block reachable from it), or always when its completion orders later memory accesses
(CTA memory barriers, the mbarrier init, bulk and tensor copies: as in ptxas's control
bits, a store whose sources nothing overwrites has none); every later instruction that
overwrites one of those registers while the read may still be pending, or accesses memory
after such a completion, gets the scoreboard in its wait mask; a wait already in a control
word (from phase 99) counts as completing the reads on that scoreboard too. Calls and
returns wait for every pending read.

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

from tileas_py.dialects.ori.analysis import (
    ControlFlowGraph,
    RegisterNumbering,
    instructions,
)
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import InstructionOp
from tileas_py.dialects.ori.sass import control_word, set_control_word
from tileas_py.passes.ori.support.common import block_instructions
from tileas_py.passes.ori.support.scoreboard_phase import ScoreboardPhase
from tileas_py.passes.ori.support.scoreboards import (
    RoundRobin,
    always_reads_late,
    reads_late,
)


@dataclass(frozen=True)
class ApplyPostSyncWarsPass(ScoreboardPhase):
    """Protects registers read late from being overwritten too early (phase 100).

    See the module docstring for the model and an example.
    """

    name = "ori-apply-post-sync-wars"

    LATE_RESULTS = False

    def assign_scoreboards(
        self, func: FuncOp, cfg: ControlFlowGraph
    ) -> dict[InstructionOp, int]:
        overwritten = _OverwrittenLater(func, cfg)
        scoreboards = RoundRobin()
        late: dict[InstructionOp, int] = {}
        for inst in instructions(func):
            word = control_word(inst)
            if word.write is not None:
                scoreboards.next()
            if reads_late(inst) and (always_reads_late(inst) or overwritten(inst)):
                late[inst] = scoreboards.next()
                set_control_word(inst, replace(word, read=late[inst]))
        return late


class _OverwrittenLater:
    """Whether an instruction's source registers may be written after it: later in its
    block, or in a block reachable from there (a may-analysis over the CFG, bit vectors
    of the registers written)."""

    def __init__(self, func: FuncOp, cfg: ControlFlowGraph) -> None:
        numbering = RegisterNumbering(func)
        written = [0] * len(cfg.blocks)
        self.later: dict[InstructionOp, int] = {}
        self.sources: dict[InstructionOp, int] = {}
        for index, block in enumerate(cfg.blocks):
            after = 0
            for inst in reversed(list(block_instructions(block))):
                self.later[inst] = after
                self.sources[inst] = numbering.mask(
                    [r for r in inst.uses() if r is not inst.guard]
                )
                after |= numbering.mask(inst.defs())
            written[index] = after
        reachable = [0] * len(cfg.blocks)
        changed = True
        while changed:
            changed = False
            for b in reversed(cfg.reverse_postorder):
                bits = 0
                for successor in cfg.successors[b]:
                    bits |= written[successor] | reachable[successor]
                if bits != reachable[b]:
                    reachable[b] = bits
                    changed = True
        for index, block in enumerate(cfg.blocks):
            for inst in block_instructions(block):
                self.later[inst] |= reachable[index]

    def __call__(self, inst: InstructionOp) -> bool:
        return bool(self.sources.get(inst, 0) & self.later.get(inst, 0))
