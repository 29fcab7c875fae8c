"""Every example runs with one command, and the real ptxas assembles the Hopper ones.

`examples/*sm90*.mlir` go through `tileas-opt FILE -p tileas-to-ptx -t ptx` and
`ptxas -arch=sm_90a`: no error, no warning, no GMMA diagnostic (nothing serialized, no
wait injected), and HGMMAs in the SASS: for the GEMMs one per `wgmma.mma_async` of the
PTX, 4 m64nNk16 per 64-deep K step (the consumer agent's two warpgroups run the same
code; the loop is not unrolled), the K
loop keeping one WGMMA group in flight (`WARPGROUP.DEPBAR.LE gsb0, 0x1`) and the
warpgroups trading registers (`USETMAXREG`); for the
NVVM example one per `nvvm.wgmma.mma_async`. The Blackwell ones (`*sm100a*.mlir`) run
the same command to PTX with `tcgen05.mma`, which `ptxas -arch=sm_100a` assembles, with no
message but the OCG knobs' "unsupported" warnings, into one UTCHMMA / UTCQMMA / UTCIMMA
(`.2CTA` for a CTA pair) per `tcgen05.mma`; the OCG example's knobs are in the PTX.
"""

import re
from pathlib import Path

import pytest

from tileas_py.hw.gmma_diagnostics import parse_ptxas_output
from tileas_py.ptx.sass import innermost_loop, listing
from tileas_py.ptx.toolchain import disassemble, run_ptxas
from tileas_py.tools.tileas_opt import run_tool

REPO_ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = REPO_ROOT / "examples"
HOPPER = sorted(EXAMPLES.glob("*sm90*.mlir"))
GEMM_HGMMAS = 4
"""Each K step a 128xNx64 dot split over the consumer agent's two warpgroups, which run
the same code: 4 x m64nNk16."""
GEMM_INSTRUCTION = {"gemm_128x256_sm90a": "HGMMA.64x256x16.F32"}
"""The examples' WGMMA shape, m64n128k16 unless named here."""


def test_there_are_the_gemm_examples() -> None:
    assert {p.stem for p in HOPPER} >= {
        "gemm_sm90a",
        "gemm_128x256_sm90a",
        "gemm_persistent_sm90a",
        "gemm_cluster_sm90a",
    }


@pytest.mark.parametrize("example", HOPPER, ids=[p.stem for p in HOPPER])
def test_hopper_example_assembles_cleanly(example: Path, tmp_path: Path) -> None:
    ptx = tmp_path / example.with_suffix(".ptx").name
    args = [str(example), "-p", "tileas-to-ptx", "-t", "ptx", "-o", str(ptx)]
    assert run_tool(args) == 0
    result = run_ptxas(ptx)
    assert result.ok, "\n".join(result.messages)
    assert not [m for m in result.messages if "warning" in m or "error" in m]
    assert parse_ptxas_output(result.stdout + result.stderr) == []
    sass = disassemble(ptx.with_suffix(".cubin"))
    hgmma = [line for line in sass if line.startswith("HGMMA.")]
    assert hgmma
    if example.stem.startswith("gemm"):
        assert len(hgmma) == ptx.read_text().count("wgmma.mma_async") == GEMM_HGMMAS
        shape = GEMM_INSTRUCTION.get(example.stem, "HGMMA.64x128x16.F32")
        assert all(line.startswith(shape) for line in hgmma)
        # The K loop keeps one WGMMA group in flight; the warpgroups trade registers.
        code = listing(ptx.with_suffix(".cubin"))
        loop = innermost_loop(code, "HGMMA")
        assert loop is not None
        assert "WARPGROUP.DEPBAR.LE gsb0, 0x1" in [i.text for i in loop.body]
        assert {i.opcode for i in code} >= {
            "USETMAXREG.DEALLOC.CTAPOOL",
            "USETMAXREG.TRY_ALLOC.CTAPOOL",
        }
    else:
        assert len(hgmma) == example.read_text().count("nvvm.wgmma.mma_async")


BLACKWELL = sorted(EXAMPLES.glob("*sm100a*.mlir"))
BLACKWELL_MMAS = {
    "gemm_sm100a": ["UTCHMMA"] * 4,
    "gemm_2cta_sm100a": ["UTCHMMA.2CTA"] * 4,
    "ocg_knobs_sm100a": ["UTCIMMA"] * 4,
}
"""Each example's MMAs in the SASS: one K step of the (not unrolled) loop, 4 MMAs."""


def test_there_are_the_blackwell_examples() -> None:
    assert {p.stem for p in BLACKWELL} == set(BLACKWELL_MMAS)


@pytest.mark.parametrize("example", BLACKWELL, ids=[p.stem for p in BLACKWELL])
def test_blackwell_example_assembles_into_tensor_core_mmas(
    example: Path, tmp_path: Path
) -> None:
    ptx = tmp_path / example.with_suffix(".ptx").name
    args = [str(example), "-p", "tileas-to-ptx", "-t", "ptx", "-o", str(ptx)]
    assert run_tool(args) == 0
    code = ptx.read_text()
    assert ".target sm_100a" in code
    result = run_ptxas(ptx, arch="sm_100a")
    assert result.ok, "\n".join(result.messages)
    unexpected = [m for m in result.messages if "unsupported" not in m]
    assert not [m for m in unexpected if "warning" in m or "error" in m]
    sass = disassemble(ptx.with_suffix(".cubin"))
    mmas = [line.split()[0] for line in sass if re.match(r"UTC[HQI]MMA", line)]
    assert mmas == BLACKWELL_MMAS[example.stem]
    assert code.count("tcgen05.mma.cta_group") == len(mmas)


def test_sm100_example_has_its_knobs(tmp_path: Path) -> None:
    example = EXAMPLES / "ocg_knobs_sm100a.mlir"
    tiles = tmp_path / "tiles.mlir"
    args = [str(example), "-p", "tileas-to-ptx{stop-after=tileas}", "-o", str(tiles)]
    assert run_tool(args) == 0
    text = tiles.read_text()
    assert text.count("global knob SchedResBusyXU64=1") == 1
    # Before each producer commit and consumer release of the three pipelines.
    assert text.count("next knob FenceCode") == 6
    assert "nv_tileas.async.pipeline.agent_switch" in text
    ptx = tmp_path / "ocg_knobs_sm100a.ptx"
    args = [str(example), "-p", "tileas-to-ptx", "-t", "ptx", "-o", str(ptx)]
    assert run_tool(args) == 0
    code = ptx.read_text()
    assert code.count('.pragma "global knob SchedResBusyXU64=1";') == 1
    assert code.count('.pragma "next knob FenceCode";') == 6
    assert code.count("tcgen05.mma.cta_group::1.kind::i8") == 4


def lowered(example: str, tmp_path: Path, *args: str) -> str:
    out = tmp_path / "out"
    assert run_tool([str(EXAMPLES / example), *args, "-o", str(out)]) == 0
    return out.read_text()


def test_cluster_example_is_planned_and_clustered(tmp_path: Path) -> None:
    tiles = lowered(
        "gemm_cluster_sm90a.mlir", tmp_path, "-p", "tileas-to-ptx{stop-after=tileas}"
    )
    assert "nv_tileas.convert_layout" not in tiles
    planned = "ctas_per_cluster = [2, 1], split = [2, 1]"
    zeros = [line for line in tiles.splitlines() if "arith.constant" in line]
    assert sum(planned in line for line in zeros) == 1  # the one accumulator
    ptx = lowered(
        "gemm_cluster_sm90a.mlir", tmp_path, "-p", "tileas-to-ptx", "-t", "ptx"
    )
    assert ".reqnctapercluster 2, 1, 1" in ptx
    # A program is a cluster; B's TMA load is multicast to both CTAs.
    assert "%clusterid.x" in ptx
    assert "%ctaid" not in ptx
    loads = [line for line in ptx.splitlines() if "cp.async.bulk.tensor" in line]
    loads = [line for line in loads if ".global.tile.mbarrier" in line]
    assert len(loads) == 2
    assert sum(".multicast::cluster" in line for line in loads) == 1
    # The CTAs meet after initialising their barriers and before they exit.
    assert ptx.count("barrier.cluster.wait.aligned;") == 2


def test_persistent_example_loops_over_program_ids(tmp_path: Path) -> None:
    tiles = lowered(
        "gemm_persistent_sm90a.mlir", tmp_path, "-p", "tileas-to-ptx{stop-after=tileas}"
    )
    assert "nv_tileaa.is_valid_program_id" in tiles
    assert "nv_tileas.cancel_next_program_id" in tiles
    assert "nv_tileas.persistent_grid = array<i32: 132, 1, 1>" in tiles
    ptx = lowered(
        "gemm_persistent_sm90a.mlir", tmp_path, "-p", "tileas-to-ptx", "-t", "ptx"
    )
    assert "%nctaid.x" in ptx
    # The launch grid, for the launcher; the tile grid comes in the last parameters.
    assert ".visible .const .align 4 .b32 gemm_persistent_grid[3] = {132, 1, 1};" in ptx
    assert [f"gemm_param_{i}" in ptx for i in range(3, 6)] == [True] * 3


def test_persistent_example_with_the_dynamic_scheduler_assembles(
    tmp_path: Path,
) -> None:
    """`tileas-to-ptx{scheduler=dynamic}`: the tile counter is the fourth parameter, one
    `atom.global.add` per tile and CTA; ptxas assembles it with no GMMA message."""
    ptx = tmp_path / "gemm_persistent_dynamic.ptx"
    example = EXAMPLES / "gemm_persistent_sm90a.mlir"
    pipeline = "tileas-to-ptx{scheduler=dynamic}"
    assert run_tool([str(example), "-p", pipeline, "-t", "ptx", "-o", str(ptx)]) == 0
    text = ptx.read_text()
    assert ".param .u64 gemm_param_3," in text
    assert text.count("atom.global.add.u32") == 1
    result = run_ptxas(ptx)
    assert result.ok, "\n".join(result.messages)
    assert not [m for m in result.messages if "warning" in m or "error" in m]
    assert parse_ptxas_output(result.stdout + result.stderr) == []
    sass = disassemble(ptx.with_suffix(".cubin"))
    assert len([line for line in sass if line.startswith("HGMMA.")]) == GEMM_HGMMAS
    assert any(line.startswith("ATOMG.E.ADD") for line in sass)


def test_persistent_cluster_kernel_with_the_dynamic_scheduler_assembles(
    tmp_path: Path,
) -> None:
    """The cluster example made persistent, dynamic scheduler: rank 0 takes each tile for
    its cluster and writes it into both CTAs (two `st.shared::cluster`); ptxas
    assembles it with no GMMA message."""
    source = tmp_path / "gemm_cluster_dynamic.mlir"
    source.write_text(
        (EXAMPLES / "gemm_cluster_sm90a.mlir")
        .read_text()
        .replace("num_ctas = 2>}", "num_ctas = 2>, nv_tileas.dynamic_persistent}")
    )
    ptx = tmp_path / "gemm_cluster_dynamic.ptx"
    pipeline = "tileas-to-ptx{scheduler=dynamic}"
    assert run_tool([str(source), "-p", pipeline, "-t", "ptx", "-o", str(ptx)]) == 0
    text = ptx.read_text()
    assert text.count("atom.global.add.u32") == 1
    assert text.count("st.shared::cluster.u32") == 2
    assert "%nclusterid.x" in text
    result = run_ptxas(ptx)
    assert result.ok, "\n".join(result.messages)
    assert not [m for m in result.messages if "warning" in m or "error" in m]
    assert parse_ptxas_output(result.stdout + result.stderr) == []
    sass = disassemble(ptx.with_suffix(".cubin"))
    assert len([line for line in sass if line.startswith("HGMMA.")]) == GEMM_HGMMAS
