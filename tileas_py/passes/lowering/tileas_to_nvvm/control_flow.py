"""`scf` loops that carry tile values, in `convert-tileas-to-nvvm`.

`convert-nvvm-to-ori` lowers `scf` itself; here a loop only changes the types it carries
(MLIR's structural type conversion, https://mlir.llvm.org/docs/DialectConversion/): an
`scf.for` whose iter_args hold tiles (a K loop's accumulator) carries their LLVM values
(`conventions.convert_type`), with casts at the loop's boundary that fold away once the
tile ops around and inside it are lowered. A splat `arith.constant` of zero with an
`#nv_tileas.mma` encoding (an accumulator's initial value) is `llvm.mlir.zero` of the
fragment struct.

Before:

    %zero = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %acc = scf.for %k = %c0 to %cK step %c64 iter_args(%a = %zero) -> (tensor<64x128xf32, #mma>) {
      %d = nv_tileas.dot ... %a ...
      scf.yield %d : tensor<64x128xf32, #mma>
    }

After:

    %zero = llvm.mlir.zero : !llvm.struct<(struct<(f32, ...)>)>
    %acc = scf.for %k = %c0 to %cK step %c64 iter_args(%a = %zero) -> (!llvm.struct<(struct<(f32, ...)>)>) {
      ...
      scf.yield %d : !llvm.struct<(struct<(f32, ...)>)>
    }
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType, UnrealizedConversionCastOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.diagnostics import emit_error
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    convert_type,
    to_llvm,
)


def _converted(t: Attribute) -> Attribute | None:
    """The LLVM type a carried tile becomes; None if `t` stays as it is."""
    if not isinstance(t, TensorType):
        return None
    converted = convert_type(cast(TensorType[Attribute], t))
    return converted if converted != t else None


class ConvertLoopCarriedTiles(RewritePattern):
    """`scf.for` carrying tiles carries their LLVM values."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        types = [_converted(v.type) for v in op.iter_args]
        if not any(t is not None for t in types):
            return
        for value, t in zip(op.iter_args, types, strict=True):
            if isinstance(value.type, TensorType) and t is None:
                emit_error(op, f"a loop carrying '{value.type}' is not supported")
        inits = [
            v if t is None else to_llvm(rewriter, v, op, t)
            for v, t in zip(op.iter_args, types, strict=True)
        ]
        body = rewriter.move_region_contents_to_new_regions(op.body)
        block = body.block
        first = block.first_op
        assert first is not None
        for index, t in enumerate(types, start=1):
            if t is None:
                continue
            old = block.args[index]
            new = block.insert_arg(t, index)
            cast = UnrealizedConversionCastOp.get([new], [old.type])
            block.insert_op_before(cast, first)
            old.replace_all_uses_with(cast.results[0])
            block.erase_arg(old)
        yield_ = block.last_op
        assert isinstance(yield_, scf.YieldOp)
        for index, t in enumerate(types):
            if t is not None:
                yield_.operands[index] = to_llvm(
                    rewriter, yield_.operands[index], yield_, t
                )
        loop = scf.ForOp(op.lb, op.ub, op.step, inits, body)
        loop.attributes.update(op.attributes)
        new_ops: list[Operation] = [loop]
        results: list[SSAValue] = []
        for result, new_result, t in zip(op.results, loop.results, types, strict=True):
            if t is None:
                results.append(new_result)
                continue
            cast = UnrealizedConversionCastOp.get([new_result], [result.type])
            new_ops.append(cast)
            results.append(cast.results[0])
        rewriter.replace(op, new_ops, results)


PATTERNS: tuple[RewritePattern, ...] = (ConvertLoopCarriedTiles(),)
