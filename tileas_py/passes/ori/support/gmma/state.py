"""The pipeline state at one program point, the lattice of the GMMA dataflow.

Bit vectors over the function's wgmma (one bit per `wgmma.mma_async`, then one per commit so
that an empty committed group is in flight too) and over its registers (`RegisterNumbering`):

- `open`: wgmma issued and not committed; `ages[k]`: committed k groups ago (the last slot
  holds everything older);
- `registers`: the accumulator registers in flight (a drained group frees its registers,
  as ptxas does, even when a later group writes them too); `issued_registers`: every
  accumulator register issued so far;
- `waited`: a program `wgmma.wait_group` ran (on some path); `surely`: a group is in flight
  on every path; `user_pending`: a group the program's own waits have not drained;
- `needed`: in-flight wgmma whose accumulators were read without a wait; `calls`: calls met
  while in flight (a wait cannot sink past them); `clobbered` / `zero_clobbered`: broken
  accumulator live ranges (C7515 / C7511), `zero_outputs`: in-flight accumulator registers
  last written by a wgmma that starts from zero; `fragments`, `unfenced`: A fragments of
  in-flight wgmma, those a non-wgmma instruction redefined since (`stale_fragments`), and wgmma
  issued since the last fence (C7513); `tainted` / `tainted_by`:
  GMMA instructions ran on a divergent path (and under which branches); `fence_dependence`:
  the divergent branches (and guards) the last fence depends on; `fenced`: a fence ran on
  every path.

Joins are unions, except `surely` and `fenced`, which must hold on every path.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation

from tileas_py.passes.ori.support.gmma.program import Wgmma

AGES = 8


class PipelineState:
    """The pipeline state at one program point; see the module docstring."""

    __slots__ = (
        "ages",
        "calls",
        "clobbered",
        "fence_dependence",
        "fenced",
        "fragments",
        "issued_registers",
        "needed",
        "open",
        "registers",
        "stale_fragments",
        "surely",
        "tainted",
        "tainted_by",
        "unfenced",
        "user_pending",
        "waited",
        "zero_clobbered",
        "zero_outputs",
    )

    def __init__(self) -> None:
        self.open = 0
        self.ages = [0] * AGES
        self.waited = False
        self.surely = False
        self.registers = 0
        self.zero_outputs = 0
        self.user_pending = False
        self.issued_registers = 0
        self.needed = 0
        self.calls = 0
        self.clobbered = 0
        self.zero_clobbered = 0
        self.tainted = False
        self.tainted_by = 0
        self.unfenced = 0
        self.fragments = 0
        self.stale_fragments = 0
        self.fence_dependence = 0
        self.fenced = False

    def copy(self) -> PipelineState:
        state = PipelineState()
        state.open = self.open
        state.ages = list(self.ages)
        state.waited = self.waited
        state.surely = self.surely
        state.registers = self.registers
        state.user_pending = self.user_pending
        state.issued_registers = self.issued_registers
        state.needed = self.needed
        state.calls = self.calls
        state.clobbered = self.clobbered
        state.zero_clobbered = self.zero_clobbered
        state.zero_outputs = self.zero_outputs
        state.tainted = self.tainted
        state.tainted_by = self.tainted_by
        state.unfenced = self.unfenced
        state.fragments = self.fragments
        state.fence_dependence = self.fence_dependence
        state.fenced = self.fenced
        state.stale_fragments = self.stale_fragments
        return state

    def join(self, other: PipelineState) -> bool:
        """Union `other` into this state; whether anything changed."""
        before = self.key()
        self.open |= other.open
        self.ages = [a | b for a, b in zip(self.ages, other.ages, strict=True)]
        self.waited |= other.waited
        self.surely &= other.surely
        self.registers |= other.registers
        self.user_pending |= other.user_pending
        self.issued_registers |= other.issued_registers
        self.needed |= other.needed
        self.calls |= other.calls
        self.clobbered |= other.clobbered
        self.zero_clobbered |= other.zero_clobbered
        self.zero_outputs |= other.zero_outputs
        self.tainted |= other.tainted
        self.tainted_by |= other.tainted_by
        self.unfenced |= other.unfenced
        self.fragments |= other.fragments
        self.fence_dependence |= other.fence_dependence
        self.fenced &= other.fenced
        self.stale_fragments |= other.stale_fragments
        return self.key() != before

    def key(self) -> tuple[object, ...]:
        return (
            self.open,
            tuple(self.ages),
            self.waited,
            self.surely,
            self.registers,
            self.user_pending,
            self.issued_registers,
            self.needed,
            self.calls,
            self.clobbered,
            self.zero_clobbered,
            self.tainted,
            self.tainted_by,
            self.unfenced,
            self.fragments,
            self.fence_dependence,
            self.fenced,
            self.stale_fragments,
        )

    @property
    def committed(self) -> int:
        bits = 0
        for age in self.ages:
            bits |= age
        return bits

    @property
    def in_flight(self) -> int:
        return self.open | self.committed

    def drain(self) -> None:
        """A compiler wait: nothing in flight any more (`clobbered` follows the program's
        own waits only)."""
        self.user_pending = False
        self.open = 0
        self.ages = [0] * AGES
        self.needed = 0
        self.calls = 0
        self.fragments = 0
        self.stale_fragments = 0
        self.tainted = False
        self.tainted_by = 0
        self.surely = False
        self.registers = 0
        self.zero_outputs = 0


@dataclass
class StageTail:
    """The part of a stage after a non-wgmma instruction inside it."""

    fence: Operation | None
    following: list[Wgmma]
    """The unpredicated wgmma after the instruction, up to a fence, commit or block end."""
    next_reads: int
    """What the next wgmma reads (its inputs, and its accumulators unless scale-d is 0)."""
    accumulators: int
