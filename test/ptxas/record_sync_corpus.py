"""Re-record the ptxas ground truth of the sync corpus.

    .venv/bin/python test/ptxas/record_sync_corpus.py [NAME ...]

For each kernel (all of them, or those named), run the real ptxas once per `// RUN:` line,
write the exit status it returned back into that line, and write what it printed and the
sync-relevant SASS it made (see sync_corpus.py) to `name.expected`. Review the diff before
committing: a changed expectation means ptxas changed, or the kernel no longer exercises
what its first line says.
"""

from __future__ import annotations

import sys
from dataclasses import replace

from sync_corpus import (
    CORPUS_DIR,
    RUN_LINE,
    Recording,
    Run,
    SyncCase,
    corpus_cases,
    write_expected,
)


def record(case: SyncCase) -> None:
    sections: list[tuple[Run, Recording]] = []
    for run in case.runs:
        status, recording = case.record(run)
        sections.append((replace(run, exit_status=status), recording))
    lines = case.ptx.read_text().splitlines(keepends=True)
    for index, (run, _) in enumerate(sections, start=1):
        match = RUN_LINE.match(lines[index].rstrip("\n"))
        assert match is not None
        lines[index] = f"{lines[index][: match.start('exit')]}{run.exit_status}\n"
    case.ptx.write_text("".join(lines))
    write_expected(case.expected, sections)
    statuses = ", ".join(f"{run.command} => {run.exit_status}" for run, _ in sections)
    print(f"{case.name}: {statuses}")


def main(names: list[str]) -> None:
    cases = corpus_cases()
    if names:
        cases = [c for c in cases if c.name in names]
        missing = set(names) - {c.name for c in cases}
        if missing:
            sys.exit(f"not in {CORPUS_DIR}: {', '.join(sorted(missing))}")
    for case in cases:
        record(case)


if __name__ == "__main__":
    main(sys.argv[1:])
