"""Which threads run a tile op after warp specialisation, for the lowerings of the
synchronisation ops (agents, mbarriers, pipelines, TMA) in `convert-tileas-to-nvvm`.

A tile op is run by every thread of its *agent*: the warps of its `agent_switch` region,
or of the `scf.if` that `agents.py` makes of one (which keeps the region's warp count as
`nv_tileas.agent_warps`), or, outside any agent, by the whole CTA (the kernel's
`nv_tileas.num_warps`). Agents start on a multiple of their own size (the `agent_switch`
verifier), so the agent's first warp is the one with `(tid.x / 32) % warps == 0`. Its lane
that `elect.sync` elects (lane 0: the agents' warps run converged) is the *leader*, which
issues what must happen once per agent (TMA copies, transaction counts). `elect.sync`
rather than `lane == 0` tells ptxas that one lane of the warp takes the branch, so it
issues a TMA copy as one warp-uniform `UTMALDG` instead of a loop over the lanes'
operands (`BRA.U.ANY`).
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tileas_py.dialects.nv_tileas import AgentSwitchOp
from tileas_py.dialects.nvvm.sreg import ThreadIdXOp
from tileas_py.dialects.nvvm.sync import Barrier0Op, BarrierOp, ElectSyncOp

WARP_SIZE = 32
NUM_WARPS = "nv_tileas.num_warps"
AGENT_WARPS = "nv_tileas.agent_warps"
"""The warp count of an agent, kept on the `scf.if` it is lowered to."""
AGENT_INDEX = "nv_tileas.agent_index"
"""The agent's region index in its `agent_switch`, kept on the `scf.if`."""
DEFAULT_WARPS = 4
"""A kernel without `nv_tileas.num_warps` runs one warpgroup."""


def _enclosing_agent(op: Operation) -> tuple[Operation, int | None] | None:
    """The nearest agent running `op`: an `agent_switch` with the index of the region
    holding `op`, or a lowered `scf.if` (`AGENT_WARPS`) with None; None outside agents."""
    child: Operation = op
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, AgentSwitchOp):
            region = child.parent_region()
            assert region is not None
            return parent, list(parent.agents).index(region)
        if isinstance(parent.attributes.get(AGENT_WARPS), IntegerAttr):
            return parent, None
        child, parent = parent, parent.parent_op()
    return None


def agent_of(op: Operation) -> tuple[Operation, int] | None:
    """The agent (`agent_switch` region's parent op, or lowered `scf.if`) running `op`
    and its warp count; None outside agents."""
    found = _enclosing_agent(op)
    if found is None:
        return None
    agent, index = found
    if isinstance(agent, AgentSwitchOp):
        assert index is not None
        return agent, agent.num_warps.get_values()[index]
    warps = agent.attributes[AGENT_WARPS]
    assert isinstance(warps, IntegerAttr)
    return agent, warps.value.data


def agent_key(op: Operation) -> tuple[Operation, int] | None:
    """Which agent runs `op`: its `agent_switch` (or lowered `scf.if`) and region index.

    Two regions of one `agent_switch` are two agents, so this, not `agent_of`'s parent
    op, tells agents apart."""
    found = _enclosing_agent(op)
    if found is None:
        return None
    agent, index = found
    if index is not None:
        return agent, index
    marked = agent.attributes.get(AGENT_INDEX)
    return agent, marked.value.data if isinstance(marked, IntegerAttr) else 0


def kernel_warps(op: Operation) -> int:
    """The warp count of the kernel that holds `op`."""
    warps = DEFAULT_WARPS
    parent = op.parent_op()
    while parent is not None:
        attr = parent.attributes.get(NUM_WARPS)
        if isinstance(attr, IntegerAttr) and agent_of(parent) is None:
            warps = attr.value.data
        reqntid = parent.attributes.get("nvvm.reqntid")
        if isinstance(reqntid, DenseArrayBase):
            warps = int(reqntid.get_values()[0]) // WARP_SIZE
        parent = parent.parent_op()
    return warps


def executing_warps(op: Operation) -> int:
    """The warp count of the agent (or CTA) that runs `op`."""
    agent = agent_of(op)
    return kernel_warps(op) if agent is None else agent[1]


def constant(
    rewriter: PatternRewriter, value: int, type: IntegerType = i32
) -> SSAValue:
    """An integer constant at the rewriter's insertion point."""
    return rewriter.insert(arith.ConstantOp(IntegerAttr(value, type))).result


def thread_id(rewriter: PatternRewriter) -> SSAValue:
    return rewriter.insert(ThreadIdXOp(i32)).res


def warpgroup_in_agent(rewriter: PatternRewriter, groups: int) -> SSAValue:
    """`(tid.x / 128) % groups`: the thread's warpgroup among the `groups` of its agent
    (which starts on a multiple of its size)."""
    tid = thread_id(rewriter)
    warpgroup = rewriter.insert(arith.ShRUIOp(tid, constant(rewriter, 7))).result
    if groups & (groups - 1):
        count = constant(rewriter, groups)
        return rewriter.insert(arith.RemUIOp(warpgroup, count)).result
    mask = constant(rewriter, groups - 1)
    return rewriter.insert(arith.AndIOp(warpgroup, mask)).result


def outside_loops(op: Operation) -> Operation:
    """The outermost loop (`scf.for`, `scf.while`) around `op` within its agent, or `op`:
    where values that depend only on the thread index can be computed once."""
    anchor = op
    parent = op.parent_op()
    while parent is not None and AGENT_WARPS not in parent.attributes:
        if isinstance(parent, AgentSwitchOp) or "sym_name" in parent.properties:
            break
        if isinstance(parent, scf.ForOp | scf.WhileOp):
            anchor = parent
        parent = parent.parent_op()
    return anchor


def agent_leader(rewriter: PatternRewriter, op: Operation) -> SSAValue:
    """An i1, true on the leader of the agent (or CTA) running `op`: the lane that
    `elect.sync` elects in its first warp."""
    warps = executing_warps(op)
    elected = rewriter.insert(ElectSyncOp()).pred
    if warps == 1:
        return elected
    tid = thread_id(rewriter)
    warp = rewriter.insert(arith.ShRUIOp(tid, constant(rewriter, 5))).result
    if warps & (warps - 1):
        index = rewriter.insert(arith.RemUIOp(warp, constant(rewriter, warps))).result
    else:
        mask = constant(rewriter, warps - 1)
        index = rewriter.insert(arith.AndIOp(warp, mask)).result
    first = rewriter.insert(arith.CmpiOp(index, constant(rewriter, 0), "eq")).result
    return rewriter.insert(arith.AndIOp(first, elected)).result


def shared_address(
    rewriter: PatternRewriter, base: SSAValue, offset: int | SSAValue
) -> SSAValue:
    """`base + offset` bytes, a shared-memory address."""
    from tileas_py.passes.lowering.tileas_to_nvvm.conventions import SHARED_PTR

    gep = llvm.GEPOp.from_mixed_indices(
        base, [offset], pointee_type=IntegerType(8), result_type=SHARED_PTR
    )
    return rewriter.insert(gep).result


def agent_barrier(rewriter: PatternRewriter, op: Operation) -> None:
    """A barrier over the threads of the agent running `op`: `barrier0` for the whole
    CTA, else named barrier 1 + the agent's index (so agents do not share one)."""
    agent = agent_of(op)
    if agent is None:
        rewriter.insert(Barrier0Op())
        return
    holder, warps = agent
    index = 0
    if isinstance(holder, AgentSwitchOp):
        region = op.parent_region()
        while region is not None and region.parent_op() is not holder:
            parent = region.parent_op()
            region = None if parent is None else parent.parent_region()
        assert region is not None
        index = list(holder.agents).index(region)
    else:
        attr = holder.attributes.get(AGENT_INDEX)
        if isinstance(attr, IntegerAttr):
            index = attr.value.data
    barrier_id = constant(rewriter, 1 + index)
    threads = constant(rewriter, WARP_SIZE * warps)
    rewriter.insert(BarrierOp(barrier_id, threads))
