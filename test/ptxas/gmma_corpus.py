"""The kernels of test/ptxas/gmma/corpus/ and how to run the real ptxas on them.

Each `name.ptx` opens with two comment lines: what it exercises, and the ptxas command that
the recorded output in `name.expected` came from, e.g.

    // C7519: call.uni of an .extern .func between two wgmma of one stage
    // RUN: ptxas -arch=sm_90a -c => exit 0

For a few kernels `gmma/sass/name.sass` records the SASS that ptxas made of them, as
`nvdisasm -c` prints it without addresses and padding NOPs.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tileas_py.hw.gmma_diagnostics import parse_ptxas_output
from tileas_py.pipelines import PtxasGmmaPipeline
from tileas_py.ptx.toolchain import PtxasResult, find_tool, run_ptxas

CORPUS_DIR = Path(__file__).parent / "gmma" / "corpus"
SASS_DIR = Path(__file__).parent / "gmma" / "sass"

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

    @property
    def sass(self) -> Path:
        return SASS_DIR / f"{self.name}.sass"

    def run(self) -> PtxasResult:
        with tempfile.TemporaryDirectory() as tmp:
            return self.assemble(Path(tmp) / f"{self.name}.cubin")

    def assemble(self, cubin: Path) -> PtxasResult:
        return run_ptxas(self.ptx, arch=self.arch, output=cubin, extra_args=self.args)

    def disassemble(self) -> list[str]:
        """The SASS of the kernel, one instruction per line."""
        with tempfile.TemporaryDirectory() as tmp:
            cubin = Path(tmp) / f"{self.name}.cubin"
            result = self.assemble(cubin)
            if not result.ok:
                raise RuntimeError(f"{self.name}: ptxas failed: {result.stderr}")
            return sass_instructions(cubin)


SASS_INSTRUCTION = re.compile(r"^\s*/\*[0-9a-f]{4}\*/\s+(?P<text>.*?)\s*;\s*$")


def sass_instructions(cubin: Path) -> list[str]:
    nvdisasm = find_tool("nvdisasm")
    if nvdisasm is None:
        raise FileNotFoundError(
            "nvdisasm not found: pip install nvidia-cuda-nvdisasm==13.5.37"
        )
    listing = subprocess.run(
        [str(nvdisasm), "-c", str(cubin)], capture_output=True, text=True, check=True
    ).stdout
    return [
        m.group("text")
        for line in listing.splitlines()
        if (m := SASS_INSTRUCTION.match(line)) is not None and m.group("text") != "NOP"
    ]


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


def model_messages(
    text: str, name: str, args: tuple[str, ...] = ()
) -> tuple[list[tuple[int, int | None]], list[str]]:
    """What `-p ptxas-gmma` (with the options of ptxas flags `args`) prints for a PTX
    file: its `(code, line)` list and every line it printed."""
    lines = PtxasGmmaPipeline.messages(text, name, args)
    keys = [(d.message.code, d.line) for d in parse_ptxas_output("\n".join(lines))]
    return keys, lines
