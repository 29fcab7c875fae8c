"""The tileas passes from Python: registration, options, diagnostics, determinism."""

from io import StringIO

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import PassPipeline
from xdsl.printer import Printer

from tileas_py.diagnostics import LocatedPassFailure, collect_diagnostics
from tileas_py.dialects import get_all_dialects
from tileas_py.dialects.nv_tileas import AgentSwitchOp
from tileas_py.passes import get_all_passes
from tileas_py.passes.tileas.dynamic_persistent import DynamicPersistentPass
from tileas_py.passes.tileas.optimize_execution_unit_mapping import (
    OptimizeExecutionUnitMappingPass,
)
from tileas_py.passes.tileas.plan_cta import PlanCTAPass
from tileas_py.tools.tileas_opt import TileasOptMain

TILE_PASSES = {
    "tileas-plan-cta",
    "tileas-dynamic-persistent",
    "tileas-insert-OCG-knobs",
    "sink-negf-through-shapes",
    "optimize-execution-unit-mapping",
    "propagate-execution-unit",
    "tileas-remove-buffer-alias",
    "tileas-remove-layout-conversions",
    "tileas-slicing",
    "tileas-prepare-for-scheduling",
    "tileas-resolve-agent-boundary",
    "tileas-unwrap-pipeline-iterators",
}


def context() -> Context:
    ctx = TileasOptMain(args=[]).ctx
    ctx.allow_unregistered = True
    return ctx


def parse(text: str) -> tuple[Context, ModuleOp]:
    ctx = context()
    return ctx, Parser(ctx, text).parse_module()


def printed(module: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def test_every_tile_pass_is_registered_under_its_name() -> None:
    passes = get_all_passes()
    assert set(passes) >= TILE_PASSES
    for name in TILE_PASSES:
        pass_class = passes[name]()
        assert pass_class.name == name
        assert "Before" in (pass_class.__doc__ or "")


def test_tile_dialects_are_registered() -> None:
    assert {"nv_tileaa", "nv_tileas", "cute_nvgpu"} <= set(get_all_dialects())


def test_pass_options_parse() -> None:
    spec = "tileas-plan-cta{keep-direction-tags=true},tileas-slicing"
    passes = tuple(PassPipeline.parse_spec(get_all_passes(), spec).passes)
    assert passes[0] == PlanCTAPass(keep_direction_tags=True)


KERNEL = """
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %pid = nv_tileaa.get_program_id x
  "test.use"(%pid) : (i32) -> ()
  nv_tileas.return
}
"""


def test_dynamic_persistent_warns_once_already_persistent() -> None:
    ctx, module = parse(KERNEL)
    DynamicPersistentPass().apply(ctx, module)
    module.verify()
    first = printed(module)
    with collect_diagnostics() as diagnostics:
        DynamicPersistentPass().apply(ctx, module)
    assert [(d.severity, d.message) for d in diagnostics] == [
        ("warning", "Kernel is already dynamic persistent")
    ]
    assert printed(module) == first


PLAN = """
#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>
func.func @f(%x: tensor<64xf32, #b2>, %y: tensor<64xf32, #b>, %p: i1) -> tensor<64xf32, #b> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %c = nv_tileas.convert_layout %x : tensor<64xf32, #b2> -> tensor<64xf32, #b>
  %s = arith.addf %c, %y : tensor<64xf32, #b>
  %r = scf.if %p -> (tensor<64xf32, #b>) {
    %n = arith.negf %s : tensor<64xf32, #b>
    scf.yield %n : tensor<64xf32, #b>
  } else {
    scf.yield %y : tensor<64xf32, #b>
  }
  func.return %r : tensor<64xf32, #b>
}
"""


def test_plan_cta_is_deterministic_and_clears_its_tags() -> None:
    outputs: list[str] = []
    for _ in range(2):
        ctx, module = parse(PLAN)
        PlanCTAPass().apply(ctx, module)
        module.verify()
        outputs.append(printed(module))
    assert outputs[0] == outputs[1]
    assert "plancta.direction" not in outputs[0]
    assert "arith.negf" in outputs[0]


def test_plan_cta_errors_are_located() -> None:
    ctx, module = parse(PLAN.replace("num_ctas = 2", "num_ctas = 4"))
    with pytest.raises(
        LocatedPassFailure, match="spans 2 CTAs but the kernel's cluster has 4"
    ):
        PlanCTAPass().apply(ctx, module)


def test_execution_unit_mapping_from_python() -> None:
    ctx, module = parse(
        """
        func.func @f() {
          nv_tileas.async.pipeline.warp_specialize {
            "test.a"() {nv_tileas.num_warps = 2 : i32} : () -> ()
          } {
            "test.b"() {nv_tileas.num_warps = 4 : i32} : () -> ()
          }
          func.return
        }
        """
    )
    OptimizeExecutionUnitMappingPass().apply(ctx, module)
    module.verify()
    switch = next(op for op in module.walk() if isinstance(op, AgentSwitchOp))
    assert switch.num_warps.get_values() == (2, 1, 4)
    assert switch.warp_id.get_values() == (0, 2, 4)
    assert switch.agent_strides.get_values() == (1, 2, 1)
