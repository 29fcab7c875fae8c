"""A mutational fuzzer for `tileas-opt` over the project's own test corpus.

Each case takes one seed file (a `.mlir` or `.ptx` test input, or the ori MLIR text of a
PTX corpus kernel), applies a few random mutations (token and line deletion, duplication
and swaps, splices from other seeds, numeric boundary values, truncation, random and
non-UTF-8 bytes, deep nesting, very long lines and numbers) and runs `tileas-opt` on it
with one pipeline (no passes, `-t ptx`, a registered pass, `--split-input-file`,
`--print-op-generic` and back, `-o FILE`). The oracle is the project's error rule:

- the exit code is 0 or 1, never 2 (an internal error) or anything else;
- stderr holds no Python traceback and no "internal error";
- exit code 1 comes with a diagnostic (`error:`) on stderr;
- each run ends within a time limit (no hang);
- the input file is left as it was, and `-o FILE` is not written when the run fails;
- what tileas-opt prints (generic MLIR, PTX) it reads back without an internal error.

Cases are deterministic: case `i` of seed `s` is always the same input and pipeline.
The in-suite test (`test_fuzz.py`) runs a few hundred cases; the long campaign is
campaign.py (mutations in mutations.py).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from mutations import Mutation, Seed, mutate, tokens_of

from tileas_py.passes import get_all_passes
from tileas_py.tools.tileas_opt import run_tool

REPO_ROOT = Path(__file__).resolve().parents[2]
TOOL = Path(sys.executable).parent / "tileas-opt"


# -- the corpus ----------------------------------------------------------------------------


def _corpus_of(path: Path) -> str:
    parts = path.parts
    if "gmma" in parts:
        return "ptx-gmma"
    if "sync" in parts and path.suffix == ".ptx":
        return "ptx-sync"
    return path.suffix[1:]


def load_corpus(root: Path = REPO_ROOT, ori_mlir: int = 12) -> list[Seed]:
    """Every `.mlir` and `.ptx` test input and example, and the ori MLIR text of the
    first `ori_mlir` PTX files (so that `-t ptx` and ori's parsers get well-formed ori)."""
    paths = sorted(
        p
        for pattern in ("test/**/*.mlir", "test/**/*.ptx", "examples/**/*.mlir")
        for p in root.glob(pattern)
        if "Output" not in p.parts and ".venv" not in p.parts
    )
    seeds = [
        Seed(str(p.relative_to(root)), _corpus_of(p), p.suffix[1:], p.read_bytes())
        for p in paths
    ]
    ptx = [s for s in seeds if s.kind == "ptx" and s.corpus == "ptx"]
    ptx += [s for s in seeds if s.kind == "ptx" and s.corpus != "ptx"]
    for seed in ptx[:ori_mlir]:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "seed.ptx"
            path.write_bytes(seed.data)
            outcome = run_in_process([str(path)], timeout=60)
        if outcome.rc == 0:
            text = outcome.stdout.encode()
            seeds.append(Seed(f"{seed.name} (as ori)", "ori-mlir", "mlir", text))
    return seeds


# -- pipelines -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pipeline:
    """Extra tileas-opt arguments; `reread` is the frontend that must read the output."""

    name: str
    args: tuple[str, ...] = ()
    reread: str | None = None
    output_file: bool = False


def pipelines() -> list[Pipeline]:
    """The pipelines every seed is run with: one per registered pass, and the flags."""
    return [
        Pipeline("no-passes"),
        Pipeline("split-input-file", ("--split-input-file",)),
        Pipeline("generic-roundtrip", ("--print-op-generic",), reread="mlir"),
        Pipeline("target-ptx", ("-t", "ptx"), reread="ptx"),
        Pipeline("output-file", (), output_file=True),
        Pipeline(
            "diagnostic-flags",
            ("--split-input-file", "--verify-diagnostics", "--parsing-diagnostics"),
        ),
        *(Pipeline(name, ("-p", name)) for name in sorted(get_all_passes())),
    ]


# -- running tileas-opt --------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    rc: int
    stdout: str
    stderr: str
    timed_out: bool = False
    trace: str = ""


class _Timeout(BaseException):
    """Raised by the alarm in a hung run; a BaseException, so the tool cannot catch it."""


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise _Timeout


def run_in_process(
    args: Sequence[str], timeout: float, stdin: str | None = None
) -> Outcome:
    """`run_tool(args)` in this process, with stdout and stderr captured, under an alarm."""
    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    saved_stdin = sys.stdin
    try:
        if stdin is not None:
            sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = run_tool(list(args))
    except _Timeout:
        return Outcome(-1, out.getvalue(), err.getvalue(), timed_out=True)
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 1
    except BaseException as e:  # anything escaping run_tool is itself a failure
        trace = "".join(traceback.format_exception(e))
        return Outcome(-2, out.getvalue(), err.getvalue() + trace, trace=trace)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin = saved_stdin
    return Outcome(rc, out.getvalue(), err.getvalue())


def traceback_of(args: Sequence[str], timeout: float) -> str:
    """The Python traceback behind an internal error (TILEAS_OPT_TRACEBACK re-raises)."""
    os.environ["TILEAS_OPT_TRACEBACK"] = "1"
    try:
        return run_in_process(args, timeout).trace
    finally:
        del os.environ["TILEAS_OPT_TRACEBACK"]


def run_subprocess(args: Sequence[str], timeout: float) -> Outcome:
    """The installed `tileas-opt` script, as a user runs it."""
    try:
        result = subprocess.run(
            [str(TOOL), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            errors="replace",
        )
    except subprocess.TimeoutExpired:
        return Outcome(-1, "", "", timed_out=True)
    return Outcome(result.returncode, result.stdout, result.stderr)


Runner = Callable[[Sequence[str], float], Outcome]

# -- the oracle ----------------------------------------------------------------------------


def judge(outcome: Outcome) -> str | None:
    """Why `outcome` breaks the error rule, or None when it keeps it."""
    if outcome.timed_out:
        return "hang"
    if outcome.rc not in (0, 1):
        return f"exit code {outcome.rc}"
    if "Traceback (most recent call last)" in outcome.stderr:
        return "traceback on stderr"
    if "tileas-opt: internal error" in outcome.stderr:
        return "internal error on stderr"
    if outcome.rc == 1 and "error:" not in outcome.stderr:
        return "exit code 1 without a diagnostic"
    return None


@dataclass(frozen=True)
class Case:
    index: int
    seed: Seed
    mutations: tuple[str, ...]
    pipeline: Pipeline
    data: bytes


@dataclass(frozen=True)
class Failure:
    case: Case
    reason: str
    stage: str
    args: tuple[str, ...]
    outcome: Outcome
    signature: str = ""


def make_case(
    index: int, seed: int, seeds: Sequence[Seed], pipes: Sequence[Pipeline]
) -> Case:
    """Case `index` of the run seeded `seed`: always the same input and pipeline."""
    rng = random.Random(f"{seed}:{index}")
    corpus = rng.choice(sorted({s.corpus for s in seeds}))
    origin = rng.choice([s for s in seeds if s.corpus == corpus])
    same_kind = [s for s in seeds if s.kind == origin.kind]
    m = Mutation(rng, same_kind if rng.random() < 0.9 else seeds)
    data = mutate(m, origin.data)
    return Case(index, origin, tuple(m.applied), rng.choice(pipes), data)


def run_case(
    case: Case, workdir: Path, timeout: float, runner: Runner = run_in_process
) -> Failure | None:
    """Run one case; the first way it breaks the error rule, if any."""
    source = workdir / f"input.{case.seed.kind}"
    source.write_bytes(case.data)
    args = [str(source), *case.pipeline.args]
    output = workdir / "output.txt"
    if case.pipeline.output_file:
        output.unlink(missing_ok=True)
        args += ["-o", str(output)]
    outcome = runner(args, timeout)
    reason = judge(outcome)
    if reason is None and source.read_bytes() != case.data:
        reason = "input file modified"
    failed_with_output = outcome.rc != 0 and output.exists()
    if reason is None and case.pipeline.output_file and failed_with_output:
        reason = "-o file written by a failing run"
    if reason is not None:
        return Failure(case, reason, "run", tuple(args), outcome)
    if case.pipeline.reread is None or outcome.rc != 0:
        return None
    again = workdir / f"output.{case.pipeline.reread}"
    again.write_text(outcome.stdout)
    args = [str(again)]
    outcome = runner(args, timeout)
    reason = judge(outcome)
    if reason is not None:
        return Failure(case, reason, "reread", tuple(args), outcome)
    return None


def signature(failure: Failure, timeout: float) -> str:
    """What identifies a bug: the reason and, for a crash, the innermost frames."""
    if failure.reason == "hang":
        return f"hang in {failure.case.pipeline.name}"
    trace = failure.outcome.trace or traceback_of(failure.args, timeout)
    if not trace:
        first = failure.outcome.stderr.strip().splitlines()[:1]
        return f"{failure.reason}: {first[0] if first else ''}"
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\w+)', trace)
    last = trace.strip().splitlines()[-1].split(":", 1)[0]
    where = [f"{Path(f).name}:{n}:{fn}" for f, n, fn in frames[-2:]]
    return f"{last} at {' <- '.join(reversed(where))}"


def fuzz(
    seeds: Sequence[Seed],
    cases: range,
    seed: int,
    timeout: float,
    runner: Runner = run_in_process,
    *,
    pipes: Sequence[Pipeline] | None = None,
) -> Iterator[tuple[Case, Failure | None]]:
    """Run the cases `cases` of the run seeded `seed` (over `pipes`, by default every
    pipeline); yield each with its failure."""
    pipes = pipes or pipelines()
    with tempfile.TemporaryDirectory(prefix="tileas-fuzz-") as tmp:
        for index in cases:
            case = make_case(index, seed, seeds, pipes)
            yield case, run_case(case, Path(tmp), timeout, runner)


# -- reduction -----------------------------------------------------------------------------


def reduce(data: bytes, fails: Callable[[bytes], bool], deadline: float) -> bytes:
    """A smaller input that still fails: delta debugging over lines, then tokens, until
    no single chunk can go or `deadline` (a `time.monotonic()` value) has passed."""
    for unit in ("line", "token"):
        granularity = 2
        while time.monotonic() < deadline:
            parts = _line_chunks(data) if unit == "line" else _token_chunks(data)
            if len(parts) < 2:
                break
            size = max(1, len(parts) // granularity)
            for start in range(0, len(parts), size):
                candidate = b"".join(parts[:start] + parts[start + size :])
                if time.monotonic() >= deadline:
                    return data
                if fails(candidate):
                    data = candidate
                    granularity = max(granularity - 1, 2)
                    break
            else:
                if size == 1:
                    break
                granularity = min(granularity * 2, len(parts))
    return data


def _line_chunks(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _token_chunks(data: bytes) -> list[bytes]:
    """The tokens, each with the whitespace before it."""
    chunks: list[bytes] = []
    start = 0
    for _, end in tokens_of(data):
        chunks.append(data[start:end])
        start = end
    if start < len(data):
        chunks.append(data[start:])
    return chunks
