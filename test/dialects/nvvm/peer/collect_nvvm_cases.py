"""Collect upstream MLIR's NVVM test files into the peer-check corpus.

    .venv/bin/python test/dialects/nvvm/peer/collect_nvvm_cases.py LLVM_PROJECT_DIR

LLVM_PROJECT_DIR is an llvm-project checkout (or any tree with the same paths) holding
the files of `SOURCES`. Each becomes `corpus/<Dir>-<Sub>-<name>.mlir`: a first line naming
its upstream path, then the file with its FileCheck directives (`// CHECK...`, `// RUN:`
and the like) removed; the `// -----` chunks and the `expected-error` annotations stay.
Then run record_nvvm_peer.py to record what mlir-opt makes of the new cases.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from nvvm_peer import CORPUS_DIR, SPLIT_MARKER

SOURCES: dict[str, str] = {
    # upstream path: commit of the stored version that was collected
    "mlir/test/Dialect/LLVMIR/nvvm.mlir": "c6de1d18e9712c7ae9dfddde6ac35d638fad3f0d",
    "mlir/test/Target/LLVMIR/nvvmir-invalid.mlir": "b8ea96f18aefe16346a323c541a2e22100b0acfd",
    "mlir/test/Target/LLVMIR/nvvm/fence.mlir": "stored copy 3065056115",
    "mlir/test/Target/LLVMIR/nvvm/fence-invalid.mlir": "stored copy 2862877317",
    "mlir/test/Target/LLVMIR/nvvm/mbar_arrive.mlir": "37cc738331c6bfa185e82528ddf69f9013d19816",
    "mlir/test/Target/LLVMIR/nvvm/mbar_arrive_drop.mlir": "4c47b8c9183a9084b8bea7151eeaae7b30b383af",
    "mlir/test/Target/LLVMIR/nvvm/mbar_complete_tx.mlir": "056ad8294663b72cf0eaff19f1a9f54e6edbc8e4",
    "mlir/test/Target/LLVMIR/nvvm/mbar_invalid.mlir": "stored copy 2570136470",
    "mlir/test/Target/LLVMIR/nvvm/mbar_test_wait.mlir": "29b166ff726ca496d1c81bfdc973adbba38eda8f",
    "mlir/test/Target/LLVMIR/nvvm/mbar_try_wait.mlir": "8d278b7d5f9aa4a66a506fb607489fa2db71ab2a",
    "mlir/test/Target/LLVMIR/nvvm/redux-sync-invalid.mlir": "389e86581a38587fc81d9591cdd591518c3599c6",
    "mlir/test/Target/LLVMIR/nvvm/shfl-sync-invalid.mlir": "06789d762f0abae204c473918db424aaef49b982",
}

FILECHECK_DIRECTIVE = re.compile(r"^\s*//\s*(RUN|[A-Z][A-Z0-9_-]*(?<!-)):")
"""`// RUN:`, `// CHECK:`, `// CHECK-NEXT:`, `// PTX-LABEL:`..., but not `// expected-...`."""


def case_file_name(upstream_path: str) -> str:
    """`mlir/test/Target/LLVMIR/nvvm/tma_store.mlir` -> `Target-LLVMIR-nvvm-tma_store.mlir`."""
    return upstream_path.removeprefix("mlir/test/").replace("/", "-")


def strip_filecheck(text: str) -> str:
    """The file without its FileCheck directives, and without a `// -----` before its
    first op: the chunk before it would hold nothing but comments."""
    lines = text.splitlines(keepends=True)
    kept = [line for line in lines if not FILECHECK_DIRECTIVE.match(line)]
    for index, line in enumerate(kept):
        if line.strip() and not line.lstrip().startswith("//"):
            break
        if SPLIT_MARKER.match(line):
            del kept[: index + 1]
            break
    return "".join(kept)


def collect(root: Path) -> list[Path]:
    written: list[Path] = []
    for upstream_path, commit in SOURCES.items():
        source = root / upstream_path
        header = f"// Upstream test: llvm/llvm-project {upstream_path} @ {commit}\n"
        target = CORPUS_DIR / case_file_name(upstream_path)
        target.write_text(header + strip_filecheck(source.read_text()))
        written.append(target)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    for path in collect(Path(argv[0])):
        print(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
