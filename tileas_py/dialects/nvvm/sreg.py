"""Special-register reads: `nvvm.read.ptx.sreg.*` (thread, block, cluster ids and sizes,
lane masks, clocks, environment registers).

The id and size registers take an optional `range` telling later passes the values the
register can hold: `%tid = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32`.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmreadptxsregtidx-nvvmthreadidxop
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#special-registers
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Attribute
from xdsl.irdl import (
    irdl_op_definition,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.nvvm.attrs import LLVMConstantRangeAttr
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import LLVM_TYPE
from tileas_py.dialects.nvvm.target import RequiresSM


class SpecialRegisterOp(NVVMOp):
    """Reads a PTX special register that may change between reads (clocks, timers).

    Example:
        %t = nvvm.read.ptx.sreg.clock64 : i64
    """

    res = result_def(LLVM_TYPE)

    FORMAT: ClassVar[str] = "attr-dict `:` type($res)"

    def __init__(self, result_type: Attribute) -> None:
        super().__init__(result_types=[result_type])


class PureSpecialRegisterOp(SpecialRegisterOp):
    """Reads a PTX special register that is constant for the thread (lane masks, envregs).

    Example:
        %m = nvvm.read.ptx.sreg.lanemask.lt : i32
    """

    traits = traits_def(Pure())


class RangeableSpecialRegisterOp(NVVMOp):
    """Reads a constant PTX special register whose values may be bounded by `range`.

    Example:
        %tid = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
    """

    range = opt_prop_def(LLVMConstantRangeAttr)
    res = result_def(LLVM_TYPE)

    traits = traits_def(Pure())

    FORMAT: ClassVar[str] = "(`range` $range^)? attr-dict `:` type($res)"

    def __init__(
        self, result_type: Attribute, range: LLVMConstantRangeAttr | None = None
    ) -> None:
        super().__init__(result_types=[result_type], properties={"range": range})

    def verify_(self) -> None:
        if self.range is None:
            return
        lower, upper = self.range.lower.data, self.range.upper.data
        maximum = (1 << self.range.type.width.data) - 1
        if lower == upper and lower not in (0, maximum):
            raise VerifyException(
                "invalid range attribute: Lower == Upper, but they aren't min (0) or "
                f"max ({maximum}) value! This is an invalid constant range."
            )


class ClusterRangeableSpecialRegisterOp(RangeableSpecialRegisterOp):
    """A rangeable register of the CTA's cluster; upstream gates these on sm_90.

    Example:
        %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    """

    traits = traits_def(Pure(), RequiresSM(90))


@irdl_op_definition
class LaneIdOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.laneid"


@irdl_op_definition
class WarpSizeOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.warpsize"


@irdl_op_definition
class WarpIdOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.warpid"


@irdl_op_definition
class WarpDimOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nwarpid"


@irdl_op_definition
class SmIdOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.smid"


@irdl_op_definition
class SmDimOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nsmid"


@irdl_op_definition
class GridIdOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.gridid"


@irdl_op_definition
class LaneMaskEqOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.lanemask.eq"


@irdl_op_definition
class LaneMaskLeOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.lanemask.le"


@irdl_op_definition
class LaneMaskLtOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.lanemask.lt"


@irdl_op_definition
class LaneMaskGeOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.lanemask.ge"


@irdl_op_definition
class LaneMaskGtOp(PureSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.lanemask.gt"


@irdl_op_definition
class ThreadIdXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.tid.x"


@irdl_op_definition
class ThreadIdYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.tid.y"


@irdl_op_definition
class ThreadIdZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.tid.z"


@irdl_op_definition
class BlockDimXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.ntid.x"


@irdl_op_definition
class BlockDimYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.ntid.y"


@irdl_op_definition
class BlockDimZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.ntid.z"


@irdl_op_definition
class BlockIdXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.ctaid.x"


@irdl_op_definition
class BlockIdYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.ctaid.y"


@irdl_op_definition
class BlockIdZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.ctaid.z"


@irdl_op_definition
class GridDimXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nctaid.x"


@irdl_op_definition
class GridDimYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nctaid.y"


@irdl_op_definition
class GridDimZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nctaid.z"


# Upstream gates only some of the cluster registers on sm_90; the others are left ungated
# there too, and so are they here.


@irdl_op_definition
class ClusterIdXOp(ClusterRangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.clusterid.x"


@irdl_op_definition
class ClusterIdYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.clusterid.y"


@irdl_op_definition
class ClusterIdZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.clusterid.z"


@irdl_op_definition
class ClusterDimXOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nclusterid.x"


@irdl_op_definition
class ClusterDimYOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nclusterid.y"


@irdl_op_definition
class ClusterDimZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.nclusterid.z"


@irdl_op_definition
class BlockInClusterIdXOp(ClusterRangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.ctaid.x"


@irdl_op_definition
class BlockInClusterIdYOp(ClusterRangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.ctaid.y"


@irdl_op_definition
class BlockInClusterIdZOp(ClusterRangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.ctaid.z"


@irdl_op_definition
class ClusterDimBlocksXOp(ClusterRangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.nctaid.x"


@irdl_op_definition
class ClusterDimBlocksYOp(ClusterRangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.nctaid.y"


@irdl_op_definition
class ClusterDimBlocksZOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.nctaid.z"


@irdl_op_definition
class ClusterIdOp(ClusterRangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.ctarank"


@irdl_op_definition
class ClusterDimOp(RangeableSpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.cluster.nctarank"


@irdl_op_definition
class ClockOp(SpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.clock"


@irdl_op_definition
class Clock64Op(SpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.clock64"


@irdl_op_definition
class GlobalTimerOp(SpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.globaltimer"


@irdl_op_definition
class GlobalTimerLoOp(SpecialRegisterOp):
    name = "nvvm.read.ptx.sreg.globaltimer.lo"


@irdl_op_definition
class AggrSmemSizeOp(SpecialRegisterOp):
    """Shared memory the CTA may use in all (static, dynamic and reserved), in bytes."""

    name = "nvvm.read.ptx.sreg.aggr.smem.size"

    traits = traits_def(RequiresSM(90))


@irdl_op_definition
class DynamicSmemSizeOp(SpecialRegisterOp):
    """Dynamically allocated shared memory of the CTA, in bytes."""

    name = "nvvm.read.ptx.sreg.dynamic.smem.size"


@irdl_op_definition
class TotalSmemSizeOp(SpecialRegisterOp):
    """Shared memory allocated to the CTA (static and dynamic), in bytes."""

    name = "nvvm.read.ptx.sreg.total.smem.size"


def _envreg(index: int) -> type[PureSpecialRegisterOp]:
    """`nvvm.read.ptx.sreg.envreg<index>`: one of the 32 driver-defined registers."""

    class EnvRegOp(PureSpecialRegisterOp):
        name: ClassVar[str] = f"nvvm.read.ptx.sreg.envreg{index}"  # pyright: ignore[reportIncompatibleVariableOverride]

    EnvRegOp.__name__ = EnvRegOp.__qualname__ = f"EnvReg{index}Op"
    return irdl_op_definition(EnvRegOp)


ENVREG_OPS = tuple(_envreg(i) for i in range(32))

SREG_OPS = (
    LaneIdOp,
    WarpSizeOp,
    WarpIdOp,
    WarpDimOp,
    SmIdOp,
    SmDimOp,
    GridIdOp,
    LaneMaskEqOp,
    LaneMaskLeOp,
    LaneMaskLtOp,
    LaneMaskGeOp,
    LaneMaskGtOp,
    ThreadIdXOp,
    ThreadIdYOp,
    ThreadIdZOp,
    BlockDimXOp,
    BlockDimYOp,
    BlockDimZOp,
    BlockIdXOp,
    BlockIdYOp,
    BlockIdZOp,
    GridDimXOp,
    GridDimYOp,
    GridDimZOp,
    ClusterIdXOp,
    ClusterIdYOp,
    ClusterIdZOp,
    ClusterDimXOp,
    ClusterDimYOp,
    ClusterDimZOp,
    BlockInClusterIdXOp,
    BlockInClusterIdYOp,
    BlockInClusterIdZOp,
    ClusterDimBlocksXOp,
    ClusterDimBlocksYOp,
    ClusterDimBlocksZOp,
    ClusterIdOp,
    ClusterDimOp,
    ClockOp,
    Clock64Op,
    GlobalTimerOp,
    GlobalTimerLoOp,
    AggrSmemSizeOp,
    DynamicSmemSizeOp,
    TotalSmemSizeOp,
    *ENVREG_OPS,
)
