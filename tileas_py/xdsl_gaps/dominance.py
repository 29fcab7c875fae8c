"""`verify_dominance`: MLIR's SSA dominance rule, which xDSL 0.74's verifier does not check.

In MLIR every use of a value must be dominated by its definition ("operand #0 does not
dominate this use"). xDSL accepts `llvm.store %v, %p` written above the op that defines
`%p`, and passes that walk ops in order then meet a value they have not seen (the fuzzer
found `convert-nvvm-to-ori` failing with a `KeyError` on such input, see
docs/robustness.md). `tileas-opt` and `tileas_py.api.verify` run this check before the
first pass.

It is linear in the size of the IR: positions within a block are numbered once per block,
and block dominance uses immediate dominators (Cooper, Harvey and Kennedy, "A Simple, Fast
Dominance Algorithm") numbered by a depth-first walk of the dominator tree, so each query
is O(1). `builtin.module` bodies are graph regions, as in MLIR, and are not checked; uses
in unreachable blocks are accepted, as MLIR accepts them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue

from tileas_py.diagnostics import PlainVerifyException, op_message


def verify_dominance(root: Operation) -> None:
    """Raise at the first op of `root` that uses a value its definition does not dominate."""
    checker = _DominanceChecker()
    for op in root.walk():
        for index, operand in enumerate(op.operands):
            if not checker.dominates(operand, op):
                raise PlainVerifyException(
                    op_message(op, f"operand #{index} does not dominate this use"), op
                )


class _DominanceChecker:
    def __init__(self) -> None:
        self._positions: dict[Block, dict[Operation, int]] = {}
        self._trees: dict[Region, _DominatorTree] = {}

    def dominates(self, value: SSAValue, user: Operation) -> bool:
        if isinstance(value, BlockArgument):
            block, definition = value.block, None
        elif isinstance(value, OpResult):
            definition = value.op
            block = definition.parent_block()
        else:
            return True
        if block is None:
            return True
        region = block.parent
        if region is None or isinstance(region.parent_op(), ModuleOp):
            return True
        # The ancestor of `user` in the region that holds the definition.
        at: Operation | None = user
        while at is not None and at.parent_region() is not region:
            at = at.parent_op()
        if at is None:
            return True  # not nested in the definition's region: no scoping rule here
        at_block = at.parent_block()
        assert at_block is not None
        if at_block is block:
            if definition is None:
                return True
            positions = self._positions_in(block)
            return positions[definition] < positions[at]
        tree = self._trees.get(region)
        if tree is None:
            tree = self._trees[region] = _DominatorTree(region)
        return tree.dominates(block, at_block)

    def _positions_in(self, block: Block) -> dict[Operation, int]:
        positions = self._positions.get(block)
        if positions is None:
            positions = self._positions[block] = {
                op: i for i, op in enumerate(block.ops)
            }
        return positions


class _DominatorTree:
    """Immediate dominators of a region's blocks, with O(1) dominance queries."""

    def __init__(self, region: Region) -> None:
        blocks = list(region.blocks)
        index = {block: i for i, block in enumerate(blocks)}
        successors = [
            [index[s] for s in b.last_op.successors] if b.last_op is not None else []
            for b in blocks
        ]
        order = _reverse_postorder(successors)
        rank = {block: i for i, block in enumerate(order)}
        predecessors: list[list[int]] = [[] for _ in blocks]
        for b, targets in enumerate(successors):
            for s in targets:
                predecessors[s].append(b)
        idom: list[int | None] = [None] * len(blocks)
        idom[0] = 0

        def intersect(a: int, b: int) -> int:
            while a != b:
                while rank[a] > rank[b]:
                    a = idom[a]  # pyright: ignore[reportAssignmentType]
                while rank[b] > rank[a]:
                    b = idom[b]  # pyright: ignore[reportAssignmentType]
            return a

        changed = True
        while changed:
            changed = False
            for b in order[1:]:
                done = [p for p in predecessors[b] if idom[p] is not None]
                new = done[0]
                for p in done[1:]:
                    new = intersect(p, new)
                if idom[b] != new:
                    idom[b], changed = new, True
        self._index = index
        self._interval = _tree_intervals(idom)

    def dominates(self, a: Block, b: Block) -> bool:
        first, last = self._interval[self._index[a]]
        inner = self._interval[self._index[b]]
        if inner == (-1, -1):
            return True  # `b` is unreachable
        return first <= inner[0] and inner[1] <= last


def _reverse_postorder(successors: list[list[int]]) -> list[int]:
    """The blocks reachable from block 0, in reverse postorder (iterative DFS)."""
    seen = {0}
    order: list[int] = []
    stack = [(0, iter(successors[0]))]
    while stack:
        block, targets = stack[-1]
        for s in targets:
            if s not in seen:
                seen.add(s)
                stack.append((s, iter(successors[s])))
                break
        else:
            stack.pop()
            order.append(block)
    return order[::-1]


def _tree_intervals(idom: list[int | None]) -> list[tuple[int, int]]:
    """Each block's (entry, exit) numbers in a DFS of the dominator tree; (-1, -1) when
    unreachable. `a` dominates `b` when `b`'s interval lies inside `a`'s."""
    children: list[list[int]] = [[] for _ in idom]
    for b, parent in enumerate(idom):
        if parent is not None and b != 0:
            children[parent].append(b)
    intervals = [(-1, -1)] * len(idom)
    clock = 0
    stack = [(0, False)]
    entry: dict[int, int] = {}
    while stack:
        block, leaving = stack.pop()
        if leaving:
            intervals[block] = (entry[block], clock)
            clock += 1
            continue
        entry[block] = clock
        clock += 1
        stack.append((block, True))
        stack.extend((child, False) for child in children[block])
    return intervals
