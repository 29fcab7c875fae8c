"""Time each tileas pass against xDSL's parse time of the same module, across sizes.

    python bench/tileas_passes.py                      # ~1e3, 1e4, 1e5 ops
    python bench/tileas_passes.py --units 30 300       # chosen sizes (units of ~33 ops)
    python bench/tileas_passes.py --profile tileas-plan-cta --units 3000

Every pass runs on a fresh copy (`clone()`) of a generated kernel (`generate.py`); the
report gives, per size, the parse time and each pass's time as a ratio to it. A pass that
scales linearly keeps its ratio as the module grows. Times are the process's CPU time
(the machine may be shared), best of `--repeat` runs. IR objects form reference cycles,
so garbage from earlier runs is collected before each measurement rather than inside
it. Nothing here asserts on times.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import OPS_PER_UNIT, kernel

from tileas_py.api import make_context
from tileas_py.passes import get_all_passes

PASSES = (
    "tileas-plan-cta",
    "tileas-dynamic-persistent",
    "tileas-insert-OCG-knobs",
    "sink-negf-through-shapes",
    "optimize-execution-unit-mapping",
    "propagate-execution-unit",
    "tileas-remove-buffer-alias",
    "tileas-remove-layout-conversions",
    "tileas-slicing",
    "tileas-prepare-for-scheduling",
    "tileas-resolve-agent-boundary",
)

DEFAULT_UNITS = (30, 300, 3000)


def best_of(repeat: int, run: Callable[[], float]) -> float:
    return min(run() for _ in range(repeat))


def timed_parse(ctx: Context, text: str) -> tuple[float, ModuleOp]:
    gc.collect()
    start = time.process_time()
    module = Parser(ctx, text).parse_module()
    return time.process_time() - start, module


def time_pass(ctx: Context, module: ModuleOp, pass_: ModulePass) -> float:
    """Run a pass on a fresh copy of the module."""
    copy = module.clone()
    gc.collect()
    start = time.process_time()
    pass_.apply(ctx, copy)
    return time.process_time() - start


def profile(pass_name: str, units: int) -> None:
    ctx = make_context()
    text = kernel(units)
    _, module = timed_parse(ctx, text)
    pass_ = get_all_passes()[pass_name]()()
    profiler = cProfile.Profile()
    profiler.runcall(pass_.apply, ctx, module)
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description="Time the tileas passes.")
    parser.add_argument("--units", type=int, nargs="*", default=list(DEFAULT_UNITS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--passes", nargs="*", default=list(PASSES))
    parser.add_argument("--profile", metavar="PASS")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, max(args.units))
        return

    ctx = make_context()
    timed_parse(ctx, kernel(1))  # warm up: lazy dialect imports are not parse time
    all_passes = get_all_passes()
    rows: list[tuple[int, float, dict[str, float]]] = []
    for units in args.units:
        text = kernel(units)
        _, module = timed_parse(ctx, text)
        num_ops = sum(1 for _ in module.walk())
        repeat = args.repeat if num_ops < 50_000 else 1
        parse = best_of(repeat, lambda t=text: timed_parse(ctx, t)[0])
        ratios: dict[str, float] = {}
        for name in args.passes:
            pass_ = all_passes[name]()()
            seconds = best_of(repeat, lambda p=pass_, m=module: time_pass(ctx, m, p))
            ratios[name] = seconds / parse
        rows.append((num_ops, parse, ratios))
        print(f"  measured {num_ops} ops (~{units * OPS_PER_UNIT})", file=sys.stderr)

    width = max(map(len, args.passes))
    print(f"{'ops':>{width}}" + "".join(f"{n:>12}" for n, _, _ in rows))
    print(f"{'parse (s)':>{width}}" + "".join(f"{p:>12.3f}" for _, p, _ in rows))
    print(f"{'pass time / parse time':>{width}}")
    for name in args.passes:
        print(f"{name:>{width}}" + "".join(f"{r[name]:>12.3f}" for _, _, r in rows))


if __name__ == "__main__":
    main()
