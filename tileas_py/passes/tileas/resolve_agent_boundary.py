"""`tileas-resolve-agent-boundary`: legalise tiles entering agents (D20).

An agent runs on its own warps. A register tile computed before an `agent_switch` is laid
out over the warps that computed it; an agent with a different warp count cannot read it
in place and gets it through shared memory instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AnyTensorType, ModuleOp, TensorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tileas_py.dialects.nv_tileas import (
    AgentSwitchOp,
    AllocTensorOp,
    BlockedEncodingAttr,
    ConvertLayoutOp,
    CopyOp,
    SharedEncodingAttr,
    as_tile,
    encoding_of,
)
from tileas_py.dialects.nv_tileas.attrs import ints
from tileas_py.passes.tileas.common import function_like_ops, is_layout_agnostic


def defined_inside(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    if isinstance(value, BlockArgument):
        assert isinstance(owner, Block)
        owner = owner.parent_op()
    return isinstance(owner, Operation) and op.is_ancestor(owner)


def for_warps(layout: BlockedEncodingAttr, num_warps: int) -> BlockedEncodingAttr:
    """The layout with its warps refitted to `num_warps`, all along the slowest dimension."""
    order = ints(layout.order)
    warps = [1] * len(order)
    warps[order[-1]] = num_warps
    return BlockedEncodingAttr(
        ints(layout.size_per_thread),
        ints(layout.threads_per_warp),
        warps,
        order,
        layout.cta_layout,
    )


class AgentBoundary:
    """The shared-memory hand-offs of one agent_switch."""

    def __init__(self, switch: AgentSwitchOp) -> None:
        self.switch = switch
        self.staged: dict[SSAValue, SSAValue] = {}

    def stage(self, value: SSAValue, layout: BlockedEncodingAttr) -> SSAValue:
        """`value` written to a shared buffer before the switch (once per value)."""
        if value not in self.staged:
            value_type = as_tile(value.type)
            buffer_type = TensorType(
                value_type.get_element_type(),
                value_type.get_shape(),
                SharedEncodingAttr(0, ints(layout.order), layout.cta_layout),
            )
            alloc = AllocTensorOp(buffer_type)
            copy = CopyOp(value, alloc)
            Rewriter.insert_op([alloc, copy], InsertPoint.before(self.switch))
            self.staged[value] = copy.result
        return self.staged[value]

    def resolve(self) -> None:
        num_warps = self.switch.num_warps.get_values()
        for region, n in zip(self.switch.agents, num_warps, strict=True):
            if region.blocks:
                self.resolve_agent(region.block, n)

    def resolve_agent(self, block: Block, num_warps: int) -> None:
        delivered: dict[tuple[SSAValue, AnyTensorType], SSAValue] = {}

        def deliver(value: SSAValue, staged: SSAValue, tile: AnyTensorType) -> SSAValue:
            if (value, tile) not in delivered:
                convert = ConvertLayoutOp(staged, tile)
                Rewriter.insert_op(convert, InsertPoint.at_start(block))
                delivered[value, tile] = convert.result
            return delivered[value, tile]

        for op in list(block.walk()):
            for index, operand in enumerate(op.operands):
                layout = encoding_of(operand.type)
                if (
                    not isinstance(layout, BlockedEncodingAttr)
                    or layout.num_warps == num_warps
                    or defined_inside(operand, self.switch)
                ):
                    continue
                tile = as_tile(operand.type)
                staged = self.stage(operand, layout)
                if isinstance(op, ConvertLayoutOp):
                    op.operands[index] = staged
                    continue
                if is_layout_agnostic(op):
                    tile = TensorType(
                        tile.get_element_type(),
                        tile.get_shape(),
                        for_warps(layout, num_warps),
                    )
                op.operands[index] = deliver(operand, staged, tile)


@dataclass(frozen=True)
class ResolveAgentBoundaryPass(ModulePass):
    """
    Legalises tiles that cross an `agent_switch` boundary (tileiras's
    `TileASResolveAgentBoundaryPass`).

    A register tile (`#nv_tileas.blocked`) defined outside an `agent_switch` and used in an
    agent whose `num_warps` differs from the tile's warp count (the product of its
    `warps_per_cta`) is handed over through shared memory: before the switch it is copied
    into a fresh buffer (`alloc_tensor` + `copy`, `#nv_tileas.shared<swizzle = 0>` in the
    tile's order, once per tile). In the agent, a `convert_layout` of the tile reads the
    buffer directly; a tile op (which takes any layout) gets, from a `convert_layout` at
    the start of the agent, the tile in its blocked layout refitted to the agent's warps
    (all of them along the slowest dimension); other users, whose types are tied to the
    operand's (arith, ...), get it from the buffer in its original layout (re-laying out
    those chains is layout propagation's job). Tiles whose warp count matches the agent,
    buffers and scalars stay direct SSA values. Barriers for the hand-off are left to a
    later pass, as in tileiras. Tiles in other register layouts (`#nv_tileas.mma`) are
    not handled.

    Before (the tile was computed by 8 warps, the agent has 4):
    ```
    nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1] {
      nv_tileas.tiled_store %t, %v[%i, %j] : tensor<128x64xf32, #blocked_8warps> -> ...
    }
    ```
    After:
    ```
    %buf = nv_tileas.alloc_tensor : tensor<128x64xf32, #shared>
    %w = nv_tileas.copy %t, %buf : tensor<128x64xf32, #blocked_8warps> -> tensor<128x64xf32, #shared>
    nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1] {
      %t4 = nv_tileas.convert_layout %w : tensor<128x64xf32, #shared> -> tensor<128x64xf32, #blocked_4warps>
      nv_tileas.tiled_store %t4, %v[%i, %j] : tensor<128x64xf32, #blocked_4warps> -> ...
    }
    ```
    """

    name = "tileas-resolve-agent-boundary"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in list(function_like_ops(op)):
            for switch in [s for s in function.walk() if isinstance(s, AgentSwitchOp)]:
                AgentBoundary(switch).resolve()
