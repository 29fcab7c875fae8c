"""The scoreboard level shared by phases 99, 100 and 114: who needs one, and the waits.

SASS tracks variable-latency work with six dependency scoreboards per warp (seed 003,
"Dependency Barriers"). An instruction whose result arrives late (a load, an atomic, a
shuffle, a texture fetch, a special-register read, an mbarrier test) *writes* a scoreboard
when its results land; one that reads its sources late (a store, an atomic, a texture
fetch's coordinates, a register operand of a barrier or a WARPSYNC) *reads* one when its
sources have been consumed. A later instruction that reads or writes such a register first
waits on the scoreboard (its control word's wait mask). SB0 is left to the cp.async groups,
which ptxas waits for with `DEPBAR.LE SB0, N`, so registers use SB1..SB5.

The pending work is a forward may-analysis over the CFG: for each register, the mask of
scoreboards whose completion it still waits for; joins take the union. A wait on a
scoreboard completes everything pending on it. Entry states only grow, so the fixed point
is reached in a bounded number of linear sweeps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from xdsl.ir import SSAValue

from tileas_py.dialects.ori.analysis import ControlFlowGraph
from tileas_py.dialects.ori.attributes import SpecialRegAttr
from tileas_py.dialects.ori.instructions import CallOp, InstructionOp, RetOp
from tileas_py.dialects.ori.sass import (
    SCOREBOARDS,
    SassOp,
    control_word,
    set_control_word,
)
from tileas_py.passes.ori.common import block_instructions, opcode_parts

REGISTER_SCOREBOARDS = tuple(range(1, SCOREBOARDS))
"""SB1..SB5: SB0 belongs to the cp.async groups (`DEPBAR.LE SB0, N`)."""
TEXTURE_ROOTS = frozenset({"tex", "tld4", "txq", "suld"})
_LATE_RESULT_ROOTS = frozenset(
    {"ldu", "atom", "shfl", "match", "ldmatrix", "mbarrier", *TEXTURE_ROOTS}
)
_LATE_SOURCE_ROOTS = frozenset(
    {"st", "atom", "red", "cp", "sust", "sured", "stmatrix", "mbarrier", "tex"}
)


def is_texture(inst: InstructionOp) -> bool:
    return opcode_parts(inst)[0] in TEXTURE_ROOTS


def writes_late(inst: InstructionOp) -> bool:
    """Whether the instruction's results arrive after a variable latency."""
    if not inst.defs() or isinstance(inst, SassOp):
        return False
    parts = opcode_parts(inst)
    if parts[0] in _LATE_RESULT_ROOTS:
        return True
    if parts[0] == "ld":
        return parts[1] != "param"
    return parts[0] in ("mov", "cvt") and any(
        isinstance(o, SpecialRegAttr) for o in inst.layout.data
    )


def reads_late(inst: InstructionOp) -> bool:
    """Whether the instruction consumes its source registers after a variable latency."""
    sources = [r for r in inst.uses() if r is not inst.guard]
    if not sources:
        return False
    parts = opcode_parts(inst)
    if isinstance(inst, SassOp):
        return parts[0] in ("WARPSYNC", "BAR")
    if parts[0] == "st":
        return parts[1] != "param"
    return parts[0] in _LATE_SOURCE_ROOTS or parts[0] in ("bar", "barrier")


class RoundRobin:
    """Hands out SB1..SB5 in turn, the least recently given first."""

    def __init__(self) -> None:
        self.position = 0

    def next(self) -> int:
        scoreboard = REGISTER_SCOREBOARDS[self.position % len(REGISTER_SCOREBOARDS)]
        self.position += 1
        return scoreboard


Pending = dict[SSAValue, int]
"""For each register, the mask of the scoreboards it still waits for."""
Step = Callable[[InstructionOp, Pending], tuple[int, Pending]]
"""An instruction's wait mask given the pending work before it, and the pending after."""


def pending_before(cfg: ControlFlowGraph, step: Step) -> dict[InstructionOp, Pending]:
    """The pending work before every instruction of the reachable blocks."""
    count = len(cfg.blocks)
    entry: list[Pending] = [{} for _ in range(count)]
    exit_: list[Pending | None] = [None] * count
    changed = True
    while changed:
        changed = False
        for b in cfg.reverse_postorder:
            merged = dict(entry[b])
            for p in cfg.predecessors[b]:
                for reg, mask in (exit_[p] or {}).items():
                    merged[reg] = merged.get(reg, 0) | mask
            entry[b] = merged
            state = merged
            for inst in block_instructions(cfg.blocks[b]):
                state = step(inst, state)[1]
            if state != exit_[b]:
                exit_[b] = state
                changed = True
    before: dict[InstructionOp, Pending] = {}
    for b in cfg.reverse_postorder:
        state = entry[b]
        for inst in block_instructions(cfg.blocks[b]):
            before[inst] = state
            state = step(inst, state)[1]
    return before


def waiting_step(late: dict[InstructionOp, int], *, results: bool) -> Step:
    """The transfer of one kind of late work. `late` maps an instruction to the scoreboard
    it releases: for its results (`results`: write scoreboards, which readers and writers
    of those registers wait for) or for its sources (read scoreboards, which writers of
    those registers wait for). A call or return waits for everything."""

    def step(inst: InstructionOp, pending: Pending) -> tuple[int, Pending]:
        needed = control_word(inst).wait
        if isinstance(inst, CallOp | RetOp):
            for mask in pending.values():
                needed |= mask
        else:
            touched = [*inst.uses(), *inst.defs()] if results else inst.defs()
            for reg in touched:
                needed |= pending.get(reg, 0)
        after = pending
        if needed:
            after = {r: m & ~needed for r, m in pending.items() if m & ~needed}
        scoreboard = late.get(inst)
        if scoreboard is not None:
            after = dict(after)
            if results:
                registers = inst.defs()
            else:
                registers = [r for r in inst.uses() if r is not inst.guard]
            for reg in registers:
                after[reg] = 1 << scoreboard
        return needed, after

    return step


def add_waits(cfg: ControlFlowGraph, step: Step) -> None:
    """Put every wait the pending work needs into the control words."""
    for inst, pending in pending_before(cfg, step).items():
        needed = step(inst, pending)[0]
        word = control_word(inst)
        if needed & ~word.wait:
            set_control_word(inst, replace(word, wait=word.wait | needed))
