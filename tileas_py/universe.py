"""The `xdsl.universe` entry point: lets plain `xdsl-opt` see tileas-py's extensions.

`tileas-opt` registers the same dialects, passes and targets itself, skipping any name the
multiverse (this universe, once the package is installed) has already registered.
"""

from collections.abc import Callable

from xdsl.universe import Universe
from xdsl.utils.target import Target

from tileas_py.dialects import get_all_dialects
from tileas_py.passes import get_all_passes
from tileas_py.registry import lazy

TARGETS = {
    "ptx": "tileas_py.ptx.writer:PtxTarget",
    "sass-sync": "tileas_py.ptx.sass_listing:SassSyncTarget",
}
"""Each output target's name (`-t NAME`) and where its class lives."""


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """Map each output target name to a factory that imports and returns its class."""
    return {name: lazy(path) for name, path in TARGETS.items()}


UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
)
