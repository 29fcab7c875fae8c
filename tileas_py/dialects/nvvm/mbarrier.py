"""mbarrier objects: split arrive/wait barriers in shared memory (sm_80, transaction
counts sm_90): `nvvm.mbarrier.init`, `.arrive`, `.arrive.expect_tx`, `.try_wait.parity`,
`.test.wait` and `.inval`.

Each op takes the barrier as a generic pointer (`!llvm.ptr`, which must still point into
shared memory) or as a shared::cta pointer (`!llvm.ptr<3>`); the arrive ops also accept a
shared::cluster pointer (`!llvm.ptr<7>`) to a barrier in another CTA, and then return no
state.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmmbarrierinit-nvvmmbarrierinitop
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-mbarrier
"""

from __future__ import annotations

from xdsl.dialects.builtin import I1, I32, I64, BoolAttr, i1, i64
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    result_def,
)

from tileas_py.diagnostics import PlainVerifyException
from tileas_py.dialects.nvvm.attrs import MemScopeKind, MemScopeKindAttr
from tileas_py.dialects.nvvm.pointers import (
    GENERIC,
    SHARED,
    SHARED_CLUSTER,
    address_space,
    check_pointer_operand,
)
from tileas_py.dialects.nvvm.syntax import canonical_properties

_CTA_SCOPE = MemScopeKindAttr(MemScopeKind.CTA)
_NOT_RELAXED = BoolAttr.from_bool(False)


def _verify_arrive_like(op: Operation, addr: SSAValue, scope: MemScopeKindAttr) -> None:
    """Upstream's shared checks for every arrive-like and wait-like mbarrier op."""
    if scope.data not in (MemScopeKind.CTA, MemScopeKind.CLUSTER):
        raise PlainVerifyException("mbarrier scope must be either CTA or Cluster")
    if address_space(addr.type) == SHARED_CLUSTER and op.results:
        raise PlainVerifyException(
            "mbarrier in shared_cluster space cannot return any value"
        )


@irdl_op_definition
class MBarrierInitOp(IRDLOperation):
    """Initializes the mbarrier at `addr` for `count` expected arrivals, in phase 0.

    Example:
        nvvm.mbarrier.init %bar, %count : !llvm.ptr<3>, i32
    """

    name = "nvvm.mbarrier.init"

    addr = operand_def(LLVMPointerType)
    count = operand_def(I32)
    predicate = opt_operand_def(I1)

    assembly_format = (
        "$addr `,` $count (`,` `predicate` `=` $predicate^)? attr-dict "
        "`:` type(operands)"
    )

    def __init__(
        self, addr: SSAValue, count: SSAValue, predicate: SSAValue | None = None
    ) -> None:
        super().__init__(
            operands=[addr, count, [] if predicate is None else [predicate]]
        )

    def verify_(self) -> None:
        check_pointer_operand(self.addr, 0, (GENERIC, SHARED))


@irdl_op_definition
class MBarrierInvalOp(IRDLOperation):
    """Invalidates the mbarrier at `addr` so its memory can be reused.

    Example:
        nvvm.mbarrier.inval %bar : !llvm.ptr<3>
    """

    name = "nvvm.mbarrier.inval"

    addr = operand_def(LLVMPointerType)

    assembly_format = "$addr attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue) -> None:
        super().__init__(operands=[addr])

    def verify_(self) -> None:
        check_pointer_operand(self.addr, 0, (GENERIC, SHARED))


@canonical_properties
@irdl_op_definition
class MBarrierArriveOp(IRDLOperation):
    """Arrives on the mbarrier (release semantics at `scope`, default `cta`) and returns
    an opaque i64 state of the phase it arrived in; barriers in another CTA of the
    cluster (`!llvm.ptr<7>`) return nothing.

    Example:
        %state = nvvm.mbarrier.arrive %bar : !llvm.ptr<3> -> i64
    """

    name = "nvvm.mbarrier.arrive"

    addr = operand_def(LLVMPointerType)
    relaxed = opt_prop_def(BoolAttr, _NOT_RELAXED)
    scope = opt_prop_def(MemScopeKindAttr, _CTA_SCOPE)
    res = opt_result_def(I64)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$addr attr-dict `:` type($addr) (`->` type($res)^)?"

    def __init__(self, addr: SSAValue, with_state: bool = True) -> None:
        super().__init__(
            operands=[addr],
            properties={"relaxed": _NOT_RELAXED, "scope": _CTA_SCOPE},
            result_types=[[i64] if with_state else []],
        )

    def verify_(self) -> None:
        check_pointer_operand(self.addr, 0, (GENERIC, SHARED, SHARED_CLUSTER))
        _verify_arrive_like(self, self.addr, self.scope)


@canonical_properties
@irdl_op_definition
class MBarrierArriveExpectTxOp(IRDLOperation):
    """Raises the mbarrier's expected transaction count by `txcount` bytes, then arrives.

    Producers issue it before the TMA copies that complete the transactions.

    Example:
        nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
    """

    name = "nvvm.mbarrier.arrive.expect_tx"

    addr = operand_def(LLVMPointerType)
    txcount = operand_def(I32)
    predicate = opt_operand_def(I1)
    relaxed = opt_prop_def(BoolAttr, _NOT_RELAXED)
    scope = opt_prop_def(MemScopeKindAttr, _CTA_SCOPE)
    res = opt_result_def(I64)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$addr `,` $txcount (`,` `predicate` `=` $predicate^)? attr-dict "
        "`:` type(operands) (`->` type($res)^)?"
    )

    def __init__(
        self, addr: SSAValue, txcount: SSAValue, predicate: SSAValue | None = None
    ) -> None:
        super().__init__(
            operands=[addr, txcount, [] if predicate is None else [predicate]],
            properties={"relaxed": _NOT_RELAXED, "scope": _CTA_SCOPE},
            result_types=[[]],
        )

    def verify_(self) -> None:
        check_pointer_operand(self.addr, 0, (GENERIC, SHARED, SHARED_CLUSTER))
        if self.predicate is not None:
            if self.scope.data is not MemScopeKind.CTA:
                raise PlainVerifyException(
                    "mbarrier scope must be CTA when using predicate"
                )
            if address_space(self.addr.type) == SHARED_CLUSTER:
                raise PlainVerifyException(
                    "mbarrier in shared_cluster space is not supported when using "
                    "predicate"
                )
            if self.res is not None:
                raise PlainVerifyException(
                    "return-value is not supported when using predicate"
                )
            if self.relaxed.value.data:
                raise PlainVerifyException(
                    "mbarrier with relaxed semantics is not supported when using "
                    "predicate"
                )
        _verify_arrive_like(self, self.addr, self.scope)


@irdl_op_definition
class MBarrierTryWaitParityOp(IRDLOperation):
    """Blocks until the mbarrier completes the phase of the given parity; `ticks` is a
    suspend-time hint in nanoseconds. Lowers to a `mbarrier.try_wait.parity` retry loop.

    Example:
        nvvm.mbarrier.try_wait.parity %bar, %phase, %ticks : !llvm.ptr<3>, i32, i32
    """

    name = "nvvm.mbarrier.try_wait.parity"

    addr = operand_def(LLVMPointerType)
    phase = operand_def(I32)
    ticks = operand_def(I32)

    assembly_format = "$addr `,` $phase `,` $ticks attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue, phase: SSAValue, ticks: SSAValue) -> None:
        super().__init__(operands=[addr, phase, ticks])


@canonical_properties
@irdl_op_definition
class MBarrierTestWaitOp(IRDLOperation):
    """Tests, without blocking, whether the phase that `state` came from has completed.

    Example:
        %done = nvvm.mbarrier.test.wait %bar, %state : !llvm.ptr<3>, i64 -> i1
    """

    name = "nvvm.mbarrier.test.wait"

    addr = operand_def(LLVMPointerType)
    state = operand_def(I64)
    relaxed = opt_prop_def(BoolAttr, _NOT_RELAXED)
    scope = opt_prop_def(MemScopeKindAttr, _CTA_SCOPE)
    res = result_def(I1)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$addr `,` $state attr-dict `:` type(operands) `->` type($res)"

    def __init__(self, addr: SSAValue, state: SSAValue) -> None:
        super().__init__(
            operands=[addr, state],
            properties={"relaxed": _NOT_RELAXED, "scope": _CTA_SCOPE},
            result_types=[i1],
        )

    def verify_(self) -> None:
        check_pointer_operand(self.addr, 0, (GENERIC, SHARED))
        _verify_arrive_like(self, self.addr, self.scope)


MBARRIER_OPS = (
    MBarrierInitOp,
    MBarrierInvalOp,
    MBarrierArriveOp,
    MBarrierArriveExpectTxOp,
    MBarrierTryWaitParityOp,
    MBarrierTestWaitOp,
)
