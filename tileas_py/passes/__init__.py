"""The passes and named pipelines of tileas-py: one registry, lazily imported."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Map each pass name to a factory that imports and returns its class."""

    def get_ori_propagate_gmma() -> type[ModulePass]:
        from tileas_py.passes.ori.propagate_gmma import OriPropagateGmmaPass

        return OriPropagateGmmaPass

    def get_ori_fixup_gmma_sequence() -> type[ModulePass]:
        from tileas_py.passes.ori.fixup_gmma_sequence import OriFixupGmmaSequencePass

        return OriFixupGmmaSequencePass

    def get_ptxas_gmma() -> type[ModulePass]:
        from tileas_py.pipelines import PtxasGmmaPipeline

        return PtxasGmmaPipeline

    return {
        "ori-propagate-gmma": get_ori_propagate_gmma,
        "ori-fixup-gmma-sequence": get_ori_fixup_gmma_sequence,
        "ptxas-gmma": get_ptxas_gmma,
    }
