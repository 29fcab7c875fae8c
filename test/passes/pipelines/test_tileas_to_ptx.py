"""Which stages tileas-to-ptx runs on a module: tileiras's order, the two gated passes,
stop-after, and the ptxas phases once `ptxas-pipeline` is registered."""

from xdsl.parser import Parser

from tileas_py.passes import PASSES
from tileas_py.pipelines import TILEAS_STAGES, TileasToPtxPipeline
from tileas_py.tools.tileas_opt import TileasOptMain

KERNEL = """
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = SM>} {
  nv_tileas.kernel @k() attributes {ATTRS} {
    nv_tileas.return
  }
}
"""


def stages(sm: int, attrs: str, stop_after: str = "ori") -> tuple[str, ...]:
    ctx = TileasOptMain(args=[]).ctx
    text = KERNEL.replace("SM", str(sm)).replace("ATTRS", attrs)
    module = Parser(ctx, text).parse_module()
    return TileasToPtxPipeline(stop_after=stop_after).stage_names(module)


def test_sm90_kernel_skips_persistence_and_knobs() -> None:
    names = stages(90, "nv_tileas.num_warps = 4 : i32")
    assert "tileas-dynamic-persistent" not in names
    assert "tileas-insert-OCG-knobs" not in names
    tileas = [n for n in TILEAS_STAGES if n in names]
    assert list(names[: len(tileas)]) == tileas
    assert names[len(tileas) : len(tileas) + 2] == (
        "convert-tileas-to-nvvm",
        "convert-nvvm-to-ori",
    )
    assert ("ptxas-pipeline" in names) == ("ptxas-pipeline" in PASSES)


def test_marked_sm100_kernel_runs_both_gated_passes_in_place() -> None:
    names = stages(100, "nv_tileas.dynamic_persistent", stop_after="tileas")
    assert names == TILEAS_STAGES


def test_stop_after_nvvm() -> None:
    assert stages(90, "nv_tileas.num_warps = 4 : i32", "nvvm")[-1] == (
        "convert-tileas-to-nvvm"
    )
