"""Tensor memory of the simulated CTAs, and how the checker orders tcgen05 operations.

Each CTA has 128 lanes x 512 columns of 32-bit cells (`hw.tmem`), allocated in columns by
`tcgen05.alloc`. The cells of every CTA of the wave are one array; the checker keeps a
shadow of them, one entry a cell, like the shadow of shared memory (`races.Shadow`), so a
`tcgen05.ld` that reads cells an MMA writes without the commit / wait ordering between them
is a race, reported as `tensor memory lane L, column C of CTA (x, y, z)`.

tcgen05 operations are asynchronous and ordered with other threads only through fences
(PTX ISA, "Memory consistency model for 5th generation of TensorCore operations"):

- a thread's tcgen05 operations are checked against its *tcgen05 view*: what it knew at its
  last `tcgen05.fence::after_thread_sync` (so a barrier or mbarrier wait orders later
  tcgen05 operations only through that fence), joined with its own program order and the
  completions of its own tcgen05 operations that it waited for;
- `tcgen05.wait::ld` / `::st` make the thread's loads / stores complete for the thread; a
  `tcgen05.fence::before_thread_sync` then puts those completions into the thread's clock,
  so its next release (barrier, mbarrier arrive) carries them;
- `tcgen05.mma`, `tcgen05.cp` and `tcgen05.shift` of one thread form one pipeline, each
  ordered after the previous (the ISA's implicitly pipelined pairs); `tcgen05.commit`
  carries the pipeline's completion to an mbarrier phase.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tileas_py.hw.tmem import COLUMNS, LANES
from tileas_py.sim import memory as mem
from tileas_py.sim.clocks import Clock
from tileas_py.sim.races import Actor, Shadow

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine
    from tileas_py.sim.program import Instruction

Ints = npt.NDArray[np.int64]
CELLS = LANES * COLUMNS


@dataclass(frozen=True)
class Allocation:
    start: int
    columns: int
    cta_group: int
    pc: int


class TensorMemory:
    """The tensor memory of every CTA of a wave."""

    def __init__(self, m: Machine) -> None:
        ctas = m.geometry.ctas
        self.geometry = m.geometry
        self.cells = np.zeros((ctas, LANES, COLUMNS), dtype=np.uint32)
        self.allocations: list[dict[int, Allocation]] = [{} for _ in range(ctas)]
        self.relinquished = np.zeros(ctas, dtype=np.bool_)
        shadow = Shadow(ctas * CELLS, m.clocks) if m.clocks is not None else None
        self.region = mem.Region(
            "tmem", CELLS, np.zeros(16, dtype=np.uint8), shadow, label="tensor memory"
        )
        self.region.extra["describe"] = self.describe

    def describe(self, cell: int) -> str:
        cta, rest = divmod(cell, CELLS)
        lane, column = divmod(rest, COLUMNS)
        where = self.geometry.describe_cta(cta)
        return f"tensor memory lane {lane}, column {column} of CTA {where}"

    def allocated(self, cta: int, columns: Ints) -> npt.NDArray[np.bool_]:
        inside = np.zeros(columns.shape, dtype=np.bool_)
        for a in self.allocations[cta].values():
            inside |= (columns >= a.start) & (columns < a.start + a.columns)
        return inside

    def used(self, cta: int) -> int:
        return sum(a.columns for a in self.allocations[cta].values())

    def free_start(self, ctas: list[int], columns: int) -> int | None:
        """The lowest column, a multiple of `columns`, free for `columns` columns in every
        one of `ctas`."""
        for start in range(0, COLUMNS, columns):
            wanted = np.arange(start, start + columns)
            if not any(self.allocated(cta, wanted).any() for cta in ctas):
                return start
        return None

    def index(self, cta: int, lanes: Ints, columns: Ints) -> Ints:
        """Flat cell numbers (the shadow's) of cells of one CTA."""
        return cta * CELLS + lanes * COLUMNS + columns


def tensor_memory(m: Machine) -> TensorMemory:
    tm = m.state.get("tmem")
    if tm is None:
        tm = TensorMemory(m)
        m.state["tmem"] = tm
    return tm


def record(  # noqa: PLR0917 (an access: who, where, how, from what)
    m: Machine,
    inst: Instruction,
    actor: Actor | None,
    cells: Ints,
    mode: str,
    what: str,
) -> None:
    """Check and record an access of one actor row to tensor-memory cells."""
    tm = tensor_memory(m)
    shadow = tm.region.shadow
    if shadow is None or actor is None or cells.size == 0:
        return
    flat = cells.reshape(-1)
    conflicts = shadow.access(
        flat, np.zeros(flat.shape[0], dtype=np.int64), actor, mode
    )
    if conflicts:
        m.report_conflicts(tm.region, conflicts, actor, inst, what)


# -- the ordering of tcgen05 operations --------------------------------------------------------


@dataclass
class Ordering:
    """Per thread: its clock at its last `fence::after_thread_sync`, and the completions of
    its tcgen05 loads / stores it waited for but has not yet fenced before a sync."""

    fenced: dict[int, Clock] = field(default_factory=dict[int, Clock])
    pending: dict[int, dict[int, int]] = field(
        default_factory=dict[int, dict[int, int]]
    )
    pipeline_done: dict[int, Clock] = field(default_factory=dict[int, Clock])
    """Per issuing thread: the join of what its MMA / cp / shift operations knew."""
    units: dict[tuple[str, str], int] = field(
        default_factory=dict[tuple[str, str], int]
    )
    """The clock component of each tcgen05 unit: (unit, owner) -> component."""


def ordering(m: Machine) -> Ordering:
    state = m.state.get("tcgen05_ordering")
    if state is None:
        state = Ordering()
        m.state["tcgen05_ordering"] = state
    return state


def tcgen05_view(m: Machine, lane: int) -> Clock:
    """What a tcgen05 operation the thread issues now is ordered after (see the module doc)."""
    clocks = m.clocks
    assert clocks is not None
    state = ordering(m)
    view = np.zeros(clocks.width(), dtype=np.int32)
    fenced = state.fenced.get(lane)
    if fenced is not None:
        view[: fenced.shape[0]] = fenced
    view[lane] = clocks.matrix[lane, lane]
    for component, clock in state.pending.get(lane, {}).items():
        view[component] = max(int(view[component]), clock)
    return view


def fence_after(m: Machine, lanes: Ints) -> None:
    if m.clocks is None:
        return
    state = ordering(m)
    for lane in lanes.tolist():
        state.fenced[lane] = m.clocks.row(lane)


def fence_before(m: Machine, lanes: Ints) -> None:
    clocks = m.clocks
    if clocks is None:
        return
    state = ordering(m)
    for lane in lanes.tolist():
        for component, clock in state.pending.pop(lane, {}).items():
            clocks.learn(np.array([lane]), component, clock)


def complete(m: Machine, lane: int, component: int, clock: int) -> None:
    """The thread waited for its unit's operations up to `clock` (`tcgen05.wait::*`)."""
    pending = ordering(m).pending.setdefault(lane, {})
    pending[component] = max(pending.get(component, 0), clock)
