"""Convergence of collectives: who must take part in a `.sync` / `.aligned` instruction.

A warp-level `.aligned` instruction needs every live thread of the warp, a warpgroup one
(`wgmma.*`) every live thread of the warpgroup, and a `.sync` one with a member mask the
threads of its mask. Threads that reach the instruction wait there until the others arrive
(as the hardware's convergence does); a required thread that has exited, or a member mask
that does not agree, is a `collective` hazard, and the instruction then runs with the
threads that came.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np
import numpy.typing as npt

from tileas_py.sim.geometry import WARP
from tileas_py.sim.program import Instruction
from tileas_py.sim.report import HazardKind

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]
Masks = npt.NDArray[np.uint32]

WARPGROUP = 128


def warpgroups(m: Machine, inst: Instruction, lanes: Lanes) -> list[tuple[int, Lanes]]:
    """The warpgroups that may run the warpgroup-wide `inst` now (`converge`), each with
    its lanes, by warpgroup number; none while they gather."""
    lanes = converge(m, inst, lanes, WARPGROUP)
    if lanes.size == 0:
        return []
    groups = m.geometry.warpgroup_of(lanes)
    return [(wg, lanes[groups == wg]) for wg in np.unique(groups).tolist()]


def converge(
    m: Machine,
    inst: Instruction,
    lanes: Lanes,
    scope: int,
    masks: Masks | None = None,
    *,
    exited_ok: bool = False,
) -> Lanes:
    """The lanes that may run `inst` now; the rest wait for their group to gather.

    `scope` is 32 (warp) or 128 (warpgroup); `masks` (one per lane, warp scope) lists the
    lanes of the warp each thread needs, for the `.sync` forms with a member mask. The
    threads of a warp with one mask are one collective; threads with disjoint masks are
    separate collectives (at most one of a warp's runs now, so that the instruction sees
    one collective per warp; the others run next). With `exited_ok` (the barriers)
    threads of the group that exited are not needed; otherwise needing one is a hazard.
    """
    from tileas_py.sim.machine import BLOCKED, EXITED, RUNNABLE

    if lanes.size == 0:
        return lanes
    key = ("converge", inst.pc)
    waiting = m.waiters.get(key)
    candidates = lanes
    if waiting:
        parked = np.concatenate([w.lanes for w in waiting])
        parked = parked[m.status[parked] == BLOCKED]
        del m.waiters[key]
        candidates = np.union1d(lanes, parked)
    lane_masks = None
    if masks is not None:
        stored = m.state.get("converge_masks")
        if stored is None:
            stored = np.zeros(m.lanes, dtype=np.uint32)
            m.state["converge_masks"] = stored
        stored[lanes] = masks
        lane_masks = stored[candidates]
    present = np.zeros(m.lanes, dtype=np.bool_)
    present[candidates] = True
    group = candidates // scope
    ready: list[Lanes] = []
    later: list[Lanes] = []
    wait: list[tuple[Lanes, Lanes]] = []
    for value in np.unique(group).tolist():
        g = int(value)
        in_group = group == g
        chosen = candidates[in_group]
        collectives: list[tuple[Lanes, Lanes]]
        if lane_masks is None:
            members = np.arange(
                g * scope, min((g + 1) * scope, m.lanes), dtype=np.int64
            )
            collectives = [(chosen, members)]
        else:
            collectives = _by_mask(m, inst, chosen, lane_masks[in_group])
        first = True
        for arrived, needed in collectives:
            live = needed[m.status[needed] != EXITED]
            exited = needed[(m.status[needed] == EXITED) & m.geometry.live[needed]]
            if exited.size and not exited_ok:
                m.hazard(
                    HazardKind.COLLECTIVE,
                    f"'{inst.opcode}' needs threads that have exited",
                    m.party(int(arrived[0]), inst.pc),
                    key=(HazardKind.COLLECTIVE, inst.pc, "exited"),
                )
            if not present[live].all():
                wait.append((arrived, live[~present[live]]))
            elif first:
                ready.append(arrived)
                first = False
            else:
                later.append(arrived)
    for arrived, missing in wait:
        m.block(
            arrived,
            key,
            f"threads {_span(m, missing)} of their "
            f"{'warp' if scope == WARP else 'warpgroup'} to reach '{inst.opcode}'",
            at=inst,
            retry=True,
        )
    if later:
        # Another collective of the same warp: it runs at the next step.
        rest = np.concatenate(later)
        m.status[rest] = RUNNABLE
        m.pc[rest] = inst.pc
    if not ready:
        return np.zeros(0, dtype=np.int64)
    run = np.concatenate(ready)
    m.status[run] = RUNNABLE
    m.pc[run] = inst.next_pc
    return np.sort(run)


def _by_mask(
    m: Machine, inst: Instruction, chosen: Lanes, masks: Masks
) -> list[tuple[Lanes, Lanes]]:
    """The collectives among the threads of one warp: (who arrived, who is needed) for
    each member mask. Masks that overlap without being equal, or that leave out a thread
    that gives them, are a hazard; the threads then make one collective of them all."""
    base = (int(chosen[0]) // WARP) * WARP
    collectives: list[tuple[Lanes, Lanes]] = []
    union = 0
    agree = True
    for mask in np.unique(masks).tolist():
        needed = _mask_lanes(m, base, mask)
        union |= mask
        if (
            np.isin(chosen[masks != mask], needed).any()
            or not np.isin(chosen[masks == mask], needed).all()
        ):
            agree = False
        collectives.append((chosen[masks == mask], needed))
    if agree:
        return collectives
    m.hazard(
        HazardKind.COLLECTIVE,
        f"the threads of '{inst.opcode}' disagree on the member mask",
        m.party(int(chosen[0]), inst.pc),
        key=(HazardKind.COLLECTIVE, inst.pc, "mask"),
    )
    return [(chosen, np.union1d(_mask_lanes(m, base, union), chosen))]


def _mask_lanes(m: Machine, base: int, mask: int) -> Lanes:
    return np.array(
        [base + i for i in range(WARP) if mask >> i & 1 and base + i < m.lanes],
        dtype=np.int64,
    )


def _span(m: Machine, lanes: Lanes) -> str:
    tids = m.geometry.lane_tid[lanes]
    if tids.size == 0:
        return "(none)"
    if tids.size == 1:
        return str(int(tids[0]))
    return f"{int(tids.min())}-{int(tids.max())}"


def wake_all_convergence(m: Machine) -> None:
    """Let threads waiting to converge look again (some thread they need has exited)."""
    keys = [key for key in m.waiters if _is_convergence(key)]
    for key in keys:
        m.wake(key)


def _is_convergence(key: object) -> bool:
    if not isinstance(key, tuple):
        return False
    items = cast(tuple[object, ...], key)
    return len(items) == 2 and items[0] == "converge"
