"""Which ori registers may differ between threads, and which branches split them, at the
two levels the ptxas phases ask about:

- `WarpUniformity`: between the threads of one *warp*. The model of ptxas's varying
  propagation (OriPropagateVarying, the phase before seed 003's OptimizeSyncInstructions),
  which the sync phases need to know where a warp may be diverged.
- `WarpgroupDivergence`: between the threads of one *warpgroup* (four warps), which the
  GMMA phases need to know whether a wgmma runs for the whole warpgroup together.

Both start from the special registers: `SPECIAL_REGISTERS` is the one table of which of
them are the same for every thread of a warp and of a warpgroup. For example, `%tid.x`
differs at both levels, `%ctaid.x` at neither:

    SPECIAL_REGISTERS["%tid.x"] == Sharing(per_warp=False, per_warpgroup=False)
    SPECIAL_REGISTERS["%ctaid.x"] == Sharing(per_warp=True, per_warpgroup=True)

Ori is not SSA, so a register differs when any of its definitions does. Both analyses are
def-use worklists over registers (each register is marked at most once), linear in the
size of the function; the warpgroup one repeats its worklist once per divergent branch it
finds, as data and control divergence feed each other.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Attribute, Block, SSAValue

from tileas_py.analysis.cfg import control_dependence
from tileas_py.dialects.ori.analysis import ControlFlowGraph, RegisterNumbering
from tileas_py.dialects.ori.attributes import (
    AddressAttr,
    SpecialRegAttr,
    nested_operands,
)
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import (
    BraOp,
    BrxOp,
    InstructionOp,
    TerminatorInstructionOp,
)
from tileas_py.dialects.ori.sass import is_if_converted

# -- special registers ------------------------------------------------------------------


class Sharing(NamedTuple):
    """Whether a special register reads the same for every thread of a warp and of a
    warpgroup."""

    per_warp: bool
    per_warpgroup: bool


_AXES = ("", ".x", ".y", ".z")
_EVERY_THREAD = Sharing(per_warp=False, per_warpgroup=False)
_WHOLE_CTA = Sharing(per_warp=True, per_warpgroup=True)
# Uniform across a warpgroup, yet varying across a warp: the two models were calibrated
# apart (the warp one counts any register it does not know to be uniform as varying,
# the warpgroup one only the thread-dependent ones). Physically these are the same for a
# whole CTA; kept as calibrated so that outputs do not change.
_UNPROVEN_PER_WARP = Sharing(per_warp=False, per_warpgroup=True)

SPECIAL_REGISTERS: dict[str, Sharing] = {
    # Per thread, and the counters each thread reads at its own time.
    **{f"%tid{axis}": _EVERY_THREAD for axis in _AXES},
    "%laneid": _EVERY_THREAD,
    **{f"%lanemask_{m}": _EVERY_THREAD for m in ("eq", "le", "lt", "ge", "gt")},
    "%warpid": _EVERY_THREAD,
    **{name: _EVERY_THREAD for name in ("%clock", "%clock_hi", "%clock64")},
    **{f"%pm{n}{wide}": _EVERY_THREAD for n in range(8) for wide in ("", "_64")},
    **{f"%globaltimer{part}": _EVERY_THREAD for part in ("", "_lo", "_hi")},
    # One value for a whole CTA (or grid).
    **{
        f"%{name}{axis}": _WHOLE_CTA
        for name in (
            "ntid",
            "ctaid",
            "nctaid",
            "clusterid",
            "nclusterid",
            "cluster_ctaid",
            "cluster_nctaid",
        )
        for axis in _AXES
    },
    **{
        name: _WHOLE_CTA
        for name in (
            "%cluster_ctarank",
            "%cluster_nctarank",
            "%is_explicit_cluster",
            "%gridid",
            "%nsmid",
            "%total_smem_size",
            "%dynamic_smem_size",
            "%aggr_smem_size",
            "%current_graph_exec",
        )
    },
    **{name: _UNPROVEN_PER_WARP for name in ("%nwarpid", "%smid")},
    **{f"%envreg{n}": _UNPROVEN_PER_WARP for n in range(32)},
    **{
        f"%reserved_smem_offset_{part}": _UNPROVEN_PER_WARP
        for part in ("begin", "end", "cap", "0", "1")
    },
}
"""Every PTX special register (those `ptx.isa.is_special_register` accepts). A name
missing here (only hand-written ori can hold one) counts as differing at both levels."""


def special_registers(inst: InstructionOp) -> Iterator[str]:
    """The special registers (`%tid.x`, ...) the instruction reads, nested operands
    included."""
    stack: list[Attribute] = list(inst.layout.data)
    while stack:
        operand = stack.pop()
        if type(operand) is SpecialRegAttr:
            yield operand.reg_name.data
        else:
            stack.extend(nested_operands(operand))


def _reads_varying_special_register(inst: InstructionOp, *, per_warp: bool) -> bool:
    for name in special_registers(inst):
        sharing = SPECIAL_REGISTERS.get(name, _EVERY_THREAD)
        if not (sharing.per_warp if per_warp else sharing.per_warpgroup):
            return True
    return False


# -- per warp ---------------------------------------------------------------------------

# Instructions whose results may differ between the threads of a warp whatever they read.
_WARP_VARYING_ROOTS = frozenset(
    {"atom", "shfl", "match", "elect", "mbarrier", "tex", "tld4", "txq", "suld"}
)
# Instructions whose results agree across the warp whatever they read.
_WARP_UNIFORM_RESULT_ROOTS = frozenset({"vote", "redux", "activemask"})


class WarpUniformity:
    """The registers of one function that may differ between the threads of a warp
    (*varying*), and the branches that may split a warp.

    - *sources*: the special registers not the same across a warp (`%tid.x`, `%laneid`,
      `%clock`, ...), loads other than of the kernel's own parameters and of `.const`
      memory, atomics, shuffles, `match`, `elect`, mbarrier results and texture reads;
    - *propagation*: an instruction reading a varying register writes varying registers,
      as does one whose guard is varying; `vote`, `redux`, `activemask` and `bar.red`
      agree across the warp whatever their inputs;
    - a *divergent branch* is a guarded `bra` (not `bra.uni`, not if-converted) on a
      varying predicate, or a `brx.idx` on a varying index.
    """

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
        return parts[0] in _WARP_UNIFORM_RESULT_ROOTS or parts[:2] in (
            ["bar", "red"],
            ["barrier", "red"],
        )

    def _is_source(self, inst: InstructionOp) -> bool:
        root = inst.opcode.data.split(".", 1)[0]
        if self._agrees(inst):
            return False
        if root in _WARP_VARYING_ROOTS:
            return True
        if root == "ld" and not self._is_uniform_load(inst):
            return True
        return _reads_varying_special_register(inst, per_warp=True)

    def _is_uniform_load(self, inst: InstructionOp) -> bool:
        """`ld.param` of the function's own parameters and `ld.const` agree across
        threads when their address does (the address registers are propagated as
        usual)."""
        parts = inst.opcode.data.split(".")
        if "const" in parts:
            return True
        if "param" not in parts or not inst.layout.data:
            return False
        address = inst.layout.data[-1]
        return (
            isinstance(address, AddressAttr)
            and isinstance(address.base, SymbolRefAttr)
            and address.base.root_reference.data in self.params
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


# -- per warpgroup ----------------------------------------------------------------------

# Instructions whose results may differ between the threads of a warpgroup even from
# uniform operands (a `vote` or `redux` agrees within a warp, not across four).
_WARPGROUP_DIVERGENT_ROOTS = frozenset(
    {"atom", "shfl", "vote", "match", "redux", "elect", "activemask", "call"}
)


def _has_warpgroup_divergent_source(inst: InstructionOp) -> bool:
    """Whether `inst` produces values that may differ across a warpgroup whatever its
    register operands."""
    opcode = inst.opcode.data
    root = opcode.split(".", 1)[0]
    if root in _WARPGROUP_DIVERGENT_ROOTS:
        return True
    if root in ("ld", "ldu") and not opcode.startswith(("ld.param", "ld.const")):
        return True
    return _reads_varying_special_register(inst, per_warp=False)


class WarpgroupDivergence:
    """Which registers and branches may differ between the threads of a warpgroup.

    A register is divergent when an instruction defining it reads a divergent register or
    a thread-dependent source (`%tid.x`, `%laneid`, a load from memory other than `.param`
    and `.const`, a shuffle, a vote, a call's result), or when it is defined under a
    divergent branch and read outside it (its value then depends on the path each thread
    took). A conditional branch is divergent when its guard (or the index of a `brx.idx`)
    is divergent and it is not `.uni`. Data and control divergence feed each other; the
    fixed point is reached after at most one round per divergent branch, each round
    linear in the function.
    """

    def __init__(
        self, func: FuncOp, cfg: ControlFlowGraph, numbering: RegisterNumbering
    ) -> None:
        self.cfg = cfg
        self.control_dependence = control_dependence(cfg.successors, cfg.ipdom)
        self.registers: int = 0
        """Bit vector of the divergent registers."""
        self.branches: int = 0
        """Bit vector of the blocks (CFG indices) ending in a divergent branch."""
        # Each instruction's block, used and defined register numbers, read once.
        self._instructions: list[tuple[int, list[int], list[int]]] = []
        self._users: list[list[int]] = [[] for _ in range(len(numbering))]
        sources = 0
        for index, block in enumerate(cfg.blocks):
            for op in block.ops:
                if not isinstance(op, InstructionOp):
                    continue
                used = [numbering.number[r] for r in op.uses()]
                defined = [numbering.number[r] for r in op.defs()]
                position = len(self._instructions)
                self._instructions.append((index, used, defined))
                for number in used:
                    self._users[number].append(position)
                if _has_warpgroup_divergent_source(op):
                    for number in defined:
                        sources |= 1 << number
        # What decides a branch: its guard, and the index of a `brx.idx`.
        guards: list[tuple[int, int]] = []
        for index, block in enumerate(cfg.blocks):
            terminator = block.last_op
            if (
                isinstance(terminator, TerminatorInstructionOp)
                and ".uni" not in terminator.opcode.data
            ):
                guards.extend(
                    (index, numbering.number[reg]) for reg in terminator.uses()
                )
        while True:
            registers = self._propagate(sources)
            branches = 0
            for index, guard in guards:
                if registers >> guard & 1:
                    branches |= 1 << index
            if branches == self.branches and registers == self.registers:
                return
            self.registers, self.branches = registers, branches
            sources |= self._defined_under_divergence(len(numbering))

    def _propagate(self, sources: int) -> int:
        """Everything computed from the divergent `sources` (a def-use worklist)."""
        divergent = sources
        worklist = [n for n in range(sources.bit_length()) if sources >> n & 1]
        while worklist:
            number = worklist.pop()
            for position in self._users[number]:
                for defined in self._instructions[position][2]:
                    if not divergent >> defined & 1:
                        divergent |= 1 << defined
                        worklist.append(defined)
        return divergent

    def _defined_under_divergence(self, count: int) -> int:
        """Registers defined under a divergent branch and read where it has joined."""
        regions = [0] * count
        for index, _, defined in self._instructions:
            region = self.control_dependence[index] & self.branches
            if region:
                for number in defined:
                    regions[number] |= region
        joined = 0
        for index, used, _ in self._instructions:
            inside = self.control_dependence[index]
            for number in used:
                if regions[number] & ~inside:
                    joined |= 1 << number
        return joined

    def is_divergent(self, reg: SSAValue, numbering: RegisterNumbering) -> bool:
        return bool(self.registers >> numbering.number[reg] & 1)

    def divergent_dependence(self, block: Block) -> int:
        """The divergent branches (a bit vector of CFG indices) `block` depends on."""
        return self.control_dependence[self.cfg.index[block]] & self.branches
