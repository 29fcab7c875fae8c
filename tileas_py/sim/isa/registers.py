"""`setmaxnreg`: warpgroups trading registers within the CTA's share of the register file.

Each warpgroup starts with the kernel's per-thread register count at entry: `.maxnreg`, or
what the launch bounds leave per thread (`.maxntid` / `.reqntid` with `.minnctapersm`),
else the register file over the CTA's threads. `setmaxnreg.dec` returns registers to the
CTA's pool; `setmaxnreg.inc` takes them, and waits (as the hardware does) until other
warpgroups have released enough. The counts must be multiples of 8 in 24..256, an `.inc`
may not lower and a `.dec` not raise the count; a CTA whose warpgroups ask for more than
the register file holds waits forever, which the scheduler reports as a deadlock.
PTX ISA, "setmaxnreg": https://docs.nvidia.com/cuda/parallel-thread-execution/#miscellaneous-instructions-setmaxnreg
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.collective import WARPGROUP, warpgroups
from tileas_py.sim.isa.operands import Imm, Operand
from tileas_py.sim.program import Action, Function, Instruction

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]

REGISTER_FILE = 65536
"""32-bit registers per SM (sm_90)."""
MAX_PER_THREAD = 255


def entry_registers(function: Function, threads: int) -> int:
    """The per-thread register count the kernel starts with."""
    directives = function.directives
    if "maxnreg" in directives:
        return directives["maxnreg"][0]
    ctas = directives.get("minnctapersm", (1,))[0]
    bound = directives.get("maxntid") or directives.get("reqntid")
    if bound is not None:
        threads = int(np.prod(bound))
    per_thread = REGISTER_FILE // max(threads * ctas, 1) // 8 * 8
    return min(per_thread, MAX_PER_THREAD)


@dataclass
class RegisterBudget:
    """One CTA's registers: what each of its warpgroups holds, out of the pool."""

    pool: int
    held: dict[int, int] = field(default_factory=dict[int, int])

    @property
    def free(self) -> int:
        return self.pool - sum(self.held.values())


def _budget(m: Machine, cta: int, start: int) -> RegisterBudget:
    budgets: dict[int, RegisterBudget] = m.state.setdefault("register_budgets", {})
    budget = budgets.get(cta)
    if budget is None:
        geometry = m.geometry
        warpgroups = -(-geometry.threads_per_cta // WARPGROUP)
        budget = RegisterBudget(REGISTER_FILE)
        first = cta * (-(-geometry.padded // WARPGROUP))
        for wg in range(first, first + warpgroups):
            budget.held[wg] = start * WARPGROUP
        budgets[cta] = budget
    return budget


@semantics("setmaxnreg", klass="sync")
def compile_setmaxnreg(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    action = inst.parts[1]
    if action not in ("inc", "dec") or not ops or not isinstance(ops[0], Imm):
        raise Unsupported("expected setmaxnreg.inc/dec with an immediate count")
    count = ops[0].value
    if count % 8 or not 24 <= count <= 256:
        m.fail(f"setmaxnreg count {count} must be a multiple of 8 in 24..256", inst)
    start = entry_registers(m.kernel, m.geometry.threads_per_cta)

    def run(m: Machine, lanes: Lanes) -> None:
        for wg, members in warpgroups(m, inst, lanes):
            cta = int(m.geometry.lane_cta[members[0]])
            budget = _budget(m, cta, start)
            if budget.free < 0:
                m.fail(
                    f"the CTA starts with {start} registers per thread, "
                    f"{budget.pool - budget.free} in all: more than the register file's "
                    f"{budget.pool}",
                    inst,
                )
            held = budget.held[wg]
            wanted = count * WARPGROUP
            if (action == "inc" and wanted < held) or (
                action == "dec" and wanted > held
            ):
                m.fail(
                    f"setmaxnreg.{action} to {count} registers, from {held // WARPGROUP}",
                    inst,
                )
            if wanted - held > budget.free:
                m.block(
                    members,
                    ("registers", cta),
                    f"{wanted - held - budget.free} more registers of the CTA's "
                    f"{budget.pool} (setmaxnreg.inc {count})",
                    at=inst,
                    retry=True,
                )
                continue
            budget.held[wg] = wanted
            if action == "dec":
                m.wake(("registers", cta))
            m.bump()

    return run
