"""Named pipelines: ordinary registered passes that run a fixed sequence of passes.

`ptxas-pipeline` runs ptxas's ori phases in ptxas's order (seed 003's phase numbers; 85
and 87 are seed 000's GMMA phases), after ptxas's front-end validation:

    ori-validate-memory-order, 25 ori-stage-and-fence, 26 ori-remove-redundant-barriers,
    42 ori-expand-mbarrier, 71 ori-optimize-sync, 72 ori-late-expand-sync,
    [85 ori-propagate-gmma, 87 ori-fixup-gmma-sequence], 99 ori-do-synchronization,
    100 ori-apply-post-sync-wars, 114 ori-fixup-tex-depbar

Its options are ptxas's command line and knobs, handed to the phases that read them; the
defaults reproduce ptxas 13.5 at -O3 (then `-t sass-sync` lists the sync SASS ptxas emits).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tileas_py.ptx.performance import paused_gc


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

    def gmma_phases(self) -> tuple[ModulePass, ...]:
        """The slot of seed 000's GMMA phases, 85 `ori-propagate-gmma` and 87
        `ori-fixup-gmma-sequence`, between phases 72 and 99 (added with those passes)."""
        return ()

    def passes(self) -> tuple[ModulePass, ...]:
        from tileas_py.passes.ori.apply_post_sync_wars import ApplyPostSyncWarsPass
        from tileas_py.passes.ori.do_synchronization import DoSynchronizationPass
        from tileas_py.passes.ori.expand_mbarrier import ExpandMbarrierPass
        from tileas_py.passes.ori.fixup_tex_depbar import FixupTexDepbarPass
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
