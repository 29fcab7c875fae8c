"""The sync corpus still means what it says, and `tileas_py.hw.sync` agrees with it.

Every kernel of test/ptxas/sync/corpus/ is assembled by ptxas 13.5 once per `// RUN:` line;
the exit status, every line printed and the sync-relevant SASS (with PTX lines and EIATTRs)
must be the recorded ones. The rest checks the recordings against the facts the README states
and against `tileas_py.hw.sync`: its SASS lowering table for every PTX sync instruction of the
corpus, its checkers for every instruction ptxas complained about. Re-record with
test/ptxas/record_sync_corpus.py.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sync_corpus import (
    CORPUS_DIR,
    FunctionSass,
    Recording,
    Run,
    SyncCase,
    corpus_cases,
    is_kept,
    text_sections,
)

from tileas_py.hw.sync import (
    SYNC_LOWERINGS,
    SYNC_MESSAGES,
    BulkCopyRule,
    MemoryOrder,
    MemoryOrderRule,
    Scope,
    Severity,
    StateSpace,
    SyncDiagnostic,
    check_bulk_copy_subops,
    check_intrinsic_memory_order,
    check_ptx_barrier,
    check_ptx_fence,
    check_ptx_memory_access,
    find_lowering,
    num_barriers,
    parse_line,
    sass_opcodes,
)

CASES = corpus_cases()
BY_NAME = {case.name: case for case in CASES}


def recorded(name: str, command: str | None = None) -> Recording:
    """The recording of kernel `name` for the RUN line `command` (default: the first)."""
    case = BY_NAME[name]
    for run, recording in zip(case.runs, case.recordings(), strict=True):
        if command is None or run.command == command:
            return recording
    raise KeyError(f"{name} has no RUN line {command!r}")


def only_function(recording: Recording) -> FunctionSass:
    (function,) = recording.functions
    return function


def successful_runs() -> Iterator[tuple[SyncCase, Run, Recording]]:
    for case in CASES:
        for run, recording in zip(case.runs, case.recordings(), strict=True):
            if run.exit_status == 0:
                yield case, run, recording


def sass_at_line(recording: Recording, line: int) -> list[str]:
    return [
        s.opcode
        for f in recording.functions
        for s in f.sass
        if s.line == line and s.opcode
    ]


def is_subsequence(expected: list[str], actual: list[str]) -> bool:
    remaining = iter(actual)
    return all(any(a == e for a in remaining) for e in expected)


# ---------------------------------------------------------------------------------------
# The corpus and the real tools


def test_corpus_has_at_least_fifty_kernels_each_with_its_recording() -> None:
    assert len(CASES) >= 50
    assert {p.stem for p in CORPUS_DIR.glob("*.ptx")} == {
        p.stem for p in CORPUS_DIR.glob("*.expected")
    }


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_kernel_header(case: SyncCase) -> None:
    text = case.ptx.read_text()
    assert re.search(r"^\.version 8\.\d+$", text, re.M)
    target = re.search(r"^\.target (sm_\w+)$", text, re.M)
    assert target is not None
    assert target.group(1) in {"sm_75", "sm_80", "sm_90a", "sm_100a"}
    assert re.search(r"^\.address_size 64$", text, re.M)
    assert case.description
    # sm_XXa PTX only assembles for that arch; plain sm_XX PTX also for later ones.
    for run in case.runs:
        if target.group(1).endswith("a"):
            assert run.arch == target.group(1)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_ptxas_output_and_sass_match_recording(case: SyncCase) -> None:
    for run, recording in zip(case.runs, case.recordings(), strict=True):
        status, fresh = case.record(run)
        assert status == run.exit_status, run.command
        assert fresh == recording, run.command


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_lineinfo_does_not_change_the_code(case: SyncCase) -> None:
    for run, recording in zip(case.runs, case.recordings(), strict=True):
        if run.exit_status == 0:
            plain, with_lines = case.code_with_and_without_line_info(run)
            assert plain == with_lines, run.command
            assert set(plain) == {f".text.{f.name}" for f in recording.functions}


def test_description_names_the_codes_ptxas_prints() -> None:
    for case in CASES:
        printed = {
            int(code)
            for recording in case.recordings()
            for message in recording.messages
            for code in re.findall(r"\(C(\d{4})\)", message)
        }
        named = {int(c) for c in re.findall(r"\bC(\d{4})\b", case.description)}
        assert named == printed, case.name


def test_recorded_sass_keeps_only_sync_relevant_instructions() -> None:
    for _, _, recording in successful_runs():
        for function in recording.functions:
            assert all(is_kept(s.opcode) for s in function.sass if s.opcode)


# ---------------------------------------------------------------------------------------
# tileas_py.hw.sync against the corpus


def test_every_coded_or_sync_error_line_parses_and_formats_back() -> None:
    parsed = 0
    for case in CASES:
        for recording in case.recordings():
            for line in recording.messages:
                diagnostic = parse_line(line)
                if diagnostic is None:
                    # Only the generic lines are unknown to the table.
                    assert "(C7" not in line or "(C7907)" in line, line
                    assert not re.search(
                        r"; error   : .*(Modifier|[Bb]arrier|mbarrier)", line
                    )
                    continue
                parsed += 1
                assert diagnostic.format() == line
    assert parsed >= 60


def test_every_observed_message_is_in_the_corpus() -> None:
    seen = {
        diagnostic.message.name
        for case in CASES
        for recording in case.recordings()
        for line in recording.messages
        if (diagnostic := parse_line(line)) is not None
    }
    assert seen == {m.name for m in SYNC_MESSAGES if m.observed}


def conservative(run: Run) -> bool:
    return bool({"-c", "-g", "-Ofc"} & set(run.args))


def test_lowering_table_matches_every_sync_instruction_of_the_corpus() -> None:
    used: set[int] = set()
    checked = 0
    for case, run, recording in successful_runs():
        if any("'setmaxnreg' ignored" in m for m in recording.messages):
            continue  # ptxas dropped the setmaxnreg of these kernels
        for number, text in enumerate(case.ptx.read_text().splitlines(), start=1):
            lowering = find_lowering(text, run.arch)
            if lowering is None:
                continue
            used.add(SYNC_LOWERINGS.index(lowering))
            opcodes = sass_opcodes(text, run.arch, conservative=conservative(run))
            assert opcodes is not None
            expected = [op for op in opcodes if is_kept(op)]
            actual = sass_at_line(recording, number)
            assert is_subsequence(expected, actual), (case.name, run.command, number)
            checked += 1
    assert checked >= 300
    assert used == set(range(len(SYNC_LOWERINGS)))


def test_num_barriers_follows_the_barrier_ids() -> None:
    bar = re.compile(
        r"^\s*(@!?%\w+\s+)?(bar|barrier)(\.cta)?\.(?P<kind>sync|arrive|red)\S*\s+(?P<operands>[^;]+);"
    )
    checked = 0
    for case, _, recording in successful_runs():
        if len(recording.functions) != 1:
            continue
        text = case.ptx.read_text()
        ids: list[int | None] = []
        for line in text.splitlines():
            if (m := bar.match(line)) is not None:
                operands = [o.strip() for o in m.group("operands").split(",")]
                # bar.red's first operand is its result.
                token = operands[1] if m.group("kind") == "red" else operands[0]
                ids.append(int(token) if token.isdigit() else None)
        if "barrier.cluster.wait" in text:
            ids.append(0)
        attributes = only_function(recording).attributes
        expected = num_barriers(ids)
        recorded_count = [a for a in attributes if a.startswith("NUM_BARRIERS=")]
        assert recorded_count == ([f"NUM_BARRIERS={expected}"] if expected else []), (
            case.name
        )
        checked += 1
    assert checked >= 50


# -- checkers


OCG_CALL = re.compile(
    r"call\.uni __nv_ptx_builtin_ocg_(?P<name>\w+), \((?P<args>[^)]*)\);"
)
MEMORY_TOKENS = {
    "shared",
    "global",
    "gpu",
    "sys",
    "release",
    "mmio",
    "add",
    "u32",
    "b32",
}
BULK_TOKENS = {
    "counted",
    "shared",
    "global",
    "bytemask",
    "sequenced",
    "gpu",
    "sys",
    "cta",
    "cluster",
}
RULE_TEXTS = {*MemoryOrderRule, *BulkCopyRule}


def intrinsic_call(case: SyncCase) -> tuple[int, str, int] | None:
    """(line, intrinsic name, parameter count) of the kernel's `__nv_ptx_builtin_ocg_` call."""
    for number, text in enumerate(case.ptx.read_text().splitlines(), start=1):
        if (call := OCG_CALL.search(text)) is not None:
            return number, call.group("name"), len(call.group("args").split(","))
    return None


def predicted_intrinsic_messages(name: str, params: int) -> list[SyncDiagnostic] | None:
    """What the checkers say about an intrinsic call, None when no checker models it."""
    for prefix in ("red_async_", "write_async_"):
        if name.startswith(prefix):
            tokens = set(name.removeprefix(prefix).split("_"))
            if not tokens <= MEMORY_TOKENS or params != 3:
                return None
            domains = [StateSpace(t) for t in ("shared", "global") if t in tokens]
            scopes = [Scope(t) for t in ("gpu", "sys") if t in tokens]
            return check_intrinsic_memory_order(
                domain=domains[0] if domains else None,
                scope=scopes[0] if scopes else None,
                order=MemoryOrder.RELEASE if "release" in tokens else None,
                mmio="mmio" in tokens,
            )
    if name.startswith("cp_async_bulk_"):
        tokens = name.removeprefix("cp_async_bulk_").split("_")
        counted = tokens[:1] == ["counted"]
        domains = [StateSpace(t) for t in tokens if t in ("shared", "global")]
        scopes = [Scope(t) for t in tokens if t in ("gpu", "sys", "cta", "cluster")]
        if not set(tokens) <= BULK_TOKENS or len(domains) != 2:
            return None
        if "counted" in tokens[1:] or params != (5 if counted else 4):
            return None
        return check_bulk_copy_subops(
            dst=domains[0],
            src=domains[1],
            counted=counted,
            bytemask="bytemask" in tokens,
            sequenced="sequenced" in tokens,
            scope=scopes[0] if scopes else None,
        )
    return None


def test_intrinsic_checkers_predict_what_ptxas_prints() -> None:
    checked = 0
    for case in CASES:
        call = intrinsic_call(case)
        if call is None:
            continue
        line, name, params = call
        predicted = predicted_intrinsic_messages(name, params)
        if predicted is None:
            continue
        run, recording = case.runs[0], case.recordings()[0]
        diagnostics = [
            d for m in recording.messages if (d := parse_line(m)) is not None
        ]
        if not all(d.args[0] in RULE_TEXTS for d in diagnostics if d.args):
            continue  # an operand-type message: no checker models it
        assert [d.at(line).format() for d in predicted] == [
            d.format() for d in diagnostics
        ], case.name
        assert (run.exit_status == 0) == all(
            d.message.severity is Severity.WARNING for d in predicted
        )
        checked += 1
    assert checked >= 12


SPACES = {s.value for s in StateSpace}
ORDERS = {o.value for o in MemoryOrder}
SCOPES = {s.value for s in Scope}
MEMORY_ACCESS = re.compile(r"^\s*(?P<op>ld|st)\.(?P<mods>[\w.:]+)\s")
FENCE = re.compile(
    r"^\s*(?P<op>fence|membar)(\.(?P<order>sc|acq_rel|acquire|release))?"
    r"(\.(?P<scope>cta|cluster|gpu|sys|gl))?\s*;"
)
BARRIER = re.compile(
    r"^\s*(?P<op>bar\.sync|bar\.arrive|barrier\.sync|barrier\.arrive)\s+(?P<operands>[^;]+);"
)


def recorded_errors(case: SyncCase, line: int, names: set[str]) -> list[str]:
    """The recorded messages of the kernel's first run at `line` that `names` model."""
    return [
        message
        for message in case.recordings()[0].messages
        if (d := parse_line(message)) is not None
        and d.line == line
        and d.message.name in names
    ]


def located(diagnostics: list[SyncDiagnostic], case: SyncCase, line: int) -> list[str]:
    return [d.at(line, case.ptx.name).format() for d in diagnostics]


def test_memory_access_checker_predicts_every_ld_st_of_the_corpus() -> None:
    names = {
        "modifier-space",
        "mmio-needs-order",
        "modifier-conflict",
        "needs-scope",
        "needs-memory-order",
    }
    checked = errors = 0
    for case in CASES:
        for number, text in enumerate(case.ptx.read_text().splitlines(), start=1):
            access = MEMORY_ACCESS.match(text)
            if access is None or access.group("mods").startswith("param."):
                continue  # kernel and call parameters
            mods = access.group("mods").split(".")
            predicted = check_ptx_memory_access(
                access.group("op"),
                space=next((StateSpace(m) for m in mods if m in SPACES), None),
                order=next((MemoryOrder(m) for m in mods if m in ORDERS), None),
                scope=next((Scope(m) for m in mods if m in SCOPES), None),
                mmio="mmio" in mods,
                volatile="volatile" in mods,
            )
            assert located(predicted, case, number) == recorded_errors(
                case, number, names
            ), (case.name, number)
            checked += 1
            errors += len(predicted)
    assert checked >= 150
    assert errors >= 30


def test_fence_and_barrier_checkers_predict_the_corpus() -> None:
    fence_names = {"fence-needs-scope", "membar-needs-level", "needs-scope"}
    barrier_names = {"barrier-id-range", "barrier-thread-count", "arguments-mismatch"}
    checked = errors = 0
    for case in CASES:
        for number, text in enumerate(case.ptx.read_text().splitlines(), start=1):
            if (fence := FENCE.match(text)) is not None:
                order, scope = fence.group("order"), fence.group("scope")
                predicted = check_ptx_fence(
                    fence.group("op"),
                    order=None if order is None else MemoryOrder(order),
                    scope=None
                    if scope is None
                    else Scope("gpu" if scope == "gl" else scope),
                )
                expected = recorded_errors(case, number, fence_names)
            elif (barrier := BARRIER.match(text)) is not None:
                operands = [o.strip() for o in barrier.group("operands").split(",")]
                as_operand = [int(o) if o.isdigit() else o for o in operands]
                predicted = check_ptx_barrier(
                    barrier.group("op"),
                    barrier=as_operand[0],
                    threads=as_operand[1] if len(as_operand) > 1 else None,
                )
                expected = recorded_errors(case, number, barrier_names)
            else:
                continue
            assert located(predicted, case, number) == expected, (case.name, number)
            checked += 1
            errors += len(predicted)
    assert checked >= 100
    assert errors >= 5


# ---------------------------------------------------------------------------------------
# The default behaviours the README summarises


def bars(function: FunctionSass) -> list[str]:
    return [s.text for s in function.sass if s.opcode.startswith("BAR.")]


def test_identical_barriers_are_never_merged_or_removed() -> None:
    for run in BY_NAME["bar_back_to_back"].runs:
        assert (
            bars(only_function(recorded("bar_back_to_back", run.command)))
            == ["BAR.SYNC.DEFER_BLOCKING 0x0"] * 2
        )
    for name in (
        "bar_back_to_back_with_registers",
        "bar_dominated_identical_across_branch",
        "bar_around_shared_memory",
    ):
        function = only_function(recorded(name))
        expected = BY_NAME[name].ptx.read_text().count("bar.sync 0;")
        assert bars(function) == ["BAR.SYNC.DEFER_BLOCKING 0x0"] * expected
    for command in (
        "-arch=sm_90a -c",
        "-arch=sm_90a -c --assume-extern-functions-do-not-sync=true",
    ):
        function = recorded("bar_back_to_back_around_extern_call", command).function(
            "k"
        )
        assert len(bars(function)) == 3


def test_assume_extern_functions_do_not_sync_changes_nothing() -> None:
    for name in (
        "bar_around_extern_call",
        "bar_back_to_back_around_extern_call",
        "bar_around_defined_call",
    ):
        case = BY_NAME[name]
        by_command = dict(
            zip((r.command for r in case.runs), case.recordings(), strict=True)
        )
        plain = by_command["-arch=sm_90a -c"]
        assert (
            by_command["-arch=sm_90a -c --assume-extern-functions-do-not-sync=true"]
            == plain
        )


def test_no_membermask_overlap_changes_nothing_on_sm75() -> None:
    case = BY_NAME["warp_sync_register_mask_sm75"]
    first, second = case.recordings()
    assert first == second


def test_o0_puts_warpsync_all_before_every_bar_sync() -> None:
    sass = only_function(recorded("bar_back_to_back", "-arch=sm_90a -O0")).instructions
    assert sass[:4] == ["WARPSYNC.ALL", "BAR.SYNC.DEFER_BLOCKING 0x0"] * 2


def test_barrier_after_a_call_or_in_divergent_code_gets_warpsync_all() -> None:
    after_call = recorded("bar_around_extern_call").function("k").instructions
    call = after_call.index("CALL.ABS.NOINC `(helper)")
    assert after_call[call + 1 : call + 3] == [
        "WARPSYNC.ALL",
        "BAR.SYNC.DEFER_BLOCKING 0x0",
    ]
    divergent = only_function(
        recorded("bar_in_divergent_branch", "-arch=sm_90a")
    ).instructions
    assert divergent.count("WARPSYNC.ALL") == 2
    sm80 = only_function(
        recorded("bar_in_divergent_branch", "-arch=sm_80")
    ).instructions
    assert sm80[:2] == [
        "@!P0 WARPSYNC 0xffffffff",
        "@!P0 BAR.SYNC.DEFER_BLOCKING 0x1, 0x20",
    ]


def test_errbars_follow_gpu_and_sys_scope_fences_only() -> None:
    sm90 = only_function(recorded("membar_scopes")).instructions
    assert sm90[:9] == [
        "MEMBAR.SC.CTA",
        "MEMBAR.SC.GPU",
        "ERRBAR",
        "CGAERRBAR",
        "CCTL.IVALL",
        "MEMBAR.SC.SYS",
        "ERRBAR",
        "CGAERRBAR",
        "CCTL.IVALL",
    ]
    sm80 = only_function(recorded("membar_scopes_sm80", "-arch=sm_80")).instructions
    assert "CGAERRBAR" not in sm80
    assert sm80.count("ERRBAR") == 2


def test_errbar_at_exit_needs_make_errors_visible_or_debug() -> None:
    plain = only_function(recorded("membar_errors_visible_at_exit", "-arch=sm_90a"))
    visible = only_function(
        recorded(
            "membar_errors_visible_at_exit",
            "-arch=sm_90a --make-errors-visible-at-exit",
        )
    )
    debug = only_function(recorded("membar_errors_visible_at_exit", "-arch=sm_90a -g"))
    assert "ERRBAR" not in plain.instructions
    exit_at = visible.instructions.index("EXIT")
    assert visible.instructions[exit_at - 2 : exit_at] == ["ERRBAR", "CGAERRBAR"]
    exit_at = debug.instructions.index("EXIT")
    assert debug.instructions[exit_at - 3 : exit_at] == [
        "MEMBAR.SC.VC",
        "ERRBAR",
        "CGAERRBAR",
    ]
    case = BY_NAME["membar_errors_visible_at_exit"]
    assert [r.attributes for r in case.recordings()] == [
        (),
        ("GEN_ERRBAR_AT_EXIT",),
        ("GEN_ERRBAR_AT_EXIT",),
    ]


def test_errbar_pragma_is_refused() -> None:
    recording = recorded("membar_errbar_pragma")
    assert recording.messages == (
        "ptxas warning : Pragma 'DisableErrbarAfterMembar=1' unsupported",
    )
    assert "ERRBAR" in only_function(recording).instructions


def test_mbarrier_init_gets_a_proxy_fence_unless_first_in_the_entry_block() -> None:
    def fenced(name: str, command: str | None = None) -> bool:
        sass = [
            t
            for t in only_function(recorded(name, command)).instructions
            if not t.startswith("@")
        ]
        init = next(i for i, t in enumerate(sass) if t.startswith("SYNCS.EXCH.64"))
        return sass[init - 1] == "FENCE.VIEW.ASYNC.S"

    assert fenced("mbarrier_init_after_shared_store")
    assert fenced("mbarrier_init_after_loop")
    assert fenced("mbarrier_init_register_count")
    assert fenced("mbarrier_init_arrive_try_wait_loop", "-arch=sm_90a -O0")
    assert not fenced("mbarrier_init_global_store_before")
    assert not fenced("mbarrier_sm80_forms", "-arch=sm_90a")


def test_try_wait_loop_retries_out_of_line() -> None:
    sass = [
        s.text
        for s in only_function(recorded("mbarrier_init_arrive_try_wait_loop")).sass
    ]
    wait = "SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR6], R0"
    first = sass.index(wait)
    retry_label = re.search(r"\(\.L_x_\d+\)", sass[first + 1])
    assert sass[first + 1].startswith("@!P0 BRA")
    assert retry_label is not None
    retry = sass.index(retry_label.group(0)[1:-1] + ":")
    assert retry > sass.index("EXIT")
    assert sass[retry + 1 : retry + 3] == [wait, sass[first + 1]]


def test_cluster_wait_falls_back_to_bar_sync_0() -> None:
    sass = only_function(recorded("cluster_barrier_arrive_wait")).instructions
    assert sass.count("UCGABAR_WAIT") == 3
    assert sass.count("BAR.SYNC.DEFER_BLOCKING 0x0") == 3


def test_spin_loops_by_optimisation_level() -> None:
    name = "mbarrier_init_arrive_try_wait_loop"
    wait = "SYNCS.PHASECHK.TRANS64.TRYWAIT"
    o3 = only_function(recorded(name, "-arch=sm_90a")).instructions
    o1 = only_function(recorded(name, "-arch=sm_90a -O1")).instructions
    o0 = only_function(recorded(name, "-arch=sm_90a -O0")).instructions
    # -O2/-O3 rotate the loop: one wait in line, the retry after the EXIT.
    assert [op.split()[0] for op in o3].count(wait) == 2
    last_wait = max(i for i, t in enumerate(o3) if t.startswith(wait))
    assert last_wait > o3.index("EXIT")
    # -O1 keeps it in place; -O0 also yields in every iteration.
    assert [op.split()[0] for op in o1].count(wait) == 1
    assert not any(t.startswith("YIELD") for t in o1 + o3)
    assert o0[o0.index("YIELD") + 1].startswith(wait)


def test_loops_with_barriers_are_unrolled_from_o2_on() -> None:
    name = "cp_async_pipeline_loop"
    o3 = only_function(recorded(name, "-arch=sm_90a")).instructions
    o1 = only_function(recorded(name, "-arch=sm_90a -O1")).instructions
    o0 = only_function(recorded(name, "-arch=sm_90a -O0")).instructions
    assert o1.count("DEPBAR.LE SB0, 0x1") == 1
    assert o3.count("DEPBAR.LE SB0, 0x1") > 1
    assert o0.count("WARPSYNC.ALL") == 2


def test_o2_builds_the_same_code_as_the_default_o3() -> None:
    compared = 0
    for case in CASES:
        run = case.runs[0]
        if run.exit_status != 0 or run.args:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            o3, o2 = Path(tmp) / "o3.cubin", Path(tmp) / "o2.cubin"
            case.assemble(run, o3)
            case.assemble(run, o2, "-O2")
            assert text_sections(o2) == text_sections(o3), case.name
        compared += 1
    assert compared >= 50
