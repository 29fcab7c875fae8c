"""Cluster launch control (sm_100): a running CTA takes over the work of one not yet launched.

`clusterlaunchcontrol.try_cancel.async` asks to cancel the launch of a cluster of the grid
that has not started (a CTA, without clusters): if there is one, it will never run, and the
16-byte response names its first CTA; else the response says the request failed. The
response is written asynchronously to shared memory (with `.multicast::cluster::all` to
the same offset in every CTA of the requester's cluster) and completes 16 bytes of
transaction on the mbarrier at the same place. `query_cancel.is_canceled` and
`query_cancel.get_first_ctaid` decode it.

The simulator runs a grid in waves (`geometry.waves`; `launch(resident_ctas=...)` makes
them small): the clusters of the later waves are the ones not yet launched, canceled in
launch order. The response's encoding is not public; here its low 8 bytes hold the answer
(bit 0: canceled; the first CTA's x, y and z in bits 1-21, 22-42 and 43-63) and the rest are
zero, so it survives the simulator's 64-bit storage of `.b128` registers.
PTX ISA, "clusterlaunchcontrol.try_cancel", "clusterlaunchcontrol.query_cancel":
https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-clusterlaunchcontrol-try-cancel
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tileas_py.sim import memory as mem
from tileas_py.sim.geometry import count, grid_clusters
from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.async_copy import async_access, start
from tileas_py.sim.isa.mbarrier import complete_tx, locate
from tileas_py.sim.isa.operands import (
    Operand,
    Vector,
    address_reader,
    reader,
    writer,
)
from tileas_py.sim.isa.tcgen05 import module_arch, on_target
from tileas_py.sim.program import Action, Instruction
from tileas_py.sim.ptx_types import ptx_type

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]
U32 = ptx_type("u32")
U64 = ptx_type("u64")
PRED = ptx_type("pred")
RESPONSE_BYTES = 16
_AXIS_BITS = 21


def encode_response(first: tuple[int, int, int] | None) -> bytes:
    """The simulator's 16-byte response: None for a failed request."""
    if first is None:
        return bytes(RESPONSE_BYTES)
    x, y, z = first
    word = 1 | x << 1 | y << (1 + _AXIS_BITS) | z << (1 + 2 * _AXIS_BITS)
    return word.to_bytes(8, "little") + bytes(8)


@semantics("clusterlaunchcontrol", klass="async")
def compile_cluster_launch_control(
    m: Machine, inst: Instruction, ops: list[Operand]
) -> Action:
    action = inst.parts[1]
    if action == "try_cancel":
        compiled = _compile_try_cancel(m, inst, ops)
    elif action == "query_cancel":
        compiled = _compile_query(m, inst, ops)
    else:
        raise Unsupported(inst.opcode)
    arch = module_arch(inst)
    return on_target(
        compiled, inst, "an sm_100 or later target", arch is None or arch.version >= 100
    )


def _next_cluster(m: Machine) -> list[int] | None:
    """Cancel the first cluster of the launch that has not started: its CTAs (grid
    indices, by rank), or None when every cluster has started."""
    queue: list[int] = m.state.get("launch_queue", [])
    if not queue:
        return None
    g = m.geometry
    size = count(g.cluster)
    ordered = grid_clusters(g.grid, g.cluster).tolist()
    first = queue[0]
    at = ordered.index(first)
    cluster = ordered[at - at % size : at - at % size + size]
    del queue[: len(cluster)]
    canceled: set[int] = m.state.setdefault("canceled_ctas", set())
    canceled.update(cluster)
    return cluster


def _compile_try_cancel(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    multicast = "multicast::cluster::all" in parts
    read_dst, dst_symbol = address_reader(m, inst, ops[0])
    read_bar, bar_symbol = address_reader(m, inst, ops[1])

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        g = m.geometry
        dst_ctas, dst_offsets = locate(
            m, inst, "shared", read_dst(m, lanes), lanes, dst_symbol
        )
        bar_ctas, bar_offsets = locate(
            m, inst, "shared", read_bar(m, lanes), lanes, bar_symbol
        )
        for i, lane in enumerate(lanes.tolist()):
            offset = int(dst_offsets[i])
            if offset % RESPONSE_BYTES:
                m.fail(
                    f"the response of try_cancel must be 16-byte aligned, got "
                    f"shared[{offset:#x}]",
                    inst,
                )
            cluster = _next_cluster(m)
            first = None
            if cluster is not None:
                xyz = np.unravel_index(cluster[0], g.grid[::-1])
                first = (int(xyz[2]), int(xyz[1]), int(xyz[0]))
            response = np.frombuffer(encode_response(first), dtype=np.uint8)
            targets = [int(dst_ctas[i])]
            if multicast:
                members = g.cluster_members[int(g.cta_cluster[g.lane_cta[lane]])]
                targets = [int(c) for c in members]
            op = start(
                m,
                lane,
                ("clusterlaunchcontrol", lane, int(bar_offsets[i])),
                f"try_cancel responses of thread {lane}",
                inst.pc,
            )
            for cta in targets:
                flat = np.array([cta * m.shared.size + offset])
                async_access(
                    m,
                    inst,
                    op,
                    m.shared,
                    flat,
                    RESPONSE_BYTES,
                    "write",
                    proxy=False,
                    what="try_cancel response write",
                )
                mem.scatter(m.shared, flat, response.reshape(1, -1), RESPONSE_BYTES)
                bar_cta = cta if multicast else int(bar_ctas[i])
                complete_tx(
                    m,
                    inst,
                    (bar_cta, int(bar_offsets[i])),
                    RESPONSE_BYTES,
                    lane,
                    op.done,
                )
        m.bump()

    return run


def _compile_query(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    read_response = reader(m, inst, ops[1], U64)
    if "is_canceled" in parts:
        write_flag = writer(m, inst, ops[0], PRED)

        def is_canceled(m: Machine, lanes: Lanes) -> None:
            word = read_response(m, lanes).astype(np.uint64)
            write_flag(m, lanes, (word & np.uint64(1)).astype(np.bool_))

        return is_canceled
    axis_part = next((p for p in parts if p.startswith("get_first_ctaid")), None)
    if axis_part is None:
        raise Unsupported(inst.opcode)
    axes: str = "xyz" if axis_part == "get_first_ctaid" else axis_part[-1]
    destinations = ops[0].elements if isinstance(ops[0], Vector) else (ops[0],)
    writes = [writer(m, inst, d, U32) for d in destinations]

    def get_first_ctaid(m: Machine, lanes: Lanes) -> None:
        word = read_response(m, lanes).astype(np.uint64)
        mask = np.uint64((1 << _AXIS_BITS) - 1)
        for k, write in enumerate(writes):
            if k >= len(axes):
                write(m, lanes, np.zeros_like(lanes, dtype=np.uint32))
                continue
            axis = "xyz".index(axes[k])
            shift = np.uint64(1 + _AXIS_BITS * axis)
            write(m, lanes, ((word >> shift) & mask).astype(np.uint32))

    return get_first_ctaid
