"""The redundancy proofs of phases 26 and 71, as bit-vector dataflow over the CFG.

A *fact* is "an instruction of kind K has executed, and nothing it orders has happened
since" (K: a CTA barrier with its operands, a fence with its semantics and scope). Facts
are bits; each instruction kills some and generates some. A fact holds before an
instruction when it holds on *every* path from the function's entry (a must-analysis:
intersection at joins, nothing at the entry), so the equivalent earlier instruction
dominates the later one. An instruction is redundant when its own fact already holds.

One sweep per iteration over the blocks in reverse postorder, each block summarised by its
composed kill / gen sets, so the work is linear in the function per iteration.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Generic, TypeVar

from xdsl.ir import Block

from tileas_py.dialects.ori.analysis import ControlFlowGraph, instructions
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import CallOp, InstructionOp
from tileas_py.dialects.ori.loops import loop_nest
from tileas_py.passes.ori.support.common import block_instructions
from tileas_py.passes.ori.support.sync_events import (
    BarrierKey,
    barrier_key,
    is_transparent,
)

Transfer = Callable[[InstructionOp], tuple[int, int]]
"""An instruction's (kill, gen) bits: after it, facts = (facts & ~kill) | gen."""


K = TypeVar("K", bound=Hashable)


class FactNumbering(Generic[K]):
    """Dense bit numbers for the facts of one function."""

    def __init__(self) -> None:
        self.bit: dict[K, int] = {}

    def __call__(self, key: K) -> int:
        if key not in self.bit:
            self.bit[key] = 1 << len(self.bit)
        return self.bit[key]

    def mask(self, keys: Iterable[K]) -> int:
        bits = 0
        for key in keys:
            bits |= self(key)
        return bits

    @property
    def universe(self) -> int:
        return (1 << len(self.bit)) - 1


def facts_before(
    cfg: ControlFlowGraph, transfer: Transfer, *, within_blocks: bool = False
) -> dict[InstructionOp, int]:
    """The facts that hold before each instruction (reachable blocks only).

    `within_blocks` forgets every fact at block boundaries (phase 26's conservative mode).
    """
    count = len(cfg.blocks)
    bodies = [list(block_instructions(b)) for b in cfg.blocks]
    summaries = [_compose(transfer(i) for i in body) for body in bodies]
    universe = -1
    entry_facts = [universe] * count
    if count:
        entry_facts[0] = 0
    if within_blocks:
        entry_facts = [0] * count
    else:
        exit_facts = [universe] * count
        changed = True
        while changed:
            changed = False
            for b in cfg.reverse_postorder:
                if b != 0:
                    facts = universe
                    for p in cfg.predecessors[b]:
                        if cfg.is_reachable(cfg.blocks[p]):
                            facts &= exit_facts[p]
                    entry_facts[b] = facts
                kill, gen = summaries[b]
                out = (entry_facts[b] & ~kill) | gen
                if out != exit_facts[b]:
                    exit_facts[b] = out
                    changed = True
    before: dict[InstructionOp, int] = {}
    for b in cfg.reverse_postorder:
        facts = entry_facts[b]
        for inst in bodies[b]:
            before[inst] = facts
            kill, gen = transfer(inst)
            facts = (facts & ~kill) | gen
    return before


def _compose(transfers: Iterable[tuple[int, int]]) -> tuple[int, int]:
    kill = gen = 0
    for k, g in transfers:
        kill |= k
        gen = (gen & ~k) | g
    return kill, gen


def nearest_dominating(
    cfg: ControlFlowGraph,
    inst: InstructionOp,
    matches: Callable[[InstructionOp], bool],
) -> InstructionOp | None:
    """The closest instruction before `inst` that dominates it and `matches`."""
    block = inst.parent_block()
    assert block is not None
    op = inst.prev_op
    current: Block | None = block
    while current is not None:
        while op is not None:
            if isinstance(op, InstructionOp) and matches(op):
                return op
            op = op.prev_op
        current = cfg.immediate_dominator(current)
        op = None if current is None else current.last_op
    return None


def same_loop_depth(
    cfg: ControlFlowGraph, pairs: Sequence[tuple[InstructionOp, InstructionOp]]
) -> list[bool]:
    """For each (earlier, later) pair, whether both are at the same loop depth (seed 003's
    loop-nesting guard: a fact carried around a back edge into a deeper loop is not used)."""
    depth = loop_nest(cfg).depth
    answers: list[bool] = []
    for earlier, later in pairs:
        a, b = earlier.parent_block(), later.parent_block()
        assert a is not None
        assert b is not None
        answers.append(depth[cfg.index[a]] == depth[cfg.index[b]])
    return answers


def _is_control(inst: InstructionOp) -> bool:
    return inst.opcode.data.split(".", 1)[0] in ("bra", "ret", "exit")


def _equivalent_to(key: BarrierKey) -> Callable[[InstructionOp], bool]:
    return lambda inst: barrier_key(inst) == key


def redundant_barriers(
    func: FuncOp,
    crosses_call: Callable[[CallOp], bool],
    *,
    across_blocks: bool,
) -> list[InstructionOp]:
    """The CTA barriers of `func` that an equivalent earlier barrier makes redundant.

    Within blocks, any equivalent barrier earlier in the block with nothing it orders in
    between; across blocks, one on every path from the entry, when the nearest dominating
    equivalent barrier is at the same loop depth. A call stops the proof unless
    `crosses_call` says otherwise; a write of a barrier's operand register always does.
    """
    cfg = ControlFlowGraph(func)
    keys: FactNumbering[BarrierKey] = FactNumbering()
    by_register: dict[object, int] = {}
    for inst in instructions(func):
        if (key := barrier_key(inst)) is not None:
            bit = keys(key)
            for reg in key.registers:
                by_register[reg] = by_register.get(reg, 0) | bit

    def transfer(inst: InstructionOp) -> tuple[int, int]:
        if (key := barrier_key(inst)) is not None:
            return 0, keys(key)
        if (
            _is_control(inst)
            or is_transparent(inst)
            or (isinstance(inst, CallOp) and crosses_call(inst))
        ):
            kill = 0
            for reg in inst.defs():
                kill |= by_register.get(reg, 0)
            return kill, 0
        return -1, 0

    before = facts_before(cfg, transfer, within_blocks=not across_blocks)
    candidates = [
        inst
        for inst, facts in before.items()
        if (key := barrier_key(inst)) is not None and facts & keys(key)
    ]
    if not across_blocks:
        return candidates
    pairs: list[tuple[InstructionOp, InstructionOp]] = []
    for inst in candidates:
        key = barrier_key(inst)
        assert key is not None
        earlier = nearest_dominating(cfg, inst, _equivalent_to(key))
        if earlier is not None:
            pairs.append((earlier, inst))
    return [
        later
        for (_, later), same in zip(pairs, same_loop_depth(cfg, pairs), strict=True)
        if same
    ]
