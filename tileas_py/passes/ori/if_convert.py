"""`ori-if-convert`: ptxas's if-conversion of short branches, as the sync SASS shows it.

ptxas replaces a conditional branch around a short block by predicated instructions: no
`BRA`, and the guarded barriers and stores run as `@!P0 BAR.SYNC.DEFER_BLOCKING`,
`@!P0 STG.E`. What it converts decides whether a barrier under a branch needs a
`WARPSYNC.ALL` and a divergent region a `BSSY` / `BSYNC`, so the sync phases after it see
the converted branches. This is a general optimization, not one of seed 003's phases; the
rules are ptxas 13.5's, measured on sm_90a (probes of every body size; test:
test/ptxas/test_sync_differential.py):

- `@p bra J; body; J:`, the branch skipping one block that runs into its target (unless
  the target only returns: that is a predicated `EXIT`), is converted when every instruction of the body can be predicated and the body holds at
  most 6 SASS instructions under a warp-uniform condition, 8 under a divergent one (a body
  that stores holds one more: the address ptxas loads into it);
- `@p bra E; then; bra J; E: else; J:` is converted when both arms can be predicated
  (loads included) and hold at most that many instructions together;
- predicable: CTA barriers (`bar.sync`, `bar.arrive`, `bar.red`), `mbarrier.init` /
  `arrive`, stores, and arithmetic; loads only in an if / else; never memory barriers and
  fences, warp-level operations, atomics and reductions, calls, asynchronous copies,
  mbarrier waits, WGMMA, or other branches.

From -O1 on, on sm_90 and later (sm_80 converts more and guards a predicated barrier with
`WARPSYNC <mask>`; not modelled). A converted branch keeps its blocks and gets
`ori.sass_opcode = ""` (`tileas_py.dialects.ori.sass.is_if_converted`): the listing shows no
`BRA`, and `WarpUniformity` no longer counts it as divergent. Printed as PTX it is the
branch, which ptxas converts again.

Example (a divergent condition):

    ori.bra if not %p1 "bra" ^bb2, ^bb1
  ^bb1:
    ori.bar "bar.sync" (0)
    ori.fallthrough ^bb2

becomes

    ori.bra if not %p1 "bra" ^bb2, ^bb1 attributes {ori.sass_opcode = ""}
  ^bb1:
    ori.bar "bar.sync" (0)
    ori.fallthrough ^bb2
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block
from xdsl.passes import ModulePass

from tileas_py.analysis.divergence import WarpUniformity
from tileas_py.dialects.ori.function import FallthroughOp, FuncOp
from tileas_py.dialects.ori.instructions import BraOp, ExitOp, RetOp
from tileas_py.dialects.ori.sass import set_sass_opcode
from tileas_py.passes.ori.support.common import (
    block_instructions,
    defined_functions,
    opcode_parts,
    target_sm,
)

HOPPER = 90
UNIFORM_LIMIT = 6
"""SASS instructions ptxas predicates under a warp-uniform condition."""
DIVERGENT_LIMIT = 8
"""SASS instructions ptxas predicates under a divergent condition."""

_NEVER = frozenset(
    {
        "membar",
        "fence",
        "shfl",
        "vote",
        "match",
        "redux",
        "activemask",
        "elect",
        "atom",
        "red",
        "call",
        "cp",
        "wgmma",
        "bra",
        "brx",
        "ret",
        "exit",
        "setmaxnreg",
        "griddepcontrol",
        "tcgen05",
        "multimem",
    }
)
_STORES = frozenset({"st", "stmatrix"})
_PREDICABLE_MBARRIER = frozenset({"init", "arrive", "arrive_drop", "expect_tx"})


@dataclass(frozen=True)
class IfConvertPass(ModulePass):
    """Marks the short branches ptxas turns into predicated code (`ori.sass_opcode = ""`).

    See the module docstring for the rules and an example.
    """

    name = "ori-if-convert"

    opt_level: int = 3
    """ptxas's -O level; -O0 converts nothing."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.opt_level == 0 or target_sm(op) < HOPPER:
            return
        for func in defined_functions(op):
            _convert(func)


def _convert(func: FuncOp) -> None:
    uniformity = WarpUniformity(func)
    for block in list(func.body.blocks)[1:]:
        branch = block.last_op
        if not isinstance(branch, BraOp) or branch.guard is None:
            continue
        arms = _if_else(branch) or _if_then(branch)
        if arms is None:
            continue
        bodies, jumps = arms
        limit = DIVERGENT_LIMIT if uniformity.is_divergent(branch) else UNIFORM_LIMIT
        loads = len(bodies) == 2
        if all(_predicable(b, loads) for b in bodies) and (
            sum(_sass_size(b) for b in bodies) <= limit
        ):
            for jump in (branch, *jumps):
                set_sass_opcode(jump, "")


def _if_then(branch: BraOp) -> tuple[list[Block], list[BraOp]] | None:
    """`@p bra J; body; J:`: the body, reached only from the branch, runs into J."""
    join, body = branch.successors
    if body is join or len(body.predecessors()) != 1 or _only_returns(join):
        return None
    terminator = body.last_op
    if not isinstance(terminator, FallthroughOp) or terminator.dest is not join:
        return None
    return [body], []


def _only_returns(block: Block) -> bool:
    """A block that only returns: ptxas branches to it as a predicated `EXIT` instead."""
    body = list(block_instructions(block))
    return (
        len(body) == 1 and isinstance(body[0], RetOp | ExitOp) and body[0].guard is None
    )


def _if_else(branch: BraOp) -> tuple[list[Block], list[BraOp]] | None:
    """`@p bra E; then; bra J; E: else; J:`: two arms, each reached only from the branch,
    that meet at J."""
    other, then = branch.successors
    jump = then.last_op
    if (
        then is other
        or len(then.predecessors()) != 1
        or len(other.predecessors()) != 1
        or not isinstance(jump, BraOp)
        or jump.guard is not None
    ):
        return None
    join = jump.target
    end = other.last_op
    if not isinstance(end, FallthroughOp) or end.dest is not join or join is other:
        return None
    return [then, other], [jump]


def _predicable(block: Block, loads: bool) -> bool:
    for inst in block_instructions(block):
        if inst.guard is not None and not isinstance(inst, BraOp):
            return False
        parts = opcode_parts(inst)
        if isinstance(inst, BraOp):
            continue  # the if / else's jump to the join
        if parts[0] in _NEVER or (parts[0] == "ld" and not loads):
            return False
        if parts[0] == "bar" and parts[1] == "warp":
            return False
        if parts[0] == "mbarrier" and parts[1] not in _PREDICABLE_MBARRIER:
            return False
    return True


def _sass_size(block: Block) -> int:
    insts = [i for i in block_instructions(block) if not isinstance(i, BraOp)]
    stores = any(opcode_parts(i)[0] in _STORES for i in insts)
    return len(insts) + int(stores)
