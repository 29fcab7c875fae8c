"""The dialects of tileas-py, registered lazily so that `tileas-opt --help` stays fast."""

from collections.abc import Callable

from xdsl.ir import Dialect


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Map each dialect name to a factory that imports and returns it."""

    def get_nvvm() -> Dialect:
        from tileas_py.dialects.nvvm import NVVM

        return NVVM

    def get_ori() -> Dialect:
        from tileas_py.dialects.ori import Ori

        return Ori

    return {
        "nvvm": get_nvvm,
        "ori": get_ori,
    }
