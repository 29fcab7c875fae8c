"""ptxas's GMMA messages for a `GmmaFunctionModel`, and the notes `explain=true` adds.

Each message is printed in ptxas 13.5's exact words and format (one `ptxas info    : (Cnnnn)
...` line, see `tileas_py.hw.gmma_diagnostics`), so that the pass's output and ptxas's
compare line by line. With `explain`, each message is followed by `note:` lines at the
instructions involved, saying what caused it and a one-line fix; ptxas itself gives only a
line number, sometimes "line 0".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from xdsl.ir import Operation, SSAValue

from tileas_py.diagnostics import emit_note, emit_verbatim
from tileas_py.dialects.ori.analysis import declaration
from tileas_py.dialects.ori.instructions import InstructionOp
from tileas_py.hw.gmma_diagnostics import GMMA_MESSAGE_BY_CODE, GmmaDiagnostic
from tileas_py.passes.ori.support.gmma import (
    Cause,
    Code,
    Finding,
    GmmaFunctionModel,
    line_of,
)


def diagnostic(model: GmmaFunctionModel, finding: Finding) -> GmmaDiagnostic:
    """The ptxas line of one finding."""
    message = GMMA_MESSAGE_BY_CODE[int(finding.code)]
    return GmmaDiagnostic(
        message,
        function=model.name,
        line=finding.line,
        counts=finding.counts,
    )


def report(model: GmmaFunctionModel, explain: bool) -> list[GmmaDiagnostic]:
    """Emit the function's messages (and notes); return them, in ptxas's order."""
    printed: list[GmmaDiagnostic] = []
    for finding in model.messages():
        line = diagnostic(model, finding)
        emit_verbatim(finding.op or finding.culprit, line.format())
        printed.append(line)
        if finding.code is Code.INSUFFICIENT_REGISTERS:
            emit_verbatim(
                finding.culprit, "ptxas fatal   : Ptx assembly aborted due to errors"
            )
        if explain:
            for op, note in explain_finding(model, finding):
                emit_note(op, note)
    return printed


def _name(reg: SSAValue | None) -> str:
    return "a register" if reg is None else declaration(reg).ptx_name


def _what(op: Operation | None) -> str:
    if isinstance(op, InstructionOp):
        return f"'{op.opcode.data}' at line {line_of(op)}"
    return "the end of the function"


Note = tuple[Operation | None, str]
"""Where a note goes, and its text."""

Explainer = Callable[[GmmaFunctionModel, Finding], Iterator[Note]]


def explain_finding(model: GmmaFunctionModel, finding: Finding) -> Iterator[Note]:
    """(where, text) of the notes that explain one finding; the last one is the fix."""
    return EXPLAINERS[finding.cause](model, finding)


def _at(finding: Finding) -> str:
    """The wgmma a finding is about, as the notes name it."""
    wgmma = finding.wgmma
    return (
        f"the wgmma.mma_async at line {wgmma.line}" if wgmma is not None else "a wgmma"
    )


def _explain_read(model: GmmaFunctionModel, finding: Finding) -> Iterator[Note]:
    culprit = finding.culprit
    yield (
        culprit,
        (
            f"{_what(culprit)} uses {_name(finding.register)}, an accumulator register "
            f"of {_at(finding)}, while its group is still in flight"
        ),
    )
    if finding.related is not None:
        yield (
            finding.related,
            (
                f"the wait cannot sink past the call at line {line_of(finding.related)}; "
                "it goes before it"
            ),
        )
    yield (
        culprit,
        (
            f"fix: put 'wgmma.wait_group.sync.aligned 0' before line {line_of(culprit)}, "
            "or move the use after the wait that drains the group"
        ),
    )


def _explain_exit(model: GmmaFunctionModel, finding: Finding) -> Iterator[Note]:
    culprit = finding.culprit
    yield (
        culprit,
        (
            f"the function returns at line {line_of(culprit)} with {_at(finding)} still "
            "in flight"
        ),
    )
    yield (
        culprit,
        "fix: end the pipeline with 'wgmma.wait_group.sync.aligned 0' before returning",
    )


def _explain_merged_copy(model: GmmaFunctionModel, finding: Finding) -> Iterator[Note]:
    culprit = finding.culprit
    merged = model.wgmma_of.get(culprit) if culprit is not None else None
    source = merged.merged_into if merged is not None else None
    yield (
        culprit,
        (
            f"this wgmma.mma_async has the same inputs as the one at line "
            f"{source.line if source is not None else 0}: ptxas issues one and copies its "
            "accumulators, which needs the first one complete"
        ),
    )
    yield (
        culprit,
        "fix: give the two wgmma different inputs, or put a wgmma.fence between them",
    )


def _explain_managed_read(model: GmmaFunctionModel, finding: Finding) -> Iterator[Note]:
    culprit = finding.culprit
    yield (
        culprit,
        (
            f"{_what(culprit)} reads {_name(finding.register)}, an accumulator of "
            f"{_at(finding)}, which the program's own wgmma.wait_group leaves in flight"
        ),
    )
    yield (
        culprit,
        (
            f"fix: wait with a smaller count before line {line_of(culprit)} "
            "(e.g. 'wgmma.wait_group.sync.aligned 0'), or read it after the wait that "
            "drains its group"
        ),
    )


def _explain_midstage_read(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[Note]:
    culprit = finding.culprit
    yield (
        culprit,
        (
            f"{_what(culprit)} reads {_name(finding.register)}, an accumulator of the "
            "stage, between two wgmma.mma_async of that stage"
        ),
    )
    yield (
        culprit,
        (
            "fix: move it after the stage's wgmma.wait_group, or split the stage: commit, "
            "wait and fence before it"
        ),
    )


def _explain_divergent_commit(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[Note]:
    culprit = finding.culprit
    yield (
        culprit,
        (
            f"the commit at line {line_of(culprit)} closes a group in which "
            f"{_at(finding)} runs under a different thread-dependent condition than the "
            "commit"
        ),
    )
    yield from _branch_note(finding)
    yield (
        culprit,
        (
            "fix: keep fence, wgmma and commit under one condition, and predicate on a "
            "uniform value instead of branching on %tid"
        ),
    )


def _explain_divergent_wait(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[Note]:
    culprit = finding.culprit
    yield (
        culprit,
        (
            f"a wait is needed at {_what(culprit)}, on a path that only some threads of "
            "the warpgroup take"
        ),
    )
    yield from _branch_note(finding)
    yield (
        culprit,
        (
            "fix: wait for the group (wgmma.wait_group 0) before the divergent branch, "
            "or predicate instead of branching"
        ),
    )


def _explain_call_in_stage(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[Note]:
    culprit = finding.culprit
    yield (
        culprit,
        (
            f"the call at line {line_of(culprit)} sits inside a pipeline stage: the "
            f"wgmma.mma_async or commit after it (line {finding.line}) needs an arrive "
            "that not all threads may reach"
        ),
    )
    yield (
        culprit,
        (
            "fix: move the call before the wgmma.fence or after the wgmma.wait_group, "
            "or let ptxas inline the callee (compile without -c)"
        ),
    )


def _explain_opaque_call(model: GmmaFunctionModel, finding: Finding) -> Iterator[Note]:
    culprit = finding.culprit
    yield (
        culprit,
        (
            f"the call at line {line_of(culprit)} is opaque to ptxas (an .extern .func, "
            "or any call under -c)"
        ),
    )
    yield (
        culprit,
        (
            "fix: inline the callee (whole-program compile), or move the call out of "
            "the function that issues wgmma"
        ),
    )


def _explain_wgmma_callee(model: GmmaFunctionModel, finding: Finding) -> Iterator[Note]:
    culprit = finding.culprit
    yield (
        culprit,
        f"the call at line {line_of(culprit)} runs a function that issues wgmma itself",
    )
    yield culprit, "fix: inline the callee, or keep each pipeline in one function"


def _explain_clobbered_input(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[Note]:
    writer = finding.related
    where = writer or finding.culprit
    yield (
        where,
        (
            f"{_what(writer)} redefines {_name(finding.register)}, an accumulator of "
            f"{_at(finding)}, which reads its accumulator input, before the wait at line "
            f"{line_of(finding.culprit)} drains it"
        ),
    )
    yield where, "fix: write the accumulator after the wgmma.wait_group"


def _explain_clobbered_zero(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[Note]:
    writer = finding.related
    where = writer or finding.culprit
    yield (
        where,
        (
            f"{_what(writer)} redefines {_name(finding.register)}, an accumulator of the "
            f"scale-d 0 wgmma.mma_async at line {line_of(finding.culprit)}, while it is "
            f"in flight, and {_at(finding)} reads it"
        ),
    )
    yield where, "fix: wait for the wgmma before writing its accumulators"


def _explain_overlapping_accumulators(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[Note]:
    here, there = finding.counts or (0, 0)
    yield (
        finding.culprit,
        (
            f"{_name(finding.register)} is accumulator {here} of this wgmma.mma_async and "
            f"accumulator {there} of {_at(finding)}: ptxas keeps a register at one "
            "position"
        ),
    )
    yield (
        finding.culprit,
        "fix: keep each register at one position of every accumulator list",
    )


def _explain_split_zero_start(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[Note]:
    yield (
        finding.culprit,
        (
            "this scale-d 0 wgmma.mma_async runs in a loop, and only part of its "
            f"accumulators is live after it ({_name(finding.register)} is overwritten or "
            "never read): ptxas keeps the accumulators of a loop as one live range"
        ),
    )
    yield (
        finding.culprit,
        "fix: keep every accumulator register live after the loop, or none of them",
    )


def _explain_divergent_arrive(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[Note]:
    culprit = finding.culprit
    yield (
        culprit,
        (
            f"the wgmma.mma_async at line {line_of(culprit)} needs an arrive (a fence) "
            "that all threads of the warpgroup ran, and its last fence is on a path "
            "only some threads take"
        ),
    )
    yield from _branch_note(finding)
    yield (
        culprit,
        "fix: put the wgmma.fence where every thread runs it, right before the wgmma",
    )


def _explain_fragment_from_accumulator(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[Note]:
    yield (
        finding.culprit,
        (
            f"this wgmma.mma_async reads {_name(finding.register)} as its A fragment, an "
            f"accumulator of {_at(finding)}, which is still in flight"
        ),
    )
    yield (
        finding.culprit,
        "fix: put a wgmma.fence (or a wait for the first wgmma) before this one",
    )


def _explain_fragment_redefined(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[Note]:
    culprit = finding.culprit
    yield (
        culprit,
        (
            f"{_what(culprit)} defines {_name(finding.register)}, part of the A fragment "
            f"of {_at(finding)}, inside its stage"
        ),
    )
    yield (
        culprit,
        (
            "fix: compute every A fragment before the wgmma.fence, or fence before the "
            "wgmma that reads it"
        ),
    )


def _explain_budget(model: GmmaFunctionModel, finding: Finding) -> Iterator[Note]:
    in_flight, limit = finding.counts or (model.max_in_flight, 0)
    yield (
        finding.culprit,
        (
            f"{in_flight} accumulator registers are in flight at once; the limit is "
            f"{limit} registers per thread"
        ),
    )
    yield (
        finding.culprit,
        (
            "fix: fewer or smaller accumulators per stage (wait earlier), or a higher "
            "-maxrregcount / .maxnreg"
        ),
    )


def _explain_instruction_budget(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[Note]:
    yield finding.culprit, "fix: a higher -maxrregcount / .maxnreg, or a smaller N"


def _explain_unoptimized(model: GmmaFunctionModel, finding: Finding) -> Iterator[Note]:
    yield finding.culprit, "-O0 and -g serialize every wgmma.mma_async"
    yield finding.culprit, "fix: compile with -O1 or higher and without -g"


EXPLAINERS: dict[Cause, Explainer] = {
    Cause.READ: _explain_read,
    Cause.EXIT: _explain_exit,
    Cause.MERGED_COPY: _explain_merged_copy,
    Cause.MANAGED_READ: _explain_managed_read,
    Cause.MIDSTAGE_READ: _explain_midstage_read,
    Cause.DIVERGENT_COMMIT: _explain_divergent_commit,
    Cause.DIVERGENT_FENCE: _explain_divergent_wait,
    Cause.DIVERGENT_EXIT: _explain_divergent_wait,
    Cause.CALL_IN_STAGE: _explain_call_in_stage,
    Cause.OPAQUE_CALL: _explain_opaque_call,
    Cause.WGMMA_CALLEE: _explain_wgmma_callee,
    Cause.CLOBBERED_INPUT_ACCUMULATOR: _explain_clobbered_input,
    Cause.CLOBBERED_ZERO_ACCUMULATOR: _explain_clobbered_zero,
    Cause.OVERLAPPING_ACCUMULATORS: _explain_overlapping_accumulators,
    Cause.SPLIT_ZERO_START_RANGE: _explain_split_zero_start,
    Cause.DIVERGENT_ARRIVE: _explain_divergent_arrive,
    Cause.FRAGMENT_FROM_ACCUMULATOR: _explain_fragment_from_accumulator,
    Cause.FRAGMENT_REDEFINED: _explain_fragment_redefined,
    Cause.PIPELINE_BUDGET: _explain_budget,
    Cause.FUNCTION_BUDGET: _explain_budget,
    Cause.INSTRUCTION_BUDGET: _explain_instruction_budget,
    Cause.UNOPTIMIZED: _explain_unoptimized,
}
"""The notes of each cause; every cause has one."""


def _branch_note(finding: Finding) -> Iterator[Note]:
    branch = finding.branch
    if branch is None:
        return
    if isinstance(branch, InstructionOp) and branch.guard is not None:
        yield (
            branch,
            (
                f"the branch at line {line_of(branch)} depends on "
                f"{declaration(branch.guard).ptx_name}, which differs between threads"
            ),
        )
