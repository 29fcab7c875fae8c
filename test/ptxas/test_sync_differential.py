"""Differential test: `-p ptxas-pipeline -t sass-sync` against the real ptxas on generated
synchronization kernels.

`sync_generator.generate(seed)` writes a random small sm_90a kernel (CTA barriers, warp-level
syncs, membars and fences, mbarriers, stores, and `if`, `if` / `else` and `nounroll` loops
on uniform or `%tid`-dependent conditions, now and then an early `ret`). For each seed the
kernel is assembled by ptxas 13.5 with `-lineinfo` and its sync SASS listed as the corpus
lists it; the pipeline's listing must be the same (opcode and PTX line of every entry, in
order). The figure is printed at the end of the session and kept in docs/fidelity.md; the
remaining differences come from what is not modelled there (instruction scheduling,
ptxas's placement of `BSSY`, tail duplication, the merging of identical code on both sides
of a branch).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from sync_corpus import Recording, disassemble
from sync_generator import generate
from test_sync_prediction import listing_of, prediction_of
from xdsl.context import Context

from tileas_py.diagnostics import collect_diagnostics
from tileas_py.pipelines import PtxasPipelinePass
from tileas_py.ptx.reader import read_ptx
from tileas_py.ptx.sass_listing import sync_sass
from tileas_py.ptx.toolchain import run_ptxas

SEEDS = range(100)
AGREEMENT_FLOOR = 55
"""Seeds of `SEEDS` whose listing must match (57 when this was written)."""
IF_CONVERT = (
    Path(__file__).resolve().parents[1]
    / "passes"
    / "ori"
    / "ori-if-convert"
    / "if-convert.ptx"
)

Listing = list[tuple[str, list[tuple[int | None, str]], str]]


def ptxas_listing(text: str, line_offset: int = 0) -> Listing:
    with tempfile.TemporaryDirectory() as tmp:
        ptx = Path(tmp) / "k.ptx"
        ptx.write_text(text)
        cubin = Path(tmp) / "k.cubin"
        result = run_ptxas(ptx, output=cubin, extra_args=("-lineinfo",))
        assert result.ok, result.messages
        functions, attributes = disassemble(cubin)
    return [
        (name, [(None if n is None else n + line_offset, o) for n, o in lines], nb)
        for name, lines, nb in listing_of(Recording((), functions, attributes))
    ]


def model_listing(text: str, line_offset: int = 0) -> Listing:
    module = read_ptx(text, "k.ptx", line_offset)
    with collect_diagnostics():
        PtxasPipelinePass().apply(Context(), module)
    return prediction_of(sync_sass(module))


def test_generator_is_deterministic_and_varied() -> None:
    assert generate(3).text == generate(3).text
    assert generate(3).text != generate(4).text
    kinds = {kind for seed in SEEDS for kind in generate(seed).summary}
    assert {
        "bar",
        "bar-named",
        "bar-arrive",
        "shfl",
        "vote",
        "warp-sync",
        "membar-gl",
        "fence",
        "mbarrier-init",
        "mbarrier-arrive",
        "if",
        "if-tid",
        "else",
        "else-tid",
        "loop",
        "loop-tid",
        "early-ret",
    } <= kinds


def test_generated_kernels_agree_with_ptxas() -> None:
    mismatches = [
        seed
        for seed in SEEDS
        if ptxas_listing(text := generate(seed).text) != model_listing(text)
    ]
    matched = len(SEEDS) - len(mismatches)
    print(
        f"\nsync SASS of generated kernels: {matched} of {len(SEEDS)} match ptxas; "
        f"differ: {mismatches}"
    )
    assert matched >= AGREEMENT_FLOOR


def if_convert_chunks() -> list[tuple[str, int]]:
    """The chunks of the `ori-if-convert` lit test and the lines before each."""
    lines = IF_CONVERT.read_text().split("\n")
    separators = [i for i, line in enumerate(lines) if line == "// -----"]
    starts = [0, *(i + 1 for i in separators)]
    ends = [*separators, len(lines)]
    return [("\n".join(lines[s:e]), s) for s, e in zip(starts, ends, strict=True)]


@pytest.mark.parametrize(
    ("text", "offset"),
    if_convert_chunks(),
    ids=[f"chunk{i}" for i in range(len(if_convert_chunks()))],
)
def test_if_convert_lit_test_is_ptxas(text: str, offset: int) -> None:
    assert model_listing(text, offset) == ptxas_listing(text, offset)
