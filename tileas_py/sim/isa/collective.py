"""Convergence of collectives: who must take part in a `.sync` / `.aligned` instruction.

A warp-level `.aligned` instruction needs every live thread of the warp, a warpgroup one
(`wgmma.*`) every live thread of the warpgroup, and a `.sync` one with a member mask the
threads of its mask. Threads that reach the instruction wait there until the others arrive
(as the hardware's convergence does); a required thread that has exited, or a member mask
that does not agree, is a `collective` hazard, and the instruction then runs with the
threads that came.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    lanes of the warp each thread needs, for the `.sync` forms with a member mask. With
    `exited_ok` (the barriers) threads of the group that exited are not needed; otherwise
    needing one is a hazard.
    """
    from tileas_py.sim.machine import BLOCKED, EXITED

    if lanes.size == 0:
        return lanes
    geometry = m.geometry
    key_base = ("converge", inst.pc)
    waiting = m.waiters.get(key_base)
    candidates = lanes
    if waiting:
        parked = np.concatenate([w.lanes for w in waiting])
        parked = parked[m.status[parked] == BLOCKED]
        del m.waiters[key_base]
        candidates = np.union1d(lanes, parked)
    group = candidates // scope
    ready: list[Lanes] = []
    wait: list[Lanes] = []
    present_mask = np.zeros(m.lanes, dtype=np.bool_)
    present_mask[candidates] = True
    for g in np.unique(group).tolist():
        members = np.arange(g * scope, (g + 1) * scope)
        members = members[members < m.lanes]
        chosen = candidates[group == g]
        if masks is not None:
            needed = _needed_by_mask(m, inst, chosen, lanes, masks)
        else:
            needed = members
        live = needed[m.status[needed] != EXITED]
        exited = needed[(m.status[needed] == EXITED) & geometry.live[needed]]
        if exited.size and not exited_ok:
            m.hazard(
                HazardKind.COLLECTIVE,
                f"'{inst.opcode}' needs threads that have exited",
                m.party(int(chosen[0]), inst.pc),
                key=(HazardKind.COLLECTIVE, inst.pc, "exited"),
            )
        if present_mask[live].all():
            ready.append(chosen)
        else:
            wait.append(chosen)
    for chosen in wait:
        missing = _missing(m, chosen, scope, present_mask)
        m.block(
            chosen,
            key_base,
            f"threads {missing} of their {'warp' if scope == WARP else 'warpgroup'} "
            f"to reach '{inst.opcode}'",
            at=inst,
            retry=True,
        )
    if not ready:
        return np.zeros(0, dtype=np.int64)
    run = np.concatenate(ready)
    m.status[run] = 0
    m.pc[run] = inst.next_pc
    return np.sort(run)


def _needed_by_mask(
    m: Machine, inst: Instruction, chosen: Lanes, lanes: Lanes, masks: Masks
) -> Lanes:
    warp_base = (chosen[0] // WARP) * WARP
    position = np.searchsorted(lanes, chosen)
    inside = (position < lanes.shape[0]) & (
        lanes[np.minimum(position, lanes.shape[0] - 1)] == chosen
    )
    chosen_masks = masks[position[inside]] if inside.any() else masks[:0]
    if chosen_masks.size and (chosen_masks != chosen_masks[0]).any():
        m.hazard(
            HazardKind.COLLECTIVE,
            f"the threads of '{inst.opcode}' disagree on the member mask",
            m.party(int(chosen[0]), inst.pc),
            key=(HazardKind.COLLECTIVE, inst.pc, "mask"),
        )
    mask = int(np.bitwise_or.reduce(chosen_masks)) if chosen_masks.size else 0
    needed = [warp_base + i for i in range(WARP) if mask >> i & 1]
    return np.array(needed, dtype=np.int64)


def _missing(
    m: Machine, chosen: Lanes, scope: int, present: npt.NDArray[np.bool_]
) -> str:
    from tileas_py.sim.machine import EXITED

    base = (int(chosen[0]) // scope) * scope
    members = np.arange(base, min(base + scope, m.lanes))
    absent = members[~present[members] & (m.status[members] != EXITED)]
    tids = m.geometry.lane_tid[absent]
    if tids.size == 0:
        return "(none)"
    return (
        f"{int(tids.min())}-{int(tids.max())}" if tids.size > 1 else str(int(tids[0]))
    )


def wake_all_convergence(m: Machine) -> None:
    """Let threads waiting to converge look again (some thread they need has exited)."""
    for key in [
        k for k in m.waiters if isinstance(k, tuple) and k and k[0] == "converge"
    ]:
        m.wake(key)
