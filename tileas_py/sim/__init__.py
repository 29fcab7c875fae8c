"""`tileas_py.sim`: run kernels on the CPU, a functional model of Hopper CTAs and clusters
over ori, with a hazard checker.

    from tileas_py.sim import launch, TensorMap, SimulationError, HazardError
    report = launch(source, kernel, grid, block, args, cluster=None, dynamic_shared=None,
                    check=True, fixup=True)

It executes any PTX the reader accepts and anything that lowers to ori, computing what the
hardware computes where PTX defines the result, and reports every hazard it sees: races
(happens-before over barriers, mbarrier phases and asynchronous completions), mbarrier
misuse, missing proxy fences, in-flight wgmma registers, collectives without their threads,
and deadlocks. docs/api.md documents the API, docs/simulator.md the model.
"""

from tileas_py.sim.errors import HazardError, SimulationError
from tileas_py.sim.launch import launch, prepare
from tileas_py.sim.report import Hazard, HazardKind, Party, Report
from tileas_py.sim.tensormap import TensorMap

__all__ = [
    "Hazard",
    "HazardError",
    "HazardKind",
    "Party",
    "Report",
    "SimulationError",
    "TensorMap",
    "launch",
    "prepare",
]
