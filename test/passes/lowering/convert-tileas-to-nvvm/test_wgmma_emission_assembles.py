"""The real ptxas accepts every WGMMA kernel `tileas-wgmma-to-ptx` emits, unserialized.

Each lit kernel of `kernels/` and each generated GEMM of `wgmma_kernels.CASES` (every
input family, accumulator types, swizzles, majornesses, register and shared A, one and
several M / N / K tiles) is lowered with `tileas-opt -p tileas-wgmma-to-ptx -t ptx` and
assembled for sm_90a. Nothing but MMAs may sit between the fence and the commit; ptxas must print no error, no warning and no GMMA diagnostic (read
with `tileas_py.hw.gmma_diagnostics`: no wait injected, nothing serialized), and the SASS
must hold one HGMMA (f16, bf16, tf32), QGMMA (fp8) or IGMMA (8-bit integers) per
`mma_async` of the NVVM form, which is one per (m-tile, n-tile, k-tile) of the dot.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from wgmma_kernels import CASES, SASS_BY_TYPE, Gemm

from tileas_py.hw.gmma_diagnostics import parse_ptxas_output
from tileas_py.ptx.toolchain import disassemble, run_ptxas
from tileas_py.tools.tileas_opt import run_tool

HERE = Path(__file__).resolve().parent
KERNELS = sorted((HERE / "kernels").glob("*.mlir"))

_MMA = re.compile(r"nvvm\.wgmma\.mma_async|inline_asm[^\n]*\"wgmma\.mma_async")

EXPECTED_DIAGNOSTICS: dict[str, list[str]] = {}
"""Kernels whose own structure makes ptxas speak. None: upstream's tile keeps one group in
flight (`wait_group 1`) and then stores the accumulator, and the emission drains the group
(`wait_group 0`) before the store, so ptxas injects no wait (C7517)."""


def lower(source: Path, tmp_path: Path, *pipeline: str) -> Path:
    out = tmp_path / f"{source.stem}.{'ptx' if '-t' in pipeline else 'nvvm.mlir'}"
    assert run_tool([str(source), *pipeline, "-o", str(out)]) == 0
    return out


def gmma_sass(cubin: Path) -> list[str]:
    return [
        line
        for line in disassemble(cubin)
        if line.startswith(("HGMMA", "QGMMA", "IGMMA"))
    ]


def only_mmas_after_the_fence(ptx: str) -> bool:
    """Between `wgmma.fence` and `wgmma.commit_group` there is nothing but MMAs: every
    operand was prepared before the fence."""
    lines = [line.strip() for line in ptx.splitlines() if line.strip()]
    start = lines.index("wgmma.fence.sync.aligned;")
    end = lines.index("wgmma.commit_group.sync.aligned;")
    return end - start > 1 and all(
        line.startswith("wgmma.mma_async") for line in lines[start + 1 : end]
    )


def check_kernel(source: Path, tmp_path: Path) -> tuple[int, list[str]]:
    """Assemble the kernel's PTX; returns its MMA count and its GMMA SASS lines."""
    nvvm = lower(source, tmp_path, "-p", "convert-tileas-to-nvvm")
    mmas = len(_MMA.findall(nvvm.read_text()))
    ptx = lower(source, tmp_path, "-p", "tileas-wgmma-to-ptx", "-t", "ptx")
    assert only_mmas_after_the_fence(ptx.read_text())
    result = run_ptxas(ptx)
    assert result.ok, "\n".join(result.messages)
    assert not [m for m in result.messages if "warning" in m or "error" in m]
    codes = [
        f"C{d.message.code:04d}"
        for d in parse_ptxas_output(result.stdout + result.stderr)
    ]
    assert codes == EXPECTED_DIAGNOSTICS.get(source.stem, [])
    return mmas, gmma_sass(ptx.with_suffix(".cubin"))


@pytest.mark.parametrize("kernel", KERNELS, ids=[k.stem for k in KERNELS])
def test_lit_kernel_assembles_with_one_gmma_per_mma(
    kernel: Path, tmp_path: Path
) -> None:
    mmas, sass = check_kernel(kernel, tmp_path)
    assert len(sass) == mmas > 0


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_generated_gemm_assembles_with_one_gmma_per_mma(
    case: Gemm, tmp_path: Path
) -> None:
    source = tmp_path / f"{case.name}.mlir"
    source.write_text(case.text())
    mmas, sass = check_kernel(source, tmp_path)
    assert mmas == case.mma_count
    assert len(sass) == case.mma_count
    assert all(line.startswith(SASS_BY_TYPE[case.a]) for line in sass)


def test_every_input_family_and_shape_class_is_covered() -> None:
    assert {c.a for c in CASES} == set(SASS_BY_TYPE)
    assert {c.kind for c in CASES} == {"ss", "rs"}
    assert {c.swizzle for c in CASES} == {0, 32, 64, 128}
    assert any(c.m_size > 64 for c in CASES)
    assert any(c.n_size > c.n for c in CASES)
    assert {c.acc for c in CASES} == {"f32", "f16", "i32"}
