"""How many registers ptxas 13.5 needs to pipeline WGMMA accumulators on sm_90a.

Measured by sweeping `-maxrregcount` over kernels with one to eight f32 accumulator sets of
m64n32 to m64n256 in one stage (accumulators loaded from memory or zero, scale-d runtime or
0, with extra live values around the stage), the outcome depends only on the register limit
L, the largest accumulator of one wgmma (A registers) and the accumulator registers in
flight together at the fullest point of a stage (T):

| condition | ptxas |
| --- | --- |
| L < A + 26 | fatal C7602 "Insufficient registers (max(L, 24)) to compile instruction ... register target of A + 26 or higher" |
| L < T + 2 | C7511: insufficient register resources for the wgmma pipeline (serialized) |
| L < T + 26 | C7512: insufficient register resources for the function (serialized, spilled) |
| otherwise | fits |

L is the entry's `.maxnreg` if it has one, else `-maxrregcount`, and at most 255. The 26 and
2 do not move with the number of other values live across the stage (ptxas schedules them
around it), so they are modelled as constants.

A `setmaxnreg.inc N` or `setmaxnreg.dec N` before the pipeline changes the budget of the
pipeline rows (C7511, C7512) to N, whatever `.maxnreg` says: ptxas budgets the stage with
the registers the warpgroup holds when it runs (`.maxnreg 168` with `setmaxnreg.inc 232` and
two m64n192 f32 accumulators keeps its pipeline; `.maxnreg 232` with `setmaxnreg.dec 168`
serializes it). The per-instruction row (C7602) still follows L.
"""

from __future__ import annotations

from enum import Enum, auto

MAX_REGISTERS = 255
"""Registers per thread on sm_90 without a limit."""

MIN_REGISTERS = 24
"""ptxas raises a smaller -maxrregcount to this."""

FUNCTION_RESERVE = 26
"""Registers the function needs beside one wgmma's (or the stage's) accumulators."""

PIPELINE_RESERVE = 2
"""Registers the pipeline needs beside the accumulators in flight."""


class Verdict(Enum):
    FITS = auto()
    FUNCTION = auto()
    """C7512: the stage fits, the function around it does not."""
    PIPELINE = auto()
    """C7511: the accumulators in flight do not fit."""
    INSTRUCTION = auto()
    """C7602: one wgmma's accumulators do not fit (fatal)."""


def register_limit(maxrregcount: int = 0, maxnreg: int = 0) -> int:
    """The per-thread register limit; 0 means "not given" for either bound. An entry's
    `.maxnreg` overrides `-maxrregcount` (measured: `.maxnreg 70` with -maxrregcount=50
    compiles as 70)."""
    bound = maxnreg if maxnreg > 0 else maxrregcount
    if bound <= 0:
        return MAX_REGISTERS
    return min(MAX_REGISTERS, max(bound, MIN_REGISTERS))


def instruction_target(largest_accumulator: int) -> int:
    """The register target ptxas suggests for a wgmma with this many accumulators."""
    return largest_accumulator + FUNCTION_RESERVE


def classify(
    limit: int,
    in_flight: int,
    largest_accumulator: int,
    pipeline_limit: int | None = None,
) -> Verdict:
    """What ptxas does with a function whose fullest stage has `in_flight` accumulator
    registers, the largest wgmma `largest_accumulator`, under `limit` registers (and
    `pipeline_limit` for the stage, when `setmaxnreg` sets one)."""
    if limit < instruction_target(largest_accumulator):
        return Verdict.INSTRUCTION
    budget = limit if pipeline_limit is None else min(pipeline_limit, MAX_REGISTERS)
    if budget < in_flight + PIPELINE_RESERVE:
        return Verdict.PIPELINE
    if budget < in_flight + FUNCTION_RESERVE:
        return Verdict.FUNCTION
    return Verdict.FITS
