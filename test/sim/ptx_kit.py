"""Small hand-written PTX kernels for the simulator's instruction tests.

`kernel` wraps a body in a module with one `.entry k` and a generous set of registers;
`run` checks that the real ptxas assembles the module (once per distinct text) and then
launches it. Tests compute what they expect independently, in numpy or plain Python.
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tileas_py.ptx.toolchain import run_ptxas
from tileas_py.sim import Report, launch

REGISTERS = """\
  .reg .pred %p<16>;
  .reg .b16 %h<16>;
  .reg .b32 %r<64>;
  .reg .b64 %rd<32>;
  .reg .f32 %f<16>;
  .reg .f64 %fd<8>;
"""


def kernel(
    body: str,
    *,
    params: str = ".param .u64 out",
    decls: str = "",
    directives: str = "",
    functions: str = "",
) -> str:
    """A module holding `decls` (module-scope variables), `functions` and `.entry k`."""
    return (
        ".version 8.7\n.target sm_90a\n.address_size 64\n\n"
        f"{decls}\n{functions}\n"
        f".visible .entry k({params})\n{directives}\n{{\n{REGISTERS}{body}\n}}\n"
    )


@functools.cache
def assemble(source: str) -> None:
    """Fail the test unless ptxas assembles `source` for sm_90a."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "k.ptx"
        path.write_text(source)
        result = run_ptxas(path, output=Path(scratch) / "k.cubin")
    assert result.ok, "\n".join(result.messages) + "\n" + source


def run(
    source: str,
    args: Sequence[Any] = (),
    *,
    grid: int | tuple[int, ...] = 1,
    block: int | tuple[int, ...] = 32,
    cluster: int | tuple[int, ...] | None = None,
    check: bool = True,
) -> Report:
    """Assemble `source` with ptxas, then run its kernel `k` on the simulator."""
    assemble(source)
    return launch(source, "k", grid, block, list(args), cluster=cluster, check=check)


def line_of(source: str, text: str, occurrence: int = 1) -> int:
    """The 1-based line of the `occurrence`-th line of `source` that contains `text`."""
    seen = 0
    for number, line in enumerate(source.splitlines(), 1):
        if text in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(f"{text!r} not in the kernel")
