"""Resolving an address in a state space to bytes of a region, with bounds and alignment.

Every access goes through `resolve`, which splits a group of threads by the region their
addresses fall in (a generic address may point anywhere) and stops the run with a located
error on an address outside every region, off the end of one, or not aligned to the size
of the access. `load` and `store` then move the bytes and record the access with the race
checker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tileas_py.sim import memory as mem
from tileas_py.sim.program import Instruction

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

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


def resolve(
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
        or (symbol_space is None and inst.function.kind.value == "func")
    ):
        space = "frame"
    rows = np.arange(lanes.shape[0])
    return _in_space(m, inst, space, addresses, lanes, rows, size)


def _generic(
    m: Machine, inst: Instruction, addresses: Addresses, lanes: Lanes, size: int
) -> list[Piece]:
    windows = (addresses >> np.uint64(mem.WINDOW_SHIFT)).astype(np.int64)
    pieces: list[Piece] = []
    for window in np.unique(windows).tolist():
        rows = np.flatnonzero(windows == window)
        base = window << mem.WINDOW_SHIFT
        local = addresses[rows] - np.uint64(base)
        if window >= mem.GLOBAL_WINDOW:
            pieces.extend(_global(m, inst, addresses[rows], lanes[rows], rows, size))
            continue
        space = {
            mem.SHARED_WINDOW: "shared::cluster",
            mem.LOCAL_WINDOW: "local",
            mem.PARAM_WINDOW: "param",
            mem.CONST_WINDOW: "const",
        }.get(window)
        if space is None:
            _out_of_bounds(
                m, inst, int(addresses[rows[0]]), lanes[rows[0]], size, "no state space"
            )
        pieces.extend(_in_space(m, inst, space, local, lanes[rows], rows, size))
    return pieces


def _in_space(
    m: Machine,
    inst: Instruction,
    space: str,
    addresses: Addresses,
    lanes: Lanes,
    rows: Lanes,
    size: int,
) -> list[Piece]:
    offsets = addresses.astype(np.int64)
    geometry = m.geometry
    if space == "global":
        return _global(m, inst, addresses, lanes, rows, size)
    if space in ("shared", "shared::cluster"):
        region = m.shared
        ctas = geometry.lane_cta[lanes]
        if space == "shared::cluster":
            ranks = (addresses >> np.uint64(mem.RANK_SHIFT)).astype(np.int64)
            mapped = ranks > 0
            if mapped.any():
                offsets = np.where(mapped, offsets & mem.OFFSET_MASK, offsets)
                rank = ranks - 1
                bad = mapped & (rank >= geometry.cluster_size)
                if bad.any():
                    i = int(np.flatnonzero(bad)[0])
                    _out_of_bounds(
                        m,
                        inst,
                        int(addresses[i]),
                        lanes[i],
                        size,
                        "a CTA rank outside the cluster",
                    )
                cluster = geometry.cta_cluster[ctas]
                ctas = np.where(
                    mapped,
                    geometry.cluster_members[cluster, np.where(mapped, rank, 0)],
                    ctas,
                )
        _check_bounds(
            m, inst, offsets, lanes, size, region.size, "shared memory", addresses
        )
        return [Piece(region, ctas * region.size + offsets, rows)]
    if space == "local":
        region = m.local
        _check_bounds(
            m, inst, offsets, lanes, size, region.size, "local memory", addresses
        )
        return [Piece(region, lanes * region.size + offsets, rows)]
    if space == "frame":
        region = m.frame
        _check_bounds(
            m, inst, offsets, lanes, size, region.size, "parameter frame", addresses
        )
        return [Piece(region, lanes * region.size + offsets, rows)]
    if space == "param":
        region = m.params
        _check_bounds(
            m, inst, offsets, lanes, size, region.size, "kernel parameters", addresses
        )
        return [Piece(region, offsets, rows)]
    if space == "const":
        region = m.const
        _check_bounds(
            m, inst, offsets, lanes, size, region.size, "constant memory", addresses
        )
        return [Piece(region, offsets, rows)]
    m.fail(f"state space '.{space}' is not supported", inst)


def _global(
    m: Machine,
    inst: Instruction,
    addresses: Addresses,
    lanes: Lanes,
    rows: Lanes,
    size: int,
) -> list[Piece]:
    relative = addresses.astype(np.int64) - mem.GENERIC_GLOBAL
    allocation = relative >> mem.ALLOCATION_SHIFT
    offsets = relative & ((1 << mem.ALLOCATION_SHIFT) - 1)
    pieces: list[Piece] = []
    for index in np.unique(allocation).tolist():
        chosen = np.flatnonzero(allocation == index)
        if index < 0 or index >= len(m.globals):
            i = int(chosen[0])
            _out_of_bounds(m, inst, int(addresses[i]), lanes[i], size, "no allocation")
        region = m.globals[index]
        _check_bounds(
            m,
            inst,
            offsets[chosen],
            lanes[chosen],
            size,
            region.size,
            region.label,
            addresses[chosen],
        )
        pieces.append(Piece(region, offsets[chosen], rows[chosen]))
    return pieces


def _check_bounds(
    m: Machine,
    inst: Instruction,
    offsets: Lanes,
    lanes: Lanes,
    size: int,
    limit: int,
    what: str,
    addresses: Addresses,
) -> None:
    bad = (offsets < 0) | (offsets + size > limit)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        _out_of_bounds(
            m,
            inst,
            int(addresses[i]),
            lanes[i],
            size,
            f"{what} of {limit} bytes (offset {int(offsets[i])})",
        )


def _out_of_bounds(
    m: Machine, inst: Instruction, address: int, lane: np.int64, size: int, where: str
) -> None:
    m.fail(
        f"out-of-bounds {size}-byte access at address {address:#x}, outside {where}, "
        f"by {m.describe_lanes(np.array([lane]))}",
        inst,
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
    return out


def store(
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
        mem.scatter(piece.region, piece.offsets, data[piece.rows], size)
    m.bump()
