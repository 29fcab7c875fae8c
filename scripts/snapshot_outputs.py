"""Record what tileas-py prints on every lit input, example and PTX corpus kernel.

Refactors must keep every output byte-identical. Run this before and after, then diff:

    python scripts/snapshot_outputs.py /tmp/before
    ... refactor ...
    python scripts/snapshot_outputs.py /tmp/after
    diff -r /tmp/before /tmp/after

Three parts, each a folder of the snapshot:
- `lit/`: lit runs the suite with a `filecheck` that saves its input first, so every
  RUN line's output (what FileCheck would check) is kept, per test and check prefix;
- `examples/`: each example through `tileas-to-ptx` (`-t ptx`, `-t mlir`);
- `corpus/`: each PTX corpus kernel through `ptxas-gmma` and `ptxas-pipeline`
  (`-t ptx`, `-t sass-sync`), in this process to keep it quick.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

# A filecheck that appends its stdin to OUT/<check file>.<hash of its options> and then
# runs the real one on it, so the suite still checks what it checks.
RECORDING_FILECHECK = """#!{python}
import hashlib, os, subprocess, sys
data = sys.stdin.buffer.read()
args = sys.argv[1:]
check = next((a for a in args if not a.startswith("-")), "stdin")
rel = os.path.relpath(os.path.abspath(check), {root!r}).replace(os.sep, "__")
tag = hashlib.sha1(" ".join(a for a in args if a != check).encode()).hexdigest()[:8]
with open(os.path.join({out!r}, rel + "." + tag), "ab") as out:
    out.write(data + b"\\n=====\\n")
sys.exit(subprocess.run([{filecheck!r}, *args], input=data).returncode)
"""

PIPELINES = [
    ("gmma.ptx", ["-p", "ptxas-gmma", "-t", "ptx"]),
    ("pipeline.ptx", ["-p", "ptxas-pipeline", "-t", "ptx"]),
    ("pipeline.sass", ["-p", "ptxas-pipeline", "-t", "sass-sync"]),
]


def snapshot_lit(out: Path) -> None:
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        fake = Path(tmp) / "filecheck"
        fake.write_text(
            RECORDING_FILECHECK.format(
                python=sys.executable,
                root=str(ROOT),
                out=str(out),
                filecheck=str(BIN / "filecheck"),
            )
        )
        fake.chmod(0o755)
        subprocess.run(
            [str(BIN / "lit"), "-q", "test", "--param", f"snapshot_bin={tmp}"],
            cwd=ROOT,
            check=False,
        )


def run_tileas_opt(args: list[str]) -> str:
    from tileas_py.tools.tileas_opt import run_tool

    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        rc = run_tool(args)
    return f"rc={rc}\n{stdout.getvalue()}\n--- stderr ---\n{stderr.getvalue()}"


def snapshot_examples(out: Path) -> None:
    out.mkdir(parents=True)
    for example in sorted((ROOT / "examples").glob("*.mlir")):
        for target in ("ptx", "mlir"):
            text = run_tileas_opt([str(example), "-p", "tileas-to-ptx", "-t", target])
            (out / f"{example.stem}.{target}").write_text(text)


def snapshot_corpus(out: Path) -> None:
    out.mkdir(parents=True)
    kernels = sorted(
        p
        for folder in ("test/ptxas", "test/ptx/corpus")
        for p in (ROOT / folder).rglob("*.ptx")
    )
    for kernel in kernels:
        name = str(kernel.relative_to(ROOT)).replace(os.sep, "__")
        for suffix, args in PIPELINES:
            text = run_tileas_opt([str(kernel), *args])
            (out / f"{name}.{suffix}").write_text(text)


def main() -> None:
    out = Path(sys.argv[1]).resolve()
    if out.exists():
        shutil.rmtree(out)
    parts = sys.argv[2:] or ["lit", "examples", "corpus"]
    os.chdir(ROOT)
    if "examples" in parts:
        snapshot_examples(out / "examples")
    if "corpus" in parts:
        snapshot_corpus(out / "corpus")
    if "lit" in parts:
        snapshot_lit(out / "lit")


if __name__ == "__main__":
    main()
