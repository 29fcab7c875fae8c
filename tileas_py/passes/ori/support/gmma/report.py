"""ptxas's GMMA messages for a `GmmaFunctionModel`, and the notes `explain=true` adds.

Each message is printed in ptxas 13.5's exact words and format (one `ptxas info    : (Cnnnn)
...` line, see `tileas_py.hw.gmma_diagnostics`), so that the pass's output and ptxas's
compare line by line. With `explain`, each message is followed by `note:` lines at the
instructions involved, saying what caused it and a one-line fix; ptxas itself gives only a
line number, sometimes "line 0".
"""

from __future__ import annotations

from collections.abc import Iterator

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


def explain_finding(
    model: GmmaFunctionModel, finding: Finding
) -> Iterator[tuple[Operation | None, str]]:
    """(where, text) of the notes that explain one finding; the last one is the fix."""
    culprit = finding.culprit
    wgmma = finding.wgmma
    at = f"the wgmma.mma_async at line {wgmma.line}" if wgmma is not None else "a wgmma"
    reg = _name(finding.register)
    cause = finding.cause
    if cause is Cause.READ:
        yield (
            culprit,
            (
                f"{_what(culprit)} uses {reg}, an accumulator register of {at}, "
                "while its group is still in flight"
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
    elif cause is Cause.EXIT:
        yield (
            culprit,
            (
                f"the function returns at line {line_of(culprit)} with {at} still in flight"
            ),
        )
        yield (
            culprit,
            (
                "fix: end the pipeline with 'wgmma.wait_group.sync.aligned 0' before returning"
            ),
        )
    elif cause is Cause.MERGED_COPY:
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
            (
                "fix: give the two wgmma different inputs, or put a wgmma.fence between them"
            ),
        )
    elif cause is Cause.MANAGED_READ:
        yield (
            culprit,
            (
                f"{_what(culprit)} reads {reg}, an accumulator of {at}, which the program's "
                "own wgmma.wait_group leaves in flight"
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
    elif cause is Cause.MIDSTAGE_READ:
        yield (
            culprit,
            (
                f"{_what(culprit)} reads {reg}, an accumulator of the stage, between two "
                "wgmma.mma_async of that stage"
            ),
        )
        yield (
            culprit,
            (
                "fix: move it after the stage's wgmma.wait_group, or split the stage: commit, "
                "wait and fence before it"
            ),
        )
    elif cause is Cause.DIVERGENT_COMMIT:
        yield (
            culprit,
            (
                f"the commit at line {line_of(culprit)} closes a group in which {at} runs "
                "under a different thread-dependent condition than the commit"
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
    elif cause in (Cause.DIVERGENT_FENCE, Cause.DIVERGENT_EXIT):
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
    elif cause is Cause.CALL_IN_STAGE:
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
    elif cause is Cause.OPAQUE_CALL:
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
    elif cause is Cause.WGMMA_CALLEE:
        yield (
            culprit,
            (
                f"the call at line {line_of(culprit)} runs a function that issues wgmma "
                "itself"
            ),
        )
        yield culprit, "fix: inline the callee, or keep each pipeline in one function"
    elif cause is Cause.CLOBBERED_INPUT_ACCUMULATOR:
        writer = finding.related
        yield (
            writer or culprit,
            (
                f"{_what(writer)} redefines {reg}, an accumulator of {at}, which reads its "
                f"accumulator input, before the wait at line {line_of(culprit)} drains it"
            ),
        )
        yield writer or culprit, "fix: write the accumulator after the wgmma.wait_group"
    elif cause is Cause.CLOBBERED_ZERO_ACCUMULATOR:
        writer = finding.related
        yield (
            writer or culprit,
            (
                f"{_what(writer)} redefines {reg}, an accumulator of the scale-d 0 "
                f"wgmma.mma_async at line {line_of(culprit)}, while it is in flight, and {at} "
                "reads it"
            ),
        )
        yield (
            writer or culprit,
            "fix: wait for the wgmma before writing its accumulators",
        )
    elif cause is Cause.OVERLAPPING_ACCUMULATORS:
        here, there = finding.counts or (0, 0)
        yield (
            culprit,
            (
                f"{reg} is accumulator {here} of this wgmma.mma_async and accumulator "
                f"{there} of {at}: ptxas keeps a register at one position"
            ),
        )
        yield (
            culprit,
            "fix: keep each register at one position of every accumulator list",
        )
    elif cause is Cause.SPLIT_ZERO_START_RANGE:
        yield (
            culprit,
            (
                f"this scale-d 0 wgmma.mma_async runs in a loop, and only part of its "
                f"accumulators is live after it ({reg} is overwritten or never read): "
                "ptxas keeps the accumulators of a loop as one live range"
            ),
        )
        yield (
            culprit,
            "fix: keep every accumulator register live after the loop, or none of them",
        )
    elif cause is Cause.DIVERGENT_ARRIVE:
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
    elif cause is Cause.FRAGMENT_FROM_ACCUMULATOR:
        yield (
            culprit,
            (
                f"this wgmma.mma_async reads {reg} as its A fragment, an accumulator of {at}, "
                "which is still in flight"
            ),
        )
        yield (
            culprit,
            ("fix: put a wgmma.fence (or a wait for the first wgmma) before this one"),
        )
    elif cause is Cause.FRAGMENT_REDEFINED:
        yield (
            culprit,
            (
                f"{_what(culprit)} defines {reg}, part of the A fragment of {at}, inside "
                "its stage"
            ),
        )
        yield (
            culprit,
            (
                "fix: compute every A fragment before the wgmma.fence, or fence before the "
                "wgmma that reads it"
            ),
        )
    elif cause in (Cause.PIPELINE_BUDGET, Cause.FUNCTION_BUDGET):
        in_flight, limit = finding.counts or (model.max_in_flight, 0)
        yield (
            culprit,
            (
                f"{in_flight} accumulator registers are in flight at once; the limit is "
                f"{limit} registers per thread"
            ),
        )
        yield (
            culprit,
            (
                "fix: fewer or smaller accumulators per stage (wait earlier), or a higher "
                "-maxrregcount / .maxnreg"
            ),
        )
    elif cause is Cause.INSTRUCTION_BUDGET:
        yield culprit, "fix: a higher -maxrregcount / .maxnreg, or a smaller N"
    elif cause is Cause.UNOPTIMIZED:
        yield culprit, "-O0 and -g serialize every wgmma.mma_async"
        yield culprit, "fix: compile with -O1 or higher and without -g"


def _branch_note(finding: Finding) -> Iterator[tuple[Operation | None, str]]:
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
