"""The passes and named pipelines of tileas-py: one registry, lazily imported."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Map each pass name to a factory that imports and returns its class."""

    def get_convert_nvvm_to_ori() -> type[ModulePass]:
        from tileas_py.passes.lowering.convert_nvvm_to_ori import ConvertNvvmToOriPass

        return ConvertNvvmToOriPass

    return {
        "convert-nvvm-to-ori": get_convert_nvvm_to_ori,
    }
