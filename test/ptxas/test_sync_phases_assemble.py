"""The PTX printed after every sync phase still assembles with the real ptxas.

For every kernel of the sync corpus that ptxas assembles by default and every real kernel
of test/ptx/corpus/ (Triton TMA and cp.async GEMMs, nvcc's inline-asm WGMMA kernel, ...),
the phases of `ptxas-pipeline` run one after the other with their most aggressive options
(barrier removal in every mode, fences after loops, DEPBAR CSE), and the module is printed
as PTX and assembled after each phase. The whole pipeline also runs with its defaults on
the real kernels, whose predicted sync SASS must be the real one's in what the sync phases
decide (the count of each mbarrier, TMA, barrier and fence opcode).

The PTX the default pipeline prints (`-p ptxas-pipeline -t ptx`) is what ptxas makes of the
input: assembled again, it gives no more non-NOP SASS than the original (a rotated spin
loop is printed as the loop, an if-converted branch as the branch, so ptxas does not
rotate or predicate twice); for the sync corpus, exactly the same SASS.
"""

from __future__ import annotations

import io
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from sync_corpus import disassemble
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from tileas_py.diagnostics import collect_diagnostics
from tileas_py.pipelines import PtxasPipelinePass
from tileas_py.ptx.reader import read_ptx
from tileas_py.ptx.sass_listing import sync_sass
from tileas_py.ptx.toolchain import disassemble as cuobjdump_sass
from tileas_py.ptx.toolchain import run_ptxas
from tileas_py.ptx.writer import write_ptx

REPO = Path(__file__).resolve().parents[2]
SYNC_CORPUS = REPO / "test" / "ptxas" / "sync" / "corpus"
PTX_CORPUS = REPO / "test" / "ptx" / "corpus"
GEMMS = ("triton_gemm_tma", "triton_gemm_cp_async", "nvcc_wgmma_inline_asm")

# compile-only: ptxas (and phase 87) refuse a call of an extern function without `-c`,
# and `assemble` passes `-c` for such kernels.
AGGRESSIVE = PtxasPipelinePass(
    sync_mode=3,
    assume_extern_functions_do_not_sync=True,
    stage_and_fence=True,
    compile_only=True,
)


def default_run_exit(ptx: Path) -> int | None:
    """The exit status of the kernel's plain `ptxas -arch=...` RUN line, if it has one."""
    for line in ptx.read_text().splitlines()[1:]:
        if not line.startswith("// RUN:"):
            break
        command, status = line.removeprefix("// RUN: ptxas ").split(" => exit ")
        if command.split() == [command.split()[0]]:
            return int(status)
    return None


KERNELS = sorted(
    [p for p in SYNC_CORPUS.glob("*.ptx") if default_run_exit(p) == 0]
    + list(PTX_CORPUS.glob("*.ptx")),
    key=lambda p: p.stem,
)


def target_of(text: str) -> str:
    for line in text.splitlines():
        if line.startswith(".target"):
            return line.split()[1].rstrip(",")
    raise AssertionError("no .target")


def assemble(module: ModuleOp, arch: str) -> str:
    """Print the module as PTX and assemble it; ptxas's complaint, or ''."""
    text = io.StringIO()
    write_ptx(module, text)
    with tempfile.TemporaryDirectory() as tmp:
        ptx = Path(tmp) / "k.ptx"
        ptx.write_text(text.getvalue())
        extra = ("-c",) if ".extern .func" in text.getvalue() else ()
        result = run_ptxas(
            ptx, arch=arch, output=Path(tmp) / "k.cubin", extra_args=extra
        )
    return "" if result.ok else result.stderr


@pytest.mark.parametrize("ptx", KERNELS, ids=[p.stem for p in KERNELS])
def test_every_phase_output_assembles(ptx: Path) -> None:
    text = ptx.read_text()
    arch = target_of(text)
    module = read_ptx(text, ptx.name)
    ctx = Context()
    with collect_diagnostics():
        for phase in AGGRESSIVE.passes():
            phase.apply(ctx, module)
            module.verify()
            assert assemble(module, arch) == "", phase.name


SYNC_ROOTS = ("SYNCS", "UTMA", "UBLK", "BAR", "MEMBAR", "FENCE", "DEPBAR", "CCTL")


def real_sync_counts(ptx: Path, arch: str) -> Counter[str]:
    with tempfile.TemporaryDirectory() as tmp:
        cubin = Path(tmp) / "k.cubin"
        result = run_ptxas(ptx, arch=arch, output=cubin)
        assert result.ok, result.stderr
        functions, _ = disassemble(cubin)
    return Counter(
        s.opcode for f in functions for s in f.sass if s.opcode.startswith(SYNC_ROOTS)
    )


@pytest.mark.parametrize("name", GEMMS)
def test_pipeline_on_real_gemm_kernels(name: str) -> None:
    ptx = PTX_CORPUS / f"{name}.ptx"
    text = ptx.read_text()
    arch = target_of(text)
    for pipeline in (PtxasPipelinePass(), AGGRESSIVE):
        module = read_ptx(text, ptx.name)
        with collect_diagnostics():
            pipeline.apply(Context(), module)
        module.verify()
        assert assemble(module, arch) == ""
    module = read_ptx(text, ptx.name)
    with collect_diagnostics():
        PtxasPipelinePass().apply(Context(), module)
    predicted = Counter(
        line.opcode
        for listing in sync_sass(module)
        for line in listing.lines
        if line.opcode.startswith(SYNC_ROOTS)
    )
    real = real_sync_counts(ptx, arch)
    # Loops are unrolled or software-pipelined by ptxas and WGMMA belongs to the GMMA
    # phases, so only what the sync phases emit once per PTX instruction is compared.
    for opcode in (
        "SYNCS.EXCH.64",
        "SYNCS.ARRIVE.TRANS64",
        "SYNCS.CCTL.IV",
        "UTMALDG.2D",
    ):
        assert predicted[opcode] == real[opcode], opcode


def sass_without_nops(ptx: Path, arch: str) -> list[str]:
    """The SASS ptxas makes of a PTX file (`-c` for extern calls), NOPs left out."""
    with tempfile.TemporaryDirectory() as tmp:
        cubin = Path(tmp) / "k.cubin"
        extra = ("-c",) if ".extern .func" in ptx.read_text() else ()
        result = run_ptxas(ptx, arch=arch, output=cubin, extra_args=extra)
        assert result.ok, result.stderr
        return [line for line in cuobjdump_sass(cubin) if line != "NOP"]


@pytest.mark.parametrize("ptx", KERNELS, ids=[p.stem for p in KERNELS])
def test_pipeline_ptx_assembles_to_no_more_sass(ptx: Path, tmp_path: Path) -> None:
    text = ptx.read_text()
    arch = target_of(text)
    module = read_ptx(text, ptx.name)
    with collect_diagnostics():
        PtxasPipelinePass(compile_only=".extern .func" in text).apply(Context(), module)
    printed = io.StringIO()
    write_ptx(module, printed)
    again = tmp_path / ptx.name
    again.write_text(printed.getvalue())
    original = sass_without_nops(ptx, arch)
    after = sass_without_nops(again, arch)
    assert len(after) <= len(original)
    if ptx.parent == SYNC_CORPUS:
        assert after == original
