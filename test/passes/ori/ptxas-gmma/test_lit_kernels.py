"""Every kernel the GMMA lit tests check gets, from the real ptxas, the messages the lit test
expects from `-p ptxas-gmma`: each `// -----` module of each lit file, with the ptxas flags of
each RUN line's pass options, is assembled by ptxas 13.5 and compared, as `(code, line)`
lists, with what the pipeline prints for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from lit_kernels import chunks, flags, lit_files, ptxas_runs

from tileas_py.hw.gmma_diagnostics import parse_ptxas_output
from tileas_py.pipelines import PtxasGmmaPipeline
from tileas_py.ptx.toolchain import run_ptxas

RUNS = [
    (path, args, index, chunk)
    for path in lit_files()
    for args in dict.fromkeys(ptxas_runs(path))
    for index, chunk in enumerate(chunks(path))
]


def test_every_gmma_lit_file_is_covered() -> None:
    names = {path.name for path in lit_files()}
    assert {
        "fixup-gmma-inject.ptx",
        "fixup-gmma-serialize.ptx",
        "fixup-gmma-calls.ptx",
        "fixup-gmma-divergence.ptx",
        "fixup-gmma-registers.ptx",
        "fixup-gmma-explain.ptx",
        "gmma-diagnostics.ptx",
    } <= names
    assert len(RUNS) >= 40


def test_pass_options_map_to_ptxas_flags() -> None:
    assert flags("compile-only=true opt-level=0 maxrregcount=96") == (
        "-c",
        "-O0",
        "-maxrregcount=96",
    )
    assert flags("device_debug=true explain=true") == ("-g",)


@pytest.mark.parametrize(
    ("path", "args", "index", "chunk"),
    RUNS,
    ids=[f"{p.stem}{''.join(a)}-{i}" for p, a, i, _ in RUNS],
)
def test_lit_kernel_matches_ptxas(
    path: Path, args: tuple[str, ...], index: int, chunk: str, tmp_path: Path
) -> None:
    ptx = tmp_path / path.name
    ptx.write_text(chunk)
    result = run_ptxas(ptx, output=tmp_path / "k.cubin", extra_args=args)
    expected = [(d.message.code, d.line) for d in parse_ptxas_output(result.stderr)]
    printed = "\n".join(PtxasGmmaPipeline.messages(chunk, str(path), args))
    got = [(d.message.code, d.line) for d in parse_ptxas_output(printed)]
    assert got == expected, f"{path.name} module {index} with {args}"
