"""The NVVM peer check: NVVM test cases run through `tileas-opt` and compared with what the
real `mlir-opt` 22.1.8 made of them.

The cases are the `// -----` chunks of `corpus/*.mlir`: LLVM's own NVVM test files (written
by `collect_nvvm_cases.py`, FileCheck lines removed), and `Own-*.mlir`, written for this
check so that every op of the dialect and every verifier message is exercised (upstream's
files do not reach them all). For every chunk, `corpus/*.expected.json` holds what mlir-opt
printed, recorded by `record_nvvm_peer.py`:

- `ok`: mlir-opt accepted the chunk. Its custom and generic (`--mlir-print-op-generic`)
  output; tileas-opt must accept the chunk too and print every `nvvm` op the same way, in
  both forms (SSA names renumbered by first use in each function, since the two tools
  name values differently), and must print the same again when it reads mlir-opt's
  generic output instead of the chunk.
- `error`: mlir-opt's verifier rejected the chunk, or its parser did with the error the
  test file expects (`expected-error {{...}}`). tileas-opt must reject it with the same
  message on the same line.
- `skipped`: mlir-opt 22.1.8 cannot parse a chunk whose test expects something else: the
  chunk was written in the syntax of another LLVM version (the stored test files are not
  all 22.x). It is left out of the comparison, with the reason recorded.

Only the `nvvm` ops are compared: the generic form of the ops of other dialects (`llvm.func`
in particular) is xDSL's business, not this dialect's.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

CORPUS_DIR = Path(__file__).parent / "corpus"
OWN_PREFIX = "Own-"
"""Case files written for this check (the others are upstream's test files)."""
SPLIT_MARKER = re.compile(r"^// -----.*$", re.M)
EXPECTED_ERROR = re.compile(r"expected-error\s*(?:@\S+)?\s*\{\{(.*?)\}\}")
NVVM_OP_LINE = re.compile(r'^\s*(?:%[^=]*=\s*)?"?nvvm\.')
SCOPE_LINE = re.compile(r'^\s*"?[\w.]*(func|module)\b')
SSA_NAME = re.compile(r"%[\w.$-]+")
ERROR_LINE = re.compile(r"^(?:.*?):(\d+):(\d+): error: (.*)$")

Status = Literal["ok", "error", "skipped"]


@dataclass(frozen=True)
class Chunk:
    """One `// -----` chunk of a case file: its text and its first line in the file."""

    first_line: int
    text: str

    @property
    def last_line(self) -> int:
        return self.first_line + self.text.count("\n")

    @property
    def expected_errors(self) -> list[str]:
        return EXPECTED_ERROR.findall(self.text)


def split_chunks(text: str) -> list[Chunk]:
    """The chunks as `--split-input-file` cuts them, with their 1-based first lines."""
    chunks: list[Chunk] = []
    start = 0
    for marker in [*SPLIT_MARKER.finditer(text), None]:
        end = len(text) if marker is None else marker.start()
        chunks.append(Chunk(text.count("\n", 0, start) + 1, text[start:end]))
        if marker is not None:
            start = marker.end() + 1
    return chunks


@dataclass(frozen=True)
class Diagnostic:
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


def parse_errors(stderr: str) -> list[Diagnostic]:
    """The `file:line:col: error: message` lines of a tool's stderr, in order."""
    found: list[Diagnostic] = []
    for line in stderr.splitlines():
        match = ERROR_LINE.match(line)
        if match is not None and "was not produced" not in match[3]:
            found.append(Diagnostic(int(match[1]), int(match[2]), match[3]))
    return found


def nvvm_lines(output: str) -> list[str]:
    """The printed `nvvm` ops of a tool's output, SSA names renumbered by first use
    within each function (mlir-opt numbers the values of each function from `%0`)."""
    names: dict[str, str] = {}

    def rename(match: re.Match[str]) -> str:
        return names.setdefault(match[0], f"%v{len(names)}")

    lines: list[str] = []
    for line in output.splitlines():
        if SCOPE_LINE.match(line):
            names.clear()
        elif NVVM_OP_LINE.match(line):
            lines.append(SSA_NAME.sub(rename, line.strip()))
    return lines


@dataclass(frozen=True)
class ToolRun:
    """What a tool printed for one chunk."""

    custom: str
    generic: str
    errors: tuple[Diagnostic, ...]

    @property
    def accepted(self) -> bool:
        # A chunk that printed nothing failed, even if its diagnostic had no location.
        return not self.errors and bool(self.generic.strip())


def runs_per_chunk(
    chunks: Sequence[Chunk], custom: str, generic: str, stderr: str
) -> list[ToolRun]:
    """Cut a `--split-input-file` run of a whole file into the runs of its chunks."""
    custom_parts = custom.split("// -----\n")
    generic_parts = generic.split("// -----\n")
    assert len(custom_parts) == len(generic_parts) == len(chunks), (
        len(custom_parts),
        len(generic_parts),
        len(chunks),
    )
    errors = parse_errors(stderr)
    return [
        ToolRun(
            custom_parts[i],
            generic_parts[i],
            tuple(e for e in errors if chunk.first_line <= e.line <= chunk.last_line),
        )
        for i, chunk in enumerate(chunks)
    ]


@dataclass(frozen=True)
class ExpectedCase:
    """What mlir-opt made of one chunk (see the module docstring)."""

    first_line: int
    status: Status
    custom: str = ""
    generic: str = ""
    error: str = ""
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {"line": self.first_line, "status": self.status}
        if self.status == "ok":
            record["custom"] = self.custom.splitlines()
            record["generic"] = self.generic.splitlines()
        elif self.status == "error":
            record["error"] = self.error
        else:
            record["reason"] = self.reason
        return record

    @staticmethod
    def from_json(record: dict[str, Any]) -> ExpectedCase:
        lines = cast(list[str], record.get("custom", []))
        generic = cast(list[str], record.get("generic", []))
        return ExpectedCase(
            first_line=int(record["line"]),
            status=cast(Status, record["status"]),
            custom="\n".join(lines),
            generic="\n".join(generic),
            error=str(record.get("error", "")),
            reason=str(record.get("reason", "")),
        )


def classify(chunk: Chunk, run: ToolRun, parses: bool) -> ExpectedCase:
    """What the peer check expects of a chunk, from mlir-opt's run of it; `parses` says
    whether mlir-opt parsed the chunk when its verifier was off."""
    if run.accepted:
        return ExpectedCase(chunk.first_line, "ok", run.custom, run.generic)
    first = run.errors[0]
    if parses or any(text in first.message for text in chunk.expected_errors):
        # A verifier's verdict on well-formed IR, or the parse error the test is about.
        return ExpectedCase(
            chunk.first_line, "error", error=f"{first.line}: {first.message}"
        )
    relative = f"{first.line - chunk.first_line + 1}:{first.column}"
    expectation = (
        f"expects '{chunk.expected_errors[0]}'"
        if chunk.expected_errors
        else "expects no error"
    )
    return ExpectedCase(
        chunk.first_line,
        "skipped",
        reason=f"mlir-opt 22.1.8 cannot parse it ({relative}: {first.message}); the test "
        f"{expectation}",
    )


def mismatch(expected: ExpectedCase, ours: ToolRun) -> str | None:
    """Why tileas-opt's run of a chunk differs from mlir-opt's, or None if it does not."""
    if expected.status == "error":
        if ours.accepted:
            return f"tileas-opt accepts it; mlir-opt says {expected.error}"
        if not ours.errors:
            return f"tileas-opt fails without a located error; mlir-opt says {expected.error}"
        first = ours.errors[0]
        said = f"{first.line}: {first.message}"
        return None if said == expected.error else f"{said} != {expected.error}"
    if not ours.accepted:
        said = ours.errors[0] if ours.errors else "no output"
        return f"tileas-opt rejects it: {said}"
    for form, theirs, mine in (
        ("generic", expected.generic, ours.generic),
        ("custom", expected.custom, ours.custom),
    ):
        want, got = nvvm_lines(theirs), nvvm_lines(mine)
        if want != got:
            pairs = [(w, g) for w, g in zip(want, got, strict=False) if w != g]
            if pairs:
                return f"{form}: {pairs[0][1]!r} != {pairs[0][0]!r}"
            return f"{form}: {len(got)} nvvm ops != {len(want)}"
    return None


@dataclass(frozen=True)
class CaseFile:
    """A case file of the corpus and its recorded expectations."""

    path: Path

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def expected_path(self) -> Path:
        return self.path.with_suffix(".expected.json")

    @property
    def chunks(self) -> list[Chunk]:
        return split_chunks(self.path.read_text())

    def expected(self) -> list[ExpectedCase]:
        records = json.loads(self.expected_path.read_text())["cases"]
        return [ExpectedCase.from_json(r) for r in records]

    def source(self) -> str:
        return str(json.loads(self.expected_path.read_text())["source"])


KNOWN_GAPS_PATH = CORPUS_DIR / "known-gaps.json"


def known_gaps() -> dict[str, str]:
    """The cases tileas-opt is known to get wrong, `FILE:LINE` to the reason: the check
    counts them as failures, and fails if one of them starts to agree (so the list only
    ever shrinks)."""
    return cast(dict[str, str], json.loads(KNOWN_GAPS_PATH.read_text()))


def case_files() -> list[CaseFile]:
    return [CaseFile(p) for p in sorted(CORPUS_DIR.glob("*.mlir"))]


def run_tileas_opt(path: Path) -> list[ToolRun]:
    """tileas-opt on a whole case file, in this process: custom then generic form."""
    from tileas_py.tools.tileas_opt import run_tool

    outputs: list[str] = []
    stderr = ""
    for extra in ([], ["--print-op-generic"]):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            run_tool([str(path), "--split-input-file", *extra])
        outputs.append(out.getvalue())
        stderr = err.getvalue()
    custom, generic = outputs
    return runs_per_chunk(split_chunks(path.read_text()), custom, generic, stderr)


@dataclass(frozen=True)
class Result:
    file: str
    first_line: int
    status: Status
    problem: str | None

    @property
    def key(self) -> str:
        return f"{self.file}:{self.first_line}"


def compare(case_file: CaseFile) -> Iterator[Result]:
    """The comparison of every kept chunk of a case file: tileas-opt on the chunk, and
    for an accepted one also on mlir-opt's generic form of it (a round trip through the
    other tool), which must print the same."""
    expected_cases = case_file.expected()
    runs = run_tileas_opt(case_file.path)
    accepted = [e for e in expected_cases if e.status == "ok"]
    reread = iter(_reread_generic(accepted))
    for expected, ours in zip(expected_cases, runs, strict=True):
        problem = None if expected.status == "skipped" else mismatch(expected, ours)
        if expected.status == "ok":
            again = next(reread)
            if problem is None and (problem := mismatch(expected, again)) is not None:
                problem = f"reading mlir-opt's generic form: {problem}"
        yield Result(case_file.name, expected.first_line, expected.status, problem)


def _reread_generic(accepted: Sequence[ExpectedCase]) -> list[ToolRun]:
    """tileas-opt's runs on mlir-opt's generic output of the accepted chunks."""
    if not accepted:
        return []
    text = "\n// -----\n".join(e.generic for e in accepted) + "\n"
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "generic.mlir"
        path.write_text(text)
        return run_tileas_opt(path)
