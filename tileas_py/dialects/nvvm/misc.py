"""Miscellaneous `nvvm` ops: debugging and thread control (`breakpoint`, `exit`,
`nanosleep`, `pmevent`), grid-dependency control, inline PTX, `rcp.approx.ftz.f`, memory
barriers, bulk stores, prefetches and cluster launch control.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#miscellaneous-instructions
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, StringAttr, UnitAttr, i16, i32, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.nvvm.attrs import (
    CacheEvictionPriority,
    CacheEvictionPriorityAttr,
    ClusterLaunchControlQueryType,
    ClusterLaunchControlQueryTypeAttr,
    GridDepActionAttr,
    MemScopeKindAttr,
    PrefetchCacheLevel,
    PrefetchCacheLevelAttr,
)
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import (
    ANY_TYPE,
    F32,
    I1,
    I16_ATTR,
    I32,
    I32_ATTR,
    I64,
    I64_ATTR,
    I128,
    PTX_PREDICATE,
    STR_ATTR,
    UNIT_ATTR,
    address_space_of,
    any_of,
    int_value,
    of_class,
    ptr,
)
from tileas_py.dialects.nvvm.pointers import CONSTANT, GENERIC, GLOBAL, LOCAL
from tileas_py.dialects.nvvm.target import RequiresSM


@irdl_op_definition
class BreakpointOp(NVVMOp):
    """Suspends the thread for a debugger (`brkpt`).

    Example:
        nvvm.breakpoint
    """

    name = "nvvm.breakpoint"
    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class ExitOp(NVVMOp):
    """Ends the thread (`exit`).

    Example:
        nvvm.exit
    """

    name = "nvvm.exit"
    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class NanosleepOp(NVVMOp):
    """Suspends the thread for about `duration` nanoseconds (`nanosleep.u32`).

    Example:
        nvvm.nanosleep %ns
    """

    name = "nvvm.nanosleep"

    duration = operand_def(I32)

    FORMAT: ClassVar[str] = "attr-dict $duration"

    def __init__(self, duration: SSAValue) -> None:
        super().__init__(operands=[duration])


@irdl_op_definition
class PMEventOp(NVVMOp):
    """Triggers a performance-monitor event by index (`id`, 0..15) or by mask (`pmevent`).

    Example:
        nvvm.pmevent id = 3
    """

    name = "nvvm.pmevent"

    maskedEventId = opt_prop_def(I16_ATTR)
    eventId = opt_prop_def(I32_ATTR)

    FORMAT: ClassVar[str] = (
        "attr-dict (`id` `=` $eventId^)? (`mask` `=` $maskedEventId^)?"
    )

    def __init__(self, event_id: int | None = None, mask: int | None = None) -> None:
        super().__init__(
            properties={
                "eventId": None if event_id is None else IntegerAttr(event_id, i32),
                "maskedEventId": None if mask is None else IntegerAttr(mask, i16),
            }
        )

    def verify_(self) -> None:
        if self.eventId is None and self.maskedEventId is None:
            raise VerifyException("either `id` or `mask` must be set")
        if self.eventId is not None and self.maskedEventId is not None:
            raise VerifyException("`id` and `mask` cannot be set at the same time")
        if self.eventId is not None and not 0 <= int_value(self.eventId) <= 15:
            raise VerifyException("`id` must be between 0 and 15")


@irdl_op_definition
class RcpApproxFtzF32Op(NVVMOp):
    """Approximate reciprocal with flush-to-zero (`rcp.approx.ftz.f32`).

    Example:
        %r = nvvm.rcp.approx.ftz.f %x : f32
    """

    name = "nvvm.rcp.approx.ftz.f"

    arg = operand_def(F32)
    res = result_def(F32)

    traits = traits_def(Pure())

    FORMAT: ClassVar[str] = "$arg attr-dict `:` type($res)"

    def __init__(self, arg: SSAValue) -> None:
        super().__init__(operands=[arg], result_types=[arg.type])


@irdl_op_definition
class GriddepcontrolOp(NVVMOp):
    """Waits for prerequisite grids, or lets dependent grids launch (`griddepcontrol`).

    Example:
        nvvm.griddepcontrol wait
    """

    name = "nvvm.griddepcontrol"

    kind = prop_def(of_class(GridDepActionAttr, GridDepActionAttr.SUMMARY))

    FORMAT: ClassVar[str] = "$kind attr-dict"

    def __init__(self, kind: GridDepActionAttr) -> None:
        super().__init__(properties={"kind": kind})


@irdl_op_definition
class InlinePtxOp(NVVMOp):
    """PTX written inline, with its read-only, read-write and write-only operands
    numbered `$0`, `$1`... in that order.

    Example:
        %r = nvvm.inline_ptx "mov.b32 $0, $1;" ro(%x : i32) -> i32
    """

    name = "nvvm.inline_ptx"

    readOnlyArgs = var_operand_def(ANY_TYPE)
    readWriteArgs = var_operand_def(ANY_TYPE)
    predicate = opt_operand_def(PTX_PREDICATE)
    ptxCode = prop_def(STR_ATTR)
    writeOnlyArgs = var_result_def(ANY_TYPE)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    FORMAT: ClassVar[str] = (
        "$ptxCode ( `ro` `(` $readOnlyArgs^ `:` type($readOnlyArgs) `)` )? "
        "( `rw` `(` $readWriteArgs^ `:` type($readWriteArgs) `)` )? "
        "(`,` `predicate` `=` $predicate^)? attr-dict ( `->` type($writeOnlyArgs)^ )?"
    )

    def __init__(
        self,
        ptx: str,
        read_only: list[SSAValue],
        read_write: list[SSAValue] | None = None,
        write_only: list[Attribute] | None = None,
        predicate: SSAValue | None = None,
    ) -> None:
        super().__init__(
            operands=[
                read_only,
                read_write or [],
                [] if predicate is None else [predicate],
            ],
            result_types=[write_only or []],
            properties={"ptxCode": StringAttr(ptx)},
        )


@irdl_op_definition
class MembarOp(NVVMOp):
    """Orders the thread's prior memory accesses at `scope` (`membar` / `fence.sc`).

    Example:
        nvvm.memory.barrier #nvvm.mem_scope<gpu>
    """

    name = "nvvm.memory.barrier"

    scope = prop_def(of_class(MemScopeKindAttr, MemScopeKindAttr.SUMMARY))

    FORMAT: ClassVar[str] = "$scope attr-dict"

    def __init__(self, scope: MemScopeKindAttr) -> None:
        super().__init__(properties={"scope": scope})


@irdl_op_definition
class BulkStoreOp(NVVMOp):
    """Fills `size` bytes of shared memory at `addr` with `initVal` (0) (`st.bulk`).

    Example:
        nvvm.st.bulk %addr, size = %size : !llvm.ptr<3>
    """

    name = "nvvm.st.bulk"

    addr = operand_def(any_of(ptr(GENERIC), ptr(3)))
    size = operand_def(I64)
    initVal = prop_def(I64_ATTR, default_value=IntegerAttr(0, i64))

    FORMAT: ClassVar[str] = (
        "$addr `,` `size` `=` $size (`,` `init` `=` $initVal^)? attr-dict `:` type($addr)"
    )

    def __init__(self, addr: SSAValue, size: SSAValue) -> None:
        super().__init__(operands=[addr, size])

    def verify_(self) -> None:
        value = int_value(self.initVal)
        if value != 0:
            raise VerifyException(f"only 0 is supported for initVal, got {value}")


@irdl_op_definition
class PrefetchOp(NVVMOp):
    """Brings the cache line of `addr` into a cache level, or a tensormap into the
    constant cache (`prefetch`, `prefetchu`, `prefetch.tensormap`).

    Example:
        nvvm.prefetch level = L2, evict_priority = evict_last, %p : !llvm.ptr<1>
    """

    name = "nvvm.prefetch"

    cacheLevel = opt_prop_def(
        of_class(PrefetchCacheLevelAttr, PrefetchCacheLevelAttr.SUMMARY)
    )
    evictPriority = opt_prop_def(
        of_class(CacheEvictionPriorityAttr, CacheEvictionPriorityAttr.SUMMARY)
    )
    addr = operand_def(any_of(ptr(GLOBAL), ptr(LOCAL), ptr(GENERIC), ptr(CONSTANT)))
    predicate = opt_operand_def(PTX_PREDICATE)
    tensormap = opt_prop_def(UNIT_ATTR)
    uniform = opt_prop_def(UNIT_ATTR)
    in_param_space = opt_prop_def(UNIT_ATTR)

    FORMAT: ClassVar[str] = (
        "(`level` `=` $cacheLevel^ (`uniform` $uniform^)? `,`)? "
        "(`tensormap` $tensormap^ (`in_param_space` $in_param_space^)? `,`)? "
        "(`evict_priority` `=` $evictPriority^ `,`)? $addr "
        "(`,` `predicate` `=` $predicate^)? attr-dict `:` type(operands)"
    )

    def __init__(
        self,
        addr: SSAValue,
        level: PrefetchCacheLevel | None = None,
        tensormap: bool = False,
    ) -> None:
        super().__init__(
            operands=[addr, []],
            properties={
                "cacheLevel": None if level is None else PrefetchCacheLevelAttr(level),
                "tensormap": UnitAttr() if tensormap else None,
            },
        )

    def verify_(self) -> None:
        space = address_space_of(self.addr.type)
        evict = self.evictPriority
        level = self.cacheLevel
        if self.tensormap is not None and level is not None:
            raise VerifyException("cannot specify both tensormap and cache level")
        if self.tensormap is not None:
            if space not in (GENERIC, CONSTANT):
                raise VerifyException(
                    "prefetch tensormap requires a generic or constant pointer"
                )
            if evict is not None:
                raise VerifyException(
                    "prefetch tensormap does not support eviction priority"
                )
            if self.in_param_space is not None and space != GENERIC:
                raise VerifyException(
                    "in_param_space can only be specified for a generic pointer"
                )
        elif level is not None:
            if space not in (GENERIC, GLOBAL, LOCAL):
                raise VerifyException(
                    "prefetch to cache level requires a generic, global, or local pointer"
                )
            if self.uniform is not None:
                if level.data is not PrefetchCacheLevel.L1:
                    raise VerifyException(
                        "unsupported cache level, the only supported uniform cache "
                        "level is L1"
                    )
                if space != GENERIC:
                    raise VerifyException(
                        "prefetch to uniform cache requires a generic pointer"
                    )
            if evict is not None:
                if level.data is not PrefetchCacheLevel.L2:
                    raise VerifyException(
                        "cache eviction priority supported only for cache level L2"
                    )
                if space != GLOBAL:
                    raise VerifyException(
                        "cache eviction priority requires a global pointer"
                    )
                if evict.data not in (
                    CacheEvictionPriority.EVICT_NORMAL,
                    CacheEvictionPriority.EVICT_LAST,
                ):
                    raise VerifyException(
                        "unsupported cache eviction priority, only evict_last and "
                        "evict_normal are supported"
                    )
            if self.predicate is not None:
                raise VerifyException("predicate supported only on prefetch tensormap")
        else:
            raise VerifyException(
                "requires specification of either cache level or tensormap"
            )


@irdl_op_definition
class ClusterLaunchControlTryCancelOp(NVVMOp):
    """Requests that a not yet running cluster not be launched; the response is written
    to `smemAddress` and tracked by `mbarrier` (`clusterlaunchcontrol.try_cancel`).

    Example:
        nvvm.clusterlaunchcontrol.try.cancel multicast, %response, %mbar
    """

    name = "nvvm.clusterlaunchcontrol.try.cancel"

    multicast = opt_prop_def(UNIT_ATTR)
    smemAddress = operand_def(ptr(3))
    mbarrier = operand_def(ptr(3))

    traits = traits_def(RequiresSM(100))

    FORMAT: ClassVar[str] = (
        "(`multicast` $multicast^ `,`)? $smemAddress `,` $mbarrier attr-dict"
    )

    def __init__(
        self, response: SSAValue, mbarrier: SSAValue, multicast: bool = False
    ) -> None:
        super().__init__(
            operands=[response, mbarrier],
            properties={"multicast": UnitAttr() if multicast else None},
        )


@irdl_op_definition
class ClusterLaunchControlQueryCancelOp(NVVMOp):
    """Reads a `try.cancel` response: whether it succeeded, or the first CTA id of the
    cancelled cluster (`clusterlaunchcontrol.query_cancel`).

    Example:
        %ok = nvvm.clusterlaunchcontrol.query.cancel query = is_canceled, %response : i1
    """

    name = "nvvm.clusterlaunchcontrol.query.cancel"

    query_type = prop_def(
        of_class(
            ClusterLaunchControlQueryTypeAttr, ClusterLaunchControlQueryTypeAttr.SUMMARY
        )
    )
    try_cancel_response = operand_def(I128)
    res = result_def(any_of(I1, I32))

    traits = traits_def(RequiresSM(100))

    FORMAT: ClassVar[str] = (
        "`query` `=` $query_type `,` $try_cancel_response attr-dict `:` type($res)"
    )

    def __init__(
        self,
        query: ClusterLaunchControlQueryType,
        response: SSAValue,
        result: Attribute,
    ) -> None:
        super().__init__(
            operands=[response],
            result_types=[result],
            properties={"query_type": ClusterLaunchControlQueryTypeAttr(query)},
        )

    def verify_(self) -> None:
        query = self.query_type.data
        if query is ClusterLaunchControlQueryType.IS_CANCELED:
            if not I1.test(self.res.type):
                raise VerifyException("is_canceled query type returns an i1")
        elif not I32.test(self.res.type):
            raise VerifyException(
                "get_first_cta_id_x, get_first_cta_id_y, get_first_cta_id_z query "
                "types return an i32"
            )


@irdl_op_definition
class SyncWarpOp(NVVMOp):
    """Waits for the threads of `mask` in the warp (`bar.warp.sync`).

    Example:
        nvvm.bar.warp.sync %mask : i32
    """

    name = "nvvm.bar.warp.sync"

    mask = operand_def(I32)

    FORMAT: ClassVar[str] = "$mask attr-dict `:` type($mask)"

    def __init__(self, mask: SSAValue) -> None:
        super().__init__(operands=[mask])


MISC_OPS = (
    BreakpointOp,
    ExitOp,
    NanosleepOp,
    PMEventOp,
    RcpApproxFtzF32Op,
    GriddepcontrolOp,
    InlinePtxOp,
    MembarOp,
    BulkStoreOp,
    PrefetchOp,
    ClusterLaunchControlTryCancelOp,
    ClusterLaunchControlQueryCancelOp,
    SyncWarpOp,
)
