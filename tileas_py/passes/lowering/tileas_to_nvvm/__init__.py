"""The pattern modules of `convert-tileas-to-nvvm`, one per family of tile ops.

Each module listed in `MODULES` exports `PATTERNS` (a tuple of rewrite patterns) and may
export `SHARED` (op class -> how many bytes of shared memory and which alignment an op of
that class needs; see `kernel.plan_shared_memory`; where several modules ask for one class,
the first module's answer that is not None counts). A new family (TMA, mbarriers,
pipelines, agents, ...) is one more module here and one more line in `MODULES`. The value
conventions every module follows are in `conventions.py`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from xdsl.ir import Operation
from xdsl.pattern_rewriter import RewritePattern

from tileas_py.passes.lowering.tileas_to_nvvm.kernel import SharedRequest

MODULES = (
    "kernel",
    "dot",
    "tcgen05",
    "tmem",
    "s2t_copy",
    "dsmem",
    "blocked",
    "fma",
    "store",
    "epilogue",
    "agents",
    "mbarrier",
    "pipeline",
    "persistent",
    "scf",
)
"""The pattern modules, by name inside this package."""


def collect() -> tuple[
    tuple[RewritePattern, ...], dict[type[Operation], SharedRequest]
]:
    """Every module's patterns, and every module's shared-memory requests."""
    patterns: list[RewritePattern] = []
    shared: dict[type[Operation], SharedRequest] = {}
    for name in MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        module_patterns: tuple[RewritePattern, ...] = module.PATTERNS
        patterns.extend(module_patterns)
        requests: Mapping[type[Operation], SharedRequest] = getattr(
            module, "SHARED", {}
        )
        for op_type, request in requests.items():
            earlier = shared.get(op_type)
            shared[op_type] = (
                request if earlier is None else _first_of(earlier, request)
            )
    return tuple(patterns), shared


def _first_of(first: SharedRequest, second: SharedRequest) -> SharedRequest:
    """Two modules' requests for one op class: the first that answers (`tmem.py` plans
    the pipelines of tensor-memory slots, `pipeline.py` the others)."""

    def request(op: Operation) -> tuple[int, int] | None:
        answer = first(op)
        return answer if answer is not None else second(op)

    return request
