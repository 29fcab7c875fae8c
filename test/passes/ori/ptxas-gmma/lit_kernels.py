"""The PTX kernels of the `-p ptxas-gmma` lit tests, and the ptxas flags each RUN line means.

Each lit test here is a `.ptx` file of `// -----`-separated PTX modules whose RUN lines run
`ptxas-gmma` (or its passes) with options; `chunks` gives each module padded with blank lines
so that its line numbers are the ones in the file, and `ptxas_runs` the ptxas flags of each
RUN line, so that a test can run the real ptxas on exactly what the lit test checks.
"""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent

_PIPELINE = re.compile(r"-p '?ptxas-gmma(?:\{(?P<options>[^}]*)\})?'?")


def lit_files() -> list[Path]:
    return sorted(p for p in HERE.glob("*.ptx") if _PIPELINE.search(p.read_text()))


def chunks(path: Path) -> list[str]:
    """The file's modules, each with blank lines in place of the other chunks' lines."""
    lines = path.read_text().split("\n")
    result: list[str] = []
    start = 0
    for index, line in enumerate([*lines, "// -----"]):
        if line.strip() == "// -----":
            result.append("\n" * start + "\n".join(lines[start:index]) + "\n")
            start = index + 1
    return result


def ptxas_runs(path: Path) -> list[tuple[str, ...]]:
    """The ptxas flags of each `-p ptxas-gmma{...}` RUN line of the file."""
    runs: list[tuple[str, ...]] = []
    for line in path.read_text().splitlines():
        if not line.startswith("// RUN:"):
            continue
        match = _PIPELINE.search(line)
        if match is None:
            continue
        runs.append(flags(match.group("options") or ""))
    return runs


def flags(options: str) -> tuple[str, ...]:
    """ptxas flags for pass options such as `compile-only=true opt-level=0`."""
    args: list[str] = []
    for option in options.split():
        key, _, value = option.partition("=")
        key = key.replace("_", "-")
        if key == "compile-only" and value == "true":
            args.append("-c")
        elif key == "device-debug" and value == "true":
            args.append("-g")
        elif key == "opt-level":
            args.append(f"-O{value}")
        elif key == "maxrregcount":
            args.append(f"-maxrregcount={value}")
        elif key == "fast-compile":
            args.append(f"--Ofast-compile={'0' if value == 'off' else value}")
    return tuple(args)
