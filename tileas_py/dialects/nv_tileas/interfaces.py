"""Op interfaces and traits of `nv_tileas` that passes dispatch on.

tileiras's passes select ops by interface or op class rather than by name: the
execution-unit mapping works on every `AgentLikeOpInterface` op, the OCG-knob pass on the
MMA family and on the async fence / arrive and barrier families. These are the xDSL
counterparts, so that ops defined elsewhere can join a family by implementing them.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import Operation, Region
from xdsl.traits import OpTrait


class AgentLikeOpInterface(Operation, abc.ABC):
    """
    An op whose regions are agents: each region runs on its own group of warps.

    `optimize-execution-unit-mapping` turns every such op into an
    `nv_tileas.async.pipeline.agent_switch` with consistent warp assignments.
    """

    @abc.abstractmethod
    def get_agent_regions(self) -> Sequence[Region]:
        """The agents, one region each (an empty region is an unused warp slot)."""
        raise NotImplementedError()

    @abc.abstractmethod
    def get_declared_num_warps(self, index: int) -> int | None:
        """The warp count the op itself declares for agent `index`, if any."""
        raise NotImplementedError()

    @abc.abstractmethod
    def get_agent_stride(self, index: int) -> int:
        """The warp stride of agent `index`."""
        raise NotImplementedError()


@dataclass(frozen=True)
class MmaFamily(OpTrait):
    """Ops that issue tensor-core MMAs (`nv_tileas.dot`, ...)."""


@dataclass(frozen=True)
class AsyncFenceOrArrive(OpTrait):
    """Async-proxy fences and mbarrier arrives of the async pipeline."""


@dataclass(frozen=True)
class BarrierOp(OpTrait):
    """mbarrier and cluster-barrier ops."""
