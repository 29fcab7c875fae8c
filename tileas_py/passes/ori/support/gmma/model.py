"""What ptxas 13.5's GMMA phases decide for one function: the pipeline dataflow and rules.

`OriPropagateGmma` (phase 85) and `FixupGmmaSequence` (phase 87) both start from a
`GmmaFunctionModel`: the function's `wgmma.mma_async` instructions with their accumulator
and input registers, and a forward dataflow over the CFG of the *pipeline state* at each
program point:

- which wgmma have an instance still in flight: issued but not committed (`open`), or
  committed `k` groups ago (`ages[k]`), as bit vectors over the function's wgmma;
- whether a user `wgmma.wait_group` ran on some path (from then on ptxas leaves accumulator
  reads to the program: a read of an in-flight accumulator is a reason to serialize, not a
  place to inject a wait);
- the in-flight wgmma whose accumulators were read without a wait, the calls met while a
  group was in flight (an injected wait cannot sink past a call), the in-flight wgmma
  whose accumulators a non-wgmma instruction redefined, and whether a fence in a divergent
  block closed an open group.

Joins are bitwise unions (a may-analysis: in flight on some path), so each block is
processed once per round and each round is linear in the function. A round runs the
transfer functions to a fixed point, then walks the blocks once more from their converged
states to report what the transfer functions find there. The decisions that change the state
(the waits ptxas injects) are fixed during a round and re-derived from the converged states
until they no longer change.

The rules are ptxas 13.5's behaviour as observed on the corpus of `test/ptxas/gmma/corpus`
and on generated kernels (docs/fidelity.md lists what is modelled and what is not):

- a non-wgmma instruction that reads an accumulator of an in-flight wgmma gets a
  `wgmma.wait_group 0` injected before it (C7517, at its line), unless a user wait already
  ran (C7514, the program manages the pipeline) or it sits between two unpredicated wgmma of
  one basic block with no fence or commit in between and defines nothing the next one reads
  (C7514: splitting the stage there would need an arrive ptxas does not insert);
- a function exit with a committed group in flight (or an open one whose accumulators were
  read) gets a wait before the `ret` (C7517), or serializes when the exit or the group's
  fence is on a divergent path (C7518);
- a commit whose open wgmma depend on other divergent branches than the commit (a wgmma
  under a `%tid`-dependent predicate or branch, a commit under one, a fence and wgmma in a
  loop with a divergent trip count) needs an arrive on a divergent path (C7519);
- an opaque call (`-c`, or an `.extern .func`) followed by a wgmma or a commit with no
  fence in between needs an arrive after the call (C7519); any other opaque call in a
  function that issues wgmma serializes it (C7509); a whole-program call of a `.func` that
  issues wgmma serializes the caller (C7510);
- a non-wgmma redefinition of an accumulator between the commit and the wait that drains a
  wgmma whose accumulator input is live (C7515, at the wait), or of the accumulator of a
  scale-d-0 wgmma that a later wgmma reads (C7511, at the first wgmma); A-fragment
  registers redefined inside a stage (C7513);
- the accumulators in flight against the register limit (C7511, C7512, the fatal C7602),
  and each accumulator register at one position (C7511): see `gmma.registers`;
- `-O0` and `-g` serialize every wgmma (C7511 and a C7517 per wgmma);
- identical wgmma (same operands, both with zero accumulator input, no fence in between)
  are merged: the second becomes a copy of the first's accumulators.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator

from xdsl.ir import Block, Operation, SSAValue

from tileas_py.dialects.ori.function import FallthroughOp, FuncOp
from tileas_py.dialects.ori.instructions import (
    CallOp,
    ExitOp,
    GenericInstructionOp,
    InstructionOp,
    RetOp,
    WarpgroupArriveOp,
    WarpgroupCommitBatchOp,
    WarpgroupWaitOp,
    WgmmaCommitGroupOp,
    WgmmaFenceOp,
    WgmmaMmaAsyncOp,
    WgmmaWaitGroupOp,
)
from tileas_py.passes.ori.support.gmma import registers
from tileas_py.passes.ori.support.gmma.findings import (
    Cause,
    Code,
    Finding,
    GmmaOptions,
    copy_finding,
)
from tileas_py.passes.ori.support.gmma.program import (
    GMMA_OPS,
    CallKind,
    FunctionFacts,
    ModuleFunctions,
    Wgmma,
    bit_indices,
    is_removable,
    line_of,
)
from tileas_py.passes.ori.support.gmma.state import AGES, PipelineState, StageTail


class GmmaFunctionModel(FunctionFacts):
    """Everything phases 85 and 87 decide for one function (see the module docstring)."""

    def __init__(
        self, func: FuncOp, functions: ModuleFunctions, options: GmmaOptions
    ) -> None:
        super().__init__(func, functions, options.compile_only, options.inlines_calls)
        self.options = options
        self.findings: list[Finding] = []
        self._emitted: list[Finding] = []
        """Where the transfer functions put their findings (see `_transfer_block`)."""
        self.injections: dict[Operation, Finding] = {}
        """Where waits go (before the key op), with the finding that put them there."""
        self.serialization: Finding | None = None
        self.fatal: Finding | None = None
        self.max_in_flight = 0
        """The most accumulator registers in flight at one point (live ranges)."""
        self.max_in_flight_op: Operation | None = None
        if not self.has_gmma_work():
            return
        self.analyse()
        self.input_accumulators = 0
        """Accumulators a live wgmma reads as its input, with a value defined before it."""
        for wgmma in self.wgmmas:
            if wgmma.op not in self.dead and wgmma.reads_accumulators:
                self.input_accumulators |= (
                    wgmma.accumulator_bits & self.defined_before.get(wgmma, 0)
                )
        self.planned: dict[Operation, Finding] = {}
        self.fragment_writers: dict[int, Operation] = {}
        """The last non-wgmma instruction seen redefining an in-flight A fragment."""
        self.zero_writers: dict[int, Wgmma] = {}
        """The last wgmma seen that starts from zero, by accumulator register number."""
        self.writers: dict[int, Operation] = {}
        """The last non-wgmma instruction seen redefining an in-flight accumulator, by
        register number (for explanations)."""
        self._run()

    # -- the dataflow ---------------------------------------------------------------------

    def _run(self) -> None:
        if self.options.serializes_everything:
            self._serialize_everything()
            return
        for _ in range(6):
            self._propagate()
            injections = {
                f.op: f
                for f in self.findings
                if f.op is not None
                and f.code in (Code.WAIT_INJECTED, Code.WAIT_IN_DIVERGENT_PATH)
            }
            stable = injections.keys() == self.planned.keys()
            self.planned = injections
            if stable:
                break
        self.injections = self.planned
        moved = registers.accumulator_position_finding(self)
        if moved is not None:
            self.findings.append(moved)
        self._check_loop_carried_zero_starts()
        self._drop_waits_after_divergence()
        self._drop_waits_after_opaque_calls()
        self._check_registers()
        self._choose_serialization()

    def _propagate(self) -> None:
        """The transfer functions to a fixed point, then one reporting walk over the
        converged states."""
        self.block_states = self._solve()
        self.findings = self._report()

    def _solve(self) -> list[PipelineState | None]:
        """The state at the start of each block (None where no path reaches it); the
        findings the transfer functions emit on the way are dropped."""
        count = len(self.cfg.blocks)
        states: list[PipelineState | None] = [None] * count
        if count:
            states[0] = PipelineState()
        # A worklist in reverse postorder (a heap of ranks): each block is processed again
        # only when the state flowing into it grew.
        rank = {b: i for i, b in enumerate(self.cfg.reverse_postorder)}
        outs: list[PipelineState | None] = [None] * count
        self.block_outs = outs
        worklist = list(range(len(rank)))
        queued = set(self.cfg.reverse_postorder)
        while worklist:
            index = self.cfg.reverse_postorder[heapq.heappop(worklist)]
            queued.discard(index)
            state = states[index]
            if state is None:
                continue
            out, _ = self._transfer_block(index, state.copy())
            outs[index] = out
            for successor in self.cfg.successors[index]:
                target = states[successor]
                if target is None:
                    states[successor] = out.copy()
                    changed = True
                else:
                    changed = target.join(out)
                if changed and successor not in queued:
                    heapq.heappush(worklist, rank[successor])
                    queued.add(successor)
        return states

    def _report(self) -> list[Finding]:
        """The findings of one walk over the blocks from their converged states, each
        placed in ptxas's walk order."""
        findings: list[Finding] = []
        for index, state in enumerate(self.block_states):
            if state is not None:
                _, emitted = self._transfer_block(index, state.copy())
                findings.extend(self._placed(f) for f in emitted)
        return findings

    def _placed(self, finding: Finding) -> Finding:
        finding.order = self.walk_order.get(
            finding.op or finding.culprit or self.func, 0
        )
        if finding.op is not None and finding.order == 0 and finding.culprit:
            finding.order = self.walk_order.get(finding.culprit, 0)
        return finding

    def _transfer_block(
        self, index: int, state: PipelineState
    ) -> tuple[PipelineState, list[Finding]]:
        """The state at the end of a block, and the findings its instructions emit."""
        emitted: list[Finding] = []
        self._emitted = emitted
        for op in self.block_ops[index]:
            planned = self.planned.get(op)
            if planned is not None and planned.culprit is not op:
                # A wait hoisted here (above a divergent branch or a call).
                if state.in_flight:
                    self._emit(copy_finding(planned))
                state.drain()
            if isinstance(op, InstructionOp) and op not in self.dead:
                self._step(op, state)
            elif isinstance(op, FallthroughOp) and op.dest is None:
                self._exit(op, state)
        return state, emitted

    def _emit(self, finding: Finding) -> None:
        """A transfer function's finding, kept by the reporting walk (`_report`)."""
        self._emitted.append(finding)

    def _step(self, op: InstructionOp, state: PipelineState) -> None:
        if type(op) is GenericInstructionOp:
            # Most instructions, none of the kinds below (by exact type: a chain of
            # `isinstance` on op classes, abstract classes all, was a tenth of the walk).
            self._access(op, state)
            return
        if isinstance(op, GMMA_OPS):
            branches = self._op_dependence(op)
            if branches:
                state.tainted = True
                state.tainted_by |= branches
            if op.guard_register is not None and not isinstance(op, WgmmaMmaAsyncOp):
                # A guarded fence, commit or wait may not run: both states flow on.
                skipped = state.copy()
                self._sync(op, state)
                state.join(skipped)
                return
        wgmma = self.wgmma_of.get(op)
        if wgmma is not None:
            if wgmma.merged_into is not None:
                self._merged_copy(op, wgmma, state)
            else:
                self._issue(op, wgmma, state)
            return
        if isinstance(
            op,
            WgmmaCommitGroupOp
            | WarpgroupCommitBatchOp
            | WgmmaWaitGroupOp
            | WarpgroupWaitOp
            | WgmmaFenceOp
            | WarpgroupArriveOp,
        ):
            self._sync(op, state)
        elif isinstance(op, CallOp):
            self._call(op, state)
        elif isinstance(op, RetOp | ExitOp):
            self._exit(op, state)
        else:
            self._access(op, state)

    def _sync(self, op: InstructionOp, state: PipelineState) -> None:
        if isinstance(op, WgmmaCommitGroupOp | WarpgroupCommitBatchOp):
            self._commit(op, state)
        elif isinstance(op, WgmmaWaitGroupOp | WarpgroupWaitOp):
            self._wait(op, state)
        else:
            self._fence(op, state)

    def _issue(self, op: InstructionOp, wgmma: Wgmma, state: PipelineState) -> None:
        self._check_arrive(op, wgmma, state)
        clobbered = state.zero_clobbered & wgmma.accumulator_bits
        if not wgmma.starts_from_zero and clobbered:
            number = next(bit_indices(clobbered))
            culprit = self.zero_writers.get(number, wgmma)
            if culprit.accumulator_bits & self.defined_before.get(culprit, 0):
                # ptxas names the wgmma that reads the rewritten register, unless the one
                # that started from zero had no value in its registers at all.
                culprit = wgmma
            self._emit(
                Finding(
                    Code.PIPELINE_REGISTERS,
                    culprit.line,
                    None,
                    Cause.CLOBBERED_ZERO_ACCUMULATOR,
                    culprit=culprit.op,
                    register=self.numbering.registers[number],
                    wgmma=wgmma,
                    related=self.writers.get(number),
                ),
            )
        self._check_fragment(op, wgmma, state)
        self._fragment_redefined(wgmma, state)
        state.zero_clobbered &= ~wgmma.accumulator_bits
        state.zero_outputs &= ~wgmma.accumulator_bits
        if wgmma.starts_from_zero:
            state.zero_outputs |= wgmma.accumulator_bits
            for number in bit_indices(wgmma.accumulator_bits):
                self.zero_writers[number] = wgmma
        state.open |= wgmma.bit
        state.registers |= wgmma.accumulator_bits
        state.issued_registers |= wgmma.accumulator_bits
        # A wgmma that takes the rewritten accumulator as its input restarts its range.
        state.clobbered &= ~wgmma.accumulator_bits
        state.surely = True
        state.unfenced |= wgmma.bit
        state.fragments |= wgmma.fragment_bits

    def _check_loop_carried_zero_starts(self) -> None:
        """A wgmma that starts from zero inside a loop (one ptxas does not unroll fully)
        keeps its accumulators as one live range around the loop (scale-d 0 does not cut
        it): when only part of them is live after it (the rest overwritten before any
        read, or never read), the range is split (C7511 at the wgmma)."""
        cfg = self.cfg
        live_out: list[int] | None = None
        cyclic: set[int] | None = None
        for wgmma in self.wgmmas:
            if not wgmma.starts_from_zero or wgmma.op in self.dead:
                continue
            if cyclic is None:
                cyclic = self._cyclic_blocks()
            index = cfg.index[self._block(wgmma.op)]
            if index not in cyclic or index in self.fully_unrolled:
                continue
            if live_out is None:
                live_out = self._live_out(self.dead)
            live = live_out[index]
            for op in reversed(self.block_instructions[index]):
                if op is wgmma.op:
                    break
                if op not in self.dead:
                    if op.guard_register is None:
                        live &= ~self.defs_bits[op]
                    live |= self.uses_bits[op]
            kept = live & wgmma.accumulator_bits
            if kept and kept != wgmma.accumulator_bits:
                self.findings.append(
                    Finding(
                        Code.PIPELINE_REGISTERS,
                        wgmma.line,
                        None,
                        Cause.SPLIT_ZERO_START_RANGE,
                        culprit=wgmma.op,
                        register=self.numbering.members(wgmma.accumulator_bits & ~kept)[
                            0
                        ],
                        wgmma=wgmma,
                        order=self.walk_order[wgmma.op],
                    )
                )
                return

    def _cyclic_blocks(self) -> set[int]:
        """The blocks on a cycle of the CFG (strongly connected components with an edge
        inside, by Kosaraju over the reverse postorder)."""
        cfg = self.cfg
        component: dict[int, int] = {}
        for root in cfg.reverse_postorder:
            if root in component:
                continue
            stack = [root]
            component[root] = root
            while stack:
                node = stack.pop()
                for predecessor in cfg.predecessors[node]:
                    if predecessor not in component:
                        component[predecessor] = root
                        stack.append(predecessor)
        return {
            index
            for index in component
            for successor in cfg.successors[index]
            if component.get(successor) == component[index]
        }

    def _check_fragment(
        self, op: InstructionOp, wgmma: Wgmma, state: PipelineState
    ) -> None:
        """A-fragment registers written by a wgmma in flight since the last fence (an f16
        accumulator fed back as A)."""
        if not wgmma.fragment_bits:
            return
        for other in self._members(state.unfenced & state.in_flight):
            shared = other.accumulator_bits & wgmma.fragment_bits
            if shared:
                self._emit(
                    Finding(
                        Code.INPUT_REDEFINED,
                        wgmma.line,
                        None,
                        Cause.FRAGMENT_FROM_ACCUMULATOR,
                        culprit=op,
                        register=self.numbering.members(shared)[0],
                        wgmma=other,
                    ),
                )
                return

    def _fragment_redefined(self, wgmma: Wgmma, state: PipelineState) -> None:
        """A wgmma reads A-fragment registers that a non-wgmma instruction redefined while
        a wgmma reading them was in flight (C7513, line 0): the two would need the
        fragment's old and new values at once."""
        stale = wgmma.fragment_bits & state.stale_fragments
        if not stale:
            return
        number = next(bit_indices(stale))
        owner = next(
            (
                w
                for w in self._members(state.in_flight)
                if w.fragment_bits >> number & 1
            ),
            wgmma,
        )
        self._emit(
            Finding(
                Code.INPUT_REDEFINED,
                0,
                None,
                Cause.FRAGMENT_REDEFINED,
                culprit=self.fragment_writers.get(number, wgmma.op),
                register=self.numbering.registers[number],
                wgmma=owner,
            ),
        )

    def _merged_copy(
        self, op: InstructionOp, wgmma: Wgmma, state: PipelineState
    ) -> None:
        source = wgmma.merged_into
        assert source is not None
        if source.bit & state.in_flight:
            self._inject(op, state, Cause.MERGED_COPY, wgmma=source)
        if wgmma.merged_across_commit:
            state.open |= source.bit
            state.registers |= source.accumulator_bits

    def _commit(self, op: InstructionOp, state: PipelineState) -> None:
        if state.open:
            branches = self._op_dependence(op)
            for wgmma in self._members(state.open):
                differs = self._dependence(wgmma) ^ branches
                if differs:
                    self._emit(
                        Finding(
                            Code.ARRIVE_IN_DIVERGENT_PATH,
                            line_of(self._arrive_point(op)),
                            None,
                            Cause.DIVERGENT_COMMIT,
                            culprit=op,
                            wgmma=wgmma,
                            branch=self._branch_of(differs),
                        ),
                    )
                    break
        # The commit itself is a member of the group, so that an empty group is in flight.
        ages = state.ages
        oldest = ages[-1] | ages[-2]
        state.ages = [state.open | self.commit_bits[op], *ages[:-2], oldest]
        state.open = 0
        state.surely = True
        state.user_pending = True

    def _arrive_point(self, commit: InstructionOp) -> InstructionOp:
        """Where ptxas puts the arrive a divergent commit needs: before the first wgmma
        of the commit's straight-line run (back to its block's start or a guarded GMMA
        instruction), else before the commit (a divergently guarded commit is a branch
        around itself). ptxas's serialized code branches around a guarded wgmma, uniform
        guard or not (`@!P1 BRA` over its ARRIVE, HGMMA and DEPBAR), so the run after it
        starts at the commit (`F @d:M0 @u:M0 C W0`, `predication_125`: ptxas names the
        commit)."""
        point = commit
        previous = None if self._guard_dependence(commit) else commit.prev_op
        while previous is not None:
            if isinstance(previous, InstructionOp) and previous not in self.dead:
                if isinstance(previous, GMMA_OPS) and (
                    previous.guard_register is not None
                ):
                    break
                if isinstance(previous, WgmmaMmaAsyncOp):
                    point = previous
                elif isinstance(previous, WgmmaCommitGroupOp | WgmmaFenceOp):
                    break
            previous = previous.prev_op
        return point

    def _wait(self, op: InstructionOp, state: PipelineState) -> None:
        assert isinstance(op, WgmmaWaitGroupOp | WarpgroupWaitOp)
        pending = op.pending
        drained = 0
        for age in range(min(pending, AGES), AGES):
            drained |= state.ages[age]
            state.ages[age] = 0
        if pending == 0:
            drained |= state.open
            state.open = 0
        # ptxas tracks accumulator registers rather than groups: a drained group frees its
        # registers even when a later group in flight (of another wgmma) writes them too.
        for wgmma in self._members(drained & ~state.in_flight):
            state.registers &= ~wgmma.accumulator_bits
        state.zero_outputs &= state.registers

        if isinstance(op, WgmmaWaitGroupOp):
            state.waited = True
            if state.clobbered and drained:
                number = next(bit_indices(state.clobbered))
                self._emit(
                    Finding(
                        Code.ACCUMULATOR_DEFINED,
                        line_of(op),
                        None,
                        Cause.CLOBBERED_INPUT_ACCUMULATOR,
                        culprit=op,
                        register=self.numbering.registers[number],
                        wgmma=self._owner(number),
                        related=self.writers.get(number),
                    ),
                )
                state.clobbered = 0
            if pending == 0:
                state.user_pending = False
        state.needed &= state.in_flight
        if not state.in_flight:
            state.surely = False
            state.calls = 0
            state.fragments = 0
            state.stale_fragments = 0
            if not self._op_dependence(op):
                # A wait on a divergent path leaves the pipeline divergent: where the
                # paths join, the group is drained on some threads only.
                state.tainted = False
                state.tainted_by = 0

    def _owner(self, number: int) -> Wgmma | None:
        """A live wgmma with this register among its accumulators."""
        for wgmma in self.wgmmas:
            if wgmma.accumulator_bits >> number & 1 and wgmma.op not in self.dead:
                return wgmma
        return None

    def _fence(self, op: InstructionOp, state: PipelineState) -> None:
        state.unfenced = 0
        state.fenced = True
        state.fence_dependence = self._op_dependence(op)

    def _check_arrive(
        self, op: InstructionOp, wgmma: Wgmma, state: PipelineState
    ) -> None:
        """A wgmma needs the arrive of a fence that all its threads ran: ptxas inserts one
        where the last fence depends on a divergent branch (or guard) the wgmma does not,
        or, for a divergent wgmma, where no fence ran before it (C7519 at the wgmma)."""
        dependence = self._dependence(wgmma)
        differs = state.fence_dependence & ~dependence
        if not differs and (state.fenced or not dependence):
            return
        self._emit(
            Finding(
                Code.ARRIVE_IN_DIVERGENT_PATH,
                wgmma.line,
                None,
                Cause.DIVERGENT_ARRIVE,
                culprit=op,
                wgmma=wgmma,
                branch=self._branch_of(differs or dependence),
            ),
        )

    def _call(self, op: CallOp, state: PipelineState) -> None:
        kind = self.calls[op]
        if kind is not CallKind.UNRESOLVED and state.in_flight:
            state.calls |= 1 << self.order[op]
        if kind is CallKind.WGMMA:
            self._emit(
                Finding(
                    Code.CALL_CROSSES_PIPELINE,
                    line_of(op),
                    None,
                    Cause.WGMMA_CALLEE,
                    culprit=op,
                ),
            )
        elif kind is CallKind.OPAQUE:
            self._opaque_call(op)
        self._access(op, state)

    def _opaque_call(self, op: CallOp) -> None:
        follower = self._next_gmma_op(op)
        if isinstance(follower, WgmmaMmaAsyncOp | WgmmaCommitGroupOp):
            self._emit(
                Finding(
                    Code.ARRIVE_IN_DIVERGENT_PATH,
                    line_of(follower),
                    None,
                    Cause.CALL_IN_STAGE,
                    culprit=op,
                    related=follower,
                ),
            )
        elif self.wgmmas:
            self._emit(
                Finding(
                    Code.EXTERN_CALL, line_of(op), None, Cause.OPAQUE_CALL, culprit=op
                ),
            )

    def _next_gmma_op(self, op: Operation) -> Operation | None:
        """The first wgmma, commit or fence after `op` on a forward path (the first one
        found in program order when several paths lead on)."""
        seen: set[int] = set()
        block = self._block(op)
        index = self.cfg.index[block]
        start: Operation | None = op.next_op
        stack: list[tuple[int, Operation | None]] = [(index, start)]
        found: list[Operation] = []
        while stack:
            index, current = stack.pop()
            while current is not None:
                if (
                    isinstance(
                        current, WgmmaMmaAsyncOp | WgmmaCommitGroupOp | WgmmaFenceOp
                    )
                    and current not in self.dead
                ):
                    found.append(current)
                    break
                current = current.next_op
            else:
                for successor in self.cfg.successors[index]:
                    if successor not in seen:
                        seen.add(successor)
                        stack.append((successor, self.cfg.blocks[successor].first_op))
        if not found:
            return None
        stage_ops = [f for f in found if not isinstance(f, WgmmaFenceOp)]
        if not stage_ops:
            return None
        return min(stage_ops, key=lambda f: self.order[f])

    def _access(self, op: InstructionOp, state: PipelineState) -> None:
        uses = self.uses_bits[op]
        defs = self.defs_bits[op]
        stale = defs & state.fragments
        if stale:
            state.stale_fragments |= stale
            for number in bit_indices(stale):
                self.fragment_writers[number] = op
        if not (uses | defs) & self.accumulator_bits:
            return
        if state.in_flight:
            self._read(op, uses, defs, state)
        if op.guard_register is None and defs & self.accumulator_bits:
            # An in-flight value of a wgmma that started from zero is rewritten: a later
            # wgmma reading it cannot share the registers (C7511).
            written = defs & state.zero_outputs
            if written:
                state.zero_clobbered |= written
                for number in bit_indices(written):
                    self.writers.setdefault(number, op)
            # An accumulator register that some wgmma reads as its input is rewritten while a
            # group is in flight: the accumulator live ranges are broken (C7515 at the
            # program's next wait that drains a group).
            clobbered = defs & self.input_accumulators & state.issued_registers
            if clobbered and state.in_flight:
                state.clobbered |= clobbered
                for number in bit_indices(clobbered):
                    self.writers.setdefault(number, op)
        if defs and not defs & self._in_flight_accumulators(state):
            state.zero_clobbered &= ~defs

    def _in_flight_accumulators(self, state: PipelineState) -> int:
        return state.registers

    def _read(
        self,
        op: InstructionOp,
        uses: int,
        defs: int,
        state: PipelineState,
    ) -> None:
        """A non-wgmma instruction touching accumulator registers while a group is in
        flight: the accumulators of in-flight wgmma, and registers whose value a later
        wgmma takes as its accumulator (ptxas tracks their live ranges too)."""
        in_flight_registers = self._in_flight_accumulators(state)
        reads_in_flight = uses & in_flight_registers
        # Live ranges that only lead into a later wgmma count where a group is in flight on
        # every path, and not once the program waits for itself.
        reads_future = 0
        if state.surely and not state.waited:
            reads_future = uses & self.flows_into_wgmma[op] & ~in_flight_registers
        if not reads_in_flight and not reads_future:
            return
        register = self.numbering.members(reads_in_flight or reads_future)[0]
        wgmma = next(
            (w for w in self._members(state.in_flight) if w.accumulator_bits & uses),
            None,
        )
        stage = self._stage_around(op)
        if stage is not None:
            self._read_inside_stage(
                op,
                stage,
                reads_in_flight=reads_in_flight,
                reads_future=reads_future,
                defs=defs,
                state=state,
                register=register,
                wgmma=wgmma,
            )
            return
        self._read_outside_stage(op, state, register, wgmma)

    def _read_outside_stage(
        self,
        op: InstructionOp,
        state: PipelineState,
        register: SSAValue,
        wgmma: Wgmma | None,
    ) -> None:
        # ptxas leaves the read to the program once a wait_group came before it (in layout
        # order); in a loop it unrolls, the copies after the first come after the loop's
        # own wait, so the read is both managed and in need of a wait.
        managed = self.order[op] > self.first_wait
        unrolled = state.waited and self.cfg.index[self._block(op)] in self.unrolled
        if managed or unrolled:
            state.needed |= state.in_flight
            self._emit(
                Finding(
                    Code.ACCUMULATOR_READ,
                    0,
                    None,
                    Cause.MANAGED_READ,
                    culprit=op,
                    register=register,
                    wgmma=wgmma,
                ),
            )
            if managed:
                return
        self._inject(op, state, Cause.READ, register=register, wgmma=wgmma)

    def _read_inside_stage(
        self,
        op: InstructionOp,
        stage: StageTail,
        *,
        reads_in_flight: int,
        reads_future: int,
        defs: int,
        state: PipelineState,
        register: SSAValue,
        wgmma: Wgmma | None,
    ) -> None:
        """Between two unpredicated wgmma of one block with no fence or commit between:
        splitting the stage there needs an arrive before the next wgmma, which ptxas only
        inserts when this instruction defines an accumulator or something it reads."""
        writes_accumulator = bool(defs & self.accumulator_bits)
        if reads_in_flight:
            rewrites_live_input = any(
                w.accumulator_bits & defs and not w.scale_zero
                for w in self._members(state.in_flight)
            )
            if defs & stage.next_reads or rewrites_live_input:
                self._inject(op, state, Cause.READ, register=register, wgmma=wgmma)
                return
            state.needed |= state.in_flight
            self._emit(
                Finding(
                    Code.ACCUMULATOR_READ,
                    0,
                    None,
                    Cause.MIDSTAGE_READ,
                    culprit=op,
                    register=register,
                    wgmma=wgmma,
                ),
            )
            return
        if writes_accumulator:
            self._inject(op, state, Cause.READ, register=register, wgmma=wgmma)
            return
        if reads_future & stage.accumulators:
            state.needed |= state.in_flight
            self._emit(
                Finding(
                    Code.ACCUMULATOR_READ,
                    line_of(stage.fence) if stage.fence is not None else 0,
                    None,
                    Cause.MIDSTAGE_READ,
                    culprit=op,
                    register=register,
                    wgmma=stage.following[0],
                ),
            )

    def _stage_around(self, op: InstructionOp) -> StageTail | None:
        """The stage `op` sits inside: an unpredicated wgmma before it and one after it in
        its block, with no fence or commit in between."""
        previous = op.prev_op
        fence: Operation | None = None
        while previous is not None:
            if isinstance(previous, WgmmaCommitGroupOp):
                return None
            if isinstance(previous, WgmmaFenceOp):
                return None
            if isinstance(previous, WgmmaMmaAsyncOp) and previous not in self.dead:
                if previous.guard is not None:
                    return None
                break
            previous = previous.prev_op
        else:
            return None
        scan = previous.prev_op
        while scan is not None and not isinstance(scan, WgmmaCommitGroupOp):
            if isinstance(scan, WgmmaFenceOp):
                fence = scan
                break
            scan = scan.prev_op
        following: list[Wgmma] = []
        current = op.next_op
        while current is not None:
            if isinstance(current, WgmmaFenceOp | WgmmaCommitGroupOp):
                break
            if isinstance(current, WgmmaMmaAsyncOp) and current not in self.dead:
                if current.guard is not None:
                    break
                wgmma = self.wgmma_of[current]
                if wgmma.merged_into is None:
                    following.append(wgmma)
            current = current.next_op
        if not following:
            return None
        first = following[0]
        next_reads = first.input_bits
        if first.reads_accumulators:
            next_reads |= first.accumulator_bits
        accumulators = 0
        for wgmma in following:
            accumulators |= wgmma.accumulator_bits
        return StageTail(fence, following, next_reads, accumulators)

    def _inject(
        self,
        op: Operation,
        state: PipelineState,
        cause: Cause,
        *,
        register: SSAValue | None = None,
        wgmma: Wgmma | None = None,
    ) -> None:
        where = op
        line = self._exit_line(op) if cause is Cause.EXIT else line_of(op)
        block = self._block(op)
        divergent = self._gmma_divergent[op]
        related: Operation | None = None
        if cause is Cause.READ and self._sink_into_predecessors(
            op, state, register=register, wgmma=wgmma
        ):
            return
        if state.calls and not self.gmma_ahead[op]:
            call = self._first_call(state.calls)
            where, line = call, self._hoisted_line(call)
            related = call
        elif not divergent and not state.tainted:
            hoist = self._hoist_point(block)
            if hoist is not None:
                where = hoist
        code = (
            Code.WAIT_IN_DIVERGENT_PATH
            if divergent or state.tainted
            else Code.WAIT_INJECTED
        )
        self._emit(
            Finding(
                code,
                line,
                where,
                Cause.DIVERGENT_FENCE if code is Code.WAIT_IN_DIVERGENT_PATH else cause,
                culprit=op,
                register=register,
                wgmma=wgmma,
                branch=self._branch_of(
                    self.divergence.divergent_dependence(block) | state.tainted_by
                ),
                related=related,
            ),
        )
        state.drain()

    def _sink_into_predecessors(
        self,
        op: Operation,
        state: PipelineState,
        *,
        register: SSAValue | None,
        wgmma: Wgmma | None,
    ) -> bool:
        """Where only some of the paths joining before `op` bring the group in flight, ptxas
        waits at the end of those paths instead (naming their last instruction)."""
        block = self._block(op)
        index = self.cfg.index[block]
        predecessors = self.cfg.predecessors[index]
        outs = getattr(self, "block_outs", None)
        if (
            len(predecessors) < 2
            or outs is None
            or self._gmma_before(op)
            or self.gmma_ahead[op]
            or self._gmma_divergent[op]
            or state.tainted
            or self._divergent_join(index)
        ):
            return False
        assert isinstance(op, InstructionOp)
        uses = self.uses_bits[op]
        flows = self.flows_into_wgmma.get(op, 0)
        conflicting: list[int] = []
        for predecessor in predecessors:
            out = outs[predecessor]
            if out is None:
                continue
            if uses & self._in_flight_accumulators(out) or (
                out.in_flight and uses & flows
            ):
                conflicting.append(predecessor)
        if not conflicting or len(conflicting) == len(predecessors):
            return False
        for predecessor in conflicting:
            end = self.cfg.blocks[predecessor].last_op
            assert end is not None
            last = end
            while last is not None and not isinstance(last, InstructionOp):
                last = last.prev_op
            self._emit(
                Finding(
                    Code.WAIT_INJECTED,
                    line_of(last if last is not None else end),
                    end,
                    Cause.READ,
                    culprit=op,
                    register=register,
                    wgmma=wgmma,
                ),
            )
        state.drain()
        return True

    def _divergent_join(self, index: int) -> bool:
        """Whether the block is where the paths of a divergent branch join again."""
        branches = self.divergence.branches
        return any(
            branches >> branch & 1 and self.cfg.ipdom[branch] == index
            for branch in range(len(self.cfg.blocks))
        )

    def _gmma_before(self, op: Operation) -> bool:
        """Whether a GMMA instruction precedes `op` in its block."""
        previous = op.prev_op
        while previous is not None:
            if isinstance(previous, GMMA_OPS):
                return True
            previous = previous.prev_op
        return False

    def _hoist_point(self, block: Block) -> Operation | None:
        """The divergent branch a wait needed in `block` is hoisted above (ptxas places it
        where the whole warpgroup still runs), or None in convergent code."""
        branches = self.divergence.divergent_dependence(block)
        if not branches:
            return None
        # The outermost divergent branch: the one whose block is first in program order
        # among those dominating the others.
        candidates = [
            self.cfg.blocks[i] for i in range(len(self.cfg.blocks)) if branches >> i & 1
        ]
        for candidate in candidates:
            if all(self.cfg.dominates(candidate, other) for other in candidates):
                return candidate.last_op
        return None

    def _first_call(self, calls: int) -> Operation:
        position = (calls & -calls).bit_length() - 1
        for op, index in self.order.items():
            if index == position:
                return op
        raise AssertionError("call not found")

    def _hoisted_line(self, call: Operation) -> int:
        """ptxas names the instruction before the call, unless that is plain arithmetic."""
        previous = call.prev_op
        while previous is not None and not isinstance(previous, InstructionOp):
            previous = previous.prev_op
        if previous is None:
            return line_of(call)
        if isinstance(previous, GenericInstructionOp) and is_removable(previous):
            return line_of(call)
        return line_of(previous)

    def _exit(self, op: Operation, state: PipelineState) -> None:
        """Leaving the function with a group in flight needs a wait before the exit (a
        divergent one too: the wait goes where all threads still run, unless the exit is
        in a divergent region that issues or syncs wgmma, C7518)."""
        pending = state.in_flight
        if not pending:
            return
        wgmma = next(iter(self._members(pending)), None)
        self._inject(op, state, Cause.EXIT, wgmma=wgmma)

    def _exit_line(self, op: Operation) -> int:
        """ptxas names an exit that opens its block by the instruction before it (the
        branch to it)."""
        previous = op.prev_op
        while previous is not None and not isinstance(previous, InstructionOp):
            previous = previous.prev_op
        if previous is not None:
            return line_of(op)
        block = self._block(op)
        index = self.cfg.index[block]
        for earlier in reversed(self.cfg.blocks[:index]):
            last = earlier.last_op
            while last is not None and not isinstance(last, InstructionOp):
                last = last.prev_op
            if last is not None:
                return line_of(last)
        return line_of(op)

    # -- what a divergent path or an opaque call cuts short ---------------------------

    def _drop_waits_after_divergence(self) -> None:
        """A divergent-path serialization (C7518, C7519) ends ptxas's walk: no wait is
        reported where that finding reaches."""
        stops = [
            f
            for f in self.findings
            if f.code in (Code.ARRIVE_IN_DIVERGENT_PATH, Code.WAIT_IN_DIVERGENT_PATH)
            and f.culprit is not None
        ]
        if not stops:
            return
        reached_blocks: set[int] = set()
        first_in_block: dict[int, int] = {}
        for stop in stops:
            assert stop.culprit is not None
            index = self.cfg.index[self._block(stop.culprit)]
            position = self.order[stop.culprit]
            first_in_block[index] = min(first_in_block.get(index, position), position)
            stack = list(self.cfg.successors[index])
            while stack:
                block = stack.pop()
                if block not in reached_blocks:
                    reached_blocks.add(block)
                    stack.extend(self.cfg.successors[block])

        def reached(op: Operation) -> bool:
            index = self.cfg.index[self._block(op)]
            if index in reached_blocks:
                return True
            return index in first_in_block and self.order[op] > first_in_block[index]

        self.findings = [
            f
            for f in self.findings
            if f.code is not Code.WAIT_INJECTED or f.op is None or not reached(f.op)
        ]

    def _drop_waits_after_opaque_calls(self) -> None:
        """An opaque call serializes the whole function (C7509): waits are only reported
        where no opaque call has run, on any path, before them (dominance)."""
        calls = [f.culprit for f in self.findings if f.code is Code.EXTERN_CALL]
        if not calls:
            return

        def after_call(op: Operation) -> bool:
            block = self._block(op)
            for call in calls:
                assert call is not None
                call_block = self._block(call)
                if call_block is block:
                    if self.order[call] < self.order[op]:
                        return True
                elif self.cfg.dominates(call_block, block):
                    return True
            return False

        self.findings = [
            f
            for f in self.findings
            if f.code is not Code.WAIT_INJECTED or f.op is None or not after_call(f.op)
        ]

    def _check_registers(self) -> None:
        """The accumulators in flight against the function's register limit
        (`registers`)."""
        pressure = registers.in_flight_pressure(self, self.block_states)
        if pressure is None:
            return
        self.max_in_flight = pressure.in_flight
        self.max_in_flight_op = pressure.where
        check = registers.check_budget(
            self, self.options.maxrregcount, pressure, self.findings
        )
        self.findings = check.findings
        if check.fatal is not None:
            self.fatal = check.fatal

    # -- the decision ---------------------------------------------------------------------

    def _choose_serialization(self) -> None:
        """First error wins, in program order, by rank: a divergent arrive or wait and a
        call of a wgmma function first, then an opaque call, then the rest, then the
        register budget (measured: C7519 over an earlier C7509, C7509 over an earlier
        C7514 or C7515)."""
        reasons = [f for f in self.findings if f.code is not Code.WAIT_INJECTED]
        if reasons:
            self.serialization = min(reasons, key=self._rank)

    def _rank(self, finding: Finding) -> tuple[int, int]:
        if finding.code is Code.CALL_CROSSES_PIPELINE:
            rank = -1
        elif (
            finding.code
            in (
                Code.ARRIVE_IN_DIVERGENT_PATH,
                Code.WAIT_IN_DIVERGENT_PATH,
            )
            or finding.cause is Cause.OVERLAPPING_ACCUMULATORS
        ):
            rank = 0
        elif finding.code is Code.EXTERN_CALL:
            rank = 1
        elif finding.cause is Cause.PIPELINE_BUDGET:
            rank = 2
        elif finding.cause is Cause.FUNCTION_BUDGET:
            rank = 4
        else:
            rank = 3
        return (rank, finding.order)

    def _serialize_everything(self) -> None:
        """-O0, -g and `--Ofast-compile=max`: a wait after every wgmma (none where a
        divergent arrive stops the walk), and the reason: what the calls make of the
        function (C7519, C7509, C7510), else the pipeline-resources message at the last
        wgmma."""
        self._propagate()
        calls = [
            f
            for f in self.findings
            if f.cause in (Cause.CALL_IN_STAGE, Cause.OPAQUE_CALL, Cause.WGMMA_CALLEE)
        ]
        live = sorted(
            (w for w in self.wgmmas if w.op not in self.dead),
            key=lambda w: self.walk_order[w.op],
        )
        self.findings = [
            *calls,
            *(
                Finding(
                    Code.WAIT_INJECTED,
                    wgmma.line,
                    wgmma.op,
                    Cause.UNOPTIMIZED,
                    culprit=wgmma.op,
                    wgmma=wgmma,
                    order=self.walk_order[wgmma.op],
                )
                for wgmma in live
            ),
        ]
        self._drop_waits_after_divergence()
        # The wgmma that needs the arrive after a call gets no wait of its own.
        arrives = {c.related for c in calls if c.cause is Cause.CALL_IN_STAGE}
        self.findings = [f for f in self.findings if f.op not in arrives]
        if calls:
            self.serialization = min(calls, key=self._rank)
        elif live:
            last = live[-1]
            self.serialization = Finding(
                Code.PIPELINE_REGISTERS,
                last.line,
                None,
                Cause.UNOPTIMIZED,
                culprit=last.op,
                wgmma=last,
            )

    # -- results --------------------------------------------------------------------------

    def waits(self) -> list[Finding]:
        """The injected waits, in program order (one message each)."""
        waits = [
            f
            for f in self.findings
            if f.code is Code.WAIT_INJECTED and f.op is not None
        ]
        unique: dict[Operation, Finding] = {}
        for finding in sorted(waits, key=lambda f: f.order):
            unique.setdefault(finding.op, finding)  # pyright: ignore[reportArgumentType]
        return list(unique.values())

    def messages(self) -> Iterator[Finding]:
        """What ptxas prints for this function: the C7517s, then the serialization."""
        if self.fatal is not None:
            yield self.fatal
            return
        yield from self.waits()
        if self.serialization is not None:
            yield self.serialization
