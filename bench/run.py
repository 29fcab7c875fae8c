"""Every stage of tileas-py, timed against xDSL's parse time of the same input (and ptxas).

    .venv/bin/python bench/run.py                # three sizes per input family
    .venv/bin/python bench/run.py --quick        # small sizes only, a smoke run
    .venv/bin/python bench/run.py --no-ptxas     # skip the real ptxas
    .venv/bin/python bench/run.py --families nvvm ptx
    .venv/bin/python bench/run.py --families ptx --stages ptxas-pipeline --no-ptxas
    .venv/bin/python bench/run.py --profile convert-nvvm-to-ori --size 200

Three generated input families, each at growing sizes (the generators of the other
scripts in this folder):

- tile: a `nv_tileas` kernel (`generate.py`); stages: every tileas pass, printing;
- nvvm: an NVVM GEMM-like kernel (`convert_nvvm_to_ori.py`); stages: convert-nvvm-to-ori,
  writing PTX, and ptxas on that PTX;
- ptx: a PTX kernel (`ptx_roundtrip.py`, complete WGMMA stages) and ptx-in-flight (the
  kernel of `ptxas_gmma.py` whose stages leave accumulators in flight, so the GMMA phases
  inject waits); stages: reading PTX into ori, every pass and pipeline on ori (`ori-*` and
  `ptxas-*` in the registry), writing PTX, and ptxas on the same file.

A stage's ratio is its CPU time over xDSL's time to parse the same program as MLIR (for
PTX: the ori MLIR that `tileas-opt` prints for it), so a linear stage keeps its ratio as
the input grows. For PTX inputs, `ours / ptxas` is reading + the costliest pipeline (or
every pass, when there is none) + writing over the real ptxas's CPU time on the same file. Times are process CPU seconds, best of `--repeat`, with
garbage collected before each measurement; nothing here asserts on them.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

sys.path.insert(0, str(Path(__file__).resolve().parent))

import convert_nvvm_to_ori as nvvm_bench
import generate as tile_bench
import ptx_roundtrip as ptx_bench
import ptxas_gmma as gmma_bench

from tileas_py.api import make_context
from tileas_py.diagnostics import collect_diagnostics
from tileas_py.passes import PASSES, get_all_passes
from tileas_py.ptx.reader import read_ptx
from tileas_py.ptx.writer import write_ptx

SIZES = {
    "tile": (30, 100, 300),
    "nvvm": (25, 50, 100),
    "ptx": (1000, 3000, 10000),
    "ptx-in-flight": (1000, 3000, 10000),
}
QUICK_SIZES = {
    "tile": (3, 10),
    "nvvm": (5, 10),
    "ptx": (200, 600),
    "ptx-in-flight": (200, 600),
}
TILE_PASSES = tuple(name for name, path in PASSES.items() if ".passes.tileas." in path)
ORI_PASSES = tuple(name for name in PASSES if name.startswith(("ori-", "ptxas-")))
PIPELINES = frozenset(name for name, path in PASSES.items() if ".pipelines:" in path)
PTX_GENERATORS: dict[str, Callable[[int], str]] = {
    "ptx": ptx_bench.generate,
    "ptx-in-flight": gmma_bench.generate_in_flight,
}


def cpu_seconds(run: Callable[[], object], repeat: int) -> float:
    """The best CPU time of `repeat` runs of `run`."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


@dataclass
class Measurement:
    """One input: its size, xDSL's parse time and each stage's time."""

    family: str
    size: int
    ops: int
    parse: float
    stages: dict[str, float] = field(default_factory=lambda: {})
    ptxas: float | None = None
    ours: float | None = None


def parse(ctx: Context, text: str) -> ModuleOp:
    return Parser(ctx, text).parse_module()


def mlir_text(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def ptx_text(module: ModuleOp) -> str:
    out = io.StringIO()
    write_ptx(module, out)
    return out.getvalue()


def run_pass(ctx: Context, name: str, module: ModuleOp) -> None:
    """Run one pass; its warnings and remarks are collected, not printed."""
    with collect_diagnostics():
        get_all_passes()[name]()().apply(ctx, module)


def time_pass(ctx: Context, name: str, module: ModuleOp, repeat: int) -> float:
    """A pass on fresh copies of `module` (cloning is not timed)."""
    best = float("inf")
    for _ in range(repeat):
        copy = module.clone()
        best = min(best, cpu_seconds(lambda c=copy: run_pass(ctx, name, c), 1))
    return best


def ptxas_seconds(ptx: str) -> float | None:
    ptxas = ptx_bench.find_tool("ptxas")
    if ptxas is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.ptx"
        path.write_text(ptx)
        return ptx_bench.time_ptxas(path)


def measure_tile(ctx: Context, units: int, repeat: int) -> Measurement:
    text = tile_bench.kernel(units)
    module = parse(ctx, text)
    row = Measurement(
        "tile", units, ops(module), cpu_seconds(lambda: parse(ctx, text), repeat)
    )
    for name in TILE_PASSES:
        row.stages[name] = time_pass(ctx, name, module, repeat)
    row.stages["print MLIR"] = cpu_seconds(lambda: mlir_text(module), repeat)
    return row


def measure_nvvm(ctx: Context, steps: int, repeat: int, ptxas: bool) -> Measurement:
    text = nvvm_bench.kernel(steps)
    module = parse(ctx, text)
    row = Measurement(
        "nvvm", steps, ops(module), cpu_seconds(lambda: parse(ctx, text), repeat)
    )
    row.stages["convert-nvvm-to-ori"] = time_pass(
        ctx, "convert-nvvm-to-ori", module, repeat
    )
    run_pass(ctx, "convert-nvvm-to-ori", module)
    row.stages["write PTX"] = cpu_seconds(lambda: ptx_text(module), repeat)
    if ptxas:
        row.ptxas = ptxas_seconds(ptx_text(module))
    return row


def measure_ptx(
    ctx: Context,
    family: str,
    size: int,
    repeat: int,
    ptxas: bool,
    *,
    stages: tuple[str, ...] = ORI_PASSES,
) -> Measurement:
    text = PTX_GENERATORS[family](size)
    module = read_ptx(text, "bench.ptx")
    as_mlir = mlir_text(module)
    row = Measurement(
        family, size, ops(module), cpu_seconds(lambda: parse(ctx, as_mlir), repeat)
    )
    row.stages["read PTX"] = cpu_seconds(lambda: read_ptx(text, "bench.ptx"), repeat)
    for name in stages:
        row.stages[name] = time_pass(ctx, name, module, repeat)
    row.stages["write PTX"] = cpu_seconds(lambda: ptx_text(module), repeat)
    if ptxas:
        row.ptxas = ptxas_seconds(text)
        # Pipelines repeat their passes: count the costliest pipeline (the one that runs
        # the most phases), or every pass when there is none.
        pipelines = [row.stages[n] for n in stages if n in PIPELINES]
        on_ori = max(pipelines) if pipelines else sum(row.stages[n] for n in stages)
        row.ours = row.stages["read PTX"] + on_ori + row.stages["write PTX"]
    return row


def ops(module: ModuleOp) -> int:
    return sum(1 for _ in module.walk())


def measurements(args: argparse.Namespace) -> Iterator[Measurement]:
    ctx = make_context()
    parse(ctx, tile_bench.kernel(1))  # lazy dialect imports are not parse time
    sizes = QUICK_SIZES if args.quick else SIZES
    ptxas = not args.no_ptxas
    for family in args.families:
        for size in sizes[family]:
            if family == "tile":
                yield measure_tile(ctx, size, args.repeat)
            elif family == "nvvm":
                yield measure_nvvm(ctx, size, args.repeat, ptxas)
            else:
                stages = tuple(args.stages or ORI_PASSES)
                yield measure_ptx(ctx, family, size, args.repeat, ptxas, stages=stages)


def table(rows: list[Measurement]) -> str:
    """A Markdown table per family: stages down, sizes across, ratios to parse time."""
    out: list[str] = []
    for family in dict.fromkeys(r.family for r in rows):
        group = [r for r in rows if r.family == family]
        out += [
            f"### {family}",
            "",
            "| stage | " + " | ".join(f"{r.ops} ops" for r in group) + " |",
            "| --- |" + " ---: |" * len(group),
            "| xDSL parse (s) | " + " | ".join(f"{r.parse:.3f}" for r in group) + " |",
        ]
        for stage in group[0].stages:
            cells = " | ".join(f"{r.stages[stage] / r.parse:.2f}" for r in group)
            out.append(f"| {stage} / parse | {cells} |")
        if any(r.ptxas is not None for r in group):
            out.append(
                "| ptxas (s) | " + " | ".join(_seconds(r.ptxas) for r in group) + " |"
            )
        if any(r.ours is not None and r.ptxas for r in group):
            cells = " | ".join(
                f"{r.ours / r.ptxas:.2f}" if r.ours is not None and r.ptxas else "-"
                for r in group
            )
            out.append(f"| ours / ptxas | {cells} |")
        out.append("")
    return "\n".join(out)


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def profile(stage: str, size: int) -> None:
    """cProfile of one stage: a pass name, or `read PTX` / `write PTX` (on the
    ptx-in-flight input, which every ori pass has work to do on)."""
    ctx = make_context()
    if stage in TILE_PASSES:
        module = parse(ctx, tile_bench.kernel(size))
        target: Callable[[], object] = lambda: run_pass(ctx, stage, module)  # noqa: E731
    elif stage == "convert-nvvm-to-ori":
        module = parse(ctx, nvvm_bench.kernel(size))
        target = lambda: run_pass(ctx, stage, module)  # noqa: E731
    else:
        text = gmma_bench.generate_in_flight(size)
        module = read_ptx(text, "bench.ptx")
        target = {
            "read PTX": lambda: read_ptx(text, "bench.ptx"),
            "write PTX": lambda: ptx_text(module),
        }.get(stage, lambda: run_pass(ctx, stage, module))
    profiler = cProfile.Profile()
    profiler.runcall(target)
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    parser.add_argument("--no-ptxas", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--families",
        nargs="*",
        choices=list(SIZES),
        default=list(SIZES),
        metavar="FAMILY",
    )
    parser.add_argument(
        "--stages",
        nargs="*",
        choices=ORI_PASSES,
        metavar="STAGE",
        help="the ori passes and pipelines to time on PTX inputs (default: all)",
    )
    parser.add_argument("--profile", metavar="STAGE", help="profile one stage")
    parser.add_argument("--size", type=int, default=100, help="input size to profile")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args.size)
        return
    rows: list[Measurement] = []
    for row in measurements(args):
        print(f"  measured {row.family} {row.size} ({row.ops} ops)", file=sys.stderr)
        rows.append(row)
    print(table(rows))


if __name__ == "__main__":
    main()
