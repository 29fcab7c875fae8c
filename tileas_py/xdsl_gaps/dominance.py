"""`verify_dominance`: MLIR's SSA dominance rule, which xDSL 0.74's verifier does not check.

In MLIR every use of a value must be dominated by its definition ("operand #0 does not
dominate this use"). xDSL accepts `llvm.store %v, %p` written above the op that defines
`%p`, and passes that walk ops in order then meet a value they have not seen (the fuzzer
found `convert-nvvm-to-ori` failing with a `KeyError` on such input, see
docs/robustness.md). `tileas-opt` and `tileas_py.api.verify` run this check before the
first pass.

It is linear in the size of the IR: positions within a block are numbered once per block,
and block dominance uses the dominator tree of `tileas_py.analysis.cfg` (Cooper, Harvey
and Kennedy's algorithm, with O(1) queries). `builtin.module` bodies are graph regions, as in MLIR, and are not checked; uses
in unreachable blocks are accepted, as MLIR accepts them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue

from tileas_py.analysis.cfg import DominatorTree
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
        self._trees: dict[Region, _RegionDominance] = {}

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
            tree = self._trees[region] = _RegionDominance(region)
        return tree.dominates(block, at_block)

    def _positions_in(self, block: Block) -> dict[Operation, int]:
        positions = self._positions.get(block)
        if positions is None:
            positions = self._positions[block] = {
                op: i for i, op in enumerate(block.ops)
            }
        return positions


class _RegionDominance:
    """Block dominance in one region; a use in an unreachable block is accepted."""

    def __init__(self, region: Region) -> None:
        blocks = list(region.blocks)
        self._index = {block: i for i, block in enumerate(blocks)}
        self._tree = DominatorTree.forward(
            [
                [self._index[s] for s in b.last_op.successors]
                if b.last_op is not None
                else []
                for b in blocks
            ]
        )

    def dominates(self, a: Block, b: Block) -> bool:
        inner = self._index[b]
        if not self._tree.is_reachable(inner):
            return True
        return self._tree.dominates(self._index[a], inner)
