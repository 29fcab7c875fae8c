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
  which replace the program's own fence, commit and wait, and a wgmma under a divergent
  guard becomes a branch around them, as ptxas makes it (under -O0, -g and
  `--Ofast-compile=max` ptxas serializes any PTX itself, and the function stays as it is;
  so it does, with the waits ptxas injects, when the reason is one of its registers that
  any PTX of it has).

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
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from tileas_py.diagnostics import emit_error, emit_verbatim
from tileas_py.dialects.ori.analysis import ControlFlowGraph
from tileas_py.dialects.ori.attributes import DEF_SLOT, USE_SLOT, FunctionKind, ImmAttr
from tileas_py.dialects.ori.function import FallthroughOp, FuncOp, RegOp
from tileas_py.dialects.ori.instructions import (
    BraOp,
    CallOp,
    GenericInstructionOp,
    InstructionOp,
    WarpgroupArriveOp,
    WarpgroupCommitBatchOp,
    WarpgroupWaitOp,
    WgmmaCommitGroupOp,
    WgmmaFenceOp,
    WgmmaMmaAsyncOp,
    WgmmaWaitGroupOp,
)
from tileas_py.dialects.ori.module_ops import pragmas_of, start_of
from tileas_py.passes.ori.support.gmma import (
    CallKind,
    Cause,
    Code,
    GmmaFunctionModel,
    GmmaOptions,
    ModuleFunctions,
    Wgmma,
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
    makes of it (added groups would only become dummy HGMMA). So does a function that
    ptxas serializes for its registers whatever PTX it is given: it gets the waits ptxas
    injects and keeps its own groups."""
    if model.options.serializes_everything:
        return
    if model.serialization is not None and not _serializes_any_ptx(model):
        serialize(model)
        return
    waits = [f for f in model.waits() if f.code is Code.WAIT_INJECTED]
    for finding in waits:
        where = finding.op
        assert where is not None
        _insert_before(where, _wait(where))
        _arrive_for_next_wgmma(where)


def _serializes_any_ptx(model: GmmaFunctionModel) -> bool:
    """Whether the function is serialized for a reason of its registers that no placement
    of fences, commits and waits changes, so that ptxas serializes any PTX of it.

    One is the register budget: the budget is the function's (C7512), or the stage's (C7511) when the accumulators of
    the fullest stage are that many more than the limit: every one of them is live at the
    stage's last wgmma, so they stay live together in the serialized PTX too, which gets
    C7512 (measured on all 44 such kernels of the corpora). No placement of fences,
    commits and waits helps, and from the program's own groups ptxas makes less copy and
    spill code (`pressure_074`, four m64n96 under -maxrregcount=168: 659 SASS instructions,
    739 from the serialized PTX). Identical wgmma that ptxas computes once
    (`four_zeroed_m64n128_accumulators`) leave fewer registers live, and the serialized
    PTX fits.

    Another is a zero-start wgmma in a loop whose accumulators are partly live after it
    (C7511, `loops_075`): ptxas keeps them one live range around the loop whatever the
    groups, and the serialized PTX gets the same C7511 (all 4 such kernels); from it
    ptxas makes a dummy HGMMA with its own arrive and wait for each unrolled copy of the
    wgmma, which it drops from the original (94 SASS instructions for 82)."""
    finding = model.serialization
    if finding is None:
        return False
    if finding.cause in (Cause.FUNCTION_BUDGET, Cause.SPLIT_ZERO_START_RANGE):
        return True
    return finding.cause is Cause.PIPELINE_BUDGET and all(
        wgmma.merged_into is None for wgmma in model.wgmmas
    )


def serialize(model: GmmaFunctionModel) -> None:
    """Each wgmma.mma_async in its own group: arrive, wgmma, commit, wait 0, as ptxas
    emits it; the program's own fences, commits and waits go (every group is complete
    where it is issued, so they would only add empty groups and redundant waits).

    Each of those is `.sync.aligned`: ptxas keeps the warp synchronization it implies
    (a `WARPSYNC.ALL`) where the threads may have diverged, and without it ptxas wraps the
    divergent region in BSSY/BSYNC instead. So a run of them on a divergent path that no
    wgmma's own arrive, commit and wait stands beside becomes a `bar.warp.sync -1`.

    Where ptxas's own serialization computes something else than one group per wgmma,
    the PTX says what it computes: a wgmma under a divergent guard becomes a branch around
    its group, a fence before a divergent branch to a wgmma stays, a wgmma merged into an
    identical one becomes copies of its results, and a wgmma whose registers a later one
    of its stage lists at other positions runs on copies."""
    guarded = [w.op for w in model.wgmmas if model.has_divergent_guard(w.op)]
    for op in reversed(guarded):
        _sink_past_independent_wgmmas(model, op)
    displaced = _displaced_pairs(model)
    for write in _in_flight_writes(model):
        block = write.parent_block()
        assert block is not None
        block.insert_op_after(_warp_sync(write), write)
    dropped = [
        op
        for op in model.instructions
        if isinstance(op, _PROGRAM_SYNC) and not _fences_divergent_wgmma(model, op)
    ]
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
        if _copies_merged(wgmma):
            continue
        _insert_before(op, _arrive(op))
        commit = WarpgroupCommitBatchOp("_warpgroup.commit_batch")
        commit.location = op.location
        wait = _wait(op)
        block.insert_ops_after([commit, wait], op)
    for early, late in displaced:
        _run_on_copies(model, early, late)
    for op in guarded:
        if op.parent is not None:
            _branch_around_group(op)


_PROGRAM_SYNC = WgmmaFenceOp | WgmmaCommitGroupOp | WgmmaWaitGroupOp


def _sink_past_independent_wgmmas(
    model: GmmaFunctionModel, op: WgmmaMmaAsyncOp
) -> None:
    """Move a wgmma under a divergent guard past the unguarded wgmma that follow it and
    share none of its registers, so that another group's arrive comes before the branch
    around it. Without one, ptxas sinks the uniform descriptor arithmetic into that branch
    and computes it in vector registers: `F @d:M0 M1 C W0` (`predication_089`, 27 SASS
    instructions, C7519) is 33 as `@!d bra; F M0 C W0; F M1 C W0` and 26 as
    `F M1 C W0; @!d bra; F M0 C W0`, with no message. Within a stage the wgmma are
    asynchronous to each other, so independent ones may go in either order."""
    last: Operation = op
    after = op.next_op
    while (
        isinstance(after, WgmmaMmaAsyncOp)
        and not model.has_divergent_guard(after)
        and _independent(op, after)
    ):
        last, after = after, after.next_op
    if last is op:
        return
    block = op.parent_block()
    assert block is not None
    moved = [*pragmas_of(op), op]  # its `next` pragmas go with it
    for each in moved:
        each.detach()
    block.insert_ops_after(moved, last)


def _independent(first: InstructionOp, second: InstructionOp) -> bool:
    """Whether neither instruction writes a register the other reads or writes."""
    first_defs, second_defs = set(first.defs()), set(second.defs())
    return not (
        first_defs & {*second.uses(), *second_defs} or second_defs & set(first.uses())
    )


def _branch_around_group(op: WgmmaMmaAsyncOp) -> None:
    """`@!p bra skip; arrive; wgmma; commit; wait; skip:` for the serialized group of a
    wgmma under the divergent guard `@p`: the branch ptxas makes of the guard. Left
    guarded, its group's commit and wait run on threads where it does not, and ptxas
    serializes the PTX again (C7519) with a dummy HGMMA, DEPBAR and ARRIVE for it
    (`predicated_wgmma_divergent`, `F @d:M0 C W0`: 22 SASS instructions from the
    original, 22 and C7519 from the guarded group, 19 and no message from the branch).

    When the next group's wgmma adds to the same accumulators, the branch leaves out the
    wait (`_feeds_next_group`)."""
    arrive, wait = start_of(op).prev_op, _own_wait(op)
    assert isinstance(arrive, WarpgroupArriveOp)
    assert wait is not None
    assert wait.next_op is not None
    guard = op.guard_register
    assert guard is not None
    negated = op.guard_negated is not None
    block = arrive.parent_block()
    assert block is not None
    join = wait.next_op
    if _feeds_next_group(op, join):
        wait.detach()
        wait.erase()
    body = block.split_before(arrive)
    rest = body.split_before(join)
    skip = BraOp("bra", guard=guard, guard_negated=not negated, successors=[rest, body])
    skip.location = op.location
    block.add_op(skip)
    body.add_op(FallthroughOp(rest))
    op.drop_guard()


def _feeds_next_group(op: WgmmaMmaAsyncOp, join: Operation) -> bool:
    """Whether the group after the branch around `op`'s (which starts at `join`) is an
    unguarded wgmma that adds to the same accumulators, with its own wait.

    Its arrive (a `wgmma.fence`) orders the two wgmma's accesses to the accumulators, and
    its `wait 0` also waits for the guarded group, so a wait in the branch would only add
    a `WARPGROUP.DEPBAR` there: `F @!d:M0 M0 C W0` (`predication_103`) makes 25 SASS
    instructions and C7519 as it is, 26 with the wait in the branch, 25 and no message
    without it (and so with an `m64n8k8.tf32` wgmma after an `m64n8k16.f16` one)."""
    if not isinstance(join, WarpgroupArriveOp):
        return False
    after = join.next_op
    while after is not None and not isinstance(after, InstructionOp):
        after = after.next_op  # the next wgmma's `next` pragmas
    if not isinstance(after, WgmmaMmaAsyncOp) or after.guard_register is not None:
        return False
    return (
        list(after.accumulators) == list(op.accumulators)
        and not set(op.accumulators) & set(after.inputs)
        and _own_wait(after) is not None
    )


def _own_wait(op: WgmmaMmaAsyncOp) -> WarpgroupWaitOp | None:
    """The wait of the group `serialize` gave `op` (arrive, `op`, commit, wait), where the
    wgmma has one (not one merged into an identical wgmma)."""
    commit = op.next_op
    wait = commit.next_op if isinstance(commit, WarpgroupCommitBatchOp) else None
    return wait if isinstance(wait, WarpgroupWaitOp) else None


def _in_flight_writes(model: GmmaFunctionModel) -> list[Operation]:
    """The writes of an accumulator register that a wgmma in flight reads (the cause of
    C7515), on paths all threads take, each to be followed by a `bar.warp.sync -1`.

    ptxas waits before such a write and keeps it in the accumulator's register. Written
    after the serialized PTX's wait it is a new value, which ptxas hoists above the HGMMA
    into another register and copies back for a vector store (`positions_015`,
    `F M0 M0 MOV0 C W0`: 24 SASS instructions for 21). The barrier after it keeps it
    below the wait, in the accumulator's register, and costs nothing: in converged code
    ptxas makes a NOP of it (21). On a divergent path it would be a `WARPSYNC.ALL`."""
    writes: list[Operation] = []
    for finding in model.findings:
        write = finding.related
        if finding.code is not Code.ACCUMULATOR_DEFINED or write is None:
            continue
        block = write.parent_block()
        assert block is not None
        if write not in writes and not model.divergence.divergent_dependence(block):
            writes.append(write)
    return writes


def _copies_merged(wgmma: Wgmma) -> bool:
    """A wgmma that ptxas merges into an identical earlier one (both start from zero, same
    inputs, same block and fence region) becomes copies of that one's results, as ptxas
    computes it: `four_zeroed_m64n128_accumulators`, four identical m64n128 wgmma, is 144
    SASS instructions from the program's one stage, 146 when each is serialized, and 90
    from one wgmma and copies. Kept as a wgmma when the earlier one's registers are
    written again before it (the copies would read the new values)."""
    source = wgmma.merged_into
    if source is None or _written_between(source, wgmma):
        return False
    op = wgmma.op
    block = op.parent_block()
    assert block is not None
    copies = [
        _copy(target, register, op)
        for target, register in zip(
            wgmma.accumulators, source.accumulators, strict=True
        )
        if target is not register
    ]
    block.insert_ops_before(copies, op)
    op.detach()
    op.erase()
    return True


def _written_between(source: Wgmma, merged: Wgmma) -> bool:
    registers = set(source.accumulators)
    current = source.op.next_op
    while current is not None and current is not merged.op:
        if isinstance(current, InstructionOp) and registers & set(current.defs()):
            return True
        current = current.next_op
    return current is None


def _displaced_pairs(model: GmmaFunctionModel) -> list[tuple[Wgmma, Wgmma]]:
    """The wgmma that open a stage and are followed, in the same stage, by a wgmma that
    lists some of their accumulator registers, each at another position (a permuted or
    shifted list, C7511).

    ptxas keeps an accumulator register at one position: it gives the later wgmma copies
    of its registers taken where the stage starts, so the later one computes on the values
    from before the earlier one (`F M0 CP0 M0.p C W0`: the `M0.p` reads the loaded
    values, the copy between reads the first wgmma's result). Only the simple shape is
    taken: the fence, the earlier wgmma, instructions that write none of the two lists'
    registers, the later wgmma, in one block. An earlier wgmma that starts from zero is
    left out: ptxas then drops the loads before the stage as dead and feeds the later one
    registers nothing defines (`overlap_030`, `F M0.z M0.h C W0`), a value flow no PTX
    writes; serialized, the later one reads the earlier one's results, which is no
    larger."""
    pairs: list[tuple[Wgmma, Wgmma]] = []
    for early in model.wgmmas:
        if (
            early.merged_into is not None
            or early.starts_from_zero
            or not isinstance(early.op.prev_op, WgmmaFenceOp)
        ):
            continue
        late = _next_wgmma_of_stage(model, early)
        if late is None:
            continue
        shared = set(early.accumulators) & set(late.accumulators)
        if shared and all(
            list(early.accumulators).index(register)
            != list(late.accumulators).index(register)
            for register in shared
        ):
            pairs.append((early, late))
    return pairs


def _next_wgmma_of_stage(model: GmmaFunctionModel, early: Wgmma) -> Wgmma | None:
    """The wgmma after `early` in its block, when nothing between them waits, fences,
    or writes a register of either's accumulator list."""
    wgmma_of = {wgmma.op: wgmma for wgmma in model.wgmmas}
    current = early.op.next_op
    while current is not None:
        if isinstance(current, WgmmaMmaAsyncOp):
            late = wgmma_of.get(current)
            if (
                late is None
                or late.merged_into is not None
                or len(set(late.accumulators)) != len(late.accumulators)
            ):
                return None
            registers = {*early.accumulators, *late.accumulators}
            between = early.op.next_op
            while between is not current:
                assert isinstance(between, InstructionOp)
                if registers & set(between.defs()):
                    return None
                between = between.next_op
            return late
        if not isinstance(current, InstructionOp) or isinstance(
            current, _PROGRAM_SYNC | CallOp
        ):
            return None
        current = current.next_op
    return None


def _run_on_copies(model: GmmaFunctionModel, early: Wgmma, late: Wgmma) -> None:
    """Serialized, the earlier wgmma of a displaced pair runs on fresh copies of its
    registers (taken before its arrive), so that the later one still finds the values from
    before it: ptxas's value flow, with no copies around the later one. The reads between
    the two read the copies; after the earlier one's wait its results go back to the
    registers the later one does not redefine."""
    func = model.func
    shared = set(late.accumulators)
    copies = [_fresh_register(func, register) for register in early.accumulators]
    renamed = dict(zip(early.accumulators, copies, strict=True))
    wait = early.op.next_op.next_op if early.op.next_op else None
    assert isinstance(wait, WarpgroupWaitOp)
    block = early.op.parent_block()
    assert block is not None
    arrive = early.op.prev_op
    assert isinstance(arrive, WarpgroupArriveOp)
    block.insert_ops_before(
        [_copy(copy, register, early.op) for register, copy in renamed.items()],
        arrive,
    )
    block.insert_ops_after(
        [
            _copy(register, copy, early.op)
            for register, copy in renamed.items()
            if register not in shared
        ],
        wait,
    )
    _rename(early.op, renamed)
    current = wait.next_op
    while current is not None and current is not late.op.prev_op:
        _rename(current, {r: c for r, c in renamed.items() if r in shared})
        current = current.next_op


def _rename(op: Operation, renamed: dict[SSAValue, SSAValue]) -> None:
    op.operands = [renamed.get(operand, operand) for operand in op.operands]


def _fresh_register(func: FuncOp, like: SSAValue) -> SSAValue:
    declaration = like.owner
    assert isinstance(declaration, RegOp)
    taken = {reg.ptx_name for reg in func.registers()}
    index = 0
    while f"{_COPY_PREFIX}{index}" in taken:
        index += 1
    return func.add_register(declaration.ptx_type.data, _COPY_PREFIX, index).result


_COPY_PREFIX = "%gmma_copy"


def _copy(target: SSAValue, source: SSAValue, near: Operation) -> GenericInstructionOp:
    declaration = target.owner
    assert isinstance(declaration, RegOp)
    copy = GenericInstructionOp(
        f"mov.{declaration.ptx_type.data}", [DEF_SLOT, USE_SLOT], [target, source]
    )
    copy.location = near.location
    return copy


def _fences_divergent_wgmma(model: GmmaFunctionModel, op: Operation) -> bool:
    """Whether `op` is a fence at the end of its block whose branch leads straight to a
    wgmma on a divergent path (`F if.d{ M0 } C W0`), or one whose next GMMA instruction
    is a wgmma under a divergent guard, which becomes such a branch. It stays beside that
    wgmma's own arrive: ptxas makes a `WARPGROUP.ARRIVE` of it before the branch, and
    without it sinks the uniform descriptor arithmetic into the branch and computes it in
    vector registers (IADD3, IMAD.X, two R2UR for one UIADD3): 20 SASS instructions with
    it, 26 without, 23 for the original (`predication_078`); `F @d:M0 C W0` with the
    descriptor computed by an `add.s64` likewise makes 20 with it, 26 without, 23 for the
    original."""
    if not isinstance(op, WgmmaFenceOp):
        return False
    block = op.parent_block()
    assert block is not None
    after = op.next_op
    while after is not None and not isinstance(after, _PROGRAM_SYNC | WgmmaMmaAsyncOp):
        after = after.next_op
    if after is not None:
        return (
            isinstance(after, WgmmaMmaAsyncOp)
            and model.has_divergent_guard(after)
            and not model.has_divergent_guard(op)
        )
    cfg = model.cfg
    dependence = model.divergence.divergent_dependence(block)
    for successor in cfg.successors[cfg.index[block]]:
        target = cfg.blocks[successor]
        first = target.first_op
        while first is not None and not isinstance(
            first, _PROGRAM_SYNC | WgmmaMmaAsyncOp
        ):
            first = first.next_op
        if (
            isinstance(first, WgmmaMmaAsyncOp)
            and model.divergence.divergent_dependence(target) & ~dependence
        ):
            return True
    return False


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
