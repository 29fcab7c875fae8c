"""Differential test: `-p ptxas-gmma` against the real ptxas on generated WGMMA pipelines.

`gmma_generator.generate(seed, divergent=False)` writes a random small kernel: stages of one
to three wgmma, `wait_group` 0-2, accumulator reads, read-modify-writes and writes at random
points (some predicated), calls of extern, defined and wgmma-issuing functions (`-c` when
needed), and uniform branches and counted loops around any of them. For each seed the
test assembles the kernel with ptxas 13.5 and compares its `(code, line)` list with the
pipeline's, in order.

One seed is a known mismatch; the test prints it with the reason and requires that it still
differs, so that fixing the model also updates this list. Generated kernels with
`%tid`-dependent branches and loops (`divergent=True`) match less often (376 of the first
400 seeds when this was written); docs/fidelity.md lists what is not modelled there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gmma_generator import GeneratedKernel, generate

from tileas_py.hw.gmma_diagnostics import parse_ptxas_output
from tileas_py.pipelines import PtxasGmmaPipeline
from tileas_py.ptx.toolchain import run_ptxas

SEEDS = range(160)

KNOWN_MISMATCHES = {
    146: "a wait_group 2 in a uniform branch before the stage it encloses: ptxas still "
    "injects the wait for the read after the join (at the commit), the model leaves the "
    "read to the program (C7514) because a wait_group came before it in layout order",
}


def ptxas_keys(kernel: GeneratedKernel, tmp_path: Path) -> list[tuple[int, int | None]]:
    ptx = tmp_path / "k.ptx"
    ptx.write_text(kernel.text)
    result = run_ptxas(ptx, output=tmp_path / "k.cubin", extra_args=kernel.args)
    assert result.ok, result.messages
    return [(d.message.code, d.line) for d in parse_ptxas_output(result.stderr)]


def model_keys(kernel: GeneratedKernel) -> list[tuple[int, int | None]]:
    printed = "\n".join(PtxasGmmaPipeline.messages(kernel.text, "k.ptx", kernel.args))
    return [(d.message.code, d.line) for d in parse_ptxas_output(printed)]


def test_generator_is_deterministic_and_varied() -> None:
    assert generate(7).text == generate(7).text
    assert generate(7).text != generate(8).text
    summaries = {
        word for seed in SEEDS for word in generate(seed, divergent=False).summary
    }
    assert {
        "stage",
        "wait0",
        "wait1",
        "read",
        "rmw",
        "write",
        "call",
        "if",
        "loop",
    } <= summaries
    assert not {"if-tid", "loop-tid"} & summaries
    assert {"if-tid", "loop-tid"} <= {
        word for seed in SEEDS for word in generate(seed).summary
    }


def test_known_mismatches_are_printed() -> None:
    print("\ngenerated kernels the model does not match yet:")
    for seed, why in KNOWN_MISMATCHES.items():
        print(f"  seed {seed}: {why}")
    assert set(KNOWN_MISMATCHES) <= set(SEEDS)
    assert len(KNOWN_MISMATCHES) <= len(SEEDS) // 50


@pytest.mark.parametrize("seed", SEEDS)
def test_pipeline_matches_ptxas(seed: int, tmp_path: Path) -> None:
    kernel = generate(seed, divergent=False)
    expected = ptxas_keys(kernel, tmp_path)
    got = model_keys(kernel)
    if seed in KNOWN_MISMATCHES:
        assert got != expected, (
            f"seed {seed} matches now: drop it from KNOWN_MISMATCHES"
        )
    else:
        assert got == expected, f"seed {seed}: {' '.join(kernel.summary)}"
