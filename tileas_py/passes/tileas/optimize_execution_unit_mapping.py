"""`optimize-execution-unit-mapping`: assign warps to agents (OptimizeExecutionUnitMapping, D12).

Every agent-like op (`AgentLikeOpInterface`) becomes an
`nv_tileas.async.pipeline.agent_switch` whose `num_warps` / `warp_id` / `agent_strides`
give each agent an aligned, non-overlapping range of the CTA's warps.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Region
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas import NUM_WARPS, AgentLikeOpInterface, AgentSwitchOp
from tileas_py.passes.tileas.propagate_execution_unit import (
    folded_num_warps,
    propagate_upward,
)

WARP_GROUP = 4
"""The total warp count is padded to whole warp groups."""

MAX_WARPS = 32
"""A CTA has at most 1024 threads (CUDA C++ Programming Guide, "Thread Hierarchy")."""


def round_up(value: int, multiple: int) -> int:
    """`((v != 0) + (v - (v != 0)) / m) * m` in tileiras: the next multiple of m."""
    return -(-value // multiple) * multiple


@dataclass
class Slot:
    num_warps: int
    warp_id: int
    stride: int
    region: Region


def assign_warps(op: AgentLikeOpInterface) -> AgentSwitchOp:
    """The agent_switch that runs `op`'s agents on aligned warp ranges."""
    slots: list[Slot] = []
    cursor = 0
    for index, region in enumerate(op.get_agent_regions()):
        if not region.blocks:
            continue  # a hole from an earlier mapping
        group = folded_num_warps([region], op)
        if group is None:
            group = op.get_declared_num_warps(index)
        if group is None:
            emit_error(op, f"agent #{index} has no {NUM_WARPS}")
        first = round_up(cursor, group)
        if first != cursor:
            slots.append(Slot(1, cursor, first - cursor, Region()))
        slots.append(
            Slot(
                group,
                first,
                op.get_agent_stride(index),
                Rewriter.move_region_contents_to_new_regions(region),
            )
        )
        cursor = first + group
    total = round_up(cursor, WARP_GROUP)
    if total > MAX_WARPS:
        emit_error(
            op,
            f"the agents need {total} warps, but a CTA has at most {MAX_WARPS} "
            f"({MAX_WARPS * 32} threads)",
        )
    if total != cursor:
        slots.append(Slot(1, cursor, total - cursor, Region()))
    switch = AgentSwitchOp(
        [s.num_warps for s in slots],
        [s.warp_id for s in slots],
        [s.stride for s in slots],
        [s.region for s in slots],
    )
    switch.attributes |= op.attributes
    switch.attributes[NUM_WARPS] = IntegerAttr(total, i32)
    switch.location = op.location
    return switch


@dataclass(frozen=True)
class OptimizeExecutionUnitMappingPass(ModulePass):
    """
    Optimizes the numWarps and warpId alignment for each agent.

    Walks the module post-order. An op that is not agent-like gets its warp count folded
    up from its children (`propagate-execution-unit`). An agent-like op
    (`agent_switch`, `warp_specialize`, or any op implementing `AgentLikeOpInterface`)
    becomes an `agent_switch`:

    - each agent's warp count (its group size) is the `nv_tileas.num_warps` its ops
      agree on, else the count the op declares for it; an agent with neither is an error;
    - agents are placed in order; an agent's first warp is the cursor rounded up to a
      multiple of its group size (Hopper WGMMA and Blackwell 1-CTA UMMA agents: 4,
      2-CTA UMMA: 8); a gap left by rounding becomes a hole record (an empty region with
      `num_warps` 1, `warp_id` = the cursor, `agent_strides` = the gap);
    - the total is padded to a multiple of 4 warps with a final hole record, and becomes
      the agent_switch's own `nv_tileas.num_warps`; a total above 32 warps (1024
      threads, the most a CTA has) is an error;
    - several agent-like ops one after the other share the CTA's warps: the function
      needs as many as the largest (see `propagate-execution-unit`);
    - holes of an earlier mapping are dropped first, so the pass is idempotent.

    Agent strides are carried over unchanged. Not modelled: the stable partition of
    "interleaved" agents after "normal" ones (the op interface has no agent kinds) and
    the compaction of duplicate warp ids, which the placement above cannot produce (every
    record starts at the advancing cursor).

    Before:
    ```
    nv_tileas.async.pipeline.warp_specialize {
      nv_tileas.async.pipeline.producer_commit %p {nv_tileas.num_warps = 1 : i32} : ...
    } {
      %d = nv_tileas.dot ... {nv_tileas.num_warps = 4 : i32} : ...
    }
    ```
    After:
    ```
    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4] warp_id = [0, 1, 4] agent_strides = [1, 3, 1] attributes {nv_tileas.num_warps = 8 : i32} {
      nv_tileas.async.pipeline.producer_commit %p {nv_tileas.num_warps = 1 : i32} : ...
    } {
    } {
      %d = nv_tileas.dot ... {nv_tileas.num_warps = 4 : i32} : ...
    }
    ```
    """

    name = "optimize-execution-unit-mapping"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for child in list(op.walk(region_first=True)):
            if isinstance(child, AgentLikeOpInterface):
                Rewriter.replace_op(child, assign_warps(child))
            else:
                propagate_upward(child)
