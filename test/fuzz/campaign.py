"""The long fuzz campaign: many cases of fuzzer.py, in parallel, with a report.

    .venv/bin/python test/fuzz/campaign.py --cases 40000 --jobs 16 --out fuzz-out

`--seeds TEXT` and `--pipelines TEXT` (each repeatable) narrow the campaign to the seed
files and pipelines whose names contain one of the texts, to aim it at new code.

prints a table of cases per corpus and pipeline and, for each distinct failure (its
signature: the exception and innermost frames, or the hang), writes the input, a reduced
input and the traceback under `--out`; exit status 1 when anything failed.
docs/robustness.md records the campaigns run and what they found.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fuzzer import (
    Case,
    Failure,
    Pipeline,
    Seed,
    fuzz,
    load_corpus,
    pipelines,
    reduce,
    run_case,
    signature,
    traceback_of,
)


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
_PIPES: list[Pipeline] = []
_SEEN: set[str] = set()


def _init_worker(seeds: list[Seed], pipes: list[Pipeline], memory: int) -> None:
    _SEEDS[:] = seeds
    _PIPES[:] = pipes
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def _worker(job: tuple[int, int, int, float]) -> list[Finding | tuple[str, str]]:
    """Cases `start` to `stop`: a (corpus, pipeline) pair for each that passes."""
    start, stop, seed, timeout = job
    results: list[Finding | tuple[str, str]] = []
    for case, failure in fuzz(_SEEDS, range(start, stop), seed, timeout, pipes=_PIPES):
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
    parser.add_argument("--seeds", action="append", default=[], metavar="TEXT")
    parser.add_argument("--pipelines", action="append", default=[], metavar="TEXT")
    args = parser.parse_args(argv)

    import multiprocessing

    began = time.monotonic()
    seeds = [s for s in load_corpus() if _named(s.name, args.seeds)]
    pipes = [p for p in pipelines() if _named(p.name, args.pipelines)]
    if not seeds or not pipes:
        parser.error("--seeds / --pipelines leave nothing to run")
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
    initargs = (seeds, pipes, args.memory_mb << 20)
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


def _named(name: str, texts: Sequence[str]) -> bool:
    return not texts or any(text in name for text in texts)


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
        *(
            [f"narrowed to seeds {args.seeds} and pipelines {args.pipelines}"]
            if args.seeds or args.pipelines
            else []
        ),
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
