"""The table of op lowerings: each family module registers its lowerings with `lowers`."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Operation

from tileas_py.passes.lowering.nvvm_to_ori.function import Lowering

LOWERINGS: dict[type[Operation], Lowering] = {}
"""The lowering of each supported op class."""


def lowers(*op_types: type[Operation]) -> Callable[[Lowering], Lowering]:
    """Register the decorated function as the lowering of `op_types`."""

    def register(lowering: Lowering) -> Lowering:
        for op_type in op_types:
            assert op_type not in LOWERINGS, f"{op_type.name} is lowered twice"
            LOWERINGS[op_type] = lowering
        return lowering

    return register
