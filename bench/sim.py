"""The simulator's speed: wall time and thread-instructions per second on real kernels.

    .venv/bin/python bench/sim.py            # every workload, with and without the checker
    .venv/bin/python bench/sim.py --profile gemm_sm90a

Workloads (all at small sizes, the way the tests run them):

- `gemm_sm90a`: the project's warp-specialised GEMM example at 256^3 (4 CTAs of 384 threads,
  TMA, mbarrier pipelines, 128 wgmma), lowered from the tile level;
- `triton_tma_persistent`, `triton_cp_async`: Triton 3.9's persistent TMA GEMM and its
  cp.async + wgmma GEMM at 256^3 (test/sim/kernels/triton);
- `vadd`: a plain vector add over 2^20 elements (4096 CTAs of 256 threads), for the cost of
  scalar code spread over many CTAs.

Each is run with the hazard checker (as `launch` always runs) and without it
(`run_prepared(track=False)`), so the checker's share shows. Preparing (parsing, lowering,
the fixup) is timed apart from running. Wall-clock seconds, best of `--repeat`; nothing
asserts on them. The issue's goal: `gemm_sm90a` at 256^3 in under 30 s on one core.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "sim"))

from tileas_py import api  # noqa: E402 (after the path for the test helpers)
from tileas_py.sim.launch import Prepared, prepare, run_prepared  # noqa: E402
from tileas_py.sim.report import Report  # noqa: E402


@dataclass
class Workload:
    name: str
    prepare: Callable[[], Prepared]
    run: Callable[[Prepared, bool], Report]


def _gemm_sm90a() -> Workload:
    text = (REPO / "examples" / "gemm_sm90a.mlir").read_text().replace("4096", "256")

    def run(prepared: Prepared, track: bool) -> Report:
        rng = np.random.default_rng(0)
        a = rng.integers(-3, 4, size=(256, 256)).astype(np.float16)
        b = rng.integers(-3, 4, size=(256, 256)).astype(np.float16)
        c = np.zeros((256, 256), dtype=np.float32)
        return run_prepared(prepared, "gemm", (2, 2), 384, [a, b, c], track=track)

    return Workload(
        "gemm_sm90a", lambda: prepare(api.parse_mlir(text, "gemm_sm90a.mlir")), run
    )


def _triton(name: str, kernel: str) -> Workload:
    run_triton: Any = import_module("run_triton")
    triton_kernels: Any = import_module("triton_kernels")
    manifest: dict[str, Any] = triton_kernels.load_manifest()[kernel]
    path = Path(triton_kernels.KERNELS_DIR) / str(manifest["ptx"])
    original: Any = run_triton.launch

    def run(prepared: Prepared, track: bool) -> Report:
        def launch_prepared(
            source: Any, entry: str, grid: Any, block: Any, args: Any, **options: Any
        ) -> Report:
            del source
            return run_prepared(
                prepared, entry, grid, block, args, track=track, **options
            )

        run_triton.launch = launch_prepared
        try:
            result: tuple[Any, Any, Report] = run_triton.launch_kernel(
                kernel, 256, 256, 256, num_sms=2
            )
            return result[2]
        finally:
            run_triton.launch = original

    return Workload(name, lambda: prepare(path), run)


VADD = """.version 8.0
.target sm_90a
.address_size 64
.visible .entry vadd(.param .u64 a, .param .u64 b)
{
  .reg .b32 %r<5>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [b];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd3, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  ld.global.f32 %f2, [%rd3];
  add.f32 %f1, %f1, %f2;
  st.global.f32 [%rd4], %f1;
  ret;
}
"""


def _vadd() -> Workload:
    n = 1 << 20

    def run(prepared: Prepared, track: bool) -> Report:
        a = np.arange(n, dtype=np.float32)
        b = np.ones(n, dtype=np.float32)
        return run_prepared(prepared, "vadd", n // 256, 256, [a, b], track=track)

    return Workload("vadd", lambda: prepare(VADD), run)


WORKLOADS: dict[str, Callable[[], Workload]] = {
    "gemm_sm90a": _gemm_sm90a,
    "triton_tma_persistent": lambda: _triton(
        "triton_tma_persistent", "tma_persistent_f16"
    ),
    "triton_cp_async": lambda: _triton("triton_cp_async", "cp_async_f16"),
    "vadd": _vadd,
}


def _best(run: Callable[[], Report], repeat: int) -> tuple[float, Report]:
    best = float("inf")
    report: Report | None = None
    for _ in range(repeat):
        start = time.perf_counter()
        report = run()
        best = min(best, time.perf_counter() - start)
    assert report is not None
    return best, report


def _row(workload: Workload, repeat: int) -> str:
    start = time.perf_counter()
    prepared = workload.prepare()
    prepare_s = time.perf_counter() - start
    checked, report = _best(lambda: workload.run(prepared, True), repeat)
    bare, _ = _best(lambda: workload.run(prepared, False), repeat)
    instructions = report.thread_instructions
    return (
        f"| {workload.name} | {prepare_s:.2f} | {checked:.2f} | {instructions} | "
        f"{instructions / checked / 1e6:.2f} | {report.steps} | {bare:.2f} | "
        f"{(checked - bare) / checked:.0%} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description="The simulator's speed on real kernels."
    )
    parser.add_argument("names", nargs="*", default=list(WORKLOADS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--profile", help="profile one workload's run (with the checker)"
    )
    args = parser.parse_args()
    if args.profile:
        workload = WORKLOADS[args.profile]()
        prepared = workload.prepare()
        profiler = cProfile.Profile()
        profiler.runcall(workload.run, prepared, True)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
        return
    print(
        "| workload | prepare s | run s | thread-instructions | M thread-instr / s | "
        "steps | run s without checker | checker share |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in args.names:
        print(_row(WORKLOADS[name](), args.repeat))


if __name__ == "__main__":
    main()
