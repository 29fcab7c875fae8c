"""What ptxas-phase passes ask of ori: def/use accessors, the CFG and its analyses.

- `defs(inst)` / `uses(inst)`: the registers an instruction writes / reads (guard included);
  `declaration(reg)`: a register's `ori.reg`; `instructions_touching(reg)`: every
  instruction that reads or writes it (its handle's use list, no search).
- `ControlFlowGraph(func)`: the code blocks in linear (printing) order with successor and
  predecessor lists, a reverse postorder, immediate dominators and post-dominators, and
  O(1) `dominates` / `post_dominates` queries.
- `RegisterNumbering(func)`: dense numbers for the function's registers, so register sets
  are Python ints used as bit vectors.
- `liveness(cfg, numbering)`: live-in / live-out register sets per block.
- `control_dependence(cfg)`: the conditional branches each block is control dependent on.
- `Divergence(func, cfg, numbering)`: which registers may differ between the threads of a
  warpgroup (derived from `%tid.x`, `%laneid`, loads, ...) and so which branches are
  divergent; kernel parameters, `%ctaid` and constants are uniform.

Every analysis is linear in the size of the function per iteration of its fixed point.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Sequence

from xdsl.ir import Attribute, Block, Operation, SSAValue

from tileas_py.dialects.ori.attributes import (
    AddressAttr,
    NotAttr,
    PairAttr,
    ParenAttr,
    SpecialRegAttr,
    VectorAttr,
)
from tileas_py.dialects.ori.function import FuncOp, RegOp
from tileas_py.dialects.ori.instructions import (
    InstructionOp,
    TerminatorInstructionOp,
)


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
        self.reverse_postorder: list[int] = _reverse_postorder(
            [0] if self.blocks else [], self.successors
        )
        self.idom = _dominators(self.reverse_postorder, self.predecessors)
        self._dom_interval = _tree_intervals(self.idom)
        exits = [i for i, s in enumerate(self.successors) if not s]
        backward_order = _reverse_postorder(exits, self.predecessors)
        self.ipdom = _dominators(backward_order, self.successors, roots=exits)
        self._pdom_interval = _tree_intervals(self.ipdom)

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
        return _inside(self._dom_interval, self.index[a], self.index[b])

    def post_dominates(self, a: Block, b: Block) -> bool:
        """Whether every path from `b` to an exit passes through `a` (reflexive)."""
        return _inside(self._pdom_interval, self.index[a], self.index[b])

    def is_reachable(self, block: Block) -> bool:
        i = self.index[block]
        return i == 0 or self.idom[i] is not None


def _reverse_postorder(roots: Sequence[int], edges: Sequence[list[int]]) -> list[int]:
    """Nodes reachable from `roots` along `edges`, in reverse postorder (iterative DFS)."""
    visited = [False] * len(edges)
    postorder: list[int] = []
    for root in roots:
        if visited[root]:
            continue
        visited[root] = True
        stack: list[tuple[int, Iterator[int]]] = [(root, iter(edges[root]))]
        while stack:
            node, children = stack[-1]
            for child in children:
                if not visited[child]:
                    visited[child] = True
                    stack.append((child, iter(edges[child])))
                    break
            else:
                stack.pop()
                postorder.append(node)
    postorder.reverse()
    return postorder


def _dominators(
    order: list[int],
    predecessors: Sequence[list[int]],
    roots: Iterable[int] = (0,),
) -> list[int | None]:
    """Immediate dominators by Cooper, Harvey and Kennedy's iterative algorithm.

    `order` is a reverse postorder from `roots`; several roots behave as children of one
    virtual root, whose children get None. Unreached nodes get None too.
    """
    count = len(predecessors)
    if not order:
        return [None] * count
    virtual = count
    rank = [-1] * (count + 1)
    for position, node in enumerate(order):
        rank[node] = position + 1
    rank[virtual] = 0
    idom: list[int] = [-1] * (count + 1)
    idom[virtual] = virtual
    root_set = set(roots)
    for root in root_set:
        idom[root] = virtual

    def intersect(a: int, b: int) -> int:
        while a != b:
            while rank[a] > rank[b]:
                a = idom[a]
            while rank[b] > rank[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for node in order:
            if node in root_set:
                continue
            new = -1
            for pred in predecessors[node]:
                if idom[pred] == -1:
                    continue
                new = pred if new == -1 else intersect(pred, new)
            if new != -1 and idom[node] != new:
                idom[node] = new
                changed = True
    return [None if d in (-1, virtual) else d for d in idom[:count]]


def _tree_intervals(parent: Sequence[int | None]) -> list[tuple[int, int]]:
    """Preorder entry / exit numbers of each node in the forest given by `parent`."""
    children: list[list[int]] = [[] for _ in parent]
    roots: list[int] = []
    for node, p in enumerate(parent):
        (roots if p is None else children[p]).append(node)
    interval = [(0, 0)] * len(parent)
    clock = 0
    for root in roots:
        stack: list[tuple[int, bool]] = [(root, False)]
        while stack:
            node, done = stack.pop()
            if done:
                interval[node] = (interval[node][0], clock)
                continue
            interval[node] = (clock, 0)
            clock += 1
            stack.append((node, True))
            stack.extend((c, False) for c in children[node])
    return interval


def _inside(intervals: Sequence[tuple[int, int]], a: int, b: int) -> bool:
    start_a, end_a = intervals[a]
    start_b, end_b = intervals[b]
    return start_a <= start_b and end_b <= end_a


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
    used = 0
    killed = 0
    for op in block.ops:
        if not isinstance(op, InstructionOp) or op in ignoring:
            continue
        used |= numbering.mask(op.uses()) & ~killed
        if op.guard is None:
            killed |= numbering.mask(op.defs())
    return used, killed


def liveness(
    cfg: ControlFlowGraph,
    numbering: RegisterNumbering,
    ignoring: Container[Operation] = (),
) -> tuple[list[int], list[int]]:
    """Live-in and live-out register bit vectors of each block (by CFG index), as if the
    instructions in `ignoring` were not there."""
    count = len(cfg.blocks)
    gen_kill = [block_use_def(block, numbering, ignoring) for block in cfg.blocks]
    live_in = [0] * count
    live_out = [0] * count
    order = list(reversed(cfg.reverse_postorder))
    reached = set(order)
    order += [i for i in range(count) if i not in reached]
    changed = True
    while changed:
        changed = False
        for i in order:
            out = 0
            for s in cfg.successors[i]:
                out |= live_in[s]
            gen, kill = gen_kill[i]
            new_in = gen | (out & ~kill)
            if out != live_out[i] or new_in != live_in[i]:
                live_out[i] = out
                live_in[i] = new_in
                changed = True
    return live_in, live_out


def control_dependence(cfg: ControlFlowGraph) -> list[int]:
    """For each block (by CFG index), the bit vector of the blocks whose conditional branch
    decides whether it runs (Ferrante, Ottenstein and Warren: walk the post-dominator tree
    from each successor up to the branch's immediate post-dominator)."""
    dependence = [0] * len(cfg.blocks)
    for branch, successors in enumerate(cfg.successors):
        if len(successors) < 2:
            continue
        stop = cfg.ipdom[branch]
        for successor in successors:
            runner: int | None = successor
            while runner is not None and runner != stop:
                dependence[runner] |= 1 << branch
                runner = cfg.ipdom[runner]
    return dependence


# Special registers that may differ between the threads of one warpgroup; every other one
# (%ctaid, %nctaid, %ntid, %gridid, %cluster_*, %smid, ...) is the same for all of them.
_DIVERGENT_SPECIAL_REGISTERS = (
    "%tid",
    "%laneid",
    "%warpid",
    "%lanemask",
    "%clock",
    "%globaltimer",
    "%pm",
)

# Instructions whose results may differ between threads even from uniform operands.
_DIVERGENT_RESULT_ROOTS = frozenset(
    {"atom", "shfl", "vote", "match", "redux", "elect", "activemask", "call"}
)


def special_registers_of(operand: Attribute) -> Iterator[str]:
    """The special registers (`%tid.x`, ...) an operand reads."""
    if isinstance(operand, SpecialRegAttr):
        yield operand.reg_name.data
    elif isinstance(operand, AddressAttr):
        yield from special_registers_of(operand.base)
        for item in operand.rest:
            yield from special_registers_of(item)
    elif isinstance(operand, VectorAttr | ParenAttr):
        for item in operand.elements:
            yield from special_registers_of(item)
    elif isinstance(operand, PairAttr):
        yield from special_registers_of(operand.first)
        yield from special_registers_of(operand.second)
    elif isinstance(operand, NotAttr):
        yield from special_registers_of(operand.operand)


def _has_divergent_source(inst: InstructionOp) -> bool:
    """Whether `inst` produces thread-dependent values whatever its register operands."""
    opcode = inst.opcode.data
    root = opcode.split(".", 1)[0]
    if root in _DIVERGENT_RESULT_ROOTS:
        return True
    if root in ("ld", "ldu") and not opcode.startswith(("ld.param", "ld.const")):
        return True
    return any(
        name.startswith(_DIVERGENT_SPECIAL_REGISTERS)
        for operand in inst.layout
        for name in special_registers_of(operand)
    )


class Divergence:
    """Which registers and branches may differ between the threads of a warpgroup.

    A register is divergent when an instruction defining it reads a divergent register or
    a thread-dependent source (`%tid.x`, `%laneid`, a load from memory other than `.param`
    and `.const`, a shuffle, a vote, a call's result), or when it is defined under a
    divergent branch and read outside it (its value then depends on the path each thread
    took). A conditional branch is divergent when its guard (or the index of a `brx.idx`) is
    divergent and it is not `.uni`. Data and control divergence feed each other; the fixed point is reached after at
    most one round per divergent branch, each round linear in the function.
    """

    def __init__(
        self, func: FuncOp, cfg: ControlFlowGraph, numbering: RegisterNumbering
    ) -> None:
        self.cfg = cfg
        self.control_dependence = control_dependence(cfg)
        self.registers: int = 0
        """Bit vector of the divergent registers."""
        self.branches: int = 0
        """Bit vector of the blocks (CFG indices) ending in a divergent branch."""
        # Each instruction's block, used and defined register numbers, read once.
        self._instructions: list[tuple[int, list[int], list[int]]] = []
        self._users: list[list[int]] = [[] for _ in range(len(numbering))]
        sources = 0
        for index, block in enumerate(cfg.blocks):
            for op in block.ops:
                if not isinstance(op, InstructionOp):
                    continue
                used = [numbering.number[r] for r in op.uses()]
                defined = [numbering.number[r] for r in op.defs()]
                position = len(self._instructions)
                self._instructions.append((index, used, defined))
                for number in used:
                    self._users[number].append(position)
                if _has_divergent_source(op):
                    for number in defined:
                        sources |= 1 << number
        # What decides a branch: its guard, and the index of a `brx.idx`.
        guards: list[tuple[int, int]] = []
        for index, block in enumerate(cfg.blocks):
            terminator = block.last_op
            if (
                isinstance(terminator, TerminatorInstructionOp)
                and ".uni" not in terminator.opcode.data
            ):
                guards.extend(
                    (index, numbering.number[reg]) for reg in terminator.uses()
                )
        while True:
            registers = self._propagate(sources)
            branches = 0
            for index, guard in guards:
                if registers >> guard & 1:
                    branches |= 1 << index
            if branches == self.branches and registers == self.registers:
                return
            self.registers, self.branches = registers, branches
            sources |= self._defined_under_divergence(len(numbering))

    def _propagate(self, sources: int) -> int:
        """Everything computed from the divergent `sources` (a def-use worklist)."""
        divergent = sources
        worklist = [n for n in range(sources.bit_length()) if sources >> n & 1]
        while worklist:
            number = worklist.pop()
            for position in self._users[number]:
                for defined in self._instructions[position][2]:
                    if not divergent >> defined & 1:
                        divergent |= 1 << defined
                        worklist.append(defined)
        return divergent

    def _defined_under_divergence(self, count: int) -> int:
        """Registers defined under a divergent branch and read where it has joined."""
        regions = [0] * count
        for index, _, defined in self._instructions:
            region = self.control_dependence[index] & self.branches
            if region:
                for number in defined:
                    regions[number] |= region
        joined = 0
        for index, used, _ in self._instructions:
            inside = self.control_dependence[index]
            for number in used:
                if regions[number] & ~inside:
                    joined |= 1 << number
        return joined

    def is_divergent(self, reg: SSAValue, numbering: RegisterNumbering) -> bool:
        return bool(self.registers >> numbering.number[reg] & 1)

    def divergent_dependence(self, block: Block) -> int:
        """The divergent branches (a bit vector of CFG indices) `block` depends on."""
        return self.control_dependence[self.cfg.index[block]] & self.branches
