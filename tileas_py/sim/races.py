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
from typing import Any

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

    def _known(self, actor: Actor, owner: Ints, components: Ints) -> Ints:
        if actor.view is not None:
            view = actor.view
            known = np.zeros(components.shape[0], dtype=np.int64)
            inside = components < view.shape[0]
            known[inside] = view[components[inside]]
            return known
        assert actor.rows is not None
        return self.clocks.matrix[actor.rows[owner], components]

    def _check_writes(
        self, bytes_: Ints, owner: Ints, actor: Actor, kind: str, out: list[Conflict]
    ) -> None:
        comp = self.w_comp[bytes_].astype(np.int64)
        present = comp >= 0
        if not present.any():
            return
        known = np.zeros(bytes_.shape[0], dtype=np.int64)
        known[present] = self._known(actor, owner[present], comp[present])
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
        written_before = self.w_clk[candidates] <= self._known(actor, owner, comp)
        fence = self.f_comp[candidates].astype(np.int64)
        fenced = fence >= 0
        fence_known = np.zeros(candidates.shape[0], dtype=np.int64)
        fence_known[fenced] = self._known(actor, owner[fenced], fence[fenced])
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


def _collect(
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


class _EpochSet:
    """Per byte: the accesses of one kind (reads, or atomics) not ordered before each
    other. One epoch per byte in the common case; a concurrent set interned in a table
    otherwise (FastTrack's read-shared mode)."""

    def __init__(self, size: int) -> None:
        self.comp = np.full(size, NONE, dtype=np.int32)
        self.clk = np.zeros(size, dtype=np.int32)
        self.pc = np.zeros(size, dtype=np.int32)
        self.shared = np.zeros(size, dtype=np.int32)
        """0, or the id of a set of concurrent epochs in `table` (then comp is NONE)."""
        self.table: list[tuple[tuple[int, int, int], ...]] = [()]
        self._ids: dict[tuple[tuple[int, int, int], ...], int] = {(): 0}

    def clear(self, bytes_: Ints) -> None:
        self.comp[bytes_] = NONE
        self.shared[bytes_] = 0

    def _intern(self, entries: tuple[tuple[int, int, int], ...]) -> int:
        found = self._ids.get(entries)
        if found is None:
            found = len(self.table)
            self.table.append(entries)
            self._ids[entries] = found
        return found

    def check(
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
            known[single] = shadow._known(actor, owner[single], comp[single])  # pyright: ignore[reportPrivateUsage]
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
        for pair, at in zip(unique.tolist(), first.tolist(), strict=True):
            state, row = divmod(pair, 1 << 32)
            for e_comp, e_clk, e_pc in self.table[state]:
                known = shadow._known(actor, np.array([row]), np.array([e_comp]))  # pyright: ignore[reportPrivateUsage]
                if e_clk > int(known[0]):
                    out.append(
                        Conflict(kind, e_comp, e_clk, e_pc, row, int(bytes_[multi[at]]))
                    )
                    break

    def add(self, bytes_: Ints, owner: Ints, actor: Actor, shadow: Shadow) -> None:
        new_comp = actor.components[owner]
        new_clk = actor.clocks[owner]
        comp = self.comp[bytes_].astype(np.int64)
        ids = self.shared[bytes_]
        empty = (comp < 0) & (ids == 0)
        single = comp >= 0
        replace = empty.copy()
        if single.any():
            same = single & (comp == new_comp)
            known = np.zeros(bytes_.shape[0], dtype=np.int64)
            others = single & ~same
            known[others] = shadow._known(actor, owner[others], comp[others])  # pyright: ignore[reportPrivateUsage]
            replace |= same | (others & (self.clk[bytes_] <= known))
        if replace.any():
            chosen = bytes_[replace]
            self.comp[chosen] = new_comp[replace]
            self.clk[chosen] = new_clk[replace]
            self.pc[chosen] = actor.pc
            self.shared[chosen] = 0
        grow = ~replace
        if not grow.any():
            return
        index = np.flatnonzero(grow)
        # Key each byte by its current state (an epoch, or a set id) and its actor row.
        state_key = np.where(
            comp[index] >= 0,
            (comp[index] << 32) | self.clk[bytes_[index]].astype(np.int64),
            -ids[index].astype(np.int64),
        )
        rows = owner[index]
        keys = np.stack(
            [state_key, rows, self.pc[bytes_[index]].astype(np.int64)], axis=1
        )
        unique, inverse = np.unique(keys, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        new_ids = np.empty(unique.shape[0], dtype=np.int32)
        for u, (key, row, old_pc) in enumerate(unique.tolist()):
            if key >= 0:
                entries: tuple[tuple[int, int, int], ...] = (
                    (key >> 32, key & 0xFFFFFFFF, old_pc),
                )
            else:
                entries = self.table[-key]
            kept = [
                e
                for e in entries
                if e[0] != int(new_comp[row])
                and e[1]
                > int(
                    shadow._known(actor, np.array([row]), np.array([e[0]]))[0]  # pyright: ignore[reportPrivateUsage]
                )
            ]
            kept.append((int(new_comp[row]), int(new_clk[row]), actor.pc))
            new_ids[u] = self._intern(tuple(sorted(kept)))
        chosen = bytes_[index]
        self.comp[chosen] = NONE
        self.shared[chosen] = new_ids[inverse]
