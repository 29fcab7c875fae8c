"""mbarrier objects: split arrive/wait barriers in shared memory (sm_80, transaction
counts sm_90): `nvvm.mbarrier.init`, `.inval`, the arrive ops (`.arrive`, `.arrive_drop`,
their `.nocomplete` and `.expect_tx` forms), `.expect_tx`, `.complete_tx`, and the waits
(`.test.wait`, `.try_wait`, `.try_wait.parity`).

Each op takes the barrier as a generic pointer (`!llvm.ptr`, which must still point into
shared memory) or as a shared::cta pointer (`!llvm.ptr<3>`); the arrive and transaction
ops also accept a shared::cluster pointer (`!llvm.ptr<7>`) to a barrier in another CTA,
and then return no state. The waits take the state an arrive returned (i64) or a phase
parity (i32).

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmmbarrierinit-nvvmmbarrierinitop
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-mbarrier
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, i1, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_result_def,
    prop_def,
    result_def,
)

from tileas_py.diagnostics import PlainVerifyException
from tileas_py.dialects.nvvm.attrs import MemScopeKind, MemScopeKindAttr
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import (
    BOOL_ATTR,
    I1,
    I32,
    I64,
    PTX_PREDICATE,
    any_of,
    of_class,
    ptr,
)
from tileas_py.dialects.nvvm.pointers import SHARED_CLUSTER, address_space

_CTA_SCOPE = MemScopeKindAttr(MemScopeKind.CTA)
_NOT_RELAXED = BoolAttr.from_bool(False)
_SCOPE = of_class(MemScopeKindAttr, MemScopeKindAttr.SUMMARY)

_GENERIC_OR_SHARED = any_of(ptr(0), ptr(3))
_ANY_BARRIER = any_of(ptr(0), ptr(3), ptr(7))
_SHARED_OR_CLUSTER = any_of(ptr(3), ptr(7))
_STATE_OR_PHASE = any_of(I64, I32)


def _scope(scope: MemScopeKind) -> MemScopeKindAttr:
    return _CTA_SCOPE if scope is MemScopeKind.CTA else MemScopeKindAttr(scope)


def _verify_arrive_like(
    op: Operation, addr: SSAValue, scope: MemScopeKindAttr, returns: bool
) -> None:
    """Upstream's shared checks of the arrive-like and wait-like mbarrier ops."""
    del op
    if scope.data not in (MemScopeKind.CTA, MemScopeKind.CLUSTER):
        raise PlainVerifyException("mbarrier scope must be either CTA or Cluster")
    if address_space(addr.type) == SHARED_CLUSTER and returns:
        raise PlainVerifyException(
            "mbarrier in shared_cluster space cannot return any value"
        )


def _state_properties(relaxed: bool, scope: MemScopeKind) -> dict[str, Attribute]:
    return {"relaxed": BoolAttr.from_bool(relaxed), "scope": _scope(scope)}


@irdl_op_definition
class MBarrierInitOp(NVVMOp):
    """Initializes the mbarrier at `addr` for `count` expected arrivals, in phase 0.

    Example:
        nvvm.mbarrier.init %bar, %count : !llvm.ptr<3>, i32
    """

    name = "nvvm.mbarrier.init"

    addr = operand_def(_GENERIC_OR_SHARED)
    count = operand_def(I32)
    predicate = opt_operand_def(PTX_PREDICATE)

    FORMAT: ClassVar[str] = (
        "$addr `,` $count (`,` `predicate` `=` $predicate^)? attr-dict "
        "`:` type(operands)"
    )

    def __init__(
        self, addr: SSAValue, count: SSAValue, predicate: SSAValue | None = None
    ) -> None:
        super().__init__(
            operands=[addr, count, [] if predicate is None else [predicate]]
        )


@irdl_op_definition
class MBarrierInvalOp(NVVMOp):
    """Invalidates the mbarrier at `addr` so its memory can be reused.

    Example:
        nvvm.mbarrier.inval %bar : !llvm.ptr<3>
    """

    name = "nvvm.mbarrier.inval"

    addr = operand_def(_GENERIC_OR_SHARED)

    FORMAT: ClassVar[str] = "$addr attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue) -> None:
        super().__init__(operands=[addr])


class _ArriveBase(NVVMOp):
    """`mbarrier.arrive` / `mbarrier.arrive_drop`: an optional arrival `count`."""

    addr = operand_def(_ANY_BARRIER)
    count = opt_operand_def(I32)
    relaxed = prop_def(BOOL_ATTR, default_value=_NOT_RELAXED)
    scope = prop_def(_SCOPE, default_value=_CTA_SCOPE)
    res = opt_result_def(I64)

    FORMAT: ClassVar[str] = (
        "$addr (`,` $count^)? attr-dict `:` type($addr) (`->` type($res)^)?"
    )

    def __init__(
        self,
        addr: SSAValue,
        with_state: bool = True,
        *,
        count: SSAValue | None = None,
        relaxed: bool = False,
        scope: MemScopeKind = MemScopeKind.CTA,
    ) -> None:
        super().__init__(
            operands=[addr, [] if count is None else [count]],
            properties=_state_properties(relaxed, scope),
            result_types=[[i64] if with_state else []],
        )

    def verify_(self) -> None:
        _verify_arrive_like(self, self.addr, self.scope, self.res is not None)


@irdl_op_definition
class MBarrierArriveOp(_ArriveBase):
    """Arrives on the mbarrier (`count` times, default 1; release semantics at `scope`,
    default `cta`) and returns an opaque i64 state of the phase it arrived in; barriers
    in another CTA of the cluster (`!llvm.ptr<7>`) return nothing.

    Example:
        %state = nvvm.mbarrier.arrive %bar : !llvm.ptr<3> -> i64
    """

    name = "nvvm.mbarrier.arrive"


@irdl_op_definition
class MBarrierArriveDropOp(_ArriveBase):
    """Arrives on the mbarrier and drops the arrivals from the count expected in later
    phases (`mbarrier.arrive_drop`).

    Example:
        %state = nvvm.mbarrier.arrive_drop %bar : !llvm.ptr<3> -> i64
    """

    name = "nvvm.mbarrier.arrive_drop"


class _NoCompleteBase(NVVMOp):
    addr = operand_def(_GENERIC_OR_SHARED)
    count = operand_def(I32)
    res = result_def(I64)

    FORMAT: ClassVar[str] = (
        "$addr `,` $count attr-dict `:` type(operands) `->` type($res)"
    )

    def __init__(self, addr: SSAValue, count: SSAValue) -> None:
        super().__init__(operands=[addr, count], result_types=[i64])


@irdl_op_definition
class MBarrierArriveNocompleteOp(_NoCompleteBase):
    """Arrives `count` times without completing the phase (`.noComplete`).

    Example:
        %state = nvvm.mbarrier.arrive.nocomplete %bar, %n : !llvm.ptr<3>, i32 -> i64
    """

    name = "nvvm.mbarrier.arrive.nocomplete"


@irdl_op_definition
class MBarrierArriveDropNocompleteOp(_NoCompleteBase):
    """`mbarrier.arrive_drop.noComplete`: drops `count` arrivals without completing the
    phase.

    Example:
        %state = nvvm.mbarrier.arrive_drop.nocomplete %bar, %n : !llvm.ptr<3>, i32 -> i64
    """

    name = "nvvm.mbarrier.arrive_drop.nocomplete"


@irdl_op_definition
class MBarrierArriveExpectTxOp(NVVMOp):
    """Raises the mbarrier's expected transaction count by `txcount` bytes, then arrives.

    Producers issue it before the TMA copies that complete the transactions.

    Example:
        nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
    """

    name = "nvvm.mbarrier.arrive.expect_tx"

    addr = operand_def(_ANY_BARRIER)
    txcount = operand_def(I32)
    predicate = opt_operand_def(PTX_PREDICATE)
    relaxed = prop_def(BOOL_ATTR, default_value=_NOT_RELAXED)
    scope = prop_def(_SCOPE, default_value=_CTA_SCOPE)
    res = opt_result_def(I64)

    FORMAT: ClassVar[str] = (
        "$addr `,` $txcount (`,` `predicate` `=` $predicate^)? attr-dict "
        "`:` type(operands) (`->` type($res)^)?"
    )

    def __init__(
        self,
        addr: SSAValue,
        txcount: SSAValue,
        predicate: SSAValue | None = None,
        *,
        with_state: bool = False,
        relaxed: bool = False,
        scope: MemScopeKind = MemScopeKind.CTA,
    ) -> None:
        super().__init__(
            operands=[addr, txcount, [] if predicate is None else [predicate]],
            properties=_state_properties(relaxed, scope),
            result_types=[[i64] if with_state else []],
        )

    def verify_(self) -> None:
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
        _verify_arrive_like(self, self.addr, self.scope, self.res is not None)


@irdl_op_definition
class MBarrierArriveDropExpectTxOp(NVVMOp):
    """Raises the expected transaction count by `txcount` bytes, then arrives and drops
    the arrival from later phases (`mbarrier.arrive_drop.expect_tx`).

    Example:
        %state = nvvm.mbarrier.arrive_drop.expect_tx %bar, %bytes : !llvm.ptr<3>, i32 -> i64
    """

    name = "nvvm.mbarrier.arrive_drop.expect_tx"

    addr = operand_def(_ANY_BARRIER)
    txcount = operand_def(I32)
    relaxed = prop_def(BOOL_ATTR, default_value=_NOT_RELAXED)
    scope = prop_def(_SCOPE, default_value=_CTA_SCOPE)
    res = opt_result_def(I64)

    FORMAT: ClassVar[str] = (
        "$addr `,` $txcount attr-dict `:` type(operands) (`->` type($res)^)?"
    )

    def __init__(
        self,
        addr: SSAValue,
        txcount: SSAValue,
        *,
        with_state: bool = True,
        relaxed: bool = False,
        scope: MemScopeKind = MemScopeKind.CTA,
    ) -> None:
        super().__init__(
            operands=[addr, txcount],
            properties=_state_properties(relaxed, scope),
            result_types=[[i64] if with_state else []],
        )

    def verify_(self) -> None:
        _verify_arrive_like(self, self.addr, self.scope, self.res is not None)


class _TxBase(NVVMOp):
    addr = operand_def(_SHARED_OR_CLUSTER)
    txcount = operand_def(I32)
    scope = prop_def(_SCOPE, default_value=_CTA_SCOPE)

    FORMAT: ClassVar[str] = "$addr `,` $txcount attr-dict `:` type(operands)"

    def __init__(
        self, addr: SSAValue, txcount: SSAValue, scope: MemScopeKind = MemScopeKind.CTA
    ) -> None:
        super().__init__(operands=[addr, txcount], properties={"scope": _scope(scope)})

    def verify_(self) -> None:
        _verify_arrive_like(self, self.addr, self.scope, False)


@irdl_op_definition
class MBarrierExpectTxOp(_TxBase):
    """Raises the mbarrier's expected transaction count by `txcount` bytes, without
    arriving (`mbarrier.expect_tx`).

    Example:
        nvvm.mbarrier.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
    """

    name = "nvvm.mbarrier.expect_tx"


@irdl_op_definition
class MBarrierCompleteTxOp(_TxBase):
    """Completes `txcount` bytes of the mbarrier's pending transactions
    (`mbarrier.complete_tx`).

    Example:
        nvvm.mbarrier.complete_tx %bar, %bytes : !llvm.ptr<3>, i32
    """

    name = "nvvm.mbarrier.complete_tx"


@irdl_op_definition
class MBarrierTryWaitParityOp(NVVMOp):
    """Blocks until the mbarrier completes the phase of the given parity; `ticks` is a
    suspend-time hint in nanoseconds. Lowers to a `mbarrier.try_wait.parity` retry loop.

    Example:
        nvvm.mbarrier.try_wait.parity %bar, %phase, %ticks : !llvm.ptr<3>, i32, i32
    """

    name = "nvvm.mbarrier.try_wait.parity"

    addr = operand_def(_GENERIC_OR_SHARED)
    phase = operand_def(I32)
    ticks = operand_def(I32)

    FORMAT: ClassVar[str] = "$addr `,` $phase `,` $ticks attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue, phase: SSAValue, ticks: SSAValue) -> None:
        super().__init__(operands=[addr, phase, ticks])


@irdl_op_definition
class MBarrierTryWaitOp(NVVMOp):
    """Tests, waiting up to a hardware time limit (or `ticks` nanoseconds), whether the
    phase of `stateOrPhase` (an i64 state from an arrive, or an i32 parity) completed.

    Example:
        %done = nvvm.mbarrier.try_wait %bar, %state : !llvm.ptr<3>, i64 -> i1
    """

    name = "nvvm.mbarrier.try_wait"

    addr = operand_def(_GENERIC_OR_SHARED)
    stateOrPhase = operand_def(_STATE_OR_PHASE)
    ticks = opt_operand_def(I32)
    relaxed = prop_def(BOOL_ATTR, default_value=_NOT_RELAXED)
    scope = prop_def(_SCOPE, default_value=_CTA_SCOPE)
    res = result_def(I1)

    FORMAT: ClassVar[str] = (
        "$addr `,` $stateOrPhase (`,` $ticks^)? attr-dict `:` type(operands) "
        "`->` type($res)"
    )

    def __init__(
        self,
        addr: SSAValue,
        state_or_phase: SSAValue,
        ticks: SSAValue | None = None,
        *,
        relaxed: bool = False,
        scope: MemScopeKind = MemScopeKind.CTA,
    ) -> None:
        super().__init__(
            operands=[addr, state_or_phase, [] if ticks is None else [ticks]],
            properties=_state_properties(relaxed, scope),
            result_types=[i1],
        )

    def verify_(self) -> None:
        _verify_arrive_like(self, self.addr, self.scope, False)


@irdl_op_definition
class MBarrierTestWaitOp(NVVMOp):
    """Tests, without blocking, whether the phase of `stateOrPhase` (an i64 state from
    an arrive, or an i32 parity) has completed.

    Example:
        %done = nvvm.mbarrier.test.wait %bar, %state : !llvm.ptr<3>, i64 -> i1
    """

    name = "nvvm.mbarrier.test.wait"

    addr = operand_def(_GENERIC_OR_SHARED)
    stateOrPhase = operand_def(_STATE_OR_PHASE)
    relaxed = prop_def(BOOL_ATTR, default_value=_NOT_RELAXED)
    scope = prop_def(_SCOPE, default_value=_CTA_SCOPE)
    res = result_def(I1)

    FORMAT: ClassVar[str] = (
        "$addr `,` $stateOrPhase attr-dict `:` type(operands) `->` type($res)"
    )

    def __init__(
        self,
        addr: SSAValue,
        state_or_phase: SSAValue,
        *,
        relaxed: bool = False,
        scope: MemScopeKind = MemScopeKind.CTA,
    ) -> None:
        super().__init__(
            operands=[addr, state_or_phase],
            properties=_state_properties(relaxed, scope),
            result_types=[i1],
        )

    def verify_(self) -> None:
        _verify_arrive_like(self, self.addr, self.scope, False)


MBARRIER_OPS = (
    MBarrierInitOp,
    MBarrierInvalOp,
    MBarrierArriveOp,
    MBarrierArriveDropOp,
    MBarrierArriveNocompleteOp,
    MBarrierArriveDropNocompleteOp,
    MBarrierArriveExpectTxOp,
    MBarrierArriveDropExpectTxOp,
    MBarrierExpectTxOp,
    MBarrierCompleteTxOp,
    MBarrierTryWaitParityOp,
    MBarrierTryWaitOp,
    MBarrierTestWaitOp,
)
