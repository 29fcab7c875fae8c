"""Structured control flow carrying tile values in `convert-tileas-to-nvvm`.

`scf.for` whose loop-carried values are tiles (a WGMMA accumulator carried through a K
loop, a buffer address) is rebuilt with their LLVM types (`conventions.convert_type`): its
initial values, block arguments, `scf.yield` operands and results, with casts at the
boundaries for the patterns inside and after the loop (MLIR's structural type conversion,
https://mlir.llvm.org/docs/DialectConversion/#type-conversion). The loop itself stays an
`scf.for`, which `convert-nvvm-to-ori` lowers; a carried accumulator then stays in the
same registers from one iteration to the next.

Example:

    %d = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) {
      %e = nv_tileas.dot %a, %b, %acc ...
      scf.yield %e : tensor<64x64xf32, #mma>
    }

becomes a loop carrying `!llvm.struct<(struct<(f32, ...)>)>`.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import UnrealizedConversionCastOp
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.diagnostics import emit_error
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    convert_type,
    from_llvm,
    is_tile_type,
    to_llvm,
)


class LowerTileFor(RewritePattern):
    """`scf.for` carrying tiles to an `scf.for` carrying their LLVM values."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        types = [value.type for value in op.iter_args]
        if not any(is_tile_type(t) for t in types):
            return
        converted: list[Attribute] = []
        for t in types:
            c = convert_type(t) if is_tile_type(t) else t
            if c is None:
                emit_error(
                    op,
                    f"a loop-carried value of type '{t}' is not supported by "
                    "convert-tileas-to-nvvm",
                )
            converted.append(c)
        inits = [
            to_llvm(rewriter, value, op, c)
            for value, c in zip(op.iter_args, converted, strict=True)
        ]
        body = op.body.block
        for index, (arg, c) in enumerate(
            zip(tuple(body.args[1:]), converted, strict=True), start=1
        ):
            if arg.type == c:
                continue
            new_arg = body.insert_arg(c, index)
            new_arg.name_hint = arg.name_hint
            cast = UnrealizedConversionCastOp.get([new_arg], [arg.type])
            first = body.first_op
            assert first is not None
            body.insert_op_before(cast, first)
            arg.replace_all_uses_with(cast.results[0])
            body.erase_arg(arg)
        terminator = body.last_op
        assert isinstance(terminator, scf.YieldOp)
        yielded: list[SSAValue] = [
            to_llvm(rewriter, value, terminator, c)
            for value, c in zip(terminator.arguments, converted, strict=True)
        ]
        rewriter.replace(terminator, scf.YieldOp(*yielded), [])
        new = scf.ForOp(
            op.lb,
            op.ub,
            op.step,
            inits,
            rewriter.move_region_contents_to_new_regions(op.body),
        )
        new.location = op.location
        rewriter.insert(new)
        results = [
            from_llvm(rewriter, result, op, t)
            for result, t in zip(new.results, types, strict=True)
        ]
        rewriter.replace(op, [], results)


PATTERNS: tuple[RewritePattern, ...] = (LowerTileFor(),)
