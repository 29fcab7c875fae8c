"""The canonicalization patterns of `nv_tileas` ops, attached to the ops through xDSL's
`HasCanonicalizationPatternsTrait` (as xDSL keeps arith's in
`transforms/canonicalization_patterns/arith.py`), so that `canonicalize` applies them too.

`convert_layout`:

    %a = nv_tileas.convert_layout %x : tensor<64xf32, #b1> -> tensor<64xf32, #b1>
    %b = nv_tileas.convert_layout %y : tensor<64xf32, #b1> -> tensor<64xf32, #b2>
    %c = nv_tileas.convert_layout %b : tensor<64xf32, #b2> -> tensor<64xf32, #b3>

becomes `%a` = `%x` and `%c = nv_tileas.convert_layout %y : ... #b1> -> ... #b3>`, and a
conversion that nothing reads goes (its effects are those of a fresh buffer's allocation).
"""

from __future__ import annotations

from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.dialects.nv_tileas.attrs import as_tile
from tileas_py.dialects.nv_tileas.ops import ConvertLayoutOp


class FoldIdentityConvert(RewritePattern):
    """`convert_layout %x : T -> T` is `%x`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        if op.source.type == op.result.type:
            rewriter.replace(op, [], [op.source])


class FoldConvertChain(RewritePattern):
    """`convert(convert(x))` is one conversion of `x`, or `x` itself."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        producer = op.source.owner
        if not isinstance(producer, ConvertLayoutOp):
            return
        if producer.source.type == op.result.type:
            rewriter.replace(op, [], [producer.source])
        else:
            result_type = as_tile(op.result.type)
            rewriter.replace(op, [ConvertLayoutOp(producer.source, result_type)])


class EraseDeadConvert(RewritePattern):
    """A conversion that nothing reads goes."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        if not op.result.uses:
            rewriter.erase(op)
