"""Every corpus file survives PTX -> ori -> PTX: the real ptxas 13.5 assembles the printed
PTX to the same SASS as the original, with the same diagnostics."""

import re
from io import StringIO
from pathlib import Path

import pytest

from tileas_py.ptx.reader import read_ptx
from tileas_py.ptx.toolchain import disassemble, run_ptxas
from tileas_py.ptx.writer import write_ptx

CORPUS = Path(__file__).parent / "corpus"
FILES = sorted(CORPUS.glob("*.ptx"))


def round_trip(text: str, name: str) -> str:
    module = read_ptx(text, name)
    module.verify()
    output = StringIO()
    write_ptx(module, output)
    return output.getvalue()


def assemble(ptx: Path, cubin: Path) -> tuple[list[str], list[str]]:
    """The SASS and the diagnostic codes ptxas gives for `ptx`."""
    # Files calling `.extern .func`s only assemble as relocatable objects.
    extra = ("-c",) if ".extern .func" in ptx.read_text() else ()
    result = run_ptxas(ptx, output=cubin, extra_args=extra)
    assert result.ok, "\n".join(result.messages)
    codes = re.findall(r"\(C\d+\)", result.stdout + result.stderr)
    return disassemble(cubin), codes


def test_corpus_holds_the_required_kernels() -> None:
    names = {f.name for f in FILES}
    assert {
        "triton_gemm_tma.ptx",
        "triton_gemm_cp_async.ptx",
        "nvcc_wgmma_inline_asm.ptx",
    } <= names
    text = (CORPUS / "triton_gemm_tma.ptx").read_text()
    assert "cp.async.bulk.tensor" in text
    assert "mbarrier.try_wait" in text
    assert "wgmma.mma_async" in text
    text = (CORPUS / "triton_gemm_cp_async.ptx").read_text()
    assert "cp.async.cg" in text or "cp.async.ca" in text
    assert "wgmma.mma_async" in text


@pytest.mark.parametrize("ptx", FILES, ids=[f.name for f in FILES])
def test_round_trip_assembles_to_the_same_sass(ptx: Path, tmp_path: Path) -> None:
    printed = round_trip(ptx.read_text(), ptx.name)
    copy = tmp_path / ptx.name
    copy.write_text(printed)
    original_sass, original_codes = assemble(ptx, tmp_path / "original.cubin")
    sass, codes = assemble(copy, tmp_path / "round_trip.cubin")
    assert len(original_sass) > 1
    assert sass == original_sass
    assert codes == original_codes


@pytest.mark.parametrize("ptx", FILES, ids=[f.name for f in FILES])
def test_printed_ptx_is_a_fixed_point(ptx: Path) -> None:
    printed = round_trip(ptx.read_text(), ptx.name)
    assert round_trip(printed, ptx.name) == printed
