"""What the GMMA phases decide, as data: ptxas's message codes, the causes, the options."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, auto

from xdsl.ir import Operation, SSAValue

from tileas_py.passes.ori.support.gmma.program import Wgmma


class Code(int, Enum):
    """The ptxas message codes the model produces (see `tileas_py.hw.gmma_diagnostics`)."""

    EXTERN_CALL = 7509
    CALL_CROSSES_PIPELINE = 7510
    PIPELINE_REGISTERS = 7511
    FUNCTION_REGISTERS = 7512
    INPUT_REDEFINED = 7513
    ACCUMULATOR_READ = 7514
    ACCUMULATOR_DEFINED = 7515
    WAIT_INJECTED = 7517
    WAIT_IN_DIVERGENT_PATH = 7518
    ARRIVE_IN_DIVERGENT_PATH = 7519
    INSUFFICIENT_REGISTERS = 7602


class Cause(Enum):
    """What made the model take a decision, for `explain` notes."""

    READ = auto()
    EXIT = auto()
    MANAGED_READ = auto()
    MIDSTAGE_READ = auto()
    MERGED_COPY = auto()
    DIVERGENT_COMMIT = auto()
    DIVERGENT_EXIT = auto()
    DIVERGENT_FENCE = auto()
    DIVERGENT_ARRIVE = auto()
    CALL_IN_STAGE = auto()
    OPAQUE_CALL = auto()
    WGMMA_CALLEE = auto()
    CLOBBERED_INPUT_ACCUMULATOR = auto()
    CLOBBERED_ZERO_ACCUMULATOR = auto()
    SPLIT_ZERO_START_RANGE = auto()
    FRAGMENT_REDEFINED = auto()
    FRAGMENT_FROM_ACCUMULATOR = auto()
    OVERLAPPING_ACCUMULATORS = auto()
    PIPELINE_BUDGET = auto()
    FUNCTION_BUDGET = auto()
    INSTRUCTION_BUDGET = auto()
    UNOPTIMIZED = auto()


@dataclass
class Finding:
    """One decision: a wait to inject, or a reason to serialize the function."""

    code: Code
    line: int | None
    """The line ptxas prints (None for messages without one)."""
    op: Operation | None
    """The instruction the message is about (where a wait is injected)."""
    cause: Cause
    culprit: Operation | None = None
    """The instruction that caused it (the reader, the call, the branch, ...)."""
    register: SSAValue | None = None
    wgmma: Wgmma | None = None
    order: int = 0
    counts: tuple[int, ...] = ()
    branch: Operation | None = None
    """The divergent branch behind a divergent-path finding."""
    related: Operation | None = None
    """Another instruction the explanation names (the call a wait cannot sink past)."""


@dataclass(frozen=True)
class GmmaOptions:
    """The ptxas command-line flags that change what the GMMA phases do."""

    compile_only: bool = False
    opt_level: int = 3
    device_debug: bool = False
    maxrregcount: int = 0
    fast_compile: str = "off"
    """ptxas `--Ofast-compile` (`off` is ptxas's `0`, then `min`, `mid`, `max`)."""

    @property
    def serializes_everything(self) -> bool:
        """-O0, -g and `--Ofast-compile=max` serialize every wgmma."""
        return self.opt_level == 0 or self.device_debug or self.fast_compile == "max"

    @property
    def inlines_calls(self) -> bool:
        """Whether calls of defined functions are inlined (not under -c, -g or any
        fast-compile level)."""
        return not (
            self.compile_only or self.device_debug or self.fast_compile != "off"
        )


def copy_finding(finding: Finding) -> Finding:
    return Finding(
        finding.code,
        finding.line,
        finding.op,
        finding.cause,
        culprit=finding.culprit,
        register=finding.register,
        wgmma=finding.wgmma,
        counts=finding.counts,
        branch=finding.branch,
        related=finding.related,
    )
