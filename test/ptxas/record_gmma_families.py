"""Write the systematic GMMA corpus and record what ptxas 13.5 prints for it.

    .venv/bin/python test/ptxas/record_gmma_families.py

Writes every case of `gmma_families.cases()` into test/ptxas/gmma/corpus/families/ as
`name.ptx` (line 1 the family and program, line 2 the ptxas command, as in
test/ptxas/gmma/corpus/), runs the real ptxas with its flags, writes every line ptxas
printed into `name.expected` and the exit status into the `// RUN:` line, records how many
SASS instructions (NOPs left out, as `nvdisasm -c` lists them) ptxas made of each kernel in
`sass_counts.json`, and removes the files of cases that no longer exist. Review the diff
before committing: a changed recording means ptxas changed, or the generator did.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from gmma_corpus import RUN_LINE, corpus_cases, sass_instructions
from gmma_families import FAMILIES_DIR, SASS_COUNTS, write_corpus


def main() -> None:
    written = {path.stem for path in write_corpus()}
    for stale in FAMILIES_DIR.iterdir():
        if stale.suffix in (".ptx", ".expected") and stale.stem not in written:
            stale.unlink()
    failures = 0
    counts: dict[str, int] = {}
    for case in corpus_cases(FAMILIES_DIR):
        with tempfile.TemporaryDirectory() as tmp:
            cubin = Path(tmp) / "k.cubin"
            result = case.assemble(cubin)
            if result.ok:
                counts[case.name] = len(sass_instructions(cubin))
        case.expected.write_text("".join(f"{line}\n" for line in result.messages))
        lines = case.ptx.read_text().splitlines(keepends=True)
        run = RUN_LINE.match(lines[1].rstrip("\n"))
        assert run is not None
        lines[1] = f"{lines[1][: run.start('exit')]}{result.returncode}\n"
        case.ptx.write_text("".join(lines))
        if result.returncode != 0:
            failures += 1
            print(f"{case.name}: exit {result.returncode}: {result.messages[-1:]}")
    SASS_COUNTS.write_text(json.dumps(counts, indent=0, sort_keys=True) + "\n")
    print(f"{len(written)} cases, {failures} with a non-zero exit")


if __name__ == "__main__":
    sys.exit(main())
