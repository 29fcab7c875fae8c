"""Barriers, fences and warp-level synchronization: `nvvm.barrier0`, `nvvm.barrier`,
`nvvm.barrier.arrive`, `nvvm.fence.*`, `nvvm.elect.sync` and `nvvm.setmaxregister`.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import I1, I32, IntegerAttr, IntegerType, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.nvvm.attrs import (
    BarrierReductionAttr,
    ProxyKind,
    ProxyKindAttr,
    SetMaxRegisterAction,
    SetMaxRegisterActionAttr,
    SharedSpaceAttr,
)
from tileas_py.dialects.nvvm.syntax import canonical_properties


@irdl_op_definition
class Barrier0Op(IRDLOperation):
    """CTA-wide barrier on barrier 0 (`bar.sync 0`).

    Equivalent to `nvvm.barrier` without operands.

    Example:
        nvvm.barrier0
    """

    name = "nvvm.barrier0"

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@canonical_properties
@irdl_op_definition
class BarrierOp(IRDLOperation):
    """CTA barrier synchronization (`barrier.sync.aligned`), optionally with a reduction.

    `id` selects one of the 16 named barriers (default 0); `number_of_threads` limits the
    participating threads and then requires `id`. With a reduction, every thread contributes
    `reductionPredicate` and receives the `and`, `or` or population count over the CTA.

    Example:
        nvvm.barrier id = %id number_of_threads = %n
        %all = nvvm.barrier #nvvm.reduction<and> %pred -> i32
    """

    name = "nvvm.barrier"

    barrierId = opt_operand_def(I32)
    numberOfThreads = opt_operand_def(I32)
    reductionPredicate = opt_operand_def(I32)
    reductionOp = opt_prop_def(BarrierReductionAttr)
    res = opt_result_def(I32)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        barrier_id: SSAValue | None = None,
        number_of_threads: SSAValue | None = None,
        reduction: tuple[BarrierReductionAttr, SSAValue] | None = None,
    ) -> None:
        predicate = [] if reduction is None else [reduction[1]]
        super().__init__(
            operands=[
                [] if barrier_id is None else [barrier_id],
                [] if number_of_threads is None else [number_of_threads],
                predicate,
            ],
            properties={"reductionOp": None if reduction is None else reduction[0]},
            result_types=[[] if reduction is None else [i32]],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        barrier_id = number_of_threads = predicate = None
        if parser.parse_optional_keyword("id") is not None:
            parser.parse_punctuation("=")
            barrier_id = parser.resolve_operand(parser.parse_unresolved_operand(), i32)
        if parser.parse_optional_keyword("number_of_threads") is not None:
            parser.parse_punctuation("=")
            number_of_threads = parser.resolve_operand(
                parser.parse_unresolved_operand(), i32
            )
        reduction = parser.parse_optional_attribute()
        if reduction is not None:
            if not isinstance(reduction, BarrierReductionAttr):
                parser.raise_error("expected a #nvvm.reduction attribute")
            predicate = parser.resolve_operand(parser.parse_unresolved_operand(), i32)
        attributes = parser.parse_optional_attr_dict()
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types.append(parser.parse_type())
        op = cls.create(
            operands=[
                v for v in (barrier_id, number_of_threads, predicate) if v is not None
            ],
            result_types=result_types,
            properties={} if reduction is None else {"reductionOp": reduction},
            attributes=attributes,
        )
        op.properties["operandSegmentSizes"] = _segments(
            barrier_id, number_of_threads, predicate
        )
        return op

    def print(self, printer: Printer) -> None:
        if self.barrierId is not None:
            printer.print_string(" id = ")
            printer.print_operand(self.barrierId)
        if self.numberOfThreads is not None:
            printer.print_string(" number_of_threads = ")
            printer.print_operand(self.numberOfThreads)
        if self.reductionOp is not None:
            printer.print_string(" ")
            printer.print_attribute(self.reductionOp)
        if self.reductionPredicate is not None:
            printer.print_string(" ")
            printer.print_operand(self.reductionPredicate)
        printer.print_op_attributes(self.attributes)
        if self.res is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        if self.numberOfThreads is not None and self.barrierId is None:
            raise VerifyException(
                "barrier id is missing, it should be set between 0 to 15"
            )
        has_reduction = (
            self.reductionOp is not None or self.reductionPredicate is not None
        )
        if self.barrierId is not None and has_reduction:
            raise VerifyException("reduction are only available when id is 0")
        if (self.reductionOp is None) != (self.reductionPredicate is None):
            raise VerifyException(
                "reduction predicate and reduction operation must be specified together"
            )


def _segments(*operands: SSAValue | None) -> Attribute:
    from xdsl.dialects.builtin import DenseArrayBase

    return DenseArrayBase.from_list(i32, [0 if v is None else 1 for v in operands])


@irdl_op_definition
class BarrierArriveOp(IRDLOperation):
    """Arrive at a named CTA barrier without waiting (`bar.arrive`).

    Example:
        nvvm.barrier.arrive id = %id number_of_threads = %n
    """

    name = "nvvm.barrier.arrive"

    barrierId = opt_operand_def(I32)
    numberOfThreads = operand_def(I32)

    assembly_format = (
        "(`id` `=` $barrierId^)? `number_of_threads` `=` $numberOfThreads attr-dict"
    )

    def __init__(
        self, number_of_threads: SSAValue, barrier_id: SSAValue | None = None
    ) -> None:
        super().__init__(
            operands=[[] if barrier_id is None else [barrier_id], number_of_threads]
        )


@irdl_op_definition
class FenceScClusterOp(IRDLOperation):
    """Sequentially consistent fence at cluster scope (`fence.sc.cluster`).

    Example:
        nvvm.fence.sc.cluster
    """

    name = "nvvm.fence.sc.cluster"

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class FenceMbarrierInitOp(IRDLOperation):
    """Makes prior `nvvm.mbarrier.init`s visible to the cluster
    (`fence.mbarrier_init.release.cluster`).

    Example:
        nvvm.fence.mbarrier.init
    """

    name = "nvvm.fence.mbarrier.init"

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@canonical_properties
@irdl_op_definition
class FenceProxyOp(IRDLOperation):
    """Orders memory accesses made through different proxies (`fence.proxy.<kind>`).

    `async.shared` fences need the shared-memory `space` (`cta` or `cluster`); no other
    kind may have one.

    Example:
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    """

    name = "nvvm.fence.proxy"

    kind = prop_def(ProxyKindAttr)
    space = opt_prop_def(SharedSpaceAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(
        self, kind: ProxyKindAttr, space: SharedSpaceAttr | None = None
    ) -> None:
        super().__init__(properties={"kind": kind, "space": space})

    def verify_(self) -> None:
        kind = self.kind.data
        if kind is ProxyKind.TENSORMAP:
            raise VerifyException("tensormap proxy is not a supported proxy kind")
        if kind is ProxyKind.GENERIC:
            raise VerifyException("generic proxy not a supported proxy kind")
        if kind is ProxyKind.ASYNC_SHARED and self.space is None:
            raise VerifyException("async_shared fence requires space attribute")
        if kind is not ProxyKind.ASYNC_SHARED and self.space is not None:
            raise VerifyException("only async_shared fence can have space attribute")


@irdl_op_definition
class ElectSyncOp(IRDLOperation):
    """Elects one leader thread among `membermask` (default: the whole warp).

    Example:
        %leader = nvvm.elect.sync -> i1
    """

    name = "nvvm.elect.sync"

    membermask = opt_operand_def(I32)
    pred = result_def(I1)

    assembly_format = "($membermask^)? attr-dict `->` type(results)"

    def __init__(self, membermask: SSAValue | None = None) -> None:
        super().__init__(
            operands=[[] if membermask is None else [membermask]],
            result_types=[IntegerType(1)],
        )


@canonical_properties
@irdl_op_definition
class SetMaxRegisterOp(IRDLOperation):
    """Raises or lowers the warpgroup's per-thread register budget (`setmaxnreg`).

    The new count must be a multiple of 8 between 24 and 256.

    Example:
        nvvm.setmaxregister increase 232
    """

    name = "nvvm.setmaxregister"

    regCount = prop_def(IntegerAttr[I32])
    action = prop_def(SetMaxRegisterActionAttr)

    def __init__(self, action: SetMaxRegisterActionAttr, reg_count: int) -> None:
        super().__init__(
            properties={"action": action, "regCount": IntegerAttr(reg_count, i32)}
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        action = SetMaxRegisterActionAttr(parser.parse_str_enum(SetMaxRegisterAction))
        count = parser.parse_integer(allow_boolean=False)
        attributes = parser.parse_optional_attr_dict()
        return cls.create(
            properties={"action": action, "regCount": IntegerAttr(count, i32)},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        # Upstream prints the empty attribute dictionary's space before the action.
        printer.print_string(f"  {self.action.data} {self.regCount.value.data}")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        count = self.regCount.value.data
        if count % 8:
            raise VerifyException("new register size must be multiple of 8")
        if count < 24 or count > 256:
            raise VerifyException("new register size must be in between 24 to 256")


SYNC_OPS = (
    Barrier0Op,
    BarrierOp,
    BarrierArriveOp,
    FenceScClusterOp,
    FenceMbarrierInitOp,
    FenceProxyOp,
    ElectSyncOp,
    SetMaxRegisterOp,
)
