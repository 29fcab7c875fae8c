"""The PTX reader refuses what ptxas 13.5 refuses, with ptxas's message at ptxas's line.

`invalid/ptxas-validation.ptx` is a lit test: `tileas-opt --split-input-file` must report
each chunk's CHECK line. Here every chunk is assembled with the real ptxas, and its first
message (text and line) must be the CHECK line's: the CHECK texts are ptxas's, not ours.
The accepted forms (`.reg` parameters, `brx.idx`) are in corpus/ and the round-trip test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.utils.exceptions import ParseError

from tileas_py.ptx.reader import read_ptx
from tileas_py.ptx.toolchain import run_ptxas

VALIDATION = Path(__file__).parent / "invalid" / "ptxas-validation.ptx"
SEPARATOR = "// -----"
CHECK = re.compile(r"^// CHECK: [^:]+:(?P<line>\d+):\d+: error: (?P<message>.*)$")
PTXAS_ERROR = re.compile(r"^ptxas \S+, line (?P<line>\d+); \w+\s*: (?P<message>.*)$")


def chunks() -> list[tuple[str, int, str, int]]:
    """Each chunk: its text, the lines before it, and its CHECK message and line."""
    lines = VALIDATION.read_text().split("\n")
    found: list[tuple[str, int, str, int]] = []
    start = 0
    for end in [i for i, line in enumerate(lines) if line == SEPARATOR] + [len(lines)]:
        body = lines[start:end]
        checks = [m for line in body if (m := CHECK.match(line)) is not None]
        assert len(checks) == 1, f"one CHECK line per chunk (line {start + 1})"
        found.append(
            (
                "\n".join(body),
                start,
                checks[0].group("message"),
                int(checks[0].group("line")),
            )
        )
        start = end + 1
    return found


CHUNKS = chunks()


def description(text: str) -> str:
    """The comment that says what a chunk is (the one just before its code)."""
    comments: list[str] = []
    for line in text.strip().split("\n"):
        if not line.startswith("//"):
            break
        if not line.startswith(("// CHECK", "// RUN")):
            comments.append(line.removeprefix("// "))
    return comments[-1]


IDS = [description(text) for text, *_ in CHUNKS]


def test_every_case_is_covered() -> None:
    messages = "\n".join(message for _, _, message, _ in CHUNKS)
    for expected in (
        "Argument vector size mismatch",
        "Unknown modifier '.m64n7k16'",
        "Illegal matrix shape",
        "unexpected value '2', expected to be -1 or 1",
        "Arguments mismatch for instruction 'wgmma.mma_async'",
        "not supported on .target 'sm_80'",
        "not supported on .target 'sm_90'",
        "Call has wrong number of parameters",
        "Duplicate definition of function",
        "Missing .target directive",
        "Missing .version directive",
        "Unsupported .version",
    ):
        assert expected in messages
    assert len(CHUNKS) >= 40


@pytest.mark.parametrize(
    ("text", "offset", "message", "line"),
    CHUNKS,
    ids=IDS,
)
def test_check_line_is_ptxas_first_message(
    text: str, offset: int, message: str, line: int, tmp_path: Path
) -> None:
    ptx = tmp_path / VALIDATION.name
    ptx.write_text(text)
    arch = re.search(r"^\.target (sm_\w+)", text, re.MULTILINE)
    result = run_ptxas(
        ptx,
        arch=arch.group(1) if arch else "sm_90a",
        output=tmp_path / "k.cubin",
        extra_args=("-c",),
    )
    assert not result.ok
    first = PTXAS_ERROR.match(result.messages[0])
    assert first is not None, result.messages
    expected = message.replace("{{.*}}", str(tmp_path) + "/")
    assert first.group("message") == expected
    assert int(first.group("line")) == line - offset


@pytest.mark.parametrize(
    ("text", "offset", "message", "line"),
    CHUNKS,
    ids=IDS,
)
def test_reader_reports_it(text: str, offset: int, message: str, line: int) -> None:
    with pytest.raises(ParseError) as raised:
        read_ptx(text, "chunk.ptx", offset)
    assert raised.value.msg == message.replace(
        "{{.*}}ptxas-validation.ptx", "chunk.ptx"
    )
    location = str(raised.value.span.get_location())
    assert location.startswith(f"chunk.ptx:{line - offset}:")
