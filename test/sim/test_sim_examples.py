"""Every sm_90a and sm_100a example and the NVVM example run in the simulator at a small
size: exactly, with no hazard. The GEMM of the old lowering, whose empty barriers got twice the arrivals
they expected, is kept as a regression kernel that the checker must flag.

The examples' GEMMs are 4096^3; their small-size form is the same file with that problem
size replaced (`small_form`): the tile sizes, pipelines and agents are unchanged, so the
same code runs over 2x2 output tiles and four K steps (the consumers keep one WGMMA group
in flight across them, and the warpgroups trade registers with setmaxnreg).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from tileas_py import api
from tileas_py.hw.smem_descriptor import SmemDescriptor, Swizzle
from tileas_py.sim import HazardError, HazardKind, TensorMap, launch

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
REGRESSIONS = Path(__file__).parent / "kernels" / "regressions"

SMALL = 256
"""The small problem size: 2x2 tiles of 128x128, K in four steps of 64."""


def small_form(name: str, size: int = SMALL) -> str:
    """An example with its 4096^3 problem size replaced by `size`."""
    text = (EXAMPLES / name).read_text()
    assert "4096" in text
    return text.replace("4096", str(size))


def _operands(
    seed: int = 0,
) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]:
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, size=(SMALL, SMALL)).astype(np.float16)
    b = rng.integers(-3, 4, size=(SMALL, SMALL)).astype(np.float16)
    return a, b, np.zeros((SMALL, SMALL), dtype=np.float32)


def _exact(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)


@pytest.mark.parametrize(
    ("example", "grid", "cluster"),
    [
        ("gemm_sm90a.mlir", (2, 2), None),
        ("gemm_128x256_sm90a.mlir", (2, 1), None),
        ("gemm_cluster_sm90a.mlir", (2, 2), (2, 1, 1)),
    ],
)
def test_gemm_example_runs_exactly(
    example: str, grid: tuple[int, int], cluster: Any
) -> None:
    """The tile kernel's parameters are `tiled_view`s: plain arrays stand for them, and
    `launch` builds the tensor maps the lowering recorded (box, swizzle, dimension order)."""
    module = api.parse_mlir(small_form(example), example)
    a, b, c = _operands()
    report = launch(module, "gemm", grid, 384, [a, b, c], cluster=cluster)
    assert report.hazards == []
    assert np.array_equal(c, _exact(a, b))
    # Per CTA and K step: two consumer warpgroups, each 4 x m64nNk16.
    assert report.wgmma == grid[0] * grid[1] * 2 * 4 * (SMALL // 64)
    assert report.gmma_messages == []


def test_register_a_loaded_with_ldmatrix_runs_exactly() -> None:
    """The GEMM example with A in registers: each consumer warpgroup loads its 64 rows of
    the stage's 128x64 A tile with `ldmatrix` (swizzled addresses) and runs m64n128k16
    WGMMAs with A from registers (`wait_group = 0`: the next K step reloads A into the same
    registers)."""
    text = small_form("gemm_sm90a.mlir")
    shared = (
        "%d = nv_tileas.dot %sa, %sb, %acc_k atom = !cute_nvgpu.sm90.mma<64x128x16, "
        "ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 1 "
        ": tensor<128x64xf16, #sa>"
    )
    registers = (
        "%ra = nv_tileas.convert_layout %sa {nv_tileas.num_warps = 8 : i32} : "
        "tensor<128x64xf16, #sa> -> tensor<128x64xf16>\n        "
        "%d = nv_tileas.dot %ra, %sb, %acc_k atom = !cute_nvgpu.sm90.mma<64x128x16, "
        "ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = rs> wait_group = 0 "
        ": tensor<128x64xf16>"
    )
    assert shared in text
    module = api.parse_mlir(text.replace(shared, registers), "gemm_rs.mlir")
    a, b, c = _operands()
    report = launch(module, "gemm", (2, 2), 384, [a, b, c])
    assert report.hazards == []
    assert np.array_equal(c, _exact(a, b))
    assert report.wgmma == 2 * 2 * 2 * 4 * (SMALL // 64)
    assert report.ptx.count("ldmatrix.sync.aligned.m8n8.x4.shared.b16") == 4
    assert report.gmma_messages == []


BLACKWELL = {
    "gemm_sm100a.mlir": ((2, 2), None),
    "gemm_2cta_sm100a.mlir": ((2, 2), (2, 1, 1)),
    "ocg_knobs_sm100a.mlir": ((2, 4), None),
}
"""The launch of each Blackwell example at 256^3, in CTAs: 128x128 tiles (128x64 for the
OCG one); the 2-CTA one's program is a cluster computing a 256x128 tile (one along M, two
along N), its CTAs splitting it along M."""


def test_every_blackwell_example_is_run() -> None:
    assert set(BLACKWELL) == {p.name for p in EXAMPLES.glob("*sm100a*.mlir")}


@pytest.mark.parametrize("example", sorted(BLACKWELL))
def test_blackwell_example_runs_exactly(example: str) -> None:
    """Two warps (the producer and the MMA warp) and an epilogue warpgroup: 256 threads.
    Each K step of 64 (128 for the 8-bit one) is four MMAs, issued once per CTA, or once
    per pair."""
    grid, cluster = BLACKWELL[example]
    module = api.parse_mlir(small_form(example), example)
    if example.startswith("ocg"):
        rng = np.random.default_rng(2)
        a = rng.integers(-128, 128, size=(SMALL, SMALL)).astype(np.int8)
        b = rng.integers(-128, 128, size=(SMALL, SMALL)).astype(np.int8)
        c = np.zeros((SMALL, SMALL), dtype=np.int32)
        exact: npt.NDArray[Any] = a.astype(np.int64) @ b.astype(np.int64)
        k_steps = SMALL // 128
    else:
        a, b, c = _operands()
        exact = _exact(a, b)
        k_steps = SMALL // 64
    report = launch(module, "gemm", grid, 256, [a, b, c], cluster=cluster)
    assert report.hazards == []
    assert np.array_equal(c, exact)
    ctas_per_issue = 1 if cluster is None else 2
    assert report.tcgen05_mma == grid[0] * grid[1] // ctas_per_issue * k_steps * 4
    assert report.wgmma == 0


@pytest.mark.parametrize("num_sms", [2, 3])
def test_persistent_example_runs_every_tile_once(num_sms: int) -> None:
    """The persistent example at 256^3 on fewer CTAs than its 2x2 tiles: lowered for a
    launch grid of `num_sms` CTAs, it is given the tile-level arguments and the tile grid,
    and `launch` launches the grid the kernel chose, passing the tile grid, as its launcher
    would; each CTA strides over the tiles. C starts as NaN, so a tile never computed would
    show, and the wgmma count says each was computed once."""
    module = api.parse_mlir(small_form("gemm_persistent_sm90a.mlir"), "gemm_persistent")
    api.run_pipeline(module, f"tileas-to-ptx{{num-sms={num_sms} stop-after=tileas}}")
    a, b, _ = _operands()
    c = np.full((SMALL, SMALL), np.nan, dtype=np.float32)
    report = launch(module, "gemm", (2, 2), 384, [a, b, c])
    assert report.hazards == []
    assert np.array_equal(c, _exact(a, b))
    # Each tile: 2 consumer warpgroups x 4 K steps x 4 m64n128k16.
    assert report.wgmma == 4 * 2 * 4 * 4
    assert (
        f".visible .const .align 4 .b32 gemm_persistent_grid[3] = {{{num_sms}, 1, 1}};"
        in report.ptx
    )


def test_nvvm_example_runs_exactly() -> None:
    """The host of the NVVM example: tensor maps in global memory, the tiles and the
    barrier placed in dynamic shared memory, K-major descriptors with a 64-byte swizzle."""
    rng = np.random.default_rng(1)
    a = rng.integers(-3, 4, size=(64, 32)).astype(np.float16)
    b = rng.integers(-3, 4, size=(32, 32)).astype(np.float16)
    out = np.zeros((64, 32), dtype=np.float32)
    smem_a, smem_b, bar = 0, 4096, 8192
    desc_a = SmemDescriptor(smem_a, 16, 512, swizzle=Swizzle.B64).encode()
    desc_b = SmemDescriptor(smem_b, 16, 512, swizzle=Swizzle.B64).encode()
    args = [
        TensorMap(a, (64, 32), swizzle=64),
        TensorMap(np.ascontiguousarray(b.T), (32, 32), swizzle=64),
        smem_a,
        smem_b,
        bar,
        desc_a,
        desc_b,
        None,
        out,
    ]
    report = launch(
        EXAMPLES / "nvvm_wgmma_sm90a.mlir",
        "gemm_tile",
        1,
        128,
        args,
        dynamic_shared=16384,
    )
    assert report.hazards == []
    assert report.wgmma == 2
    assert np.array_equal(out, _exact(a, b))


def _regression_args(c: npt.NDArray[Any]) -> list[Any]:
    a, b, _ = _operands()
    return [
        TensorMap(a, (64, 64), swizzle=128),
        TensorMap(np.ascontiguousarray(b.T), (128, 64), swizzle=128),
        TensorMap(c, (64, 128)),
    ]


def test_the_racy_gemm_of_the_old_lowering_is_flagged() -> None:
    """`gemm_sm90a` at 256^3 as the lowering emitted it before the fix: its empty barriers
    expected 128 arrivals and got 256 (both consumer warpgroups release the B slots), so
    each K step completes two phases; the producer's wait by parity aliases."""
    c = np.zeros((SMALL, SMALL), dtype=np.float32)
    ptx = REGRESSIONS / "gemm_sm90a_racy_256.ptx"
    assert "[gemm_smem+100376], 128;" in ptx.read_text()
    with pytest.raises(HazardError) as raised:
        launch(ptx, "gemm", (2, 2), 384, _regression_args(c), dynamic_shared=166016)
    kinds = {h.kind for h in raised.value.hazards}
    assert HazardKind.PARITY_ALIASING in kinds
    assert all("0x18818" in h.message for h in raised.value.hazards)


def test_the_fixed_lowering_expects_every_consumer() -> None:
    """Today's lowering of the example: its one pipeline's full barriers expect the
    producer's arrival, its empty barriers every thread of the consumer agent's two
    warpgroups."""
    module = api.parse_mlir(small_form("gemm_sm90a.mlir"), "gemm_sm90a.mlir")
    ptx = api.print_ptx(api.run_pipeline(module, "tileas-to-ptx"))
    assert "[gemm_smem+131072], 1;" in ptx
    assert "[gemm_smem+131104], 256;" in ptx
