"""A convert_layout across the CTAs of a cluster, lowered through distributed shared
memory (`tileas_to_nvvm/dsmem.py`), in the simulator and through ptxas (issue 16)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tileas_py import api
from tileas_py.hw.gmma_diagnostics import parse_ptxas_output
from tileas_py.ptx.toolchain import run_ptxas
from tileas_py.sim import HazardError, HazardKind
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
    """The slot's piece is read locally, then gathered: both copies are the whole tile."""
    kernel = KERNELS / "slot.mlir"
    slot = prepare(api.parse_mlir(kernel.read_text(), kernel.name))
    assert slot.ptx.count("mapa.shared::cluster") == 4
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


def test_a_gather_without_the_cluster_barrier_races(gather: Prepared) -> None:
    """Twin: without the fence and the cluster arrive / wait after the writes, a CTA
    reads its buffer while its peer may still be writing its rows there."""
    lines = gather.ptx.splitlines()
    (fence,) = [i for i, line in enumerate(lines) if "fence.acq_rel.cluster" in line]
    (arrive,) = [i for i, line in enumerate(lines) if "arrive.relaxed" in line]
    wait = next(
        i for i in range(arrive, len(lines)) if "barrier.cluster.wait" in lines[i]
    )
    assert fence < arrive
    kept = [line for i, line in enumerate(lines) if i not in {fence, arrive, wait}]
    changed = prepare("\n".join(kept))
    changed.records = gather.records
    tile, out = operands()
    with pytest.raises(HazardError) as raised:
        run_prepared(changed, "gather", (2, 1, 1), 128, [tile, out])
    hazards = raised.value.hazards
    assert {h.kind for h in hazards} == {HazardKind.RACE}
    for hazard in hazards:
        assert hazard.other is not None
        whats = {hazard.at.what, hazard.other.what}
        assert whats == {"st.shared::cluster.f32", "ld.shared.f32"}
        assert hazard.at.cta != hazard.other.cta


def test_ptxas_assembles_the_gather(gather: Prepared, tmp_path: Path) -> None:
    ptx = tmp_path / "gather.ptx"
    ptx.write_text(gather.ptx)
    result = run_ptxas(ptx)
    assert result.ok, "\n".join(result.messages)
    assert not [m for m in result.messages if "warning" in m or "error" in m]
    assert parse_ptxas_output(result.stdout + result.stderr) == []
