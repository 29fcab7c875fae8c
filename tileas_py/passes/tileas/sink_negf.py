"""`sink-negf-through-shapes`: move `arith.negf` before shape ops (TileASSinkNegF).

With the negation applied to the smaller, pre-broadcast tile, the MMA selectors can fold
it into an operand modifier (`wgmma`'s imm-scale-a / imm-scale-b = -1, see
`cute_nvgpu.atom.set_value neg_a`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.diagnostics import emit_remark
from tileas_py.dialects.nv_tileas import BroadcastOp, ExpandDimOp

NO_SHAPE_OP = "no broadcast/expand_dim op"


class ExchangeNegWithBroadcastPattern(RewritePattern):
    """`negf(broadcast(x))` -> `broadcast(negf(x))`, and the same for `expand_dim`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.NegfOp, rewriter: PatternRewriter) -> None:
        shape_op = op.operand.owner
        if not isinstance(shape_op, BroadcastOp | ExpandDimOp):
            return
        negated = arith.NegfOp.create(
            operands=[shape_op.source],
            result_types=[shape_op.source.type],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        negated.location = op.location
        reshaped = shape_op.clone(
            value_mapper={shape_op.source: negated.result}, clone_name_hints=False
        )
        rewriter.replace(op, [negated, reshaped])
        if not shape_op.result.uses:
            rewriter.erase(shape_op)


@dataclass(frozen=True)
class SinkNegFPass(ModulePass):
    """
    Moves negf before shape operations.

    Rewrites, greedily and to a fixed point, every `arith.negf` of an
    `nv_tileas.broadcast` or `nv_tileas.expand_dim` result into the shape op applied to
    the negated source (ExchangeNegWithBroadcastPattern). Chains of shape ops are crossed
    one by one. The original shape op stays when something else uses it. Arch-agnostic.

    Before:
    ```
    %b = nv_tileas.broadcast %x : tensor<1x64xf32, #l> -> tensor<128x64xf32, #l>
    %n = arith.negf %b : tensor<128x64xf32, #l>
    ```
    After:
    ```
    %nx = arith.negf %x : tensor<1x64xf32, #l>
    %n = nv_tileas.broadcast %nx : tensor<1x64xf32, #l> -> tensor<128x64xf32, #l>
    ```
    """

    name = "sink-negf-through-shapes"

    report_match_failures: bool = False
    """Emit tileiras's match-failure note "no broadcast/expand_dim op" as a remark at each
    input `arith.negf` that does not read a shape op (in tileiras it is a
    `notifyMatchFailure` message, visible only in debug output)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        unmatched = [
            negf
            for negf in op.walk()
            if isinstance(negf, arith.NegfOp)
            and not isinstance(negf.operand.owner, BroadcastOp | ExpandDimOp)
        ]
        PatternRewriteWalker(
            ExchangeNegWithBroadcastPattern(), apply_recursively=True
        ).rewrite_module(op)
        if self.report_match_failures:
            for negf in unmatched:
                emit_remark(negf, NO_SHAPE_OP)
