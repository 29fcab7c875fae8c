"""ori's prediction of ptxas's synchronization against the real ptxas, kernel by kernel.

Every successful run of a kernel of test/ptxas/sync/corpus/ by default (`ptxas
-arch=sm_XX`, 73 runs) or at another -O level goes through `ptxas-pipeline` with the options
that stand for its arguments; the sync SASS that `-t sass-sync` lists for it must be the
recorded one: per function, the same opcodes in the same order, each from the same PTX
line, and the same EIATTR_NUM_BARRIERS. `KNOWN_MISMATCHES` lists the runs the model does
not reproduce, each with the reason; those must still differ (an entry that starts
matching has to go), and the session summary prints them.

The same pipeline also reproduces ptxas's messages: the PTX front-end and OCG intrinsic
errors and warnings of `ori-validate-memory-order` for every kernel, and the C7508 remark
of `ori-late-expand-sync`.
"""

from __future__ import annotations

import pytest
from sync_corpus import Recording, Run, SyncCase, corpus_cases
from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr

from tileas_py.diagnostics import LocatedPassFailure, collect_diagnostics
from tileas_py.dialects.ori import TargetOp
from tileas_py.hw.sync import Origin, parse_line
from tileas_py.pipelines import PtxasPipelinePass
from tileas_py.ptx.reader import read_ptx
from tileas_py.ptx.sass_listing import SassListing, sync_sass

KNOWN_MISMATCHES: dict[tuple[str, str], str] = {
    ("bar_in_divergent_branch", "-arch=sm_80"): (
        "if-conversion on sm_80: the 7-instruction divergent body is predicated "
        "(`@!P0 WARPSYNC 0xffffffff; @!P0 BAR.SYNC`), so no BRA and a masked WARPSYNC "
        "instead of WARPSYNC.ALL; ori keeps the branch"
    ),
    ("bar_producer_consumer_named", "-arch=sm_90a"): (
        "if-conversion: the producer block (ending in ret) is predicated and its EXIT "
        "becomes `@!P0 EXIT`; ptxas then puts WARPSYNC.ALL after the consumer's first "
        "BAR.SYNC instead of before the producer's barriers"
    ),
    ("bar_sync_id_15", "-arch=sm_90a"): (
        "if-conversion of the `bar.sync; ret` block, as in bar_producer_consumer_named "
        "(WARPSYNC.ALL after the BAR.ARV)"
    ),
    ("bar_in_uniform_loop", "-arch=sm_90a"): (
        "loop unrolling: ptxas unrolls the uniform loop 4x with a remainder, copying "
        "its barriers; ori does not unroll"
    ),
    ("cp_async_pipeline_loop", "-arch=sm_90a"): (
        "loop unrolling: the cp.async pipeline loop is unrolled 4x with a remainder"
    ),
    ("mbarrier_init_after_loop", "-arch=sm_90a"): (
        "loop unrolling: the empty counting loop becomes an unrolled loop with a guard "
        "branch (two BRAs)"
    ),
    ("fence_proxy_async", "-arch=sm_90a"): (
        "instruction scheduling: ptxas moves fence.proxy.async.global (line 20) before "
        "fence.proxy.async.shared::cluster (line 18)"
    ),
    ("warp_sync_forms", "-arch=sm_90a"): (
        "instruction scheduling: ptxas reorders the independent warp-level ops "
        "(REDUX before MATCH before SHFL before VOTE)"
    ),
    ("mbarrier_sm80_forms", "-arch=sm_80"): (
        "instruction scheduling: the SHFL.IDX of the noComplete arrive (line 18) is "
        "scheduled after the cp.async.mbarrier.arrive of line 19"
    ),
    ("ptx_acquire_release_accesses", "-arch=sm_90a"): (
        "atomic warp aggregation (not a sync phase): ptxas adds VOTEU.ANY and SHFL.IDX "
        "around the atom.add of a warp-uniform address and schedules them apart"
    ),
    ("ptx_scoped_atomics_without_order", "-arch=sm_90a"): (
        "atomic warp aggregation: VOTEU.ANY / SHFL.IDX around the two atom.add"
    ),
    ("shfl_sync_in_divergent_branch", "-arch=sm_90a"): (
        "the BSSY's line: ptxas's scheduler puts the BSSY of the entry block's divergent "
        "if on the function's first line (10), ori on the setp before the branch (17); "
        "the BRA.DIV paths of both shuffles, in line and out of line, match"
    ),
    ("shfl_sync_in_divergent_branch", "-arch=sm_80"): (
        "sm_80's BRA.DIV path to the __cuda_sm70_shflsync helper is not modelled"
    ),
    ("warp_sync_register_mask_sm75", "-arch=sm_75"): (
        "sm_75's __cuda_sm70_warpsync / shflsync / votesync helper calls with "
        "BRA.DIV / BRA.CONV fast paths and BMOV.32.CLEAR are not modelled"
    ),
    ("mbarrier_test_wait_loop", "-arch=sm_80"): (
        "sm_80: ptxas if-converts the init and wraps the software test_wait spin loop "
        "in BSSY / BSYNC with YIELD; ori keeps the branch and no reconvergence for it"
    ),
    ("shfl_sync_in_divergent_branch", "-arch=sm_90a -O0"): (
        "after the join of a region that ran a collective, ptxas -O0 wraps the next "
        "full-mask collective (line 23) in its own BSSY / BSYNC, and puts the "
        "region's BSSY on the branch's line (18), not the setp's; ori does neither"
    ),
}

RESULTS: list[tuple[str, str, bool]] = []
"""(kernel, RUN arguments, matched) of every comparison, for the session summary."""

COMPARED_ARGS = frozenset({"-O0", "-O1", "-O2", "-O3", "-w", "--warning-as-error"})
"""The ptxas arguments whose effect on the code the pipeline's options reproduce (not `-c`
or `-g`, which change the listing in ways not modelled)."""


def compared_runs() -> list[tuple[SyncCase, Run, Recording]]:
    return [
        (case, run, recording)
        for case in corpus_cases()
        for run, recording in zip(case.runs, case.recordings(), strict=True)
        if set(run.args) <= COMPARED_ARGS and run.exit_status == 0
    ]


COMPARED_RUNS = compared_runs()


def read_for(case: SyncCase, arch: str) -> ModuleOp:
    """The kernel read into ori, targeting the architecture ptxas was run for."""
    module = read_ptx(case.ptx.read_text(), case.ptx.name)
    for op in module.ops:
        if isinstance(op, TargetOp):
            op.targets = ArrayAttr([StringAttr(arch)])
    return module


MODELLED_FLAGS = frozenset({"-c", "-g", "-w", "--warning-as-error"})
OPT_LEVELS = ("-O0", "-O1", "-O2", "-O3")
ASSUME_EXTERN = "--assume-extern-functions-do-not-sync="


def pipeline_for(run: Run) -> PtxasPipelinePass | None:
    """The pipeline with the options that stand for the run's ptxas arguments (None when
    one of them has no counterpart)."""
    args = set(run.args)
    levels = [int(a[2]) for a in args if a in OPT_LEVELS]
    assume = [a for a in args if a.startswith(ASSUME_EXTERN)]
    if args - MODELLED_FLAGS - set(OPT_LEVELS) - set(assume):
        return None
    return PtxasPipelinePass(
        opt_level=levels[0] if levels else 3,
        assume_extern_functions_do_not_sync=any(a.endswith("=true") for a in assume),
        compile_only="-c" in args,
        debug="-g" in args,
        suppress_warnings="-w" in args,
        warning_as_error="--warning-as-error" in args,
    )


def predicted(case: SyncCase, run: Run) -> list[SassListing]:
    pipeline = pipeline_for(run)
    assert pipeline is not None
    module = read_for(case, run.arch)
    with collect_diagnostics():
        pipeline.apply(Context(), module)
    module.verify()
    return sync_sass(module)


def listing_of(
    recording: Recording,
) -> list[tuple[str, list[tuple[int | None, str]], str]]:
    return [
        (
            f.name,
            [(s.line, s.opcode) for s in f.sass if s.opcode],
            ",".join(a for a in f.attributes if a.startswith("NUM_BARRIERS=")),
        )
        for f in recording.functions
    ]


def prediction_of(
    listings: list[SassListing],
) -> list[tuple[str, list[tuple[int | None, str]], str]]:
    return [
        (
            listing.name,
            [(line.line, line.opcode) for line in listing.lines],
            f"NUM_BARRIERS={listing.num_barriers}" if listing.num_barriers else "",
        )
        for listing in listings
    ]


@pytest.mark.parametrize(
    ("case", "run", "recording"),
    COMPARED_RUNS,
    ids=[f"{case.name}[{run.command}]" for case, run, _ in COMPARED_RUNS],
)
def test_predicted_sync_sass_is_ptxas(
    case: SyncCase, run: Run, recording: Recording
) -> None:
    expected = listing_of(recording)
    actual = prediction_of(predicted(case, run))
    matched = actual == expected
    RESULTS.append((case.name, run.command, matched))
    if (case.name, run.command) not in KNOWN_MISMATCHES:
        assert actual == expected
    else:
        assert not matched, f"{case.name} now matches: remove it from KNOWN_MISMATCHES"


def test_known_mismatches_name_compared_runs() -> None:
    runs = {(case.name, run.command) for case, run, _ in COMPARED_RUNS}
    assert set(KNOWN_MISMATCHES) <= runs
    defaults = [run for _, run, _ in COMPARED_RUNS if not run.args]
    assert len(defaults) == 73
    assert len(COMPARED_RUNS) - len(KNOWN_MISMATCHES) >= 73


def ptxas_messages(recording: Recording) -> list[str]:
    """The sync messages ptxas printed, and its final abort line, as the pass prints them."""
    kept: list[str] = []
    for line in recording.messages:
        diagnostic = parse_line(line)
        if line == "ptxas fatal   : Ptx assembly aborted due to errors" or (
            diagnostic is not None and diagnostic.message.origin is not Origin.OPTIMIZER
        ):
            kept.append(line)
    return kept


MODELLED_RUNS = [
    (case, run, recording)
    for case in corpus_cases()
    for run, recording in zip(case.runs, case.recordings(), strict=True)
    if pipeline_for(run) is not None
]


@pytest.mark.parametrize(
    ("case", "run", "recording"),
    MODELLED_RUNS,
    ids=[f"{case.name}[{run.command}]" for case, run, _ in MODELLED_RUNS],
)
def test_validation_prints_what_ptxas_prints(
    case: SyncCase, run: Run, recording: Recording
) -> None:
    pipeline = pipeline_for(run)
    assert pipeline is not None
    module = read_for(case, run.arch)
    failure: list[str] = []
    with collect_diagnostics() as diagnostics:
        try:
            pipeline.apply(Context(), module)
        except LocatedPassFailure as e:
            failure.append(e.message)
    printed = [d.message for d in diagnostics if d.severity != "remark"] + failure
    assert printed == ptxas_messages(recording)
    assert (run.exit_status == 0) == (not failure)
    remarks = [d.message for d in diagnostics if d.severity == "remark"]
    optimizer = [
        line
        for line in recording.messages
        if (d := parse_line(line)) is not None and d.message.origin is Origin.OPTIMIZER
    ]
    assert remarks == optimizer


def test_most_runs_have_modelled_options() -> None:
    runs = [run for case in corpus_cases() for run in case.runs]
    assert len(MODELLED_RUNS) >= len(runs) - 5
