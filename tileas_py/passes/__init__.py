"""The passes and named pipelines of tileas-py: one registry, lazily imported."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Map each pass name to a factory that imports and returns its class."""

    def get_plan_cta() -> type[ModulePass]:
        from tileas_py.passes.tileas.plan_cta import PlanCTAPass

        return PlanCTAPass

    def get_dynamic_persistent() -> type[ModulePass]:
        from tileas_py.passes.tileas.dynamic_persistent import DynamicPersistentPass

        return DynamicPersistentPass

    def get_insert_ocg_knobs() -> type[ModulePass]:
        from tileas_py.passes.tileas.insert_ocg_knobs import InsertOCGKnobsPass

        return InsertOCGKnobsPass

    def get_sink_negf() -> type[ModulePass]:
        from tileas_py.passes.tileas.sink_negf import SinkNegFPass

        return SinkNegFPass

    def get_optimize_execution_unit_mapping() -> type[ModulePass]:
        from tileas_py.passes.tileas.optimize_execution_unit_mapping import (
            OptimizeExecutionUnitMappingPass,
        )

        return OptimizeExecutionUnitMappingPass

    def get_propagate_execution_unit() -> type[ModulePass]:
        from tileas_py.passes.tileas.propagate_execution_unit import (
            PropagateExecutionUnitPass,
        )

        return PropagateExecutionUnitPass

    def get_remove_buffer_alias() -> type[ModulePass]:
        from tileas_py.passes.tileas.remove_buffer_alias import RemoveBufferAliasPass

        return RemoveBufferAliasPass

    def get_remove_layout_conversions() -> type[ModulePass]:
        from tileas_py.passes.tileas.remove_layout_conversions import (
            RemoveLayoutConversionsPass,
        )

        return RemoveLayoutConversionsPass

    def get_slicing() -> type[ModulePass]:
        from tileas_py.passes.tileas.slicing import SlicingPass

        return SlicingPass

    def get_prepare_for_scheduling() -> type[ModulePass]:
        from tileas_py.passes.tileas.prepare_for_scheduling import (
            PrepareForSchedulingPass,
        )

        return PrepareForSchedulingPass

    def get_resolve_agent_boundary() -> type[ModulePass]:
        from tileas_py.passes.tileas.resolve_agent_boundary import (
            ResolveAgentBoundaryPass,
        )

        return ResolveAgentBoundaryPass

    return {
        "tileas-plan-cta": get_plan_cta,
        "tileas-dynamic-persistent": get_dynamic_persistent,
        "tileas-insert-OCG-knobs": get_insert_ocg_knobs,
        "sink-negf-through-shapes": get_sink_negf,
        "optimize-execution-unit-mapping": get_optimize_execution_unit_mapping,
        "propagate-execution-unit": get_propagate_execution_unit,
        "tileas-remove-buffer-alias": get_remove_buffer_alias,
        "tileas-remove-layout-conversions": get_remove_layout_conversions,
        "tileas-slicing": get_slicing,
        "tileas-prepare-for-scheduling": get_prepare_for_scheduling,
        "tileas-resolve-agent-boundary": get_resolve_agent_boundary,
    }
