"""The real ptxas accepts what convert-nvvm-to-ori makes of every NVVM test kernel.

Each kernel of `kernels/` and the README's example is lowered with
`tileas-opt -p convert-nvvm-to-ori -t ptx` and assembled for sm_90a: ptxas must print no
error, no warning and no GMMA diagnostic at all (no wait injected, nothing serialized,
read with `tileas_py.hw.gmma_diagnostics`), and the SASS of a WGMMA kernel must hold one
HGMMA per `nvvm.wgmma.mma_async` of the source, which is what threading the accumulator
through the same registers buys.
"""

import re
from pathlib import Path

import pytest

from tileas_py.hw.gmma_diagnostics import parse_ptxas_output
from tileas_py.ptx.toolchain import PtxasResult, disassemble, run_ptxas
from tileas_py.tools.tileas_opt import run_tool

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[3]
EXAMPLE = REPO_ROOT / "examples" / "nvvm_wgmma_sm90a.mlir"
KERNELS = [*sorted((HERE / "kernels").glob("*.mlir")), EXAMPLE]


def lower(source: Path, tmp_path: Path, text: str | None = None) -> Path:
    """`tileas-opt source -p convert-nvvm-to-ori -t ptx`, into a .ptx file."""
    if text is not None:
        source = tmp_path / source.name
        source.write_text(text)
    ptx = tmp_path / source.with_suffix(".ptx").name
    assert (
        run_tool(
            [str(source), "-p", "convert-nvvm-to-ori", "-t", "ptx", "-o", str(ptx)]
        )
        == 0
    )
    return ptx


def assemble(ptx: Path, *extra: str) -> PtxasResult:
    result = run_ptxas(ptx, extra_args=extra)
    assert result.ok, "\n".join(result.messages)
    return result


def mma_count(text: str) -> int:
    return len(re.findall(r"nvvm\.wgmma\.mma_async", text))


def hgmma_count(ptx: Path) -> int:
    return sum(
        line.startswith("HGMMA") for line in disassemble(ptx.with_suffix(".cubin"))
    )


def test_there_are_kernels_of_every_family() -> None:
    names = {k.stem for k in KERNELS}
    assert {
        "elementwise",
        "reduction",
        "tma_pipeline",
        "wgmma_kloop",
        "calls",
        "inline_asm",
        "nvvm_wgmma_sm90a",
    } <= names


@pytest.mark.parametrize("kernel", KERNELS, ids=[k.stem for k in KERNELS])
def test_ptxas_assembles_the_lowered_kernel_cleanly(
    kernel: Path, tmp_path: Path
) -> None:
    result = assemble(lower(kernel, tmp_path))
    assert not [m for m in result.messages if "warning" in m or "error" in m]
    assert parse_ptxas_output(result.stdout + result.stderr) == []


WGMMA_KERNELS = [k for k in KERNELS if mma_count(k.read_text())]


@pytest.mark.parametrize("kernel", WGMMA_KERNELS, ids=[k.stem for k in WGMMA_KERNELS])
def test_one_hgmma_per_mma_async(kernel: Path, tmp_path: Path) -> None:
    text = kernel.read_text()
    ptx = lower(kernel, tmp_path, text)
    assert parse_ptxas_output("\n".join(assemble(ptx).messages)) == []
    assert hgmma_count(ptx) == mma_count(text) > 0
