"""The real ptxas accepts every instruction convert-nvvm-to-ori selects.

Each op-family test of this folder (`arith.mlir`, `memory.mlir`, ...) is lowered with
`--split-input-file -p convert-nvvm-to-ori -t ptx`, and every one of its modules must
assemble for its `.target` (`-c`: device functions are compiled on their own) without an
error or a warning.
"""

import re
from pathlib import Path

import pytest

from tileas_py.ptx.toolchain import run_ptxas
from tileas_py.tools.tileas_opt import run_tool

HERE = Path(__file__).resolve().parent
FAMILIES = sorted(p for p in HERE.glob("*.mlir") if not p.name.startswith("invalid"))


def test_every_family_is_here() -> None:
    assert {p.stem for p in FAMILIES} >= {
        "arith",
        "memory",
        "control-flow",
        "nvvm-ops",
        "wgmma",
        "module",
    }


@pytest.mark.parametrize("family", FAMILIES, ids=[p.stem for p in FAMILIES])
def test_every_module_assembles(family: Path, tmp_path: Path) -> None:
    ptx = tmp_path / "all.ptx"
    args = [str(family), "--split-input-file", "-p", "convert-nvvm-to-ori"]
    assert run_tool([*args, "-t", "ptx", "-o", str(ptx)]) == 0
    modules = ptx.read_text().split("// -----\n")
    assert len(modules) == family.read_text().count("\n// -----\n") + 1
    for index, text in enumerate(modules):
        chunk = tmp_path / f"chunk{index}.ptx"
        chunk.write_text(text)
        target = re.search(r"^\.target (\w+)$", text, re.M)
        assert target is not None
        result = run_ptxas(chunk, arch=target.group(1), extra_args=("-c",))
        assert result.ok, f"module {index}:\n" + "\n".join(result.messages)
        assert not [m for m in result.messages if "warning" in m], result.messages
