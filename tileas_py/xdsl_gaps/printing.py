"""xDSL's MLIR printer, writing each piece of text with one call.

xDSL 0.74's `Printer` sends every token through `print(text, end="", file=stream)` and
every byte of a string literal through a call of its own: a third of printing a GEMM's
ori (an opcode and a register name per line). `TextPrinter` writes the same characters
with one call per piece of text and one per literal (escaped by a translation table),
keeps the same line and column counts, and leaves text with a newline (indentation,
next-line callbacks) to xDSL's code. `MLIRTextTarget` is xDSL's `mlir` target printing
with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer
from xdsl.targets.mlir import MLIRTarget


@dataclass(eq=False, repr=False)
class TextPrinter(Printer):
    """`Printer`, writing a run of text without a newline straight to the stream."""

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if self.stream is None or "\n" in text:
            super().print_string(text, indent=indent)
            return
        self._current_column += len(text)
        self.stream.write(text)

    def print_bytes_literal(self, bytestring: bytes) -> None:
        # Latin-1 maps each byte to the code point of its value; xDSL's escapes follow.
        text = bytestring.decode("latin-1").translate(_ESCAPES)
        self.print_string(f'"{text}"')


_ESCAPES = {
    byte: "\\\\" if byte == 0x5C else f"\\{byte:02X}"
    for byte in range(256)
    if byte < 0x20 or byte > 0x7E or byte in (0x22, 0x5C)
}
r"""xDSL's string-literal escapes: `\\` for a backslash, `\XX` (hex) for `"`, control
characters and every byte outside printable ASCII."""


@dataclass(frozen=True)
class MLIRTextTarget(MLIRTarget):
    """xDSL's `mlir` target, printing with `TextPrinter` unless syntax is highlighted."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if self.syntax_highlight:
            super().emit(ctx, module, output)
            return
        printer = TextPrinter(
            stream=output,
            print_generic_format=self.print_generic_format,
            print_properties_as_attributes=self.print_properties_as_attributes,
            print_debuginfo=self.print_debuginfo,
        )
        printer.print_op(module)
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)
