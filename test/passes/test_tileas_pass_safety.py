"""Every tileas pass leaves IR that xDSL's `cse` and `licm` may clean up, and is
idempotent (issue 14).

The inputs are the examples, each pass run at its place in `tileas-to-ptx`, and every
input of the tileas pass tests (`test/passes/tileas/`), each pass run on it directly.
After a pass, `cse,licm` must leave IR that verifies and, when the pass's own output
lowered, still lowers; a second run of the pass must change nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)
from xdsl.transforms.loop_invariant_code_motion import LoopInvariantCodeMotionPass
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from tileas_py.diagnostics import collect_diagnostics
from tileas_py.passes import get_all_passes
from tileas_py.pipelines import TILEAS_STAGES, TileasToPtxPipeline
from tileas_py.tools.tileas_opt import TileasOptMain

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*.mlir"))
PASS_TESTS = sorted((REPO / "test/passes/tileas").glob("*/*.mlir"))
CLEANUP: tuple[ModulePass, ...] = (
    CommonSubexpressionElimination(),
    LoopInvariantCodeMotionPass(),
)


def context() -> Context:
    ctx = TileasOptMain(args=[]).ctx
    ctx.allow_unregistered = True
    return ctx


def printed(module: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def run(ctx: Context, module: ModuleOp, passes: tuple[ModulePass, ...]) -> bool:
    """Apply `passes`, verifying after each; False when one reports a diagnostic (the
    input is one it rejects)."""
    with collect_diagnostics():
        try:
            for pass_ in passes:
                pass_.apply(ctx, module)
                module.verify()
        except DiagnosticException:
            return False
    return True


def lowers(ctx: Context, module: ModuleOp) -> bool:
    """Whether `convert-tileas-to-nvvm`, then `convert-nvvm-to-ori`, take the module."""
    passes = get_all_passes()
    lowering = tuple(
        passes[name]()() for name in ("convert-tileas-to-nvvm", "convert-nvvm-to-ori")
    )
    return run(ctx, module.clone(), lowering)


def pass_test_inputs() -> Iterator[tuple[str, str]]:
    """(name, text) of every chunk of the tileas pass tests that parses and verifies."""
    ctx = context()
    for path in PASS_TESTS:
        for index, chunk in enumerate(path.read_text().split("// -----")):
            try:
                Parser(ctx, chunk).parse_module().verify()
            except (ParseError, VerifyException):
                continue  # a verifier or parser test
            yield f"{path.parent.name}/{path.name}#{index}", chunk


INPUTS = list(pass_test_inputs())


def tileas_pass(name: str) -> ModulePass:
    return get_all_passes()[name]()()


def example_prefixes() -> Iterator[tuple[str, int]]:
    ctx = context()
    for path in EXAMPLES:
        module = Parser(ctx, path.read_text(), str(path)).parse_module()
        names = TileasToPtxPipeline(stop_after="tileas").stage_names(module)
        for position in range(len(names)):
            yield path.name, position


@pytest.mark.parametrize(("example", "position"), list(example_prefixes()))
def test_cse_and_licm_after_each_stage_of_an_example(
    example: str, position: int
) -> None:
    """The example through the tileas stages up to one, `cse,licm`, the other stages and
    the lowering to ori."""
    ctx = context()
    module = Parser(ctx, (REPO / "examples" / example).read_text()).parse_module()
    pipeline = TileasToPtxPipeline()
    names = pipeline.stage_names(module)  # the tileas stages first, then the lowerings
    stages = tuple(pipeline.stage(name) for name in names)
    done, rest = stages[: position + 1], stages[position + 1 :]
    assert run(ctx, module, done)
    assert run(ctx, module, CLEANUP), f"cse,licm after {names[position]}"
    assert run(ctx, module, rest), f"the rest of tileas-to-ptx after {names[position]}"


@pytest.mark.parametrize(("example", "position"), list(example_prefixes()))
def test_each_stage_of_an_example_is_idempotent(example: str, position: int) -> None:
    ctx = context()
    module = Parser(ctx, (REPO / "examples" / example).read_text()).parse_module()
    pipeline = TileasToPtxPipeline(stop_after="tileas")
    names = pipeline.stage_names(module)
    assert run(ctx, module, tuple(pipeline.stage(n) for n in names[: position + 1]))
    once = printed(module)
    assert run(ctx, module, (pipeline.stage(names[position]),))
    assert printed(module) == once, f"a second {names[position]}"


@pytest.mark.parametrize("name", TILEAS_STAGES)
def test_cse_and_licm_after_each_pass_on_the_pass_tests(name: str) -> None:
    ctx = context()
    applied = 0
    for label, text in INPUTS:
        module = Parser(ctx, text).parse_module()
        if not run(ctx, module, (tileas_pass(name),)):
            continue
        applied += 1
        lowered = lowers(ctx, module)
        assert run(ctx, module, CLEANUP), f"{label}: cse,licm after {name}"
        assert lowers(ctx, module) or not lowered, f"{label}: lowers no more"
    assert applied > len(INPUTS) // 2


@pytest.mark.parametrize("name", TILEAS_STAGES)
def test_each_pass_is_idempotent_on_the_pass_tests(name: str) -> None:
    ctx = context()
    for label, text in INPUTS:
        module = Parser(ctx, text).parse_module()
        if not run(ctx, module, (tileas_pass(name),)):
            continue
        once = printed(module)
        assert run(ctx, module, (tileas_pass(name),)), f"{label}: second {name}"
        assert printed(module) == once, f"{label}: a second {name} changed it"
