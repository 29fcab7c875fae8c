"""Special registers (`%tid.x`, `%cluster_ctarank`, `%laneid`, ...), read per thread.

Clock-like registers (`%clock`, `%clock64`, `%globaltimer`) return the scheduler step count,
which only increases; `%smid` is the CTA's index modulo the SM count.
PTX ISA, "Special Registers": https://docs.nvidia.com/cuda/parallel-thread-execution/#special-registers
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tileas_py.sim.isa.operands import OperandError
from tileas_py.sim.program import Instruction

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]

_AXES = {"x": 0, "y": 1, "z": 2}


def special_register(
    m: Machine, name: str, lanes: Lanes, inst: Instruction
) -> npt.NDArray[Any]:
    """The value of `name` (with its `%`) for each lane, as u32 (or u64 for the 64-bit ones)."""
    from tileas_py.sim.machine import NUM_SMS

    g = m.geometry
    base, _, axis_name = name[1:].partition(".")
    n = len(lanes)
    if axis_name in _AXES:
        axis = _AXES[axis_name]
        if base == "tid":
            return g.tid[axis][lanes].astype(np.uint32)
        if base == "ntid":
            return np.full(n, g.block[axis], dtype=np.uint32)
        if base == "ctaid":
            return g.ctaid[axis][lanes].astype(np.uint32)
        if base == "nctaid":
            return np.full(n, g.grid[axis], dtype=np.uint32)
        if base == "cluster_ctaid":
            return (g.ctaid[axis][lanes] % g.cluster[axis]).astype(np.uint32)
        if base == "cluster_nctaid":
            return np.full(n, g.cluster[axis], dtype=np.uint32)
        if base == "clusterid":
            return (g.ctaid[axis][lanes] // g.cluster[axis]).astype(np.uint32)
        if base == "nclusterid":
            return np.full(n, g.grid[axis] // g.cluster[axis], dtype=np.uint32)
    ctas = g.lane_cta[lanes]
    tids = g.lane_tid[lanes]
    lane_id = tids % 32
    value = 0
    if base == "laneid":
        return lane_id.astype(np.uint32)
    if base == "warpid":
        return (tids // 32).astype(np.uint32)
    if base == "nwarpid":
        value = 64
    elif base == "smid":
        return (ctas % NUM_SMS).astype(np.uint32)
    elif base == "nsmid":
        value = NUM_SMS
    elif base == "gridid":
        value = 1
    elif base == "cluster_ctarank":
        return g.cta_rank[ctas].astype(np.uint32)
    elif base == "cluster_nctarank":
        value = g.cluster_size
    elif base == "is_explicit_cluster":
        value = int(bool(m.state.get("explicit_cluster", False)))
    elif base.startswith("lanemask_"):
        kind = base.removeprefix("lanemask_")
        ones = np.uint64(0xFFFFFFFF)
        bit = np.uint64(1) << lane_id.astype(np.uint64)
        mask = {
            "eq": bit,
            "lt": bit - np.uint64(1),
            "le": (bit << np.uint64(1)) - np.uint64(1),
            "gt": ones & ~((bit << np.uint64(1)) - np.uint64(1)),
            "ge": ones & ~(bit - np.uint64(1)),
        }[kind]
        return (mask & ones).astype(np.uint32)
    elif base in ("clock", "clock_hi"):
        value = m.steps & 0xFFFFFFFF if base == "clock" else m.steps >> 32
    elif base in ("clock64", "globaltimer"):
        return np.full(n, m.steps, dtype=np.uint64)
    elif base in ("globaltimer_lo", "globaltimer_hi"):
        value = m.steps & 0xFFFFFFFF if base.endswith("lo") else 0
    elif base == "dynamic_smem_size":
        value = int(m.state.get("dynamic_shared", 0))
    elif base in ("total_smem_size", "aggr_smem_size"):
        value = m.shared_bytes
    elif base.startswith("envreg"):
        value = 0
    else:
        raise OperandError(f"special register {name} is not modelled")
    return np.full(n, value, dtype=np.uint32)
