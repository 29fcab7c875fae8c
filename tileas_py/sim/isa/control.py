"""Control flow: branches, calls, returns, exits, and the instructions that only hint.

A branch sends the threads whose guard holds to its target (`brx.idx`: the label its index
picks from a `.branchtargets` list); the scheduler has already moved every thread of the
group to the fall-through. `call` pushes the return PC on the thread's call stack and copies
the arguments into the callee's parameters (a `.param` variable into a `.param` parameter,
a register or immediate into a `.reg` one); `ret` copies the return values back. `exit`,
and `ret` from the kernel, end the thread.
PTX ISA, "Control Flow Instructions": https://docs.nvidia.com/cuda/parallel-thread-execution/#control-flow-instructions
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tileas_py.dialects.ori.attributes import FunctionKind
from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.operands import (
    Imm,
    Operand,
    Paren,
    Reg,
    Sym,
    reader,
    writer,
)
from tileas_py.sim.machine import MAX_CALL_DEPTH
from tileas_py.sim.program import (
    Action,
    Function,
    Instruction,
    Parameter,
    Register,
    Symbol,
)
from tileas_py.sim.ptx_types import ptx_type

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]


@semantics("bra", klass="control")
def compile_bra(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    target = inst.target

    def branch(m: Machine, lanes: Lanes) -> None:
        m.pc[lanes] = target

    return branch


@semantics("brx", klass="control")
def compile_brx(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """`brx.idx index, list`: each thread goes to the label its `.u32` index picks; an
    index past the list is undefined behaviour in PTX, and stops the run."""
    index = reader(m, inst, ops[0], ptx_type("u32"))
    targets = np.array(inst.targets, dtype=np.int64)

    def branch(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        picked = index(m, lanes).astype(np.int64)
        outside = picked >= targets.size
        if outside.any():
            m.fail(
                f"brx.idx index {int(picked[outside][0])} is past the "
                f"{targets.size} labels of its .branchtargets list "
                f"({m.describe_lanes(lanes[outside])})",
                inst,
            )
        m.pc[lanes] = targets[picked]

    return branch


@semantics("exit", "trap", klass="control")
def compile_exit(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    if inst.root == "trap":

        def trap(m: Machine, lanes: Lanes) -> None:
            if lanes.size:
                m.fail(f"trap executed by {m.describe_lanes(lanes)}", inst)

        return trap
    return lambda m, lanes: m.exit(lanes) if lanes.size else None


@semantics("ret", klass="control")
def compile_ret(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    def ret(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        depth = m.call_depth[lanes]
        top = depth == 0
        if top.any():
            m.exit(lanes[top])
        inner = lanes[~top]
        if inner.size:
            m.call_depth[inner] -= 1
            depth = m.call_depth[inner]
            m.pc[inner] = m.call_stack[inner, depth]
            sites = m.call_site[inner, depth]
            for site in np.unique(sites).tolist():
                copy_back = m.state["call_returns"][site]
                copy_back(m, inner[sites == site])

    return ret


@semantics("call", klass="control")
def compile_call(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    returns: tuple[Operand, ...] = ()
    arguments: tuple[Operand, ...] = ()
    rest = list(ops)
    if rest and isinstance(head := rest[0], Paren):
        returns = head.elements
        rest.pop(0)
    callee = rest.pop(0) if rest else None
    if rest and isinstance(head := rest[0], Paren):
        arguments = head.elements
    if not isinstance(callee, Sym):
        raise Unsupported("indirect calls")
    function = m.program.functions.get(callee.name)
    if function is None or function.entry < 0:
        raise Unsupported(f"call to '{callee.name}', which has no body here")
    if function.kind is FunctionKind.ENTRY:
        raise Unsupported("calling a kernel")
    if len(arguments) != len(function.params) or len(returns) != len(function.returns):
        raise Unsupported(f"argument count does not match '{function.name}'")
    pass_arguments = [
        _transfer(m, inst, a, p, into_callee=True)
        for a, p in zip(arguments, function.params, strict=True)
    ]
    pass_results = [
        _transfer(m, inst, r, p, into_callee=False)
        for r, p in zip(returns, function.returns, strict=True)
    ]

    def copy_results(m: Machine, lanes: Lanes) -> None:
        for transfer in pass_results:
            transfer(m, lanes)

    def call(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        if (m.call_depth[lanes] >= MAX_CALL_DEPTH).any():
            m.fail(f"call depth above {MAX_CALL_DEPTH}", inst)
        if _active(m, lanes, inst, function):
            # A function's registers, parameters and locals have one place per thread:
            # a second activation would overwrite the first's.
            m.fail(f"recursive call to '{function.name}' is not supported", inst)
        for transfer in pass_arguments:
            transfer(m, lanes)
        m.call_stack[lanes, m.call_depth[lanes]] = inst.next_pc
        m.call_site[lanes, m.call_depth[lanes]] = inst.pc
        m.call_depth[lanes] += 1
        m.pc[lanes] = function.entry

    m.state.setdefault("call_returns", {})[inst.pc] = copy_results
    return call


def _active(m: Machine, lanes: Lanes, inst: Instruction, function: Function) -> bool:
    """Whether `function` is running already for any of the lanes (a recursive call)."""
    if inst.function is function:
        return True
    depth = int(m.call_depth[lanes].max())
    if depth == 0:
        return False
    sites = np.unique(m.call_site[lanes, :depth])
    return any(
        m.program.instructions[int(site)].function is function
        for site in sites.tolist()
    )


def _transfer(
    m: Machine,
    inst: Instruction,
    operand: Operand,
    param: Parameter,
    *,
    into_callee: bool,
) -> Action:
    """Copy one argument into its parameter (`into_callee`) or one result out of it: a
    `.param` variable to or from a `.param` parameter, byte by byte in the frame; a
    register (or, into the callee, an immediate) to or from a `.reg` one, as a value of
    the parameter's type."""
    if isinstance(param, Register):
        if not (isinstance(operand, Reg) or (into_callee and isinstance(operand, Imm))):
            raise Unsupported(f"'{param.name}' is a .reg parameter: pass a register")
        if into_callee:
            read = reader(m, inst, operand, param.type)
            write = writer(m, inst, Reg(param.index), param.type)
        else:
            read = reader(m, inst, Reg(param.index), param.type)
            write = writer(m, inst, operand, param.type)
        return lambda m, lanes: write(m, lanes, read(m, lanes))
    symbol = _frame_symbol(m, inst, operand)
    source, target = (symbol, param) if into_callee else (param, symbol)
    frame = m.frame

    def copy(m: Machine, lanes: Lanes) -> None:
        base = lanes * frame.size
        for byte in range(param.size):
            frame.data[base + target.address + byte] = frame.data[
                base + source.address + byte
            ]

    return copy


def _frame_symbol(m: Machine, inst: Instruction, operand: Operand) -> Symbol:
    if not isinstance(operand, Sym):
        raise Unsupported("call arguments must be .param variables")
    symbol = m.program.symbol(inst.function, operand.name)
    if symbol is None or symbol.space != "frame":
        raise Unsupported(f"call argument '{operand.name}' is not a .param variable")
    return symbol


@semantics(
    "nanosleep",
    "pmevent",
    "brkpt",
    "griddepcontrol",
    "prefetch",
    "prefetchu",
    "applypriority",
    "discard",
    "createpolicy",
    klass="other",
)
def compile_hint(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """Instructions with no effect the simulator can observe (griddepcontrol: a single
    kernel has no dependent grid)."""
    if inst.root == "createpolicy":
        from tileas_py.sim.isa.operands import writer
        from tileas_py.sim.ptx_types import ptx_type

        write = writer(m, inst, ops[0], ptx_type("b64"))

        def policy(m: Machine, lanes: Lanes) -> None:
            write(m, lanes, np.zeros(len(lanes), dtype=np.uint64))

        return policy
    return lambda m, lanes: None


@semantics("tensormap", klass="memory")
def compile_tensormap(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    """`tensormap.replace` rewrites fields of a CUtensorMap in memory, whose encoding is
    not public: it stops the run, where it is reached."""

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size:
            m.fail(
                f"'{inst.opcode}' is not supported: it rewrites a CUtensorMap, whose "
                "encoding is not public",
                inst,
            )

    return run
