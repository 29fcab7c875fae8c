"""Warp-specialised agents in `convert-tileas-to-nvvm`.

Each agent (region) of an `nv_tileas.async.pipeline.agent_switch` runs on warps
`warp_id[i]` .. `warp_id[i] + num_warps[i] - 1` of the CTA; it becomes an `scf.if` on the
warp index `tid.x / 32` (MLIR's `scf` is lowered to branches by `convert-nvvm-to-ori`).
The `scf.if` keeps the agent's warp count and index as `nv_tileas.agent_warps` and
`nv_tileas.agent_index`, which the other
synchronisation lowerings read (`threads.py`). Holes (empty regions) emit nothing.
A `warp_specialize` left over (`optimize-execution-unit-mapping` did not run) is reported.
An agent that issues a CTA pair's MMAs runs on the even CTA of each pair only
(`tcgen05_sync.py`). No `setmaxnreg` is emitted: every agent keeps the kernel's register budget
(`setmaxnreg` is warpgroup-wide, and a one-warp producer shares its warpgroup with a hole).

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
from xdsl.ir import Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas import AgentSwitchOp, WarpSpecializeOp
from tileas_py.passes.lowering.tileas_to_nvvm.tcgen05_sync import (
    PAIR_AGENTS,
    in_even_cta,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    AGENT_INDEX,
    AGENT_WARPS,
    constant,
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


class LowerAgentSwitch(RewritePattern):
    """`agent_switch`: one `scf.if` on the warp index per agent."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AgentSwitchOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.parent_op(), ModuleOp):
            emit_error(op, "agent_switch must be inside a kernel or function")
        five = constant(rewriter, 5)
        warp = rewriter.insert(arith.ShRUIOp(thread_id(rewriter), five)).result
        entries = zip(
            op.num_warps.get_values(),
            op.warp_id.get_values(),
            list(op.agents),
            strict=True,
        )
        pair_agents = op.attributes.get(PAIR_AGENTS)
        even_only = (
            {int(v) for v in pair_agents.get_values()}
            if isinstance(pair_agents, DenseArrayBase)
            else set[int]()
        )
        for index, (count, first, region) in enumerate(entries):
            if not region.blocks:
                continue
            condition = _in_range(rewriter, warp, first, count)
            if index in even_only:
                # It issues a CTA pair's MMAs (`tcgen05_sync.py`).
                even = in_even_cta(rewriter)
                condition = rewriter.insert(arith.AndIOp(condition, even)).result
            body = rewriter.move_region_contents_to_new_regions(region)
            block = body.block
            block.add_op(scf.YieldOp())
            agent = scf.IfOp(condition, [], body, Region())
            agent.attributes[AGENT_WARPS] = IntegerAttr(count, i32)
            agent.attributes[AGENT_INDEX] = IntegerAttr(index, i32)
            rewriter.insert(agent)
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
