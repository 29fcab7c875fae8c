"""The passes and named pipelines of tileas-py: one registry, lazily imported."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Map each pass name to a factory that imports and returns its class."""

    def get_expand_mbarrier() -> type[ModulePass]:
        from tileas_py.passes.ori.expand_mbarrier import ExpandMbarrierPass

        return ExpandMbarrierPass

    def get_late_expand_sync() -> type[ModulePass]:
        from tileas_py.passes.ori.late_expand_sync import LateExpandSyncPass

        return LateExpandSyncPass

    def get_remove_redundant_barriers() -> type[ModulePass]:
        from tileas_py.passes.ori.remove_redundant_barriers import (
            RemoveRedundantBarriersPass,
        )

        return RemoveRedundantBarriersPass

    def get_optimize_sync() -> type[ModulePass]:
        from tileas_py.passes.ori.optimize_sync import OptimizeSyncPass

        return OptimizeSyncPass

    return {
        "ori-remove-redundant-barriers": get_remove_redundant_barriers,
        "ori-optimize-sync": get_optimize_sync,
        "ori-expand-mbarrier": get_expand_mbarrier,
        "ori-late-expand-sync": get_late_expand_sync,
    }
