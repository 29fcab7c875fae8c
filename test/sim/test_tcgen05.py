"""tcgen05 in the simulator: hand-written sm_100a kernels (`kernels/tcgen05/`), each assembled
by the real ptxas and run through `launch`, exactly and with the hazards the checker must
see. Each kernel file opens with a comment saying what it does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tileas_py.ptx.toolchain import run_ptxas
from tileas_py.sim import HazardError, HazardKind, TensorMap, launch

KERNELS = Path(__file__).parent / "kernels" / "tcgen05"
NOT_FOR_SM100 = {"target_sm90a.ptx"}
"""Kernels that ptxas must reject for sm_100a (the point of their test)."""


def line_of(name: str, text: str, occurrence: int = 1) -> int:
    seen = 0
    for number, line in enumerate((KERNELS / name).read_text().splitlines(), 1):
        if text in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(f"{text!r} not in {name}")


@pytest.mark.parametrize(
    "name", sorted(p.name for p in KERNELS.glob("*.ptx") if p.name not in NOT_FOR_SM100)
)
def test_ptxas_assembles_the_kernel(tmp_path: Path, name: str) -> None:
    result = run_ptxas(KERNELS / name, arch="sm_100a", output=tmp_path / "k.cubin")
    assert result.ok, result.messages


def _small(shape: tuple[int, ...], seed: int, dtype: Any = np.float16) -> Any:
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(dtype)


# -- the GEMMs ----------------------------------------------------------------------------------


def _gemm_cta1(name: str) -> tuple[Any, Any]:
    a, b = _small((128, 64), 1), _small((64, 64), 2)
    c = np.zeros((128, 64), dtype=np.float32)
    report = launch(
        KERNELS / name,
        "gemm",
        1,
        128,
        [TensorMap(a, (128, 64), swizzle=128), TensorMap(b, (64, 64), swizzle=128), c],
    )
    return report, (c, a.astype(np.float32) @ b.astype(np.float32).T)


def test_gemm_cta_group_1_is_exact_with_no_hazard() -> None:
    report, (c, expected) = _gemm_cta1("gemm_cta1.ptx")
    assert np.array_equal(c, expected)
    assert report.hazards == []
    assert report.tcgen05_mma == 4


def _gemm_cta2(name: str) -> tuple[Any, Any]:
    a, b = _small((256, 64), 3), _small((64, 64), 4)
    c = np.zeros((256, 64), dtype=np.float32)
    report = launch(
        KERNELS / name,
        "gemm",
        2,
        128,
        [TensorMap(a, (128, 64), swizzle=128), TensorMap(b, (32, 64), swizzle=128), c],
        cluster=2,
    )
    return report, (c, a.astype(np.float32) @ b.astype(np.float32).T)


def test_gemm_cta_group_2_is_exact_with_no_hazard() -> None:
    report, (c, expected) = _gemm_cta2("gemm_cta2.ptx")
    assert np.array_equal(c, expected)
    assert report.hazards == []
    assert report.tcgen05_mma == 4


@pytest.mark.parametrize(
    ("name", "run", "at", "cta"),
    [
        ("gemm_cta1_early.ptx", _gemm_cta1, "tcgen05.ld.sync", (0, 0, 0)),
        ("gemm_cta1_nofence.ptx", _gemm_cta1, "tcgen05.ld.sync", (0, 0, 0)),
        ("gemm_cta2_early.ptx", _gemm_cta2, "tcgen05.ld.sync", (1, 0, 0)),
    ],
)
def test_reading_the_accumulator_before_the_commit_races(
    name: str, run: Any, at: str, cta: tuple[int, int, int]
) -> None:
    with pytest.raises(HazardError) as raised:
        run(name)
    hazards = raised.value.hazards
    assert [h.kind for h in hazards] == [HazardKind.RACE]
    hazard = hazards[0]
    assert hazard.line == line_of(name, at)
    assert hazard.at.cta == cta
    assert hazard.other is not None
    assert hazard.other.what.startswith("tcgen05.mma")
    assert hazard.other.cta == (0, 0, 0)
    assert hazard.address is not None
    assert hazard.address.startswith("tensor memory lane")


def test_using_a_load_before_its_wait() -> None:
    with pytest.raises(HazardError) as raised:
        _gemm_cta1("gemm_cta1_nowait.ptx")
    hazards = raised.value.hazards
    assert [h.kind for h in hazards] == [HazardKind.TCGEN05_LD]
    assert hazards[0].line == line_of("gemm_cta1_nowait.ptx", "st.global.v4.b32")
    assert "%r20 (and 3 more)" in hazards[0].message
