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

    return {
        "ori-expand-mbarrier": get_expand_mbarrier,
        "ori-late-expand-sync": get_late_expand_sync,
    }
