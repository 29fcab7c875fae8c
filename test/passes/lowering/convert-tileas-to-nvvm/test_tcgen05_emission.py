"""The tcgen05 emission end to end, per kind, CTA group and majorness: a warp-specialised
tile kernel (`tcgen05_kernels.Gemm`) goes through `tileas-to-ptx`, ptxas 13.5
(-arch=sm_100a) assembles it into the kind's tensor-core instruction (UTCHMMA for f16,
bf16 and tf32, UTCQMMA for f8f6f4, UTCIMMA for i8; `.2CTA` for a CTA pair), and the
simulator runs it exactly, with no hazard."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import numpy.typing as npt
import pytest
from tcgen05_kernels import Gemm

from tileas_py import api
from tileas_py.ptx.toolchain import disassemble, run_ptxas
from tileas_py.sim import launch

CASES = [
    Gemm("f16", "f16", "f32", 16),
    Gemm("bf16", "bf16", "f32", 16, b_major="mn"),
    Gemm("tf32", "tf32", "f32", 8),
    # 32 f32 columns: an mn-major row of B is one 128-byte swizzle span (the TMA box).
    Gemm("tf32", "tf32", "f32", 8, n=32, b_major="mn"),
    Gemm("f8E4M3FN", "f8E5M2", "f32", 32),
    Gemm("si8", "ui8", "i32", 32),
    Gemm("f16", "f16", "f32", 16, n=128, cta_group=2),
    Gemm("f16", "f16", "f32", 16, n=128, cta_group=2, b_major="mn"),
]

INSTRUCTIONS = {
    "f16": "UTCHMMA",
    "bf16": "UTCHMMA",
    "tf32": "UTCHMMA",
    "f8E4M3FN": "UTCQMMA",
    "si8": "UTCIMMA",
}


def _ptx(gemm: Gemm) -> str:
    module = api.parse_mlir(gemm.text(), f"{gemm.name}.mlir")
    return api.print_ptx(api.run_pipeline(module, "tileas-to-ptx"))


@pytest.mark.parametrize("gemm", CASES, ids=[g.name for g in CASES])
def test_the_kernel_assembles_into_its_tensor_core_instruction(
    gemm: Gemm, tmp_path: Path
) -> None:
    ptx = tmp_path / f"{gemm.name}.ptx"
    ptx.write_text(_ptx(gemm))
    result = run_ptxas(ptx, arch="sm_100a")
    assert result.ok, "\n".join(result.messages)
    assert not [m for m in result.messages if "unsupported" not in m and "warning" in m]
    sass = disassemble(ptx.with_suffix(".cubin"))
    expected = INSTRUCTIONS[gemm.a] + (".2CTA" if gemm.cta_group == 2 else "")
    mmas = [line.split()[0] for line in sass if re.match(r"UTC[HQI]MMA", line)]
    # The K loop is not unrolled: one MMA per instruction tile of a stage.
    assert mmas == [expected] * (gemm.k_step // gemm.k)
    assert ptx.read_text().count("tcgen05.mma.cta_group") == len(mmas)


_DTYPES: dict[str, Any] = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "f8E4M3FN": ml_dtypes.float8_e4m3fn,
    "f8E5M2": ml_dtypes.float8_e5m2,
    "si8": np.int8,
    "ui8": np.int8,
    "tf32": np.float32,
    "f32": np.float32,
    "i32": np.int32,
}


def _operand(rng: np.random.Generator, element: str, size: int) -> npt.NDArray[Any]:
    low = 0 if element == "ui8" else -3
    return rng.integers(low, 4, size=(size, size)).astype(_DTYPES[element])


@pytest.mark.parametrize("gemm", CASES, ids=[g.name for g in CASES])
def test_the_kernel_runs_exactly(gemm: Gemm) -> None:
    rng = np.random.default_rng(7)
    a = _operand(rng, gemm.a, gemm.size)
    b = _operand(rng, gemm.b, gemm.size)
    c = np.zeros((gemm.size, gemm.size), dtype=_DTYPES[gemm.acc])
    module = api.parse_mlir(gemm.text(), f"{gemm.name}.mlir")
    report = launch(module, "gemm", gemm.grid, 256, [a, b, c], cluster=gemm.cluster)
    assert report.hazards == []
    assert report.tcgen05_mma == gemm.mmas
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert np.array_equal(c, exact.astype(c.dtype))
