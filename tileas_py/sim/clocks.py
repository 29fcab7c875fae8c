"""Vector clocks: happens-before between threads and the asynchronous units they start.

The race checker is FastTrack-style (Flanagan and Freund, PLDI 2009): each thread has a
vector clock, each access is recorded as an epoch (component, clock), and an earlier access
is ordered before a later one when its clock is at most the later actor's view of its
component. Synchronisation moves clocks: a release (barrier arrival, mbarrier arrive,
release store) publishes the thread's clock and then advances its own component; an acquire
(leaving a barrier, observing an mbarrier phase, an acquire load) joins the published
clock into the thread's.

Relaxed operations synchronise through fences, as in the PTX memory model's release and
acquire patterns: a fence (`fence.acq_rel`, `fence.sc`, `membar`) keeps the thread's clock
as it was at the fence, and a later relaxed write (a relaxed store or atomic, a relaxed
mbarrier arrive or `complete_tx`) publishes that clock; what a relaxed read observes is
deferred, and joins the thread's clock at its next fence.

Components 0..threads-1 are the threads. Asynchronous operations (TMA copies, bulk copies,
cp.async, wgmma operand reads) are made by *units*: one component per issuing thread and
kind of completion (a wgmma group sequence, a bulk-group sequence, the TMA loads completing
on one mbarrier, ...), added on first use. A unit operation is recorded with a fresh clock
of its unit and checked against the issuing thread's clock at issue, which knows only the
completions the thread has acquired; so two unit operations in flight together are never
taken as ordered. Issuing one advances the issuer's own component: whoever observes the
completion learns what the issuer did before the issue, not after it. See docs/simulator.md.
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
        self.unit_clock = np.zeros(_INITIAL_COMPONENTS, dtype=np.int64)
        """The last clock handed out by each unit (indexed by component - threads)."""
        self.unit_owner = np.zeros(_INITIAL_COMPONENTS, dtype=np.int64)
        """The thread that issues each unit's operations (for reports)."""
        self.unit_names: list[str] = []
        self._units: dict[Hashable, int] = {}
        self.fence_rows: Clock | None = None
        """Each thread's clock at its last fence (allocated at the first fence)."""
        self.fenced = np.zeros(threads, dtype=np.bool_)
        self.deferred: dict[int, Clock] = {}
        """Per thread, what its relaxed reads observed since its last fence."""

    # -- components ---------------------------------------------------------------------

    def unit(self, key: Hashable, owner: int, name: str) -> int:
        """The component of the unit `key`, added on first use."""
        component = self._units.get(key)
        if component is None:
            component = self.unit_block(key, np.array([owner]), [name])
        return component

    def unit_block(
        self, key: Hashable, owners: npt.NDArray[Any], names: list[str]
    ) -> int:
        """The first of `len(owners)` consecutive unit components under `key` (one per
        owner, e.g. the cp.async unit of every thread), added on first use."""
        first = self._units.get(key)
        if first is not None:
            return first
        first = self.components
        count = owners.shape[0]
        needed = first + count
        if needed > self.matrix.shape[1]:
            capacity = max(self.matrix.shape[1] * 2, needed + _INITIAL_COMPONENTS)
            grown = np.zeros((self.threads, capacity), dtype=np.int32)
            grown[:, : self.matrix.shape[1]] = self.matrix
            self.matrix = grown
            if self.fence_rows is not None:
                rows = np.zeros((self.threads, capacity), dtype=np.int32)
                rows[:, : self.fence_rows.shape[1]] = self.fence_rows
                self.fence_rows = rows
        slots = needed - self.threads
        if slots > self.unit_clock.shape[0]:
            size = max(self.unit_clock.shape[0] * 2, slots)
            self.unit_clock = np.resize(self.unit_clock, size)
            self.unit_owner = np.resize(self.unit_owner, size)
        self.unit_clock[first - self.threads : slots] = 0
        self.unit_owner[first - self.threads : slots] = owners
        self.unit_names.extend(names)
        self.components = needed
        self._units[key] = first
        return first

    def next_unit_clock(self, component: int) -> int:
        """A fresh clock for one operation of a unit."""
        slot = component - self.threads
        self.unit_clock[slot] += 1
        return int(self.unit_clock[slot])

    def next_unit_clocks(self, components: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        """A fresh clock for one operation of each of several distinct units."""
        slots = components - self.threads
        self.unit_clock[slots] += 1
        return self.unit_clock[slots].copy()

    def owner(self, component: int) -> int:
        """The thread behind a component (a thread is its own owner)."""
        if component < self.threads:
            return component
        return int(self.unit_owner[component - self.threads])

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

    # -- fences --------------------------------------------------------------------------

    def fence(self, lanes: npt.NDArray[Any]) -> None:
        """A release-acquire fence by each thread: what its relaxed reads observed joins
        its clock, and its clock now is what its later relaxed writes publish."""
        self.acquire_deferred(lanes)
        if self.fence_rows is None:
            self.fence_rows = np.zeros_like(self.matrix)
        self.fence_rows[lanes] = self.matrix[lanes]
        self.fenced[lanes] = True
        self.tick(lanes)

    def fenced_clock(self, lanes: npt.NDArray[Any]) -> Clock | None:
        """What a relaxed write by the threads publishes: the join of their clocks at their
        last fences (None if none of them has fenced)."""
        if self.fence_rows is None:
            return None
        rows = lanes[self.fenced[lanes]]
        if rows.size == 0:
            return None
        return self.fence_rows[rows, : self.components].max(axis=0)

    def defer(self, lanes: npt.NDArray[Any], clock: Clock) -> None:
        """The threads' relaxed reads observed `clock`; it joins at their next fence."""
        for lane in lanes.tolist():
            known = self.deferred.get(lane)
            self.deferred[lane] = clock.copy() if known is None else join(known, clock)

    def acquire_deferred(self, lanes: npt.NDArray[Any]) -> None:
        if not self.deferred:
            return
        for lane in lanes.tolist():
            clock = self.deferred.pop(lane, None)
            if clock is not None:
                self.acquire(np.array([lane]), clock)

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
        known = view[components] if view is not None else self.matrix[rows, components]
        return clocks <= known


def join(a: Clock, b: Clock) -> Clock:
    """The component-wise maximum of two clocks of possibly different widths."""
    if a.shape[0] < b.shape[0]:
        a, b = b, a
    out = a.copy()
    np.maximum(out[: b.shape[0]], b, out=out[: b.shape[0]])
    return out
