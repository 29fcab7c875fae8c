"""The scoreboard level shared by phases 99, 100 and 114: who needs one, and the waits.

SASS tracks variable-latency work with six dependency scoreboards per warp (seed 003,
"Dependency Barriers"). An instruction whose result arrives late (a load, `ld.param`'s
constant-bank load included, an atomic, a shuffle, a texture fetch, a special-register
read, an mbarrier test) *writes* a scoreboard when its results land; one that reads its
sources late (a store, an atomic, a texture fetch's coordinates, a register operand of a
barrier or a WARPSYNC) *reads* one when its sources have been consumed. A later instruction
that reads or writes such a register first waits on the scoreboard (its control word's
wait mask). Some SASS signals its own completion on a scoreboard, with no register result:
the proxy fence, the cp.async commit and the mbarrier init write one, CTA memory barriers,
the mbarrier init and bulk / tensor copies read one; the next memory access or
synchronization waits for them. SB0 is left to the cp.async groups, which ptxas waits for
with `DEPBAR.LE SB0, N`, so registers use SB1..SB5.

These rules are ptxas 13.5's as its control bits show them (`test/ptxas/test_scoreboards.py`
compares them instruction by instruction, docs/fidelity.md has the figures); which
scoreboard numbers ptxas picks is its allocator's choice and not modelled.

The pending work is a forward may-analysis over the CFG: for each scoreboard, the bit
vector of the registers still waiting for it; joins take the union. A wait on a
scoreboard completes everything pending on it. Entry states only grow, so the fixed point
is reached in a bounded number of linear sweeps.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tileas_py.dialects.ori.analysis import ControlFlowGraph, RegisterNumbering
from tileas_py.dialects.ori.attributes import SpecialRegAttr
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import (
    CallOp,
    ExitOp,
    InstructionOp,
    RetOp,
)
from tileas_py.dialects.ori.sass import (
    SCOREBOARDS,
    SassOp,
    control_word,
    sass_opcode,
    set_control_word,
)
from tileas_py.passes.ori.support.common import block_instructions, opcode_parts

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


_COMPLETION_WRITES = ("FENCE.VIEW.ASYNC", "LDGDEPBAR", "SYNCS.EXCH")
"""SASS that sets a write scoreboard for its own completion (no register result): the
proxy fence, the cp.async group commit, the mbarrier init."""
_COMPLETION_READS = ("MEMBAR.SC.CTA", "MEMBAR.ALL.CTA", "SYNCS.EXCH", "UTMA", "UBLK")
"""SASS that always sets a read scoreboard: CTA-scope memory barriers (the gpu / sys ones
are followed by ERRBAR instead), the mbarrier init, and the bulk and tensor copies."""


def writes_late(inst: InstructionOp) -> bool:
    """Whether the instruction's results arrive after a variable latency (or it signals
    its completion on a scoreboard)."""
    if _own_sass(inst).startswith(_COMPLETION_WRITES):
        return True
    if not inst.defs() or isinstance(inst, SassOp):
        return False
    parts = opcode_parts(inst)
    if parts[0] in _LATE_RESULT_ROOTS or parts[0] == "ld":
        return True  # `ld.param` too: a constant-bank load (LDC)
    return parts[0] in ("mov", "cvt") and any(
        isinstance(o, SpecialRegAttr) for o in inst.layout.data
    )


def reads_late(inst: InstructionOp) -> bool:
    """Whether the instruction consumes its source registers after a variable latency."""
    if _own_sass(inst).startswith(_COMPLETION_READS):
        return True
    sources = [r for r in inst.uses() if r is not inst.guard]
    if not sources:
        return False
    parts = opcode_parts(inst)
    if isinstance(inst, SassOp):
        return parts[0] in ("WARPSYNC", "BAR")
    if parts[0] == "st":
        return parts[1] != "param"
    return parts[0] in _LATE_SOURCE_ROOTS or parts[0] in ("bar", "barrier")


_MEMORY_ROOTS = frozenset(
    {"ld", "st", "atom", "red", "cp", "mbarrier", "bar", "barrier", "fence", "membar"}
)
_MEMORY_SASS = ("SYNCS", "BAR", "MEMBAR", "FENCE", "UTMA", "UBLK", "LDGSTS")


def orders_memory(inst: InstructionOp) -> bool:
    """An instruction whose completion orders later memory accesses: a CTA memory
    barrier, the proxy fence, the mbarrier init (it signals on its scoreboard)."""
    return _own_sass(inst).startswith(_COMPLETION_WRITES + _COMPLETION_READS)


def accesses_memory(inst: InstructionOp) -> bool:
    """A memory access or synchronization, which waits for pending ordering."""
    if isinstance(inst, SassOp):
        return inst.opcode.data.startswith(_MEMORY_SASS)
    return opcode_parts(inst)[0] in _MEMORY_ROOTS


def _waits_for_all(inst: InstructionOp, results: bool) -> bool:
    """A call waits for all pending work (the callee may use any register); a return only
    for pending reads (results nobody uses are dropped)."""
    if isinstance(inst, CallOp):
        return True
    return isinstance(inst, RetOp | ExitOp) and not results


def always_reads_late(inst: InstructionOp) -> bool:
    """Whether the instruction keeps a read scoreboard even when nothing overwrites its
    sources (its completion is what later code waits for)."""
    return _own_sass(inst).startswith(_COMPLETION_READS)


def _own_sass(inst: InstructionOp) -> str:
    return sass_opcode(inst) or ""


class RoundRobin:
    """Hands out SB1..SB5 in turn, the least recently given first."""

    def __init__(self) -> None:
        self.position = 0

    def next(self) -> int:
        scoreboard = REGISTER_SCOREBOARDS[self.position % len(REGISTER_SCOREBOARDS)]
        self.position += 1
        return scoreboard


Pending = tuple[int, ...]
"""For each scoreboard SB0..SB5, the bit vector of the registers still waiting for it."""
NOTHING_PENDING: Pending = (0,) * SCOREBOARDS


def busy_scoreboards(pending: Pending) -> int:
    """The mask of the scoreboards some register still waits for."""
    mask = 0
    for scoreboard, registers in enumerate(pending):
        if registers:
            mask |= 1 << scoreboard
    return mask


@dataclass(frozen=True)
class _Effect:
    touched: int
    """The registers whose pending work the instruction must wait for."""
    waits_for_all: bool
    """A call or a return waits for everything."""
    waits: int
    """The scoreboards its control word already waits for."""
    released: int
    """The registers its own late work leaves pending."""
    scoreboard: int | None


class LateWork:
    """One kind of late work in a function: `late` maps an instruction to the scoreboard it
    releases, for its results (`results`: write scoreboards, which readers and writers of
    those registers wait for) or for its sources (read scoreboards, which writers of those
    registers wait for). The pending work is a vector of register bit vectors, one per
    scoreboard, so each step is a few integer operations."""

    def __init__(
        self,
        func: FuncOp,
        cfg: ControlFlowGraph,
        late: dict[InstructionOp, int],
        *,
        results: bool,
    ) -> None:
        self.cfg = cfg
        numbering = RegisterNumbering(func)
        # One more bit than the registers: the completion of a memory-ordering
        # instruction, which the next memory or synchronization instruction waits for.
        ordering = 1 << len(numbering)
        self.bodies = [list(block_instructions(b)) for b in cfg.blocks]
        self.effects: dict[InstructionOp, _Effect] = {}
        for body in self.bodies:
            for inst in body:
                guard, registers = inst.guard, inst.uses()
                defs = inst.defs()
                touched = [*registers, *defs] if results else defs
                scoreboard = late.get(inst)
                released = 0
                if scoreboard is not None:
                    sources = [r for r in registers if r is not guard]
                    released = numbering.mask(defs if results else sources)
                    if orders_memory(inst):
                        released |= ordering
                self.effects[inst] = _Effect(
                    numbering.mask(touched)
                    | (ordering if accesses_memory(inst) else 0),
                    _waits_for_all(inst, results),
                    control_word(inst).wait,
                    released,
                    scoreboard,
                )

    def step(self, inst: InstructionOp, pending: Pending) -> tuple[int, Pending]:
        """The scoreboards `inst` waits for, and the pending work after it."""
        effect = self.effects[inst]
        needed = effect.waits
        for scoreboard, registers in enumerate(pending):
            if registers and (effect.waits_for_all or registers & effect.touched):
                needed |= 1 << scoreboard
        after = pending
        if needed:
            after = tuple(
                0 if needed >> sb & 1 else registers
                for sb, registers in enumerate(after)
            )
        if effect.scoreboard is not None:
            released = effect.released
            after = tuple(
                (registers & ~released) | (released if sb == effect.scoreboard else 0)
                for sb, registers in enumerate(after)
            )
        return needed, after

    def before(self) -> dict[InstructionOp, Pending]:
        """The pending work before every instruction of the reachable blocks."""
        cfg = self.cfg
        count = len(cfg.blocks)
        entry: list[Pending] = [NOTHING_PENDING] * count
        exit_: list[Pending] = [NOTHING_PENDING] * count
        changed = True
        while changed:
            changed = False
            for b in cfg.reverse_postorder:
                merged = entry[b]
                for p in cfg.predecessors[b]:
                    merged = tuple(a | e for a, e in zip(merged, exit_[p], strict=True))
                entry[b] = merged
                state = merged
                for inst in self.bodies[b]:
                    state = self.step(inst, state)[1]
                if state != exit_[b]:
                    exit_[b] = state
                    changed = True
        before: dict[InstructionOp, Pending] = {}
        for b in cfg.reverse_postorder:
            state = entry[b]
            for inst in self.bodies[b]:
                before[inst] = state
                state = self.step(inst, state)[1]
        return before

    def add_waits(self) -> None:
        """Put every wait the pending work needs into the control words."""
        for inst, pending in self.before().items():
            needed = self.step(inst, pending)[0]
            word = control_word(inst)
            if needed & ~word.wait:
                set_control_word(inst, replace(word, wait=word.wait | needed))
