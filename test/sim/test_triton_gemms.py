"""Hopper GEMMs written by others run exactly in the simulator, with no hazard.

The kernels are Triton 3.9's (`kernels/triton/`, with the manifest of how Triton's host
launches each): a cp.async + wgmma pipeline that keeps one wgmma group in flight
(`wait_group 1`), a persistent TMA kernel over fewer CTAs than tiles, TMA kernels on f16,
bf16, fp8 and tf32, and one on clusters of two CTAs. Inputs are small integers, so every
order of summation gives the exact product.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import run_triton  # pyright: ignore[reportImplicitRelativeImport]
import triton_kernels  # pyright: ignore[reportImplicitRelativeImport]
from run_triton import launch_kernel  # pyright: ignore[reportImplicitRelativeImport]
from triton_kernels import load_manifest  # pyright: ignore[reportImplicitRelativeImport]

from tileas_py.sim import HazardError, HazardKind

SIZES = {
    "cp_async_f16": (128, 128, 128),
    "cp_async_tf32": (128, 128, 96),
    "tma_persistent_f16": (256, 256, 128),
    "tma_f16": (128, 256, 192),
    "tma_bf16_f32": (128, 128, 96),
    "tma_fp8_f16": (128, 128, 128),
    "tma_cluster2_f16": (256, 128, 128),
}
"""M, N, K per kernel: a few tiles each, and K steps past the pipeline depth."""


def test_every_kernel_has_a_size() -> None:
    assert set(SIZES) == set(load_manifest())


@pytest.mark.parametrize("name", sorted(SIZES))
def test_triton_gemm_runs_exactly(name: str) -> None:
    m, n, k = SIZES[name]
    c, expected, report = launch_kernel(name, m, n, k)
    assert report.hazards == []
    assert np.array_equal(c.astype(np.float64), expected)
    assert report.wgmma > 0


def test_the_persistent_kernel_runs_more_tiles_than_ctas() -> None:
    """Two CTAs over four 128x128 tiles: each takes two, carrying its pipeline's
    mbarrier phases from one tile to the next."""
    c, expected, report = launch_kernel("tma_persistent_f16", 256, 256, 128, num_sms=2)
    assert np.array_equal(c.astype(np.float64), expected)
    # Two consumer warpgroups, 2 K steps of 64, 4 m64n128k16 per step, 4 tiles.
    assert report.wgmma == 2 * 2 * 4 * 4


def test_a_race_in_a_triton_kernel_is_flagged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same kernel with its wgmma pipeline one group too deep (`wait_group 2`): the
    TMA refills a stage while a wgmma still reads it."""
    text = (triton_kernels.KERNELS_DIR / "tma_f16.ptx").read_text()
    assert text.count("wgmma.wait_group.sync.aligned 1;") == 1
    mutated = text.replace(
        "wgmma.wait_group.sync.aligned 1;", "wgmma.wait_group.sync.aligned 2;"
    )
    (tmp_path / "tma_f16.ptx").write_text(mutated)
    monkeypatch.setattr(run_triton, "KERNELS_DIR", tmp_path)
    with pytest.raises(HazardError) as raised:
        launch_kernel("tma_f16", 128, 128, 256)
    races = [h for h in raised.value.hazards if h.kind is HazardKind.RACE]
    assert races
    assert all(h.at.what == "TMA write" for h in races)
    assert all(h.other is not None and "wgmma" in h.other.what for h in races)
