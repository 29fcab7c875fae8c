"""`propagate-execution-unit`: fold `nv_tileas.num_warps` upward (PropagateExecutionUnit).

The warp count of an op that holds regions (a loop, an `scf.if`, a function) is the warp
count of the ops in it; this is the helper that `optimize-execution-unit-mapping` runs on
every op that is not an agent.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Operation, Region
from xdsl.passes import ModulePass

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas import NUM_WARPS, AgentLikeOpInterface

INCONSISTENT_NUM_WARPS = (
    "inconsistent numWarps in the agent switch, maybe it is called in different agents "
    "with different numWarps"
)


def num_warps_of(op: Operation) -> int | None:
    """An op's `nv_tileas.num_warps`; an error unless it is a positive integer."""
    value = op.attributes.get(NUM_WARPS)
    if value is None:
        return None
    if not isinstance(value, IntegerAttr) or value.value.data < 1:
        emit_error(op, f"{NUM_WARPS} must be a positive integer, got {value}")
    return value.value.data


def folded_num_warps(regions: Iterable[Region], owner: Operation) -> int | None:
    """The warp count of the ops directly in `regions`.

    Ops that run on a set of warps must agree on its size (an error otherwise).
    Warp-specialised sections (agent-like ops) run one after the other on the same
    warps, so together they need as many as the largest; the other ops, when they
    give a count, must have at least that many."""
    found: int | None = None
    sections: int | None = None
    for region in regions:
        for block in region.blocks:
            for child in block.ops:
                n = num_warps_of(child)
                if n is None:
                    continue
                if isinstance(child, AgentLikeOpInterface):
                    sections = n if sections is None else max(sections, n)
                    continue
                if found is not None and n != found:
                    emit_error(owner, INCONSISTENT_NUM_WARPS)
                found = n
    if sections is None:
        return found
    if found is not None and found < sections:
        emit_error(owner, INCONSISTENT_NUM_WARPS)
    return sections if found is None else found


def propagate_upward(op: Operation) -> None:
    """Give a region-holding op the warp count of its children."""
    if not op.regions or isinstance(op, ModuleOp | AgentLikeOpInterface):
        return
    n = folded_num_warps(op.regions, op)
    if n is None:
        return
    own = num_warps_of(op)
    if own is not None and own != n:
        emit_error(op, INCONSISTENT_NUM_WARPS)
    op.attributes[NUM_WARPS] = IntegerAttr(n, i32)


@dataclass(frozen=True)
class PropagateExecutionUnitPass(ModulePass):
    """
    Propagates the numWarps for each agent.

    Walks the module post-order; every op with regions (`scf.for`, `scf.if`, `scf.while`,
    functions, ...) except modules and agent-like ops gets the `nv_tileas.num_warps` that
    the ops directly inside it agree on; warp-specialised sections (agent-like ops) one
    after the other need the largest of their counts. When the ops disagree (or disagree
    with the op's own value, or give fewer warps than a section needs), the pass fails
    with "inconsistent numWarps in the agent switch, maybe it is called in different
    agents with different numWarps". Ops whose children carry no warp count are left
    alone.

    Before:
    ```
    scf.for %i = %lb to %ub step %s {
      %d = nv_tileas.dot ... {nv_tileas.num_warps = 4 : i32} : ...
    }
    ```
    After:
    ```
    scf.for %i = %lb to %ub step %s {
      %d = nv_tileas.dot ... {nv_tileas.num_warps = 4 : i32} : ...
    } {nv_tileas.num_warps = 4 : i32}
    ```
    """

    name = "propagate-execution-unit"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for child in list(op.walk(region_first=True)):
            propagate_upward(child)
