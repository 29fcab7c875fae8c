"""What ptxas-phase passes ask of ori: def/use accessors and the CFG adapters.

- `defs(inst)` / `uses(inst)`: the registers an instruction writes / reads (guard included);
  `declaration(reg)`: a register's `ori.reg`; `instructions_touching(reg)`: every
  instruction that reads or writes it (its handle's use list, no search).
- `ControlFlowGraph(func)`: the code blocks in linear (printing) order with successor and
  predecessor lists, a reverse postorder, immediate dominators and post-dominators, and
  O(1) `dominates` / `post_dominates` queries.
- `RegisterNumbering(func)`: dense numbers for the function's registers, so register sets
  are Python ints used as bit vectors.
- `liveness(cfg, numbering)`: live-in / live-out register sets per block.

The algorithms are those of `tileas_py.analysis` (`cfg`, `liveness`), run on the successor
lists and register bit vectors built here; which registers and branches differ between
threads is `tileas_py.analysis.divergence`. Every analysis is linear in the size of the
function per iteration of its fixed point.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Sequence

from xdsl.ir import Block, Operation, SSAValue

from tileas_py.analysis import cfg as graph
from tileas_py.analysis.liveness import solve, use_def
from tileas_py.dialects.ori.function import FuncOp, RegOp
from tileas_py.dialects.ori.instructions import InstructionOp


def defs(inst: InstructionOp) -> list[SSAValue]:
    """The registers `inst` writes (`def` and `inout` operands), in PTX order."""
    return inst.defs()


def uses(inst: InstructionOp) -> list[SSAValue]:
    """The registers `inst` reads: its guard, then its `use` and `inout` operands."""
    return inst.uses()


def declaration(reg: SSAValue) -> RegOp:
    """The `ori.reg` that declares a register handle."""
    owner = reg.owner
    assert isinstance(owner, RegOp), f"{reg} is not an ori register"
    return owner


def instructions_touching(reg: SSAValue) -> list[InstructionOp]:
    """Every instruction that reads or writes `reg`, each once (in use-list order, not
    program order)."""
    touching = {
        use.operation: None
        for use in reg.uses
        if isinstance(use.operation, InstructionOp)
    }
    return list(touching)


def code_blocks(func: FuncOp) -> list[Block]:
    """The blocks that hold code, in printing order (the declaration block excluded)."""
    return list(func.body.blocks)[1:]


def instructions(func: FuncOp) -> Iterator[InstructionOp]:
    """Every instruction of `func`, in printing order."""
    for block in code_blocks(func):
        for op in block.ops:
            if isinstance(op, InstructionOp):
                yield op


class ControlFlowGraph:
    """The CFG of one function's code, blocks named by their index in linear order.

    The first code block is the entry. Blocks without successors (`ret`, `exit`, running
    off the end) reach the virtual exit of the post-dominator analysis.
    """

    def __init__(self, func: FuncOp) -> None:
        self.blocks: list[Block] = code_blocks(func)
        self.index: dict[Block, int] = {b: i for i, b in enumerate(self.blocks)}
        self.successors: list[list[int]] = []
        self.predecessors: list[list[int]] = [[] for _ in self.blocks]
        for i, block in enumerate(self.blocks):
            terminator = block.last_op
            targets: Sequence[Block] = (
                () if terminator is None else terminator.successors
            )
            succs = list(dict.fromkeys(self.index[t] for t in targets))
            self.successors.append(succs)
            for s in succs:
                self.predecessors[s].append(i)
        self.reverse_postorder: list[int] = (
            graph.reverse_postorder(self.successors) if self.blocks else []
        )
        self.dominator_tree = graph.DominatorTree.forward(
            self.successors, order=self.reverse_postorder, preds=self.predecessors
        )
        self.post_dominator_tree = graph.DominatorTree.backward(
            self.successors, preds=self.predecessors
        )
        self.idom: list[int | None] = self.dominator_tree.idom
        self.ipdom: list[int | None] = self.post_dominator_tree.idom

    def successors_of(self, block: Block) -> list[Block]:
        return [self.blocks[s] for s in self.successors[self.index[block]]]

    def predecessors_of(self, block: Block) -> list[Block]:
        return [self.blocks[p] for p in self.predecessors[self.index[block]]]

    def immediate_dominator(self, block: Block) -> Block | None:
        """None for the entry and for unreachable blocks."""
        idom = self.idom[self.index[block]]
        return None if idom is None else self.blocks[idom]

    def immediate_post_dominator(self, block: Block) -> Block | None:
        """None for exit blocks (the virtual exit post-dominates them) and blocks that
        reach no exit."""
        ipdom = self.ipdom[self.index[block]]
        return None if ipdom is None else self.blocks[ipdom]

    def dominates(self, a: Block, b: Block) -> bool:
        """Whether every path from the entry to `b` passes through `a` (reflexive)."""
        return self.dominator_tree.dominates(self.index[a], self.index[b])

    def post_dominates(self, a: Block, b: Block) -> bool:
        """Whether every path from `b` to an exit passes through `a` (reflexive)."""
        return self.post_dominator_tree.dominates(self.index[a], self.index[b])

    def is_reachable(self, block: Block) -> bool:
        return self.dominator_tree.is_reachable(self.index[block])

    def must_reach_in(
        self, gen: Sequence[int], kill: Sequence[int], full: int
    ) -> list[int]:
        """The bits that hold on entry to each block along every path from the entry.

        A forward must (intersection) bit-vector problem: a block passes on what it
        generates and what reaches it unkilled. Nothing holds on entry to the function;
        blocks not yet reached start at `full`, the meet's identity.
        """
        reach_in = [full] * len(self.blocks)
        if reach_in:
            reach_in[0] = 0
        changed = True
        while changed:
            changed = False
            for index in self.reverse_postorder:
                incoming = full if index else 0
                for predecessor in self.predecessors[index]:
                    incoming &= gen[predecessor] | (
                        reach_in[predecessor] & ~kill[predecessor]
                    )
                if incoming != reach_in[index]:
                    reach_in[index] = incoming
                    changed = True
        return reach_in


class RegisterNumbering:
    """Dense numbers 0..n-1 for a function's registers, in declaration order."""

    def __init__(self, func: FuncOp) -> None:
        self.registers: list[SSAValue] = [reg.result for reg in func.registers()]
        self.number: dict[SSAValue, int] = {
            reg: n for n, reg in enumerate(self.registers)
        }

    def __len__(self) -> int:
        return len(self.registers)

    def mask(self, registers: Iterable[SSAValue]) -> int:
        """The bit vector (an int) of a set of registers."""
        bits = 0
        for reg in registers:
            bits |= 1 << self.number[reg]
        return bits

    def members(self, bits: int) -> list[SSAValue]:
        """The registers of a bit vector, in numbering order."""
        members: list[SSAValue] = []
        while bits:
            low = bits & -bits
            members.append(self.registers[low.bit_length() - 1])
            bits ^= low
        return members


def block_use_def(
    block: Block,
    numbering: RegisterNumbering,
    ignoring: Container[Operation] = (),
) -> tuple[int, int]:
    """(registers read before any write, registers surely written) in `block`.

    A guarded instruction may not execute, so its writes do not count as surely written.
    Instructions in `ignoring` (e.g. dead code about to be removed) are skipped.
    """
    return use_def(
        (numbering.mask(op.uses()), numbering.mask(op.defs()), op.guard is None)
        for op in block.ops
        if isinstance(op, InstructionOp) and op not in ignoring
    )


def liveness(
    cfg: ControlFlowGraph,
    numbering: RegisterNumbering,
    ignoring: Container[Operation] = (),
) -> tuple[list[int], list[int]]:
    """Live-in and live-out register bit vectors of each block (by CFG index), as if the
    instructions in `ignoring` were not there."""
    gen_kill = [block_use_def(block, numbering, ignoring) for block in cfg.blocks]
    return solve(
        cfg.successors, [gen for gen, _ in gen_kill], [kill for _, kill in gen_kill]
    )
