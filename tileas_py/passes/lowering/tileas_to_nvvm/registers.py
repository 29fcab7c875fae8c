"""Register budgets in `convert-tileas-to-nvvm`: `setmaxnreg` in warp-specialised kernels
(PTX ISA "setmaxnreg":
https://docs.nvidia.com/cuda/parallel-thread-execution/#miscellaneous-instructions-setmaxnreg),
and a warning when a WGMMA accumulator does not fit its warpgroup's budget.

A CTA's threads share the SM's 65536 registers. At entry each thread has
`E = min(255, 65536 / threads)` (rounded down to a multiple of 8) when one CTA runs per SM.
In a warp-specialised kernel the warpgroups that only move data (a TMA producer warp and
the idle warps of its warpgroup) need few registers, and those that issue WGMMAs need many
(a 64x256 f32 accumulator is 128 per thread), so, as CUTLASS's sm90 warp-specialised
kernels do, the data warpgroups give registers back (`setmaxnreg.dec P`) and the WGMMA
warpgroups take them (`setmaxnreg.inc C`):

- `P` is the pass option `producer-registers` (CUTLASS's `LoadRegisterRequirement`, 40);
- `C` is the option `consumer-registers`, or (when 0) what the register file leaves:
  `(65536 - 128 P n_data) / (128 n_wgmma)` rounded down to a multiple of 8, at most 256
  (n_data, n_wgmma: the CTA's warpgroups of each kind): 232 for a producer warpgroup and
  two WGMMA warpgroups, CUTLASS's `MmaRegisterRequirement`.

`plan_registers` runs before the patterns. A kernel gets budgets when its agents (the
regions of its `agent_switch`es, all with the same warp layout) include WGMMA warpgroups
and data warpgroups; the budgets are kept on each `agent_switch` as `nv_tileas.warpgroup_registers` (one per
warpgroup of the CTA) and `nv_tileas.agent_registers` (one per region, its warpgroup's),
and the kernel gets `nvvm.minctasm = 1`: ptxas ignores `setmaxnreg` (C7508, "unable to determine register
count at entry") unless the entry states its register count, and `.reqntid` with
`.minnctapersm 1` does (as CUTLASS's launch bounds do). `agents.py` lowers such an
`agent_switch` to one `scf.if` per run of warpgroups with the same budget, which starts
with their `setmaxnreg` and holds their agents: ptxas applies a `setmaxnreg` to the code
it dominates, so it must not be followed by code that other budgets also run (at the
kernel's start it is ignored, C7507), and it is `.sync.aligned`, so every warp of the
warpgroup runs it, including warps that belong to no agent.

`warn_if_over_budget` (called by the WGMMA emission) warns when a warpgroup's share of a
dot's accumulator needs more registers per thread than its budget: ptxas then spills, or
serializes the WGMMAs (C7511).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, i32
from xdsl.ir import Operation, Region
from xdsl.utils.exceptions import PassFailedException

from tileas_py.diagnostics import emit_warning
from tileas_py.dialects import cute_nvgpu
from tileas_py.dialects.nv_tileas import AgentSwitchOp
from tileas_py.dialects.nv_tileas.ops import DotOp
from tileas_py.dialects.nvvm import kernel as nvvm_kernel
from tileas_py.dialects.nvvm import sync as nvvm_sync
from tileas_py.dialects.nvvm.attrs import (
    SetMaxRegisterAction,
    SetMaxRegisterActionAttr,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    WARP_SIZE,
    agent_of,
    kernel_warps,
)

REGISTER_FILE = 65536
"""32-bit registers per SM (sm_90)."""
MAX_PER_THREAD = 255
MIN_SETMAXNREG, MAX_SETMAXNREG = 24, 256
WARPGROUP_WARPS = 4
WARPGROUP_THREADS = WARPGROUP_WARPS * WARP_SIZE

AGENT_REGISTERS = "nv_tileas.agent_registers"
"""Per agent (region of an `agent_switch`; an int on its lowered `scf.if`): the register
budget of its warpgroup."""
WARPGROUP_REGISTERS = "nv_tileas.warpgroup_registers"
"""On an `agent_switch`: the register budget of each warpgroup of the CTA."""


def entry_registers(threads: int) -> int:
    """Registers per thread at entry, one CTA of `threads` threads per SM."""
    return min(MAX_PER_THREAD, REGISTER_FILE // max(threads, 1) // 8 * 8)


def _issues_wgmma(region: Region) -> bool:
    for op in region.walk():
        if isinstance(op, DotOp) and isinstance(op.atom, cute_nvgpu.SM90MmaAtomType):
            return True
        if isinstance(op, cute_nvgpu.AtomGemmOp):
            return True
    return False


def _warpgroup_kinds(switch: AgentSwitchOp, warps: int) -> list[bool]:
    """For each warpgroup of the CTA: whether one of its agents issues WGMMAs."""
    kinds = [False] * -(-warps // WARPGROUP_WARPS)
    entries = zip(
        switch.num_warps.get_values(),
        switch.warp_id.get_values(),
        switch.agents,
        strict=True,
    )
    for count, first, region in entries:
        if not region.blocks or not _issues_wgmma(region):
            continue
        for warp in range(first, first + count):
            kinds[warp // WARPGROUP_WARPS] = True
    return kinds


def _budgets(kinds: list[bool], producer: int, consumer: int) -> list[int] | None:
    wgmma = sum(kinds)
    data = len(kinds) - wgmma
    if not wgmma or not data:
        return None
    if not consumer:
        left = REGISTER_FILE - WARPGROUP_THREADS * producer * data
        consumer = min(MAX_SETMAXNREG, left // (WARPGROUP_THREADS * wgmma) // 8 * 8)
    return [consumer if kind else producer for kind in kinds]


def check_budgets(producer: int, consumer: int) -> None:
    """The options are `setmaxnreg` counts (0 for a computed consumer budget)."""
    for name, count in (("producer", producer), ("consumer", consumer)):
        if count == 0 and name == "consumer":
            continue
        if count % 8 or not MIN_SETMAXNREG <= count <= MAX_SETMAXNREG:
            raise PassFailedException(
                f"convert-tileas-to-nvvm: {name}-registers must be a multiple of 8 "
                f"between {MIN_SETMAXNREG} and {MAX_SETMAXNREG} (setmaxnreg), got {count}"
            )


def plan_registers(function: Operation, producer: int, consumer: int) -> None:
    """Give the warpgroups of a warp-specialised kernel their register budgets (see the
    module docstring)."""
    switches = [op for op in function.walk() if isinstance(op, AgentSwitchOp)]
    if not switches:
        return
    warps = kernel_warps(switches[0])
    layouts = {
        (tuple(s.num_warps.get_values()), tuple(s.warp_id.get_values()))
        for s in switches
    }
    if len(layouts) != 1:
        return
    per_warpgroup = _budgets(_warpgroup_kinds(switches[0], warps), producer, consumer)
    if per_warpgroup is None:
        return
    for switch in switches:
        switch.attributes[WARPGROUP_REGISTERS] = DenseArrayBase.from_list(
            i32, per_warpgroup
        )
        switch.attributes[AGENT_REGISTERS] = DenseArrayBase.from_list(
            i32,
            [
                per_warpgroup[first // WARPGROUP_WARPS]
                for first in switch.warp_id.get_values()
            ],
        )
    function.attributes[nvvm_kernel.MINCTASM] = IntegerAttr(1, i32)


def budget_runs(budgets: Sequence[int]) -> list[tuple[int, int, int]]:
    """(first warpgroup, end, budget) of each run of warpgroups with the same budget."""
    runs: list[tuple[int, int, int]] = []
    for index, budget in enumerate(budgets):
        if runs and runs[-1][2] == budget:
            runs[-1] = (runs[-1][0], index + 1, budget)
        else:
            runs.append((index, index + 1, budget))
    return runs


def setmaxnreg(count: int, entry: int) -> Operation | None:
    """`setmaxnreg.dec` to a budget below the entry count, `.inc` above it."""
    if count == entry:
        return None
    action = (
        SetMaxRegisterAction.DECREASE
        if count < entry
        else SetMaxRegisterAction.INCREASE
    )
    return nvvm_sync.SetMaxRegisterOp(SetMaxRegisterActionAttr(action), count)


def register_budget(op: Operation) -> int:
    """The registers per thread of the warpgroup that runs `op`."""
    agent = agent_of(op)
    if agent is not None:
        holder, _ = agent
        budget = holder.attributes.get(AGENT_REGISTERS)
        if isinstance(budget, IntegerAttr):
            return budget.value.data
        if isinstance(holder, AgentSwitchOp) and isinstance(budget, DenseArrayBase):
            child: Operation = op
            while child.parent_op() is not holder:
                parent = child.parent_op()
                assert parent is not None
                child = parent
            region = child.parent_region()
            assert region is not None
            index = list(holder.agents).index(region)
            return int(budget.get_values()[index])
    return entry_registers(WARP_SIZE * kernel_warps(op))


def warn_if_over_budget(op: Operation, registers: int) -> None:
    """Warn when `registers` accumulator registers per thread exceed the budget of the
    warpgroup that runs `op`."""
    budget = register_budget(op)
    if registers <= budget:
        return
    emit_warning(
        op,
        f"this dot's accumulator needs {registers} registers per thread of its "
        f"warpgroup, more than the warpgroup's budget of {budget}: ptxas will spill it or "
        "serialize the WGMMAs (C7511); split the tile over more warpgroups "
        "(warps_per_cta) or make it smaller",
    )
