"""Source locations and user-facing diagnostics, in the style of MLIR's diagnostic engine.

Every op parsed from a file carries a `FileLineColLoc` (see `LocatedParser`), so that
verifier errors, pass failures and pass warnings can name `file:line:col` the way
`mlir-opt` does (https://mlir.llvm.org/docs/Diagnostics/):

    kernel.mlir:12:5: error: 'nvvm.wgmma.mma_async' op results 64, however output struct has 32 elements

Passes report through `emit_error` (raises `LocatedPassFailure`, which `tileas-opt`
turns into one diagnostic and exit code 1) and `emit_warning` / `emit_remark` / `emit_note`,
which go to the active handler: stderr by default, a list inside `collect_diagnostics()`.
Passes that model another tool (the ptxas phases) report that tool's own lines verbatim
with `emit_verbatim`, so that their output and the tool's compare line by line.
"""

from __future__ import annotations

import bisect
import sys
from collections.abc import Callable, Generator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate
from typing import Literal, NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException, VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from tileas_py.xdsl_gaps.parsing import RobustParser

Severity = Literal["error", "warning", "remark", "note", "verbatim"]


class SourceText:
    """A source file's text with a line index, for cheap offset -> (line, column) lookups."""

    def __init__(self, name: str, text: str, line_offset: int = 0) -> None:
        self.name = name
        self.text = text
        self.line_offset = line_offset
        self._line_starts = [0, *accumulate(len(line) + 1 for line in text.split("\n"))]

    def line_col(self, position: int) -> tuple[int, int]:
        """1-based line (including the chunk's line offset) and column of an offset."""
        index = bisect.bisect_right(self._line_starts, position) - 1
        return index + 1 + self.line_offset, position - self._line_starts[index] + 1

    def location(self, position: int) -> FileLineColLoc:
        line, column = self.line_col(position)
        return FileLineColLoc(StringAttr(self.name), IntAttr(line), IntAttr(column))


class LocatedParser(RobustParser):
    """An MLIR parser that gives each parsed op the `file:line:col` it was written at."""

    def __init__(
        self, ctx: Context, text: str, name: str = "<stdin>", line_offset: int = 0
    ) -> None:
        super().__init__(ctx, text, name)
        self.source = SourceText(name, text, line_offset)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        # An input holding nothing but comments is an empty module, as for mlir-opt
        # (a `--split-input-file` chunk after the last op, often).
        if allow_implicit_module and self._current_token.kind == MLIRTokenKind.EOF:  # pyright: ignore[reportPrivateUsage]
            return ModuleOp([])
        return super().parse_module(allow_implicit_module)

    def parse_operation(self) -> Operation:
        start = self.pos
        op = super().parse_operation()
        if not isinstance(op.location, FileLineColLoc):
            op.location = self.source.location(start)
        return op


@dataclass(frozen=True)
class Diagnostic:
    """One user-facing message, optionally tied to a source location."""

    severity: Severity
    message: str
    location: FileLineColLoc | None = None

    def __str__(self) -> str:
        if self.severity == "verbatim":
            return self.message
        if self.location is None:
            return f"{self.severity}: {self.message}"
        loc = self.location
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}: {self.severity}: {self.message}"


def location_of(op: Operation | None) -> FileLineColLoc | None:
    """The nearest source location of `op` or of one of its ancestors."""
    while op is not None:
        if isinstance(op.location, FileLineColLoc):
            return op.location
        op = op.parent_op()
    return None


def op_message(op: Operation, message: str) -> str:
    """MLIR's phrasing for a message about an op: `'name' op message`."""
    return f"'{op.name}' op {message}"


DiagnosticHandler = Callable[[Diagnostic], None]


def _print_to_stderr(diagnostic: Diagnostic) -> None:
    print(diagnostic, file=sys.stderr)


# A stack: the innermost handler (the last one pushed) receives every diagnostic.
_handlers: list[DiagnosticHandler] = [_print_to_stderr]


def emit(op: Operation | None, severity: Severity, message: str) -> None:
    """Report a non-fatal diagnostic about `op` to the active handler."""
    _handlers[-1](Diagnostic(severity, message, location_of(op)))


def emit_warning(op: Operation | None, message: str) -> None:
    emit(op, "warning", message)


def emit_remark(op: Operation | None, message: str) -> None:
    emit(op, "remark", message)


def emit_note(op: Operation | None, message: str) -> None:
    emit(op, "note", message)


def emit_verbatim(op: Operation | None, line: str) -> None:
    """Report a line in another tool's own format, printed as is (`op` is what it is
    about, kept for handlers that want the location)."""
    emit(op, "verbatim", line)


class PlainVerifyException(VerifyException):
    """A verifier error that MLIR reports with `emitError` rather than `emitOpError`: shown
    at the op's location as is, without the `'name' op` prefix. `op` names the culprit when
    the error is found by a check that does not run inside the op's own verifier."""

    def __init__(self, message: str, op: Operation | None = None) -> None:
        super().__init__(message)
        self.op = op


class LocatedPassFailure(PassFailedException):
    """A pass failure that knows which op it is about, so the driver can locate it."""

    def __init__(self, op: Operation | None, message: str) -> None:
        super().__init__(message)
        self.op = op
        self.message = message


def emit_error(op: Operation | None, message: str) -> NoReturn:
    """Fail the running pass with a diagnostic at `op`."""
    raise LocatedPassFailure(op, message)


@contextmanager
def collect_diagnostics() -> Generator[list[Diagnostic]]:
    """Capture emitted diagnostics in a list instead of printing them (for tests and tools)."""
    collected: list[Diagnostic] = []
    _handlers.append(collected.append)
    try:
        yield collected
    finally:
        _handlers.pop()
