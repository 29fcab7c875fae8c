"""Resolving an address in a state space to bytes of a region, with bounds and alignment.

Every access goes through `resolve`, which splits a group of threads by the region their
addresses fall in (a generic address may point anywhere) and stops the run with a located
error on an address outside every region, off the end of one, or not aligned to the size
of the access. `load` and `store` then move the bytes and record the access with the race
checker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

import numpy as np
import numpy.typing as npt

from tileas_py.dialects.ori.attributes import FunctionKind
from tileas_py.sim import memory as mem
from tileas_py.sim.program import Instruction

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine
    from tileas_py.sim.races import Actor

Lanes = npt.NDArray[np.int64]
Addresses = npt.NDArray[np.uint64]


@dataclass
class Piece:
    """The part of an access that falls in one region."""

    region: mem.Region
    offsets: Lanes
    """Byte offsets in the region."""
    rows: Lanes
    """Which accesses (indices into the group) these are."""


def space_of(opcode: str) -> str:
    """The state space an `ld` / `st` / `atom` / ... mnemonic names; `generic` if none."""
    parts = opcode.split(".")
    for part in parts[1:]:
        if part in ("global", "local", "param", "const"):
            return part
        if part == "shared::cluster":
            return "shared::cluster"
        if part in ("shared", "shared::cta"):
            return "shared"
        if part.startswith("param::"):
            return "param"
    return "generic"


def resolve(  # noqa: PLR0917 (an access: where, how many bytes, by whom)
    m: Machine,
    inst: Instruction,
    space: str,
    addresses: Addresses,
    lanes: Lanes,
    size: int,
    *,
    symbol_space: str | None = None,
    align: int | None = None,
) -> list[Piece]:
    """Where each access of `size` bytes at `addresses` (one per lane) lands."""
    align = align if align is not None else size
    if align > 1:
        misaligned = addresses % np.uint64(align) != 0
        if misaligned.any():
            i = int(np.flatnonzero(misaligned)[0])
            m.fail(
                f"misaligned {size}-byte access at address {int(addresses[i]):#x} "
                f"(must be a multiple of {align}) by {m.describe_lanes(lanes[i : i + 1])}",
                inst,
            )
    if space == "generic":
        return _generic(m, inst, addresses, lanes, size)
    if space == "param" and (
        symbol_space == "frame"
        or (symbol_space is None and inst.function.kind is FunctionKind.FUNC)
    ):
        space = "frame"
    every = np.arange(lanes.shape[0], dtype=np.int64)
    return _in_space(m, inst, space, addresses, _Group(lanes, every, size))


def _generic(
    m: Machine, inst: Instruction, addresses: Addresses, lanes: Lanes, size: int
) -> list[Piece]:
    windows = (addresses >> np.uint64(mem.WINDOW_SHIFT)).astype(np.int64)
    pieces: list[Piece] = []
    for window in np.unique(windows).tolist():
        rows: Lanes = np.flatnonzero(windows == window)
        group = _Group(lanes[rows], rows, size)
        if window >= mem.GLOBAL_WINDOW:
            pieces.extend(_global(m, inst, addresses[rows], group))
            continue
        space = _WINDOWS.get(window)
        if space is None:
            _out_of_bounds(
                m,
                inst,
                int(addresses[rows[0]]),
                int(lanes[rows[0]]),
                size,
                "no state space",
            )
        local = addresses[rows] - np.uint64(window << mem.WINDOW_SHIFT)
        pieces.extend(_in_space(m, inst, space, local, group))
    return pieces


_WINDOWS = {
    mem.SHARED_WINDOW: "shared::cluster",
    mem.LOCAL_WINDOW: "local",
    mem.PARAM_WINDOW: "param",
    mem.CONST_WINDOW: "const",
}


@dataclass(frozen=True)
class _Group:
    """The accesses being resolved: their threads, their rows in the whole group, and the
    bytes each moves."""

    lanes: Lanes
    rows: Lanes
    size: int


def _in_space(
    m: Machine, inst: Instruction, space: str, addresses: Addresses, group: _Group
) -> list[Piece]:
    if space == "global":
        return _global(m, inst, addresses, group)
    offsets = addresses.astype(np.int64)
    lanes = group.lanes
    if space in ("shared", "shared::cluster"):
        ctas = m.geometry.lane_cta[lanes]
        if space == "shared::cluster":
            offsets, ctas = _cluster_target(m, inst, addresses, group, ctas)
        region = m.shared
        _check_bounds(m, inst, addresses, offsets, group, region.size, "shared memory")
        return [Piece(region, ctas * region.size + offsets, group.rows)]
    regions = {
        "local": (m.local, "local memory", True),
        "frame": (m.frame, "parameter frame", True),
        "param": (m.params, "kernel parameters", False),
        "const": (m.const, "constant memory", False),
    }
    if space not in regions:
        m.fail(f"state space '.{space}' is not supported", inst)
    region, what, per_thread = regions[space]
    _check_bounds(m, inst, addresses, offsets, group, region.size, what)
    if per_thread:
        offsets = lanes * region.size + offsets
    return [Piece(region, offsets, group.rows)]


def _cluster_target(
    m: Machine, inst: Instruction, addresses: Addresses, group: _Group, ctas: Lanes
) -> tuple[Lanes, Lanes]:
    """(offset, CTA) of shared::cluster addresses: `mapa`'s carry the CTA's rank + 1."""
    geometry = m.geometry
    offsets = addresses.astype(np.int64)
    ranks = (addresses >> np.uint64(mem.RANK_SHIFT)).astype(np.int64)
    mapped = ranks > 0
    if not mapped.any():
        return offsets, ctas
    rank = ranks - 1
    bad = mapped & (rank >= geometry.cluster_size)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        _out_of_bounds(
            m,
            inst,
            int(addresses[i]),
            int(group.lanes[i]),
            group.size,
            "a CTA rank outside the cluster",
        )
    cluster = geometry.cta_cluster[ctas]
    targets = geometry.cluster_members[cluster, np.where(mapped, rank, 0)]
    targets = np.where(mapped, targets, ctas)
    check_running(m, inst, targets, group.lanes)
    return np.where(mapped, offsets & mem.OFFSET_MASK, offsets), targets


def check_running(m: Machine, inst: Instruction, ctas: Lanes, lanes: Lanes) -> None:
    """Stop the run if a thread reaches the shared memory of a CTA of its cluster whose
    threads have all exited (its shared memory is gone: a cluster must not exit before
    its peers are done with it)."""
    from tileas_py.sim.machine import EXITED

    padded = m.geometry.padded
    for cta in np.unique(ctas).tolist():
        if (m.status[cta * padded : (cta + 1) * padded] == EXITED).all():
            i = int(np.flatnonzero(ctas == cta)[0])
            m.fail(
                f"access to the shared memory of CTA {m.geometry.describe_cta(cta)}, "
                f"whose threads have all exited, by {m.describe_lanes(lanes[i : i + 1])}",
                inst,
            )


def _global(
    m: Machine, inst: Instruction, addresses: Addresses, group: _Group
) -> list[Piece]:
    relative = addresses.astype(np.int64) - mem.GENERIC_GLOBAL
    allocation = relative >> mem.ALLOCATION_SHIFT
    offsets = relative & ((1 << mem.ALLOCATION_SHIFT) - 1)
    pieces: list[Piece] = []
    for index in np.unique(allocation).tolist():
        chosen = np.flatnonzero(allocation == index)
        if index < 0 or index >= len(m.globals):
            i = int(chosen[0])
            _out_of_bounds(
                m,
                inst,
                int(addresses[i]),
                int(group.lanes[i]),
                group.size,
                "no allocation",
            )
        region = m.globals[int(index)]
        part = _Group(group.lanes[chosen], group.rows[chosen], group.size)
        _check_bounds(
            m, inst, addresses[chosen], offsets[chosen], part, region.size, region.label
        )
        pieces.append(Piece(region, offsets[chosen], part.rows))
    return pieces


def _check_bounds(  # noqa: PLR0917 (the access and the region it must stay in)
    m: Machine,
    inst: Instruction,
    addresses: Addresses,
    offsets: Lanes,
    group: _Group,
    limit: int,
    what: str,
) -> None:
    bad = (offsets < 0) | (offsets + group.size > limit)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        _out_of_bounds(
            m,
            inst,
            int(addresses[i]),
            int(group.lanes[i]),
            group.size,
            f"{what} of {limit} bytes (offset {int(offsets[i])})",
        )


def _out_of_bounds(  # noqa: PLR0917 (what a located out-of-bounds error names)
    m: Machine, inst: Instruction, address: int, lane: int, size: int, where: str
) -> NoReturn:
    m.fail(
        f"out-of-bounds {size}-byte access at address {address:#x}, outside {where}, "
        f"by {m.describe_lanes(np.array([lane]))}",
        inst,
    )


def _record(  # noqa: PLR0917 (an access of one piece, as `Machine.record` takes it)
    m: Machine,
    inst: Instruction,
    piece: Piece,
    size: int,
    actor: Actor | None,
    mode: str,
    what: str | None,
) -> None:
    """Tell the checker of `inst`'s access of `piece`, by the lanes that own its rows."""
    m.record(
        piece.region,
        piece.offsets,
        size,
        actor,
        mode,
        inst,
        what or inst.opcode,
        owners=piece.rows,
    )


def load(
    m: Machine,
    inst: Instruction,
    pieces: list[Piece],
    lanes: Lanes,
    size: int,
    *,
    mode: str = "read",
    what: str | None = None,
) -> npt.NDArray[np.uint8]:
    """The bytes of each access, as an (n, size) array in group order."""
    out = np.empty((lanes.shape[0], size), dtype=np.uint8)
    actor = m.actor(lanes, inst.pc)
    for piece in pieces:
        out[piece.rows] = mem.gather(piece.region, piece.offsets, size)
        _record(m, inst, piece, size, actor, mode, what)
    return out


def store(  # noqa: PLR0917 (mirrors resolve)
    m: Machine,
    inst: Instruction,
    pieces: list[Piece],
    lanes: Lanes,
    data: npt.NDArray[np.uint8],
    size: int,
    *,
    mode: str = "write",
    what: str | None = None,
) -> None:
    actor = m.actor(lanes, inst.pc)
    for piece in pieces:
        if not piece.region.writable:
            m.fail(f"'{inst.opcode}' writes read-only {piece.region.label}", inst)
        _record(m, inst, piece, size, actor, mode, what)
        mem.scatter(piece.region, piece.offsets, data[piece.rows], size)
    m.bump()
