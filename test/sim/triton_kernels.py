"""The Triton GEMMs under `kernels/triton/`: their manifest, and the PTX mnemonics each uses.

Run with the project's venv from the repository root to print the mnemonic lists of
`kernels/triton/README.md` (between its BEGIN and END markers):

    .venv/bin/python test/sim/triton_kernels.py

A mnemonic is an instruction's full opcode as the project's PTX reader records it
(`wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16`): every form a simulator has to run.
`test_triton_kernels.py` checks that the README holds exactly this output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import InstructionOp
from tileas_py.ptx.reader import read_ptx

KERNELS_DIR = Path(__file__).parent / "kernels" / "triton"
README = KERNELS_DIR / "README.md"
BEGIN = "<!-- mnemonics: begin (written by test/sim/triton_kernels.py) -->"
END = "<!-- mnemonics: end -->"


def load_manifest() -> dict[str, dict[str, Any]]:
    """The manifest's kernels, by name."""
    manifest: dict[str, Any] = json.loads((KERNELS_DIR / "manifest.json").read_text())
    return manifest["kernels"]


def entry_function(kernel: dict[str, Any]) -> FuncOp:
    """A manifest kernel's entry, read into ori from its PTX file."""
    ptx_file = KERNELS_DIR / kernel["ptx"]
    module = read_ptx(ptx_file.read_text(), str(ptx_file))
    for op in module.walk():
        if isinstance(op, FuncOp) and op.func_name.data == kernel["entry"]:
            return op
    raise ValueError(f"{ptx_file}: no function {kernel['entry']}")


def kernel_mnemonics(func: FuncOp) -> list[str]:
    """The distinct opcodes of a function's instructions, sorted."""
    return sorted(
        {op.opcode.data for op in func.walk() if isinstance(op, InstructionOp)}
    )


def readme_section() -> str:
    """The README's mnemonic lists, from BEGIN to END."""
    lines = [BEGIN, ""]
    every: set[str] = set()
    for name, kernel in load_manifest().items():
        mnemonics = kernel_mnemonics(entry_function(kernel))
        every.update(mnemonics)
        listed = ", ".join(f"`{m}`" for m in mnemonics)
        lines += [f"- **{name}** ({len(mnemonics)}): {listed}", ""]
    listed = ", ".join(f"`{m}`" for m in sorted(every))
    lines += [f"All kernels together ({len(every)}): {listed}", "", END]
    return "\n".join(lines)


if __name__ == "__main__":
    print(readme_section())
