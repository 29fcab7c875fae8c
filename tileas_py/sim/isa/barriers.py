"""CTA barriers (`bar`, `barrier`), cluster barriers (`barrier.cluster`), fences.

A CTA barrier counts arriving threads per (CTA, barrier id) until its expected count (the
instruction's thread count, or every thread of the CTA that has not exited); then the
threads waiting at it go on, and each has acquired the clocks of every thread that arrived
(`bar.arrive` releases without waiting). `bar.red` also combines a predicate or count
over the arriving threads. `barrier.cluster.arrive` / `.wait` are the split cluster-wide
barrier: a wait returns once every thread of the cluster has arrived in the phase the
waiting thread arrived in.

`fence.proxy.async` covers the generic writes ordered before it for the async proxy (see
`tileas_py.sim.races`). The other fences and `membar` are the fences of the PTX memory
model's release and acquire patterns: relaxed strong operations synchronise through them
(`clocks.VectorClocks.fence`); arriving at a CTA barrier acquires what the thread's relaxed
reads observed. The simulator's memory is
sequentially consistent, so fences move no data.
PTX ISA, "Parallel Synchronization and Communication Instructions":
https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tileas_py.sim.clocks import Clock, join
from tileas_py.sim.geometry import WARP
from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.collective import converge, wake_all_convergence
from tileas_py.sim.isa.operands import Operand, Writer, reader, writer
from tileas_py.sim.program import Action, Instruction
from tileas_py.sim.ptx_types import ptx_type

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]
U32 = ptx_type("u32")
PRED = ptx_type("pred")


@dataclass
class CtaBarrier:
    """One named barrier of one CTA, between two completions.

    Arrival is per warp: a thread's arrival waits for the warp's other threads that have
    not exited, and then the warp arrives for all of them (a warp counts as 32 threads
    against the barrier's thread count).
    """

    pending: dict[int, int] = field(default_factory=dict[int, int])
    """Per warp, threads arrived that have not yet made a warp arrival."""
    warps: int = 0
    """Warp arrivals."""
    threads: int = 0
    """Thread arrivals (for reports)."""
    expected: int | None = None
    """The instruction's thread count; None: every warp of the CTA that has not exited."""
    waiting: list[Lanes] = field(default_factory=list[Lanes])
    clock: Clock | None = None
    reduction: list[npt.NDArray[np.bool_]] = field(
        default_factory=list[npt.NDArray[np.bool_]]
    )
    reduce_lanes: list[Lanes] = field(default_factory=list[Lanes])
    op: str | None = None
    result_writer: Writer | None = None


def _barriers(m: Machine) -> dict[tuple[int, int], CtaBarrier]:
    return m.state.setdefault("cta_barriers", {})


def _not_exited(m: Machine, first: int, count: int) -> npt.NDArray[np.bool_]:
    from tileas_py.sim.machine import EXITED

    window = slice(first, first + count)
    return m.geometry.live[window] & (m.status[window] != EXITED)


def _cta_threads_left(m: Machine, cta: int) -> int:
    padded = m.geometry.padded
    return int(_not_exited(m, cta * padded, padded).sum())


def _cta_warps_left(m: Machine, cta: int) -> int:
    padded = m.geometry.padded
    left = _not_exited(m, cta * padded, padded).reshape(-1, WARP)
    return int(left.any(axis=1).sum())


def _gathered(m: Machine, inst: Instruction, lanes: Lanes, *, aligned: bool) -> Lanes:
    """The lanes that run a barrier now: all of them, or of an `.aligned` one those whose
    warps have gathered (threads that exited are not waited for)."""
    if aligned:
        return converge(m, inst, lanes, WARP, exited_ok=True)
    return lanes


@semantics("bar", "barrier", klass="sync")
def compile_bar(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    if len(parts) > 1 and parts[1] == "cluster":
        return _compile_cluster(m, inst, ops)
    if len(parts) > 1 and parts[1] == "warp":
        return _compile_warp_sync(m, inst, ops)
    words = [p for p in parts[1:] if p != "cta"]
    kind = words[0] if words else "sync"
    aligned = inst.root == "bar" or "aligned" in parts
    operands = list(ops)
    result_writer = None
    if kind == "red":
        result = operands.pop(0)
        op = words[1]
        result_type = PRED if op in ("and", "or") else U32
        result_writer = writer(m, inst, result, result_type)
    else:
        op = None
    read_id = reader(m, inst, operands[0], U32)
    read_count = None
    predicate = None
    rest = operands[1:]
    if kind == "red":
        predicate = reader(m, inst, rest.pop(), PRED)
    if rest:
        read_count = reader(m, inst, rest[0], U32)
    if kind not in ("sync", "arrive", "red"):
        raise Unsupported(f"barrier form '{kind}'")
    waits = kind != "arrive"

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = _gathered(m, inst, lanes, aligned=aligned)
        if lanes.size == 0:
            return
        ids = read_id(m, lanes)
        counts = read_count(m, lanes) if read_count is not None else None
        flags = predicate(m, lanes) if predicate is not None else None
        ctas = m.geometry.lane_cta[lanes]
        keys = ctas.astype(np.int64) * 16 + ids.astype(np.int64)
        for key in np.unique(keys).tolist():
            chosen = keys == key
            group = lanes[chosen]
            cta, barrier_id = divmod(key, 16)
            if barrier_id > 15:
                m.fail(f"barrier {barrier_id} is outside 0..15", inst)
            state = _barriers(m).setdefault((cta, barrier_id), CtaBarrier())
            if counts is not None:
                count = int(counts[chosen][0])
                if count <= 0 or count % WARP:
                    m.fail(
                        f"barrier thread count {count} is not a positive multiple of "
                        f"{WARP}",
                        inst,
                    )
                state.expected = count
            elif kind == "arrive":
                m.fail("bar.arrive needs a thread count", inst)
            for warp in np.unique(group // WARP).tolist():
                state.pending[warp] = state.pending.get(warp, 0) + int(
                    (group // WARP == warp).sum()
                )
            state.threads += int(group.size)
            if m.clocks is not None:
                # What the threads' relaxed reads observed joins their clocks first (an
                # acquire fence, as CUDA's __syncthreads is taken to be), so that the
                # barrier passes it on.
                m.clocks.acquire_deferred(group)
                published = m.clocks.release(group)
                state.clock = (
                    published if state.clock is None else join(state.clock, published)
                )
            if waits:
                state.waiting.append(group)
                m.report.barrier_waits += int(group.size)
                if flags is not None and result_writer is not None:
                    state.reduction.append(flags[chosen])
                    state.reduce_lanes.append(group)
                    state.op = op
                    state.result_writer = result_writer
                m.block(
                    group,
                    ("bar", cta, barrier_id),
                    f"barrier {barrier_id} ({_expected_text(m, cta, barrier_id)})",
                    at=inst,
                )
            _try_complete(m, cta, barrier_id)
        m.bump()

    return run


def _expected_text(m: Machine, cta: int, barrier_id: int) -> str:
    state = _barriers(m).get((cta, barrier_id))
    if state is None:
        return "complete"
    expected = (
        state.expected if state.expected is not None else _cta_threads_left(m, cta)
    )
    return f"{state.threads} of {expected} threads arrived"


def _count_warps(m: Machine, state: CtaBarrier) -> None:
    """Turn the warps whose threads that have not exited have all arrived into warp
    arrivals."""
    for warp, arrived in list(state.pending.items()):
        left = int(_not_exited(m, warp * WARP, WARP).sum())
        if arrived >= left:
            state.warps += 1
            del state.pending[warp]


def _try_complete(m: Machine, cta: int, barrier_id: int) -> None:
    state = _barriers(m).get((cta, barrier_id))
    if state is None or state.threads == 0:
        return
    _count_warps(m, state)
    if state.expected is not None:
        done = state.warps * WARP >= state.expected
    else:
        done = state.warps >= _cta_warps_left(m, cta)
    if not done:
        return
    del _barriers(m)[(cta, barrier_id)]
    waiting = (
        np.concatenate(state.waiting) if state.waiting else np.zeros(0, dtype=np.int64)
    )
    if m.clocks is not None and state.clock is not None and waiting.size:
        m.clocks.acquire(waiting, state.clock)
    if state.reduce_lanes and state.result_writer is not None:
        every = np.concatenate(state.reduction)
        reduced = np.concatenate(state.reduce_lanes)
        result: npt.NDArray[np.generic]
        if state.op == "popc":
            result = np.full(reduced.size, int(every.sum()), dtype=np.uint32)
        elif state.op == "and":
            result = np.full(reduced.size, bool(every.all()), dtype=np.bool_)
        else:
            result = np.full(reduced.size, bool(every.any()), dtype=np.bool_)
        state.result_writer(m, reduced, result)
    m.wake(("bar", cta, barrier_id))


def on_exit(m: Machine, lanes: Lanes) -> None:
    """Threads exited: barriers that counted on them may now be complete."""
    ctas = np.unique(m.geometry.lane_cta[lanes]).tolist()
    for cta, barrier_id in list(_barriers(m)):
        if cta in ctas:
            _try_complete(m, cta, barrier_id)
    clusters = np.unique(
        m.geometry.cta_cluster[np.array(ctas, dtype=np.int64)]
    ).tolist()
    for cluster in clusters:
        _try_complete_cluster(m, cluster)
    wake_all_convergence(m)
    from tileas_py.sim.isa.wgmma import on_thread_exit

    on_thread_exit(m, lanes)


# -- cluster barriers --------------------------------------------------------------------------


@dataclass
class ClusterBarrier:
    phase: int = 0
    arrived: int = 0
    clock: Clock | None = None
    completed: dict[int, Clock | None] = field(
        default_factory=dict[int, "Clock | None"]
    )


def _cluster_state(
    m: Machine,
) -> tuple[dict[int, ClusterBarrier], npt.NDArray[np.int64]]:
    barriers: dict[int, ClusterBarrier] = m.state.setdefault("cluster_barriers", {})
    if "cluster_arrived" not in m.state:
        m.state["cluster_arrived"] = np.full(m.lanes, -1, dtype=np.int64)
    return barriers, m.state["cluster_arrived"]


def _compile_cluster(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    action = parts[2]
    relaxed = "relaxed" in parts
    aligned = "aligned" in parts

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = _gathered(m, inst, lanes, aligned=aligned)
        if lanes.size == 0:
            return
        barriers, arrived = _cluster_state(m)
        clusters = m.geometry.cta_cluster[m.geometry.lane_cta[lanes]]
        for cluster in np.unique(clusters).tolist():
            group = lanes[clusters == cluster]
            state = barriers.setdefault(cluster, ClusterBarrier())
            if action == "arrive":
                again = group[arrived[group] == state.phase]
                if again.size:
                    m.fail(
                        f"{m.describe_lanes(again)} arrive twice at the cluster barrier",
                        inst,
                    )
                arrived[group] = state.phase
                state.arrived += int(group.size)
                if m.clocks is not None:
                    published = (
                        m.clocks.fenced_clock(group)
                        if relaxed
                        else m.clocks.release(group)
                    )
                    if published is not None:
                        state.clock = (
                            published
                            if state.clock is None
                            else join(state.clock, published)
                        )
                _try_complete_cluster(m, cluster)
            elif action == "wait":
                phases = arrived[group]
                missing = group[phases < 0]
                if missing.size:
                    m.fail(
                        f"{m.describe_lanes(missing)} wait at the cluster barrier without arriving",
                        inst,
                    )
                done = group[phases < state.phase]
                pending = group[phases >= state.phase]
                _acquire_cluster(m, state, done, phases[phases < state.phase])
                arrived[done] = -1
                m.report.barrier_waits += int(group.size)
                if pending.size:
                    m.block(
                        pending,
                        ("cluster", cluster),
                        "the cluster barrier",
                        at=inst,
                        retry=True,
                    )
            else:
                raise Unsupported(f"barrier.cluster.{action}")
        m.bump()

    return run


def _acquire_cluster(
    m: Machine, state: ClusterBarrier, lanes: Lanes, phases: npt.NDArray[np.int64]
) -> None:
    if m.clocks is None or lanes.size == 0:
        return
    for phase in np.unique(phases).tolist():
        clock = state.completed.get(phase)
        if clock is not None:
            m.clocks.acquire(lanes[phases == phase], clock)


def _try_complete_cluster(m: Machine, cluster: int) -> None:
    """The phase completes when every thread of the cluster that has not exited has
    arrived in it (a thread that arrived and then exited counts once, as it should)."""
    barriers, arrived = _cluster_state(m)
    state = barriers.get(cluster)
    if state is None or state.arrived == 0:
        return
    padded = m.geometry.padded
    for cta in m.geometry.cluster_members[cluster].tolist():
        window = slice(cta * padded, (cta + 1) * padded)
        if (
            _not_exited(m, cta * padded, padded) & (arrived[window] != state.phase)
        ).any():
            return
    state.completed[state.phase] = state.clock
    state.completed.pop(state.phase - 2, None)
    state.phase += 1
    state.arrived = 0
    state.clock = None
    m.wake(("cluster", cluster))


# -- warp sync and fences --------------------------------------------------------------------


def _compile_warp_sync(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    read_mask = reader(m, inst, ops[0], U32)

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        lanes = converge(m, inst, lanes, 32, read_mask(m, lanes))
        if lanes.size and m.clocks is not None:
            for warp in np.unique(lanes // 32).tolist():
                group = lanes[lanes // 32 == warp]
                m.clocks.acquire(group, m.clocks.release(group))

    return run


@semantics("membar", "fence", klass="sync")
def compile_fence(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    if inst.root == "fence" and len(parts) > 1 and parts[1] == "proxy":
        if len(parts) > 2 and parts[2] == "async":
            return _compile_proxy_fence(parts)
        # Other proxies (tensormap, alias) order nothing the checker tracks.
        return lambda m, lanes: None

    def fence(m: Machine, lanes: Lanes) -> None:
        if lanes.size and m.clocks is not None:
            m.clocks.fence(lanes)

    return fence


def _compile_proxy_fence(parts: list[str]) -> Action:
    spaces = [
        p
        for p in parts[3:]
        if p in ("shared::cta", "shared::cluster", "global", "shared")
    ]

    def proxy_fence(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0 or m.clocks is None:
            return
        m.clocks.tick(lanes)
        for region in m.regions:
            if region.shadow is None:
                continue
            if spaces:
                wanted = "shared" if region is m.shared else "global"
                if not any(s.startswith(wanted) for s in spaces):
                    continue
            region.shadow.fence(lanes)

    return proxy_fence
