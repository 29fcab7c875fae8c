"""`ori-fixup-tex-depbar`: ptxas's FixUpTexDepBarAndSync (phase 114, seed 003).

Seed 003: before the final scoreboard pass, the phase fixes the dependency barriers of
texture fetches (`tex`, `tld4`, `txq`, surface loads: 200-400+ cycles, far beyond a 4-bit
stall count). For each fetch it checks that a write scoreboard covers its results, that
the first consumer of each result waits for it, patches the stall count and sets the yield
flag when the consumer comes closer than the scoreboard threshold (56 cycles in every
configuration the seed extracted), and inserts a `DEPBAR` where scoreboards alone do not
suffice (all in use). It runs at -O2 and above.

The model, on ori's scoreboard level (`scoreboards`):

- a fetch needs a write scoreboard that no older pending work uses (a scoreboard recycled
  while a load is in flight would make the fetch's consumers wait for both): it keeps its
  own if free, else takes a free one; when SB1..SB5 are all busy, a `DEPBAR.LE SBn, 0x0`
  before the fetch drains its scoreboard first;
- every reader of a fetched register waits for the fetch's scoreboard (the forward
  analysis of phase 99, for texture fetches);
- a consumer fewer than 56 instructions (one cycle each) after its fetch in the same block
  gets the yield flag, and the instruction before it a stall of the remaining cycles (at
  most 15).

Without texture fetches the phase changes nothing (the corpus has none).

Example:

    ori.inst "tex.2d.v4.f32.f32" (def {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}])
    ori.inst "add.f32" (def %f7, %f1, %f2)

becomes

    ori.inst "tex.2d.v4.f32.f32" (...) attributes {ori.ctrl = #ori.ctrl<stall = 15, wr = 1>}
    ori.inst "add.f32" (def %f7, %f1, %f2) attributes {ori.ctrl = #ori.ctrl<yield, wait = [1]>}
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tileas_py.dialects.ori.analysis import ControlFlowGraph, instructions
from tileas_py.dialects.ori.attributes import ImmAttr
from tileas_py.dialects.ori.instructions import InstructionOp
from tileas_py.dialects.ori.sass import (
    MAX_STALL,
    ControlWord,
    control_word,
    set_control_word,
)
from tileas_py.passes.ori.support.common import (
    defined_functions,
    insert_before,
    new_sass,
)
from tileas_py.passes.ori.support.scoreboards import (
    NOTHING_PENDING,
    REGISTER_SCOREBOARDS,
    LateWork,
    busy_scoreboards,
    is_texture,
)

THRESHOLD = 56
"""Cycles below which a texture consumer gets a stall and the yield flag (seed 003)."""


@dataclass(frozen=True)
class FixupTexDepbarPass(ModulePass):
    """Fixes the scoreboards, waits and stalls of texture fetches (phase 114).

    See the module docstring for the model and an example.
    """

    name = "ori-fixup-tex-depbar"

    opt_level: int = 3
    """ptxas's -O level; the phase runs at -O2 and above."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.opt_level <= 1:
            return
        for func in defined_functions(op):
            fetches = [i for i in instructions(func) if is_texture(i) and i.defs()]
            if not fetches:
                continue
            cfg = ControlFlowGraph(func)
            late = {
                i: word.write
                for i in instructions(func)
                if (word := control_word(i)).write is not None
            }
            before = LateWork(func, cfg, late, results=True).before()
            for fetch in fetches:
                pending = before.get(fetch, NOTHING_PENDING)
                late[fetch] = _own_scoreboard(fetch, busy_scoreboards(pending))
            LateWork(func, ControlFlowGraph(func), late, results=True).add_waits()
            for fetch in fetches:
                _patch_first_consumer(fetch)


def _own_scoreboard(fetch: InstructionOp, busy: int) -> int:
    """A write scoreboard for the fetch that no older work (`busy`) still uses: its own if
    free, else a free one, else its own (or SB1) drained by a DEPBAR first."""
    current = control_word(fetch).write
    free = [sb for sb in REGISTER_SCOREBOARDS if not busy >> sb & 1]
    if current is not None and current in free:
        return current
    scoreboard = free[0] if free else current or REGISTER_SCOREBOARDS[0]
    if not free:
        drain = new_sass("DEPBAR.LE", fetch, [ImmAttr(scoreboard), ImmAttr(0)])
        set_control_word(drain, ControlWord(wait=1 << scoreboard))
        insert_before(fetch, [drain])
    set_control_word(fetch, replace(control_word(fetch), write=scoreboard))
    return scoreboard


def _patch_first_consumer(fetch: InstructionOp) -> None:
    results = set(fetch.defs())
    distance = 0
    previous: InstructionOp = fetch
    op = fetch.next_op
    while op is not None and distance < THRESHOLD:
        if isinstance(op, InstructionOp):
            if results & set(op.uses()):
                word = control_word(op)
                set_control_word(op, replace(word, yield_=True))
                stall = min(MAX_STALL, THRESHOLD - distance)
                before = control_word(previous)
                set_control_word(
                    previous, replace(before, stall=max(before.stall, stall))
                )
                return
            distance += 1
            previous = op
        op = op.next_op
