"""`ori-fixup-gmma-sequence`: ptxas's phase 87 (FixupGmmaSequence).

The pass legalizes each function's WGMMA pipelines the way ptxas 13.5 does, and prints
ptxas's messages about it, in ptxas's own words and format, one line each:

- where a non-wgmma instruction uses the accumulators of a group still in flight (or the
  function returns with a group in flight), it injects `ori.warpgroup.wait 0` (ptxas's
  `_warpgroup.wait`, printed as PTX `wgmma.wait_group.sync.aligned 0`) before it, and an
  `ori.warpgroup.arrive` before the next wgmma of the stage, and reports
  `(C7517) wgmma.wait_group is injected in around line N ...`; back-to-back stages that
  never touch each other's accumulators get no wait;
- when the pipeline cannot be formed (an opaque call, a divergent commit or wait, a read
  inside a stage, too few registers, ...) it reports the first reason found,
  `(C75xx) Potential Performance Loss: wgmma.mma_async instructions are serialized due to
  ...`, and serializes the function: every wgmma gets its own arrive, commit and wait,
  which replace the program's own fence, commit and wait (under -O0, -g and
  `--Ofast-compile=max` ptxas serializes any PTX itself, and the function stays as it is).

`tileas_py.passes.ori.support.gmma.model` holds the model of ptxas's decisions (what triggers
which message, which line it names) and `docs/fidelity.md` what is and is not modelled.
`-t ptx` after the pass prints the fixed-up PTX, which ptxas still assembles.

Before:

    ori.wgmma.fence "wgmma.fence.sync.aligned"
    ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" (inout {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1, 0, 0)
    ori.wgmma.commit_group "wgmma.commit_group.sync.aligned"
    ori.inst "st.global.f32" ([%rd3 + 64], %f1)

After (and `ptxas info    : (C7517) wgmma.wait_group is injected in around line 29 by
compiler to allow use of registers defined by GMMA in function 'k'` on stderr):

    ori.wgmma.fence "wgmma.fence.sync.aligned"
    ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" (inout {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1, 0, 0)
    ori.wgmma.commit_group "wgmma.commit_group.sync.aligned"
    ori.warpgroup.wait "_warpgroup.wait" (0)
    ori.inst "st.global.f32" ([%rd3 + 64], %f1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass

from tileas_py.diagnostics import emit_error, emit_verbatim
from tileas_py.dialects.ori.analysis import ControlFlowGraph
from tileas_py.dialects.ori.attributes import FunctionKind, ImmAttr
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import (
    CallOp,
    GenericInstructionOp,
    WarpgroupArriveOp,
    WarpgroupCommitBatchOp,
    WarpgroupWaitOp,
    WgmmaCommitGroupOp,
    WgmmaFenceOp,
    WgmmaMmaAsyncOp,
    WgmmaWaitGroupOp,
)
from tileas_py.dialects.ori.module_ops import start_of
from tileas_py.passes.ori.support.gmma import (
    CallKind,
    Code,
    GmmaFunctionModel,
    GmmaOptions,
    ModuleFunctions,
)
from tileas_py.passes.ori.support.gmma.report import report


@dataclass(frozen=True)
class OriFixupGmmaSequencePass(ModulePass):
    """Phase 87: inject waits and arrives, or serialize, and report as ptxas does."""

    name = "ori-fixup-gmma-sequence"

    compile_only: bool = False
    """ptxas `-c`: every call is opaque (not inlined), so a call in a function that issues
    wgmma serializes it (C7509, or C7519 inside a stage); without it calls of defined
    functions are inlined and an `.extern .func` call is fatal."""

    opt_level: int = 3
    """ptxas `-O`: at 0 every wgmma is serialized (C7511, and a C7517 per wgmma)."""

    device_debug: bool = False
    """ptxas `-g`: serializes every wgmma, as -O0 does."""

    maxrregcount: int = 0
    """ptxas `-maxrregcount`; 0 means none (255, or the entry's `.maxnreg`)."""

    fast_compile: Literal["off", "min", "mid", "max"] = "off"
    """ptxas `--Ofast-compile` (`off` is ptxas's `0`): any level keeps calls out of line
    (as -c does), `max` also serializes every wgmma (as -O0 does)."""

    explain: bool = False
    """Follow each message with notes naming its cause (the register, the instruction and
    its line, the call or the divergent branch) and a one-line fix."""

    def options(self) -> GmmaOptions:
        return GmmaOptions(
            compile_only=self.compile_only,
            opt_level=self.opt_level,
            device_debug=self.device_debug,
            maxrregcount=self.maxrregcount,
            fast_compile=self.fast_compile,
        )

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if not 0 <= self.opt_level <= 3:
            emit_error(None, f"opt-level must be 0, 1, 2 or 3, not {self.opt_level}")
        if self.maxrregcount < 0:
            emit_error(None, f"maxrregcount cannot be negative ({self.maxrregcount})")
        funcs = [f for f in op.walk() if isinstance(f, FuncOp)]
        functions = ModuleFunctions.of(funcs)
        options = self.options()
        models = [
            GmmaFunctionModel(func, functions, options)
            for func in funcs
            if not func.is_declaration
        ]
        for model in models:
            self._check_unresolved_calls(model)
        for model in report_order(models, options):
            report(model, self.explain)
            if model.fatal is not None:
                emit_error(
                    model.fatal.culprit,
                    "the wgmma.mma_async needs more registers than the limit allows "
                    "(ptxas stops with C7602)",
                )
        for model in models:
            fixup(model)

    def _check_unresolved_calls(self, model: GmmaFunctionModel) -> None:
        for call, kind in model.calls.items():
            if kind is CallKind.UNRESOLVED:
                assert isinstance(call, CallOp)
                name = call.callee
                assert isinstance(name, builtin.SymbolRefAttr)
                callee = name.root_reference.data
                emit_verbatim(
                    call, f"ptxas fatal   : Unresolved extern function '{callee}'"
                )
                emit_error(
                    call,
                    f"call of the .extern .func '{callee}' needs compile-only mode "
                    "(ptxas -c, pass option compile-only=true)",
                )


def report_order(
    models: list[GmmaFunctionModel], options: GmmaOptions
) -> list[GmmaFunctionModel]:
    """The functions in the order ptxas reports them (a function more than once when
    ptxas compiles it for each kernel that calls it):

    - whole-program: the kernels last to first, each after the functions it calls (and
      they after theirs), which ptxas compiles again for every kernel;
    - `-g`: the kernels first to last, then the other functions first to last;
    - otherwise (`-c`, `--Ofast-compile`): the other functions last to first, then the
      kernels last to first."""
    entries = [m for m in models if m.func.kind.data is FunctionKind.ENTRY]
    others = [m for m in models if m.func.kind.data is not FunctionKind.ENTRY]
    if options.device_debug:
        return entries + others
    if not options.inlines_calls:
        return others[::-1] + entries[::-1]
    by_name = {m.name: m for m in models}
    ordered: list[GmmaFunctionModel] = []
    reached: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        reached.add(name)
        for callee in by_name[name].functions.callees.get(name, []):
            if callee in by_name and callee not in path:
                visit(callee, (*path, callee))
        ordered.append(by_name[name])

    for entry in reversed(entries):
        visit(entry.name, (entry.name,))
    return ordered + [m for m in others if m.name not in reached]


def fixup(model: GmmaFunctionModel) -> None:
    """Apply the model's decision to the IR: serialize, or inject waits and arrives.

    Under -O0, -g and `--Ofast-compile=max` the function stays as it is: ptxas serializes
    every wgmma of any PTX it is given at those levels, so the input is already what it
    makes of it (added groups would only become dummy HGMMA)."""
    if model.options.serializes_everything:
        return
    if model.serialization is not None:
        serialize(model)
        return
    waits = [f for f in model.waits() if f.code is Code.WAIT_INJECTED]
    for finding in waits:
        where = finding.op
        assert where is not None
        _insert_before(where, _wait(where))
        _arrive_for_next_wgmma(where)


def serialize(model: GmmaFunctionModel) -> None:
    """Each wgmma.mma_async in its own group: arrive, wgmma, commit, wait 0, as ptxas
    emits it; the program's own fences, commits and waits go (every group is complete
    where it is issued, so they would only add empty groups and redundant waits).

    Each of those is `.sync.aligned`: ptxas keeps the warp synchronization it implies
    (a `WARPSYNC.ALL`) where the threads may have diverged, and without it ptxas wraps the
    divergent region in BSSY/BSYNC instead. So a run of them on a divergent path that no
    wgmma's own arrive, commit and wait stands beside becomes a `bar.warp.sync -1`."""
    dropped = [op for op in model.instructions if isinstance(op, _PROGRAM_SYNC)]
    for op in dropped:
        if _opens_divergent_sync_run(model, op):
            _insert_before(op, _warp_sync(op))
    for op in dropped:
        op.detach()
        op.erase()
    for wgmma in model.wgmmas:
        op = wgmma.op
        block = op.parent_block()
        assert block is not None
        _insert_before(op, _arrive(op))
        commit = WarpgroupCommitBatchOp("_warpgroup.commit_batch")
        commit.location = op.location
        wait = _wait(op)
        block.insert_ops_after([commit, wait], op)


_PROGRAM_SYNC = WgmmaFenceOp | WgmmaCommitGroupOp | WgmmaWaitGroupOp


def _opens_divergent_sync_run(model: GmmaFunctionModel, op: Operation) -> bool:
    """Whether `op` starts a run of fences, commits and waits, on a divergent path, with
    no wgmma on either side (whose own arrive, commit and wait keep the warp in step)."""
    block = op.parent_block()
    assert block is not None
    if not _in_divergent_loop_iteration(model, block):
        return False
    before = op.prev_op
    if isinstance(before, _PROGRAM_SYNC | WgmmaMmaAsyncOp):
        return False
    after = op.next_op
    while isinstance(after, _PROGRAM_SYNC):
        after = after.next_op
    return not isinstance(after, WgmmaMmaAsyncOp)


def _in_divergent_loop_iteration(model: GmmaFunctionModel, block: Block) -> bool:
    """Whether `block` depends on divergent branches, each of them a loop's exit or latch:
    a branch that `block` leads back to before the paths the branch split have joined
    again. (Within an `if`/`else` that joins, ptxas answers a `bar.warp.sync` with a
    `BRA.DIV` and `WARPSYNC.COLLECTIVE`, and the dropped instructions are best left out.)"""
    cfg = model.cfg
    branches = model.divergence.divergent_dependence(block)
    if not branches:
        return False
    start = cfg.index[block]
    for branch in range(branches.bit_length()):
        if branches >> branch & 1 and not _reaches_before(
            cfg, start, branch, cfg.ipdom[branch]
        ):
            return False
    return True


def _reaches_before(
    cfg: ControlFlowGraph, start: int, target: int, barrier: int | None
) -> bool:
    """Whether a path from block `start` reaches block `target` without `barrier`."""
    seen = {start}
    worklist = [start]
    while worklist:
        current = worklist.pop()
        for successor in cfg.successors[current]:
            if successor == target:
                return True
            if successor != barrier and successor not in seen:
                seen.add(successor)
                worklist.append(successor)
    return False


def _arrive_for_next_wgmma(after: Operation) -> None:
    """The next wgmma of the stage after an injected wait needs its own arrive."""
    current = after.next_op
    while current is not None:
        if isinstance(current, WgmmaFenceOp | WgmmaCommitGroupOp | WarpgroupArriveOp):
            return
        if isinstance(current, WgmmaMmaAsyncOp):
            _insert_before(current, _arrive(current))
            return
        current = current.next_op


def _wait(near: Operation) -> WarpgroupWaitOp:
    wait = WarpgroupWaitOp("_warpgroup.wait", [ImmAttr(0)])
    wait.location = near.location
    return wait


def _warp_sync(near: Operation) -> GenericInstructionOp:
    sync = GenericInstructionOp("bar.warp.sync", [ImmAttr(-1)])
    sync.location = near.location
    return sync


def _arrive(near: Operation) -> WarpgroupArriveOp:
    arrive = WarpgroupArriveOp("_warpgroup.arrive")
    arrive.location = near.location
    return arrive


def _insert_before(op: Operation, new: Operation) -> None:
    block = op.parent_block()
    assert block is not None
    block.insert_op_before(new, start_of(op))
