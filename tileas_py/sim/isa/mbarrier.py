"""mbarrier objects: arrivals, transaction counts, phases and the waits on them.

An mbarrier (8 bytes of shared memory) counts pending arrivals and a transaction count in
its current phase; the phase completes when both reach zero, and the next phase begins
with the expected count again. Arrivals release the arriving thread's clock into the
phase, `complete_tx` the clock of the asynchronous copy that finished; a thread that sees
the phase complete (`test_wait` / `try_wait`, by parity or by a state token) acquires the
phase's clock.

The checker reports: any operation on an object that is not initialised; `init` while the
object is in use; a transaction count beyond ±(2^20 - 1); more arrivals than a phase expects;
and parity aliasing: a thread waiting by parity for a phase, after that phase and the next
one both completed (it cannot tell that phase from the one two later).

A failed `try_wait` / `test_wait` returns false. A thread that polls the same barrier again
from the same instruction without the barrier having changed is blocked until it changes:
its loop could only spin.
PTX ISA, "mbarrier": https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-mbarrier
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tileas_py.sim.clocks import Clock, join
from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.access import resolve, space_of
from tileas_py.sim.isa.operands import Operand, Sink, address_reader, reader, writer
from tileas_py.sim.program import Action, Instruction
from tileas_py.sim.ptx_types import ptx_type
from tileas_py.sim.report import HazardKind

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]
Key = tuple[int, int]
"""(CTA, shared offset) of an mbarrier object."""

TX_LIMIT = (1 << 20) - 1
NO_OBSERVATION = -2
"""A thread's last observed phase before its first wait: phases -2 and -1 count as done, so
a first wait for parity 1 succeeds at once (the producer-start convention)."""

U32 = ptx_type("u32")
U64 = ptx_type("u64")
PRED = ptx_type("pred")


@dataclass
class Mbarrier:
    expected: int
    pending: int
    tx: int = 0
    phase: int = 0
    """Phases completed so far; the current phase's parity is `phase & 1`."""
    clock: Clock | None = None
    completed: dict[int, Clock | None] = field(
        default_factory=dict[int, "Clock | None"]
    )
    version: int = 0
    valid: bool = True
    observed: dict[int, int] = field(default_factory=dict[int, int])
    """Per thread, the last phase it saw complete."""
    observed_at: dict[int, int] = field(default_factory=dict[int, int])
    """Per thread, its own clock when it saw that phase complete."""
    observed_pc: dict[int, int] = field(default_factory=dict[int, int])
    observed_together: dict[int, tuple[int, int]] = field(
        default_factory=dict[int, tuple[int, int]]
    )
    """Per thread, (warp, scheduler step) of its observation: threads of one warp that see
    the phase in one instruction see it at once."""


def barriers(m: Machine) -> dict[Key, Mbarrier]:
    return m.state.setdefault("mbarriers", {})


def locate(  # noqa: PLR0917 (an access: which instruction, where, by whom)
    m: Machine,
    inst: Instruction,
    space: str,
    addresses: npt.NDArray[np.uint64],
    lanes: Lanes,
    symbol_space: str | None = None,
) -> tuple[Lanes, Lanes]:
    """(CTA, offset) of the mbarrier each lane names; records the access."""
    if space == "generic" or space.startswith("shared"):
        pass
    else:
        m.fail(f"an mbarrier lives in shared memory, not .{space}", inst)
    pieces = resolve(m, inst, space, addresses, lanes, 8, symbol_space=symbol_space)
    ctas = np.zeros(lanes.shape[0], dtype=np.int64)
    offsets = np.zeros(lanes.shape[0], dtype=np.int64)
    for piece in pieces:
        if piece.region is not m.shared:
            m.fail("an mbarrier must be in shared memory", inst)
        cta, offset = np.divmod(piece.offsets, m.shared.size)
        ctas[piece.rows] = cta
        offsets[piece.rows] = offset
    return ctas, offsets


def _barrier_locator(
    m: Machine, inst: Instruction, address: Operand, space: str
) -> Callable[[Machine, Lanes], tuple[Lanes, Lanes]]:
    """How to `locate`, per run, the mbarrier at `address` each lane names."""
    read_address, symbol_space = address_reader(m, inst, address)
    return lambda m, lanes: locate(
        m, inst, space, read_address(m, lanes), lanes, symbol_space
    )


def _record(
    m: Machine,
    inst: Instruction,
    ctas: Lanes,
    offsets: Lanes,
    lanes: Lanes,
    *,
    mode: str,
) -> None:
    actor = m.actor(lanes, inst.pc)
    m.record(
        m.shared, ctas * m.shared.size + offsets, 8, actor, mode, inst, inst.opcode
    )


def _groups(ctas: Lanes, offsets: Lanes) -> list[tuple[Key, npt.NDArray[np.bool_]]]:
    keys = ctas * (1 << 32) + offsets
    return [
        ((int(k >> 32), int(k & 0xFFFFFFFF)), keys == k)
        for k in np.unique(keys).tolist()
    ]


def _get(m: Machine, inst: Instruction, key: Key, lane: int) -> Mbarrier | None:
    barrier = barriers(m).get(key)
    if barrier is None or not barrier.valid:
        m.hazard(
            HazardKind.MBARRIER_UNINITIALIZED,
            f"'{inst.opcode}' on an mbarrier that is not initialised "
            f"(shared[{key[1]:#x}] of CTA {m.geometry.describe_cta(key[0])})",
            m.party(lane, inst.pc),
            key=(HazardKind.MBARRIER_UNINITIALIZED, inst.pc, key[1]),
        )
        return None
    return barrier


def _changed(m: Machine, key: Key, barrier: Mbarrier) -> None:
    barrier.version += 1
    m.bump()
    m.wake(("mbar", key))


def _check_tx(
    m: Machine, inst: Instruction, key: Key, barrier: Mbarrier, lane: int
) -> None:
    if abs(barrier.tx) > TX_LIMIT:
        m.hazard(
            HazardKind.MBARRIER_TX_RANGE,
            f"the transaction count of the mbarrier at shared[{key[1]:#x}] is {barrier.tx}, "
            f"outside ±{TX_LIMIT}",
            m.party(lane, inst.pc),
            key=(HazardKind.MBARRIER_TX_RANGE, inst.pc, key[1]),
        )


def maybe_complete(
    m: Machine, key: Key, barrier: Mbarrier, inst: Instruction | None = None
) -> None:
    if barrier.pending != 0 or barrier.tx != 0:
        return
    _check_observers(m, key, barrier, inst)
    barrier.completed[barrier.phase] = barrier.clock
    barrier.completed.pop(barrier.phase - 4, None)
    barrier.phase += 1
    barrier.pending = barrier.expected
    barrier.clock = None
    _changed(m, key, barrier)


def _check_observers(
    m: Machine, key: Key, barrier: Mbarrier, inst: Instruction | None
) -> None:
    """Phase `barrier.phase` completes: every thread that saw the phase before it by parity
    must have seen it before this completion could happen, or some order of the threads
    lets this phase complete first and the waiter takes it for the earlier one."""
    clock = barrier.clock
    if clock is None or m.clocks is None:
        return
    previous = barrier.phase - 1
    ordered: dict[tuple[int, int], bool] = {}
    late: list[int] = []
    for lane, phase in barrier.observed.items():
        if phase != previous:
            continue
        together = barrier.observed_together.get(lane, (lane, 0))
        seen = (clock[lane] if lane < clock.shape[0] else 0) >= barrier.observed_at.get(
            lane, 0
        )
        ordered[together] = ordered.get(together, False) or bool(seen)
        late.append(lane)
    for lane in late:
        if ordered[barrier.observed_together.get(lane, (lane, 0))]:
            continue
        where = m.program.instructions[barrier.observed_pc.get(lane, 0)]
        m.hazard(
            HazardKind.PARITY_ALIASING,
            f"phase {barrier.phase} of the mbarrier at shared[{key[1]:#x}] can complete "
            f"before this thread has seen phase {previous} complete: its wait by parity "
            f"cannot tell the two apart",
            m.party(lane, where.pc),
            other=m.party(lane, inst.pc, inst.opcode) if inst is not None else None,
            key=(HazardKind.PARITY_ALIASING, where.pc, key[1]),
        )


def released(m: Machine, lanes: Lanes) -> Clock | None:
    """What a relaxed operation of the threads on the barrier publishes: their clocks at
    their last fences."""
    return m.clocks.fenced_clock(lanes) if m.clocks is not None else None


def add_clock(barrier: Mbarrier, clock: Clock | None) -> None:
    if clock is None:
        return
    barrier.clock = (
        clock.copy() if barrier.clock is None else join(barrier.clock, clock)
    )


def expect_tx(
    m: Machine, inst: Instruction, key: Key, count: int, lane: int
) -> Mbarrier | None:
    barrier = _get(m, inst, key, lane)
    if barrier is None:
        return None
    barrier.tx += count
    _check_tx(m, inst, key, barrier, lane)
    return barrier


def complete_tx(  # noqa: PLR0917 (mirrors expect_tx, with the copy's clock)
    m: Machine, inst: Instruction, key: Key, count: int, lane: int, clock: Clock | None
) -> None:
    """`count` bytes of an asynchronous copy arrived (its clock: what the copy knew)."""
    barrier = _get(m, inst, key, lane)
    if barrier is None:
        return
    barrier.tx -= count
    _check_tx(m, inst, key, barrier, lane)
    add_clock(barrier, clock)
    barrier.version += 1
    maybe_complete(m, key, barrier, inst)


def arrive(
    m: Machine,
    inst: Instruction,
    key: Key,
    lanes: Lanes,
    counts: npt.NDArray[np.int64],
    *,
    release: bool,
    no_complete: bool = False,
    drop: bool = False,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Arrive for each lane in turn; returns, per lane, the phase its arrival counted
    toward and the pending count just before it (what its state token captures)."""
    barrier = _get(m, inst, key, int(lanes[0]))
    phases = np.zeros(lanes.shape[0], dtype=np.int64)
    before = np.zeros(lanes.shape[0], dtype=np.int64)
    if barrier is None:
        return phases, before
    clocks = m.clocks
    start = 0
    while start < lanes.shape[0]:
        cumulative = np.cumsum(counts[start:])
        reach = int(np.searchsorted(cumulative, barrier.pending))
        # Lanes start..start+reach-1 leave the phase open; lane start+reach closes it (or
        # overshoots it).
        end = min(start + reach + 1, lanes.shape[0])
        group = lanes[start:end]
        arrived = int(counts[start:end].sum())
        phases[start:end] = barrier.phase
        before[start:end] = barrier.pending - (
            cumulative[: end - start] - counts[start:end]
        )
        if drop:
            barrier.expected -= arrived
        if clocks is not None:
            add_clock(barrier, clocks.release(group) if release else released(m, group))
        barrier.pending -= arrived
        if barrier.pending < 0:
            m.hazard(
                HazardKind.MBARRIER_ARRIVALS,
                f"{barrier.expected - barrier.pending} arrivals in a phase of the mbarrier at "
                f"shared[{key[1]:#x}], which expects {barrier.expected}",
                m.party(int(group[-1]), inst.pc),
                key=(HazardKind.MBARRIER_ARRIVALS, inst.pc, key[1]),
            )
            barrier.pending = 0
        if no_complete and barrier.pending == 0 and barrier.tx == 0:
            m.hazard(
                HazardKind.MBARRIER_ARRIVALS,
                "'.noComplete' arrival completes the phase",
                m.party(int(group[-1]), inst.pc),
                key=(HazardKind.MBARRIER_ARRIVALS, inst.pc, key[1], "noComplete"),
            )
        barrier.version += 1
        maybe_complete(m, key, barrier, inst)
        start = end
    m.bump()
    return phases, before


def phase_done(
    barrier: Mbarrier,
    parity: npt.NDArray[np.int64] | None,
    token: npt.NDArray[np.int64] | None,
) -> npt.NDArray[np.bool_]:
    if parity is not None:
        return np.not_equal(parity & 1, barrier.phase & 1)
    assert token is not None
    return np.less(token, barrier.phase)


def observe(
    m: Machine,
    inst: Instruction,
    key: Key,
    barrier: Mbarrier,
    lanes: Lanes,
    *,
    parity: npt.NDArray[np.int64] | None,
    token: npt.NDArray[np.int64] | None,
    acquire: bool,
) -> npt.NDArray[np.bool_]:
    """Which lanes see their phase complete; they acquire it (a relaxed wait: at their
    next fence) and are checked for aliasing."""
    done = phase_done(barrier, parity, token)
    if parity is not None:
        _check_aliasing(m, inst, key, barrier, lanes, parity=parity)
    seen = lanes[done]
    if seen.size:
        completed = barrier.phase - 1 if parity is not None else None
        if m.clocks is not None:
            take = m.clocks.acquire if acquire else m.clocks.defer
            if completed is not None:
                clock = barrier.completed.get(completed)
                if clock is not None:
                    take(seen, clock)
            else:
                assert token is not None
                for phase in np.unique(token[done]).tolist():
                    clock = barrier.completed.get(phase)
                    if clock is not None:
                        take(seen[token[done] == phase], clock)
        own = (
            m.clocks.own(seen)
            if m.clocks is not None
            else np.zeros(seen.shape[0], dtype=np.int32)
        )
        for lane, clock in zip(seen.tolist(), own.tolist(), strict=True):
            barrier.observed[lane] = barrier.phase - 1
            barrier.observed_at[lane] = clock
            barrier.observed_pc[lane] = inst.pc
            barrier.observed_together[lane] = (lane // 32, m.steps)
        m.report.mbarrier_waits += int(seen.size)
    return done


def _check_aliasing(
    m: Machine,
    inst: Instruction,
    key: Key,
    barrier: Mbarrier,
    lanes: Lanes,
    *,
    parity: npt.NDArray[np.int64],
) -> None:
    for lane, p in zip(lanes.tolist(), parity.tolist(), strict=True):
        last = barrier.observed.get(lane, NO_OBSERVATION)
        wanted = last + 1 if ((last + 1) & 1) == (p & 1) else last + 2
        if barrier.phase >= wanted + 2:
            m.hazard(
                HazardKind.PARITY_ALIASING,
                f"waits by parity {p & 1} for phase {wanted} of the mbarrier at "
                f"shared[{key[1]:#x}], but phases {wanted} and {wanted + 1} have both "
                f"completed: the wait cannot tell them from phase {wanted + 2}",
                m.party(lane, inst.pc),
                key=(HazardKind.PARITY_ALIASING, inst.pc, key[1]),
            )
            return


# -- the instructions -----------------------------------------------------------------------------


@semantics("mbarrier", klass="sync")
def compile_mbarrier(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    action = parts[1]
    space = space_of(inst.opcode)
    if action == "init":
        return _compile_init(m, inst, ops, space)
    if action == "inval":
        return _compile_inval(m, inst, ops, space)
    if action in ("expect_tx", "complete_tx"):
        return _compile_tx(m, inst, ops, space, action)
    if action in ("arrive", "arrive_drop"):
        return _compile_arrive(m, inst, ops, space)
    if action in ("test_wait", "try_wait"):
        return _compile_wait(m, inst, ops, space)
    if action == "pending_count":
        read = reader(m, inst, ops[1], U64)
        write = writer(m, inst, ops[0], U32)
        return lambda m, lanes: write(
            m, lanes, (read(m, lanes) >> np.uint64(32)).astype(np.uint32)
        )
    raise Unsupported(f"mbarrier.{action}")


def _compile_init(
    m: Machine, inst: Instruction, ops: list[Operand], space: str
) -> Action:
    locate_barriers = _barrier_locator(m, inst, ops[0], space)
    read_count = reader(m, inst, ops[1], U32)

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        ctas, offsets = locate_barriers(m, lanes)
        counts = read_count(m, lanes)
        _record(m, inst, ctas, offsets, lanes, mode="write")
        for key, chosen in _groups(ctas, offsets):
            lane = int(lanes[chosen][-1])
            count = int(counts[chosen][-1])
            old = barriers(m).get(key)
            if (
                old is not None
                and old.valid
                and (
                    old.pending != old.expected
                    or old.tx != 0
                    or ("mbar", key) in m.waiters
                )
            ):
                m.hazard(
                    HazardKind.MBARRIER_REINIT,
                    f"mbarrier.init of the mbarrier at shared[{key[1]:#x}] while it is in use "
                    f"({old.expected - old.pending} of {old.expected} arrivals, tx-count {old.tx})",
                    m.party(lane, inst.pc),
                    key=(HazardKind.MBARRIER_REINIT, inst.pc, key[1]),
                )
            if not 1 <= count <= TX_LIMIT:
                m.fail(f"mbarrier.init count {count} is outside 1..{TX_LIMIT}", inst)
            version = old.version + 1 if old is not None else 0
            barriers(m)[key] = Mbarrier(count, count, version=version)
            m.wake(("mbar", key))
        m.bump()

    return run


def _compile_inval(
    m: Machine, inst: Instruction, ops: list[Operand], space: str
) -> Action:
    locate_barriers = _barrier_locator(m, inst, ops[0], space)

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        ctas, offsets = locate_barriers(m, lanes)
        _record(m, inst, ctas, offsets, lanes, mode="write")
        for key, chosen in _groups(ctas, offsets):
            barrier = _get(m, inst, key, int(lanes[chosen][0]))
            if barrier is not None:
                barrier.valid = False
        m.bump()

    return run


def _compile_tx(
    m: Machine, inst: Instruction, ops: list[Operand], space: str, action: str
) -> Action:
    locate_barriers = _barrier_locator(m, inst, ops[0], space)
    read_count = reader(m, inst, ops[1], U32)

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        ctas, offsets = locate_barriers(m, lanes)
        counts = read_count(m, lanes).astype(np.int64)
        _record(m, inst, ctas, offsets, lanes, mode="atomic")
        for key, chosen in _groups(ctas, offsets):
            group = lanes[chosen]
            total = int(counts[chosen].sum())
            # Both are relaxed: they publish what the threads' fences released.
            if action == "expect_tx":
                barrier = expect_tx(m, inst, key, total, int(group[0]))
                if barrier is not None:
                    add_clock(barrier, released(m, group))
                    maybe_complete(m, key, barrier, inst)
            else:
                complete_tx(m, inst, key, total, int(group[0]), released(m, group))
        m.bump()

    return run


def _compile_arrive(
    m: Machine, inst: Instruction, ops: list[Operand], space: str
) -> Action:
    parts = inst.parts
    with_tx = "expect_tx" in parts
    no_complete = "noComplete" in parts
    drop = parts[1] == "arrive_drop"
    release = "relaxed" not in parts
    operands = list(ops)
    state_writer = None
    first = operands[0]
    if not _is_address(first):
        operands.pop(0)
        if not isinstance(first, Sink):
            state_writer = writer(m, inst, first, U64)
    locate_barriers = _barrier_locator(m, inst, operands[0], space)
    extra = operands[1:]
    read_tx = reader(m, inst, extra.pop(0), U32) if with_tx else None
    read_count = reader(m, inst, extra[0], U32) if extra else None

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        ctas, offsets = locate_barriers(m, lanes)
        counts = (
            read_count(m, lanes).astype(np.int64)
            if read_count is not None
            else np.ones(lanes.shape[0], dtype=np.int64)
        )
        _record(m, inst, ctas, offsets, lanes, mode="atomic")
        tokens = np.zeros(lanes.shape[0], dtype=np.uint64)
        for key, chosen in _groups(ctas, offsets):
            group = lanes[chosen]
            if read_tx is not None:
                total = int(read_tx(m, group).astype(np.int64).sum())
                if expect_tx(m, inst, key, total, int(group[0])) is None:
                    continue
            phases, before = arrive(
                m,
                inst,
                key,
                group,
                counts[chosen],
                release=release,
                no_complete=no_complete,
                drop=drop,
            )
            tokens[chosen] = (phases.astype(np.uint64) & np.uint64(0xFFFFFFFF)) | (
                before.astype(np.uint64) << np.uint64(32)
            )
        if state_writer is not None:
            state_writer(m, lanes, tokens)

    return run


def _is_address(operand: Operand) -> bool:
    from tileas_py.sim.isa.operands import Address

    return isinstance(operand, Address)


def _compile_wait(
    m: Machine, inst: Instruction, ops: list[Operand], space: str
) -> Action:
    parts = inst.parts
    by_parity = "parity" in parts
    acquire = "relaxed" not in parts
    write_done = writer(m, inst, ops[0], PRED)
    locate_barriers = _barrier_locator(m, inst, ops[1], space)
    read_phase = reader(m, inst, ops[2], U32 if by_parity else U64)

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        ctas, offsets = locate_barriers(m, lanes)
        _record(m, inst, ctas, offsets, lanes, mode="atomic")
        values = read_phase(m, lanes).astype(np.int64)
        done = np.ones(lanes.shape[0], dtype=np.bool_)
        for key, chosen in _groups(ctas, offsets):
            group = lanes[chosen]
            barrier = _get(m, inst, key, int(group[0]))
            if barrier is None:
                continue
            parity = values[chosen] if by_parity else None
            token = (values[chosen] & 0xFFFFFFFF) if not by_parity else None
            seen = observe(
                m,
                inst,
                key,
                barrier,
                group,
                parity=parity,
                token=token,
                acquire=acquire,
            )
            done[chosen] = seen
            _poll(m, inst, key, barrier, group[~seen])
        write_done(m, lanes, done)

    return run


def _poll(
    m: Machine, inst: Instruction, key: Key, barrier: Mbarrier, lanes: Lanes
) -> None:
    """Failed waits: block the lanes that already polled here with nothing changed."""
    if lanes.size == 0:
        return
    polls: dict[str, npt.NDArray[np.int64]] = m.state.setdefault("polls", {})
    if not polls:
        polls["pc"] = np.full(m.lanes, -1, dtype=np.int64)
        polls["version"] = np.full(m.lanes, -1, dtype=np.int64)
        polls["key"] = np.full(m.lanes, -1, dtype=np.int64)
    flat_key = key[0] * (1 << 32) + key[1]
    again = (
        (polls["pc"][lanes] == inst.pc)
        & (polls["version"][lanes] == barrier.version)
        & (polls["key"][lanes] == flat_key)
    )
    spinning = lanes[again]
    polls["pc"][lanes] = inst.pc
    polls["version"][lanes] = barrier.version
    polls["key"][lanes] = flat_key
    if spinning.size:
        polls["pc"][spinning] = -1
        m.block(
            spinning,
            ("mbar", key),
            f"a phase of the mbarrier at shared[{key[1]:#x}]",
            at=inst,
            retry=True,
        )


@semantics("_mbarrier", klass="sync")
def compile_blocking_wait(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """ptxas's `_mbarrier.try_wait.parity` pseudo-instruction: wait until the phase completes."""
    space = space_of(inst.opcode)
    locate_barriers = _barrier_locator(m, inst, ops[0], space)
    read_parity = reader(m, inst, ops[1], U32)

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        ctas, offsets = locate_barriers(m, lanes)
        _record(m, inst, ctas, offsets, lanes, mode="atomic")
        parity = read_parity(m, lanes).astype(np.int64)
        for key, chosen in _groups(ctas, offsets):
            group = lanes[chosen]
            barrier = _get(m, inst, key, int(group[0]))
            if barrier is None:
                continue
            seen = observe(
                m,
                inst,
                key,
                barrier,
                group,
                parity=parity[chosen],
                token=None,
                acquire=True,
            )
            waiting = group[~seen]
            m.block(
                waiting,
                ("mbar", key),
                f"a phase of the mbarrier at shared[{key[1]:#x}]",
                at=inst,
                retry=True,
            )

    return run
