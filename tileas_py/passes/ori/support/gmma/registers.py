"""The GMMA model's register resources: where ptxas 13.5 cannot give the accumulators of a
pipeline the registers they need.

- Each accumulator register has one position in the accumulator vectors of all the
  function's wgmma (C7511 at a wgmma that moves one);
- the accumulator registers in flight together at the fullest point of a stage, against the
  function's register limit (`.maxnreg`, `-maxrregcount`, a `setmaxnreg` before the
  stage): C7511 (the pipeline does not fit), C7512 (the function around it does not) or the
  fatal C7602 (one wgmma does not), with the thresholds of `tileas_py.hw.gmma_registers`.

`GmmaFunctionModel` runs these checks once its pipeline dataflow has converged; they read the
converged states and the findings of the dataflow, and return new findings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import Operation

from tileas_py.dialects.ori.attributes import ImmAttr
from tileas_py.dialects.ori.instructions import (
    WgmmaCommitGroupOp,
    WgmmaFenceOp,
    WgmmaMmaAsyncOp,
    WgmmaWaitGroupOp,
)
from tileas_py.hw import gmma_registers
from tileas_py.passes.ori.support.gmma.findings import Cause, Code, Finding
from tileas_py.passes.ori.support.gmma.program import (
    FunctionFacts,
    Wgmma,
    bit_indices,
    line_of,
)
from tileas_py.passes.ori.support.gmma.state import PipelineState


def accumulator_position_finding(facts: FunctionFacts) -> Finding | None:
    """ptxas keeps each accumulator register at one position of the accumulator vectors
    of all the function's wgmma: a wgmma that has a register at another position than
    an earlier wgmma (permuted, shifted) cannot share its registers (C7511 at it), even
    when the two are never in flight together; a prefix (a narrower shape on the first
    registers) keeps the positions."""
    position: dict[int, tuple[int, Wgmma]] = {}
    for op in facts.instructions:
        wgmma = facts.wgmma_of.get(op)
        if wgmma is None or op in facts.dead:
            continue
        for index, register in enumerate(wgmma.accumulators):
            number = facts.numbering.number[register]
            first, earlier = position.setdefault(number, (index, wgmma))
            if first != index:
                return Finding(
                    Code.PIPELINE_REGISTERS,
                    wgmma.line,
                    None,
                    Cause.OVERLAPPING_ACCUMULATORS,
                    culprit=op,
                    register=register,
                    wgmma=earlier,
                    order=facts.walk_order[op],
                    counts=(index, first),
                )
    return None


@dataclass(frozen=True)
class RegisterPressure:
    """The fullest point of the function's stages."""

    in_flight: int
    """The accumulator registers in flight together there."""
    where: Operation | None
    """The fence that opens its stage (or its wgmma, without one)."""
    largest: Wgmma
    """The wgmma with the most accumulator registers (the first one of them)."""


def in_flight_pressure(
    facts: FunctionFacts, block_states: Sequence[PipelineState | None]
) -> RegisterPressure | None:
    """The fullest point, from the converged state at the start of each block; None for a
    function without wgmma."""
    if not facts.wgmmas:
        return None
    largest = max(facts.wgmmas, key=lambda w: len(w.accumulators))
    # The pseudo-members of committed groups (empty groups) have no registers.
    wgmma_bits = (1 << len(facts.wgmmas)) - 1
    most = 0
    where: Operation | None = None
    for index, block in enumerate(facts.cfg.blocks):
        state = block_states[index]
        if state is None:
            continue
        flight = state.in_flight
        fence: Operation | None = None
        for op in block.ops:
            if isinstance(op, WgmmaFenceOp):
                fence = op
            elif isinstance(op, WgmmaMmaAsyncOp):
                flight |= facts.wgmma_of[op].bit
                registers = 0
                for member in bit_indices(flight & wgmma_bits):
                    registers |= facts.wgmmas[member].accumulator_bits
                count = registers.bit_count()
                if count > most:
                    most = count
                    where = fence if fence is not None else op
            elif isinstance(op, WgmmaWaitGroupOp) and op.pending == 0:
                flight = 0
    return RegisterPressure(most, where, largest)


@dataclass(frozen=True)
class BudgetCheck:
    """What the register budget makes of the function's findings."""

    findings: list[Finding]
    fatal: Finding | None = None
    """C7602: one wgmma's accumulators do not fit, ptxas stops."""


def check_budget(
    facts: FunctionFacts,
    maxrregcount: int,
    pressure: RegisterPressure,
    findings: Sequence[Finding],
) -> BudgetCheck:
    """The accumulators in flight against the function's register limit: the findings
    with the budget's verdict added."""
    most, where, largest = pressure.in_flight, pressure.where, pressure.largest
    limit = gmma_registers.register_limit(maxrregcount, _maxnreg(facts))
    granted = _setmaxnreg(facts, where)
    verdict = gmma_registers.classify(limit, most, len(largest.accumulators), granted)
    budget = limit if granted is None else granted
    if verdict is gmma_registers.Verdict.INSTRUCTION:
        fatal = Finding(
            Code.INSUFFICIENT_REGISTERS,
            largest.line,
            None,
            Cause.INSTRUCTION_BUDGET,
            culprit=largest.op,
            counts=(
                max(limit, gmma_registers.MIN_REGISTERS),
                gmma_registers.instruction_target(len(largest.accumulators)),
            ),
        )
        return BudgetCheck(list(findings), fatal)
    if verdict is gmma_registers.Verdict.PIPELINE:
        midstage_copy = any(
            f.cause is Cause.MIDSTAGE_READ for f in findings
        ) or _merged_copy_inside_stage(facts)
        if midstage_copy:
            # Split to fit, the stage reads the merged copies between its wgmma.
            return BudgetCheck(
                [
                    *(f for f in findings if f.cause is not Cause.MERGED_COPY),
                    Finding(Code.ACCUMULATOR_READ, 0, None, Cause.PIPELINE_BUDGET),
                ]
            )
        return BudgetCheck(
            [
                *findings,
                Finding(
                    Code.PIPELINE_REGISTERS,
                    line_of(where) if where is not None else 0,
                    None,
                    Cause.PIPELINE_BUDGET,
                    culprit=where,
                    counts=(most, budget),
                ),
            ]
        )
    if verdict is gmma_registers.Verdict.FUNCTION:
        return BudgetCheck(
            [
                *findings,
                Finding(
                    Code.FUNCTION_REGISTERS,
                    None,
                    None,
                    Cause.FUNCTION_BUDGET,
                    counts=(most, budget),
                ),
            ]
        )
    return BudgetCheck(list(findings))


def _merged_copy_inside_stage(facts: FunctionFacts) -> bool:
    """Whether a merged wgmma (a copy of an earlier one) has a wgmma after it in its
    stage."""
    for wgmma in facts.wgmmas:
        if wgmma.merged_into is None:
            continue
        following = wgmma.op.next_op
        while following is not None:
            if isinstance(following, WgmmaFenceOp | WgmmaCommitGroupOp):
                break
            if isinstance(following, WgmmaMmaAsyncOp):
                return True
            following = following.next_op
    return False


def _setmaxnreg(facts: FunctionFacts, where: Operation | None) -> int | None:
    """The register count of the last `setmaxnreg` before `where` in layout order
    (None without one)."""
    if where is None:
        return None
    count: int | None = None
    for op in facts.instructions:
        if facts.order[op] >= facts.order[where]:
            break
        layout = op.layout.data
        if (
            op.opcode.data.startswith("setmaxnreg.")
            and layout
            and isinstance(layout[0], ImmAttr)
        ):
            count = layout[0].value.data
    return count


def _maxnreg(facts: FunctionFacts) -> int:
    """The function's `.maxnreg` (0 without one)."""
    for directive in facts.func.directives:
        if directive.directive.data == "maxnreg" and directive.values.data:
            return directive.values.data[0].data
    return 0
