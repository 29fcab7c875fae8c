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

    .venv/bin/python test/fuzz/fuzzer.py --cases 50000 --jobs 2 --out fuzz-out

which prints a table of cases per corpus and pipeline and, for each distinct failure,
writes the input, a reduced input and the traceback under `--out`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from tileas_py.passes import get_all_passes
from tileas_py.tools.tileas_opt import run_tool

REPO_ROOT = Path(__file__).resolve().parents[2]
TOOL = Path(sys.executable).parent / "tileas-opt"

# -- the corpus ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Seed:
    """One input of the corpus: `kind` is the file extension tileas-opt reads it as."""

    name: str
    corpus: str
    kind: str
    data: bytes


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


# -- mutations -----------------------------------------------------------------------------

_TOKEN = re.compile(
    rb"[A-Za-z_$%#!^@.][\w$.]*|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\"(?:[^\"\\\n]|\\.)*\"|\S"
)
_NUMBER = re.compile(rb"(?<![\w.$%])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")

BOUNDARY_NUMBERS: tuple[bytes, ...] = (
    b"0",
    b"-1",
    b"1",
    b"-0",
    b"2",
    b"3",
    b"7",
    b"127",
    b"128",
    b"255",
    b"256",
    b"4096",
    b"65535",
    b"65536",
    b"2147483647",
    b"2147483648",
    b"-2147483648",
    b"-2147483649",
    b"4294967295",
    b"4294967296",
    b"9223372036854775807",
    b"9223372036854775808",
    b"-9223372036854775809",
    b"18446744073709551616",
    b"340282366920938463463374607431768211456",
    b"1" * 5000,
    b"0x",
    b"0xFFFFFFFFFFFFFFFFFFFF",
    b"0x7fffffff",
    b"0b102",
    b"09",
    b"1e309",
    b"-1e309",
    b"1.5",
    b"nan",
    b"inf",
    b"0f7FC00000",
    b"0d7FF8000000000000",
    b"1e-400",
)

NESTING: tuple[tuple[bytes, bytes], ...] = (
    (b"(", b")"),
    (b"[", b"]"),
    (b"{", b"}"),
    (b"<", b">"),
    (b"!llvm.ptr<", b">"),
    (b"tensor<", b">"),
    (b"!nvvm.struct<(", b")>"),
    (b"scf.execute_region { ", b" }"),
    (b"[[", b"]]"),
)


@dataclass
class Mutation:
    """The random choices of one case; `applied` names the mutations, for the report."""

    rng: random.Random
    seeds: Sequence[Seed]
    applied: list[str] = field(default_factory=lambda: [])


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _tokens(data: bytes) -> list[tuple[int, int]]:
    return [m.span() for m in _TOKEN.finditer(data)]


def _pick_token(m: Mutation, data: bytes) -> tuple[int, int] | None:
    tokens = _tokens(data)
    return m.rng.choice(tokens) if tokens else None


def delete_line(m: Mutation, data: bytes) -> bytes:
    lines = _lines(data)
    i = m.rng.randrange(len(lines))
    n = m.rng.choice((1, 1, 1, 2, 5))
    return b"\n".join(lines[:i] + lines[i + n :])


def duplicate_line(m: Mutation, data: bytes) -> bytes:
    lines = _lines(data)
    i = m.rng.randrange(len(lines))
    j = m.rng.randrange(len(lines) + 1)
    return b"\n".join([*lines[:j], lines[i], *lines[j:]])


def swap_lines(m: Mutation, data: bytes) -> bytes:
    lines = _lines(data)
    i, j = m.rng.randrange(len(lines)), m.rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def delete_token(m: Mutation, data: bytes) -> bytes:
    span = _pick_token(m, data)
    if span is None:
        return data
    return data[: span[0]] + data[span[1] :]


def duplicate_token(m: Mutation, data: bytes) -> bytes:
    span = _pick_token(m, data)
    if span is None:
        return data
    token = data[span[0] : span[1]]
    return data[: span[1]] + b" " + token + data[span[1] :]


def swap_tokens(m: Mutation, data: bytes) -> bytes:
    tokens = _tokens(data)
    if len(tokens) < 2:
        return data
    a, b = sorted(m.rng.sample(tokens, 2))
    if a[1] > b[0]:
        return data
    return (
        data[: a[0]]
        + data[b[0] : b[1]]
        + data[a[1] : b[0]]
        + data[a[0] : a[1]]
        + data[b[1] :]
    )


def _token_class(token: bytes) -> int:
    return 0 if token[:1].isdigit() or token[:1] == b"-" else 1 if len(token) > 1 else 2


def replace_token(m: Mutation, data: bytes) -> bytes:
    """A token of another seed of the same kind, in place of one of this; mostly one of
    the same class (name, number, punctuation), which keeps more inputs well-formed."""
    span = _pick_token(m, data)
    if span is None:
        return data
    token = data[span[0] : span[1]]
    donor = m.rng.choice(m.seeds).data
    tokens = [donor[a:b] for a, b in _tokens(donor)]
    if m.rng.random() < 0.8:
        tokens = [t for t in tokens if _token_class(t) == _token_class(token)]
    if not tokens:
        return data
    return data[: span[0]] + m.rng.choice(tokens) + data[span[1] :]


def replace_line(m: Mutation, data: bytes) -> bytes:
    """A line of another seed in place of one of this."""
    lines = _lines(data)
    donor = _lines(m.rng.choice(m.seeds).data)
    lines[m.rng.randrange(len(lines))] = m.rng.choice(donor)
    return b"\n".join(lines)


def splice(m: Mutation, data: bytes) -> bytes:
    """A few lines of another seed, inserted at a random line."""
    donor = _lines(m.rng.choice(m.seeds).data)
    start = m.rng.randrange(len(donor))
    piece = donor[start : start + m.rng.choice((1, 2, 4, 10, 40))]
    lines = _lines(data)
    at = m.rng.randrange(len(lines) + 1)
    return b"\n".join([*lines[:at], *piece, *lines[at:]])


def boundary_number(m: Mutation, data: bytes) -> bytes:
    numbers = [x.span() for x in _NUMBER.finditer(data)]
    if not numbers:
        return data
    start, end = m.rng.choice(numbers)
    return data[:start] + m.rng.choice(BOUNDARY_NUMBERS) + data[end:]


def truncate(m: Mutation, data: bytes) -> bytes:
    return data[: m.rng.randrange(len(data) + 1)]


def random_bytes(m: Mutation, data: bytes) -> bytes:
    at = m.rng.randrange(len(data) + 1)
    alphabet = m.rng.choice(
        (
            b"{}[]()<>,;:=@%#!^\"'\\-+*./ \n\t0123456789abcdefxyz_$",
            bytes(range(256)),
        )
    )
    noise = bytes(m.rng.choice(alphabet) for _ in range(m.rng.randrange(1, 9)))
    cut = m.rng.choice((0, 0, 1, 4))
    return data[:at] + noise + data[at + cut :]


def non_utf8(m: Mutation, data: bytes) -> bytes:
    at = m.rng.randrange(len(data) + 1)
    bad = m.rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80abc", b"\xfe\xff"))
    return data[:at] + bad + data[at:]


def deep_nesting(m: Mutation, data: bytes) -> bytes:
    opening, closing = m.rng.choice(NESTING)
    depth = m.rng.choice((50, 300, 1000, 5000, 20000))
    span = _pick_token(m, data)
    if span is None:
        return opening * depth + closing * depth
    start, end = span
    closed = m.rng.random() < 0.5
    return (
        data[:start]
        + opening * depth
        + data[start:end]
        + (closing * depth if closed else b"")
        + data[end:]
    )


def long_line(m: Mutation, data: bytes) -> bytes:
    span = _pick_token(m, data)
    if span is None:
        return data
    start, end = span
    token = data[start:end]
    count = m.rng.choice((1000, 20000, 100000))
    choice = m.rng.randrange(3)
    if choice == 0:
        filler = b", ".join([token] * count)
    elif choice == 1:
        filler = token + b"x" * count
    else:
        filler = b"9" * count
    return data[:start] + filler + data[end:]


def split_marker(m: Mutation, data: bytes) -> bytes:
    lines = _lines(data)
    at = m.rng.randrange(len(lines) + 1)
    return b"\n".join([*lines[:at], b"// -----", *lines[at:]])


MUTATORS: tuple[Callable[[Mutation, bytes], bytes], ...] = (
    delete_line,
    delete_line,
    duplicate_line,
    swap_lines,
    delete_token,
    delete_token,
    duplicate_token,
    swap_tokens,
    replace_token,
    replace_token,
    replace_token,
    replace_line,
    splice,
    boundary_number,
    boundary_number,
    truncate,
    random_bytes,
    non_utf8,
    deep_nesting,
    long_line,
    split_marker,
)


def mutate(m: Mutation, data: bytes) -> bytes:
    """One to four mutations of `data`, mostly the cheap local ones."""
    for _ in range(m.rng.choice((1, 1, 1, 2, 2, 3, 4))):
        mutator = m.rng.choice(MUTATORS)
        m.applied.append(mutator.__name__)
        data = mutator(m, data) if data else data
    return data


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
) -> Iterator[tuple[Case, Failure | None]]:
    """Run the cases `cases` of the run seeded `seed`; yield each with its failure."""
    pipes = pipelines()
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
    for _, end in _tokens(data):
        chunks.append(data[start:end])
        start = end
    if start < len(data):
        chunks.append(data[start:])
    return chunks


# -- the campaign --------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """A failing case as the campaign reports it; `files` only for a worker's first of
    a signature (the input, the reduced input and the traceback)."""

    corpus: str
    pipeline: str
    signature: str
    description: str
    files: dict[str, bytes]


_SEEDS: list[Seed] = []
_SEEN: set[str] = set()


def _init_worker(seeds: list[Seed], memory: int) -> None:
    _SEEDS[:] = seeds
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def _worker(job: tuple[int, int, int, float]) -> list[Finding | tuple[str, str]]:
    """Cases `start` to `stop`: a (corpus, pipeline) pair for each that passes."""
    start, stop, seed, timeout = job
    results: list[Finding | tuple[str, str]] = []
    for case, failure in fuzz(_SEEDS, range(start, stop), seed, timeout):
        if failure is None:
            results.append((case.seed.corpus, case.pipeline.name))
            continue
        sig = signature(failure, timeout)
        files = {} if sig in _SEEN else _evidence(failure, sig, timeout)
        _SEEN.add(sig)
        description = (
            f"case {case.index}: {case.seed.name} + {', '.join(case.mutations)}, "
            f"{case.pipeline.name} ({failure.stage})"
        )
        results.append(
            Finding(case.seed.corpus, case.pipeline.name, sig, description, files)
        )
    return results


def _evidence(failure: Failure, sig: str, timeout: float) -> dict[str, bytes]:
    case = failure.case
    if failure.stage == "run":
        kind, data, pipe = case.seed.kind, case.data, case.pipeline
    else:
        kind = Path(failure.args[0]).suffix[1:]
        data, pipe = Path(failure.args[0]).read_bytes(), Pipeline("no-passes")
    origin = Seed("reduced", "reduced", kind, b"")

    def fails(candidate: bytes) -> bool:
        with tempfile.TemporaryDirectory(prefix="tileas-reduce-") as tmp:
            small = Case(case.index, origin, (), pipe, candidate)
            again = run_case(small, Path(tmp), min(timeout, 10))
            return again is not None and signature(again, timeout) == sig

    reduced = data
    if failure.reason != "hang":
        reduced = reduce(data, fails, time.monotonic() + 120)
    trace = failure.outcome.trace or traceback_of(failure.args, timeout)
    report = (
        f"signature: {sig}\nreason: {failure.reason}\nseed file: {case.seed.name}\n"
        f"case: {case.index}\nmutations: {', '.join(case.mutations)}\n"
        f"pipeline: {pipe.name} {' '.join(pipe.args)}\nstage: {failure.stage}\n"
        f"stderr:\n{failure.outcome.stderr[-3000:]}\n{trace[-8000:]}"
    )
    return {
        f"input.{kind}": data,
        f"reduced.{kind}": reduced,
        "report.txt": report.encode(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--start", type=int, default=0, help="first case index")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per run")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--memory-mb", type=int, default=3072, help="per worker")
    parser.add_argument("--out", type=Path, default=Path("fuzz-out"))
    args = parser.parse_args(argv)

    import multiprocessing

    began = time.monotonic()
    seeds = load_corpus()
    args.out.mkdir(parents=True, exist_ok=True)
    passed: Counter[tuple[str, str]] = Counter()
    failed: Counter[tuple[str, str]] = Counter()
    bugs: dict[str, tuple[int, Finding]] = {}
    per_bug: Counter[str] = Counter()
    end = args.start + args.cases
    jobs = [
        (i, min(i + 25, end), args.seed, args.timeout)
        for i in range(args.start, end, 25)
    ]
    context = multiprocessing.get_context("fork")
    initargs = (seeds, args.memory_mb << 20)
    with context.Pool(args.jobs, _init_worker, initargs, maxtasksperchild=40) as pool:
        for done, results in enumerate(pool.imap_unordered(_worker, jobs), 1):
            for result in results:
                if not isinstance(result, Finding):
                    passed[result] += 1
                    continue
                failed[result.corpus, result.pipeline] += 1
                per_bug[result.signature] += 1
                known = bugs.get(result.signature)
                if known is None or (result.files and not known[1].files):
                    number = known[0] if known else len(bugs) + 1
                    bugs[result.signature] = (number, result)
                    folder = args.out / f"bug{number:03d}"
                    folder.mkdir(exist_ok=True)
                    for name, content in result.files.items():
                        (folder / name).write_bytes(content)
                    if known is None:
                        print(f"bug{number:03d}: {result.signature}", flush=True)
            if done % 40 == 0:
                total = passed.total() + failed.total()
                print(f"{total} cases, {time.monotonic() - began:.0f} s", flush=True)
    seconds = time.monotonic() - began
    report = _report(
        passed=passed,
        failed=failed,
        bugs=bugs,
        per_bug=per_bug,
        seeds=seeds,
        args=args,
        seconds=seconds,
    )
    (args.out / "report.txt").write_text(report)
    print(report)
    return 1 if bugs else 0


def _report(
    *,
    passed: Counter[tuple[str, str]],
    failed: Counter[tuple[str, str]],
    bugs: dict[str, tuple[int, Finding]],
    per_bug: Counter[str],
    seeds: Sequence[Seed],
    args: argparse.Namespace,
    seconds: float,
) -> str:
    runs = passed + failed
    corpora = sorted({c for c, _ in runs} | {s.corpus for s in seeds})
    pipes = sorted({p for _, p in runs})
    seed_files = Counter(s.corpus for s in seeds)
    width = max((len(p) for p in pipes), default=8)

    def row(label: str, counts: list[int]) -> str:
        cells = " ".join(f"{n:>9}" for n in counts)
        return f"{label:<{width}} {cells} {sum(counts):>9}"

    lines = [
        f"cases {args.start}..{args.start + args.cases - 1} of seed {args.seed}: "
        f"{seconds:.0f} s wall, {args.jobs} jobs, {args.timeout:g} s timeout per run",
        "seed files: " + ", ".join(f"{c} {seed_files[c]}" for c in corpora),
        "",
        f"{'pipeline':<{width}} " + " ".join(f"{c:>9}" for c in corpora) + "     total",
        *(row(p, [runs[c, p] for c in corpora]) for p in pipes),
        row("total", [sum(runs[c, p] for p in pipes) for c in corpora]),
        row("failing", [sum(failed[c, p] for p in pipes) for c in corpora]),
        "",
        f"{len(bugs)} distinct failures",
    ]
    for sig, (number, finding) in sorted(bugs.items(), key=lambda b: b[1][0]):
        lines.append(f"  bug{number:03d} x{per_bug[sig]}: {sig}")
        lines.append(f"      first: {finding.description}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
