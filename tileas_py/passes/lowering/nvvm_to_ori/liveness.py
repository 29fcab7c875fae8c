"""Which SSA values of the source function are live where: the facts that decide whether
an instruction may overwrite a register in place.

`live_out(block)` is the classic backward dataflow on the source CFG
(`tileas_py.analysis.liveness`): a value is live out of a block when a successor uses it
before (or without) defining it. A branch operand counts as a use in the branch's block.
In SSA every live-in value's definition dominates the block, so a value live after a point
is exactly one defined before it and used on some path after it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Block, Operation, SSAValue

from tileas_py.analysis.liveness import solve
from tileas_py.analysis.ssa import defining_block


class Liveness:
    """Live-out sets of the blocks `order` (reverse postorder) of one function."""

    def __init__(
        self, order: Sequence[Block], successors: dict[Block, tuple[Block, ...]]
    ) -> None:
        # Only values used outside their defining block can be live across blocks: they
        # are numbered, in the order they are met, to use bit vectors.
        index = {block: i for i, block in enumerate(order)}
        values: list[SSAValue] = []
        number: dict[SSAValue, int] = {}
        gen = [0] * len(order)
        for i, block in enumerate(order):
            for op in block.ops:
                for value in op.operands:
                    if defining_block(value) is block:
                        continue
                    if value not in number:
                        number[value] = len(values)
                        values.append(value)
                    gen[i] |= 1 << number[value]
        kill = [0] * len(order)
        for value, n in number.items():
            block = defining_block(value)
            if block is not None and block in index:
                kill[index[block]] |= 1 << n
        _, live_out = solve(
            [[index[s] for s in successors[block]] for block in order], gen, kill
        )
        self._live_out: dict[Block, set[SSAValue]] = {
            block: _members(bits, values)
            for block, bits in zip(order, live_out, strict=True)
        }
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


def _members(bits: int, values: Sequence[SSAValue]) -> set[SSAValue]:
    members: set[SSAValue] = set()
    while bits:
        low = bits & -bits
        members.add(values[low.bit_length() - 1])
        bits ^= low
    return members
