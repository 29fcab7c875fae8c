"""Bytes a CTA loads by TMA per K step in the Hopper GEMM examples, read from their PTX.

    .venv/bin/python bench/cluster_bytes.py

Prints the docs/performance.md table of issue 16: per example, the bytes the CTA's own TMA
loads move per K step, how many of them are multicast, and the bytes its full barrier
expects (its own and its peers'); `test/sim/test_cluster_examples.py` asserts the same
numbers.
"""

from __future__ import annotations

import sys
from importlib import import_module
from pathlib import Path
from typing import Any

from tileas_py import api
from tileas_py.sim.launch import prepare

REPO = Path(__file__).resolve().parents[1]

EXAMPLES = ("gemm_sm90a.mlir", "gemm_persistent_sm90a.mlir", "gemm_cluster_sm90a.mlir")


def main() -> None:
    sys.path.insert(0, str(REPO / "test" / "sim"))
    sized: Any = import_module("test_cluster_examples").sized
    k_step_bytes: Any = import_module("tma_bytes").k_step_bytes
    print(
        "| example | TMA loads per K step (multicast) | bytes issued per CTA | bytes arriving per CTA (expect_tx) |"
    )
    print("| --- | ---: | ---: | ---: |")
    for example in EXAMPLES:
        prepared = prepare(api.parse_mlir(sized(example, 256, 256, 256), example))
        b: Any = k_step_bytes(prepared, "gemm")
        print(f"| {example} | {b.loads} ({b.multicast}) | {b.issued} | {b.arriving} |")


if __name__ == "__main__":
    main()
