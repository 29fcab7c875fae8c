"""Compare tileas-opt with the recorded mlir-opt 22.1.8 output on the NVVM peer corpus.

    .venv/bin/python test/dialects/nvvm/peer/report_nvvm_peer.py [-v]

Prints the pass rate per case file and in all (the figure docs/fidelity.md reports) and,
with -v, every case that differs and every case left out as written for another LLVM
version. Needs no mlir-opt: the recordings are in corpus/*.expected.json.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from nvvm_peer import OWN_PREFIX, Result, case_files, compare, known_gaps


def report(results: Sequence[Result], verbose: bool = False) -> str:
    lines: list[str] = []
    files = sorted({r.file for r in results})
    for name in files:
        mine = [r for r in results if r.file == name]
        kept = [r for r in mine if r.status != "skipped"]
        passed = sum(r.problem is None for r in kept)
        skipped = len(mine) - len(kept)
        lines.append(f"{passed:4} / {len(kept):4} {name} ({skipped} skipped)")
        if verbose:
            lines.extend(
                f"       line {r.first_line}: {r.problem}"
                for r in kept
                if r.problem is not None
            )
    upstream = [r for r in results if not r.file.startswith(OWN_PREFIX)]
    own = [r for r in results if r.file.startswith(OWN_PREFIX)]
    for title, group in (("upstream", upstream), ("own", own), ("all", results)):
        kept = [r for r in group if r.status != "skipped"]
        passed = sum(r.problem is None for r in kept)
        rate = 100.0 * passed / len(kept) if kept else 100.0
        skipped = len(group) - len(kept)
        lines.append(
            f"{title}: {passed} of {len(kept)} cases agree ({rate:.1f}%); {skipped} "
            "chunks of another LLVM version left out"
        )
    gaps = known_gaps()
    lines.extend(f"known gap {key}: {reason}" for key, reason in gaps.items())
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    results = [r for f in case_files() for r in compare(f)]
    print(report(results, verbose="-v" in argv))
    return 0 if all(r.problem is None for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
