"""The passes and named pipelines of tileas-py: one registry, lazily imported."""

from collections.abc import Callable

from xdsl.passes import ModulePass

from tileas_py.registry import lazy

PASSES = {
    # Tile level: the tileiras CTA / cluster family and its D20 aux passes.
    "tileas-plan-cta": "tileas_py.passes.tileas.plan_cta:PlanCTAPass",
    "tileas-dynamic-persistent": "tileas_py.passes.tileas.dynamic_persistent:DynamicPersistentPass",
    "tileas-insert-OCG-knobs": "tileas_py.passes.tileas.insert_ocg_knobs:InsertOCGKnobsPass",
    "sink-negf-through-shapes": "tileas_py.passes.tileas.sink_negf:SinkNegFPass",
    "optimize-execution-unit-mapping": "tileas_py.passes.tileas.optimize_execution_unit_mapping:OptimizeExecutionUnitMappingPass",
    "propagate-execution-unit": "tileas_py.passes.tileas.propagate_execution_unit:PropagateExecutionUnitPass",
    "tileas-remove-buffer-alias": "tileas_py.passes.tileas.remove_buffer_alias:RemoveBufferAliasPass",
    "tileas-remove-layout-conversions": "tileas_py.passes.tileas.remove_layout_conversions:RemoveLayoutConversionsPass",
    "tileas-slicing": "tileas_py.passes.tileas.slicing:SlicingPass",
    "tileas-prepare-for-scheduling": "tileas_py.passes.tileas.prepare_for_scheduling:PrepareForSchedulingPass",
    "tileas-resolve-agent-boundary": "tileas_py.passes.tileas.resolve_agent_boundary:ResolveAgentBoundaryPass",
    "tileas-unwrap-pipeline-iterators": "tileas_py.passes.tileas.unwrap_pipeline_iterators:UnwrapPipelineIteratorsPass",
    # Ori: ptxas's GMMA phases (seed 000).
    "ori-propagate-gmma": "tileas_py.passes.ori.propagate_gmma:OriPropagateGmmaPass",
    "ori-fixup-gmma-sequence": "tileas_py.passes.ori.fixup_gmma_sequence:OriFixupGmmaSequencePass",
    # Ori: ptxas's front-end validation and barrier / sync phases (seed 003).
    "ori-validate-memory-order": "tileas_py.passes.ori.validate_memory_order:ValidateMemoryOrderPass",
    "ori-stage-and-fence": "tileas_py.passes.ori.stage_and_fence:StageAndFencePass",
    "ori-remove-redundant-barriers": "tileas_py.passes.ori.remove_redundant_barriers:RemoveRedundantBarriersPass",
    "ori-expand-mbarrier": "tileas_py.passes.ori.expand_mbarrier:ExpandMbarrierPass",
    "ori-if-convert": "tileas_py.passes.ori.if_convert:IfConvertPass",
    "ori-optimize-sync": "tileas_py.passes.ori.optimize_sync:OptimizeSyncPass",
    "ori-late-expand-sync": "tileas_py.passes.ori.late_expand_sync:LateExpandSyncPass",
    "ori-do-synchronization": "tileas_py.passes.ori.do_synchronization:DoSynchronizationPass",
    "ori-apply-post-sync-wars": "tileas_py.passes.ori.apply_post_sync_wars:ApplyPostSyncWarsPass",
    "ori-fixup-tex-depbar": "tileas_py.passes.ori.fixup_tex_depbar:FixupTexDepbarPass",
    # Named pipelines.
    "ptxas-pipeline": "tileas_py.pipelines:PtxasPipelinePass",
    "ptxas-gmma": "tileas_py.pipelines:PtxasGmmaPipeline",
    "tileas-wgmma-to-ptx": "tileas_py.pipelines:TileasWgmmaToPtxPipeline",
    "tileas-to-ptx": "tileas_py.pipelines:TileasToPtxPipeline",
    # Lowerings.
    "convert-nvvm-to-ori": "tileas_py.passes.lowering.convert_nvvm_to_ori:ConvertNvvmToOriPass",
    "convert-tileas-to-nvvm": "tileas_py.passes.lowering.convert_tileas_to_nvvm:ConvertTileasToNvvmPass",
}
"""Each pass's name and where its class lives."""


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Map each pass name to a factory that imports and returns its class."""
    return {name: lazy(path) for name, path in PASSES.items()}
