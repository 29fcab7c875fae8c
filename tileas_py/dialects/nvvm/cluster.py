"""Thread-block-cluster ops (sm_90): the cluster barrier and `nvvm.mapa`, which maps a
shared-memory address to the same location in another CTA of the cluster.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmclusterarrive-nvvmclusterarriveop
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-barrier-cluster
"""

from __future__ import annotations

from xdsl.dialects.builtin import I32, UnitAttr
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.nvvm.pointers import (
    GENERIC,
    SHARED,
    SHARED_CLUSTER,
    address_space,
    check_pointer_operand,
    pointer,
)
from tileas_py.dialects.nvvm.target import RequiresSM


class ClusterBarrierOp(IRDLOperation):
    """A cluster barrier phase; `{aligned}` selects the `.aligned` form."""

    aligned = opt_prop_def(UnitAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

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
class MapaOp(IRDLOperation):
    """Maps address `a` to the corresponding address in the shared memory of CTA `b` of
    the cluster: a generic pointer to a generic pointer, or a shared::cta pointer
    (`!llvm.ptr<3>`) to a shared::cluster one (`!llvm.ptr<7>`).

    Example:
        %remote = nvvm.mapa %smem, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
    """

    name = "nvvm.mapa"

    a = operand_def(LLVMPointerType)
    b = operand_def(I32)
    res = result_def(LLVMPointerType)

    traits = traits_def(RequiresSM(90))

    assembly_format = "$a `,` $b attr-dict `:` type($a) `->` type($res)"

    def __init__(self, a: SSAValue, b: SSAValue) -> None:
        result = SHARED_CLUSTER if address_space(a.type) == SHARED else GENERIC
        super().__init__(operands=[a, b], result_types=[pointer(result)])

    def verify_(self) -> None:
        check_pointer_operand(self.a, 0, (GENERIC, SHARED))
        mapping = (address_space(self.a.type), address_space(self.res.type))
        if mapping not in ((SHARED, SHARED_CLUSTER), (GENERIC, GENERIC)):
            raise VerifyException(
                "failed to verify that Valid address-space check(or mapping) for mapa Op"
            )


CLUSTER_OPS = (ClusterArriveOp, ClusterArriveRelaxedOp, ClusterWaitOp, MapaOp)
