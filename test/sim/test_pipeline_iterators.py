"""`tileas-unwrap-pipeline-iterators` (seed 002, DD02) in `tileas-to-ptx`: the 2-CTA
Blackwell example with its producer's K coordinate carried as a producer iterator
(`!nv_tileas.pipeline_iterator<producer, index>`, wrapped and unwrapped by casts) loses
every iterator type before the lowering, and the simulator runs it exactly, with no
hazard, at the small size."""

from __future__ import annotations

import numpy as np
from test_sim_examples import SMALL, small_form

from tileas_py import api
from tileas_py.sim import launch

ITERATOR = "!nv_tileas.pipeline_iterator<producer, index>"


def _with_iterator() -> str:
    text = small_form("gemm_2cta_sm100a.mlir")
    head = (
        "      scf.for %k = %c0 to %c256 step %c64 {\n"
        "        %sa = nv_tileas.async.pipeline.producer_acquire"
    )
    tail = (
        "        nv_tileas.async.pipeline.producer_commit %pb : "
        "!nv_tileas.pipeline<4, tensor<64x128xf16, #sb>>\n"
        "      } {nv_tileas.num_warps = 1 : i32}"
    )
    assert text.count(head) == text.count(tail) == 1
    text = text.replace(
        head,
        f"      %it0 = builtin.unrealized_conversion_cast %c0 : index to {ITERATOR}\n"
        f"      %itn = scf.for %k = %c0 to %c256 step %c64 iter_args(%it = %it0)"
        f" -> ({ITERATOR}) {{\n"
        f"        %kk = builtin.unrealized_conversion_cast %it : {ITERATOR} to index\n"
        "        %sa = nv_tileas.async.pipeline.producer_acquire",
    )
    text = text.replace("%a[%m, %k]", "%a[%m, %kk]").replace(
        "%b[%k, %n]", "%b[%kk, %n]"
    )
    return text.replace(
        tail,
        tail.removesuffix("      } {nv_tileas.num_warps = 1 : i32}")
        + "        %next = arith.addi %kk, %c64 : index\n"
        f"        %nit = builtin.unrealized_conversion_cast %next : index to {ITERATOR}\n"
        f"        scf.yield %nit : {ITERATOR}\n"
        "      } {nv_tileas.num_warps = 1 : i32}",
    )


def test_the_tileas_stages_unwrap_the_iterators() -> None:
    module = api.parse_mlir(_with_iterator(), "iterators.mlir")
    tiles = api.run_pipeline(module, "tileas-to-ptx{stop-after=tileas}")
    text = str(tiles)
    assert "pipeline_iterator" not in text
    assert "unrealized_conversion_cast" not in text
    assert "iter_args(%it = %c0) -> (index)" in text


def test_the_kernel_with_iterators_runs_exactly() -> None:
    module = api.parse_mlir(_with_iterator(), "iterators.mlir")
    rng = np.random.default_rng(0)
    a = rng.integers(-3, 4, size=(SMALL, SMALL)).astype(np.float16)
    b = rng.integers(-3, 4, size=(SMALL, SMALL)).astype(np.float16)
    c = np.zeros((SMALL, SMALL), dtype=np.float32)
    report = launch(module, "gemm", (2, 2), 256, [a, b, c], cluster=(2, 1, 1))
    assert report.hazards == []
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert np.array_equal(c, exact.astype(np.float32))
