"""The kernels of test/ptxas/gmma/corpus/ and how to run the real ptxas on them.

Each `name.ptx` opens with two comment lines: what it exercises, and the ptxas command that
the recorded output in `name.expected` came from, e.g.

    // C7519: call.uni of an .extern .func between two wgmma of one stage
    // RUN: ptxas -arch=sm_90a -c => exit 0
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tileas_py.ptx.toolchain import PtxasResult, run_ptxas

CORPUS_DIR = Path(__file__).parent / "gmma" / "corpus"

RUN_LINE = re.compile(
    r"^// RUN: ptxas -arch=(?P<arch>\S+)(?P<args>.*?) => exit (?P<exit>\d+)$"
)


@dataclass(frozen=True)
class CorpusCase:
    ptx: Path
    description: str
    arch: str
    args: tuple[str, ...]
    exit_status: int

    @property
    def name(self) -> str:
        return self.ptx.stem

    @property
    def expected(self) -> Path:
        return self.ptx.with_suffix(".expected")

    def run(self) -> PtxasResult:
        with tempfile.TemporaryDirectory() as tmp:
            return run_ptxas(
                self.ptx,
                arch=self.arch,
                output=Path(tmp) / f"{self.name}.cubin",
                extra_args=self.args,
            )


def read_case(ptx: Path) -> CorpusCase:
    lines = ptx.read_text().splitlines()
    if len(lines) < 2 or not lines[0].startswith("// "):
        raise ValueError(
            f"{ptx.name}: the first line must say what the kernel exercises"
        )
    run = RUN_LINE.match(lines[1])
    if run is None:
        raise ValueError(
            f"{ptx.name}: the second line must be `// RUN: ptxas ... => exit N`"
        )
    return CorpusCase(
        ptx=ptx,
        description=lines[0].removeprefix("// "),
        arch=run.group("arch"),
        args=tuple(run.group("args").split()),
        exit_status=int(run.group("exit")),
    )


def corpus_cases(corpus: Path = CORPUS_DIR) -> list[CorpusCase]:
    return [read_case(ptx) for ptx in sorted(corpus.glob("*.ptx"))]
