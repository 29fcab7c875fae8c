"""`tileas-remove-layout-conversions`: remove layout conversions (D20).

Layout assignment places `nv_tileas.convert_layout` ops wherever producer and consumer
layouts differ. Many can go: an uninitialised buffer can be allocated in the layout it is
converted to, elementwise work can be redone in the target layout when its inputs were
converted from it, and conversions cancel out.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    AnyTensorType,
    DenseIntOrFPElementsAttr,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.dialects.nv_tileas import (
    AllocTensorOp,
    ConsumeOneOp,
    ConvertLayoutOp,
    PipelineYieldOp,
    PragmaOp,
    as_tile,
)
from tileas_py.passes.tileas.common import (
    function_like_ops,
    is_elementwise,
    rewrite_to_fixed_point,
)

BUFFER_FAILURE = "failed to rewrite in buffer layout propagation"
REG_FAILURE = "failed to rewrite in reg layout propagation"
GREEDY_FAILURE = "failed to apply patterns greedily"


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
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        if not op.result.uses:
            rewriter.erase(op)


CLEANUP = (FoldIdentityConvert(), FoldConvertChain(), EraseDeadConvert())


class AllocateInConvertedLayout(RewritePattern):
    """A buffer whose every use converts it to one layout is allocated in that layout."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllocTensorOp, rewriter: PatternRewriter) -> None:
        users = [use.operation for use in op.result.uses]
        if not users or not all(isinstance(u, ConvertLayoutOp) for u in users):
            return
        targets = {u.results[0].type for u in users}
        if len(targets) != 1:
            return
        alloc = AllocTensorOp(as_tile(targets.pop()))
        alloc.attributes |= op.attributes
        rewriter.insert(alloc)
        for user in users:
            rewriter.replace(user, [], [alloc.result])
        rewriter.erase(op)


def retyped(value: SSAValue, like: AnyTensorType) -> AnyTensorType:
    """`value`'s tile type in the encoding of `like`."""
    value_type = as_tile(value.type)
    return TensorType(
        value_type.get_element_type(), value_type.get_shape(), like.encoding
    )


def in_layout(value: SSAValue, target: AnyTensorType) -> Operation | SSAValue | None:
    """`value` available in `target`'s layout without a conversion: the source of the
    conversion that produced it, or a re-typed constant; None otherwise."""
    producer = value.owner
    if isinstance(producer, ConvertLayoutOp) and producer.source.type == target:
        return producer.source
    if isinstance(producer, arith.ConstantOp) and isinstance(
        producer.value, DenseIntOrFPElementsAttr
    ):
        dense = producer.value
        return arith.ConstantOp(
            DenseIntOrFPElementsAttr.new((target, dense.data)), target
        )
    return None


class HoistConvertAboveElementwise(RewritePattern):
    """`convert(f(convert⁻¹(x), c))` -> `f(x, c')`: redo elementwise work (arith, math,
    `nv_tileas.pragma`) in the conversion's target layout. Tile inputs converted from the
    target layout and constants come for free; at most one other input may need a
    conversion of its own, so the number of conversions never grows and conversions
    move towards their producers, where they cancel."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        producer = op.source.owner
        if not isinstance(producer, Operation) or not (
            is_elementwise(producer) or isinstance(producer, PragmaOp)
        ):
            return
        if len(producer.results) != 1 or not op.source.has_one_use():
            return
        target = as_tile(op.result.type)
        new_ops: list[Operation] = []
        operands: list[SSAValue] = []
        converted = 0
        for operand in producer.operands:
            if not isinstance(operand.type, TensorType):
                operands.append(operand)
                continue
            wanted = retyped(operand, target)
            available = in_layout(operand, wanted)
            if available is None:
                # Moving the conversion onto this input keeps the count of conversions.
                converted += 1
                available = ConvertLayoutOp(operand, wanted)
            if isinstance(available, Operation):
                new_ops.append(available)
                available = available.results[0]
            operands.append(available)
        if converted > 1:
            return
        rebuilt = type(producer).create(
            operands=operands,
            result_types=[target],
            properties=dict(producer.properties),
            attributes=dict(producer.attributes),
        )
        inputs = list(producer.operands)
        rewriter.replace(op, [*new_ops, rebuilt])
        rewriter.erase(producer)
        for value in inputs:
            constant = value.owner
            if isinstance(constant, arith.ConstantOp) and not constant.result.uses:
                rewriter.erase(constant)


def sink_into_region_results(
    op: ConvertLayoutOp, terminators: list[Operation], rewriter: PatternRewriter
) -> None:
    """Retype a region op's result to the conversion's target when every terminator
    yields a tile converted from that target."""
    result = op.source
    assert isinstance(result, OpResult)
    if not result.has_one_use():
        return
    sources: list[SSAValue] = []
    for terminator in terminators:
        yielded = terminator.operands[result.index].owner
        if not (
            isinstance(yielded, ConvertLayoutOp)
            and yielded.source.type == op.result.type
        ):
            return
        sources.append(yielded.source)
    for terminator, source in zip(terminators, sources, strict=True):
        terminator.operands[result.index] = source
        rewriter.notify_op_modified(terminator)
    new_result = rewriter.replace_value_with_new_type(result, op.result.type)
    rewriter.replace(op, [], [new_result])


class SinkConvertIntoIf(RewritePattern):
    """A conversion of an `scf.if` result moves into both branches, where it cancels."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        if_op = op.source.owner
        if not isinstance(if_op, scf.IfOp) or not if_op.false_region.blocks:
            return
        terminators = [r.block.last_op for r in (if_op.true_region, if_op.false_region)]
        yields = [t for t in terminators if isinstance(t, scf.YieldOp)]
        if len(yields) == 2:
            sink_into_region_results(op, list(yields), rewriter)


class SinkConvertIntoConsumeOne(RewritePattern):
    """A conversion of a `consume_one` result moves into its body, where it cancels."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        consume = op.source.owner
        if not isinstance(consume, ConsumeOneOp):
            return
        terminator = consume.body.block.last_op
        if isinstance(terminator, PipelineYieldOp):
            sink_into_region_results(op, [terminator], rewriter)


@dataclass(frozen=True)
class RemoveLayoutConversionsPass(ModulePass):
    """
    Removes layout conversions (tileiras's `TileASRemoveLayoutConversionsPass`).

    Per function-like op, in order:
    1. cleanup: identity conversions fold away, chains of conversions become one (or
       none), unused conversions go;
    2. buffer layout propagation: an `alloc_tensor` whose every use is a
       `convert_layout` to the same layout is allocated in that layout instead;
    3. cleanup;
    4. register layout propagation: a conversion of a single-use elementwise result
       (arith, math, `nv_tileas.pragma`) is replaced by the elementwise op in the target
       layout when at most one of its tile inputs needs converting (inputs converted from
       the target layout and constants do not), moving conversions up until they cancel; a
       conversion of an `scf.if` or `nv_tileas.async.pipeline.consume_one` result whose
       yields all convert from the target layout moves into the region and cancels;
    5. cleanup.

    Each stage sweeps its patterns until a sweep changes nothing. Like MLIR's greedy
    driver, a stage that still changes the IR after `max-iterations` sweeps fails:
    "failed to rewrite in buffer layout propagation" (2), "failed to rewrite in reg
    layout propagation" (4), "failed to apply patterns greedily" (1, 3, 5).

    Not modelled: tileiras's full layout engine (choosing new layouts, rematerialising
    through loops and non-elementwise ops); only conversions that cancel are removed.

    Before:
    ```
    %a = nv_tileas.convert_layout %x : tensor<64x64xf32, #b1> -> tensor<64x64xf32, #b2>
    %n = arith.negf %a : tensor<64x64xf32, #b2>
    %r = nv_tileas.convert_layout %n : tensor<64x64xf32, #b2> -> tensor<64x64xf32, #b1>
    ```
    After:
    ```
    %r = arith.negf %x : tensor<64x64xf32, #b1>
    ```
    """

    name = "tileas-remove-layout-conversions"

    max_iterations: int = 10
    """Sweeps a stage may take (one to change, one more to confirm nothing changes)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        n = self.max_iterations
        for function in list(function_like_ops(op)):
            rewrite_to_fixed_point(CLEANUP, function, n, GREEDY_FAILURE)
            rewrite_to_fixed_point(
                [AllocateInConvertedLayout()], function, n, BUFFER_FAILURE
            )
            rewrite_to_fixed_point(CLEANUP, function, n, GREEDY_FAILURE)
            rewrite_to_fixed_point(
                [
                    HoistConvertAboveElementwise(),
                    SinkConvertIntoIf(),
                    SinkConvertIntoConsumeOne(),
                ],
                function,
                n,
                REG_FAILURE,
            )
            rewrite_to_fixed_point(CLEANUP, function, n, GREEDY_FAILURE)
