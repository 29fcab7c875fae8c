"""Thread-block-cluster ops (sm_90): the cluster barrier and `nvvm.mapa`, which maps a
shared-memory address to the same location in another CTA of the cluster.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmclusterarrive-nvvmclusterarriveop
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-barrier-cluster
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import I32, UNIT_ATTR, any_of, ptr
from tileas_py.dialects.nvvm.pointers import (
    GENERIC,
    SHARED,
    SHARED_CLUSTER,
    address_space,
    pointer,
)
from tileas_py.dialects.nvvm.target import RequiresSM


class ClusterBarrierOp(NVVMOp):
    """A cluster barrier phase; `{aligned}` selects the `.aligned` form."""

    aligned = opt_prop_def(UNIT_ATTR)

    FORMAT: ClassVar[str] = "attr-dict"

    def __init__(self, aligned: bool = False) -> None:
        super().__init__(properties={"aligned": UnitAttr() if aligned else None})


@irdl_op_definition
class ClusterArriveOp(ClusterBarrierOp):
    """Marks the warp's arrival at the cluster barrier without waiting
    (`barrier.cluster.arrive`).

    Example:
        nvvm.cluster.arrive {aligned}
    """

    name = "nvvm.cluster.arrive"


@irdl_op_definition
class ClusterArriveRelaxedOp(ClusterBarrierOp):
    """Cluster arrive without memory-ordering guarantees (`barrier.cluster.arrive.relaxed`).

    Example:
        nvvm.cluster.arrive.relaxed
    """

    name = "nvvm.cluster.arrive.relaxed"

    traits = traits_def(RequiresSM(90))


@irdl_op_definition
class ClusterWaitOp(ClusterBarrierOp):
    """Waits until every thread of the cluster has arrived (`barrier.cluster.wait`).

    Example:
        nvvm.cluster.wait {aligned}
    """

    name = "nvvm.cluster.wait"

    traits = traits_def(RequiresSM(90))


@irdl_op_definition
class MapaOp(NVVMOp):
    """Maps address `a` to the corresponding address in the shared memory of CTA `b` of
    the cluster: a generic pointer to a generic pointer, or a shared::cta pointer
    (`!llvm.ptr<3>`) to a shared::cluster one (`!llvm.ptr<7>`).

    Example:
        %remote = nvvm.mapa %smem, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    """

    name = "nvvm.mapa"

    a = operand_def(any_of(ptr(0), ptr(3)))
    b = operand_def(I32)
    res = result_def(any_of(ptr(0), ptr(7)))

    traits = traits_def(RequiresSM(90))

    FORMAT: ClassVar[str] = "$a `,` $b attr-dict `:` type($a) `->` type($res)"

    def __init__(self, a: SSAValue, b: SSAValue) -> None:
        result = SHARED_CLUSTER if address_space(a.type) == SHARED else GENERIC
        super().__init__(operands=[a, b], result_types=[pointer(result)])

    def verify_(self) -> None:
        mapping = (address_space(self.a.type), address_space(self.res.type))
        if mapping not in ((SHARED, SHARED_CLUSTER), (GENERIC, GENERIC)):
            raise VerifyException(
                "failed to verify that Valid address-space check(or mapping) for mapa Op"
            )


CLUSTER_OPS = (ClusterArriveOp, ClusterArriveRelaxedOp, ClusterWaitOp, MapaOp)
