"""Shadow memory: the race and proxy checks on every byte of shared and global memory.

For every byte the shadow keeps the epoch (component, clock) and PC of its last write, of
its last reads and of its last atomic accesses. A read or write that is not ordered after
a conflicting earlier access (happens-before, `tileas_py.sim.clocks`) is a race. Reads that
are concurrent with each other are all kept (an antichain of epochs, interned in a table),
so a later write is checked against every one of them whatever order the threads ran in.

Atomic accesses (`atom`, `red`, the mbarrier operations on the barrier's 8 bytes) do not
race with each other, but do with plain accesses.

The proxy rule: a byte written through the generic proxy must be covered by a
`fence.proxy.async` before the async proxy (TMA, bulk copies, wgmma operand reads) reads
it. The fence covers the writes that happened before it; the shadow records which fence
covered each write, and an async read checks that this fence happened before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from tileas_py.sim.clocks import Clock, VectorClocks

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

NONE = -1


@dataclass
class Actor:
    """Who makes an access, one row per accessing thread or operation.

    A thread actor has `rows` (the threads, whose clocks decide ordering); an asynchronous
    operation has `view`, the issuing thread's clock at issue.
    """

    components: Ints
    clocks: Ints
    rows: Ints | None
    view: Clock | None
    pc: int
    asynchronous: bool = False


@dataclass(frozen=True)
class Conflict:
    """A race found on one access: the earlier epoch and PC, the racing row and byte."""

    kind: str
    """`write-write`, `read-write`, `write-read`, `atomic-write`, ..., `proxy`."""
    component: int
    clock: int
    pc: int
    row: int
    byte: int


class Shadow:
    """The access history of one region of memory (one CTA-set of shared memory, or one
    global allocation)."""

    def __init__(self, size: int, clocks: VectorClocks) -> None:
        self.clocks = clocks
        self.w_comp = np.full(size, NONE, dtype=np.int32)
        self.w_clk = np.zeros(size, dtype=np.int32)
        self.w_pc = np.zeros(size, dtype=np.int32)
        self.w_generic = np.zeros(size, dtype=np.bool_)
        """The last write went through the generic proxy."""
        self.f_comp = np.full(size, NONE, dtype=np.int32)
        self.f_clk = np.zeros(size, dtype=np.int32)
        """The proxy fence that covers the last generic write (NONE: not covered)."""
        self.reads = _EpochSet(size)
        self.atomics = _EpochSet(size)

    # -- checks ---------------------------------------------------------------------------

    def known(self, actor: Actor, owner: Ints, components: Ints) -> Ints:
        """The actor's view of each component (its rows `owner`, or its one view)."""
        if actor.view is not None:
            view = actor.view
            known = np.zeros(components.shape[0], dtype=np.int64)
            inside = components < view.shape[0]
            known[inside] = view[components[inside]]
            return known
        assert actor.rows is not None
        return self.clocks.matrix[actor.rows[owner], components].astype(np.int64)

    def _check_writes(
        self, bytes_: Ints, owner: Ints, actor: Actor, kind: str, out: list[Conflict]
    ) -> None:
        comp = self.w_comp[bytes_].astype(np.int64)
        present = comp >= 0
        if not present.any():
            return
        known = np.zeros(bytes_.shape[0], dtype=np.int64)
        known[present] = self.known(actor, owner[present], comp[present])
        bad = present & (self.w_clk[bytes_] > known)
        _collect(
            bad, kind, comp, self.w_clk[bytes_], self.w_pc[bytes_], owner, bytes_, out
        )

    def access(
        self,
        bytes_: Ints,
        owner: Ints,
        actor: Actor,
        mode: str,
    ) -> list[Conflict]:
        """Record an access to `bytes_` (`owner[i]` is the actor row of byte i); `mode` is
        `read`, `write` or `atomic`. Returns the conflicts with earlier accesses."""
        out: list[Conflict] = []
        if mode == "read":
            self._check_writes(bytes_, owner, actor, "write-read", out)
            self.atomics.check(bytes_, owner, actor, self, "atomic-read", out)
            self.reads.add(bytes_, owner, actor, self)
        elif mode == "atomic":
            self._check_writes(bytes_, owner, actor, "write-atomic", out)
            self.reads.check(bytes_, owner, actor, self, "read-atomic", out)
            self.atomics.add(bytes_, owner, actor, self)
        else:
            self._check_writes(bytes_, owner, actor, "write-write", out)
            self.reads.check(bytes_, owner, actor, self, "read-write", out)
            self.atomics.check(bytes_, owner, actor, self, "atomic-write", out)
            self.w_comp[bytes_] = actor.components[owner]
            self.w_clk[bytes_] = actor.clocks[owner]
            self.w_pc[bytes_] = actor.pc
            self.w_generic[bytes_] = not actor.asynchronous
            self.f_comp[bytes_] = NONE
            self.reads.clear(bytes_)
            self.atomics.clear(bytes_)
        return out

    def check_proxy(self, bytes_: Ints, actor: Actor) -> list[Conflict]:
        """An async-proxy read of `bytes_`: every generic write ordered before it must be
        covered by a proxy fence that is ordered before it too."""
        out: list[Conflict] = []
        generic = self.w_generic[bytes_] & (self.w_comp[bytes_] >= 0)
        if not generic.any():
            return out
        candidates = bytes_[generic]
        owner = np.zeros(candidates.shape[0], dtype=np.int64)
        comp = self.w_comp[candidates].astype(np.int64)
        written_before = self.w_clk[candidates] <= self.known(actor, owner, comp)
        fence = self.f_comp[candidates].astype(np.int64)
        fenced = fence >= 0
        fence_known = np.zeros(candidates.shape[0], dtype=np.int64)
        fence_known[fenced] = self.known(actor, owner[fenced], fence[fenced])
        covered = fenced & (self.f_clk[candidates] <= fence_known)
        bad = written_before & ~covered
        _collect(
            bad,
            "proxy",
            comp,
            self.w_clk[candidates],
            self.w_pc[candidates],
            owner,
            candidates,
            out,
        )
        return out

    def fence(self, lanes: Ints) -> None:
        """`fence.proxy.async` by `lanes`: cover every generic write ordered before one of
        them (their own writes included)."""
        pending = np.flatnonzero(
            self.w_generic & (self.w_comp >= 0) & (self.f_comp < 0)
        )
        if pending.size == 0:
            return
        comp = self.w_comp[pending]
        clock = self.w_clk[pending]
        writers, inverse = np.unique(comp, return_inverse=True)
        known = self.clocks.matrix[np.ix_(lanes, writers)]
        best = known.argmax(axis=0)
        reach = known[best, np.arange(writers.shape[0])]
        covered = clock <= reach[inverse]
        fencer = lanes[best][inverse]
        chosen = pending[covered]
        self.f_comp[chosen] = fencer[covered]
        self.f_clk[chosen] = self.clocks.matrix[fencer[covered], fencer[covered]]


def _collect(  # noqa: PLR0917 (the rows and epochs of a conflict)
    bad: Bools,
    kind: str,
    comp: npt.NDArray[Any],
    clock: npt.NDArray[Any],
    pc: npt.NDArray[Any],
    owner: Ints,
    bytes_: Ints,
    out: list[Conflict],
) -> None:
    if not bad.any():
        return
    # One conflict per (earlier PC, earlier component) is enough to report; the rest of
    # the bytes of the same two accesses say the same thing.
    index = np.flatnonzero(bad)
    keys = pc[index].astype(np.int64) * (1 << 32) + comp[index].astype(np.int64)
    _, first = np.unique(keys, return_index=True)
    for i in index[first][:8]:
        out.append(
            Conflict(
                kind,
                int(comp[i]),
                int(clock[i]),
                int(pc[i]),
                int(owner[i]),
                int(bytes_[i]),
            )
        )


def _same_row(row: int, count: int) -> Ints:
    """`count` accesses all made by actor row `row`."""
    return cast(Ints, np.full(count, row, dtype=np.int64))


class _EpochSet:
    """Per byte: the accesses of one kind (reads, or atomics) not ordered before each
    other. One epoch per byte in the common case; otherwise a set of concurrent epochs,
    interned in a table (FastTrack's read-shared mode). Threads that access one byte in
    the same instruction (a broadcast load, every thread of a warpgroup arriving on one
    mbarrier) all go into its set."""

    def __init__(self, size: int) -> None:
        self.comp = np.full(size, NONE, dtype=np.int32)
        self.clk = np.zeros(size, dtype=np.int32)
        self.pc = np.zeros(size, dtype=np.int32)
        self.shared = np.zeros(size, dtype=np.int32)
        """0, or the id of a set of concurrent epochs in `table` (then comp is NONE)."""
        empty = np.zeros(0, dtype=np.int64)
        self.table: list[tuple[Ints, Ints, Ints]] = [(empty, empty, empty)]
        self._ids: dict[bytes, int] = {b"": 0}

    def clear(self, bytes_: Ints) -> None:
        self.comp[bytes_] = NONE
        self.shared[bytes_] = 0

    def _intern(self, comps: Ints, clocks: Ints, pcs: Ints) -> int:
        order = np.lexsort((clocks, comps))
        comps, clocks, pcs = comps[order], clocks[order], pcs[order]
        key = comps.tobytes() + b"|" + clocks.tobytes() + b"|" + pcs.tobytes()
        found = self._ids.get(key)
        if found is None:
            found = len(self.table)
            self.table.append((comps, clocks, pcs))
            self._ids[key] = found
        return found

    def _entries(self, byte: int) -> tuple[Ints, Ints, Ints]:
        """The epochs recorded for one byte, as (components, clocks, PCs)."""
        comp = int(self.comp[byte])
        if comp >= 0:
            return (
                np.array([comp], dtype=np.int64),
                np.array([int(self.clk[byte])], dtype=np.int64),
                np.array([int(self.pc[byte])], dtype=np.int64),
            )
        return self.table[int(self.shared[byte])]

    def check(  # noqa: PLR0917 (an access, its actor and where to put conflicts)
        self,
        bytes_: Ints,
        owner: Ints,
        actor: Actor,
        shadow: Shadow,
        kind: str,
        out: list[Conflict],
    ) -> None:
        comp = self.comp[bytes_].astype(np.int64)
        single = comp >= 0
        if single.any():
            known = np.zeros(bytes_.shape[0], dtype=np.int64)
            known[single] = shadow.known(actor, owner[single], comp[single])
            bad = single & (self.clk[bytes_] > known)
            _collect(
                bad, kind, comp, self.clk[bytes_], self.pc[bytes_], owner, bytes_, out
            )
        ids = self.shared[bytes_]
        multi = np.flatnonzero(ids > 0)
        if multi.size == 0:
            return
        pairs = ids[multi].astype(np.int64) * (1 << 32) + owner[multi]
        unique, first = np.unique(pairs, return_index=True)
        for pair, at in zip(unique, first, strict=True):
            state, row = divmod(int(pair), 1 << 32)
            comps, clocks, pcs = self.table[state]
            known = shadow.known(actor, _same_row(row, comps.shape[0]), comps)
            bad = np.flatnonzero(clocks > known)
            if bad.size:
                i = int(bad[0])
                out.append(
                    Conflict(
                        kind,
                        int(comps[i]),
                        int(clocks[i]),
                        int(pcs[i]),
                        row,
                        int(bytes_[multi[int(at)]]),
                    )
                )

    def add(self, bytes_: Ints, owner: Ints, actor: Actor, shadow: Shadow) -> None:
        """Record the access of each (byte, row) pair."""
        unique, first, counts = np.unique(bytes_, return_index=True, return_counts=True)
        alone = counts == 1
        if alone.all():
            self._add_alone(bytes_, owner, actor, shadow)
            return
        self._add_alone(unique[alone], owner[first[alone]], actor, shadow)
        order = np.argsort(bytes_, kind="stable")
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        together: dict[bytes, list[int]] = {}
        rows_of: dict[bytes, Ints] = {}
        for index in np.flatnonzero(~alone).tolist():
            start = int(starts[index])
            rows = np.unique(owner[order[start : start + int(counts[index])]])
            byte = int(unique[index])
            key = self._state_key(byte) + rows.tobytes()
            together.setdefault(key, []).append(byte)
            rows_of[key] = rows
        for key, chosen in together.items():
            new_id = self._merge(chosen[0], rows_of[key], actor, shadow)
            where = np.array(chosen, dtype=np.int64)
            self.comp[where] = NONE
            self.shared[where] = new_id

    def _state_key(self, byte: int) -> bytes:
        comp = int(self.comp[byte])
        if comp >= 0:
            return np.array([comp, int(self.clk[byte]), int(self.pc[byte])]).tobytes()
        return np.array([-1, int(self.shared[byte]), 0]).tobytes()

    def _merge(self, byte: int, rows: Ints, actor: Actor, shadow: Shadow) -> int:
        """The set after `rows` access `byte` together: the old epochs not ordered before
        any of them (a later access ordered after that one is ordered after them too), and
        theirs."""
        comps, clocks, pcs = self._entries(byte)
        if comps.size:
            known = np.stack(
                [
                    shadow.known(actor, _same_row(int(r), comps.shape[0]), comps)
                    for r in rows
                ]
            )
            keep = ~(clocks[None, :] <= known).any(axis=0)
            keep &= ~np.isin(comps, actor.components[rows])
            comps, clocks, pcs = comps[keep], clocks[keep], pcs[keep]
        new_comps = actor.components[rows].astype(np.int64)
        new_clocks = actor.clocks[rows].astype(np.int64)
        return self._intern(
            np.concatenate([comps, new_comps]),
            np.concatenate([clocks, new_clocks]),
            np.concatenate([pcs, np.full(rows.shape[0], actor.pc, dtype=np.int64)]),
        )

    def _add_alone(
        self, bytes_: Ints, owner: Ints, actor: Actor, shadow: Shadow
    ) -> None:
        """Bytes each accessed by one row."""
        if bytes_.size == 0:
            return
        new_comp = actor.components[owner]
        new_clk = actor.clocks[owner]
        comp = self.comp[bytes_].astype(np.int64)
        ids = self.shared[bytes_]
        replace = (comp < 0) & (ids == 0)
        single = comp >= 0
        if single.any():
            same = single & (comp == new_comp)
            known = np.zeros(bytes_.shape[0], dtype=np.int64)
            others = single & ~same
            known[others] = shadow.known(actor, owner[others], comp[others])
            replace |= same | (others & (self.clk[bytes_] <= known))
        if replace.any():
            chosen = bytes_[replace]
            self.comp[chosen] = new_comp[replace]
            self.clk[chosen] = new_clk[replace]
            self.pc[chosen] = actor.pc
            self.shared[chosen] = 0
        grow = np.flatnonzero(~replace)
        if grow.size == 0:
            return
        # Bytes with the same state and the same row end in the same set: compute it once.
        state_key = np.where(
            comp[grow] >= 0,
            (comp[grow] << 32) | self.clk[bytes_[grow]].astype(np.int64),
            -ids[grow].astype(np.int64),
        )
        _, state_index = np.unique(state_key, return_inverse=True)
        combined = state_index.reshape(-1) * (int(owner.max()) + 1) + owner[grow]
        _, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
        new_ids = np.array(
            [
                self._merge(
                    int(bytes_[grow[i]]), owner[grow[i] : grow[i] + 1], actor, shadow
                )
                for i in first.tolist()
            ],
            dtype=np.int32,
        )
        chosen = bytes_[grow]
        self.comp[chosen] = NONE
        self.shared[chosen] = new_ids[inverse.reshape(-1)]
