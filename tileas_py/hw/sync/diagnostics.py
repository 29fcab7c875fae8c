"""What ptxas 13.5 says about memory-order, mbarrier and barrier mistakes, in its exact words.

Two families of messages guard the synchronization instructions before ptxas's sync phases
see them:

- The PTX front end checks the modifiers of each instruction (PTX ISA, "Memory Consistency
  Model" and the `ld` / `st` / `fence` / `membar` / `bar` / `mbarrier` sections). Its errors
  carry no code and name the file and line:

      ptxas k.ptx, line 15; error   : Modifier '.mmio' cannot be applied to '.shared' space

- The OCG intrinsic lowering (seed 003, "Memory Order Intrinsic Lowering") checks the subops
  of `__nv_ptx_builtin_ocg_*` calls such as `red_async`, `write_async` and `cp_async_bulk`,
  which PTX code can call directly. Its messages carry codes C7300-C7308 and name the
  "application ptx input" and the line of the call:

      ptxas application ptx input, line 24; fatal   : (C7308) Intrinsic - "Required scope with memory order semantics"

The tables and checkers follow ptxas 13.5.37 (`nvidia-cuda-nvcc==13.5.37`): every message
marked observed was printed by it for a kernel of `test/ptxas/sync/corpus/`, and each checker
returns the messages ptxas prints for the described instruction, in ptxas's order. Seed 003
describes an older ptxas; docs/fidelity.md lists where they differ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property


class Severity(StrEnum):
    """The word after `ptxas` that says how bad a message is."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"
    FATAL = "fatal"

    @property
    def label(self) -> str:
        """ptxas pads the severity to seven characters: `fatal   : `."""
        return f"{self.value:<7} : "


class Origin(StrEnum):
    """Which part of ptxas checks an instruction, which decides how its messages look."""

    PTX = "ptx"
    """The PTX front end: no code; `ptxas <file>, line N; error   : `."""
    INTRINSIC = "intrinsic"
    """The OCG intrinsic lowering: `(Cnnnn)`; `ptxas application ptx input, line N; `."""
    OPTIMIZER = "optimizer"
    """Advisories of the later phases: `ptxas info    : (Cnnnn) ...`, without a location."""


INTRINSIC_SOURCE = "application ptx input"
"""What ptxas calls the file in the location of an intrinsic message."""


@dataclass(frozen=True)
class SyncMessage:
    """One kind of message: its code (None for the PTX front end), text and trigger.

    `template` has positional slots `{0}`, `{1}`, `{2}` filled in print order.
    """

    name: str
    """A short kebab-case name, for use in code and tests."""
    origin: Origin
    code: int | None
    severity: Severity
    template: str
    trigger: str
    located: bool = True
    """False when ptxas prints the message without a file and line."""
    observed: bool = True
    """False when no experiment made ptxas 13.5 print it."""

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """A regex matching the message after the severity, one group per slot."""
        regex = re.escape(self.text_prefix + self.template)
        for slot in range(3):
            regex = regex.replace(re.escape(f"{{{slot}}}"), f"(?P<a{slot}>.*?)")
        return re.compile(regex)

    @property
    def text_prefix(self) -> str:
        return "" if self.code is None else f"(C{self.code:04d}) "


class MemoryOrderRule(StrEnum):
    """The texts of C7308 for the memory model of `red_async` / `write_async`."""

    DOMAIN_REQUIRED = 'Domain param "_shared" or "_global" required'
    SCOPE_REQUIRED = "Required scope with memory order semantics"
    SCOPE_DEPRECATED = "Deprecated scope without memory order semantics"
    MMIO_NEEDS_GLOBAL = 'Domain param "_global" required for mmio semantics'


class BulkCopyRule(StrEnum):
    """The reasons C7300 gives for the subops of `cp_async_bulk` (seed 003's mbarrier rules)."""

    BYTEMASK_WITH_COUNTED = "byte mask not allowed with counted"
    BYTEMASK_NEEDS_GLOBAL_DST = "global dst should be specified with bytemask"
    BYTEMASK_NEEDS_SHARED_SRC = "shared src should be specified with bytemask"
    """In the binary, but unreachable: position 1 accepts only `_shared` (C7307 first)."""
    SEQUENCED_NEEDS_SCOPE = "_sequenced requires memscope"
    SCOPE_NEEDS_SEQUENCED = "memscope requires _sequenced"


def _intrinsic(
    name: str,
    code: int,
    template: str,
    trigger: str,
    *,
    severity: Severity = Severity.FATAL,
    located: bool = True,
) -> SyncMessage:
    return SyncMessage(
        name, Origin.INTRINSIC, code, severity, template, trigger, located
    )


def _ptx(name: str, template: str, trigger: str) -> SyncMessage:
    return SyncMessage(name, Origin.PTX, None, Severity.ERROR, template, trigger)


INTRINSIC_MESSAGES: tuple[SyncMessage, ...] = (
    _intrinsic(
        "intrinsic-name",
        7300,
        "Unexpected intrinsic name ({0})",
        "A call of an unknown `__nv_ptx_builtin_ocg_` name ({0}: the whole name), and "
        "the `cp_async_bulk` subop rules ({0}: one of `BulkCopyRule`).",
    ),
    _intrinsic(
        "intrinsic-param-number",
        7301,
        "Unexpected intrinsic param number ({0})",
        "A call with the wrong number of parameters; {0} is the index of the last one passed.",
    ),
    _intrinsic(
        "intrinsic-result-type",
        7301,
        "Unexpected intrinsic type ({0})",
        "A result of the wrong type (e.g. a .b64 result of `s2r`); ptxas prints the type "
        "as `???`. Shares its code with the parameter-count message.",
    ),
    _intrinsic(
        "intrinsic-param-type",
        7302,
        "Unexpected intrinsic type ({0}) in param ({1})",
        "A parameter of a type the intrinsic never takes there (a .b16 address); `???`.",
    ),
    _intrinsic(
        "intrinsic-param-type-instead",
        7303,
        "Unexpected intrinsic type ({0}) instead of ({1}) in param ({2})",
        "A parameter of the wrong one of the accepted types (a .b64 size); `???` twice.",
    ),
    _intrinsic(
        "intrinsic-subop",
        7305,
        "Unexpected intrinsic subop ({0})",
        "A subop token the intrinsic does not know ({0}: the rest of the name from it), "
        "e.g. `_cta` or `_cluster` as the scope of `red_async`, which takes `_gpu` / `_sys`.",
    ),
    _intrinsic(
        "intrinsic-subop-position",
        7306,
        "Unexpected intrinsic subop in position ({0})",
        "A known subop where it is not allowed, e.g. `cp_async_bulk_global_shared_counted`.",
    ),
    _intrinsic(
        "intrinsic-subop-at-position",
        7307,
        "Unexpected intrinsic subop ({0}) in position ({1})",
        "A known subop of the wrong kind at a position: a scope first, `_global` as the "
        "source of `cp_async_bulk`; a missing source is reported as `(mbarrier)`.",
    ),
    _intrinsic(
        "intrinsic-deprecation",
        7308,
        f'Intrinsic - "{MemoryOrderRule.SCOPE_DEPRECATED}"',
        "A scope without a memory order on `red_async` / `write_async`. Printed without a "
        "location; `-w` silences it, `--warning-as-error` makes it `ptxas error   :` and "
        "exit 255.",
        severity=Severity.WARNING,
        located=False,
    ),
    _intrinsic(
        "intrinsic-rule",
        7308,
        'Intrinsic - "{0}"',
        "A memory-model or operand rule of `red_async` / `write_async` ({0}: one of "
        "`MemoryOrderRule`, or an operand-type text).",
    ),
)

PTX_MESSAGES: tuple[SyncMessage, ...] = (
    _ptx(
        "modifier-space",
        "Modifier '.{0}' cannot be applied to '.{1}' space",
        "A memory order on .local / .const / .param, or .mmio on anything but .global or a "
        "generic address.",
    ),
    _ptx(
        "mmio-needs-order",
        "Modifier '.mmio' requires modifier '.relaxed or .{0}' for instruction '{1}'",
        "`ld.mmio` / `st.mmio` without .relaxed ({0}: acquire for ld, release for st); "
        ".volatile does not count.",
    ),
    _ptx(
        "modifier-conflict",
        "Modifier '.{0}' cannot be combined with modifier '.{1}'",
        ".mmio with a scope other than .sys; .volatile with any scope.",
    ),
    _ptx(
        "needs-scope",
        "Modifier '.{0}' requires scope with '{1}' instruction",
        "A memory order (or .mmio, or a fence semantic) without a scope; seed 003's "
        '"Required scope with memory order semantics" at the PTX level.',
    ),
    _ptx(
        "needs-memory-order",
        "Modifier '.{0}' requires memory order with '{1}' instruction",
        "`ld` / `st` with a scope and no memory order; seed 003's deprecation warning is an "
        "error at the PTX level.",
    ),
    _ptx(
        "fence-needs-scope",
        "Scope modifier required for instruction '{0}'",
        "`fence.sc` / `fence.acq_rel` without a scope (followed by needs-scope).",
    ),
    _ptx(
        "membar-needs-level",
        "Membar level required for instruction '{0}'",
        "`membar` without .cta / .gl / .sys.",
    ),
    _ptx(
        "barrier-id-range",
        "Barrier number '{0}' out of range, expected to be in range [0..15]",
        "An immediate barrier id above 15.",
    ),
    _ptx(
        "barrier-thread-count",
        "Number of threads participating in barrier must be in multiple of warp size",
        "An immediate thread count that is not a multiple of 32.",
    ),
    _ptx(
        "arguments-mismatch",
        "Arguments mismatch for instruction '{0}'",
        "`bar.arrive` without a thread count.",
    ),
    _ptx(
        "illegal-modifier",
        "Illegal modifier '.{0}' for instruction '{1}'",
        "`mbarrier.arrive` with .acquire or a .gpu / .sys scope; `ld.release`, `st.acquire`.",
    ),
    _ptx(
        "sink-expected",
        "Sink '_' is expected as a destination operand for instruction '{0}' with "
        "'.shared::cluster'",
        "`mbarrier.arrive` on a .shared::cluster address with a result register.",
    ),
    _ptx(
        "instruction-types",
        "Unexpected instruction types specified for '{0}'",
        "`mbarrier.init.b32` (mbarriers are .b64).",
    ),
    _ptx(
        "feature-needs-target",
        "Feature '{0}' requires .target {1} or higher",
        "`mbarrier.try_wait`, `mbarrier.arrive.expect_tx`, `barrier.cluster.*`, .cluster "
        "scope on sm_80.",
    ),
    _ptx(
        "modifier-needs-target",
        "Modifier '.{0}' requires .target {1} or higher",
        "`fence.proxy.async` on sm_80.",
    ),
    SyncMessage(
        "pragma-unsupported",
        Origin.PTX,
        None,
        Severity.WARNING,
        "Pragma '{0}' unsupported",
        'Any unknown .pragma, e.g. "DisableErrbarAfterMembar=1": knobs cannot be set '
        "from PTX.",
        located=False,
    ),
    SyncMessage(
        "pragma-not-supported",
        Origin.PTX,
        None,
        Severity.ERROR,
        "Pragma '{0}' not supported",
        'An unknown .pragma at module scope, e.g. "global knob SchedResBusyXU64=1" '
        "before the first function: an error there, not a warning.",
        located=False,
    ),
    _ptx(
        "modifier-needs-ptx",
        "Modifier '.{0}' on '{1}' requires PTX ISA .version {2} or later",
        "`fence.acquire` / `fence.release` before PTX 8.6.",
    ),
)

_IGNORED = "Potential Performance Loss: 'setmaxnreg' ignored"

OPTIMIZER_MESSAGES: tuple[SyncMessage, ...] = tuple(
    SyncMessage(
        name,
        Origin.OPTIMIZER,
        code,
        Severity.INFO,
        f"{_IGNORED}{reason}.",
        trigger,
        located=False,
    )
    for name, code, reason, trigger in (
        (
            "setmaxnreg-ignored-units",
            7504,
            " to maintain compatibility across compilation units",
            "setmaxnreg in a kernel compiled with -c that calls an .extern .func.",
        ),
        (
            "setmaxnreg-ignored-debug",
            7505,
            " to allow debugging",
            "setmaxnreg under -g.",
        ),
        (
            "setmaxnreg-ignored-entry-count",
            7508,
            "; unable to determine register count at entry",
            "setmaxnreg in a kernel with neither .maxnreg nor .minnctapersm (nor "
            "-maxrregcount): ptxas drops the instruction.",
        ),
    )
)

SYNC_MESSAGES = INTRINSIC_MESSAGES + PTX_MESSAGES + OPTIMIZER_MESSAGES
SYNC_MESSAGE_BY_NAME: dict[str, SyncMessage] = {m.name: m for m in SYNC_MESSAGES}


@dataclass(frozen=True)
class SyncDiagnostic:
    """One message as ptxas prints it; `line` and `file` are filled in by whoever knows them."""

    message: SyncMessage
    args: tuple[str, ...] = ()
    line: int | None = None
    file: str | None = None
    severity: Severity | None = None
    """Overrides the message's severity (`--warning-as-error` prints warnings as errors)."""

    @property
    def effective_severity(self) -> Severity:
        return self.severity if self.severity is not None else self.message.severity

    @property
    def text(self) -> str:
        """The message after the severity: `(C7308) Intrinsic - "..."`."""
        return self.message.text_prefix + self.message.template.format(*self.args)

    def at(self, line: int, file: str | None = None) -> SyncDiagnostic:
        """This diagnostic located where ptxas would locate it."""
        source = INTRINSIC_SOURCE if self.message.origin is Origin.INTRINSIC else file
        return replace(self, line=line, file=source)

    def format(self) -> str:
        """The line ptxas prints, without the newline."""
        label = self.effective_severity.label
        if (
            not self.message.located
            or self.effective_severity is not self.message.severity
        ):
            return f"ptxas {label}{self.text}"
        if self.line is None or self.file is None:
            raise ValueError(f"{self.message.name} needs a file and line to be printed")
        return f"ptxas {self.file}, line {self.line}; {label}{self.text}"


_LINE = re.compile(
    r"^ptxas (?:(?P<file>.+?), line (?P<line>\d+); )?"
    r"(?P<severity>info|warning|error|fatal) *: (?P<text>.*)$"
)


def parse_line(text: str) -> SyncDiagnostic | None:
    """The sync diagnostic on one line of ptxas output, None for any other line."""
    match = _LINE.match(text.rstrip("\n"))
    if match is None:
        return None
    severity = Severity(match.group("severity"))
    located = match.group("line") is not None
    for message in SYNC_MESSAGES:
        body = message.pattern.fullmatch(match.group("text"))
        if body is None:
            continue
        slots = body.groupdict()
        args = tuple(slots[g] for g in sorted(slots) if slots[g] is not None)
        return SyncDiagnostic(
            message,
            args,
            line=int(match.group("line")) if located else None,
            file=match.group("file"),
            severity=None if severity is message.severity else severity,
        )
    return None


def parse_ptxas_output(text: str) -> list[SyncDiagnostic]:
    """Every sync diagnostic in ptxas's output, in the order ptxas printed them."""
    return [d for line in text.splitlines() if (d := parse_line(line)) is not None]


# ----------------------------------------------------------------------------------------
# Checkers: a description of an instruction in, ptxas's messages (unlocated) out.


class Scope(StrEnum):
    CTA = "cta"
    CLUSTER = "cluster"
    GPU = "gpu"
    SYS = "sys"


class MemoryOrder(StrEnum):
    RELAXED = "relaxed"
    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQ_REL = "acq_rel"
    SC = "sc"


class StateSpace(StrEnum):
    GLOBAL = "global"
    SHARED = "shared"
    LOCAL = "local"
    CONST = "const"
    PARAM = "param"


def _diagnostic(name: str, *args: str) -> SyncDiagnostic:
    return SyncDiagnostic(SYNC_MESSAGE_BY_NAME[name], args)


def check_intrinsic_memory_order(
    *,
    domain: StateSpace | None,
    scope: Scope | None,
    order: MemoryOrder | None,
    mmio: bool = False,
) -> list[SyncDiagnostic]:
    """ptxas's C7308 messages for a `red_async` / `write_async` intrinsic's subops.

    `domain` is the `_shared` / `_global` subop, `scope` `_gpu` / `_sys`, `order` `_release`.
    A fatal message ends the list, as it ends ptxas; the deprecation warning does not.
    """
    rule = SYNC_MESSAGE_BY_NAME["intrinsic-rule"]
    if domain is None:
        return [SyncDiagnostic(rule, (MemoryOrderRule.DOMAIN_REQUIRED,))]
    if order is not None and scope is None:
        return [SyncDiagnostic(rule, (MemoryOrderRule.SCOPE_REQUIRED,))]
    found: list[SyncDiagnostic] = []
    if scope is not None and order is None:
        found.append(_diagnostic("intrinsic-deprecation"))
    if mmio and domain is not StateSpace.GLOBAL:
        found.append(SyncDiagnostic(rule, (MemoryOrderRule.MMIO_NEEDS_GLOBAL,)))
    return found


def check_bulk_copy_subops(
    *,
    dst: StateSpace,
    src: StateSpace,
    counted: bool = False,
    bytemask: bool = False,
    sequenced: bool = False,
    scope: Scope | None = None,
) -> list[SyncDiagnostic]:
    """ptxas's C7300 message for the subops of a `cp_async_bulk` intrinsic, if any.

    These are the rules seed 003 gives its mbarrier handler: a bulk copy completes on an
    mbarrier, optionally `_counted`, `_bytemask`ed, or `_sequenced` at a scope. ptxas checks
    the parameter count (C7301) between the bytemask and the sequencing rules.
    """
    if bytemask and counted:
        reason = BulkCopyRule.BYTEMASK_WITH_COUNTED
    elif bytemask and dst is not StateSpace.GLOBAL:
        reason = BulkCopyRule.BYTEMASK_NEEDS_GLOBAL_DST
    elif bytemask and src is not StateSpace.SHARED:
        reason = BulkCopyRule.BYTEMASK_NEEDS_SHARED_SRC
    elif sequenced and scope is None:
        reason = BulkCopyRule.SEQUENCED_NEEDS_SCOPE
    elif scope is not None and not sequenced:
        reason = BulkCopyRule.SCOPE_NEEDS_SEQUENCED
    else:
        return []
    return [_diagnostic("intrinsic-name", reason)]


MAX_BARRIER_ID = 15
WARP_SIZE = 32

_NO_ORDER_SPACES = frozenset({StateSpace.LOCAL, StateSpace.CONST, StateSpace.PARAM})


def check_ptx_memory_access(
    opcode: str,
    *,
    space: StateSpace | None = None,
    order: MemoryOrder | None = None,
    scope: Scope | None = None,
    mmio: bool = False,
    volatile: bool = False,
) -> list[SyncDiagnostic]:
    """ptxas's PTX errors for the memory-model modifiers of an `ld` or `st`.

    `space` None is a generic address. ptxas reports every broken rule of the instruction,
    in this order.
    """
    found: list[SyncDiagnostic] = []
    if order is not None and space in _NO_ORDER_SPACES:
        found.append(_diagnostic("modifier-space", order, str(space)))
    if mmio and space not in (None, StateSpace.GLOBAL):
        found.append(_diagnostic("modifier-space", "mmio", str(space)))
    if mmio and order is None:
        ordering = MemoryOrder.ACQUIRE if opcode == "ld" else MemoryOrder.RELEASE
        found.append(_diagnostic("mmio-needs-order", ordering, opcode))
    if volatile and scope is not None:
        found.append(_diagnostic("modifier-conflict", "volatile", scope))
    if mmio:
        if scope not in (None, Scope.SYS):
            found.append(_diagnostic("modifier-conflict", "mmio", str(scope)))
        elif scope is None and not volatile:
            found.append(_diagnostic("needs-scope", "mmio", opcode))
        return found
    if order is not None and scope is None:
        found.append(_diagnostic("needs-scope", order, opcode))
    if scope is not None and order is None and not volatile:
        found.append(_diagnostic("needs-memory-order", scope, opcode))
    return found


def check_ptx_fence(
    opcode: str, *, order: MemoryOrder | None, scope: Scope | None
) -> list[SyncDiagnostic]:
    """ptxas's PTX errors for a `fence` (`order` sc / acq_rel) or a `membar` (its level as scope)."""
    if scope is not None:
        return []
    if opcode == "membar":
        return [_diagnostic("membar-needs-level", opcode)]
    found = [_diagnostic("fence-needs-scope", opcode)]
    if order is not None:
        found.append(_diagnostic("needs-scope", order, opcode))
    return found


def check_ptx_barrier(
    opcode: str, *, barrier: int | str, threads: int | str | None = None
) -> list[SyncDiagnostic]:
    """ptxas's PTX errors for the operands of a `bar` / `barrier` instruction.

    `barrier` and `threads` are the operands as written: an immediate, a register name, or
    None for an absent thread count.
    """
    found: list[SyncDiagnostic] = []
    if isinstance(barrier, int) and not 0 <= barrier <= MAX_BARRIER_ID:
        found.append(_diagnostic("barrier-id-range", str(barrier)))
    if isinstance(threads, int) and threads % WARP_SIZE != 0:
        found.append(_diagnostic("barrier-thread-count"))
    if opcode in ("bar.arrive", "barrier.arrive") and threads is None:
        found.append(_diagnostic("arguments-mismatch", opcode))
    return found
