"""tileas_py.hw.sync on its own: message formatting, checkers and the SASS lowering table.

The lines below are copied from test/ptxas/sync/corpus/*.expected, where the corpus test
checks that ptxas 13.5 still prints them.
"""

import pytest

from tileas_py.hw.sync import (
    SYNC_LOWERINGS,
    SYNC_MESSAGE_BY_NAME,
    SYNC_MESSAGES,
    BulkCopyRule,
    MemoryOrder,
    MemoryOrderRule,
    Scope,
    Severity,
    StateSpace,
    SyncDiagnostic,
    SyncMessage,
    check_bulk_copy_subops,
    check_intrinsic_memory_order,
    check_ptx_barrier,
    check_ptx_fence,
    check_ptx_memory_access,
    find_lowering,
    num_barriers,
    parse_line,
    parse_ptxas_output,
    sass_opcodes,
    sm_version,
)

REQUIRED_SCOPE = (
    "ptxas application ptx input, line 24; fatal   : (C7308) Intrinsic - "
    '"Required scope with memory order semantics"'
)
DEPRECATED_SCOPE = 'ptxas warning : (C7308) Intrinsic - "Deprecated scope without memory order semantics"'
MMIO_ON_SHARED = (
    "ptxas application ptx input, line 24; fatal   : (C7308) Intrinsic - "
    '"Domain param "_global" required for mmio semantics"'
)
BYTEMASK_WITH_COUNTED = (
    "ptxas application ptx input, line 28; fatal   : (C7300) Unexpected intrinsic name "
    "(byte mask not allowed with counted)"
)
PTX_MMIO_ON_SHARED = (
    "ptxas ptx_mmio_on_shared.ptx, line 15; error   : "
    "Modifier '.mmio' cannot be applied to '.shared' space"
)


def messages(diagnostics: list[SyncDiagnostic]) -> list[tuple[str, tuple[str, ...]]]:
    return [(d.message.name, d.args) for d in diagnostics]


def test_names_are_unique_and_codes_are_the_c73xx_and_c75xx_families() -> None:
    assert len(SYNC_MESSAGE_BY_NAME) == len(SYNC_MESSAGES)
    codes = {m.code for m in SYNC_MESSAGES if m.code is not None}
    assert codes == {7300, 7301, 7302, 7303, 7305, 7306, 7307, 7308, 7504, 7505, 7508}


def test_severity_labels_are_padded_like_ptxas() -> None:
    assert Severity.FATAL.label == "fatal   : "
    assert Severity.WARNING.label == "warning : "
    assert Severity.ERROR.label == "error   : "


def test_format_reproduces_ptxas_lines() -> None:
    rule = SYNC_MESSAGE_BY_NAME["intrinsic-rule"]
    assert (
        SyncDiagnostic(rule, (MemoryOrderRule.SCOPE_REQUIRED,)).at(24).format()
        == REQUIRED_SCOPE
    )
    deprecation = SyncDiagnostic(SYNC_MESSAGE_BY_NAME["intrinsic-deprecation"])
    assert deprecation.format() == DEPRECATED_SCOPE
    space = SyncDiagnostic(SYNC_MESSAGE_BY_NAME["modifier-space"], ("mmio", "shared"))
    assert space.at(15, "ptx_mmio_on_shared.ptx").format() == PTX_MMIO_ON_SHARED


def test_intrinsic_messages_are_located_in_the_application_ptx_input() -> None:
    located = SyncDiagnostic(
        SYNC_MESSAGE_BY_NAME["intrinsic-rule"], (MemoryOrderRule.MMIO_NEEDS_GLOBAL,)
    ).at(24, "k.ptx")
    assert located.file == "application ptx input"
    assert located.format() == MMIO_ON_SHARED


def test_unlocated_diagnostic_of_a_located_message_cannot_be_printed() -> None:
    with pytest.raises(ValueError, match="needs a file and line"):
        SyncDiagnostic(SYNC_MESSAGE_BY_NAME["barrier-thread-count"]).format()


def test_warning_as_error_prints_the_warning_as_an_unlocated_error() -> None:
    promoted = SyncDiagnostic(
        SYNC_MESSAGE_BY_NAME["intrinsic-deprecation"], severity=Severity.ERROR
    )
    assert promoted.format() == DEPRECATED_SCOPE.replace("warning : ", "error   : ")
    assert parse_line(promoted.format()) == promoted


def test_parse_reads_message_arguments_and_location() -> None:
    parsed = parse_line(BYTEMASK_WITH_COUNTED)
    assert parsed is not None
    assert parsed.message.name == "intrinsic-name"
    assert parsed.args == (BulkCopyRule.BYTEMASK_WITH_COUNTED,)
    assert (parsed.file, parsed.line) == ("application ptx input", 28)
    ptx = parse_line(PTX_MMIO_ON_SHARED)
    assert ptx is not None
    assert (ptx.message.name, ptx.args, ptx.line) == (
        "modifier-space",
        ("mmio", "shared"),
        15,
    )


@pytest.mark.parametrize("message", SYNC_MESSAGES, ids=[m.name for m in SYNC_MESSAGES])
def test_every_message_round_trips(message: SyncMessage) -> None:
    slots = message.template.count("{")
    diagnostic = SyncDiagnostic(message, tuple(f"x{i}" for i in range(slots)))
    if message.located:
        diagnostic = diagnostic.at(7, "k.ptx")
    assert parse_line(diagnostic.format()) == diagnostic


def test_other_ptxas_lines_are_not_sync_diagnostics() -> None:
    text = "\n".join(
        [
            "ptxas fatal   : Ptx assembly aborted due to errors",
            "ptxas fatal   : (C7907) Internal compiler error.",
            "ptxas warning :  .debug_abbrev section not found",
            DEPRECATED_SCOPE,
            MMIO_ON_SHARED,
        ]
    )
    assert [d.message.name for d in parse_ptxas_output(text)] == [
        "intrinsic-deprecation",
        "intrinsic-rule",
    ]


# -- checkers


def test_intrinsic_memory_order_checks_domain_then_order_then_scope_then_mmio() -> None:
    shared, global_ = StateSpace.SHARED, StateSpace.GLOBAL
    gpu, release = Scope.GPU, MemoryOrder.RELEASE
    assert messages(
        check_intrinsic_memory_order(domain=None, scope=gpu, order=release)
    ) == [("intrinsic-rule", (MemoryOrderRule.DOMAIN_REQUIRED,))]
    # A memory order without a scope is fatal before the mmio rule is looked at.
    assert messages(
        check_intrinsic_memory_order(
            domain=shared, scope=None, order=release, mmio=True
        )
    ) == [("intrinsic-rule", (MemoryOrderRule.SCOPE_REQUIRED,))]
    # A scope without an order only warns, so the mmio rule still fires.
    assert messages(
        check_intrinsic_memory_order(domain=shared, scope=gpu, order=None, mmio=True)
    ) == [
        ("intrinsic-deprecation", ()),
        ("intrinsic-rule", (MemoryOrderRule.MMIO_NEEDS_GLOBAL,)),
    ]
    assert check_intrinsic_memory_order(domain=shared, scope=gpu, order=release) == []
    assert (
        check_intrinsic_memory_order(
            domain=global_, scope=gpu, order=release, mmio=True
        )
        == []
    )


def test_bulk_copy_rules_in_ptxas_order() -> None:
    def reasons(diagnostics: list[SyncDiagnostic]) -> list[str]:
        assert all(d.message.code == 7300 for d in diagnostics)
        return [d.args[0] for d in diagnostics]

    g, s = StateSpace.GLOBAL, StateSpace.SHARED
    assert reasons(
        check_bulk_copy_subops(dst=s, src=s, counted=True, bytemask=True)
    ) == [BulkCopyRule.BYTEMASK_WITH_COUNTED]
    assert reasons(
        check_bulk_copy_subops(dst=s, src=g, bytemask=True, sequenced=True)
    ) == [BulkCopyRule.BYTEMASK_NEEDS_GLOBAL_DST]
    assert reasons(check_bulk_copy_subops(dst=g, src=g, bytemask=True)) == [
        BulkCopyRule.BYTEMASK_NEEDS_SHARED_SRC
    ]
    assert reasons(check_bulk_copy_subops(dst=g, src=s, sequenced=True)) == [
        BulkCopyRule.SEQUENCED_NEEDS_SCOPE
    ]
    assert reasons(check_bulk_copy_subops(dst=g, src=s, scope=Scope.GPU)) == [
        BulkCopyRule.SCOPE_NEEDS_SEQUENCED
    ]
    assert (
        check_bulk_copy_subops(
            dst=g, src=s, sequenced=True, scope=Scope.GPU, bytemask=True
        )
        == []
    )


def test_memory_access_rules() -> None:
    ld, st = "ld", "st"
    shared, gpu, sys = StateSpace.SHARED, Scope.GPU, Scope.SYS
    relaxed, acquire = MemoryOrder.RELAXED, MemoryOrder.ACQUIRE
    # ld.mmio.shared: space, order and scope, in this order
    assert messages(check_ptx_memory_access(ld, space=shared, mmio=True)) == [
        ("modifier-space", ("mmio", "shared")),
        ("mmio-needs-order", ("acquire", "ld")),
        ("needs-scope", ("mmio", "ld")),
    ]
    # ld.mmio.gpu.shared: the conflicting scope replaces the missing-scope error
    assert messages(
        check_ptx_memory_access(ld, space=shared, scope=gpu, mmio=True)
    ) == [
        ("modifier-space", ("mmio", "shared")),
        ("mmio-needs-order", ("acquire", "ld")),
        ("modifier-conflict", ("mmio", "gpu")),
    ]
    assert messages(check_ptx_memory_access(st, mmio=True)) == [
        ("mmio-needs-order", ("release", "st")),
        ("needs-scope", ("mmio", "st")),
    ]
    assert messages(check_ptx_memory_access(ld, volatile=True, mmio=True)) == [
        ("mmio-needs-order", ("acquire", "ld"))
    ]
    assert messages(
        check_ptx_memory_access(
            ld, space=StateSpace.LOCAL, order=relaxed, scope=sys, mmio=True
        )
    ) == [
        ("modifier-space", ("relaxed", "local")),
        ("modifier-space", ("mmio", "local")),
    ]
    assert messages(check_ptx_memory_access(ld, order=acquire)) == [
        ("needs-scope", ("acquire", "ld"))
    ]
    assert messages(check_ptx_memory_access(st, scope=Scope.CTA)) == [
        ("needs-memory-order", ("cta", "st"))
    ]
    assert messages(check_ptx_memory_access(ld, scope=gpu, volatile=True)) == [
        ("modifier-conflict", ("volatile", "gpu"))
    ]
    assert (
        check_ptx_memory_access(
            ld, space=StateSpace.GLOBAL, order=relaxed, scope=sys, mmio=True
        )
        == []
    )
    assert check_ptx_memory_access(ld, space=shared, order=acquire, scope=gpu) == []


def test_fence_and_barrier_rules() -> None:
    assert messages(check_ptx_fence("fence", order=MemoryOrder.SC, scope=None)) == [
        ("fence-needs-scope", ("fence",)),
        ("needs-scope", ("sc", "fence")),
    ]
    assert messages(check_ptx_fence("membar", order=None, scope=None)) == [
        ("membar-needs-level", ("membar",))
    ]
    assert (
        check_ptx_fence("fence", order=MemoryOrder.ACQ_REL, scope=Scope.CLUSTER) == []
    )
    assert messages(check_ptx_barrier("bar.sync", barrier=16, threads=33)) == [
        ("barrier-id-range", ("16",)),
        ("barrier-thread-count", ()),
    ]
    assert messages(check_ptx_barrier("bar.arrive", barrier=1)) == [
        ("arguments-mismatch", ("bar.arrive",))
    ]
    assert check_ptx_barrier("bar.arrive", barrier="%r1", threads="%r2") == []
    assert check_ptx_barrier("bar.sync", barrier=15, threads=1024) == []


# -- SASS lowering


def test_errbars_depend_on_the_architecture() -> None:
    assert sass_opcodes("membar.sys;", "sm_80") == (
        "MEMBAR.SC.SYS",
        "ERRBAR",
        "CCTL.IVALL",
    )
    assert sass_opcodes("membar.sys;", "sm_90a") == (
        "MEMBAR.SC.SYS",
        "ERRBAR",
        "CGAERRBAR",
        "CCTL.IVALL",
    )
    assert sass_opcodes("fence.acq_rel.cluster;", "sm_100a") == (
        "MEMBAR.ALL.GPU",
        "ERRBAR",
        "CGAERRBAR",
        "CCTL.IVALL",
    )
    assert sass_opcodes("membar.cta;", "sm_90a") == ("MEMBAR.SC.CTA",)


def test_conservative_builds_keep_a_cta_membar_before_gpu_and_sys_ones() -> None:
    assert sass_opcodes("fence.sc.gpu;", "sm_90a", conservative=True) == (
        "MEMBAR.ALL.CTA",
        "MEMBAR.SC.GPU",
        "ERRBAR",
        "CGAERRBAR",
        "CCTL.IVALL",
    )
    assert sass_opcodes("membar.cta;", "sm_90a", conservative=True) == (
        "MEMBAR.SC.CTA",
    )
    release = "mbarrier.arrive.release.cluster.shared::cta.b64 %rd4, [bar];"
    assert sass_opcodes(release, "sm_90a", conservative=True) == sass_opcodes(
        release, "sm_90a"
    )


def test_named_groups_fill_the_opcodes() -> None:
    assert sass_opcodes("bar.red.popc.u32 %r2, 6, %p1;", "sm_90a") == (
        "BAR.RED.POPC.DEFER_BLOCKING",
        "B2R.RESULT",
    )
    tma = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [t], [%rd1, {%r2, %r2}], [bar];"
    assert sass_opcodes(tma, "sm_90a") == ("UTMALDG.2D",)
    assert sass_opcodes("ld.acquire.gpu.global.u32 %r2, [%rd1];", "sm_90a") == (
        "LDG.E.STRONG.GPU",
        "CCTL.IVALL",
    )
    assert sass_opcodes("ld.relaxed.cta.global.u32 %r1, [%rd1];", "sm_90a") == (
        "LDG.E.STRONG.SM",
    )


def test_operands_choose_between_lowerings() -> None:
    arrive = "mbarrier.arrive.shared::cta.b64 %rd2, [bar]"
    assert sass_opcodes(f"{arrive};", "sm_90a") == ("SYNCS.ARRIVE.TRANS64.A1T0",)
    assert sass_opcodes(f"{arrive}, 2;", "sm_90a") == ("SYNCS.ARRIVE.TRANS64.ART0",)
    wait = "mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], %r1"
    assert sass_opcodes(f"{wait};", "sm_90a") == ("SYNCS.PHASECHK.TRANS64.TRYWAIT",)
    assert sass_opcodes(f"@%p3 {wait}, 1000;", "sm_90a") == (
        "SYNCS.PHASECHK.TRANS64.TRYWAIT",
        "NANOSLEEP.SYNCS",
        "SYNCS.PHASECHK.TRANS64",
    )


def test_mbarriers_before_sm90_are_shared_memory_atomics() -> None:
    arrive = "mbarrier.arrive.shared.b64 %rd2, [bar];"
    assert sass_opcodes(arrive, "sm_80") == ("MEMBAR.ALL.CTA", "ATOMS.ARRIVE.64")
    assert (
        sass_opcodes("mbarrier.try_wait.parity.shared.b64 %p1, [bar], 0;", "sm_80")
        is None
    )


def test_unknown_instructions_have_no_lowering() -> None:
    assert find_lowering("add.u32 %r1, %r2, %r3;", "sm_90a") is None
    assert sass_opcodes("// bar.sync 0", "sm_90a") is None
    assert sass_opcodes("LOOP:", "sm_90a") is None


def test_lowering_entries_are_distinct() -> None:
    keys = [
        (lowering.mnemonic, lowering.operands, lowering.since, lowering.until)
        for lowering in SYNC_LOWERINGS
    ]
    assert len(set(keys)) == len(keys)


def test_sm_version_and_num_barriers() -> None:
    assert [sm_version(a) for a in ("sm_80", "sm_90a", "sm_100a", "compute_90")] == [
        80,
        90,
        100,
        90,
    ]
    with pytest.raises(ValueError, match="not a GPU architecture"):
        sm_version("gfx90a")
    assert num_barriers([]) == 0
    assert num_barriers([1, 2, 1]) == 3
    assert num_barriers([15]) == 16
    assert num_barriers([0, None]) == 16
