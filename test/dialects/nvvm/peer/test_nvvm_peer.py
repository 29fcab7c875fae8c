"""tileas-opt agrees with the real mlir-opt 22.1.8 on upstream MLIR's NVVM test cases.

Every kept chunk of every case file of corpus/ must be accepted and printed like mlir-opt
printed it (every `nvvm` op, custom and generic form), or rejected with mlir-opt's message
on the same line; see nvvm_peer.py. The recordings come from record_nvvm_peer.py.
"""

from __future__ import annotations

import pytest
from nvvm_peer import (
    OWN_PREFIX,
    CaseFile,
    case_files,
    compare,
    known_gaps,
    split_chunks,
)

from tileas_py.dialects.nvvm import NVVM

FILES = case_files()


GAPS = known_gaps()


@pytest.mark.parametrize("case_file", FILES, ids=[f.name for f in FILES])
def test_tileas_opt_agrees_with_mlir_opt(case_file: CaseFile) -> None:
    """Every case agrees but the known gaps, which must still disagree."""
    results = list(compare(case_file))
    problems = [
        f"line {r.first_line}: {r.problem}"
        for r in results
        if r.problem is not None and r.key not in GAPS
    ]
    assert not problems, "\n".join(problems)
    closed = [r.key for r in results if r.problem is None and r.key in GAPS]
    assert not closed, f"known gaps that now agree (remove them): {closed}"


@pytest.mark.parametrize("case_file", FILES, ids=[f.name for f in FILES])
def test_recording_matches_the_cases(case_file: CaseFile) -> None:
    """Each chunk has its recording, and the recording names the chunk's line."""
    chunks = split_chunks(case_file.path.read_text())
    expected = case_file.expected()
    assert [c.first_line for c in chunks] == [e.first_line for e in expected]
    source = case_file.source()
    if case_file.name.startswith(OWN_PREFIX):
        assert source.startswith("tileas-py case file:")
    else:
        assert source.startswith("Upstream test: llvm/llvm-project mlir/test/")


def test_corpus_prints_every_op() -> None:
    """Every op of the dialect is in an accepted case, so both tools printed it."""
    printed = {
        line.split('"')[1]
        for f in FILES
        for case in f.expected()
        for line in case.generic.splitlines()
        if line.lstrip().startswith(('"nvvm.', "%")) and '"nvvm.' in line
    }
    ours = {op.name for op in NVVM.operations}
    assert printed == ours, sorted(ours ^ printed)
