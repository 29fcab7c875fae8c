"""Control flow: branches, calls, returns, exits, and the instructions that only hint.

A branch sends the threads whose guard holds to its target; the scheduler has already
moved every thread of the group to the fall-through. `call` pushes the return PC on the
thread's call stack and copies the `.param` arguments into the callee's parameters; `ret`
copies the return values back. `exit`, and `ret` from the kernel, end the thread.
PTX ISA, "Control Flow Instructions": https://docs.nvidia.com/cuda/parallel-thread-execution/#control-flow-instructions
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tileas_py.dialects.ori.attributes import FunctionKind
from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.operands import Operand, Paren, Sym
from tileas_py.sim.machine import MAX_CALL_DEPTH
from tileas_py.sim.program import Action, Function, Instruction, Symbol

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]


@semantics("bra", klass="control")
def compile_bra(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    target = inst.target

    def branch(m: Machine, lanes: Lanes) -> None:
        m.pc[lanes] = target

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
    argument_symbols = [_frame_symbol(m, inst, a) for a in arguments]
    return_symbols = [_frame_symbol(m, inst, r) for r in returns]
    params = function.params
    results = function.returns
    frame = m.frame

    def copy(
        lanes: Lanes, sources: list[int], targets: list[int], sizes: list[int]
    ) -> None:
        base = lanes * frame.size
        for source, target, size in zip(sources, targets, sizes, strict=True):
            for byte in range(size):
                frame.data[base + target + byte] = frame.data[base + source + byte]

    def copy_results(m: Machine, lanes: Lanes) -> None:
        copy(
            lanes,
            [r.address for r in results],
            [s.address for s in return_symbols],
            [r.size for r in results],
        )

    def call(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        if (m.call_depth[lanes] >= MAX_CALL_DEPTH).any():
            m.fail(f"call depth above {MAX_CALL_DEPTH}", inst)
        if _active(m, lanes, inst, function):
            # A function's registers, parameters and locals have one place per thread:
            # a second activation would overwrite the first's.
            m.fail(f"recursive call to '{function.name}' is not supported", inst)
        copy(
            lanes,
            [s.address for s in argument_symbols],
            [p.address for p in params],
            [p.size for p in params],
        )
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
