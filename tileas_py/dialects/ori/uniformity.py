"""Which registers may differ between the threads of a warp, and which branches diverge.

The model of ptxas's varying propagation (OriPropagateVarying, the phase before seed 003's
OptimizeSyncInstructions) that the sync phases need to know where a warp may be diverged:

- *sources*: thread-dependent special registers (`%tid.x`, `%laneid`, `%clock`, ...), loads
  other than of the kernel's own parameters and of `.const` memory, atomics, shuffles,
  `match`, `elect`, mbarrier results and the values a call returns;
- *propagation*: an instruction reading a varying register writes varying registers, as
  does one whose guard is varying; `vote`, `redux`, `activemask` and `bar.red` agree across
  the warp whatever their inputs;
- a *divergent branch* is a guarded `bra` (not `bra.uni`) on a varying predicate.

Ori is not SSA, so a register is varying when any of its definitions is. The propagation is
a worklist over registers: each becomes varying at most once, so the work is linear in the
size of the function.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Attribute, SSAValue

from tileas_py.dialects.ori.attributes import (
    AddressAttr,
    NotAttr,
    PairAttr,
    ParenAttr,
    SpecialRegAttr,
    VectorAttr,
)
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import BraOp, BrxOp, InstructionOp
from tileas_py.dialects.ori.sass import is_if_converted

UNIFORM_SPECIAL_REGISTERS = frozenset(
    f"%{name}{axis}"
    for name in (
        "ctaid",
        "nctaid",
        "ntid",
        "clusterid",
        "nclusterid",
        "cluster_ctaid",
        "cluster_nctaid",
    )
    for axis in ("", ".x", ".y", ".z")
) | frozenset(
    {
        "%cluster_ctarank",
        "%cluster_nctarank",
        "%is_explicit_cluster",
        "%gridid",
        "%nsmid",
        "%total_smem_size",
        "%dynamic_smem_size",
        "%aggr_smem_size",
        "%current_graph_exec",
    }
)
"""Special registers with one value for a whole CTA (or grid); every other one, `%tid.x`
and `%laneid` first, may differ between threads."""

_VARYING_ROOTS = frozenset(
    {"atom", "shfl", "match", "elect", "mbarrier", "tex", "tld4", "txq", "suld"}
)
_UNIFORM_RESULT_ROOTS = frozenset({"vote", "redux", "activemask"})


def _is_uniform_load(inst: InstructionOp, params: frozenset[str]) -> bool:
    """`ld.param` of the function's own parameters and `ld.const` agree across threads
    when their address does (the address registers are propagated as usual)."""
    parts = inst.opcode.data.split(".")
    if "const" in parts:
        return True
    if "param" not in parts or not inst.layout.data:
        return False
    address = inst.layout.data[-1]
    return (
        isinstance(address, AddressAttr)
        and isinstance(address.base, SymbolRefAttr)
        and address.base.root_reference.data in params
    )


class Uniformity:
    """The varying registers of one function and its divergent branches."""

    def __init__(self, func: FuncOp) -> None:
        self.params = frozenset(p.param_name.data for p in func.params)
        self.varying: set[SSAValue] = set()
        worklist: list[SSAValue] = []
        for block in list(func.body.blocks)[1:]:
            for op in block.ops:
                if isinstance(op, InstructionOp) and self._is_source(op):
                    worklist.extend(self._mark(op.defs()))
        while worklist:
            reg = worklist.pop()
            for use in reg.uses:
                op = use.operation
                if not isinstance(op, InstructionOp) or self._agrees(op):
                    continue
                worklist.extend(self._mark(op.defs()))

    def _mark(self, registers: Iterable[SSAValue]) -> list[SSAValue]:
        fresh = [r for r in registers if r not in self.varying]
        self.varying.update(fresh)
        return fresh

    def _agrees(self, inst: InstructionOp) -> bool:
        """Whether the instruction's results agree across the warp whatever it reads."""
        parts = inst.opcode.data.split(".")
        return parts[0] in _UNIFORM_RESULT_ROOTS or parts[:2] in (
            ["bar", "red"],
            ["barrier", "red"],
        )

    def _is_source(self, inst: InstructionOp) -> bool:
        root = inst.opcode.data.split(".", 1)[0]
        if self._agrees(inst):
            return False
        if root in _VARYING_ROOTS:
            return True
        if root == "ld" and not _is_uniform_load(inst, self.params):
            return True
        return any(
            isinstance(operand, SpecialRegAttr)
            and operand.reg_name.data not in UNIFORM_SPECIAL_REGISTERS
            for operand in _leaves(inst)
        )

    def is_varying(self, reg: SSAValue) -> bool:
        return reg in self.varying

    def is_divergent(self, terminator: InstructionOp) -> bool:
        """Whether a branch may send the threads of one warp different ways (an
        if-converted branch sends them nowhere)."""
        if ".uni" in terminator.opcode.data or is_if_converted(terminator):
            return False
        if isinstance(terminator, BrxOp):
            return any(reg in self.varying for reg in terminator.uses())
        return (
            isinstance(terminator, BraOp)
            and terminator.guard is not None
            and terminator.guard in self.varying
        )

    def has_varying_operand(self, inst: InstructionOp) -> bool:
        """Whether some register the instruction reads (its guard included) is varying."""
        return any(reg in self.varying for reg in inst.uses())


def _leaves(inst: InstructionOp) -> Iterable[Attribute]:
    """Every operand of the instruction and every operand nested inside one."""
    stack: list[Attribute] = list(inst.layout.data)
    while stack:
        operand = stack.pop()
        yield operand
        if isinstance(operand, AddressAttr):
            stack.append(operand.base)
            stack.extend(operand.rest)
        elif isinstance(operand, VectorAttr | ParenAttr):
            stack.extend(operand.elements)
        elif isinstance(operand, PairAttr):
            stack.extend((operand.first, operand.second))
        elif isinstance(operand, NotAttr):
            stack.append(operand.operand)
