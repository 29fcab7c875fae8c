"""What ptxas 13.5 makes of each PTX synchronization instruction in SASS, and the barrier facts.

The PTX ISA ("Parallel Synchronization and Communication Instructions", "Memory Consistency
Model") says what `bar`, `membar` / `fence`, `mbarrier`, `cp.async`, `barrier.cluster` and the
warp-level `*.sync` instructions mean; this module says what ptxas 13.5.37 emits for them by
default (`-O3`, whole-program), as SASS opcodes in program order, the way `nvdisasm` prints
them. Every entry of `SYNC_LOWERINGS` was seen in the recorded SASS of
`test/ptxas/sync/corpus/`, whose README explains the context-dependent parts (WARPSYNC,
BSSY/BSYNC, the FENCE.VIEW.ASYNC.S before an mbarrier.init, loop shapes) that one
instruction's lowering cannot show.

ptxas's sync phases (25, 26, 42, 71, 72, 99, 100, 114 of seed 003) are what put these
sequences together; a model of them is tested by comparing its output with these opcodes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from tileas_py.hw.arch import sm_version

ERRBARS = "ERRBARS"
"""Stands for ptxas's error barriers after a gpu/sys-scope memory barrier: `ERRBAR`, and
from sm_90 on also `CGAERRBAR` (the cluster's)."""

CONSERVATIVE_MEMBAR_PREFIX = "MEMBAR.ALL.CTA"
"""Under `-c`, `-g` or `-Ofc max` ptxas keeps a `MEMBAR.ALL.CTA` before every MEMBAR at gpu
or sys scope; the default `-O0`..`-O3` whole-program builds drop it."""

EXIT_ERRBARS = ("ERRBAR", "CGAERRBAR")
"""Put before every EXIT by `--make-errors-visible-at-exit` and by `-g` (which also puts
`MEMBAR.SC.VC` first); the kernel then carries EIATTR_GEN_ERRBAR_AT_EXIT (the flag only)."""
DEBUG_EXIT_MEMBAR = "MEMBAR.SC.VC"

NAMED_BARRIERS = 16
"""CTA barriers 0..15; ptxas reserves none of them for itself (seed 003's `BAR.SYNC 15`
error barrier is the separate `ERRBAR` instruction in ptxas 13.5)."""
BARRIER_THREAD_GRANULE = 32
CLUSTER_WAIT_FALLBACK_BARRIER = 0
"""The only barrier ptxas adds on its own: `barrier.cluster.wait` becomes
`UCGABAR_WAIT` on a cluster launch and `BAR.SYNC 0` otherwise (a runtime branch)."""


def num_barriers(barrier_ids: Iterable[int | None]) -> int:
    """EIATTR_NUM_BARRIERS of a kernel whose CTA barriers use these ids (None: a register).

    The highest immediate id plus one, or all 16 as soon as one id is a register.
    """
    ids = list(barrier_ids)
    if any(i is None for i in ids):
        return NAMED_BARRIERS
    return max((i + 1 for i in ids if i is not None), default=0)


@dataclass(frozen=True)
class SyncLowering:
    """The SASS opcodes ptxas emits for the PTX instructions `mnemonic` matches.

    `mnemonic` is a regex over the whole dotted opcode (`fence.acq_rel.gpu`); its named
    groups fill `{name}` slots of `sass`, upper-cased. `operands`, when given, must match the
    operand text too (e.g. to tell an arrive with a count from one without).
    """

    mnemonic: str
    sass: tuple[str, ...]
    since: int = 80
    """The first SM version (sm_80 = 80) the entry applies to."""
    until: int | None = None
    """The last SM version it applies to, None for no limit."""
    operands: str | None = None
    note: str = ""
    own: int = 0
    """The index in `sass` of the instruction's own opcode; the others are what ptxas adds
    before and after it (the fences of a memory order, error barriers, result moves)."""

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.mnemonic)

    @cached_property
    def operand_pattern(self) -> re.Pattern[str] | None:
        return None if self.operands is None else re.compile(self.operands)

    def applies(self, sm: int) -> bool:
        return self.since <= sm and (self.until is None or sm <= self.until)


_SHARED = r"(\.shared(::cta)?)?"
_SCOPE = {"CTA": "SM", "GPU": "GPU", "SYS": "SYS"}


SYNC_LOWERINGS: tuple[SyncLowering, ...] = (
    # -- memory barriers and fences
    SyncLowering(r"membar\.cta|fence\.sc\.cta", ("MEMBAR.SC.CTA",)),
    SyncLowering(r"fence(\.acq_rel|\.release)?\.cta", ("MEMBAR.ALL.CTA",)),
    SyncLowering(r"fence\.acquire\.cta", (), note="nothing at all"),
    SyncLowering(
        r"membar\.gl|fence\.sc\.(gpu|cluster)", ("MEMBAR.SC.GPU", ERRBARS, "CCTL.IVALL")
    ),
    SyncLowering(
        r"membar\.sys|fence\.sc\.sys", ("MEMBAR.SC.SYS", ERRBARS, "CCTL.IVALL")
    ),
    SyncLowering(
        r"fence(\.acq_rel)?\.(gpu|cluster)", ("MEMBAR.ALL.GPU", ERRBARS, "CCTL.IVALL")
    ),
    SyncLowering(r"fence(\.acq_rel)?\.sys", ("MEMBAR.ALL.SYS", ERRBARS, "CCTL.IVALL")),
    SyncLowering(r"fence\.acquire\.(gpu|cluster|sys)", ("CCTL.IVALL",), since=90),
    SyncLowering(
        r"fence\.release\.(gpu|cluster)", ("MEMBAR.ALL.GPU", ERRBARS), since=90
    ),
    SyncLowering(r"fence\.release\.sys", ("MEMBAR.ALL.SYS", ERRBARS), since=90),
    SyncLowering(
        r"fence\.proxy\.async(\.shared::cluster)?",
        ("MEMBAR.ALL.GPU", "FENCE.VIEW.ASYNC.S"),
        since=90,
        own=1,
    ),
    SyncLowering(
        r"fence\.proxy\.async\.shared::cta",
        ("MEMBAR.ALL.CTA", "FENCE.VIEW.ASYNC.S"),
        since=90,
        own=1,
    ),
    SyncLowering(r"fence\.proxy\.async\.global", ("FENCE.VIEW.ASYNC.G",), since=90),
    SyncLowering(
        r"(fence|membar)\.proxy\.alias",
        ("MEMBAR.SC.GPU", "MEMBAR.SC.SYS", "CCTL.IVALL"),
        note="a uniform flag read at run time picks MEMBAR.SC.GPU or MEMBAR.SC.SYS",
        own=2,
    ),
    SyncLowering(
        r"fence\.proxy\.tensormap::generic\.release\.gpu",
        ("MEMBAR.ALL.GPU", ERRBARS),
        since=90,
    ),
    SyncLowering(
        r"fence\.proxy\.tensormap::generic\.acquire\.gpu",
        ("DEPBAR", "UTMACCTL.IV", "UTMACMDFLUSH"),
        since=90,
        note="DEPBAR {5,4,3,2,1,0}: a wait on every scoreboard",
        own=1,
    ),
    SyncLowering(
        r"fence\.mbarrier_init\.release\.cluster",
        (),
        since=90,
        note="nothing: SYNCS.EXCH.64 (mbarrier.init) is already ordered",
    ),
    # -- CTA barriers
    SyncLowering(
        r"(bar|barrier)(\.cta)?\.sync(\.aligned)?", ("BAR.SYNC.DEFER_BLOCKING",)
    ),
    SyncLowering(r"(bar|barrier)(\.cta)?\.arrive(\.aligned)?", ("BAR.ARV",)),
    SyncLowering(
        r"(bar|barrier)(\.cta)?\.red\.(?P<op>popc|and|or)(\.aligned)?\.(u32|pred)",
        ("BAR.RED.{op}.DEFER_BLOCKING", "B2R.RESULT"),
    ),
    SyncLowering(
        r"bar\.warp\.sync",
        (),
        note="nothing where ptxas proves the warp converged, else WARPSYNC <mask>",
    ),
    # -- cluster barriers
    SyncLowering(
        r"barrier\.cluster\.arrive(\.release)?(\.aligned)?",
        ("MEMBAR.ALL.GPU", ERRBARS, "UCGABAR_ARV"),
        since=90,
        note="on a cluster launch only; a runtime branch skips it otherwise",
        own=2,
    ),
    SyncLowering(
        r"barrier\.cluster\.arrive\.relaxed(\.aligned)?", ("UCGABAR_ARV",), since=90
    ),
    SyncLowering(
        r"barrier\.cluster\.wait(\.acquire)?(\.aligned)?",
        ("UCGABAR_WAIT", "CCTL.IVALL"),
        since=90,
        note="BAR.SYNC 0 instead when the kernel is not launched as a cluster",
    ),
    # -- mbarriers: the SYNCS unit from sm_90 on
    SyncLowering(
        rf"mbarrier\.init{_SHARED}\.b64",
        ("SYNCS.EXCH.64",),
        since=90,
        note="FENCE.VIEW.ASYNC.S before it unless it is in the entry block with no st.shared "
        "before it",
    ),
    SyncLowering(
        rf"mbarrier\.arrive(\.release\.cta)?{_SHARED}\.b64",
        ("SYNCS.ARRIVE.TRANS64.A1T0",),
        since=90,
        operands=r"[^,]+, \[[^\]]+\]",
    ),
    SyncLowering(
        rf"mbarrier\.arrive(\.release\.cta)?{_SHARED}\.b64",
        ("SYNCS.ARRIVE.TRANS64.ART0",),
        since=90,
        operands=r"[^,]+, \[[^\]]+\], [^,]+",
    ),
    SyncLowering(
        rf"mbarrier\.arrive\.noComplete{_SHARED}\.b64",
        ("SYNCS.ARRIVE.TRANS64.TMASK.ART0",),
        since=90,
    ),
    SyncLowering(
        rf"mbarrier\.arrive\.release\.cluster{_SHARED}\.b64",
        ("MEMBAR.ALL.CTA", "MEMBAR.ALL.GPU", ERRBARS, "SYNCS.ARRIVE.TRANS64.A1T0"),
        since=90,
        own=3,
    ),
    SyncLowering(
        r"mbarrier\.arrive\.release\.cluster\.shared::cluster\.b64",
        ("MEMBAR.ALL.CTA", "MEMBAR.ALL.GPU", ERRBARS, "SYNCS.ARRIVE.TRANS64.RED.A1T0"),
        since=90,
        own=3,
    ),
    SyncLowering(
        rf"mbarrier\.arrive_drop{_SHARED}\.b64",
        ("SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0",),
        since=90,
    ),
    SyncLowering(
        rf"mbarrier\.arrive\.expect_tx{_SHARED}\.b64",
        ("SYNCS.ARRIVE.TRANS64",),
        since=90,
    ),
    SyncLowering(
        rf"mbarrier\.expect_tx\.relaxed\.cta{_SHARED}\.b64",
        ("SYNCS.ARRIVE.TRANS64.RED.A0TR",),
        since=90,
    ),
    SyncLowering(
        rf"mbarrier\.complete_tx\.relaxed\.cta{_SHARED}\.b64",
        ("SYNCS.ARRIVE.TRANS64.RED.A0TX",),
        since=90,
    ),
    SyncLowering(
        rf"mbarrier\.test_wait(\.parity)?{_SHARED}\.b64",
        ("SYNCS.PHASECHK.TRANS64",),
        since=90,
    ),
    SyncLowering(
        rf"mbarrier\.try_wait(\.parity)?{_SHARED}\.b64",
        ("SYNCS.PHASECHK.TRANS64.TRYWAIT",),
        since=90,
        operands=r"[^,]+, \[[^\]]+\], [^,]+",
        note="a spin loop branches to an out-of-line copy that waits again",
    ),
    SyncLowering(
        rf"mbarrier\.try_wait(\.parity)?{_SHARED}\.b64",
        ("SYNCS.PHASECHK.TRANS64.TRYWAIT", "NANOSLEEP.SYNCS", "SYNCS.PHASECHK.TRANS64"),
        since=90,
        operands=r"[^,]+, \[[^\]]+\], [^,]+, [^,]+",
        note="with a suspend-time hint: the retry sleeps, then tests without waiting",
    ),
    SyncLowering(
        rf"mbarrier\.try_wait(\.parity)?\.acquire\.cluster{_SHARED}\.b64",
        ("SYNCS.PHASECHK.TRANS64.TRYWAIT", "CCTL.IVALL"),
        since=90,
        note="the CCTL.IVALL is predicated on success",
    ),
    SyncLowering(rf"mbarrier\.inval{_SHARED}\.b64", ("SYNCS.CCTL.IV",), since=90),
    SyncLowering(r"mbarrier\.pending_count\.b64", (), note="arithmetic on the state"),
    SyncLowering(
        rf"cp\.async\.mbarrier\.arrive{_SHARED}\.b64",
        ("SYNCS.ARRIVE.TRANS64.RED.A0T1", "ARRIVES.LDGSTSBAR.64.TRANSCNT"),
        since=90,
    ),
    SyncLowering(
        rf"cp\.async\.mbarrier\.arrive\.noinc{_SHARED}\.b64",
        ("ARRIVES.LDGSTSBAR.64.ARVCNT",),
        since=90,
    ),
    # -- mbarriers before sm_90: shared-memory atomics
    SyncLowering(
        rf"mbarrier\.init{_SHARED}\.b64",
        ("STS.64",),
        until=89,
        note="a plain 64-bit store",
    ),
    SyncLowering(
        rf"mbarrier\.arrive{_SHARED}\.b64",
        ("MEMBAR.ALL.CTA", "ATOMS.ARRIVE.64"),
        until=89,
        own=1,
    ),
    SyncLowering(
        rf"mbarrier\.arrive_drop{_SHARED}\.b64",
        ("MEMBAR.ALL.CTA", "ATOMS.POPC.INC.32", "ATOMS.ARRIVE.64"),
        until=89,
        own=2,
    ),
    SyncLowering(
        rf"mbarrier\.arrive\.noComplete{_SHARED}\.b64",
        ("MEMBAR.ALL.CTA", "VOTEU.ANY", "ATOMS.ADD", "SHFL.IDX"),
        until=89,
        note="one lane adds the warp's count",
        own=2,
    ),
    SyncLowering(
        rf"mbarrier\.test_wait(\.parity)?{_SHARED}\.b64",
        ("LDS",),
        until=89,
        note="a load of the phase word",
    ),
    SyncLowering(rf"mbarrier\.inval{_SHARED}\.b64", (), until=89),
    SyncLowering(
        rf"cp\.async\.mbarrier\.arrive{_SHARED}\.b64",
        ("VOTE.ALL", "ATOMS.ADD.S32", "ARRIVES.LDGSTSBAR.64"),
        until=89,
        own=2,
    ),
    SyncLowering(
        rf"cp\.async\.mbarrier\.arrive\.noinc{_SHARED}\.b64",
        ("ARRIVES.LDGSTSBAR.64",),
        until=89,
    ),
    # -- cp.async groups
    SyncLowering(
        rf"cp\.async\.ca{_SHARED}\.global",
        ("LDGSTS.E",),
        operands=r".*, 4",
        note="4 bytes",
    ),
    SyncLowering(
        rf"cp\.async\.cg{_SHARED}\.global",
        ("LDGSTS.E.BYPASS.128",),
        operands=r".*, 16",
        note="16 bytes, bypassing L1",
    ),
    SyncLowering(r"cp\.async\.commit_group", ("LDGDEPBAR",)),
    SyncLowering(r"cp\.async\.wait_group", ("DEPBAR.LE",), note="DEPBAR.LE SB0, N"),
    SyncLowering(
        r"cp\.async\.wait_all",
        ("LDGDEPBAR", "DEPBAR.LE"),
        note="DEPBAR.LE SB0, 0x0",
        own=1,
    ),
    # -- bulk copies and TMA (one elected lane, in a uniform loop)
    SyncLowering(
        r"cp\.async\.bulk\.tensor\.(?P<dim>\dd)\.shared::(cluster|cta)\.global(\..+)?",
        ("UTMALDG.{dim}",),
        since=90,
    ),
    SyncLowering(
        r"cp\.async\.bulk\.tensor\.(?P<dim>\dd)\.global\.shared::cta(\..+)?",
        ("UTMASTG.{dim}",),
        since=90,
    ),
    SyncLowering(
        r"cp\.reduce\.async\.bulk\.tensor\.(?P<dim>\dd)\.global\.shared::cta\.(?P<op>add)(\..+)?",
        ("UTMAREDG.{dim}.{op}",),
        since=90,
    ),
    SyncLowering(
        r"cp\.async\.bulk\.global\.shared::cta(\..+)?", ("UBLKCP.G.S",), since=90
    ),
    SyncLowering(
        r"cp\.async\.bulk\.shared::(cluster|cta)\.global(\..+)?",
        ("UBLKCP.S.G",),
        since=90,
    ),
    SyncLowering(r"cp\.async\.bulk\.prefetch\.L2\.global", ("UBLKPF.L2",), since=90),
    SyncLowering(r"cp\.async\.bulk\.commit_group", ("UTMACMDFLUSH",), since=90),
    SyncLowering(r"cp\.async\.bulk\.wait_group\.read", ("DEPBAR.LE",), since=90),
    SyncLowering(r"cp\.async\.bulk\.wait_group", ("DEPBAR.LE", "CCTL.IVALL"), since=90),
    # -- warp-level operations
    SyncLowering(r"elect\.sync", ("ELECT",), since=90),
    SyncLowering(
        r"setmaxnreg\.dec\.sync\.aligned\.u32",
        ("USETMAXREG.DEALLOC.CTAPOOL",),
        since=90,
        note="only when the entry's register count is known (.maxnreg, .minnctapersm)",
    ),
    SyncLowering(
        r"setmaxnreg\.inc\.sync\.aligned\.u32",
        ("USETMAXREG.TRY_ALLOC.CTAPOOL",),
        since=90,
        note="in a loop that retries until the allocation succeeds",
    ),
    SyncLowering(r"shfl\.sync\.(?P<mode>idx|up|down|bfly)\.b32", ("SHFL.{mode}",)),
    SyncLowering(r"vote\.sync\.(?P<mode>all|any)\.pred", ("VOTE.{mode}",)),
    SyncLowering(r"vote\.sync\.ballot\.b32", ("VOTE.ANY",)),
    SyncLowering(r"match\.any\.sync\.b32", ("MATCH.ANY",)),
    SyncLowering(r"redux\.sync\.add\.u32", ("REDUX.SUM",)),
    SyncLowering(r"activemask\.b32", ("VOTEU.ANY",)),
    # -- memory accesses with a memory order
    SyncLowering(
        r"ld\.acquire\.(?P<scope>gpu|sys)\.global\.(u|b|s)32",
        ("LDG.E.STRONG.{scope}", "CCTL.IVALL"),
    ),
    SyncLowering(r"ld\.relaxed\.cta\.global\.(u|b|s)32", ("LDG.E.STRONG.SM",)),
    SyncLowering(
        r"st\.release\.(?P<scope>gpu|sys)\.global\.(u|b|s)32",
        ("MEMBAR.ALL.{scope}", ERRBARS, "STG.E.STRONG.{scope}"),
        own=2,
    ),
    SyncLowering(
        r"atom\.acq_rel\.gpu\.global\.add\.u32",
        ("MEMBAR.ALL.GPU", ERRBARS, "ATOMG.E.ADD.STRONG.GPU", "CCTL.IVALL"),
        own=2,
    ),
    SyncLowering(
        r"atom\.release\.global\.add\.u32",
        ("MEMBAR.ALL.GPU", ERRBARS, "ATOMG.E.ADD.STRONG.GPU"),
        note="the scope defaults to .gpu",
        own=2,
    ),
    SyncLowering(r"atom\.gpu\.global\.add\.u32", ("ATOMG.E.ADD.STRONG.GPU",)),
    SyncLowering(
        r"red\.release\.gpu\.global\.add\.u32",
        ("MEMBAR.ALL.GPU", ERRBARS, "REDG.E.ADD.STRONG.GPU"),
        own=2,
    ),
    SyncLowering(r"red\.gpu\.global\.add\.u32", ("REDG.E.ADD.STRONG.GPU",)),
    SyncLowering(r"ld\.mmio\.relaxed\.sys\.global\.(u|b|s)32", ("LDG.E.MMIO.SYS",)),
    SyncLowering(r"ld\.mmio\.relaxed\.sys\.(u|b|s)32", ("LD.E.MMIO.SYS",)),
    SyncLowering(r"st\.mmio\.relaxed\.sys\.global\.(u|b|s)32", ("STG.E.MMIO.SYS",)),
    SyncLowering(r"st\.mmio\.relaxed\.sys\.(u|b|s)32", ("ST.E.MMIO.SYS",)),
)


_INSTRUCTION = re.compile(
    r"^\s*(@!?%\w+\s+)?(?P<mnemonic>[\w.:]+)(\s+(?P<operands>[^;]*))?;?\s*$"
)


LOWERED_ROOTS = frozenset(
    {
        "membar",
        "fence",
        "bar",
        "barrier",
        "mbarrier",
        "cp",
        "elect",
        "setmaxnreg",
        "shfl",
        "vote",
        "match",
        "redux",
        "activemask",
    }
)
"""Mnemonic roots that always have an entry in `SYNC_LOWERINGS` to look for."""
_ORDERED_ROOTS = frozenset({"ld", "st", "atom", "red"})
_ORDERINGS = frozenset(
    {"acquire", "release", "acq_rel", "relaxed", "mmio", "gpu", "sys"}
)


def may_have_lowering(mnemonic: str) -> bool:
    """A cheap test that rules out most instructions before `find_lowering`."""
    root, *modifiers = mnemonic.split(".")
    if root in LOWERED_ROOTS:
        return True
    return root in _ORDERED_ROOTS and not _ORDERINGS.isdisjoint(modifiers)


def find_lowering(instruction: str, arch: str) -> SyncLowering | None:
    """The entry of `SYNC_LOWERINGS` for one PTX instruction (`fence.sc.gpu;`), or None."""
    parsed = _INSTRUCTION.match(instruction)
    if parsed is None:
        return None
    mnemonic, operands = (
        parsed.group("mnemonic"),
        (parsed.group("operands") or "").strip(),
    )
    sm = sm_version(arch)
    for lowering in SYNC_LOWERINGS:
        if not lowering.applies(sm) or lowering.pattern.fullmatch(mnemonic) is None:
            continue
        if lowering.operand_pattern is None or lowering.operand_pattern.fullmatch(
            operands
        ):
            return lowering
    return None


@dataclass(frozen=True)
class LoweringParts:
    """One instruction's SASS split around its own opcode; `ERRBARS` marks error barriers."""

    before: tuple[str, ...]
    own: str | None
    """None when ptxas emits nothing for the instruction."""
    after: tuple[str, ...]


def _lowering_with_slots(
    instruction: str, arch: str
) -> tuple[SyncLowering, dict[str, str]] | None:
    """The lowering of a PTX sync instruction with the values of its pattern's `{slots}`
    (scopes in ptxas's spelling); None if no lowering is known."""
    lowering = find_lowering(instruction, arch)
    if lowering is None:
        return None
    parsed = _INSTRUCTION.match(instruction)
    assert parsed is not None
    groups = lowering.pattern.fullmatch(parsed.group("mnemonic"))
    assert groups is not None
    slots = {
        k: _SCOPE.get(v.upper(), v.upper()) for k, v in groups.groupdict().items() if v
    }
    return lowering, slots


@lru_cache(maxsize=1 << 14)
def lowering_parts(instruction: str, arch: str) -> LoweringParts | None:
    """The SASS of a PTX sync instruction split into what ptxas adds before it, its own
    opcode and what follows, with `{slots}` filled; None if no lowering is known.

    `ERRBARS` stays a marker, for the caller to expand (`errbar_opcodes`) or drop.
    """
    found = _lowering_with_slots(instruction, arch)
    if found is None:
        return None
    lowering, slots = found
    opcodes = tuple(op if op == ERRBARS else op.format(**slots) for op in lowering.sass)
    if not opcodes:
        return LoweringParts((), None, ())
    return LoweringParts(
        opcodes[: lowering.own], opcodes[lowering.own], opcodes[lowering.own + 1 :]
    )


def errbar_opcodes(arch: str) -> tuple[str, ...]:
    """What `ERRBARS` stands for on `arch`: ERRBAR, and from sm_90 on also CGAERRBAR."""
    return ("ERRBAR", "CGAERRBAR") if sm_version(arch) >= 90 else ("ERRBAR",)


SYNC_OPCODE_ROOTS = frozenset(
    {
        # CTA barriers, memory barriers and the error barriers ptxas adds after them
        "BAR",
        "B2R",
        "MEMBAR",
        "ERRBAR",
        "CGAERRBAR",
        "FENCE",
        "CCTL",
        # cluster barriers
        "UCGABAR_ARV",
        "UCGABAR_WAIT",
        # warp convergence and warp-level synchronizing operations
        "WARPSYNC",
        "BSSY",
        "BSYNC",
        "BMOV",
        "BREAK",
        "ENDCOLLECTIVE",
        "YIELD",
        "VOTE",
        "VOTEU",
        "SHFL",
        "MATCH",
        "REDUX",
        "ELECT",
        "NANOSLEEP",
        # scoreboard waits, cp.async groups, mbarriers, TMA and bulk copies
        "DEPBAR",
        "LDGDEPBAR",
        "LDGSTS",
        "ARRIVES",
        "SYNCS",
        "UTMALDG",
        "UTMASTG",
        "UTMAREDG",
        "UTMAPF",
        "UTMACCTL",
        "UTMACMDFLUSH",
        "UBLKCP",
        "UBLKRED",
        "UBLKPF",
        "REDAS",
        "STAS",
        # warpgroup synchronization and register reconfiguration
        "WARPGROUP",
        "USETMAXREG",
    }
)
"""The SASS opcode roots a listing of ptxas's synchronization keeps."""
CONTROL_FLOW_OPCODE_ROOTS = frozenset(
    {"BRA", "EXIT", "RET", "CALL", "JMP", "BRX", "JMX"}
)
ORDERING_MODIFIERS = frozenset({"STRONG", "MMIO", "ARRIVE"})
"""Loads, stores and atomics that carry one of these (`LDG.E.STRONG.GPU`,
`ATOMS.ARRIVE.64`) are kept too: they show where ptxas put the fences of a memory order."""


def is_sync_relevant(opcode: str) -> bool:
    """Whether a listing of ptxas's synchronization keeps this SASS opcode: sync
    instructions, ordered memory accesses and control flow."""
    root, *modifiers = opcode.split(".")
    return (
        root in SYNC_OPCODE_ROOTS
        or root in CONTROL_FLOW_OPCODE_ROOTS
        or not ORDERING_MODIFIERS.isdisjoint(modifiers)
    )


def sass_opcodes(
    instruction: str, arch: str, *, conservative: bool = False
) -> tuple[str, ...] | None:
    """The SASS opcodes ptxas 13.5 emits for a PTX sync instruction, in order; None if unknown.

    `conservative` is for `-c`, `-g` and `-Ofc max`, which keep `CONSERVATIVE_MEMBAR_PREFIX`
    before gpu/sys-scope memory barriers.
    """
    found = _lowering_with_slots(instruction, arch)
    if found is None:
        return None
    lowering, slots = found
    errbars = errbar_opcodes(arch)
    opcodes: list[str] = []
    for opcode in lowering.sass:
        if opcode == ERRBARS:
            opcodes.extend(errbars)
            continue
        if (
            conservative
            and re.fullmatch(r"MEMBAR\.(SC|ALL)\.(GPU|SYS)", opcode)
            and (not opcodes or opcodes[-1] != CONSERVATIVE_MEMBAR_PREFIX)
        ):
            opcodes.append(CONSERVATIVE_MEMBAR_PREFIX)
        opcodes.append(opcode.format(**slots))
    return tuple(opcodes)
