"""The `xdsl.universe` entry point: lets plain `xdsl-opt` see tileas-py's extensions.

`tileas-opt` registers the same dialects, passes and targets itself, skipping any name the
multiverse (this universe, once the package is installed) has already registered.
"""

from collections.abc import Callable

from xdsl.universe import Universe
from xdsl.utils.target import Target

from tileas_py.dialects import get_all_dialects
from tileas_py.passes import get_all_passes


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """Map each output target name (`-t NAME`) to a factory returning its class."""

    def get_ptx() -> type[Target]:
        from tileas_py.ptx.writer import PtxTarget

        return PtxTarget

    def get_sass_sync() -> type[Target]:
        from tileas_py.ptx.sass_listing import SassSyncTarget

        return SassSyncTarget

    return {"ptx": get_ptx, "sass-sync": get_sass_sync}


UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
)
