"""Barriers, fences and warp-level synchronization: `nvvm.barrier0`, `nvvm.barrier`,
`nvvm.barrier.arrive`, the fences (`nvvm.fence.sc.cluster`, `.mbarrier.init`, `.proxy`,
`.proxy.acquire`, `.proxy.release`, `.proxy.sync_restrict`, `.sync_restrict`),
`nvvm.elect.sync` and `nvvm.setmaxregister`.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType, i32
from xdsl.ir import SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.nvvm.attrs import (
    BarrierReductionAttr,
    MemOrderKind,
    MemOrderKindAttr,
    MemScopeKindAttr,
    ProxyKind,
    ProxyKindAttr,
    SetMaxRegisterActionAttr,
    SharedSpaceAttr,
)
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import I1, I32, I32_ATTR, Ods, of_class, ptr

_PROXY = of_class(ProxyKindAttr, ProxyKindAttr.SUMMARY)
_GENERIC_PROXY = ProxyKindAttr(ProxyKind.GENERIC)
_TENSORMAP_PROXY = ProxyKindAttr(ProxyKind.TENSORMAP)
_ASYNC_PROXY = ProxyKindAttr(ProxyKind.ASYNC)
_SCOPE = of_class(MemScopeKindAttr, MemScopeKindAttr.SUMMARY)
_ORDER = of_class(MemOrderKindAttr, MemOrderKindAttr.SUMMARY)


def _is_reduction(attr: object) -> bool:
    return isinstance(attr, BarrierReductionAttr)


# The format shows the reduction as a whole attribute (`#nvvm.reduction<and>`).
_REDUCTION = Ods[BarrierReductionAttr](
    BarrierReductionAttr.SUMMARY, _is_reduction, storage=_is_reduction
)


@irdl_op_definition
class Barrier0Op(NVVMOp):
    """CTA-wide barrier on barrier 0 (`bar.sync 0`).

    Equivalent to `nvvm.barrier` without operands.

    Example:
        nvvm.barrier0
    """

    name = "nvvm.barrier0"

    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class BarrierOp(NVVMOp):
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
    reductionOp = opt_prop_def(_REDUCTION)
    res = opt_result_def(I32)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    FORMAT: ClassVar[str] = (
        "(`id` `=` $barrierId^)? (`number_of_threads` `=` $numberOfThreads^)? "
        "($reductionOp^ $reductionPredicate)? (`->` type($res)^)? attr-dict"
    )

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


@irdl_op_definition
class BarrierArriveOp(NVVMOp):
    """Arrive at a named CTA barrier without waiting (`bar.arrive`).

    Example:
        nvvm.barrier.arrive id = %id number_of_threads = %n
    """

    name = "nvvm.barrier.arrive"

    barrierId = opt_operand_def(I32)
    numberOfThreads = operand_def(I32)

    FORMAT: ClassVar[str] = (
        "(`id` `=` $barrierId^)? `number_of_threads` `=` $numberOfThreads attr-dict"
    )

    def __init__(
        self, number_of_threads: SSAValue, barrier_id: SSAValue | None = None
    ) -> None:
        super().__init__(
            operands=[[] if barrier_id is None else [barrier_id], number_of_threads]
        )


@irdl_op_definition
class FenceScClusterOp(NVVMOp):
    """Sequentially consistent fence at cluster scope (`fence.sc.cluster`).

    Example:
        nvvm.fence.sc.cluster
    """

    name = "nvvm.fence.sc.cluster"

    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class FenceMbarrierInitOp(NVVMOp):
    """Makes prior `nvvm.mbarrier.init`s visible to the cluster
    (`fence.mbarrier_init.release.cluster`).

    Example:
        nvvm.fence.mbarrier.init
    """

    name = "nvvm.fence.mbarrier.init"

    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class FenceProxyOp(NVVMOp):
    """Orders memory accesses made through different proxies (`fence.proxy.<kind>`).

    `async.shared` fences need the shared-memory `space` (`cta` or `cluster`); no other
    kind may have one.

    Example:
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    """

    name = "nvvm.fence.proxy"

    kind = prop_def(_PROXY)
    space = opt_prop_def(of_class(SharedSpaceAttr, SharedSpaceAttr.SUMMARY))

    FORMAT: ClassVar[str] = "attr-dict"

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


def _verify_uni_directional(from_proxy: ProxyKindAttr, to_proxy: ProxyKindAttr) -> None:
    if from_proxy.data is not ProxyKind.GENERIC:
        raise VerifyException(
            "uni-directional proxies only support generic for from_proxy attribute"
        )
    if to_proxy.data is not ProxyKind.TENSORMAP:
        raise VerifyException(
            "uni-directional proxies only support tensormap for to_proxy attribute"
        )


@irdl_op_definition
class FenceProxyAcquireOp(NVVMOp):
    """Acquire side of a uni-directional proxy fence (`fence.proxy.tensormap::generic.
    acquire`): orders the `size` bytes at `addr` written through the generic proxy before
    later tensormap-proxy reads.

    Example:
        nvvm.fence.proxy.acquire <gpu> %tmap, %c128
    """

    name = "nvvm.fence.proxy.acquire"

    scope = prop_def(_SCOPE)
    addr = operand_def(ptr(0))
    size = operand_def(I32)
    fromProxy = prop_def(_PROXY, default_value=_GENERIC_PROXY)
    toProxy = prop_def(_PROXY, default_value=_TENSORMAP_PROXY)

    FORMAT: ClassVar[str] = (
        "$scope $addr `,` $size (`from_proxy` `=` $fromProxy^)? "
        "(`to_proxy` `=` $toProxy^)? attr-dict"
    )

    def __init__(self, scope: MemScopeKindAttr, addr: SSAValue, size: SSAValue) -> None:
        super().__init__(operands=[addr, size], properties={"scope": scope})

    def verify_(self) -> None:
        _verify_uni_directional(self.fromProxy, self.toProxy)


@irdl_op_definition
class FenceProxyReleaseOp(NVVMOp):
    """Release side of a uni-directional proxy fence (`fence.proxy.tensormap::generic.
    release`).

    Example:
        nvvm.fence.proxy.release <cta>
    """

    name = "nvvm.fence.proxy.release"

    scope = prop_def(_SCOPE)
    fromProxy = prop_def(_PROXY, default_value=_GENERIC_PROXY)
    toProxy = prop_def(_PROXY, default_value=_TENSORMAP_PROXY)

    FORMAT: ClassVar[str] = (
        "$scope (`from_proxy` `=` $fromProxy^)? (`to_proxy` `=` $toProxy^)? attr-dict"
    )

    def __init__(self, scope: MemScopeKindAttr) -> None:
        super().__init__(properties={"scope": scope})

    def verify_(self) -> None:
        _verify_uni_directional(self.fromProxy, self.toProxy)


def _verify_acquire_or_release(order: MemOrderKindAttr) -> None:
    if order.data not in (MemOrderKind.ACQUIRE, MemOrderKind.RELEASE):
        raise VerifyException("only acquire and release semantics are supported")


@irdl_op_definition
class FenceProxySyncRestrictOp(NVVMOp):
    """Orders generic-proxy accesses restricted to shared::cta (`release`) or
    shared::cluster (`acquire`) with the async proxy (`fence.proxy.async::generic.<order>.
    sync_restrict`).

    Example:
        nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<release>}
    """

    name = "nvvm.fence.proxy.sync_restrict"

    order = prop_def(_ORDER)
    fromProxy = prop_def(_PROXY, default_value=_GENERIC_PROXY)
    toProxy = prop_def(_PROXY, default_value=_ASYNC_PROXY)

    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self, order: MemOrderKind) -> None:
        super().__init__(properties={"order": MemOrderKindAttr(order)})

    def verify_(self) -> None:
        _verify_acquire_or_release(self.order)
        if self.toProxy.data is not ProxyKind.ASYNC:
            raise VerifyException("only async is supported for to_proxy attribute")
        if self.fromProxy.data is not ProxyKind.GENERIC:
            raise VerifyException("only generic is support for from_proxy attribute")


@irdl_op_definition
class FenceSyncRestrictOp(NVVMOp):
    """A fence restricted to shared::cta (`release`) or shared::cluster (`acquire`)
    accesses (`fence.<order>.sync_restrict`).

    Example:
        nvvm.fence.sync_restrict {order = #nvvm.mem_order<acquire>}
    """

    name = "nvvm.fence.sync_restrict"

    order = prop_def(_ORDER)

    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self, order: MemOrderKind) -> None:
        super().__init__(properties={"order": MemOrderKindAttr(order)})

    def verify_(self) -> None:
        _verify_acquire_or_release(self.order)


@irdl_op_definition
class ElectSyncOp(NVVMOp):
    """Elects one leader thread among `membermask` (default: the whole warp).

    Example:
        %leader = nvvm.elect.sync -> i1
    """

    name = "nvvm.elect.sync"

    membermask = opt_operand_def(I32)
    pred = result_def(I1)

    FORMAT: ClassVar[str] = "($membermask^)? attr-dict `->` type(results)"

    def __init__(self, membermask: SSAValue | None = None) -> None:
        super().__init__(
            operands=[[] if membermask is None else [membermask]],
            result_types=[IntegerType(1)],
        )


@irdl_op_definition
class SetMaxRegisterOp(NVVMOp):
    """Raises or lowers the warpgroup's per-thread register budget (`setmaxnreg`).

    The new count must be a multiple of 8 between 24 and 256.

    Example:
        nvvm.setmaxregister increase 232
    """

    name = "nvvm.setmaxregister"

    regCount = prop_def(I32_ATTR)
    action = prop_def(
        of_class(SetMaxRegisterActionAttr, SetMaxRegisterActionAttr.SUMMARY)
    )

    FORMAT: ClassVar[str] = "$action $regCount attr-dict"

    def __init__(self, action: SetMaxRegisterActionAttr, reg_count: int) -> None:
        super().__init__(
            properties={"action": action, "regCount": IntegerAttr(reg_count, i32)}
        )

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
    FenceProxyAcquireOp,
    FenceProxyReleaseOp,
    FenceProxySyncRestrictOp,
    FenceSyncRestrictOp,
    ElectSyncOp,
    SetMaxRegisterOp,
)
