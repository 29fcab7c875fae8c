"""The S2T copy (`cute_nvgpu.atom.copy_s2t`) end to end: `s2t_kernels.S2tKernel` goes
through the lowering `tileas-to-ptx` applies, ptxas 13.5 (-arch=sm_100a) assembles the
2-CTA and 4-CTA copies into `UTCCP.T.S.2CTA` with their multicast commits, and the
simulator runs each copy exactly, with no hazard: every CTA's tensor memory holds its own
shared matrix (for the 4-CTA copy, in the slice of its pair's issuing CTA)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from s2t_kernels import S2tKernel

from tileas_py import api
from tileas_py.ptx.toolchain import disassemble, run_ptxas
from tileas_py.sim import HazardError, HazardKind, launch

CASES = [
    S2tKernel("128x256b", 1, 1),
    S2tKernel("128x256b", 2, 2),
    S2tKernel("128x256b", 2, 4),
    S2tKernel("64x128b.warpx2::01_23", 2, 2),
    S2tKernel("64x128b.warpx2::02_13", 2, 2),
    S2tKernel("32x128b.warpx4", 4, 4),
    S2tKernel("32x128b.warpx4", 4, 8),
]


def _source_row(shape: str, lane: int) -> int:
    """The matrix row that `tcgen05.cp` of `shape` writes into `lane` (PTX ISA,
    "tcgen05.cp" data path layouts)."""
    if shape == "64x128b.warpx2::01_23":
        # Rows 0-31 to warps 0 and 1, rows 32-63 to warps 2 and 3.
        return lane % 32 + 32 * (lane // 64)
    if shape == "64x128b.warpx2::02_13":
        # Rows 0-31 to warps 0 and 2, rows 32-63 to warps 1 and 3.
        return lane % 64
    if shape == "32x128b.warpx4":
        # Rows 0-31 to every warp.
        return lane % 32
    return lane


def _expected(kernel: S2tKernel) -> npt.NDArray[np.uint32]:
    words = 8 if kernel.shape == "128x256b" else 4
    out = np.zeros((kernel.ctas, 128, 16), dtype=np.uint32)
    for rank in range(kernel.ctas):
        # The 4-CTA copy: the odd CTA of each pair copies the pair's matrices into
        # its slice, `(rank mod 4) * 4` columns on (partition_d), in both CTAs.
        column = 4 * ((rank | 1) % 4) if kernel.cta_group == 4 else 0
        for lane in range(128):
            row = _source_row(kernel.shape, lane)
            value = 100000 * rank + 100 * row + np.arange(words)
            out[rank, lane, column : column + words] = value
    return out


@pytest.mark.parametrize(
    "kernel", CASES, ids=[f"{k.shape}-cta{k.cta_group}-x{k.ctas}" for k in CASES]
)
def test_the_copy_runs_exactly(kernel: S2tKernel) -> None:
    out = np.zeros((kernel.ctas, 128, 16), dtype=np.uint32)
    report = launch(
        api.parse_mlir(kernel.text()),
        "s2t",
        kernel.ctas,
        128,
        [out],
        cluster=kernel.ctas,
    )
    assert report.hazards == []
    np.testing.assert_array_equal(out, _expected(kernel))


@pytest.mark.parametrize(
    ("kernel", "copy"),
    [
        (S2tKernel("128x256b", 2, 2), "UTCCP.T.S.2CTA"),
        (S2tKernel("32x128b.warpx4", 4, 4), "UTCCP.T.S.2CTA.4x32dp128bit"),
    ],
)
def test_the_cluster_copies_assemble(
    kernel: S2tKernel, copy: str, tmp_path: Path
) -> None:
    module = api.parse_mlir(kernel.text())
    ptx = tmp_path / "s2t.ptx"
    ptx.write_text(api.print_ptx(api.run_pipeline(module, "tileas-to-ptx")))
    result = run_ptxas(ptx, arch="sm_100a")
    assert result.ok, "\n".join(result.messages)
    sass = [
        line.split()[1] if line.startswith("@") else line.split()[0]
        for line in disassemble(ptx.with_suffix(".cubin"))
    ]
    assert [s for s in sass if s.startswith(("UTCCP", "UTCBAR"))] == [
        copy,
        "UTCBAR.2CTA.MULTICAST",
    ]


def test_without_the_2cta_init_barrier_the_commit_races_the_peers_init() -> None:
    """The 2-CTA mbarrier init makes the pair meet after `fence.mbarrier_init`: without
    that cluster barrier, the even CTA's multicast commit may arrive on the odd CTA's
    mbarrier before the odd CTA has initialised it, and the simulator reports the race."""
    module = api.parse_mlir(S2tKernel("128x256b", 2, 2).text())
    lines = api.print_ptx(api.run_pipeline(module, "tileas-to-ptx")).splitlines()
    fence = next(i for i, line in enumerate(lines) if "fence.mbarrier_init" in line)
    meet = [i for i in range(fence, fence + 8) if "barrier.cluster." in lines[i]]
    assert [lines[i].split()[0] for i in meet] == [
        "barrier.cluster.arrive.relaxed.aligned;",
        "barrier.cluster.wait.aligned;",
    ]
    ptx = "\n".join(line for i, line in enumerate(lines) if i not in meet)
    out = np.zeros((2, 128, 16), dtype=np.uint32)
    with pytest.raises(HazardError) as raised:
        launch(ptx, "s2t", 2, 128, [out], cluster=2)
    assert [h.kind for h in raised.value.hazards] == [HazardKind.RACE]
