"""`tileas-unwrap-pipeline-iterators`: the late type rewriter on
`nv_tileas.async.pipeline.create_pipeline` (seed 002, "Late rewriter sub_99A940 (DD02)").

Once scheduling has fixed the iteration counts, a producer's or consumer's pipeline
iterator (`!nv_tileas.pipeline_iterator<producer | consumer, T>`) is only a wrapper
around its element: the rewriter gives every value of such a type in a function that
creates a pipeline its element type `T` (op results, block arguments such as a loop's
carried iterator, nested types, the function's signature), so that the lowerings see
plain SSA values. It emits no op; the casts that wrapped a value into an iterator become
identity casts and go.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    TypeConversionPattern,
    attr_type_rewrite_pattern,
    op_type_rewrite_pattern,
)

from tileas_py.dialects.nv_tileas import CreatePipelineOp, PipelineIteratorType


class UnwrapIteratorType(TypeConversionPattern):
    """`!nv_tileas.pipeline_iterator<role, T>` -> `T`."""

    @attr_type_rewrite_pattern
    def convert_type(self, typ: PipelineIteratorType) -> Attribute:
        return typ.element_type


def _creates_pipeline(function: Operation) -> bool:
    return any(isinstance(op, CreatePipelineOp) for op in function.walk())


def _function_of(op: Operation) -> Operation | None:
    """`op` itself or the closest function-like op (one with a symbol name) holding it."""
    current: Operation | None = op
    while current is not None and "sym_name" not in current.properties:
        current = current.parent_op()
    return current


class UnwrapInPipelineFunctions(RewritePattern):
    """Applies `UnwrapIteratorType` to the ops of functions that create a pipeline."""

    def __init__(self) -> None:
        self.unwrap = UnwrapIteratorType(recursive=True)
        self.anchored: dict[Operation, bool] = {}

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        function = _function_of(op)
        if function is None:
            return
        if function not in self.anchored:
            self.anchored[function] = _creates_pipeline(function)
        if self.anchored[function]:
            self.unwrap.match_and_rewrite(op, rewriter)


class DropIdentityCast(RewritePattern):
    """In a function that creates a pipeline, a cast from a type to itself (what a cast
    into an iterator becomes) is its input."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: UnrealizedConversionCastOp, rewriter: PatternRewriter
    ) -> None:
        function = _function_of(op)
        if op.inputs.types != op.outputs.types or function is None:
            return
        if _creates_pipeline(function):
            rewriter.replace(op, [], list(op.inputs))


@dataclass(frozen=True)
class UnwrapPipelineIteratorsPass(ModulePass):
    """
    Unwraps pipeline iterator types to their element types.

    In every function that holds an `nv_tileas.async.pipeline.create_pipeline`, each
    `!nv_tileas.pipeline_iterator<producer | consumer, T>` (of a result, a block
    argument, the signature, or nested in another type) becomes `T`, and the identity
    casts this leaves are removed. Functions without a pipeline are left alone.

    Before:

        %p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<2, tensor<64x64xf16, #s>>
        %it = builtin.unrealized_conversion_cast %c0 : index to !nv_tileas.pipeline_iterator<consumer, index>
        %r = scf.for %k = %c0 to %n step %c1 iter_args(%i = %it) -> (!nv_tileas.pipeline_iterator<consumer, index>) {
          ...
        }

    After:

        %p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<2, tensor<64x64xf16, #s>>
        %r = scf.for %k = %c0 to %n step %c1 iter_args(%i = %c0) -> (index) {
          ...
        }
    """

    name = "tileas-unwrap-pipeline-iterators"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [UnwrapInPipelineFunctions(), DropIdentityCast()], dce_enabled=False
            ),
            apply_recursively=True,
        ).rewrite_module(op)
