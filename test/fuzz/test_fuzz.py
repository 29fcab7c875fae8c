"""A short, deterministic fuzz run of tileas-opt (the long campaign: docs/robustness.md).

Mutated `.mlir` / `.ptx` test inputs go through tileas-opt with one pipeline each (no
passes, a registered pass, `-t ptx`, `--split-input-file`, ...); every run must end in
output and exit code 0, or in a diagnostic and exit code 1: no traceback, no internal
error, no hang.
"""

import pytest
from fuzzer import (
    Outcome,
    Seed,
    fuzz,
    judge,
    load_corpus,
    make_case,
    pipelines,
    reduce,
)

from tileas_py.passes import PASSES

SEED = 20261122
CASES = 300


@pytest.fixture(scope="module")
def corpus() -> list[Seed]:
    return load_corpus()


def test_corpus_covers_mlir_ptx_and_ptxas_inputs(corpus: list[Seed]) -> None:
    corpora = {seed.corpus for seed in corpus}
    assert {"mlir", "ori-mlir", "ptx", "ptx-gmma", "ptx-sync"} <= corpora


def test_every_registered_pass_is_a_pipeline() -> None:
    names = {pipe.name for pipe in pipelines()}
    assert set(PASSES) <= names
    assert {"no-passes", "target-ptx", "split-input-file"} <= names


def test_cases_are_deterministic(corpus: list[Seed]) -> None:
    pipes = pipelines()
    first = [make_case(i, SEED, corpus, pipes) for i in range(20)]
    again = [make_case(i, SEED, corpus, pipes) for i in range(20)]
    assert first == again
    assert len({case.data for case in first}) > 15


def test_oracle_rejects_crashes_hangs_and_silent_failures() -> None:
    assert judge(Outcome(0, "ok", "")) is None
    assert judge(Outcome(1, "", "f.mlir:1:1: error: bad")) is None
    assert (
        judge(Outcome(2, "", "tileas-opt: internal error: KeyError")) == "exit code 2"
    )
    assert judge(Outcome(1, "", "Traceback (most recent call last):")) is not None
    assert judge(Outcome(1, "", "")) == "exit code 1 without a diagnostic"
    assert judge(Outcome(-1, "", "", timed_out=True)) == "hang"


def test_reducer_keeps_what_makes_the_input_fail() -> None:
    data = b"a\nb\nBAD x\nc\nd\n"
    reduced = reduce(data, lambda candidate: b"BAD" in candidate, deadline=float("inf"))
    assert reduced == b"BAD"


def test_mutated_inputs_end_in_output_or_one_diagnostic(corpus: list[Seed]) -> None:
    failures = [
        f"case {case.index} ({case.seed.name} + {', '.join(case.mutations)}, "
        f"{case.pipeline.name}): {failure.reason}\n{failure.outcome.stderr[-2000:]}"
        for case, failure in fuzz(corpus, range(CASES), SEED, timeout=60)
        if failure is not None
    ]
    assert not failures, "\n".join(failures)
