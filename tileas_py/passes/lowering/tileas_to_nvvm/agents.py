"""Warp-specialised agents in `convert-tileas-to-nvvm`.

Each agent (region) of an `nv_tileas.async.pipeline.agent_switch` runs on warps
`warp_id[i]` .. `warp_id[i] + num_warps[i] - 1` of the CTA; it becomes an `scf.if` on the
warp index `tid.x / 32` (MLIR's `scf` is lowered to branches by `convert-nvvm-to-ori`).
The `scf.if` keeps the agent's warp count and index as `nv_tileas.agent_warps` and
`nv_tileas.agent_index`, which the other
synchronisation lowerings read (`threads.py`). Holes (empty regions) emit nothing.
A `warp_specialize` left over (`optimize-execution-unit-mapping` did not run) is reported.
An agent that issues a CTA pair's MMAs runs on the even CTA of each pair only
(`tcgen05_sync.py`).

When `registers.py` gave the warpgroups register budgets (`nv_tileas.warpgroup_registers`),
the agents are nested in one `scf.if` per run of warpgroups with the same budget, which
starts with their `setmaxnreg` (every warp of those warpgroups runs it, agent or hole), and
each agent's `scf.if` keeps its budget as `nv_tileas.agent_registers`:

    scf.if %in_warpgroup_0 {
      nvvm.setmaxregister decrease 40
      scf.if %in1 { "producer"() } {nv_tileas.agent_index = 1 : i32, ...}
    }
    scf.if %in_warpgroups_1_2 {
      nvvm.setmaxregister increase 232
      scf.if %in0 { "consumer"() } {nv_tileas.agent_index = 0 : i32, ...}
    }

Before:

    nv_tileas.async.pipeline.agent_switch num_warps = [4, 1] warp_id = [0, 4] agent_strides = [1, 1] {
      "consumer"() : () -> ()
    } {
      "producer"() : () -> ()
    }

After:

    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %warp = arith.shrui %tid, %c5 : i32
    %in0 = arith.cmpi ult, %warp, %c4 : i32
    scf.if %in0 {
      "consumer"() : () -> ()
    } {nv_tileas.agent_index = 0 : i32, nv_tileas.agent_warps = 4 : i32}
    %ge1 = arith.cmpi uge, %warp, %c4 : i32
    %lt1 = arith.cmpi ult, %warp, %c5 : i32
    %in1 = arith.andi %ge1, %lt1 : i1
    scf.if %in1 {
      "producer"() : () -> ()
    } {nv_tileas.agent_index = 1 : i32, nv_tileas.agent_warps = 1 : i32}
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp, i32
from xdsl.ir import Block, Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas import AgentSwitchOp, WarpSpecializeOp
from tileas_py.passes.lowering.tileas_to_nvvm.registers import (
    AGENT_REGISTERS,
    WARPGROUP_REGISTERS,
    WARPGROUP_WARPS,
    budget_runs,
    entry_registers,
    setmaxnreg,
)
from tileas_py.passes.lowering.tileas_to_nvvm.tcgen05_sync import (
    PAIR_AGENTS,
    in_even_cta,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    AGENT_INDEX,
    AGENT_WARPS,
    WARP_SIZE,
    constant,
    kernel_warps,
    thread_id,
)


def _in_range(
    rewriter: PatternRewriter, warp: SSAValue, first: int, count: int
) -> SSAValue:
    """`first <= warp < first + count` (the lower test dropped at warp 0)."""
    end = constant(rewriter, first + count)
    below = rewriter.insert(arith.CmpiOp(warp, end, "ult")).result
    if first == 0:
        return below
    start = constant(rewriter, first)
    above = rewriter.insert(arith.CmpiOp(warp, start, "uge")).result
    return rewriter.insert(arith.AndIOp(above, below)).result


def _lower_agent(
    rewriter: PatternRewriter,
    warp: SSAValue,
    op: AgentSwitchOp,
    index: int,
) -> None:
    """Agent `index` of `op` as an `scf.if` at the rewriter's insertion point."""
    region = op.agents[index]
    count = op.num_warps.get_values()[index]
    first = op.warp_id.get_values()[index]
    condition = _in_range(rewriter, warp, first, count)
    pair_agents = op.attributes.get(PAIR_AGENTS)
    if isinstance(pair_agents, DenseArrayBase) and index in pair_agents.get_values():
        # It issues a CTA pair's MMAs: on the even CTA only (`tcgen05_sync.py`).
        even = in_even_cta(rewriter)
        condition = rewriter.insert(arith.AndIOp(condition, even)).result
    body = rewriter.move_region_contents_to_new_regions(region)
    body.block.add_op(scf.YieldOp())
    agent = scf.IfOp(condition, [], body, Region())
    agent.attributes[AGENT_WARPS] = IntegerAttr(count, i32)
    agent.attributes[AGENT_INDEX] = IntegerAttr(index, i32)
    budgets = op.attributes.get(AGENT_REGISTERS)
    if isinstance(budgets, DenseArrayBase):
        budget = int(budgets.get_values()[index])
        agent.attributes[AGENT_REGISTERS] = IntegerAttr(budget, i32)
    rewriter.insert(agent)


class LowerAgentSwitch(RewritePattern):
    """`agent_switch`: one `scf.if` on the warp index per agent; with register budgets,
    nested in one `scf.if` per run of warpgroups, which starts with their `setmaxnreg`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AgentSwitchOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.parent_op(), ModuleOp):
            emit_error(op, "agent_switch must be inside a kernel or function")
        five = constant(rewriter, 5)
        warp = rewriter.insert(arith.ShRUIOp(thread_id(rewriter), five)).result
        agents = [i for i, region in enumerate(op.agents) if region.blocks]
        budgets = op.attributes.get(WARPGROUP_REGISTERS)
        if not isinstance(budgets, DenseArrayBase):
            for index in agents:
                _lower_agent(rewriter, warp, op, index)
            rewriter.erase(op)
            return
        entry = entry_registers(WARP_SIZE * kernel_warps(op))
        counts = [int(v) for v in budgets.get_values()]
        for start, end, budget in budget_runs(counts):
            first, last = start * WARPGROUP_WARPS, end * WARPGROUP_WARPS
            inside = _in_range(rewriter, warp, first, last - first)
            block = Block()
            change = setmaxnreg(budget, entry)
            if change is not None:
                block.add_op(change)
            outer = rewriter.insertion_point
            rewriter.insertion_point = InsertPoint.at_end(block)
            for index in agents:
                if first <= op.warp_id.get_values()[index] < last:
                    _lower_agent(rewriter, warp, op, index)
            block.add_op(scf.YieldOp())
            rewriter.insertion_point = outer
            rewriter.insert(scf.IfOp(inside, [], Region(block), Region()))
        rewriter.erase(op)


class ReportWarpSpecialize(RewritePattern):
    """A `warp_specialize` has no warps yet: it must go through
    `optimize-execution-unit-mapping` first."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: WarpSpecializeOp, rewriter: PatternRewriter
    ) -> None:
        emit_error(
            op,
            "warp_specialize has no warp assignment: run "
            "optimize-execution-unit-mapping before convert-tileas-to-nvvm",
        )


PATTERNS: tuple[RewritePattern, ...] = (LowerAgentSwitch(), ReportWarpSpecialize())
