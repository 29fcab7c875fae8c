"""Find and run NVIDIA's real tools (ptxas, nvdisasm, cuobjdump) from their PyPI wheels.

They are the ground truth the tests and benchmarks compare against; the package itself never
needs them. `pip install nvidia-cuda-nvcc==13.5.37` puts ptxas under
`site-packages/nvidia/cu13/bin/`; a `ptxas` on PATH is used when no wheel is installed.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path


def nvidia_bin_dirs() -> list[Path]:
    """The `bin` folders of the installed `nvidia-*` CUDA wheels."""
    spec = importlib.util.find_spec("nvidia")
    if spec is None or spec.submodule_search_locations is None:
        return []
    dirs: list[Path] = []
    for root in spec.submodule_search_locations:
        dirs.extend(sorted(p for p in Path(root).glob("cu*/bin") if p.is_dir()))
    return dirs


def find_tool(name: str) -> Path | None:
    """Path to an NVIDIA tool from the wheels, else from PATH, else None."""
    for directory in nvidia_bin_dirs():
        candidate = directory / name
        if candidate.is_file():
            return candidate
    found = shutil.which(name)
    return Path(found) if found is not None else None


@dataclass(frozen=True)
class PtxasResult:
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    @property
    def messages(self) -> list[str]:
        """Every line ptxas printed, stdout then stderr."""
        return [
            line for line in (self.stdout + self.stderr).splitlines() if line.strip()
        ]


def run_ptxas(
    ptx_file: Path,
    arch: str = "sm_90a",
    output: Path | None = None,
    extra_args: tuple[str, ...] = (),
) -> PtxasResult:
    """Assemble `ptx_file` with the real ptxas (raises FileNotFoundError if it is missing)."""
    ptxas = find_tool("ptxas")
    if ptxas is None:
        raise FileNotFoundError(
            "ptxas not found: pip install nvidia-cuda-nvcc==13.5.37"
        )
    out = output if output is not None else ptx_file.with_suffix(".cubin")
    proc = subprocess.run(
        [str(ptxas), f"-arch={arch}", str(ptx_file), "-o", str(out), *extra_args],
        capture_output=True,
        text=True,
        check=False,
    )
    return PtxasResult(proc.returncode, proc.stdout, proc.stderr)


_SASS_LINE = re.compile(r"\s*/\*[0-9a-f]{4,}\*/\s*(.*?)\s*;")


def cuobjdump_sass(cubin: Path) -> str:
    """`cuobjdump -sass` of a cubin, from the `nvidia-cuda-cuobjdump` wheel (raises
    FileNotFoundError if it is missing)."""
    cuobjdump = find_tool("cuobjdump")
    if cuobjdump is None:
        raise FileNotFoundError(
            "cuobjdump not found: pip install nvidia-cuda-cuobjdump==13.5.37"
        )
    proc = subprocess.run(
        [str(cuobjdump), "-sass", str(cubin)],
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout


def disassemble(cubin: Path) -> list[str]:
    """The SASS of a cubin, one instruction a line, without addresses and encodings.

    `Function : name` lines separate the functions. Uses `cuobjdump -sass` from the
    `nvidia-cuda-cuobjdump` wheel (raises FileNotFoundError if it is missing).
    """
    lines: list[str] = []
    for line in cuobjdump_sass(cubin).splitlines():
        if "Function :" in line:
            lines.append(line.strip())
        elif (match := _SASS_LINE.match(line)) is not None:
            lines.append(" ".join(match.group(1).split()))
    return lines
