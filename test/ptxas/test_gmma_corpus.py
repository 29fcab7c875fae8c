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


SASS_CASES = [c for c in CASES if c.sass.exists()]


def recorded_sass(name: str) -> list[str]:
    return (CORPUS_DIR.parent / "sass" / f"{name}.sass").read_text().splitlines()


def test_sass_recordings_belong_to_corpus_kernels() -> None:
    names = {p.stem for p in (CORPUS_DIR.parent / "sass").glob("*.sass")}
    assert len(SASS_CASES) >= 10
    assert names == {c.name for c in SASS_CASES}


@pytest.mark.parametrize("case", SASS_CASES, ids=[c.name for c in SASS_CASES])
def test_sass_matches_recording(case: CorpusCase) -> None:
    assert case.disassemble() == recorded_sass(case.name)


def hgmma_neighbours(sass: list[str]) -> list[tuple[str, str, str]]:
    return [
        (sass[i - 1], line, sass[i + 1])
        for i, line in enumerate(sass)
        if line.startswith("HGMMA")
    ]


def test_sass_pipelined_stage_has_one_arrive_and_gsb0_on_the_last_hgmma() -> None:
    sass = recorded_sass("clean_k_chain_advancing_descriptors")
    hgmma = [line for line in sass if line.startswith("HGMMA")]
    assert len(hgmma) == 4
    assert [line.endswith("gsb0") for line in hgmma] == [False, False, False, True]
    assert sass.count("WARPGROUP.ARRIVE") == 1
    assert sass[sass.index(hgmma[0]) - 1] == "WARPGROUP.ARRIVE"
    assert sass[sass.index(hgmma[-1]) + 1] == "WARPGROUP.DEPBAR.LE gsb0, 0x0"


def test_sass_wait_group_n_is_depbar_le_n() -> None:
    sass = recorded_sass("clean_wait1_then_wait0")
    depbars = [line for line in sass if line.startswith("WARPGROUP.DEPBAR")]
    assert depbars == ["WARPGROUP.DEPBAR.LE gsb0, 0x1", "WARPGROUP.DEPBAR.LE gsb0, 0x0"]
    assert sum(line.endswith("gsb0") for line in sass if line.startswith("HGMMA")) == 2


def test_sass_missing_fence_still_gets_an_arrive() -> None:
    sass = recorded_sass("clean_no_fence")
    (before, _, _), *_ = hgmma_neighbours(sass)
    assert before == "WARPGROUP.ARRIVE"


@pytest.mark.parametrize(
    "name",
    [
        "accumulator_written_midstage",
        "accumulator_read_midstage",
        "extern_call_between_wgmmas",
    ],
)
def test_sass_serialized_stage_waits_after_every_hgmma(name: str) -> None:
    # Each HGMMA is its own group: arrive before it, gsb0 on it and a full wait after it
    # (the scheduler may put unrelated instructions in between).
    sync = [
        line for line in recorded_sass(name) if line.startswith(("HGMMA", "WARPGROUP"))
    ]
    hgmma = "HGMMA.64x8x16.F32"
    assert [line.split(" ")[0] for line in sync] == [
        "WARPGROUP.ARRIVE",
        hgmma,
        "WARPGROUP.DEPBAR.LE",
        "WARPGROUP.ARRIVE",
        hgmma,
        "WARPGROUP.DEPBAR.LE",
    ]
    assert all(line.endswith("gsb0") for line in sync if line.startswith("HGMMA"))
    assert all(line.endswith("gsb0, 0x0") for line in sync if "DEPBAR" in line)


@pytest.mark.parametrize("name", ["commit_under_branch", "predicated_wgmma_divergent"])
def test_sass_commit_of_an_empty_group_is_a_dummy_hgmma(name: str) -> None:
    dummy = "HGMMA.64x8x16.F16 RZ, gdesc[URZ], RZ, !UPT, gsb0"
    assert any(hgmma == dummy for _, hgmma, _ in hgmma_neighbours(recorded_sass(name)))


def test_sass_identical_wgmma_are_merged_into_one_hgmma() -> None:
    sass = recorded_sass("identical_wgmma_merged")
    assert sum(line.startswith("HGMMA") for line in sass) == 1
    assert sass.count("WARPGROUP.DEPBAR.LE gsb0, 0x0") == 2
