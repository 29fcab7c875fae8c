"""`tileas-plan-cta`: propagate CTA layouts through a multi-CTA kernel (TileASPlanCTA, D19).

A tile of a kernel whose cluster has N > 1 CTAs is spread over those CTAs as its layout's
CTA part says (`cta = #nv_tileas.cta_layout<...>`). Layout assignment leaves most tiles
"unplanned" (no CTA part); the anchors (TMA loads, buffers, 2-CTA MMA operands) and the
`nv_tileas.convert_layout` ops between them carry the decisions. This pass spreads those
decisions over the unplanned tiles so that CTA-changing conversions disappear.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    AnyDenseElement,
    DenseIntOrFPElementsAttr,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue, Use
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileaa import kernel_spec_of
from tileas_py.dialects.nv_tileas import (
    AllocTensorOp,
    BroadcastOp,
    ConvertLayoutOp,
    CopyOp,
    CTALayoutAttr,
    DotOp,
    ExpandDimOp,
    PragmaOp,
    TiledLoadOp,
    as_tile,
    cta_of,
    encoding_of,
    with_cta,
)
from tileas_py.passes.tileas.common import (
    function_like_ops,
    is_elementwise,
    is_layout_agnostic,
)

DIRECTION = "plancta.direction"
FORWARD = "forward"
BACKWARD = "backward"

Transform = Callable[[CTALayoutAttr], CTALayoutAttr | None]


def identity(cta: CTALayoutAttr) -> CTALayoutAttr | None:
    return cta


@dataclass(frozen=True)
class Member:
    """One value of a group whose CTA layouts are tied, and how its layout relates to the
    group's: `to_member` maps the group layout to this member's, `from_member` back."""

    value: SSAValue | None = None
    use: Use | None = None
    to_member: Transform = identity
    from_member: Transform = identity


def result_member(value: SSAValue) -> Member:
    return Member(value=value)


def use_member(op: Operation, index: int) -> Member:
    return Member(use=Use(op, index))


class CTAPlanner:
    """Plans the CTA layouts of one function; see `PlanCTAPass`."""

    def __init__(self, function: Operation, num_ctas: int) -> None:
        self.function = function
        self.num_ctas = num_ctas
        self.worklist: deque[SSAValue] = deque()
        self.original_types: dict[SSAValue, TensorType] = {}
        self.converts: dict[ConvertLayoutOp, None] = {}
        self.tagged: dict[Operation, None] = {}

    def run(self, keep_tags: bool) -> None:
        direction_set = self.seed_from_convert_layouts()
        if not direction_set:
            self.seed_from_anchors()
        while self.worklist:
            self.step(self.worklist.popleft())
        self.merge_convert_pairs()
        if not keep_tags:
            for op in self.tagged:
                op.attributes.pop(DIRECTION, None)

    # Seeding

    def seed_from_convert_layouts(self) -> bool:
        direction_set = False
        for op in self.function.walk():
            if not isinstance(op, ConvertLayoutOp):
                continue
            self.converts[op] = None
            source, result = cta_of(op.source.type), cta_of(op.result.type)
            if source is not None and result is None:
                self.tag(op, FORWARD)
                self.settle(op.result, source)
                direction_set = True
            elif source is None and result is not None:
                self.tag(op, BACKWARD)
                self.require(Use(op, 0), result)
                direction_set = True
        return direction_set

    def seed_from_anchors(self) -> None:
        for op in self.function.walk():
            if isinstance(op, TiledLoadOp | AllocTensorOp):
                cta = cta_of(op.result.type)
                if cta is not None:
                    self.check_cluster(op, cta)
                    self.tag(op, FORWARD)
                    self.worklist.append(op.result)

    # Propagation

    def step(self, value: SSAValue) -> None:
        cta = cta_of(value.type)
        assert cta is not None
        producer = self.producer_group(value)
        if producer is not None:
            owner = value.owner
            if isinstance(owner, Operation):
                self.tag(owner, BACKWARD)
            self.tie(producer, value, cta)
        for use in tuple(value.uses):
            group = self.user_group(use)
            if group is not None:
                self.tag(use.operation, FORWARD)
                self.tie(group, value, cta)
            elif isinstance(use.operation, ConvertLayoutOp):
                self.converts[use.operation] = None
            elif value in self.original_types and not is_layout_agnostic(use.operation):
                self.convert_use(use, self.original_types[value])

    def tie(self, group: list[Member], trigger: SSAValue, cta: CTALayoutAttr) -> None:
        """Give every member of a group the same CTA layout (in group terms)."""
        group_cta: CTALayoutAttr | None = None
        for member in group:
            if member.value is not None:
                planned = cta_of(member.value.type)
                if planned is not None:
                    group_cta = member.from_member(planned)
                    break
        if group_cta is None:
            for member in group:
                if (
                    member.use is not None
                    and member.use.operation.operands[member.use.index] is trigger
                ):
                    group_cta = member.from_member(cta)
                    break
        if group_cta is None:
            return
        for member in group:
            target = member.to_member(group_cta)
            if target is None:
                continue
            if member.value is not None:
                self.settle(member.value, target)
            elif member.use is not None:
                self.require(member.use, target)

    def settle(self, value: SSAValue, cta: CTALayoutAttr) -> bool:
        """Give an unplanned tile the CTA layout (fitted to its shape); False when it
        cannot take it."""
        if encoding_of(value.type) is None:
            return False
        old_type = as_tile(value.type)
        if cta.rank != old_type.get_num_dims():
            return False
        cta = cta.fit(old_type.get_shape())
        current = cta_of(old_type)
        if current == cta:
            return True
        if current is not None or not self.is_retypable(value):
            return False
        self.check_cluster(value.owner, cta)
        new_value = Rewriter.replace_value_with_new_type(value, with_cta(old_type, cta))
        owner = new_value.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(
            owner.value, DenseIntOrFPElementsAttr
        ):
            # A splat constant's value carries the result type too.
            new_type = cast(TensorType[AnyDenseElement], new_value.type)
            owner.value = DenseIntOrFPElementsAttr(new_type, owner.value.data)
        self.original_types[new_value] = old_type
        self.worklist.append(new_value)
        return True

    def require(self, use: Use, cta: CTALayoutAttr) -> None:
        """Make the tile flowing into `use` have the CTA layout, converting if needed."""
        value = use.operation.operands[use.index]
        if self.settle(value, cta):
            return
        if encoding_of(value.type) is None or cta_of(value.type) == cta:
            return
        value_type = as_tile(value.type)
        if cta.rank != value_type.get_num_dims():
            return
        cta = cta.fit(value_type.get_shape())
        if cta_of(value_type) == cta:
            return
        convert = ConvertLayoutOp(value, with_cta(value_type, cta))
        Rewriter.insert_op(convert, InsertPoint.before(use.operation))
        use.operation.operands[use.index] = convert.result
        self.converts[convert] = None

    def convert_use(self, use: Use, old_type: TensorType) -> None:
        """Hand an op that needs the old type a conversion back to it."""
        value = use.operation.operands[use.index]
        convert = ConvertLayoutOp(value, old_type)
        Rewriter.insert_op(convert, InsertPoint.before(use.operation))
        use.operation.operands[use.index] = convert.result
        self.converts[convert] = None

    def check_cluster(self, where: Operation | Block, cta: CTALayoutAttr) -> None:
        if cta.num_ctas == self.num_ctas:
            return
        op = where if isinstance(where, Operation) else where.parent_op()
        emit_error(
            op if op is not None else self.function,
            f"CTA layout spans {cta.num_ctas} CTAs but the kernel's cluster has "
            f"{self.num_ctas}",
        )

    # Groups of tied values

    @staticmethod
    def is_retypable(value: SSAValue) -> bool:
        if encoding_of(value.type) is None:
            return False
        if isinstance(value, OpResult):
            op = value.op
            return is_elementwise(op) or isinstance(
                op,
                PragmaOp
                | CopyOp
                | DotOp
                | BroadcastOp
                | ExpandDimOp
                | ConvertLayoutOp
                | scf.ForOp
                | scf.IfOp
                | scf.WhileOp,
            )
        assert isinstance(value, BlockArgument)
        parent = value.block.parent_op()
        if isinstance(parent, scf.ForOp):
            return value.index > 0
        return isinstance(parent, scf.WhileOp)

    def producer_group(self, value: SSAValue) -> list[Member] | None:
        if isinstance(value, BlockArgument):
            parent = value.block.parent_op()
            if isinstance(parent, scf.ForOp) and value.index > 0:
                return for_slot(parent, value.index - 1)
            if isinstance(parent, scf.WhileOp):
                if value.block.parent is parent.before_region:
                    return while_before_slot(parent, value.index)
                return while_after_slot(parent, value.index)
            return None
        assert isinstance(value, OpResult)
        op = value.op
        if isinstance(op, scf.ForOp):
            return for_slot(op, value.index)
        if isinstance(op, scf.IfOp):
            return if_slot(op, value.index)
        if isinstance(op, scf.WhileOp):
            return while_after_slot(op, value.index)
        return op_group(op)

    def user_group(self, use: Use) -> list[Member] | None:
        op, index = use.operation, use.index
        if isinstance(op, scf.YieldOp):
            parent = op.parent_op()
            if isinstance(parent, scf.ForOp):
                return for_slot(parent, index)
            if isinstance(parent, scf.IfOp):
                return if_slot(parent, index)
            if isinstance(parent, scf.WhileOp):
                return while_before_slot(parent, index)
            return None
        if isinstance(op, scf.ConditionOp):
            parent = op.parent_op()
            if index == 0 or not isinstance(parent, scf.WhileOp):
                return None
            return while_after_slot(parent, index - 1)
        if isinstance(op, scf.ForOp):
            return for_slot(op, index - 3) if index >= 3 else None
        if isinstance(op, scf.WhileOp):
            return while_before_slot(op, index)
        if isinstance(op, CopyOp) and index == 0:
            return None
        if isinstance(op, DotOp) and index != 2:
            return None
        return op_group(op)

    # Tags and cleanup

    def tag(self, op: Operation, direction: str) -> None:
        if op not in self.tagged:
            self.tagged[op] = None
            op.attributes[DIRECTION] = StringAttr(direction)

    def merge_convert_pairs(self) -> None:
        """Fold the conversions this pass touched: drop identities, merge producer /
        consumer pairs (erasing both when the pair is a round trip)."""
        for convert in self.converts:
            if convert.parent is None:
                continue
            if convert.source.type == convert.result.type:
                convert.result.replace_all_uses_with(convert.source)
                Rewriter.erase_op(convert)
                continue
            producer = convert.source.owner
            if not isinstance(producer, ConvertLayoutOp):
                continue
            if producer.source.type == convert.result.type:
                convert.result.replace_all_uses_with(producer.source)
                Rewriter.erase_op(convert)
            else:
                convert.operands[0] = producer.source
            if not producer.result.uses:
                Rewriter.erase_op(producer)


def op_group(op: Operation) -> list[Member] | None:
    """The tied tiles of a tile op: what must share one CTA layout."""
    if is_elementwise(op) or isinstance(op, PragmaOp):
        result_type = op.results[0].type
        assert isinstance(result_type, TensorType)
        shape = result_type.get_shape()
        members = [
            result_member(r)
            for r in op.results
            if isinstance(r.type, TensorType) and r.type.get_shape() == shape
        ]
        members += [
            use_member(op, i)
            for i, operand in enumerate(op.operands)
            if isinstance(operand.type, TensorType)
            and operand.type.get_shape() == shape
        ]
        return members
    if isinstance(op, BroadcastOp):
        return [result_member(op.result), use_member(op, 0)]
    if isinstance(op, ExpandDimOp):
        axis = op.axis.value.data

        def squeeze(cta: CTALayoutAttr) -> CTALayoutAttr | None:
            return cta.squeeze(axis)

        def expand(cta: CTALayoutAttr) -> CTALayoutAttr | None:
            return cta.expand(axis)

        return [
            result_member(op.result),
            Member(use=Use(op, 0), to_member=squeeze, from_member=expand),
        ]
    if isinstance(op, CopyOp):
        return [result_member(op.result), use_member(op, 1)]
    if isinstance(op, DotOp):
        return [result_member(op.result), use_member(op, 2)]
    return None


def yields_of(op: Operation) -> Iterator[Operation]:
    for region in op.regions:
        for block in region.blocks:
            terminator = block.last_op
            if isinstance(terminator, scf.YieldOp):
                yield terminator


def for_slot(op: scf.ForOp, i: int) -> list[Member]:
    members = [
        result_member(op.body.block.args[i + 1]),
        result_member(op.results[i]),
        use_member(op, i + 3),
    ]
    members += [use_member(y, i) for y in yields_of(op)]
    return members


def if_slot(op: scf.IfOp, i: int) -> list[Member]:
    return [result_member(op.results[i])] + [use_member(y, i) for y in yields_of(op)]


def while_before_slot(op: scf.WhileOp, i: int) -> list[Member]:
    """Slot i of the loop-carried values entering the `before` region."""
    members = [result_member(op.before_region.block.args[i]), use_member(op, i)]
    after_yield = op.after_region.block.last_op
    if isinstance(after_yield, scf.YieldOp):
        members.append(use_member(after_yield, i))
    return members


def while_after_slot(op: scf.WhileOp, i: int) -> list[Member]:
    """Slot i of the values `scf.condition` passes to the `after` region and out."""
    members = [
        result_member(op.after_region.block.args[i]),
        result_member(op.results[i]),
    ]
    condition = op.before_region.block.last_op
    if isinstance(condition, scf.ConditionOp):
        members.append(use_member(condition, i + 1))
    return members


@dataclass(frozen=True)
class PlanCTAPass(ModulePass):
    """
    Propagates CTA layouts (tileiras's `TileASPlanCTA`, "propagate CTA related layouts").

    For every function-like op whose `nv_tileaa.kernel_spec` has `num_ctas` > 1 (others
    are left alone, as is a function without a kernel spec):

    1. Seeds: every `nv_tileas.convert_layout` with a CTA layout on exactly one side is
       tagged `plancta.direction = "forward"` (planned source, unplanned result: the
       result and its users take the source's CTA layout) or `"backward"` (unplanned
       source: its producers take the result's). When no conversion sets a direction,
       TMA loads (`tiled_load`) and `alloc_tensor` ops with a CTA layout seed forward.
    2. A FIFO worklist of tiles whose CTA layout was just decided spreads it: forward to
       users, backward to producers, through elementwise arith / math ops,
       `nv_tileas.pragma`, `broadcast`, `expand_dim` (inserting / dropping a unit CTA
       dimension), the accumulator of `dot` and the destination of `copy`, and the
       iter_args, results, block arguments and yields of `scf.for`, `scf.if` and
       `scf.while`. A tile takes the layout fitted to its shape: a dimension is split
       into at most as many pieces as divide its size, so a size-1 (broadcast)
       dimension is replicated. Tiles that already have a CTA layout keep it; where two layouts meet
       (or a producer cannot be retyped: function arguments, loads, buffers) a
       `convert_layout` is inserted. Other ops keep the types they had: a tile op reads
       any CTA layout, anything else (terminators, foreign ops) gets a conversion back.
    3. The conversions the pass touched are merged: identities disappear and a producer /
       consumer pair becomes one conversion, or nothing when it is a round trip.
    4. The direction tags are removed.

    Each tile changes type at most once, so the pass is linear in the size of the IR.
    It fails when a CTA layout spans a different number of CTAs than the cluster.

    Modelled from the notes: the seeding, tags, worklist, the propagation through the
    listed ops, the pair merge. Not modelled: the rank-4 2-CTA MMA-atom arm and the
    MmaAtomLayout pickers of the scf.for region sinker (tiles keep their encodings apart
    from the CTA part), and extract_slice / scatter (no such ops here). Where tileiras
    synthesises placeholder conversions for anchors, the anchor op carries the tag.

    Before (2 CTAs, `#cta2` = `#nv_tileas.cta_layout<ctas_per_cluster = [2, 1], ...>`):
    ```
    %t = nv_tileas.tiled_load %v[%i, %j] : ... -> tensor<128x64xf32, #blocked_cta2>
    %c = nv_tileas.convert_layout %t : tensor<128x64xf32, #blocked_cta2> -> tensor<128x64xf32, #blocked>
    %n = arith.negf %c : tensor<128x64xf32, #blocked>
    nv_tileas.tiled_store %n, %v[%i, %j] : tensor<128x64xf32, #blocked> -> ...
    ```
    After:
    ```
    %t = nv_tileas.tiled_load %v[%i, %j] : ... -> tensor<128x64xf32, #blocked_cta2>
    %n = arith.negf %t : tensor<128x64xf32, #blocked_cta2>
    nv_tileas.tiled_store %n, %v[%i, %j] : tensor<128x64xf32, #blocked_cta2> -> ...
    ```
    """

    name = "tileas-plan-cta"

    keep_direction_tags: bool = False
    """Leave the `plancta.direction` tags on the ops (to see what the worklist visited)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in list(function_like_ops(op)):
            spec = kernel_spec_of(function)
            if spec is None or spec.num_ctas.data == 1:
                continue
            CTAPlanner(function, spec.num_ctas.data).run(self.keep_direction_tags)
