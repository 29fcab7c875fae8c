"""`tileas-opt`: xdsl-opt with every tileas-py dialect, pass, pipeline and target.

All of xdsl-opt's flags work (`-p` pipelines with options, `--split-input-file`,
`--verify-diagnostics`, `--parsing-diagnostics`, `--print-op-generic`,
`--print-between-passes`, `-o`, `-t`). What differs is how user errors end: a parse error,
a verifier error, an unknown pass or option, a missing file or a failing pass each give
one diagnostic on stderr (`file:line:col: error: ...` where the location is known) and
exit code 1, never a Python traceback; `-o FILE` is only written when everything succeeded.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import sys
from collections.abc import Callable, Sequence
from functools import cache
from io import StringIO
from typing import IO, ClassVar, NoReturn

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.universe import Universe
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from tileas_py.diagnostics import (
    Diagnostic,
    LocatedParser,
    LocatedPassFailure,
    PlainVerifyException,
    location_of,
    op_message,
)
from tileas_py.dialects import get_all_dialects, get_dialect_overrides
from tileas_py.passes import get_all_passes
from tileas_py.universe import get_all_targets
from tileas_py.xdsl_gaps.printing import MLIRTextTarget

TOOL = "tileas-opt"


class UserError(Exception):
    """A mistake in the command line or the input, reported as one diagnostic."""


class TileasOptMain(xDSLOptMain):
    version_format: ClassVar[str] = "tileas-opt (xdsl {xdsl_version})"

    _line_offset: int = 0
    _read_from_ptx: bool = False

    def __init__(self, args: Sequence[str] | None = None) -> None:
        super().__init__(description="tileas-py modular optimizer driver", args=args)

    # Registration: the multiverse already holds our universe when the package is
    # installed, so only names it lacks are added (registering a dialect twice raises).

    def register_all_dialects(self) -> None:
        # xDSL's multiverse (which holds our universe when the package is installed), with
        # our own versions of the dialects we override (tileas_py.dialects.OVERRIDES).
        dialects = {
            **get_all_dialects(),
            **multiverse().all_dialects,
            **get_dialect_overrides(),
        }
        for name, factory in dialects.items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        for name, factory in multiverse().all_passes.items():
            self.register_pass(name, factory)
        for name, factory in get_all_passes().items():
            self.available_passes.setdefault(name, factory)

    def register_all_targets(self) -> None:
        for name, factory in multiverse().all_targets.items():
            self.available_targets.setdefault(name, factory)
        for name, factory in get_all_targets().items():
            self.available_targets.setdefault(name, factory)
        # The same text as xDSL's `mlir` target, written with fewer calls.
        self.available_targets["mlir"] = lambda: MLIRTextTarget

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)

        def error(message: str) -> NoReturn:
            raise UserError(message)

        # One line instead of argparse's usage block and exit status 2.
        arg_parser.error = error

    def register_all_frontends(self) -> None:
        super().register_all_frontends()
        self.available_frontends["mlir"] = self._parse_mlir
        self.available_frontends["ptx"] = self._parse_ptx

    def setup_pipeline(self) -> None:
        try:
            super().setup_pipeline()
        except (ValueError, ArgSpecParseError) as e:
            raise UserError(str(e).strip()) from None
        between_passes = self.pipeline.callback
        assert between_passes is not None

        # The PTX reader builds ops through their own constructors and its tests verify
        # what it builds; verifying that again before the first pass was a sixth of a
        # GEMM's `-p ptxas-gmma` run. Its module is still verified after every pass.
        def callback(
            previous: ModulePass | None, module: ModuleOp, following: ModulePass | None
        ) -> None:
            first = previous is None and following is not None
            if not (first and self._read_from_ptx and not self.args.time_passes):
                between_passes(previous, module, following)

        self.pipeline = dataclasses.replace(self.pipeline, callback=callback)

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        self._line_offset = start_offset
        self._read_from_ptx = file_extension == "ptx"
        return super().parse_chunk(chunk, file_extension, start_offset)

    def _parse_mlir(self, io: IO[bytes]) -> ModuleOp:
        text = decode_source(io.read(), self.get_input_name(), self._line_offset)
        parser = LocatedParser(self.ctx, text, self.get_input_name(), self._line_offset)
        return parser.parse_module(not self.args.no_implicit_module)

    def _parse_ptx(self, io: IO[bytes]) -> ModuleOp:
        from tileas_py.ptx.reader import read_ptx

        text = decode_source(io.read(), self.get_input_name(), self._line_offset)
        return read_ptx(text, self.get_input_name(), self._line_offset)

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        try:
            return super().get_input_stream()
        except OSError as e:
            raise UserError(
                f"cannot open input file '{self.args.input_file}': {e.strerror}"
            ) from None

    def prepare_input(self) -> tuple[list[tuple[IO[bytes], int]], str]:
        try:
            return super().prepare_input()
        except ValueError as e:
            raise UserError(f"{self.get_input_name()}: {e}") from None

    def apply_passes(self, prog: ModuleOp) -> None:
        if not (self.args.disable_verify or self._read_from_ptx):
            # xDSLOptMain runs the op verifiers; the rest of `api.verify` is done here
            # (on what was parsed: the PTX reader's ori has no nvvm attributes or
            # comparisons, and its values are defined before use by construction).
            from tileas_py.api import verify_beyond_ops

            verify_beyond_ops(prog)
        try:
            super().apply_passes(prog)
        except NotImplementedError as e:
            # A pass's own way of saying "this input is not supported": a user error.
            raise LocatedPassFailure(
                None, str(e) or "input not supported by a pass"
            ) from None

    def run(self) -> None:
        sys.exit(self.run_and_report())

    def run_and_report(self) -> int:
        """Process every input chunk; return the exit code (0 ok, 1 any user error)."""
        chunks, file_extension = self.prepare_input()
        output_file: str | None = self.args.output_file
        buffer = StringIO() if output_file is not None else None
        output: IO[str] = sys.stdout if buffer is None else buffer
        failed = False
        for i, (chunk, offset) in enumerate(chunks):
            if i > 0:
                output.write("// -----\n")
            module: ModuleOp | None = None
            try:
                module = self.parse_chunk(chunk, file_extension, offset)
                if module is not None:
                    self.apply_passes(module)
                    output.write(self.output_resulting_program(module))
            except ParseError as e:
                e.span = dataclasses.replace(e.span, line_offset=offset)
                if self.args.parsing_diagnostics:
                    print(e)
                else:
                    failed = True
                    print(format_parse_error(e), file=sys.stderr)
            except DiagnosticException as e:
                if self.args.verify_diagnostics:
                    print(e)
                    for note in getattr(e, "__notes__", []):
                        print(note)
                else:
                    failed = True
                    print(describe_failure(e, module), file=sys.stderr)
            finally:
                chunk.close()
            output.flush()
        if failed:
            return 1
        if output_file is not None and buffer is not None:
            try:
                with open(output_file, "w") as f:
                    f.write(buffer.getvalue())
            except OSError as e:
                raise UserError(
                    f"cannot write output file '{output_file}': {e.strerror}"
                ) from None
        return 0


def decode_source(data: bytes, name: str, line_offset: int = 0) -> str:
    """Input as text; a file that is not UTF-8 is a user error at the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1 + line_offset
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise UserError(
            f"{name}:{line}:{column}: error: input is not valid UTF-8 text"
        ) from None


def describe_failure(e: DiagnosticException, module: ModuleOp | None) -> Diagnostic:
    """One diagnostic for a verifier error or a pass failure, at the op it is about."""
    if isinstance(e, LocatedPassFailure):
        return Diagnostic("error", e.message, location_of(e.op))
    # Upstream's words as they are, down to a leading space (` `satfinite` can be...`).
    message = str(e).strip("\n").rstrip()
    culprit = find_unverified_op(module, message) if module is not None else None
    if isinstance(e, PlainVerifyException):
        culprit = e.op if e.op is not None else culprit
        return Diagnostic("error", message, location_of(culprit))
    if culprit is None:
        return Diagnostic("error", message)
    return Diagnostic("error", op_message(culprit, message), location_of(culprit))


def find_unverified_op(
    module: ModuleOp, message: str | None = None
) -> Operation | None:
    """The first op (in pre-order) whose own verifier rejects it with `message`, else
    the first op whose own verifier rejects it at all.

    An op may fail for a second reason of its own (a module's duplicate symbols) that
    the full verification, which checks nested ops first, did not report."""
    first: Operation | None = None
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException as e:
            if message is None or str(e).strip() == message:
                return op
            first = first or op
    return first


@cache
def multiverse() -> Universe:
    """xDSL's multiverse, read once: each read scans every installed package's entry
    points, and xDSLOptMain's registration would read it three times."""
    return Universe.get_multiverse()


def run_tool(
    args: Sequence[str] | None = None, after_setup: Callable[[], None] | None = None
) -> int:
    """Run tileas-opt on `args`; every user error becomes one line on stderr and exit 1.

    `after_setup` runs once the tool is set up (dialects, passes and the pipeline), before
    the input is read."""
    try:
        tool = TileasOptMain(args=args)
        if after_setup is not None:
            after_setup()
        return tool.run_and_report()
    except UserError as e:
        message = str(e)
        print(
            message if ": error: " in message else f"{TOOL}: error: {message}",
            file=sys.stderr,
        )
    except RecursionError:
        print(f"{TOOL}: error: input is nested too deeply", file=sys.stderr)
    except Exception as e:  # an internal bug: still one diagnostic, never a traceback
        if os.environ.get("TILEAS_OPT_TRACEBACK"):
            raise
        print(
            f"{TOOL}: internal error: {type(e).__name__}: {e} "
            "(set TILEAS_OPT_TRACEBACK=1 for the Python traceback)",
            file=sys.stderr,
        )
        return 2
    return 1


def format_parse_error(e: ParseError) -> str:
    """`file:line:col: error: message`, then the offending line with a caret, as MLIR does."""
    location = e.span.get_location()
    context = e.span.print_with_context().split("\n", 1)[1].rstrip("\n")
    context = "\n".join(line for line in context.split("\n") if line.strip())
    return f"{location}: error: {e.msg}\n{context}"


def resume_collection() -> None:
    """Freeze what start-up built (it lives until exit) out of the cyclic collector's
    walks, and resume the collector, which `tileas-opt`'s entry point pauses for start-up
    (see `tileas_py.tools.startup`)."""
    gc.freeze()
    gc.enable()


def main() -> None:
    code = run_tool(after_setup=resume_collection)
    # Nothing is collected any more: freezing every object spares the interpreter's
    # exit the garbage collections that would walk all of them (a tenth of a small run).
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    main()
