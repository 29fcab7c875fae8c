"""The diagnostics ptxas 13.5 prints about WGMMA (GMMA) pipelines, in its exact words.

ptxas's phases 85 (OriPropagateGmma) and 87 (FixupGmmaSequence) report what they do to a
kernel's `wgmma.fence` / `wgmma.mma_async` / `wgmma.commit_group` / `wgmma.wait_group`
sequences: an advisory when they inject a `wgmma.wait_group`, and a "Potential Performance
Loss" when they give up pipelining and serialize every `wgmma.mma_async`. Each line has the
form

    ptxas info    : (C7517) wgmma.wait_group is injected in around line 22 by compiler to allow use of registers defined by GMMA in function 'k'

The table below is ptxas 13.5.37's (`nvidia-cuda-nvcc==13.5.37`): the texts are the strings
in its binary, the codes and triggers come from running it on the kernels of
`test/ptxas/gmma/corpus/`, whose README says how each was found. Seed 000 describes an older
ptxas whose codes and texts differ in places; docs/fidelity.md lists the differences.

`GmmaDiagnostic.format()` prints a message as ptxas does, and `parse_ptxas_output` reads
ptxas's output back into `GmmaDiagnostic`s, so that passes can report in ptxas's form and
tests can compare against the real tool.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property


class Severity(StrEnum):
    """The word after `ptxas` that says how bad a message is."""

    INFO = "info"
    WARNING = "warning"
    FATAL = "fatal"

    @property
    def prefix(self) -> str:
        """ptxas pads the severity to seven characters: `ptxas info    : `."""
        return f"ptxas {self.value:<7} : "


@dataclass(frozen=True)
class GmmaMessage:
    """One kind of GMMA diagnostic: its code, severity and text with its format slots.

    Slots are `{function}`, `{line}` and, for counts, `{0}`, `{1}` (in print order).
    """

    code: int
    name: str
    """A short kebab-case name, for use in code and tests."""
    severity: Severity
    template: str
    trigger: str
    """What makes ptxas 13.5 print it (from the corpus experiments)."""
    observed: bool = True
    """False when no experiment made ptxas 13.5 print it: its code is then inferred."""

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """A regex matching the whole message line, with one named group per slot."""
        slots = {
            "{function}": r"(?P<function>[^']+?)",
            "{line}": r"(?P<line>\d+)",
            "{0}": r"(?P<count0>\d+)",
            "{1}": r"(?P<count1>\d+)",
        }
        regex = re.escape(f"{self.severity.prefix}(C{self.code:04d}) {self.template}")
        for slot, group in slots.items():
            regex = regex.replace(re.escape(slot), group)
        return re.compile(regex)


_SERIALIZED = (
    "Potential Performance Loss: wgmma.mma_async instructions are serialized due to "
)

GMMA_MESSAGES: tuple[GmmaMessage, ...] = (
    GmmaMessage(
        7509,
        "extern-call",
        Severity.INFO,
        _SERIALIZED
        + "the presence of Extern calls in the function '{function}' in line {line}",
        "A `call` anywhere in a function that issues wgmma (before the fence, inside the "
        "stage after the commit, after the wait), when the callee is not visible: an "
        "`.extern .func`, or any `.func` under `-c`. Line: the call.",
    ),
    GmmaMessage(
        7510,
        "call-crosses-pipeline",
        Severity.INFO,
        _SERIALIZED + "wgmma pipeline crossing function boundary at a function call "
        "in the function '{function}' in line {line}",
        "Whole-program compilation of a call to a `.func` that issues wgmma itself. "
        "Function and line: the caller and the call.",
    ),
    GmmaMessage(
        7511,
        "pipeline-registers",
        Severity.INFO,
        _SERIALIZED + "insufficient register resources for the wgmma pipeline "
        "in the function '{function}' in line {line}",
        "The accumulators in flight in one stage do not fit the register budget "
        "(2 x m64n256 f32, 8 x m64n64 f32, a low -maxrregcount; line: the fence), "
        "accumulator register lists of two wgmma that overlap partially (line: the second), "
        "a non-wgmma write to an accumulator between two wgmma of a stage (line: the first "
        "wgmma), and every wgmma at -O0 or with -g (line: the wgmma).",
    ),
    GmmaMessage(
        7512,
        "function-registers",
        Severity.INFO,
        _SERIALIZED + "insufficient register resources for the function '{function}'",
        "The pipeline fits but the whole function then does not fit its register limit "
        "(e.g. -maxrregcount=136 with two m64n128 f32 accumulators loaded from memory); "
        "ptxas serializes and spills.",
    ),
    GmmaMessage(
        7513,
        "input-redefined",
        Severity.INFO,
        _SERIALIZED + "non wgmma instructions defining input registers of a wgmma "
        "between start and end of the pipeline stage in the function '{function}' "
        "in line {line}",
        "A non-wgmma instruction redefines the A-fragment registers between two wgmma of a "
        "stage whose first wgmma has scale-d 0 (line 0), or a wgmma reads as A fragment the "
        "f16 accumulator of an earlier wgmma of the same stage (line: the reading wgmma).",
    ),
    GmmaMessage(
        7514,
        "accumulator-read",
        Severity.INFO,
        _SERIALIZED
        + "non wgmma instructions reading accumulator registers of  a wgmma "
        "between start and end of the pipeline stage in the function '{function}' "
        "in line {line}",
        "A non-wgmma instruction reads an accumulator between two wgmma of a stage, or "
        "after a wgmma.wait_group N > 0 that leaves its group in flight. Line: often 0.",
    ),
    GmmaMessage(
        7515,
        "accumulator-defined",
        Severity.INFO,
        _SERIALIZED
        + "non wgmma instructions defining accumulator registers of a wgmma "
        "between start and end of the pipeline stage in the function '{function}' "
        "in line {line}",
        "A non-wgmma instruction writes an accumulator between commit and wait when the "
        "accumulator was loaded from memory or the wgmma is predicated (a zero-initialised "
        "one is renamed instead). Line: the wait_group.",
    ),
    GmmaMessage(
        7516,
        "ill-formed-stage",
        Severity.INFO,
        _SERIALIZED + "ill formed pipeline stage in the function '{function}'",
        "Not triggered by any experiment (fence/commit/wait missing or on one path only, "
        "irreducible loops, jumps into a stage, brx.idx): the code is inferred from the "
        "order of the messages in the binary.",
        observed=False,
    ),
    GmmaMessage(
        7517,
        "wait-injected",
        Severity.INFO,
        "wgmma.wait_group is injected in around line {line} by compiler to allow use of "
        "registers defined by GMMA in function '{function}'",
        "A non-wgmma instruction uses an accumulator of a group no wgmma.wait_group has "
        "drained: a missing wait or commit, wait_group N > 0, a read between commit and "
        "wait, a copy left by merging two identical wgmma. Printed once per injected wait; "
        "line: the instruction the wait is put before (the merged wgmma for a copy).",
    ),
    GmmaMessage(
        7518,
        "wait-in-divergent-path",
        Severity.INFO,
        _SERIALIZED + "program dependence on compiler-inserted WG.DP in divergent path "
        "in the function '{function}' in line {line}",
        "A wait that ptxas must inject (WG.DP: WARPGROUP.DEPBAR) falls on a path that only "
        "part of the warpgroup takes (tid-dependent branch): a fence and an accumulator use "
        "inside such a branch while a wgmma is in flight (line: the use, or the `ret` after "
        "the join), or a divergent early `ret` while a group is in flight.",
    ),
    GmmaMessage(
        7519,
        "arrive-in-divergent-path",
        Severity.INFO,
        _SERIALIZED + "program dependence on compiler-inserted WG.AR in divergent path "
        "in the function '{function}' in line {line}",
        "An arrive (WG.AR: WARPGROUP.ARRIVE) ptxas must inject cannot be placed on a path "
        "all threads take: a wgmma after a call inside the stage (line: that wgmma); a "
        "wgmma under a tid-dependent predicate or branch, a commit under such a branch, a "
        "fence and wgmma in a loop with a tid-dependent trip count, brx.idx inside a stage "
        "(line: the commit). Under -c, any call inside a stage.",
    ),
    GmmaMessage(
        7407,
        "too-many-live-ranges",
        Severity.WARNING,
        "GMMA sequence has too many active live ranges ({0}), reduce it to bring it under ({1})",
        "Not triggered by any experiment (up to 64 accumulators in flight across branches "
        "and loops); code and severity are seed 000's.",
        observed=False,
    ),
    GmmaMessage(
        7602,
        "insufficient-registers",
        Severity.FATAL,
        "Insufficient registers ({0}) to compile instruction at line {line} in function "
        "{function}. Try to compile with register target of {1} or higher.",
        "Not GMMA-specific, but in practice a wgmma whose accumulators exceed "
        "-maxrregcount (m64n256 f32 under 128 registers). Line: the wgmma. Exit 255.",
    ),
)

GMMA_MESSAGE_BY_CODE: dict[int, GmmaMessage] = {m.code: m for m in GMMA_MESSAGES}

_CODED_LINE = re.compile(
    r"^ptxas (?:info|warning|fatal|error) *: \(C(?P<code>\d{4})\) "
)


@dataclass(frozen=True)
class GmmaDiagnostic:
    """One GMMA message as ptxas prints it for a given function and line."""

    message: GmmaMessage
    function: str | None = None
    line: int | None = None
    counts: tuple[int, ...] = ()

    def format(self) -> str:
        """The line ptxas prints, without the newline."""
        text = self.message.template.format(
            *self.counts, function=self.function, line=self.line
        )
        return f"{self.message.severity.prefix}(C{self.message.code:04d}) {text}"

    @property
    def key(self) -> tuple[int, str | None, int | None]:
        """`(code, function, line)`: what a test compares."""
        return self.message.code, self.function, self.line


def parse_line(line: str) -> GmmaDiagnostic | None:
    """The GMMA diagnostic on one line of ptxas output, None for any other line.

    A line with a GMMA code whose text does not match the table is an error: ptxas's
    wording changed and the table must follow.
    """
    coded = _CODED_LINE.match(line)
    if coded is None:
        return None
    message = GMMA_MESSAGE_BY_CODE.get(int(coded.group("code")))
    if message is None:
        return None
    match = message.pattern.fullmatch(line.rstrip("\n"))
    if match is None:
        raise ValueError(
            f"C{message.code} line does not match its known text: {line!r}"
        )
    slots = match.groupdict()
    counts = tuple(int(slots[g]) for g in ("count0", "count1") if g in slots)
    return GmmaDiagnostic(
        message,
        function=slots.get("function"),
        line=int(slots["line"]) if "line" in slots else None,
        counts=counts,
    )


def parse_ptxas_output(text: str) -> list[GmmaDiagnostic]:
    """Every GMMA diagnostic in ptxas's output, in the order ptxas printed them."""
    return [d for line in text.splitlines() if (d := parse_line(line)) is not None]
