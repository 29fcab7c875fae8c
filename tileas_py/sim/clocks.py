"""Vector clocks: happens-before between threads and the asynchronous units they start.

The race checker is FastTrack-style (Flanagan and Freund, PLDI 2009): each thread has a
vector clock, each access is recorded as an epoch (component, clock), and an earlier access
is ordered before a later one when its clock is at most the later actor's view of its
component. Synchronisation moves clocks: a release (barrier arrival, mbarrier arrive,
release store) publishes the thread's clock and then advances its own component; an acquire
(leaving a barrier, observing an mbarrier phase, an acquire load) joins the published
clock into the thread's.

Components 0..threads-1 are the threads. Asynchronous operations (TMA copies, bulk copies,
cp.async, wgmma operand reads) are made by *units*: one component per issuing thread and
kind of completion (a wgmma group sequence, a bulk-group sequence, the TMA loads completing
on one mbarrier, ...), added on first use. A unit operation is recorded with a fresh clock
of its unit and checked against the issuing thread's clock at issue, which knows only the
completions the thread has acquired; so two unit operations in flight together are never
taken as ordered. See docs/simulator.md.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import numpy.typing as npt

Clock = npt.NDArray[np.int32]

_INITIAL_COMPONENTS = 64


class VectorClocks:
    """The clocks of every thread of a launch, and the component table of the units."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        capacity = threads + _INITIAL_COMPONENTS
        self.matrix: Clock = np.zeros((threads, capacity), dtype=np.int32)
        index = np.arange(threads)
        self.matrix[index, index] = 1
        self.components = threads
        self.unit_clock: list[int] = []
        """The last clock handed out by each unit (indexed by component - threads)."""
        self.unit_owner: list[int] = []
        """The thread that issues each unit's operations (for reports)."""
        self.unit_names: list[str] = []
        self._units: dict[Hashable, int] = {}

    # -- components ---------------------------------------------------------------------

    def unit(self, key: Hashable, owner: int, name: str) -> int:
        """The component of the unit `key`, added on first use."""
        component = self._units.get(key)
        if component is not None:
            return component
        component = self.components
        if component >= self.matrix.shape[1]:
            grown = np.zeros((self.threads, self.matrix.shape[1] * 2), dtype=np.int32)
            grown[:, : self.matrix.shape[1]] = self.matrix
            self.matrix = grown
        self.components += 1
        self.unit_clock.append(0)
        self.unit_owner.append(owner)
        self.unit_names.append(name)
        self._units[key] = component
        return component

    def next_unit_clock(self, component: int) -> int:
        """A fresh clock for one operation of a unit."""
        slot = component - self.threads
        self.unit_clock[slot] += 1
        return self.unit_clock[slot]

    def owner(self, component: int) -> int:
        """The thread behind a component (a thread is its own owner)."""
        if component < self.threads:
            return component
        return self.unit_owner[component - self.threads]

    def width(self) -> int:
        return self.components

    # -- per-thread operations -----------------------------------------------------------

    def own(self, lanes: npt.NDArray[Any]) -> Clock:
        """Each thread's own clock (the clock of its next access)."""
        return self.matrix[lanes, lanes]

    def snapshot(self, lanes: npt.NDArray[Any]) -> Clock:
        """The join of the threads' clocks (what a release by all of them publishes)."""
        return self.matrix[lanes, : self.components].max(axis=0)

    def row(self, lane: int) -> Clock:
        return self.matrix[lane, : self.components].copy()

    def release(self, lanes: npt.NDArray[Any]) -> Clock:
        """Publish the threads' joined clock, then advance each thread's own component."""
        published = self.snapshot(lanes)
        self.tick(lanes)
        return published

    def tick(self, lanes: npt.NDArray[Any]) -> None:
        self.matrix[lanes, lanes] += 1

    def acquire(self, lanes: npt.NDArray[Any], clock: Clock) -> None:
        """Join a published clock into each thread's clock."""
        width = clock.shape[0]
        rows = self.matrix[lanes, :width]
        np.maximum(rows, clock, out=rows)
        self.matrix[lanes, :width] = rows

    def learn(self, lanes: npt.NDArray[Any], component: int, clock: int) -> None:
        """The threads learn that a unit's operations up to `clock` have completed."""
        column = self.matrix[lanes, component]
        self.matrix[lanes, component] = np.maximum(column, clock)

    def ordered(
        self,
        rows: npt.NDArray[Any],
        components: npt.NDArray[Any],
        clocks: npt.NDArray[Any],
        view: Clock | None = None,
    ) -> npt.NDArray[np.bool_]:
        """Whether each earlier access (component, clock) happened before the actor.

        The actor is thread `rows[i]` (its current clock), or, with `view`, an asynchronous
        operation whose clock is `view` (one row for all).
        """
        if view is not None:
            known = view[components]
        else:
            known = self.matrix[rows, components]
        return clocks <= known


def join(a: Clock, b: Clock) -> Clock:
    """The component-wise maximum of two clocks of possibly different widths."""
    if a.shape[0] < b.shape[0]:
        a, b = b, a
    out = a.copy()
    np.maximum(out[: b.shape[0]], b, out=out[: b.shape[0]])
    return out
