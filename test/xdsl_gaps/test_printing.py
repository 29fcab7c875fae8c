"""`TextPrinter` writes exactly what xDSL's `Printer` writes, with its line and column."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from xdsl.printer import Printer

from tileas_py.ptx.reader import read_ptx
from tileas_py.xdsl_gaps.printing import TextPrinter

LITERALS = [bytes([byte]) for byte in range(256)] + [
    b"",
    b"ld.global.v2.f32",
    'x"y\\z\n\t\xe9'.encode(),
    bytes(range(256)),
]


@pytest.mark.parametrize("literal", LITERALS)
def test_string_literal_as_xdsl_prints_it(literal: bytes) -> None:
    ours, theirs = StringIO(), StringIO()
    text_printer, printer = TextPrinter(stream=ours), Printer(stream=theirs)
    text_printer.print_bytes_literal(literal)
    printer.print_bytes_literal(literal)
    assert ours.getvalue() == theirs.getvalue()
    assert text_printer._current_column == printer._current_column  # pyright: ignore[reportPrivateUsage]


def test_random_literals_as_xdsl_prints_them() -> None:
    draw = random.Random(21)
    for _ in range(500):
        literal = bytes(draw.randrange(256) for _ in range(draw.randrange(64)))
        ours, theirs = StringIO(), StringIO()
        TextPrinter(stream=ours).print_bytes_literal(literal)
        Printer(stream=theirs).print_bytes_literal(literal)
        assert ours.getvalue() == theirs.getvalue(), literal


PTX = """\
.version 8.5
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  .loc 1 7 3
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $L__done;
  add.s32 %r2, %r1, 5;
$L__done:
  ret;
}
"""


@pytest.mark.parametrize("generic", [False, True])
def test_module_as_xdsl_prints_it(generic: bool) -> None:
    module = read_ptx(PTX, "k.ptx")
    ours, theirs = StringIO(), StringIO()
    TextPrinter(stream=ours, print_generic_format=generic).print_op(module)
    Printer(stream=theirs, print_generic_format=generic).print_op(module)
    assert "ori.inst" in ours.getvalue()
    assert ours.getvalue() == theirs.getvalue()
