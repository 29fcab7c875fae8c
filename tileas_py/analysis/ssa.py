"""Where an SSA value of xDSL IR is defined, for analyses that scope values by block."""

from __future__ import annotations

from xdsl.ir import Block, BlockArgument, Operation, SSAValue


def defining_block(value: SSAValue) -> Block | None:
    """The block that defines `value`: a block argument's block, or the block holding the
    op whose result it is (None for an op outside any block, or another kind of value)."""
    if isinstance(value, BlockArgument):
        return value.block
    owner = value.owner
    return owner.parent_block() if isinstance(owner, Operation) else None
