"""Named pipelines: ordinary registered passes that run a fixed sequence of passes, in order.

A pipeline is registered like any pass, so `tileas-opt k.ptx -p ptxas-gmma` runs it and
its options are the options of the passes it runs (in the style of inconspiquous's pipeline
passes and MLIR's `gpu-lower-to-nvvm-pipeline`).

`ptxas-pipeline` runs ptxas's ori phases in ptxas's order (seed 003's phase numbers; 85
and 87 are seed 000's GMMA phases, which run alone as `ptxas-gmma`), after ptxas's
front-end validation (`ori-if-convert` is ptxas's if-conversion, a general optimization
whose result the sync phases see):

    ori-validate-memory-order, 25 ori-stage-and-fence, 26 ori-remove-redundant-barriers,
    ori-if-convert, 42 ori-expand-mbarrier, 71 ori-optimize-sync, 72 ori-late-expand-sync,
    85 ori-propagate-gmma, 87 ori-fixup-gmma-sequence, 99 ori-do-synchronization,
    100 ori-apply-post-sync-wars, 114 ori-fixup-tex-depbar

Its options are ptxas's command line and knobs, handed to the phases that read them; the
defaults reproduce ptxas 13.5 at -O3 (then `-t sass-sync` lists the sync SASS ptxas emits).

`tileas-wgmma-to-ptx` takes a tile kernel whose matrix multiplies are sm90 WGMMA atoms down
to ori, which `-t ptx` prints as PTX for the real ptxas: `convert-tileas-to-nvvm`, then
`convert-nvvm-to-ori` (docs/wgmma-emission.md):

    tileas-opt gemm.mlir -p tileas-wgmma-to-ptx -t ptx -o gemm.ptx
    ptxas -arch=sm_90a gemm.ptx -o gemm.cubin

`tileas-to-ptx` is the whole flow from the tile level: the tileas passes, then those two
lowerings, then `ptxas-pipeline` (`TileasToPtxPipeline`, docs/tileas-to-ptx.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from tileas_py.passes.ori.fixup_gmma_sequence import OriFixupGmmaSequencePass
from tileas_py.passes.ori.propagate_gmma import OriPropagateGmmaPass
from tileas_py.paused_gc import paused_gc


@dataclass(frozen=True)
class PtxasGmmaPipeline(ModulePass):
    """ptxas's GMMA phases on ori: 85 `ori-propagate-gmma`, then 87
    `ori-fixup-gmma-sequence`, with ptxas's command-line flags as options.

    `tileas-opt kernel.ptx -p ptxas-gmma` prints what ptxas would print about the
    kernel's WGMMA pipelines; add `-t ptx` for the fixed-up PTX, e.g.

        tileas-opt k.ptx -p 'ptxas-gmma{compile-only=true explain=true}' -t ptx
    """

    name = "ptxas-gmma"

    compile_only: bool = False
    """ptxas `-c` (calls are not inlined)."""

    opt_level: int = 3
    """ptxas `-O` level; 0 serializes every wgmma."""

    device_debug: bool = False
    """ptxas `-g`; serializes every wgmma."""

    maxrregcount: int = 0
    """ptxas `-maxrregcount`; 0 means none."""

    fast_compile: Literal["off", "min", "mid", "max"] = "off"
    """ptxas `--Ofast-compile` (`off` is ptxas's `0`); `max` serializes every wgmma."""

    max_active_live_ranges: int = 0
    """Phase 85's live-range limit (C7407); 0 means none, as ptxas 13.5 in practice."""

    explain: bool = False
    """Follow each message with notes on its cause and a fix."""

    @staticmethod
    def from_ptxas_args(
        args: Sequence[str], explain: bool = False
    ) -> PtxasGmmaPipeline:
        """The pipeline for a ptxas command line (`-c`, `-O0`, `-g`, `-maxrregcount=N`,
        `--Ofast-compile=L` or `-Ofc L`); flags that do not change the GMMA phases are
        ignored."""
        options: dict[str, bool | int | str] = {}
        arguments = list(args)
        for index, arg in enumerate(arguments):
            if arg in ("--Ofast-compile", "-Ofc") and index + 1 < len(arguments):
                # `-Ofc max`: the loop meets the level next, as `-Ofc=max`.
                arguments[index + 1] = f"{arg}={arguments[index + 1]}"
            elif arg.startswith(("--Ofast-compile=", "-Ofc=")):
                level = arg.split("=", 1)[1]
                options["fast_compile"] = "off" if level == "0" else level
            elif arg in ("-c", "--compile-only"):
                options["compile_only"] = True
            elif arg in ("-g", "--device-debug"):
                options["device_debug"] = True
            elif arg.startswith("-O") and arg[2:].isdigit():
                options["opt_level"] = int(arg[2:])
            elif arg.startswith(("-maxrregcount=", "--maxrregcount=")):
                options["maxrregcount"] = int(arg.split("=", 1)[1])
        return PtxasGmmaPipeline(explain=explain, **options)  # pyright: ignore[reportArgumentType]

    @staticmethod
    def messages(
        text: str, name: str = "<stdin>", args: Sequence[str] = ()
    ) -> list[str]:
        """Every line `tileas-opt FILE -p ptxas-gmma` prints for a PTX text, run in process
        with the options of the ptxas flags `args` (a fatal message ends the list, as it
        ends ptxas)."""
        from tileas_py.diagnostics import collect_diagnostics
        from tileas_py.ptx.reader import read_ptx

        module = read_ptx(text, name)
        with collect_diagnostics() as diagnostics, suppress(PassFailedException):
            PtxasGmmaPipeline.from_ptxas_args(args).apply(Context(), module)
        return [str(d) for d in diagnostics if d.severity == "verbatim"]

    def passes(self) -> tuple[ModulePass, ...]:
        return (
            OriPropagateGmmaPass(
                max_active_live_ranges=self.max_active_live_ranges,
                explain=self.explain,
            ),
            OriFixupGmmaSequencePass(
                compile_only=self.compile_only,
                opt_level=self.opt_level,
                device_debug=self.device_debug,
                maxrregcount=self.maxrregcount,
                fast_compile=self.fast_compile,
                explain=self.explain,
            ),
        )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # The model builds per-instruction tables; a cyclic collection would re-walk them
        # and the whole IR, more often the larger the function.
        with paused_gc():
            for pass_ in self.passes():
                pass_.apply(ctx, op)


@dataclass(frozen=True)
class PtxasPipelinePass(ModulePass):
    """Runs ptxas's ori phases in ptxas's order (see the module docstring).

    Example: `tileas-opt k.ptx -p 'ptxas-pipeline{opt-level=1}' -t sass-sync`.
    """

    name = "ptxas-pipeline"

    opt_level: int = 3
    """ptxas's -O level, for every phase that reads it."""
    sync_mode: int = 0
    """Seed 003's knob 358 for phase 26, and the mode of phase 71: 0 keeps every barrier
    and fence, as ptxas 13.5 does."""
    assume_extern_functions_do_not_sync: bool = False
    """ptxas's `--assume-extern-functions-do-not-sync` (phase 26)."""
    stage_and_fence: bool = False
    """Seed 003's knob 487 gate of phase 25 (ptxas 13.5 adds no fence)."""
    disable_errbar_after_membar: bool = False
    """ptxas's DisableErrbarAfterMembar knob (phase 72)."""
    errbar_form: Literal["errbar", "bar-sync-15"] = "errbar"
    """ptxas 13.5's ERRBAR or seed 003's BAR.SYNC 15 (phase 72)."""
    compile_only: bool = False
    """ptxas's `-c` (phase 72's setmaxnreg rule)."""
    debug: bool = False
    """ptxas's `-g` (phase 72's setmaxnreg rule)."""
    suppress_warnings: bool = False
    """ptxas's `-w` (the validation's warnings)."""
    warning_as_error: bool = False
    """ptxas's `--warning-as-error`."""
    maxrregcount: int = 0
    """ptxas's `-maxrregcount` (phase 87); 0 means none."""
    explain: bool = False
    """Follow each GMMA message with notes on its cause and a fix (phases 85, 87)."""

    def gmma_phases(self) -> tuple[ModulePass, ...]:
        """Seed 000's GMMA phases, 85 `ori-propagate-gmma` and 87
        `ori-fixup-gmma-sequence`, between phases 72 and 99."""
        return PtxasGmmaPipeline(
            compile_only=self.compile_only,
            opt_level=self.opt_level,
            device_debug=self.debug,
            maxrregcount=self.maxrregcount,
            explain=self.explain,
        ).passes()

    def passes(self) -> tuple[ModulePass, ...]:
        from tileas_py.passes.ori.apply_post_sync_wars import ApplyPostSyncWarsPass
        from tileas_py.passes.ori.do_synchronization import DoSynchronizationPass
        from tileas_py.passes.ori.expand_mbarrier import ExpandMbarrierPass
        from tileas_py.passes.ori.fixup_tex_depbar import FixupTexDepbarPass
        from tileas_py.passes.ori.if_convert import IfConvertPass
        from tileas_py.passes.ori.late_expand_sync import LateExpandSyncPass
        from tileas_py.passes.ori.optimize_sync import OptimizeSyncPass
        from tileas_py.passes.ori.remove_redundant_barriers import (
            RemoveRedundantBarriersPass,
        )
        from tileas_py.passes.ori.stage_and_fence import StageAndFencePass
        from tileas_py.passes.ori.validate_memory_order import ValidateMemoryOrderPass

        level = self.opt_level
        return (
            ValidateMemoryOrderPass(
                suppress_warnings=self.suppress_warnings,
                warning_as_error=self.warning_as_error,
            ),
            StageAndFencePass(opt_level=level, enable=self.stage_and_fence),
            RemoveRedundantBarriersPass(
                sync_mode=self.sync_mode,
                assume_extern_functions_do_not_sync=self.assume_extern_functions_do_not_sync,
            ),
            IfConvertPass(opt_level=level),
            ExpandMbarrierPass(opt_level=level),
            OptimizeSyncPass(opt_level=level, sync_mode=self.sync_mode),
            LateExpandSyncPass(
                opt_level=level,
                disable_errbar_after_membar=self.disable_errbar_after_membar,
                errbar_form=self.errbar_form,
                compile_only=self.compile_only,
                debug=self.debug,
            ),
            *self.gmma_phases(),
            DoSynchronizationPass(opt_level=level),
            ApplyPostSyncWarsPass(opt_level=level),
            FixupTexDepbarPass(opt_level=level),
        )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # The phases add ops steadily; a cyclic collection would re-walk the whole IR.
        with paused_gc():
            for phase in self.passes():
                phase.apply(ctx, op)


@dataclass(frozen=True)
class TileasWgmmaToPtxPipeline(ModulePass):
    """`convert-tileas-to-nvvm`, then `convert-nvvm-to-ori` (print with `-t ptx`)."""

    name = "tileas-wgmma-to-ptx"

    def passes(self) -> tuple[ModulePass, ...]:
        from tileas_py.passes.lowering.convert_nvvm_to_ori import ConvertNvvmToOriPass
        from tileas_py.passes.lowering.convert_tileas_to_nvvm import (
            ConvertTileasToNvvmPass,
        )

        return (ConvertTileasToNvvmPass(), ConvertNvvmToOriPass())

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for stage in self.passes():
            stage.apply(ctx, op)
            op.verify()


TILEAS_STAGES = (
    "tileas-dynamic-persistent",
    "tileas-prepare-for-scheduling",
    "tileas-slicing",
    "tileas-unwrap-pipeline-iterators",
    "sink-negf-through-shapes",
    "optimize-execution-unit-mapping",
    "propagate-execution-unit",
    "tileas-resolve-agent-boundary",
    "tileas-plan-cta",
    "tileas-remove-buffer-alias",
    "tileas-remove-layout-conversions",
    "tileas-insert-OCG-knobs",
)
"""The tileas passes in the order `tileas-to-ptx` runs them (seed 002's ordering
invariants: dynamic persistence before scheduling, the pipeline iterators unwrapped once
scheduling is done (DD02), execution-unit mapping once the agents
exist, CTA planning and the D20 clean-ups on assigned layouts, OCG knobs last, on the
final fence / barrier / MMA anchors)."""

OCG_KNOB_SM = 100
"""`tileas-insert-OCG-knobs` runs for target_spec sm 100 and later only: its pragmas are
tileiras's Blackwell scheduling knobs, and ptxas 13.5 answers each with "Pragma ...
unsupported" on sm_90a (docs/fidelity.md)."""

LOWERING_STAGES = ("convert-tileas-to-nvvm", "convert-nvvm-to-ori")
PTXAS_STAGES = ("ptxas-pipeline",)
"""ptxas's ori phases in ptxas's order."""


@dataclass(frozen=True)
class TileasToPtxPipeline(ModulePass):
    """From the tile level to PTX: the tileas passes in tileiras's order
    (`TILEAS_STAGES`; `tileas-dynamic-persistent` only on the kernels with the unit
    attribute `nv_tileas.dynamic_persistent`, `tileas-insert-OCG-knobs` only for
    `nv_tileaa.target_spec` sm 100 and later), `convert-tileas-to-nvvm`,
    `convert-nvvm-to-ori`, then `ptxas-pipeline` (ptxas's ori phases in ptxas's order).
    Print with `-t ptx`.

    Before: a tile kernel (`examples/gemm_sm90a.mlir`). After: an ori module.

        tileas-opt examples/gemm_sm90a.mlir -p tileas-to-ptx -t ptx -o gemm.ptx
        ptxas -arch=sm_90a gemm.ptx -o gemm.cubin
    """

    name = "tileas-to-ptx"

    stop_after: str = "ori"
    """Where to stop: `tileas` (after the tileas passes), `nvvm` (after
    convert-tileas-to-nvvm) or `ori` (the whole flow)."""

    num_sms: int = 132
    """`tileas-dynamic-persistent`'s launch grid: one CTA per SM."""

    scheduler: str = "static"
    """`tileas-dynamic-persistent`'s tile scheduler: `static` or `dynamic`."""

    producer_registers: int = 40
    """`convert-tileas-to-nvvm`'s budget of the warpgroups that issue no WGMMA."""

    consumer_registers: int = 0
    """`convert-tileas-to-nvvm`'s budget of the WGMMA warpgroups (0: computed)."""

    def stage(self, name: str) -> ModulePass:
        """The pass of stage `name`, with the options this pipeline gives it."""
        from tileas_py.passes import get_all_passes
        from tileas_py.passes.lowering.convert_tileas_to_nvvm import (
            ConvertTileasToNvvmPass,
        )
        from tileas_py.passes.tileas.dynamic_persistent import DynamicPersistentPass

        if name == DynamicPersistentPass.name:
            return DynamicPersistentPass(
                num_sms=self.num_sms, marked_only=True, scheduler=self.scheduler
            )
        if name == ConvertTileasToNvvmPass.name:
            return ConvertTileasToNvvmPass(
                producer_registers=self.producer_registers,
                consumer_registers=self.consumer_registers,
            )
        return get_all_passes()[name]()()

    def stage_names(self, op: ModuleOp) -> tuple[str, ...]:
        """The passes this run applies to `op`, in order."""
        # The tile dialects load here, not with the module: `ptxas-gmma` on a PTX file
        # needs neither.
        from tileas_py.dialects.nv_tileaa import TARGET_SPEC, TargetSpecAttr
        from tileas_py.dialects.nv_tileas import DYNAMIC_PERSISTENT

        # Only a kernel marked dynamic persistent is made so.
        persistent = any(DYNAMIC_PERSISTENT in inner.attributes for inner in op.walk())
        spec = op.attributes.get(TARGET_SPEC)
        knobs = isinstance(spec, TargetSpecAttr) and spec.sm.data >= OCG_KNOB_SM
        skipped = {
            "tileas-dynamic-persistent": not persistent,
            "tileas-insert-OCG-knobs": not knobs,
        }
        tileas = tuple(name for name in TILEAS_STAGES if not skipped.get(name))
        if self.stop_after == "tileas":
            return tileas
        if self.stop_after == "nvvm":
            return (*tileas, LOWERING_STAGES[0])
        return (*tileas, *LOWERING_STAGES, *PTXAS_STAGES)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.stop_after not in ("tileas", "nvvm", "ori"):
            raise PassFailedException(
                f"tileas-to-ptx: stop-after must be tileas, nvvm or ori, got "
                f"'{self.stop_after}'"
            )
        for name in self.stage_names(op):
            self.stage(name).apply(ctx, op)
            op.verify()
