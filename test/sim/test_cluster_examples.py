"""The cluster and persistent examples in the simulator at small sizes (issue 16): exactly
and with no hazard, and twins of them that break the cross-CTA protocol, flagged.

`sized` gives an example a problem of M x N x K instead of its 4096^3, so that the K loop
runs more steps than the pipeline has stages (its slots are refilled, which is where a
missing cross-CTA release would race) or the tile grid has more tiles than CTAs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from tma_bytes import k_step_bytes

from tileas_py import api
from tileas_py.passes.tileas.dynamic_persistent import DynamicPersistentPass
from tileas_py.sim import HazardError, HazardKind, SimulationError
from tileas_py.sim.launch import Prepared, prepare, run_prepared

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def sized(name: str, m: int, n: int, k: int) -> str:
    """Example `name` on an M x N x K problem: its views and its K loop's bound."""
    views = {
        "%a:": f"{m}x{k}xf16",
        "%b:": f"{k}x{n}xf16",
        "%c:": f"{m}x{n}xf32",
        "tiled_load %a[": f"{m}x{k}xf16",
        "tiled_load %b[": f"{k}x{n}xf16",
        "tiled_store": f"{m}x{n}xf32",
    }
    lines: list[str] = []
    for original in (EXAMPLES / name).read_text().splitlines():
        line = original
        if "nv_tileas.kernel @" in line:
            for param in ("%a:", "%b:", "%c:"):
                kind = "f32" if param == "%c:" else "f16"
                line = line.replace(
                    f"{param} !nv_tileas.tiled_view<4096x4096x{kind}>",
                    f"{param} !nv_tileas.tiled_view<{views[param]}>",
                )
        else:
            for use in ("tiled_load %a[", "tiled_load %b[", "tiled_store"):
                if use in line:
                    kind = "f32" if use == "tiled_store" else "f16"
                    line = line.replace(
                        f"tiled_view<4096x4096x{kind}>", f"tiled_view<{views[use]}>"
                    )
            line = line.replace(
                "arith.constant 4096 : index", f"arith.constant {k} : index"
            )
        assert line.lstrip().startswith("//") or "4096" not in line.replace(
            "%c4096", ""
        )
        lines.append(line)
    return "\n".join(lines)


def operands(
    m: int, n: int, k: int, seed: int = 0
) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]:
    """Small integers (exact in f16 and in an f32 sum); C starts as NaN, so a tile
    never stored shows."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, size=(m, k)).astype(np.float16)
    b = rng.integers(-3, 4, size=(k, n)).astype(np.float16)
    return a, b, np.full((m, n), np.nan, dtype=np.float32)


def exact(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)


def twin(prepared: Prepared, ptx: str) -> Prepared:
    """A kernel's PTX changed by hand, launched with the tensor maps the lowering
    recorded for the original."""
    changed = prepare(ptx)
    changed.records = prepared.records
    return changed


# -- the cluster example: B multicast over a 2x1 cluster ----------------------------------------

M, N, K = 256, 256, 512
"""Two clusters of 2 CTAs (each cluster a 256x128 tile of C), eight K steps: each of the
four stages is filled twice."""


@pytest.fixture(scope="module")
def cluster_gemm() -> Prepared:
    module = api.parse_mlir(sized("gemm_cluster_sm90a.mlir", M, N, K), "gemm_cluster")
    return prepare(module)


def test_cluster_example_multicasts_b_exactly(cluster_gemm: Prepared) -> None:
    """Each CTA loads its 128 rows of A and half of B, multicast to both CTAs of its
    cluster; the tensor maps' boxes are what each CTA's TMA moves."""
    a, b, c = operands(M, N, K)
    record = cluster_gemm.records["gemm"]
    boxes = [view.box for view in record.params if view is not None]
    assert boxes == [(128, 64), (64, 64), (128, 32)]
    report = run_prepared(cluster_gemm, "gemm", (2, 2), 384, [a, b, c])
    assert report.hazards == []
    assert np.array_equal(c, exact(a, b))
    # Per CTA: its 128x128 tile, two warpgroups x 4 m64n128k16 x 8 K steps.
    assert report.wgmma == 4 * 2 * 4 * (K // 64)
    assert report.gmma_messages == []


def test_a_release_that_skips_the_peer_races(cluster_gemm: Prepared) -> None:
    """Twin: the consumers release a stage on their own CTA's empty barrier only (and it
    expects only them). The peer's producer then multicasts its half of B into a slot
    this CTA's WGMMAs may still read: nothing orders that write after the reads."""
    ptx = cluster_gemm.ptx
    remote = [line for line in ptx.splitlines() if "arrive.shared::cluster" in line]
    assert len(remote) == 2  # in the K loop, and after the drain
    for line in remote:
        ptx = ptx.replace(line + "\n", "")
    assert ptx.count("], 512;") == 4
    ptx = ptx.replace("], 512;", "], 256;")
    a, b, c = operands(M, N, K)
    with pytest.raises(HazardError) as raised:
        run_prepared(twin(cluster_gemm, ptx), "gemm", (2, 2), 384, [a, b, c])
    hazards = raised.value.hazards
    assert {h.kind for h in hazards} == {HazardKind.RACE}
    for hazard in hazards:
        # A TMA of one CTA writes into the other's slot of B while its WGMMAs read it.
        assert hazard.at.what == "TMA write"
        assert hazard.other is not None
        assert "wgmma reads" in hazard.other.what
        assert hazard.at.cta != hazard.other.cta
        assert hazard.address is not None
        assert hazard.address.endswith(f"of CTA {hazard.other.cta}")


def test_an_expect_tx_without_the_peers_bytes_never_completes(
    cluster_gemm: Prepared,
) -> None:
    """Twin: each full barrier expects only the bytes of the CTA's own loads (24 KiB,
    not 32). The peer's half of B is then a transaction the phase never expects: its
    count stays below zero and the consumers wait forever."""
    ptx = cluster_gemm.ptx
    (expect,) = [line for line in ptx.splitlines() if "expect_tx" in line]
    assert expect.endswith(", 32768;")
    ptx = ptx.replace(expect, expect.replace("32768", "24576"))
    a, b, c = operands(M, N, K)
    with pytest.raises(SimulationError, match="deadlock") as raised:
        run_prepared(twin(cluster_gemm, ptx), "gemm", (2, 2), 384, [a, b, c])
    assert "wait for a phase of the mbarrier" in str(raised.value)


# -- the persistent example: more tiles than CTAs --------------------------------------------

PM, PN, PK = 256, 256, 384
"""A 2x2 tile grid of 128x128 tiles, six K steps: the 4-stage pipeline's phases do not
restart with a tile, so a CTA's second tile begins mid-way through the stages."""


@pytest.fixture(scope="module")
def persistent_gemm() -> Prepared:
    source = sized("gemm_persistent_sm90a.mlir", PM, PN, PK)
    return prepare(api.parse_mlir(source, "gemm_persistent"))


def test_persistent_example_runs_more_tiles_than_ctas(
    persistent_gemm: Prepared,
) -> None:
    """Three CTAs run the four tiles (CTA 0 runs tiles 0 and 3), the tile grid passed
    as the last three parameters; the mbarriers' phases carry over from tile to tile."""
    a, b, c = operands(PM, PN, PK)
    tile_grid = (PM // 128, PN // 128, 1)
    report = run_prepared(
        persistent_gemm, "gemm", (3, 1, 1), 384, [a, b, c, *tile_grid]
    )
    assert report.hazards == []
    assert np.array_equal(c, exact(a, b))
    # Four tiles, each two warpgroups x 4 m64n128k16 x 6 K steps.
    assert report.wgmma == 4 * 2 * 4 * (PK // 64)


def test_a_persistent_kernel_that_stops_after_one_tile_leaves_tiles_unstored(
    persistent_gemm: Prepared,
) -> None:
    """Twin: with the tile grid said to be one tile wide in y, the loop stops after the
    first row of tiles; C keeps its NaN where the other tiles are (the check above can
    fail)."""
    a, b, c = operands(PM, PN, PK)
    report = run_prepared(persistent_gemm, "gemm", (3, 1, 1), 384, [a, b, c, 2, 1, 1])
    assert report.hazards == []
    assert np.array_equal(c[:, :128], exact(a, b)[:, :128])
    assert np.isnan(c[:, 128:]).all()


def dynamic(source: str, name: str) -> Prepared:
    """`source` made persistent with the dynamic tile scheduler, ready to run."""
    module = api.parse_mlir(source, name)
    DynamicPersistentPass(marked_only=True, scheduler="dynamic").apply(
        api.make_context(), module
    )
    return prepare(module)


def test_the_dynamic_scheduler_hands_out_each_tile_once() -> None:
    """The persistent example with the atomic tile counter: four CTAs run a 2x3 grid
    of tiles exactly; the counter is taken once per CTA per tile run (six times), not
    once per thread."""
    m, n, k = 256, 384, 384
    prepared = dynamic(sized("gemm_persistent_sm90a.mlir", m, n, k), "gemm_dynamic")
    a, b, c = operands(m, n, k)
    counter = np.zeros(1, dtype=np.int32)
    tile_grid = (m // 128, n // 128, 1)
    report = run_prepared(
        prepared, "gemm", (4, 1, 1), 384, [a, b, c, counter, *tile_grid]
    )
    assert report.hazards == []
    assert np.array_equal(c, exact(a, b))
    assert report.wgmma == 6 * 2 * 4 * (k // 64)
    assert counter.tolist() == [6]


def cluster_persistent(m: int, n: int, k: int) -> str:
    return sized("gemm_cluster_sm90a.mlir", m, n, k).replace(
        "num_ctas = 2>}", "num_ctas = 2>, nv_tileas.dynamic_persistent}"
    )


CM, CN, CK = 768, 256, 384
"""A 3x2 grid of 256x128 cluster tiles for two clusters of two CTAs."""


def test_a_persistent_cluster_kernel_takes_cluster_tiles_together() -> None:
    """The cluster example made persistent: two clusters of two CTAs run a 3x2 grid of
    256x128 cluster tiles; both CTAs of a cluster take the same tile (the program id
    is the cluster's) and B's multicast still pairs them."""
    prepared = prepare(api.parse_mlir(cluster_persistent(CM, CN, CK), "gemm_cp"))
    a, b, c = operands(CM, CN, CK)
    tile_grid = (CM // 256, CN // 128, 1)
    report = run_prepared(prepared, "gemm", (4, 1, 1), 384, [a, b, c, *tile_grid])
    assert report.hazards == []
    assert np.array_equal(c, exact(a, b))
    # Six cluster tiles, two CTAs each, two warpgroups x 4 WGMMAs x 6 K steps.
    assert report.wgmma == 6 * 2 * 2 * 4 * (CK // 64)


def test_a_cluster_takes_each_dynamic_tile_once() -> None:
    """The same with the dynamic scheduler: rank 0 of a cluster takes the tile number
    for both CTAs (the counter counts cluster tiles) and hands it over by DSMEM."""
    prepared = dynamic(cluster_persistent(CM, CN, CK), "gemm_cluster_dynamic")
    a, b, c = operands(CM, CN, CK)
    counter = np.zeros(1, dtype=np.int32)
    tile_grid = (CM // 256, CN // 128, 1)
    report = run_prepared(
        prepared, "gemm", (4, 1, 1), 384, [a, b, c, counter, *tile_grid]
    )
    assert report.hazards == []
    assert np.array_equal(c, exact(a, b))
    assert report.wgmma == 6 * 2 * 2 * 4 * (CK // 64)
    assert counter.tolist() == [6]


def test_a_tile_number_read_before_it_is_written_is_a_race() -> None:
    """Twin: without the barrier between the leader's write of the tile number and the
    CTA's reads, the reads race with the write."""
    m, n, k = 256, 384, 128
    prepared = dynamic(sized("gemm_persistent_sm90a.mlir", m, n, k), "gemm_dynamic")
    lines = prepared.ptx.splitlines()
    (read,) = [i for i, line in enumerate(lines) if "ld.shared.u32" in line]
    assert lines[read - 1].strip().startswith("bar.sync")
    ptx = "\n".join(lines[: read - 1] + lines[read:])
    a, b, c = operands(m, n, k)
    counter = np.zeros(1, dtype=np.int32)
    with pytest.raises(HazardError) as raised:
        run_prepared(
            twin(prepared, ptx), "gemm", (4, 1, 1), 384, [a, b, c, counter, 2, 3, 1]
        )
    for hazard in raised.value.hazards:
        assert hazard.kind == HazardKind.RACE
        assert hazard.other is not None
        assert {hazard.at.what, hazard.other.what} == {"st.shared.u32", "ld.shared.u32"}


# -- bytes per K step: multicast halves B's ------------------------------------------------


@pytest.mark.parametrize(
    ("example", "issued", "multicast"),
    [
        # 128x64 of A + 64x128 of B, f16.
        ("gemm_sm90a.mlir", 16384 + 16384, 0),
        ("gemm_persistent_sm90a.mlir", 16384 + 16384, 0),
        # 128x64 of A + half of B's 64x128, which the peer's TMA multicasts the other half of.
        ("gemm_cluster_sm90a.mlir", 16384 + 8192, 1),
    ],
)
def test_multicast_divides_the_bytes_a_cta_loads_per_k_step(
    example: str, issued: int, multicast: int
) -> None:
    prepared = prepare(api.parse_mlir(sized(example, 256, 256, 256), example))
    bytes_ = k_step_bytes(prepared, "gemm")
    assert (bytes_.issued, bytes_.loads, bytes_.multicast) == (issued, 2, multicast)
    # Each CTA's stage still receives all of A's and B's blocks.
    assert bytes_.arriving == 32768
