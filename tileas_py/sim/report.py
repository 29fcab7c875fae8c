"""What a simulated launch reports: hazards, counts and the GMMA messages.

A `Report` is returned by `launch` and carried by `HazardError`. Every hazard names the PTX
line of the access or instruction that found it, the thread that ran it (CTA, warp, thread)
and, for a race, the other party: the earlier access it is not ordered with.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum


class HazardKind(StrEnum):
    """The hazards the checker reports (docs/simulator.md describes each)."""

    RACE = "race"
    """Two accesses to the same bytes, at least one a write, not ordered by happens-before."""
    MBARRIER_UNINITIALIZED = "mbarrier-uninitialized"
    """An mbarrier operation on an object that was never initialised (or was invalidated)."""
    MBARRIER_REINIT = "mbarrier-reinit"
    """`mbarrier.init` on an object that is still in use."""
    MBARRIER_TX_RANGE = "mbarrier-tx-range"
    """A transaction count outside ±(2^20 - 1)."""
    MBARRIER_ARRIVALS = "mbarrier-arrivals"
    """More arrivals in a phase than the barrier expects (the pending count would go negative)."""
    PARITY_ALIASING = "parity-aliasing"
    """A phase completed twice before a waiter observed the first completion."""
    PROXY_FENCE = "proxy-fence"
    """A generic-proxy write read by the async proxy without `fence.proxy.async` between."""
    ACCUMULATOR = "accumulator"
    """A register of an in-flight wgmma used before the wait that retires it."""
    COLLECTIVE = "collective"
    """A `.sync` / `.aligned` collective without every thread it requires."""
    TMEM_ALLOCATION = "tmem-allocation"
    """Tensor memory allocated after `relinquish_alloc_permit`, freed wrongly, or not freed
    before the CTA exits."""
    TCGEN05_LD = "tcgen05-ld"
    """A destination register of `tcgen05.ld` used before `tcgen05.wait::ld`."""
    TARGET = "target"
    """An instruction the module's `.target` does not have (tcgen05 on sm_90a, ...)."""


@dataclass(frozen=True)
class Party:
    """Who did something: a thread, or an asynchronous unit it started."""

    cta: tuple[int, int, int]
    thread: int
    """The thread's linear index in its CTA (`%tid` linearised)."""
    line: int | None
    """The PTX line of the instruction, when known."""
    what: str
    """The instruction's mnemonic, or the access it made (`st.shared.u32`, `TMA write`)."""

    @property
    def warp(self) -> int:
        return self.thread // 32

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line is not None else "an unknown line"
        return (
            f"'{self.what}' at {where} (CTA {self.cta}, warp {self.warp}, "
            f"thread {self.thread})"
        )


@dataclass(frozen=True)
class Hazard:
    """One hazard: its kind, where it was seen, and the other party if there is one."""

    kind: HazardKind
    message: str
    at: Party
    other: Party | None = None
    address: str | None = None
    """The bytes involved, as `shared[0x6000:0x6010]` or `global A[128:144]`."""

    @property
    def line(self) -> int | None:
        return self.at.line

    def diagnostic(self, file: str, severity: str = "error") -> str:
        """The hazard as one compiler-style line: `file:line: error: race: ...`."""
        line = f"{file}:{self.line}" if self.line is not None else file
        return f"{line}: {severity}: {self}"

    def __str__(self) -> str:
        text = f"{self.kind}: {self.message}: {self.at}"
        if self.address is not None:
            text += f" on {self.address}"
        if self.other is not None:
            text += f", not ordered with {self.other}"
        return text


@dataclass
class Report:
    """The outcome of a launch: hazards found, what ran, and ptxas's GMMA messages."""

    kernel: str
    hazards: list[Hazard] = field(default_factory=list[Hazard])
    instructions: Counter[str] = field(default_factory=Counter[str])
    """Thread-instructions executed, by class (`alu`, `memory`, `wgmma`, `control`, ...)."""
    wgmma: int = 0
    """`wgmma.mma_async` instructions executed, per warpgroup."""
    tcgen05_mma: int = 0
    """`tcgen05.mma` instructions executed (one per issuing thread)."""
    barrier_waits: int = 0
    """Threads that waited at a CTA or cluster barrier."""
    mbarrier_waits: int = 0
    """Successful mbarrier test_wait / try_wait, per thread."""
    shared_bytes: int = 0
    """Shared memory per CTA: static plus dynamic."""
    gmma_messages: list[str] = field(default_factory=list[str])
    """What ptxas's GMMA phases said about the PTX (with `fixup=True`)."""
    ptx: str = ""
    """The PTX that ran (after the fixup), whose lines the hazards name."""
    steps: int = 0
    """Scheduler steps: instructions executed by groups of threads at one PC."""

    @property
    def thread_instructions(self) -> int:
        return sum(self.instructions.values())

    def summary(self) -> str:
        """One line: what ran and what was found."""
        # tcgen05.mma only where it ran, so that Hopper kernels' lines stay as they were.
        mmas = f"{self.wgmma} wgmma, "
        if self.tcgen05_mma:
            mmas += f"{self.tcgen05_mma} tcgen05.mma, "
        return (
            f"kernel {self.kernel}: {self.thread_instructions} thread-instructions, "
            f"{mmas}{self.barrier_waits} barrier waits, "
            f"{self.mbarrier_waits} mbarrier waits, {self.shared_bytes} bytes of shared "
            f"memory per CTA, {len(self.hazards)} hazard(s)"
        )

    def __str__(self) -> str:
        lines = [self.summary()]
        lines.extend(f"  {hazard}" for hazard in self.hazards)
        return "\n".join(lines)
