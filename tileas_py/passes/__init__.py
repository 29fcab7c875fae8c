"""The passes and named pipelines of tileas-py: one registry, lazily imported."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Map each pass name to a factory that imports and returns its class."""

    def get_ptxas_pipeline() -> type[ModulePass]:
        from tileas_py.pipelines import PtxasPipelinePass

        return PtxasPipelinePass

    def get_ori_validate_memory_order() -> type[ModulePass]:
        from tileas_py.passes.ori.validate_memory_order import ValidateMemoryOrderPass

        return ValidateMemoryOrderPass

    def get_ori_stage_and_fence() -> type[ModulePass]:
        from tileas_py.passes.ori.stage_and_fence import StageAndFencePass

        return StageAndFencePass

    def get_ori_remove_redundant_barriers() -> type[ModulePass]:
        from tileas_py.passes.ori.remove_redundant_barriers import (
            RemoveRedundantBarriersPass,
        )

        return RemoveRedundantBarriersPass

    def get_ori_expand_mbarrier() -> type[ModulePass]:
        from tileas_py.passes.ori.expand_mbarrier import ExpandMbarrierPass

        return ExpandMbarrierPass

    def get_ori_optimize_sync() -> type[ModulePass]:
        from tileas_py.passes.ori.optimize_sync import OptimizeSyncPass

        return OptimizeSyncPass

    def get_ori_late_expand_sync() -> type[ModulePass]:
        from tileas_py.passes.ori.late_expand_sync import LateExpandSyncPass

        return LateExpandSyncPass

    def get_ori_do_synchronization() -> type[ModulePass]:
        from tileas_py.passes.ori.do_synchronization import DoSynchronizationPass

        return DoSynchronizationPass

    def get_ori_apply_post_sync_wars() -> type[ModulePass]:
        from tileas_py.passes.ori.apply_post_sync_wars import ApplyPostSyncWarsPass

        return ApplyPostSyncWarsPass

    def get_ori_fixup_tex_depbar() -> type[ModulePass]:
        from tileas_py.passes.ori.fixup_tex_depbar import FixupTexDepbarPass

        return FixupTexDepbarPass

    return {
        "ptxas-pipeline": get_ptxas_pipeline,
        "ori-validate-memory-order": get_ori_validate_memory_order,
        "ori-stage-and-fence": get_ori_stage_and_fence,
        "ori-remove-redundant-barriers": get_ori_remove_redundant_barriers,
        "ori-expand-mbarrier": get_ori_expand_mbarrier,
        "ori-optimize-sync": get_ori_optimize_sync,
        "ori-late-expand-sync": get_ori_late_expand_sync,
        "ori-do-synchronization": get_ori_do_synchronization,
        "ori-apply-post-sync-wars": get_ori_apply_post_sync_wars,
        "ori-fixup-tex-depbar": get_ori_fixup_tex_depbar,
    }
