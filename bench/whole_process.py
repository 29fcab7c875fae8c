"""`tileas-opt` as a whole process: start-up, and `-p ptxas-gmma` against the real ptxas.

    .venv/bin/python bench/whole_process.py             # median of 5 runs of each command
    .venv/bin/python bench/whole_process.py --runs 9 K.ptx ...   # other PTX files too

What a user waits for is the whole process: the interpreter, the imports, dialect and pass
registration, reading the input, the pipeline and printing. Rows:

- `tileas-opt empty.mlir`: start-up alone (`builtin.module {}`);
- for each GEMM (Triton 3.9.0's persistent TMA GEMM from `test/sim/kernels/triton/`,
  CUTLASS's CuTe DSL Hopper `dense_gemm` from `bench/kernels/`, and any PTX given on the
  command line): `tileas-opt K.ptx -p ptxas-gmma`, then `ptxas -arch=sm_90a K.ptx -o
  /dev/null` (the wheel's ptxas 13.5), and their ratio.

The commands run in turn, round after round, so that both sides of a ratio see the same
load; each cell is the median over the rounds of wall-clock seconds and of CPU seconds
(user + system of the child), and the ratios are of the medians. A shared machine moves
wall time far more than CPU time. The children compile their bytecode once, into a
temporary `PYTHONPYCACHEPREFIX` (a warm-up round, not counted), as an installed package
has it: a `PYTHONDONTWRITEBYTECODE` environment would otherwise compile every module on
every run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tileas_py.ptx.toolchain import find_tool

ROOT = Path(__file__).resolve().parent.parent
GEMMS = (
    ROOT / "test/sim/kernels/triton/tma_persistent_f16.ptx",
    ROOT / "bench/kernels/cutlass_dense_gemm_128x128_sm90a.ptx",
)
TILEAS_OPT = Path(sys.executable).parent / "tileas-opt"


@dataclass
class Command:
    """One command line and its measured runs."""

    label: str
    argv: list[str]
    wall: list[float] = field(default_factory=lambda: [])
    cpu: list[float] = field(default_factory=lambda: [])

    def run(self, env: dict[str, str]) -> tuple[float, float]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(self.argv, env=env, capture_output=True, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(
                f"{' '.join(self.argv)} failed:\n{done.stderr.decode(errors='replace')}"
            )
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu

    def median(self) -> tuple[float, float]:
        return statistics.median(self.wall), statistics.median(self.cpu)


def commands(empty: Path, gemms: list[Path], ptxas: Path) -> list[Command]:
    rows = [Command("tileas-opt empty.mlir", [str(TILEAS_OPT), str(empty)])]
    for path in gemms:
        rows.append(
            Command(
                f"tileas-opt {path.name} -p ptxas-gmma",
                [str(TILEAS_OPT), str(path), "-p", "ptxas-gmma"],
            )
        )
        rows.append(
            Command(
                f"ptxas {path.name}",
                [str(ptxas), "-arch=sm_90a", str(path), "-o", os.devnull],
            )
        )
    return rows


def table(rows: list[Command]) -> str:
    lines = [
        "| command | wall s | CPU s | ours / ptxas (wall) | ours / ptxas (CPU) |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for i, row in enumerate(rows):
        wall, cpu = row.median()
        ratio = ("", "")
        if row.label.startswith("ptxas "):
            ours_wall, ours_cpu = rows[i - 1].median()
            ratio = (f"{ours_wall / wall:.1f}", f"{ours_cpu / cpu:.1f}" if cpu else "")
        lines.append(
            f"| `{row.label}` | {wall:.3f} | {cpu:.3f} | {ratio[0]} | {ratio[1]} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="tileas-opt as a whole process")
    parser.add_argument("ptx", nargs="*", type=Path, help="more PTX files to compare")
    parser.add_argument("--runs", type=int, default=5, help="rounds (default 5)")
    args = parser.parse_args()
    ptxas = find_tool("ptxas")
    if ptxas is None:
        raise SystemExit("ptxas not found (install the test extra)")
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.mlir"
        empty.write_text("builtin.module {}\n")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        rows = commands(empty, [*GEMMS, *args.ptx], ptxas)
        # A warm-up round: bytecode compiled and cached, the files in the page cache.
        for row in rows:
            row.run(env)
        for _ in range(args.runs):
            for row in rows:
                wall, cpu = row.run(env)
                row.wall.append(wall)
                row.cpu.append(cpu)
    print(f"median of {args.runs} runs; ptxas: {ptxas}")
    print(table(rows))


if __name__ == "__main__":
    main()
