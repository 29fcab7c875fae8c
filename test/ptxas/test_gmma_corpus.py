"""The GMMA corpus still means what it says: the real ptxas prints what was recorded.

Every kernel of test/ptxas/gmma/corpus/ is assembled by ptxas 13.5 with the arguments of its
`// RUN:` line; its exit status and its output must be the recorded ones, and the output,
read through `tileas_py.hw.gmma_diagnostics`, must give the same (code, function, line)
diagnostics. Re-record with test/ptxas/record_gmma_corpus.py.
"""

import re
from collections import Counter

import pytest
from gmma_corpus import CORPUS_DIR, CorpusCase, corpus_cases

from tileas_py.hw.gmma_diagnostics import GMMA_MESSAGES, parse_line, parse_ptxas_output

CASES = corpus_cases()


def recorded_lines(case: CorpusCase) -> list[str]:
    return case.expected.read_text().splitlines()


def test_corpus_has_at_least_sixty_kernels_each_with_its_recording() -> None:
    assert len(CASES) >= 60
    ptx = {p.stem for p in CORPUS_DIR.glob("*.ptx")}
    expected = {p.stem for p in CORPUS_DIR.glob("*.expected")}
    assert ptx == expected


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_kernel_header(case: CorpusCase) -> None:
    text = case.ptx.read_text()
    assert re.search(r"^\.version 8\.\d+$", text, re.M)
    assert re.search(r"^\.target sm_90a$", text, re.M)
    assert re.search(r"^\.address_size 64$", text, re.M)
    assert case.arch == "sm_90a"
    assert case.description


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_ptxas_output_matches_recording(case: CorpusCase) -> None:
    result = case.run()
    assert result.returncode == case.exit_status
    recorded = recorded_lines(case)
    assert [d.key for d in parse_ptxas_output(result.stderr)] == [
        d.key for d in parse_ptxas_output("\n".join(recorded))
    ]
    assert result.messages == recorded


def test_description_names_the_codes_ptxas_prints() -> None:
    for case in CASES:
        printed = {
            d.message.code for d in parse_ptxas_output("\n".join(recorded_lines(case)))
        }
        named = {int(c) for c in re.findall(r"\bC(\d{4})\b", case.description)}
        if case.description.startswith("clean"):
            assert not printed, case.name
        else:
            assert named == printed, case.name


def test_every_recorded_gmma_line_formats_back_exactly() -> None:
    for case in CASES:
        for line in recorded_lines(case):
            diagnostic = parse_line(line)
            if diagnostic is not None:
                assert diagnostic.format() == line


def test_corpus_covers_every_message_ptxas_13_5_was_seen_to_print() -> None:
    seen = Counter(
        d.message.code
        for case in CASES
        for d in parse_ptxas_output("\n".join(recorded_lines(case)))
    )
    observed = {m.code for m in GMMA_MESSAGES if m.observed}
    unobserved = {m.code for m in GMMA_MESSAGES if not m.observed}
    assert set(seen) == observed
    assert not set(seen) & unobserved
    assert sum(1 for c in CASES if c.description.startswith("clean")) >= 20
