"""The Python API of tileas-py: parse, verify, transform and print IR without `tileas-opt`.

A thin layer over xDSL (see docs/api.md for worked examples): a `Context` that knows every
dialect of xDSL and of the project, parsers that give each op its `file:line:col`, the
pass registry as pipeline specs (`"pass{option=value},pass"`, xDSL's `PassPipeline`),
and the PTX reader and writer. Errors are xDSL's exceptions: `ParseError` for text,
`VerifyException` for IR, `PassFailedException` (`LocatedPassFailure` when the pass names
the op) for passes; non-fatal diagnostics go to `collect_diagnostics()`.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.transforms import get_all_passes as get_xdsl_passes

from tileas_py.diagnostics import LocatedParser, collect_diagnostics
from tileas_py.dialects import get_all_dialects
from tileas_py.passes import get_all_passes as get_project_passes

__all__ = [
    "all_passes",
    "collect_diagnostics",
    "make_context",
    "parse_mlir",
    "print_mlir",
    "print_ptx",
    "read_ptx",
    "run_pipeline",
    "verify",
    "verify_beyond_ops",
]


def make_context() -> Context:
    """A context with every dialect of xDSL and of tileas-py, loaded on first use."""
    from xdsl.dialects import get_all_dialects as get_xdsl_dialects

    from tileas_py.dialects import get_dialect_overrides

    ctx = Context()
    dialects = {**get_xdsl_dialects(), **get_all_dialects(), **get_dialect_overrides()}
    for name, factory in dialects.items():
        ctx.register_dialect(name, factory)
    return ctx


def all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass `run_pipeline` knows: xDSL's, then tileas-py's (which win on a clash)."""
    return {**get_xdsl_passes(), **get_project_passes()}


def parse_mlir(
    text: str, name: str = "<string>", ctx: Context | None = None
) -> ModuleOp:
    """Parse and verify MLIR text; each op is located at `name:line:col`."""
    module = LocatedParser(ctx or make_context(), text, name).parse_module()
    verify(module)
    return module


def verify(module: ModuleOp) -> None:
    """What `tileas-opt` checks before the first pass: the op verifiers, then
    `verify_beyond_ops`."""
    module.verify()
    verify_beyond_ops(module)


def verify_beyond_ops(module: ModuleOp) -> None:
    """What no op verifier checks: the `nvvm.*` discardable attributes (MLIR checks them
    through its dialect hooks, which xDSL lacks), and what xDSL does not check:
    comparison predicates and SSA dominance."""
    from tileas_py.dialects.nvvm.kernel import verify_nvvm_attributes
    from tileas_py.xdsl_gaps.comparison_predicates import verify_comparison_predicates
    from tileas_py.xdsl_gaps.dominance import verify_dominance

    verify_nvvm_attributes(module)
    verify_comparison_predicates(module)
    verify_dominance(module)


def run_pipeline(module: ModuleOp, spec: str, ctx: Context | None = None) -> ModuleOp:
    """Run the passes of `spec` (`tileas-opt -p` syntax) on `module` in place, verifying
    after each; returns `module`. An unknown pass or option raises `ValueError`."""
    ctx = ctx or make_context()

    def verify_after_pass(
        previous: ModulePass | None, op: ModuleOp, following: ModulePass | None
    ) -> None:
        del following
        if previous is not None:
            op.verify()

    PassPipeline.parse_spec(all_passes(), spec, verify_after_pass).apply(ctx, module)
    return module


def print_mlir(module: ModuleOp, generic: bool = False) -> str:
    """The module as MLIR text, in custom syntax or (`generic=True`) generic form."""
    out = io.StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue() + "\n"


def read_ptx(text: str, name: str = "<stdin>", line_offset: int = 0) -> ModuleOp:
    """Parse a PTX module into ori (raises xDSL's ParseError on bad or unsupported PTX)."""
    from tileas_py.ptx.reader import read_ptx as read

    return read(text, name, line_offset)


def print_ptx(module: ModuleOp) -> str:
    """An ori module as PTX text (what `tileas-opt -t ptx` prints)."""
    from tileas_py.ptx.writer import write_ptx

    out = io.StringIO()
    write_ptx(module, out)
    return out.getvalue()
