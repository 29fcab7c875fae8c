"""EIATTR_MBARRIER_INSTR_OFFSETS, EIATTR_NUM_MBARRIERS and EIATTR_SW_WAR as ptxas records them.

Every run of the sync corpus that the prediction test compares, and every kernel of
test/ptx/corpus/, is assembled by the real ptxas and read back with `cuobjdump -elf`; the
listing of `-t sass-sync` after `ptxas-pipeline` must give the same kinds of mbarrier
entries in the same order, the same NUM_MBARRIERS and the same SW_WAR for every kernel.
The byte offsets of the entries are not modelled.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from sync_corpus import ElfAttributes, Recording, Run, SyncCase, elf_attributes
from test_sync_prediction import COMPARED_RUNS, predicted
from xdsl.context import Context

from tileas_py.diagnostics import collect_diagnostics
from tileas_py.pipelines import PtxasPipelinePass
from tileas_py.ptx.reader import read_ptx
from tileas_py.ptx.sass_listing import SassListing, sync_sass
from tileas_py.ptx.toolchain import run_ptxas

PTX_CORPUS = Path(__file__).resolve().parents[1] / "ptx" / "corpus"
REAL_KERNELS = sorted(PTX_CORPUS.glob("*.ptx"))


def real(ptx: Path, arch: str, args: tuple[str, ...]) -> dict[str, ElfAttributes]:
    with tempfile.TemporaryDirectory() as tmp:
        cubin = Path(tmp) / "k.cubin"
        result = run_ptxas(ptx, arch=arch, output=cubin, extra_args=args)
        assert result.ok, result.stderr
        return elf_attributes(cubin)


def prediction(listing: SassListing) -> ElfAttributes:
    return ElfAttributes(
        tuple(kind.cuobjdump_name for kind in listing.mbarrier_kinds),
        listing.num_mbarriers,
        listing.sw_war,
    )


@pytest.mark.parametrize(
    ("case", "run", "recording"),
    COMPARED_RUNS,
    ids=[f"{case.name}[{run.command}]" for case, run, _ in COMPARED_RUNS],
)
def test_sync_corpus_eiattrs(case: SyncCase, run: Run, recording: Recording) -> None:
    expected = real(case.ptx, run.arch, run.args)
    for listing in predicted(case, run):
        assert prediction(listing) == expected[listing.name]


@pytest.mark.parametrize("ptx", REAL_KERNELS, ids=[p.stem for p in REAL_KERNELS])
def test_real_kernel_eiattrs(ptx: Path) -> None:
    text = ptx.read_text()
    compile_only = ".extern .func" in text
    module = read_ptx(text, ptx.name)
    with collect_diagnostics():
        PtxasPipelinePass(compile_only=compile_only).apply(Context(), module)
    expected = real(ptx, "sm_90a", ("-c",) if compile_only else ())
    for listing in sync_sass(module):
        assert prediction(listing) == expected[listing.name]


def test_the_corpus_has_every_kind() -> None:
    kinds = {
        kind
        for case, run, _ in COMPARED_RUNS
        for listing in predicted(case, run)
        for kind in listing.mbarrier_kinds
    }
    assert len(kinds) >= 9
