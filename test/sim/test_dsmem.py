"""A convert_layout across the CTAs of a cluster, lowered through distributed shared
memory (`tileas_to_nvvm/dsmem.py`), in the simulator and through ptxas (issue 16)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tileas_py import api
from tileas_py.hw.gmma_diagnostics import parse_ptxas_output
from tileas_py.ptx.toolchain import run_ptxas
from tileas_py.sim import HazardError, HazardKind, SimulationError
from tileas_py.sim.launch import Prepared, prepare, run_prepared

KERNELS = Path(__file__).parent / "kernels" / "dsmem"
KERNEL = KERNELS / "gather.mlir"


@pytest.fixture(scope="module")
def gather() -> Prepared:
    return prepare(api.parse_mlir(KERNEL.read_text(), KERNEL.name))


def operands() -> tuple[np.ndarray, np.ndarray]:
    tile = np.arange(64 * 32, dtype=np.float32).reshape(64, 32)
    return tile, np.full((128, 32), np.nan, dtype=np.float32)


def test_each_cta_gets_the_whole_tile(gather: Prepared) -> None:
    """CTA r holds rows 32 r .. 32 r + 31 before the conversion and all 64 after: both
    copies in %out are the whole (negated) tile, with no hazard."""
    tile, out = operands()
    report = run_prepared(gather, "gather", (2, 1, 1), 128, [tile, out])
    assert report.hazards == []
    assert np.array_equal(out[:64], -tile)
    assert np.array_equal(out[64:], -tile)


def test_a_split_slot_read_into_a_whole_tile_is_gathered() -> None:
    """The slot's piece is read locally, then gathered: both copies are the whole tile.
    Each of the 2 senders maps the buffer and the mbarrier of each of the 2 receivers."""
    kernel = KERNELS / "slot.mlir"
    slot = prepare(api.parse_mlir(kernel.read_text(), kernel.name))
    assert slot.ptx.count("mapa.shared::cluster") == 8
    tile, out = operands()
    report = run_prepared(slot, "gather", (2, 1, 1), 128, [tile, out])
    assert report.hazards == []
    assert np.array_equal(out[:64], -tile)
    assert np.array_equal(out[64:], -tile)


def test_four_ctas_regather_quarters_into_halves() -> None:
    """Four CTAs each hold 16 rows before and 32 after (CTAs 0 and 2 the first half,
    1 and 3 the second): the two pairs' copies in %out are the whole tile."""
    kernel = KERNELS / "halves.mlir"
    halves = prepare(api.parse_mlir(kernel.read_text(), kernel.name))
    tile, out = operands()
    report = run_prepared(halves, "halves", (4, 1, 1), 128, [tile, out])
    assert report.hazards == []
    assert np.array_equal(out[:64], -tile)
    assert np.array_equal(out[64:], -tile)


def handshake(gather: Prepared) -> tuple[list[str], int, str]:
    """The gather's PTX lines, the line of its leader's `mbarrier.arrive.expect_tx` (the
    last before the release fence) and its mbarrier's address."""
    lines = gather.ptx.splitlines()
    (fence,) = [i for i, line in enumerate(lines) if "fence.acq_rel.cluster" in line]
    arrive = max(i for i in range(fence) if "arrive.expect_tx" in lines[i])
    found = re.search(r"\[([^\]]+)\]", lines[arrive])
    assert found is not None, lines[arrive]
    return lines, arrive, found.group(1)


def run_twin(gather: Prepared, lines: list[str]) -> None:
    changed = prepare("\n".join(lines))
    changed.records = gather.records
    tile, out = operands()
    run_prepared(changed, "gather", (2, 1, 1), 128, [tile, out])


def assert_loads_race_the_stores(raised: pytest.ExceptionInfo[HazardError]) -> None:
    """Each CTA reads its buffer while its own and its peer's `st.async` may still be
    writing there."""
    hazards = raised.value.hazards
    assert {h.kind for h in hazards} == {HazardKind.RACE}
    peers: set[bool] = set()
    for hazard in hazards:
        assert hazard.other is not None
        assert hazard.at.what == "ld.shared.f32"
        assert hazard.other.what.startswith(
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32"
        )
        peers.add(hazard.at.cta != hazard.other.cta)
    assert peers == {False, True}


def test_a_gather_that_expects_no_bytes_races(gather: Prepared) -> None:
    """Twin: the leader arrives without `expect_tx`, so the phase completes at once and
    the waits let the reads run before the stores land."""
    lines, arrive, barrier = handshake(gather)
    leader, _, _ = lines[arrive].partition("mbarrier")
    lines[arrive] = f"{leader}mbarrier.arrive.shared::cta.b64 _, [{barrier}];"
    with pytest.raises(HazardError) as raised:
        run_twin(gather, lines)
    assert_loads_race_the_stores(raised)


def test_a_gather_that_does_not_wait_races(gather: Prepared) -> None:
    """Twin: without the wait on the mbarrier's phase, nothing orders the reads after
    the stores."""
    lines, _, barrier = handshake(gather)
    (wait,) = [
        i for i, line in enumerate(lines) if "try_wait" in line and barrier in line
    ]
    assert "bra" in lines[wait + 1]
    del lines[wait : wait + 2]
    with pytest.raises(HazardError) as raised:
        run_twin(gather, lines)
    assert_loads_race_the_stores(raised)


def test_a_gather_whose_mbarrier_nobody_arrives_on_deadlocks(gather: Prepared) -> None:
    """Twin: without the leader's arrival (and its `expect_tx`) the phase never
    completes."""
    lines, arrive, _ = handshake(gather)
    del lines[arrive]
    with pytest.raises(SimulationError, match="deadlock"):
        run_twin(gather, lines)


def test_a_gather_without_the_cluster_meet_races(gather: Prepared) -> None:
    """Twin: without the fence and the cluster arrive / wait before the stores, the
    threads wait on the mbarrier that their leader may not have initialised yet."""
    lines, arrive, _ = handshake(gather)
    fence = next(i for i in range(arrive, len(lines)) if "fence." in lines[i])
    meet = next(
        i for i in range(fence, len(lines)) if "barrier.cluster.wait" in lines[i]
    )
    assert "barrier.cluster.arrive.relaxed" in "".join(lines[fence:meet])
    del lines[fence : meet + 1]
    with pytest.raises(HazardError) as raised:
        run_twin(gather, lines)
    hazards = raised.value.hazards
    assert {h.kind for h in hazards} == {HazardKind.RACE}
    for hazard in hazards:
        assert hazard.other is not None
        whats = {hazard.at.what, hazard.other.what}
        assert whats == {
            "mbarrier.init.shared::cta.b64",
            "mbarrier.try_wait.parity.shared::cta.b64",
        }


def test_ptxas_assembles_the_gather(gather: Prepared, tmp_path: Path) -> None:
    ptx = tmp_path / "gather.ptx"
    ptx.write_text(gather.ptx)
    result = run_ptxas(ptx)
    assert result.ok, "\n".join(result.messages)
    assert not [m for m in result.messages if "warning" in m or "error" in m]
    assert parse_ptxas_output(result.stdout + result.stderr) == []


def test_f16_elements_go_in_words(tmp_path: Path) -> None:
    """Each thread's 8 f16 (two runs of 4) go to each receiver as 4 packed 32-bit words;
    both copies in %out are the whole tile, with no hazard, and ptxas assembles it."""
    kernel = KERNELS / "gather_f16.mlir"
    f16 = prepare(api.parse_mlir(kernel.read_text(), kernel.name))
    stores = [line for line in f16.ptx.splitlines() if "st.async" in line]
    # 2 senders x 2 receivers x 4 words.
    assert len(stores) == 16
    assert all(".b32" in line for line in stores)
    tile = (np.arange(64 * 32) % 2048).astype(np.float16).reshape(64, 32)
    out = np.full((128, 32), np.nan, dtype=np.float16)
    report = run_prepared(f16, "gather", (2, 1, 1), 128, [tile, out])
    assert report.hazards == []
    assert np.array_equal(out[:64], -tile)
    assert np.array_equal(out[64:], -tile)
    ptx = tmp_path / "gather_f16.ptx"
    ptx.write_text(f16.ptx)
    result = run_ptxas(ptx)
    assert result.ok, "\n".join(result.messages)


def test_a_gather_in_a_loop_initialises_its_mbarrier_each_run() -> None:
    """Three runs of the gather in an `scf.for`: each initialises the mbarrier again (the
    CTA is done with the last phase: `bar.sync` after the reads) and refills the buffer
    (the peers are done reading it: the cluster meet); every run's tile arrives whole."""
    kernel = KERNELS / "loop.mlir"
    loop = prepare(api.parse_mlir(kernel.read_text(), kernel.name))
    out = np.full((96, 32), np.nan, dtype=np.float32)
    report = run_prepared(loop, "loop", (2, 1, 1), 128, [out])
    assert report.hazards == []
    for k in range(3):
        assert np.array_equal(out[32 * k : 32 * k + 32], np.full((32, 32), -(k + 1.0)))


def test_a_loop_that_initialises_the_mbarrier_under_waiting_threads_races() -> None:
    """Twin: without the `bar.sync` after the reads, the leader's next `mbarrier.init`
    is not ordered after the other threads' waits on the last phase. Each thread sent its
    pieces with `st.async` before it waited; the leader learns of those sends from the
    phase it observes, but not of the thread's wait after them."""
    kernel = KERNELS / "loop.mlir"
    loop = prepare(api.parse_mlir(kernel.read_text(), kernel.name))
    lines = loop.ptx.splitlines()
    (barrier,) = [
        i for i, line in enumerate(lines) if line.strip().startswith("bar.sync")
    ]
    twin = prepare("\n".join(lines[:barrier] + lines[barrier + 1 :]))
    twin.records = loop.records
    out = np.full((96, 32), np.nan, dtype=np.float32)
    with pytest.raises(HazardError) as raised:
        run_prepared(twin, "loop", (2, 1, 1), 128, [out])
    races = [h for h in raised.value.hazards if h.kind is HazardKind.RACE]
    assert races
    said = [h.diagnostic(kernel.name) for h in races]
    assert any("'mbarrier.init" in d and "'mbarrier.try_wait" in d for d in said), said
