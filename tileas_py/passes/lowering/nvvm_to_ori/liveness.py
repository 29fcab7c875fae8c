"""Which SSA values of the source function are live where: the facts that decide whether
an instruction may overwrite a register in place.

`live_out(block)` is the classic backward dataflow on the source CFG, iterated to its
fixed point over the blocks in postorder: a value is live out of a block when a successor
uses it before (or without) defining it. A branch operand counts as a use in the branch's
block. In SSA every live-in value's definition dominates the block, so a value live after
a point is exactly one defined before it and used on some path after it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Block, BlockArgument, Operation, SSAValue


def defining_block(value: SSAValue) -> Block | None:
    if isinstance(value, BlockArgument):
        return value.block
    return value.owner.parent_block() if isinstance(value.owner, Operation) else None


class Liveness:
    """Live-out sets of the blocks `order` (reverse postorder) of one function."""

    def __init__(
        self, order: Sequence[Block], successors: dict[Block, tuple[Block, ...]]
    ) -> None:
        used_before_defined: dict[Block, set[SSAValue]] = {}
        for block in order:
            exposed: set[SSAValue] = set()
            for op in block.ops:
                exposed.update(v for v in op.operands if defining_block(v) is not block)
            used_before_defined[block] = exposed
        self._live_out: dict[Block, set[SSAValue]] = {b: set() for b in order}
        live_in = {b: set(used_before_defined[b]) for b in order}
        changed = True
        while changed:
            changed = False
            for block in reversed(order):
                out = self._live_out[block]
                for successor in successors[block]:
                    out |= live_in[successor]
                through = {v for v in out if defining_block(v) is not block}
                if not through <= live_in[block]:
                    live_in[block] |= through
                    changed = True
        self._positions: dict[Operation, int] = {}
        self._last_use: dict[tuple[SSAValue, Block], int] = {}

    def live_out(self, block: Block) -> set[SSAValue]:
        return self._live_out[block]

    def position(self, op: Operation) -> int:
        """The index of `op` in its block."""
        position = self._positions.get(op)
        if position is None:
            block = op.parent_block()
            assert block is not None
            for index, each in enumerate(block.ops):
                self._positions[each] = index
            position = self._positions[op]
        return position

    def last_use_in(self, value: SSAValue, block: Block) -> int:
        """The index of the last op of `block` that uses `value`, -1 if none does."""
        key = (value, block)
        last = self._last_use.get(key)
        if last is None:
            last = max(
                (
                    self.position(use.operation)
                    for use in value.uses
                    if use.operation.parent_block() is block
                ),
                default=-1,
            )
            self._last_use[key] = last
        return last

    def live_after(self, value: SSAValue, op: Operation) -> bool:
        """Whether `value` is used after `op` (later in its block, or after the block)."""
        block = op.parent_block()
        assert block is not None
        return value in self._live_out[block] or self.last_use_in(
            value, block
        ) > self.position(op)
