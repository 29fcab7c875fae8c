"""`tileas-resolve-agent-boundary`: legalise tiles entering agents (D20).

An agent runs on its own warps. A register tile computed before an `agent_switch` is laid
out over the warps that computed it; an agent with a different warp count cannot read it
in place and gets it through shared memory instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyTensorType, ModuleOp, TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas import (
    AgentSwitchOp,
    AllocTensorOp,
    BlockedEncodingAttr,
    ConvertLayoutOp,
    CopyOp,
    CTALayoutAttr,
    DotOp,
    MmaEncodingAttr,
    PragmaOp,
    SharedEncodingAttr,
    as_tile,
    encoding_of,
)
from tileas_py.dialects.nv_tileas.attrs import ints
from tileas_py.passes.tileas.common import (
    function_like_ops,
    is_elementwise,
    is_layout_agnostic,
)

WARP_SIZE = 32


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


def row_major_blocked(
    shape: Sequence[int], num_warps: int, cta: CTALayoutAttr | None
) -> BlockedEncodingAttr:
    """A blocked layout of `shape` over `num_warps` warps: one element per thread, a
    warp's lanes along the fastest (last) dimensions first, the warps along the
    slowest. An MMA fragment has no layout over other warp counts; this is the one it
    is delivered in."""
    order = tuple(reversed(range(len(shape))))
    lanes = [1] * len(shape)
    left = WARP_SIZE
    for d in order:
        lanes[d] = math.gcd(left, shape[d])
        left //= lanes[d]
    lanes[order[-1]] *= left
    warps = [1] * len(shape)
    warps[order[-1]] = num_warps
    return BlockedEncodingAttr([1] * len(shape), lanes, warps, order, cta)


def register_warps(t: Attribute) -> int | None:
    """The warps a register tile is laid out over (None: not a register tile)."""
    encoding = encoding_of(t)
    if isinstance(encoding, BlockedEncodingAttr):
        return encoding.num_warps
    if isinstance(encoding, MmaEncodingAttr):
        return math.prod(ints(encoding.warps_per_cta))
    return None


def fitted(t: Attribute, num_warps: int) -> AnyTensorType:
    """The register tile type `t` laid out over `num_warps` warps."""
    tile = as_tile(t)
    encoding = encoding_of(tile)
    if register_warps(tile) == num_warps:
        return tile
    if isinstance(encoding, BlockedEncodingAttr):
        layout = for_warps(encoding, num_warps)
    else:
        assert encoding is not None
        layout = row_major_blocked(tile.get_shape(), num_warps, encoding.cta_layout)
    return TensorType(tile.get_element_type(), tile.get_shape(), layout)


def staging_order(t: Attribute) -> tuple[int, ...]:
    encoding = encoding_of(t)
    if isinstance(encoding, BlockedEncodingAttr):
        return ints(encoding.order)
    return tuple(reversed(range(as_tile(t).get_num_dims())))


TIED_OPERANDS = ((DotOp, 2), (CopyOp, 1))
"""Tile-op operands whose type is tied to the op's result: they take no other layout."""


def takes_any_layout(op: Operation, index: int) -> bool:
    return is_layout_agnostic(op) and not any(
        isinstance(op, kind) and index == i for kind, i in TIED_OPERANDS
    )


def is_relayoutable(op: Operation) -> bool:
    """Elementwise work whose tiles can all move to another register layout."""
    return (is_elementwise(op) or isinstance(op, PragmaOp)) and not isinstance(
        op, arith.ConstantOp
    )


class AgentBoundary:
    """The shared-memory hand-offs of one agent_switch."""

    def __init__(self, switch: AgentSwitchOp) -> None:
        self.switch = switch
        self.staged: dict[SSAValue, SSAValue] = {}

    def stage(self, value: SSAValue) -> SSAValue:
        """`value` written to a shared buffer before the switch (once per value)."""
        if value not in self.staged:
            value_type = as_tile(value.type)
            encoding = encoding_of(value_type)
            assert encoding is not None
            buffer_type = TensorType(
                value_type.get_element_type(),
                value_type.get_shape(),
                SharedEncodingAttr(0, staging_order(value_type), encoding.cta_layout),
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
                AgentHandOff(self, region.block, n).resolve()


class AgentHandOff:
    """The tiles one agent reads from outside, each delivered in a layout over the
    agent's warps."""

    def __init__(self, boundary: AgentBoundary, block: Block, num_warps: int) -> None:
        self.boundary = boundary
        self.block = block
        self.num_warps = num_warps
        self.delivered: dict[tuple[SSAValue, AnyTensorType], SSAValue] = {}

    def crosses(self, value: SSAValue) -> bool:
        """A register tile from outside the switch laid out over other warps."""
        warps = register_warps(value.type)
        return (
            warps is not None
            and warps != self.num_warps
            and not defined_inside(value, self.boundary.switch)
        )

    def deliver(self, value: SSAValue, tile: AnyTensorType) -> SSAValue:
        """`value` read from its buffer at the start of the agent, as a `tile`."""
        if (value, tile) not in self.delivered:
            convert = ConvertLayoutOp(self.boundary.stage(value), tile)
            Rewriter.insert_op(convert, InsertPoint.at_start(self.block))
            self.delivered[value, tile] = convert.result
        return self.delivered[value, tile]

    def resolve(self) -> None:
        for op in list(self.block.walk()):
            for index, operand in enumerate(op.operands):
                if not self.crosses(operand):
                    continue
                if isinstance(op, ConvertLayoutOp):
                    op.operands[index] = self.boundary.stage(operand)
                elif is_relayoutable(op):
                    self.relayout(op)
                elif takes_any_layout(op, index):
                    tile = fitted(operand.type, self.num_warps)
                    op.operands[index] = self.deliver(operand, tile)
                else:
                    self.cannot_take(op, operand.type)

    def cannot_take(self, op: Operation, original: Attribute) -> NoReturn:
        emit_error(
            op,
            f"a tile laid out over {register_warps(original)} warps reaches "
            f"'{op.name}' in an agent of {self.num_warps} warps, which cannot take it "
            "in another layout",
        )

    def relayout(self, op: Operation) -> None:
        """Redo elementwise work over the agent's warps: its tiles from outside come from
        their buffers, its other tiles are converted, and its users follow."""
        target = fitted(op.results[0].type, self.num_warps)
        if all(r.type == retyped(r, target) for r in op.results) and all(
            v.type == retyped(v, target)
            for v in op.operands
            if isinstance(v.type, TensorType)
        ):
            return
        for index, operand in enumerate(op.operands):
            if not isinstance(operand.type, TensorType):
                continue
            wanted = retyped(operand, target)
            if operand.type == wanted:
                continue
            if self.crosses(operand):
                op.operands[index] = self.deliver(operand, wanted)
            else:
                convert = ConvertLayoutOp(operand, wanted)
                Rewriter.insert_op(convert, InsertPoint.before(op))
                op.operands[index] = convert.result
        for result in list(op.results):
            original = result.type
            new = Rewriter.replace_value_with_new_type(result, retyped(result, target))
            for use in list(new.uses):
                user = use.operation
                if isinstance(user, ConvertLayoutOp):
                    continue
                if is_relayoutable(user):
                    self.relayout(user)
                elif not takes_any_layout(user, use.index):
                    self.cannot_take(user, original)


def retyped(value: SSAValue, like: AnyTensorType) -> AnyTensorType:
    """`value`'s tile type in the encoding of `like`."""
    value_type = as_tile(value.type)
    return TensorType(
        value_type.get_element_type(), value_type.get_shape(), like.encoding
    )


@dataclass(frozen=True)
class ResolveAgentBoundaryPass(ModulePass):
    """
    Legalises tiles that cross an `agent_switch` boundary (tileiras's
    `TileASResolveAgentBoundaryPass`).

    A register tile (`#nv_tileas.blocked` or `#nv_tileas.mma`) defined outside an
    `agent_switch` and used in an agent whose `num_warps` differs from the tile's warp
    count (the product of its `warps_per_cta`) is handed over through shared memory:
    before the switch it is copied into a fresh buffer (`alloc_tensor` + `copy`,
    `#nv_tileas.shared<swizzle = 0>` in the tile's order, row-major for an MMA fragment,
    once per tile). In the agent every register tile it reads is laid out over the
    agent's warps: a blocked layout refitted to them (all along the slowest dimension),
    for an MMA fragment a row-major blocked layout with one element per thread. So:
    - a `convert_layout` of the tile reads the buffer directly;
    - a tile op that takes any layout gets the tile, from a `convert_layout` at the
      start of the agent, in the agent's layout;
    - elementwise work (arith, math, `nv_tileas.pragma`) is redone in the agent's layout:
      the tile comes from its buffer, the agent's own tiles it mixes with are converted,
      and its users follow the same rules;
    - anything else, whose type is tied to the tile's (a loop's iter_args, a call, the
      accumulator of a `dot`, the destination of a `copy`) fails with "a tile laid out
      over N warps reaches 'op' in an agent of M warps, which cannot take it in another
      layout".
    Tiles whose warp count matches the agent, buffers and scalars stay direct SSA
    values. Barriers for the hand-off are left to a later pass, as in tileiras.

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
