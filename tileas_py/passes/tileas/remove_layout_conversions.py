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
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import HasCanonicalizationPatternsTrait

from tileas_py.dialects.nv_tileas import (
    AllocTensorOp,
    ConsumeOneOp,
    ConvertLayoutOp,
    PipelineYieldOp,
    PragmaOp,
    SharedEncodingAttr,
    as_tile,
    encoding_of,
)
from tileas_py.passes.tileas.common import (
    function_like_ops,
    is_elementwise,
    rewrite_to_fixed_point,
)

BUFFER_FAILURE = "failed to rewrite in buffer layout propagation"
REG_FAILURE = "failed to rewrite in reg layout propagation"
GREEDY_FAILURE = "failed to apply patterns greedily"


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


def is_register_tile(t: Attribute) -> bool:
    """A tile in registers: an nv_tileas layout other than a shared buffer."""
    encoding = encoding_of(t)
    return encoding is not None and not isinstance(encoding, SharedEncodingAttr)


def dense_constant(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    producer = value.owner
    if isinstance(producer, arith.ConstantOp) and isinstance(
        producer.value, DenseIntOrFPElementsAttr
    ):
        return producer.value
    return None


def constant_in(dense: DenseIntOrFPElementsAttr, target: AnyTensorType) -> Operation:
    """The constant `dense` with the tile type `target` (its value carries the type)."""
    return arith.ConstantOp(DenseIntOrFPElementsAttr.new((target, dense.data)), target)


def converted_from(value: SSAValue, target: AnyTensorType) -> SSAValue | None:
    """The source of the conversion that produced `value` from `target`, if any."""
    producer = value.owner
    if isinstance(producer, ConvertLayoutOp) and producer.source.type == target:
        return producer.source
    return None


def is_rematerialisable(op: Operation) -> bool:
    """Elementwise work that can be redone in another register layout."""
    return (
        (is_elementwise(op) or isinstance(op, PragmaOp))
        and not isinstance(op, arith.ConstantOp)
        and len(op.results) == 1
    )


class ElementwiseSlice:
    """The elementwise ops a conversion's source is computed by, to be redone in the
    conversion's target layout instead: each op is used only inside the slice (or by
    the conversion), so that rebuilding it in the target layout frees the original."""

    def __init__(self, convert: ConvertLayoutOp) -> None:
        self.target = as_tile(convert.result.type)
        self.ops: list[Operation] = []
        """The slice, each op after the ops it reads."""
        self.leaves: dict[SSAValue, None] = {}
        """Tile inputs computed outside the slice."""
        self.grow(convert.source, convert)

    def grow(self, value: SSAValue, user: Operation) -> None:
        producer = value.owner
        if producer in self.ops or value in self.leaves:
            return
        if (
            isinstance(producer, Operation)
            and is_rematerialisable(producer)
            and all(use.operation is user for use in value.uses)
        ):
            for operand in producer.operands:
                if isinstance(operand.type, TensorType):
                    self.grow(operand, producer)
            self.ops.append(producer)
        else:
            self.leaves[value] = None

    def wanted(self, value: SSAValue) -> AnyTensorType:
        return retyped(value, self.target)

    def is_free(self, leaf: SSAValue) -> bool:
        """Available in the target layout without a conversion."""
        wanted = self.wanted(leaf)
        return converted_from(leaf, wanted) is not None or (
            dense_constant(leaf) is not None and is_register_tile(wanted)
        )

    def conversions_saved(self) -> int:
        """Conversions the rewrite removes minus those it adds: the slice's own
        conversion, plus each free input's conversion that nothing else reads, minus
        one conversion per input that is not free."""
        saved = 1
        for leaf in self.leaves:
            if not self.is_free(leaf):
                saved -= 1
            elif converted_from(leaf, self.wanted(leaf)) is not None and all(
                use.operation in self.ops for use in leaf.uses
            ):
                saved += 1
        return saved


def in_target_layout(
    leaf: SSAValue, work: ElementwiseSlice, user: Operation, rewriter: PatternRewriter
) -> SSAValue:
    """A slice input in the target layout, for `user`: the source of its conversion
    from that layout, a re-typed constant, or a new conversion before `user`."""
    wanted = work.wanted(leaf)
    available = converted_from(leaf, wanted)
    if available is not None:
        return available
    dense = dense_constant(leaf)
    new = (
        constant_in(dense, wanted)
        if dense is not None
        else ConvertLayoutOp(leaf, wanted)
    )
    rewriter.insert(new, InsertPoint.before(user))
    return new.results[0]


class HoistConvertAboveElementwise(RewritePattern):
    """`convert(f(g(convert⁻¹(x)), c))` -> `f(g(x), c')`: redo the elementwise work
    (arith, math, `nv_tileas.pragma`) a register-to-register conversion reads in the
    conversion's target layout, when that removes conversions. Inputs converted from the
    target layout and constants come for free; every other input needs a conversion of
    its own. A conversion of a constant is the constant in the target layout."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        target = as_tile(op.result.type)
        if not (is_register_tile(op.source.type) and is_register_tile(target)):
            return
        dense = dense_constant(op.source)
        if dense is not None:
            producer = op.source.owner
            rewriter.replace(op, constant_in(dense, target))
            if isinstance(producer, Operation) and not producer.results[0].uses:
                rewriter.erase(producer)
            return
        work = ElementwiseSlice(op)
        if not work.ops or work.conversions_saved() <= 0:
            return
        rebuilt: dict[SSAValue, SSAValue] = {}
        for old in work.ops:
            for leaf in old.operands:
                if leaf in work.leaves and leaf not in rebuilt:
                    rebuilt[leaf] = in_target_layout(leaf, work, old, rewriter)
            new = type(old).create(
                operands=[rebuilt.get(v, v) for v in old.operands],
                result_types=[work.wanted(old.results[0])],
                properties=dict(old.properties),
                attributes=dict(old.attributes),
            )
            new.results[0].name_hint = old.results[0].name_hint
            rewriter.insert(new, InsertPoint.before(old))
            rebuilt[old.results[0]] = new.results[0]
        rewriter.replace(op, [], [rebuilt[op.source]])
        for old in reversed(work.ops):
            rewriter.erase(old)
        for leaf in work.leaves:
            constant = leaf.owner
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
    4. register layout propagation, between register layouts only (a shared tile is a
       buffer, which elementwise ops do not take): a converted constant becomes the
       constant in the target layout; a conversion of elementwise work (the arith, math
       and `nv_tileas.pragma` ops computing its source, each used only by the next) is
       replaced by that work redone in the target layout when this removes conversions:
       inputs converted from the target layout and constants come for free, every other
       input needs a conversion of its own; a conversion of an `scf.if` or
       `nv_tileas.async.pipeline.consume_one` result whose yields all convert from the
       target layout moves into the region and cancels;
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
        # Cleanup is `convert_layout`'s canonicalization: its own patterns, without the
        # other ops' and without DCE, which `canonicalize` would bring.
        canonicalization = ConvertLayoutOp.get_trait(HasCanonicalizationPatternsTrait)
        assert canonicalization is not None
        cleanup = canonicalization.get_patterns(ConvertLayoutOp)
        for function in list(function_like_ops(op)):
            rewrite_to_fixed_point(cleanup, function, n, GREEDY_FAILURE)
            rewrite_to_fixed_point(
                [AllocateInConvertedLayout()], function, n, BUFFER_FAILURE
            )
            rewrite_to_fixed_point(cleanup, function, n, GREEDY_FAILURE)
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
            rewrite_to_fixed_point(cleanup, function, n, GREEDY_FAILURE)
