"""The dialects of tileas-py, registered lazily so that `tileas-opt --help` stays fast."""

from collections.abc import Callable

from xdsl.ir import Dialect

from tileas_py.registry import lazy

DIALECTS = {
    "nv_tileaa": "tileas_py.dialects.nv_tileaa:NvTileaa",
    "nv_tileas": "tileas_py.dialects.nv_tileas:NvTileas",
    "cute_nvgpu": "tileas_py.dialects.cute_nvgpu:CuteNvgpu",
    "nvvm": "tileas_py.dialects.nvvm:NVVM",
    "ori": "tileas_py.dialects.ori:Ori",
}
"""Each dialect's name and where its `Dialect` object lives."""


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Map each dialect name to a factory that imports and returns it."""
    return {name: lazy(path) for name, path in DIALECTS.items()}


OVERRIDES = {"gpu": "tileas_py.dialects.gpu:GPU"}
"""xDSL dialects that `tileas-opt` and `tileas_py.api` load in a form of their own:
`gpu`, whose `gpu.module` takes upstream's targets. Not in the xDSL universe, where the
name would clash with xDSL's own dialect."""


def get_dialect_overrides() -> dict[str, Callable[[], Dialect]]:
    """Map each overridden dialect name to a factory for our version of it."""
    return {name: lazy(path) for name, path in OVERRIDES.items()}
