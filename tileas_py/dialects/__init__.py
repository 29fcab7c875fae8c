"""The dialects of tileas-py, registered lazily so that `tileas-opt --help` stays fast."""

from collections.abc import Callable

from xdsl.ir import Dialect


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Map each dialect name to a factory that imports and returns it."""

    def get_nv_tileaa() -> Dialect:
        from tileas_py.dialects.nv_tileaa import NvTileaa

        return NvTileaa

    def get_nv_tileas() -> Dialect:
        from tileas_py.dialects.nv_tileas import NvTileas

        return NvTileas

    def get_cute_nvgpu() -> Dialect:
        from tileas_py.dialects.cute_nvgpu import CuteNvgpu

        return CuteNvgpu

    def get_nvvm() -> Dialect:
        from tileas_py.dialects.nvvm import NVVM

        return NVVM

    def get_ori() -> Dialect:
        from tileas_py.dialects.ori import Ori

        return Ori

    return {
        "nv_tileaa": get_nv_tileaa,
        "nv_tileas": get_nv_tileas,
        "cute_nvgpu": get_cute_nvgpu,
        "nvvm": get_nvvm,
        "ori": get_ori,
    }
