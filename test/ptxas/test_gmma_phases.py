"""`-p ptxas-gmma` against the real ptxas: the corpus, the real GEMM kernels, the fixed-up PTX.

For every kernel of test/ptxas/gmma/corpus/, the pipeline (with the pass options of the
kernel's `// RUN:` ptxas flags) must print exactly the `(code, line)` list that ptxas
13.5 printed, in ptxas's order. The Triton and nvcc kernels of test/ptx/corpus/ must get
exactly ptxas's messages, run live, with and without `-c`. The PTX the pipeline writes
after fixing a kernel up must still assemble.
"""

from __future__ import annotations

import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from gmma_corpus import CorpusCase, corpus_cases, model_messages
from xdsl.context import Context
from xdsl.utils.exceptions import PassFailedException

from tileas_py.diagnostics import collect_diagnostics
from tileas_py.hw.gmma_diagnostics import parse_ptxas_output
from tileas_py.passes.ori.support.gmma import Cause
from tileas_py.passes.ori.support.gmma.report import EXPLAINERS
from tileas_py.pipelines import PtxasGmmaPipeline
from tileas_py.ptx.reader import read_ptx
from tileas_py.ptx.toolchain import run_ptxas
from tileas_py.ptx.writer import write_ptx

CASES = corpus_cases()

MODELLED = CASES
"""Every corpus kernel: the reader reads them all (`brx.idx` included)."""

REAL_KERNELS = sorted((Path(__file__).parent.parent / "ptx" / "corpus").glob("*.ptx"))


def recorded(case: CorpusCase) -> list[tuple[int, int | None]]:
    return [
        (d.message.code, d.line) for d in parse_ptxas_output(case.expected.read_text())
    ]


@pytest.mark.parametrize("case", MODELLED, ids=[c.name for c in MODELLED])
def test_pipeline_prints_what_ptxas_printed(case: CorpusCase) -> None:
    got, _ = model_messages(case.ptx.read_text(), str(case.ptx), case.args)
    assert got == recorded(case)


def test_messages_are_ptxas_lines_verbatim() -> None:
    # Where ptxas prints only GMMA messages, the pipeline's lines are the same text.
    compared = 0
    for case in MODELLED:
        lines = case.expected.read_text().splitlines()
        if not lines or any("(C7" not in line for line in lines):
            continue
        _, printed = model_messages(case.ptx.read_text(), str(case.ptx), case.args)
        assert printed == lines, case.name
        compared += 1
    assert compared >= 40


@pytest.mark.parametrize("ptx", REAL_KERNELS, ids=[p.stem for p in REAL_KERNELS])
@pytest.mark.parametrize("args", [(), ("-c",)], ids=["whole-program", "compile-only"])
def test_real_kernels_get_ptxas_messages(
    ptx: Path, args: tuple[str, ...], tmp_path: Path
) -> None:
    result = run_ptxas(ptx, output=tmp_path / "k.cubin", extra_args=args)
    expected = [(d.message.code, d.line) for d in parse_ptxas_output(result.stderr)]
    got, _ = model_messages(ptx.read_text(), str(ptx), args)
    assert got == expected
    if ptx.stem == "nvcc_wgmma_inline_asm":
        # -c makes its 32 calls of a defined .func opaque: the first one serializes.
        assert (expected != []) == ("-c" in args)


def _fixed_up_ptx(case: CorpusCase) -> str | None:
    module = read_ptx(case.ptx.read_text(), str(case.ptx))
    with collect_diagnostics():
        try:
            PtxasGmmaPipeline.from_ptxas_args(case.args).apply(Context(), module)
        except PassFailedException:
            return None
    output = StringIO()
    write_ptx(module, output)
    return output.getvalue()


def test_fixed_up_ptx_still_assembles(tmp_path: Path) -> None:
    assembled = 0
    for case in MODELLED:
        text = _fixed_up_ptx(case)
        if text is None:
            assert case.exit_status != 0, case.name
            continue
        ptx = tmp_path / f"{case.name}.ptx"
        ptx.write_text(text)
        result = run_ptxas(ptx, output=tmp_path / "k.cubin", extra_args=case.args)
        assert result.ok, (case.name, result.messages)
        assembled += 1
    assert assembled >= 80


def test_fixed_up_injection_removes_the_message(tmp_path: Path) -> None:
    # After the pipeline injected its waits, ptxas has nothing left to inject.
    for name in (
        "wait_missing",
        "read_between_commit_and_wait",
        "wait_missing_three_groups",
    ):
        case = next(c for c in CASES if c.name == name)
        text = _fixed_up_ptx(case)
        assert text is not None
        waits = re.findall(r"^\s*wgmma\.wait_group", text, re.MULTILINE)
        before = re.findall(
            r"^\s*wgmma\.wait_group", case.ptx.read_text(), re.MULTILINE
        )
        assert len(waits) == len(before) + 1
        ptx = tmp_path / f"{name}.ptx"
        ptx.write_text(text)
        result = run_ptxas(ptx, output=tmp_path / "k.cubin")
        assert result.ok
        assert parse_ptxas_output(result.stderr) == [], name


def test_tileas_opt_prints_ptxas_lines_on_stderr(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == "wait_missing_three_groups")
    tool = Path(sys.executable).parent / "tileas-opt"
    result = subprocess.run(
        [
            str(tool),
            str(case.ptx),
            "-p",
            "ptxas-gmma",
            "-t",
            "ptx",
            "-o",
            str(tmp_path / "k.ptx"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert result.stderr.splitlines() == case.expected.read_text().splitlines()


def test_every_cause_has_an_explainer() -> None:
    """`explain=true` notes come from one explainer per cause; a new cause needs one."""
    assert set(EXPLAINERS) == set(Cause)
