"""What ptxas's two scoreboard phases share (seed 003): phase 99 (`ori-do-synchronization`)
gives late results write scoreboards, phase 100 (`ori-apply-post-sync-wars`) gives late
source reads read scoreboards; both run at -O2 and above, per defined function, and make
the instructions that depend on the late work wait for its scoreboard (`LateWork`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tileas_py.dialects.ori.analysis import ControlFlowGraph
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import InstructionOp
from tileas_py.passes.ori.support.common import defined_functions
from tileas_py.passes.ori.support.scoreboards import LateWork


@dataclass(frozen=True)
class ScoreboardPhase(ModulePass, ABC):
    """A phase that hands out scoreboards to late work and adds the waits for them."""

    LATE_RESULTS: ClassVar[bool]
    """Whether the late work is results (write scoreboards) rather than source reads."""

    opt_level: int = 3
    """ptxas's -O level; the phase runs at -O2 and above."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.opt_level <= 1:
            return
        for func in defined_functions(op):
            cfg = ControlFlowGraph(func)
            late = self.assign_scoreboards(func, cfg)
            LateWork(func, cfg, late, results=self.LATE_RESULTS).add_waits()

    @abstractmethod
    def assign_scoreboards(
        self, func: FuncOp, cfg: ControlFlowGraph
    ) -> dict[InstructionOp, int]:
        """Record a scoreboard in the control word of each instruction whose work is
        late; return them with their scoreboards."""
