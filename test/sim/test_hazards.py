"""One minimal kernel per hazard kind is flagged, and its fixed twin runs clean.

The kernels are in `kernels/hazards/` (`NAME.ptx` and `NAME_fixed.ptx`); each file's
opening comment says what is wrong and how the twin fixes it. Every one of them is real
PTX: ptxas assembles it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tileas_py.ptx.toolchain import run_ptxas
from tileas_py.sim import HazardError, HazardKind, SimulationError, TensorMap, launch

HAZARDS = Path(__file__).parent / "kernels" / "hazards"


def _line_of(name: str, text: str, occurrence: int = 1) -> int:
    """The 1-based line of the `occurrence`-th line containing `text` in a kernel file."""
    seen = 0
    for number, line in enumerate(
        (HAZARDS / f"{name}.ptx").read_text().splitlines(), 1
    ):
        if text in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(f"{text!r} not in {name}.ptx")


@dataclass(frozen=True)
class Case:
    name: str
    block: int
    args: Callable[[], list[Any]]
    kind: HazardKind
    at: str
    """Text of the line the hazard names."""
    other: str | None = None
    """Text of the line of the other party, for the hazards that have one."""
    fixup: bool = True
    occurrence: int = 1
    """Which line holding `at` (the second `mbarrier.init`, ...)."""


def _out(n: int, dtype: Any = np.uint32) -> Callable[[], list[Any]]:
    return lambda: [np.zeros(n, dtype=dtype)]


CASES = [
    Case("race_shared", 64, _out(1), HazardKind.RACE, "ld.shared.u32", "st.shared.u32"),
    Case(
        "race_tma",
        32,
        lambda: [
            TensorMap(np.ones((64, 64), dtype=np.float16), (64, 64)),
            np.zeros(32, dtype=np.uint32),
        ],
        HazardKind.RACE,
        "ld.shared.u32",
        "cp.async.bulk.tensor",
    ),
    Case(
        "mbarrier_uninitialized",
        32,
        list,
        HazardKind.MBARRIER_UNINITIALIZED,
        "mbarrier.arrive",
    ),
    Case(
        "mbarrier_reinit",
        32,
        list,
        HazardKind.MBARRIER_REINIT,
        "mbarrier.init",
        occurrence=2,
    ),
    Case(
        "mbarrier_tx_range",
        32,
        list,
        HazardKind.MBARRIER_TX_RANGE,
        "mbarrier.expect_tx",
    ),
    Case(
        "mbarrier_arrivals", 32, list, HazardKind.MBARRIER_ARRIVALS, "mbarrier.arrive"
    ),
    Case(
        "proxy_fence",
        64,
        lambda: [TensorMap(np.zeros((8, 8), dtype=np.float32), (8, 8))],
        HazardKind.PROXY_FENCE,
        "cp.async.bulk.tensor",
        "st.shared.f32",
    ),
    Case(
        "accumulator",
        128,
        _out(128, np.float32),
        HazardKind.ACCUMULATOR,
        "add.f32 \t%f5",
        fixup=False,
    ),
    Case("collective", 32, _out(32), HazardKind.COLLECTIVE, "shfl.sync"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hazard_is_flagged(case: Case) -> None:
    with pytest.raises(HazardError) as raised:
        launch(
            HAZARDS / f"{case.name}.ptx",
            "k",
            1,
            case.block,
            case.args(),
            fixup=case.fixup,
        )
    hazards = raised.value.hazards
    assert {h.kind for h in hazards} == {case.kind}, [str(h) for h in hazards]
    hazard = hazards[0]
    assert hazard.line == _line_of(case.name, case.at, case.occurrence)
    if case.other is not None:
        assert hazard.other is not None
        assert hazard.other.line == _line_of(case.name, case.other)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fixed_twin_is_clean(case: Case) -> None:
    report = launch(
        HAZARDS / f"{case.name}_fixed.ptx",
        "k",
        1,
        case.block,
        case.args(),
        fixup=case.fixup,
    )
    assert report.hazards == []


def test_with_check_false_hazards_are_only_reported() -> None:
    out = np.zeros(1, dtype=np.uint32)
    report = launch(HAZARDS / "race_shared.ptx", "k", 1, 64, [out], check=False)
    assert [h.kind for h in report.hazards] == [HazardKind.RACE]


def test_race_names_both_threads() -> None:
    with pytest.raises(HazardError) as raised:
        launch(HAZARDS / "race_shared.ptx", "k", 1, 64, [np.zeros(1, dtype=np.uint32)])
    hazard = raised.value.hazards[0]
    assert hazard.at.thread == 32
    assert hazard.at.warp == 1
    assert hazard.other is not None
    assert hazard.other.thread == 0
    assert hazard.address == "shared[0x0] of CTA (0, 0, 0)"


def test_the_fixup_removes_the_accumulator_hazard() -> None:
    """ptxas's GMMA phases inject the wait; their message goes into the report."""
    report = launch(
        HAZARDS / "accumulator.ptx", "k", 1, 128, [np.zeros(128, dtype=np.float32)]
    )
    assert report.hazards == []
    line = _line_of("accumulator", "add.f32 \t%f5")
    assert report.gmma_messages == [
        f"ptxas info    : (C7517) wgmma.wait_group is injected in around line {line} by "
        "compiler to allow use of registers defined by GMMA in function 'k'"
    ]


def test_deadlock_says_who_waits_on_what() -> None:
    with pytest.raises(SimulationError) as raised:
        launch(HAZARDS / "deadlock.ptx", "k", 1, 64, [])
    error = raised.value
    assert not isinstance(error, HazardError)
    line = _line_of("deadlock", "bar.sync")
    assert error.line == line
    assert error.diagnostic() == (
        f"{HAZARDS / 'deadlock.ptx'}:{line}: error: deadlock: threads 32-63 of CTA "
        f"(0, 0, 0) at line {line} wait for barrier 1 (32 of 64 threads arrived)"
    )
    launch(HAZARDS / "deadlock_fixed.ptx", "k", 1, 64, [])


def test_parity_aliasing_then_deadlock_is_one_hazard_error() -> None:
    """The aliased waiter waits for a phase that never comes: the hazard error carries the
    hazard and the deadlock that stopped the run."""
    with pytest.raises(HazardError) as raised:
        launch(HAZARDS / "parity_aliasing.ptx", "k", 1, 64, [])
    error = raised.value
    assert [h.kind for h in error.hazards] == [HazardKind.PARITY_ALIASING]
    assert error.hazards[0].line == _line_of("parity_aliasing", "try_wait")
    assert error.stopped_by is not None
    assert error.stopped_by.message.startswith("deadlock: threads 32-63")
    launch(HAZARDS / "parity_aliasing_fixed.ptx", "k", 1, 64, [])


@pytest.mark.parametrize("path", sorted(HAZARDS.glob("*.ptx")), ids=lambda p: p.stem)
def test_hazard_kernels_are_real_ptx(path: Path, tmp_path: Path) -> None:
    result = run_ptxas(path, output=tmp_path / "k.cubin")
    assert result.ok, result.messages
