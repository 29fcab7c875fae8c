"""The simulated machine: every thread of a launch, its memory, and the scheduler.

Each thread has a program counter and a status (runnable, blocked, exited); registers are
arrays over all threads. The scheduler repeatedly takes the lowest PC any runnable thread
is at and runs that instruction for every runnable thread there at once, as numpy vectors
over the threads (across warps, CTAs and clusters). Threads that diverge simply sit at
different PCs and meet again where their paths join. Any such order is one the hardware
could run; the hazard checker reasons with happens-before, not with this order, so what
it reports does not depend on it.

A thread blocks at a barrier until the barrier completes, at a collective until every
thread it needs has arrived, and at an mbarrier wait once it has polled without the
barrier changing; it is woken by the event it waits for. When no thread can run and some
have not exited, the run is deadlocked, and the error says who waits on what.

A thread that spins on memory (loads or atomics again from the same instruction while
nothing anyone could observe has changed) steps aside: the scheduler runs the other
threads first, until something changes, so that a spin loop at a low PC cannot starve the
thread it waits for. When only spinning threads are left and one of them comes back to
the same state with nothing changed, it would spin forever: the run stops with a livelock.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from tileas_py.sim import memory as mem
from tileas_py.sim.clocks import VectorClocks
from tileas_py.sim.errors import SimulationError
from tileas_py.sim.geometry import WARP, Geometry
from tileas_py.sim.program import Function, Instruction, Program
from tileas_py.sim.races import Actor, Conflict, Shadow
from tileas_py.sim.report import Hazard, HazardKind, Party, Report

Lanes = npt.NDArray[np.int64]

RUNNABLE = 0
BLOCKED = 1
EXITED = 2

MAX_CALL_DEPTH = 32
WAVE_LANES = 4096
"""Threads per wave: the checker's clocks take threads x components x 4 bytes."""
PERSISTENT = frozenset(
    {
        "array_regions",
        "tensor_maps",
        "global_tensor_maps",
        "dynamic_shared",
        "explicit_cluster",
        "call_returns",
        "launch_queue",
        "canceled_ctas",
    }
)
"""`Machine.state` keys that live for the whole launch; the rest are per wave."""
NUM_SMS = 132
"""`%nsmid`: the SM count of an H100 SXM."""


@dataclass
class Waiter:
    lanes: Lanes
    reason: str
    """What the threads wait for, in words (for deadlock reports)."""
    pc: int


@dataclass
class Stats:
    counts: Counter[str] = field(default_factory=Counter[str])


class Machine:
    """One launch of one kernel."""

    def __init__(
        self,
        program: Program,
        kernel: Function,
        geometry: Geometry,
        *,
        shared_bytes: int,
        track: bool = True,
        report: Report,
    ) -> None:
        self.program = program
        self.kernel = kernel
        self.report = report
        self.track = track
        self.shared_bytes = shared_bytes
        self.hazard_keys: set[tuple[Any, ...]] = set()
        self.steps = 0
        self.version = 0
        """Bumped by every change another thread could observe (memory, barriers)."""
        self.state: dict[str, Any] = {}
        """What the instruction families keep (tileas_py.sim.isa): per wave, except the
        keys in `PERSISTENT`. Under `watch`, checks to run before every instruction; under
        `exit_hooks`, what to run when threads exit (both: name -> function)."""
        self.params = mem.new_region("param", 0)
        self.const = mem.new_region("const", len(program.images.get("const", b"")))
        self.const.data[: self.const.size] = np.frombuffer(
            bytes(program.images.get("const", b"")), dtype=np.uint8
        )
        self.const.writable = False
        self.globals: list[mem.Region] = []
        self.start_wave(geometry)
        image = program.images.get("global", bytearray())
        self.module_globals = self.add_global("module .global variables", len(image))
        self.module_globals.data[: len(image)] = np.frombuffer(
            bytes(image), dtype=np.uint8
        )

    def start_wave(self, geometry: Geometry) -> None:
        """Make the machine run the CTAs of `geometry` (the first or the next wave): fresh
        threads, registers, shared memory and clocks; global memory stays, and what earlier
        waves did to it counts as done before this wave starts."""
        self.geometry = geometry
        lanes = geometry.lanes
        self.lanes = lanes
        self.pc = np.full(lanes, self.kernel.entry, dtype=np.int64)
        self.status = np.where(geometry.live, RUNNABLE, EXITED).astype(np.int8)
        self.regs: list[npt.NDArray[Any]] = [
            np.zeros(lanes, dtype=np.bool_ if r.width == 1 else _STORAGE[r.width])
            for r in self.program.registers
        ]
        self.call_depth = np.zeros(lanes, dtype=np.int64)
        self.call_stack = np.zeros((lanes, MAX_CALL_DEPTH), dtype=np.int64)
        self.call_site = np.zeros((lanes, MAX_CALL_DEPTH), dtype=np.int64)
        # Without tracking (for benchmarks of the bare interpreter) no hazard is seen.
        self.clocks = VectorClocks(lanes) if self.track else None
        self.waiters: dict[Hashable, list[Waiter]] = defaultdict(list)
        self.poll_pc = np.full(lanes, -1, dtype=np.int64)
        self.poll_version = np.full(lanes, -1, dtype=np.int64)
        self.spinning = np.full(lanes, -1, dtype=np.int64)
        """The version at which each thread was last seen spinning (it steps aside while
        the version stays the same)."""
        self.spin_states: set[int] = set()
        self.spin_states_version = -1
        self.state = {k: v for k, v in self.state.items() if k in PERSISTENT}
        # `launch_queue`: the CTAs of the later waves, not yet launched; a CTA that
        # `clusterlaunchcontrol.try_cancel` canceled never runs.
        starting = set(geometry.slots.tolist())
        queue: list[int] = self.state.get("launch_queue", [])
        queue[:] = [cta for cta in queue if cta not in starting]
        canceled: set[int] = self.state.get("canceled_ctas", set())
        if canceled:
            gone = np.isin(geometry.slots, np.array(sorted(canceled), dtype=np.int64))
            self.status[gone[geometry.lane_cta]] = EXITED
        self.shared = self._region(
            "shared", self.shared_bytes, owners=geometry.ctas, tracked=True
        )
        self.local = self._region("local", self.program.local_size, owners=lanes)
        self.frame = self._region("frame", self.program.frame_size, owners=lanes)
        for region in self.globals:
            region.shadow = self._shadow(region.data.shape[0])
        self.regions: list[mem.Region] = [
            self.shared,
            self.local,
            self.frame,
            self.params,
            self.const,
            *self.globals,
        ]

    # -- regions ---------------------------------------------------------------------------

    def _shadow(self, size: int) -> Shadow | None:
        return Shadow(size, self.clocks) if self.clocks is not None else None

    def _region(
        self, name: str, size: int, *, owners: int = 1, tracked: bool = False
    ) -> mem.Region:
        region = mem.new_region(name, size, owners=owners)
        if tracked:
            region.shadow = self._shadow(region.data.shape[0])
        return region

    def add_global(self, label: str, size: int) -> mem.Region:
        """A new global allocation; its generic base is `memory.global_base(index)`."""
        region = self._region(label, size, tracked=True)
        region.extra["index"] = len(self.globals)
        self.globals.append(region)
        self.regions.append(region)
        return region

    def set_params(self, data: bytes) -> None:
        params = mem.new_region("param", len(data))
        params.data[: len(data)] = np.frombuffer(data, dtype=np.uint8)
        params.writable = False
        self.regions[self.regions.index(self.params)] = params
        self.params = params

    # -- scheduling ------------------------------------------------------------------------

    def run(self, max_steps: int) -> None:
        from tileas_py.sim.isa import compile_instruction
        from tileas_py.sim.isa.wgmma import check_inflight

        instructions = self.program.instructions
        status = self.status
        pc = self.pc
        counts = self.report.instructions
        while True:
            runnable = status == RUNNABLE
            if not runnable.any():
                if (status == EXITED).all():
                    return
                self.deadlock()
            if self.spin_states_version >= 0:
                fresh = runnable & (self.spinning != self.version)
                if fresh.any():
                    runnable = fresh
            at = int(pc[runnable].min())
            lanes = np.flatnonzero(runnable & (pc == at))
            inst = instructions[at]
            action = inst.action
            if action is None:
                action = compile_instruction(self, inst)
                inst.action = action
            self.steps += 1
            if self.steps > max_steps:
                self.fail(
                    f"no end after {max_steps} scheduler steps (an endless loop?)", inst
                )
            pc[lanes] = inst.next_pc
            if inst.guard is not None:
                guard = self.regs[inst.guard][lanes]
                active = lanes[guard != inst.guard_negated]
            else:
                active = lanes
            counts[inst.klass] += int(active.size)
            if self.state.get("inflight") and inst.klass != "wgmma" and active.size:
                check_inflight(self, inst, active)
            if active.size and (watchers := self.state.get("watch")):
                for watch in watchers.values():
                    watch(self, inst, active)
            action(self, active)

    def block(
        self,
        lanes: Lanes,
        key: Hashable,
        reason: str,
        *,
        at: Instruction,
        retry: bool = False,
    ) -> None:
        """Block `lanes`, waiting at `at`, until `wake(key)`; with `retry` they then run
        `at` again (else they go on after it)."""
        if lanes.size == 0:
            return
        if retry:
            self.pc[lanes] = at.pc
        self.status[lanes] = BLOCKED
        self.waiters[key].append(Waiter(lanes, reason, at.pc))

    def wake(self, key: Hashable) -> None:
        for waiter in self.waiters.pop(key, ()):
            blocked = waiter.lanes[self.status[waiter.lanes] == BLOCKED]
            self.status[blocked] = RUNNABLE

    def bump(self) -> None:
        self.version += 1

    def poll(self, lanes: Lanes, inst: Instruction) -> None:
        """`lanes` read memory at `inst`: those that read there last time too, with nothing
        changed since, are spinning and step aside (see the module doc)."""
        again = (self.poll_pc[lanes] == inst.pc) & (
            self.poll_version[lanes] == self.version
        )
        self.poll_pc[lanes] = inst.pc
        self.poll_version[lanes] = self.version
        spinning = lanes[again]
        if spinning.size == 0:
            return
        self.spinning[spinning] = self.version
        if self.spin_states_version != self.version:
            self.spin_states_version = self.version
            self.spin_states = set()
        runnable = self.status == RUNNABLE
        if (runnable & (self.spinning != self.version)).any():
            return
        # Only spinning threads are left: the same state again is an endless loop.
        state = hash(
            (
                runnable.tobytes(),
                self.pc[runnable].tobytes(),
                self.call_depth[runnable].tobytes(),
                *(r[runnable].tobytes() for r in self.regs),
            )
        )
        if state in self.spin_states:
            self.fail(
                f"livelock: {self.describe_lanes(spinning)} spin on memory that no thread "
                "that could still change it will change",
                inst,
            )
        self.spin_states.add(state)

    def exit(self, lanes: Lanes) -> None:
        self.status[lanes] = EXITED
        self.bump()
        from tileas_py.sim.isa.barriers import on_exit

        on_exit(self, lanes)
        for hook in list(self.state.get("exit_hooks", {}).values()):
            hook(self, lanes)

    def deadlock(self) -> NoReturn:
        """No thread can run: say who waits on what (the same wait in several CTAs once)."""
        groups: dict[tuple[int, str], list[Lanes]] = defaultdict(list)
        for waiters in self.waiters.values():
            for waiter in waiters:
                blocked = waiter.lanes[self.status[waiter.lanes] == BLOCKED]
                if blocked.size:
                    groups[waiter.pc, waiter.reason].append(blocked)
        parts = [
            f"{self.describe_lanes(np.concatenate(lanes), pc)} wait for {reason}"
            for (pc, reason), lanes in sorted(
                groups.items(), key=lambda item: item[0][0]
            )
        ]
        first = min((pc for pc, _ in groups), default=None)
        if first is None:
            first = int(self.pc[self.status == BLOCKED].min())
        detail = "; ".join(parts[:6]) or "every thread is blocked"
        if len(parts) > 6:
            detail += f"; and {len(parts) - 6} more groups"
        self.fail(f"deadlock: {detail}", self.program.instructions[first])

    # -- reporting -------------------------------------------------------------------------

    def describe_lanes(self, lanes: Lanes, pc: int | None = None) -> str:
        """`threads 0-127 of CTA (0, 0, 0)` for a group of lanes, and ` at line 12` with a
        `pc` (an error raised by an instruction is located already: the scheduler has
        moved the lanes' own PCs past it)."""
        geometry = self.geometry
        ctas = np.unique(geometry.lane_cta[lanes])
        first = int(ctas[0])
        tids = geometry.lane_tid[lanes[geometry.lane_cta[lanes] == first]]
        span = _span(tids)
        cta_text = f"CTA {geometry.describe_cta(first)}"
        if ctas.size > 1:
            cta_text += f" (and {ctas.size - 1} more CTAs)"
        if pc is None:
            return f"threads {span} of {cta_text}"
        return (
            f"threads {span} of {cta_text} at {self.program.instructions[pc].where()}"
        )

    def party(self, lane: int, pc: int | None, what: str | None = None) -> Party:
        inst = self.program.instructions[pc] if pc is not None and pc >= 0 else None
        return Party(
            self.geometry.describe_cta(int(self.geometry.lane_cta[lane])),
            int(self.geometry.lane_tid[lane]),
            inst.line if inst is not None else None,
            what or (inst.opcode if inst is not None else "?"),
        )

    def hazard(
        self,
        kind: HazardKind,
        message: str,
        at: Party,
        *,
        other: Party | None = None,
        address: str | None = None,
        key: tuple[Any, ...] | None = None,
    ) -> None:
        """Record a hazard once per `key` (default: kind, lines and message)."""
        key = key or (kind, at.line, other.line if other else None, message)
        if key in self.hazard_keys:
            return
        self.hazard_keys.add(key)
        self.report.hazards.append(Hazard(kind, message, at, other, address))

    def fail(self, message: str, inst: Instruction | None = None) -> NoReturn:
        raise SimulationError(
            message,
            file=self.program.file,
            line=inst.line if inst is not None else None,
        )

    # -- memory ----------------------------------------------------------------------------

    def actor(self, lanes: Lanes, pc: int) -> Actor | None:
        """The threads `lanes` as the maker of an access (None when not checking)."""
        clocks = self.clocks
        if clocks is None:
            return None
        return Actor(lanes, clocks.own(lanes).astype(np.int64), lanes, None, pc)

    def record(  # noqa: PLR0917 (an access: where, how much, by whom, how, from what)
        self,
        region: mem.Region,
        offsets: Lanes,
        size: int,
        actor: Actor | None,
        mode: str,
        inst: Instruction,
        what: str,
        owners: Lanes | None = None,
    ) -> None:
        """Check and record an access of `size` bytes at each offset of `region`.

        `owners[i]` is the actor row of access i (default: row i).
        """
        shadow = region.shadow
        if shadow is None or actor is None:
            return
        rows = np.arange(offsets.shape[0], dtype=np.int64) if owners is None else owners
        bytes_ = mem.byte_indices(offsets, size)
        owner = np.repeat(rows, size)
        conflicts = shadow.access(bytes_, owner, actor, mode)
        if conflicts:
            self.report_conflicts(region, conflicts, actor, inst, what)

    def report_conflicts(
        self,
        region: mem.Region,
        conflicts: list[Conflict],
        actor: Actor,
        inst: Instruction,
        what: str,
    ) -> None:
        clocks = self.clocks
        assert clocks is not None
        for conflict in conflicts:
            earlier_lane = clocks.owner(conflict.component)
            earlier = self.party(
                earlier_lane,
                conflict.pc,
                self._access_name(conflict.component, conflict.pc),
            )
            lane = int(actor.components[conflict.row])
            at = self.party(clocks.owner(lane), inst.pc, what)
            address = self.describe_bytes(region, conflict.byte)
            if conflict.kind == "proxy":
                self.hazard(
                    HazardKind.PROXY_FENCE,
                    "the async proxy reads bytes written through the generic proxy with "
                    "no fence.proxy.async between the write and the read",
                    at,
                    other=earlier,
                    address=address,
                )
                continue
            first, second = conflict.kind.split("-")
            self.hazard(
                HazardKind.RACE,
                f"{second} races with an earlier {first}",
                at,
                other=earlier,
                address=address,
                key=(HazardKind.RACE, conflict.kind, conflict.pc, inst.pc, region.name),
            )

    def _access_name(self, component: int, pc: int) -> str:
        inst = self.program.instructions[pc] if pc >= 0 else None
        name = inst.opcode if inst is not None else "?"
        clocks = self.clocks
        if clocks is not None and component >= clocks.threads:
            return f"{name} ({clocks.unit_names[component - clocks.threads]})"
        return name

    def describe_bytes(self, region: mem.Region, byte: int) -> str:
        describe = region.extra.get("describe")
        if describe is not None:
            return describe(byte)
        if region is self.shared:
            cta, offset = divmod(byte, max(self.shared.size, 1))
            return f"shared[{offset:#x}] of CTA {self.geometry.describe_cta(cta)}"
        return f"{region.label}[{byte}]"

    # -- registers -------------------------------------------------------------------------

    def warp_lanes(self, lanes: Lanes) -> Lanes:
        return lanes // WARP


def _span(values: npt.NDArray[np.int64]) -> str:
    values = np.unique(values)
    if values.size == 1:
        return str(int(values[0]))
    if int(values[-1]) - int(values[0]) + 1 == values.size:
        return f"{int(values[0])}-{int(values[-1])}"
    shown = ", ".join(str(int(v)) for v in values[:4])
    return f"{shown}, ... ({values.size} threads)"


_STORAGE: dict[int, Any] = {
    8: np.uint8,
    16: np.uint16,
    32: np.uint32,
    64: np.uint64,
    128: np.uint64,
}
