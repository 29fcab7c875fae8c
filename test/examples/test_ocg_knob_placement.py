"""In every example's PTX, each `.pragma "next knob FenceCode";` is right before the
fence, arrive or barrier instruction it belongs to (issue 20).

`tileas-opt X -p tileas-to-ptx -t ptx` adds the knobs for sm 100 targets only; with
`tileas-insert-OCG-knobs` run first, the Hopper examples carry them too, so every
lowering path the examples take (pipelines with deferred WGMMA releases, cluster
barriers, persistent kernels, NVVM with inline asm) is checked, and no knob is lost on
the way: the PTX has at least as many as the tile IR.
"""

from itertools import pairwise
from pathlib import Path

import pytest

from tileas_py.hw.ocg_knobs import FENCE_CODE, is_fence_code_anchor, pragma_asm
from tileas_py.tools.tileas_opt import run_tool

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.mlir"))
FENCE_CODE_LINE = pragma_asm(FENCE_CODE).strip()
FENCE_CODE_ASM = '".pragma \\22next knob FenceCode\\22;\\0A"'


def followers(ptx: str) -> list[str]:
    """The line right after each FenceCode pragma, stripped."""
    lines = [line.strip() for line in ptx.splitlines()]
    return [after for line, after in pairwise(lines) if line == FENCE_CODE_LINE]


def mnemonic(instruction: str) -> str:
    words = instruction.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0] if words else ""


def test_followers_reads_guarded_instructions() -> None:
    ptx = f"\t{FENCE_CODE_LINE}\n\t@%p1 mbarrier.arrive.shared::cta.b64 \t_, [%rd1];\n"
    assert [mnemonic(f) for f in followers(ptx)] == ["mbarrier.arrive.shared::cta.b64"]
    assert not is_fence_code_anchor(mnemonic("ld.shared.u32 %r1, [%rd1];"))


def compile_example(example: Path, tmp_path: Path, pipeline: str) -> str:
    out = tmp_path / f"{example.stem}.out"
    args = [str(example), "-p", pipeline, "-o", str(out)]
    if pipeline.endswith("tileas-to-ptx"):
        args += ["-t", "ptx"]
    assert run_tool(args) == 0
    return out.read_text()


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_fence_code_precedes_its_instruction(example: Path, tmp_path: Path) -> None:
    ptx = compile_example(example, tmp_path, "tileas-to-ptx")
    after = followers(ptx)
    assert all(is_fence_code_anchor(mnemonic(a)) for a in after), after
    if "sm100" in example.stem:
        assert after


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_fence_code_precedes_its_instruction_on_every_path(
    example: Path, tmp_path: Path
) -> None:
    tiles = compile_example(example, tmp_path, "tileas-insert-OCG-knobs")
    ptx = compile_example(example, tmp_path, "tileas-insert-OCG-knobs,tileas-to-ptx")
    after = followers(ptx)
    assert after
    assert all(is_fence_code_anchor(mnemonic(a)) for a in after), after
    assert len(after) >= tiles.count(FENCE_CODE_ASM)
