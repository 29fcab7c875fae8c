"""An ori module laid out for execution: one instruction list, registers and symbols.

Every function's code blocks are flattened, in order, into one list of `Instruction`s
indexed by program counter; a branch names the PC of its target block, and where ori's
`ori.fallthrough` goes somewhere other than the next block a synthetic jump is added.
Registers of every function get global numbers (each thread has one copy of each), and
every variable and parameter an address in its state space:

- kernel parameters: the launch's parameter buffer (`.param` space of the entry);
- `.shared` variables: static ones first, in declaration order, then the `.extern` (dynamic)
  buffer, each at its alignment;
- `.global` / `.const` variables: an allocation each, with their initializers;
- function-scope `.local` and `.param` variables, and the `.param` parameters of device
  functions: per-thread frames (one per function: the simulator does not run recursive
  calls); a `.func`'s `.reg` parameters and results are registers of its body.

Addresses are state-space offsets; `tileas_py.sim.memory` maps them into the generic space.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from math import prod
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import ArrayAttr, FileLineColLoc, ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Block, SSAValue

from tileas_py.dialects.ori.attributes import (
    FloatImmAttr,
    FunctionKind,
    GenericAddressAttr,
    ImmAttr,
    StateSpace,
)
from tileas_py.dialects.ori.declarations import UNSIZED, ParamAttr
from tileas_py.dialects.ori.function import FallthroughOp, FuncOp, RegOp
from tileas_py.dialects.ori.instructions import (
    BraOp,
    BrxOp,
    ExitOp,
    InstructionOp,
    RetOp,
    layout_roles,
)
from tileas_py.dialects.ori.module_ops import VarOp
from tileas_py.dialects.ori.sass import SassOp
from tileas_py.sim.errors import SimulationError
from tileas_py.sim.ptx_types import PtxType, ptx_type

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Action = Callable[["Machine", Any], None]
"""What an instruction does for a group of threads (an index array of lanes)."""


@dataclass(frozen=True)
class Register:
    """One PTX virtual register: its global number, PTX name and declared type."""

    index: int
    name: str
    type: PtxType
    function: str

    @property
    def width(self) -> int:
        """Bits of storage: 1 for predicates, else the declared width."""
        return 1 if self.type.kind == "pred" else self.type.bits


@dataclass(frozen=True)
class Symbol:
    """A variable or parameter: where it lives and how big it is."""

    name: str
    space: str
    """`param` (kernel parameters), `shared`, `global`, `const`, `local`, or `frame`
    (function-scope `.param` variables and device-function parameters)."""
    address: int
    """Offset in its space (for `global` / `const`: the offset in that space's image)."""
    size: int
    align: int
    type: PtxType


@dataclass(eq=False)
class Instruction:
    """One PTX instruction at a program counter, with what the executor needs."""

    pc: int
    opcode: str
    op: InstructionOp | None
    """The ori op; None for the jumps the layout adds where ori falls through elsewhere."""
    function: Function
    line: int | None
    guard: int | None = None
    """The global number of the guard predicate register."""
    guard_negated: bool = False
    next_pc: int = -1
    """Where execution goes after it (the fall-through, for a branch)."""
    target: int = -1
    """A branch's taken target."""
    targets: tuple[int, ...] = ()
    """The PCs of a `brx.idx`'s `.branchtargets` list, in index order."""
    operands: tuple[Attribute, ...] = ()
    registers: tuple[int, ...] = ()
    """Global register numbers of the op's register operands, in slot order."""
    action: Action | None = None
    """Compiled on first execution (`tileas_py.sim.isa.compile_instruction`)."""
    klass: str = "other"

    @property
    def parts(self) -> list[str]:
        return self.opcode.split(".")

    @property
    def root(self) -> str:
        return self.opcode.split(".", 1)[0]

    def where(self) -> str:
        return f"line {self.line}" if self.line is not None else f"pc {self.pc}"


Parameter = Symbol | Register
"""A function parameter or result: a `.param` in the frame, or a `.reg` of the body."""


@dataclass(eq=False)
class Function:
    """A PTX function: its entry PC, registers, parameters and frame symbols."""

    name: str
    kind: FunctionKind
    op: FuncOp
    entry: int = -1
    params: list[Parameter] = field(default_factory=list[Parameter])
    returns: list[Parameter] = field(default_factory=list[Parameter])
    symbols: dict[str, Symbol] = field(default_factory=dict[str, Symbol])
    """Function-scope variables (and, for device functions, parameters) by name."""
    directives: dict[str, tuple[int, ...]] = field(
        default_factory=dict[str, tuple[int, ...]]
    )

    @property
    def kernel_params(self) -> list[Symbol]:
        """The parameters of a kernel (a kernel's are all `.param`)."""
        return [p for p in self.params if isinstance(p, Symbol)]


@dataclass(eq=False)
class Program:
    """A whole module ready to run."""

    file: str
    instructions: list[Instruction] = field(default_factory=list[Instruction])
    registers: list[Register] = field(default_factory=list[Register])
    functions: dict[str, Function] = field(default_factory=dict[str, Function])
    symbols: dict[str, Symbol] = field(default_factory=dict[str, Symbol])
    """Module-scope variables by name."""
    static_shared: int = 0
    dynamic_shared_offset: int | None = None
    """Where the `.extern .shared` buffer starts, if the module declares one."""
    images: dict[str, bytearray] = field(default_factory=dict[str, bytearray])
    """Initial contents of `global` and `const` space."""
    local_size: int = 0
    frame_size: int = 0
    register_of: dict[SSAValue, int] = field(default_factory=dict[SSAValue, int])

    def kernel(self, name: str) -> Function:
        function = self.functions.get(name)
        if function is None or function.kind is not FunctionKind.ENTRY:
            kernels = sorted(
                f.name for f in self.functions.values() if f.kind is FunctionKind.ENTRY
            )
            raise SimulationError(
                f"no kernel '{name}' in {self.file} (kernels: {', '.join(kernels) or 'none'})",
                file=self.file,
            )
        if function.entry < 0:
            raise SimulationError(f"kernel '{name}' has no body", file=self.file)
        return function

    def symbol(self, function: Function, name: str) -> Symbol | None:
        return function.symbols.get(name) or self.symbols.get(name)


def _align(offset: int, align: int) -> int:
    return -(-offset // align) * align


def _size(ty: PtxType, vector: int | None, dims: Iterable[int]) -> int:
    dims = [d for d in dims if d != UNSIZED]
    return ty.bytes * (vector or 1) * prod(dims)


def _type_of(name: str) -> PtxType:
    return ptx_type(name)


class _Layout:
    """Assigns offsets in one state space."""

    def __init__(self) -> None:
        self.end = 0

    def place(self, size: int, align: int) -> int:
        offset = _align(self.end, align)
        self.end = offset + size
        return offset


def _initializer_bytes(init: Attribute, ty: PtxType, size: int) -> bytes:
    values: list[Attribute] = []

    def flatten(item: Attribute) -> None:
        if isinstance(item, ArrayAttr):
            for element in item:  # pyright: ignore[reportUnknownVariableType]
                flatten(element)  # pyright: ignore[reportUnknownArgumentType]
        else:
            values.append(item)

    flatten(init)
    out = bytearray(size)
    width = ty.bytes
    for i, value in enumerate(values):
        if (i + 1) * width > size:
            break
        if isinstance(value, ImmAttr):
            raw = value.value.data & ((1 << (8 * width)) - 1)
        elif isinstance(value, FloatImmAttr):
            raw = value.bits.data
        elif isinstance(value, SymbolRefAttr | GenericAddressAttr):
            raise SimulationError(
                "variable initializers that hold addresses are not supported"
            )
        else:
            continue
        out[i * width : (i + 1) * width] = raw.to_bytes(width, "little")
    return bytes(out)


def build_program(module: ModuleOp, file: str) -> Program:
    """Lay out every function and variable of an ori module."""
    program = Program(file)
    shared = _Layout()
    dynamic: VarOp | None = None
    local = _Layout()
    frame = _Layout()
    images: dict[str, _Layout] = {"global": _Layout(), "const": _Layout()}
    pending_images: list[tuple[str, int, bytes]] = []

    for op in module.ops:
        if isinstance(op, VarOp):
            space = op.space.data
            ty = _type_of(str(op.ptx_type.data))
            size = _size(
                ty, None if op.vector is None else op.vector.data, _dims(op.dims)
            )
            align = op.align.data if op.align is not None else ty.bytes
            name = op.var_name.data
            if space is StateSpace.SHARED:
                if any(d.data == UNSIZED for d in op.dims):
                    dynamic = op
                    continue
                address = shared.place(size, align)
                program.symbols[name] = Symbol(name, "shared", address, size, align, ty)
            elif space in (StateSpace.GLOBAL, StateSpace.CONST):
                layout = images[str(space)]
                address = layout.place(max(size, 1), max(align, 1))
                program.symbols[name] = Symbol(
                    name, str(space), address, size, align, ty
                )
                if op.init is not None:
                    pending_images.append(
                        (str(space), address, _initializer_bytes(op.init, ty, size))
                    )
            else:
                raise SimulationError(
                    f"module-scope '.{space}' variable '{name}' is not supported",
                    file=file,
                )
    for op in module.ops:
        if isinstance(op, FuncOp):
            _declare_function(program, op)
    for function in program.functions.values():
        if function.op.is_declaration:
            continue
        _lay_out_frames(program, function, shared, local, frame)
    program.static_shared = shared.end
    if dynamic is not None:
        align = dynamic.align.data if dynamic.align is not None else 16
        offset = _align(shared.end, align)
        ty = _type_of(str(dynamic.ptx_type.data))
        program.symbols[dynamic.var_name.data] = Symbol(
            dynamic.var_name.data, "shared", offset, 0, align, ty
        )
        program.dynamic_shared_offset = offset
    program.local_size = local.end
    program.frame_size = frame.end
    for space, layout in images.items():
        program.images[space] = bytearray(layout.end)
    for space, address, data in pending_images:
        program.images[space][address : address + len(data)] = data
    for function in program.functions.values():
        if not function.op.is_declaration:
            _lay_out_code(program, function)
    return program


def _dims(dims: ArrayAttr[Any]) -> list[int]:
    return [d.data for d in dims]


def _param_symbol(param: ParamAttr, layout: _Layout, space: str) -> Symbol:
    declarator = param.declarator
    ty = _type_of(str(declarator.ptx_type))
    size = _size(ty, None, declarator.dims)
    align = declarator.align or ty.bytes
    address = layout.place(size, align)
    return Symbol(declarator.name, space, address, size, align, ty)


def _declare_function(program: Program, op: FuncOp) -> None:
    name = op.func_name.data
    existing = program.functions.get(name)
    if existing is not None and not existing.op.is_declaration:
        return
    directives = {
        d.directive.data: tuple(v.data for v in d.values) for d in op.directives
    }
    program.functions[name] = Function(name, op.kind.data, op, directives=directives)


def _lay_out_frames(
    program: Program,
    function: Function,
    shared: _Layout,
    local: _Layout,
    frame: _Layout,
) -> None:
    op = function.op
    if function.kind is FunctionKind.ENTRY:
        params = _Layout()
        function.params = [_param_symbol(p, params, "param") for p in op.params]
        for symbol in function.kernel_params:
            function.symbols[symbol.name] = symbol
    else:
        for param in (*op.params, *op.returns):
            if not param.is_register:
                symbol = _param_symbol(param, frame, "frame")
                function.symbols[symbol.name] = symbol
    registers: dict[str, Register] = {}
    for inner in op.declaration_block.ops:
        if isinstance(inner, RegOp):
            index = len(program.registers)
            register = Register(
                index, inner.ptx_name, _type_of(str(inner.ptx_type.data)), function.name
            )
            program.registers.append(register)
            program.register_of[inner.result] = index
            registers[register.name] = register
        elif isinstance(inner, VarOp):
            ty = _type_of(str(inner.ptx_type.data))
            size = _size(
                ty,
                None if inner.vector is None else inner.vector.data,
                _dims(inner.dims),
            )
            align = inner.align.data if inner.align is not None else ty.bytes
            space = inner.space.data
            name = inner.var_name.data
            if space is StateSpace.LOCAL:
                symbol = Symbol(
                    name, "local", local.place(size, align), size, align, ty
                )
            elif space is StateSpace.PARAM:
                symbol = Symbol(
                    name, "frame", frame.place(size, align), size, align, ty
                )
            elif space is StateSpace.SHARED:
                symbol = Symbol(
                    name, "shared", shared.place(size, align), size, align, ty
                )
            else:
                raise SimulationError(
                    f"function-scope '.{space}' variable '{name}' is not supported",
                    file=program.file,
                )
            function.symbols[name] = symbol
    if function.kind is not FunctionKind.ENTRY:
        function.params = _in_order(op.params, function.symbols, registers)
        function.returns = _in_order(op.returns, function.symbols, registers)


def _in_order(
    params: Iterable[ParamAttr],
    symbols: dict[str, Symbol],
    registers: dict[str, Register],
) -> list[Parameter]:
    """The parameters in declaration order: each `.reg` one as its register of the body,
    each `.param` one as its frame symbol."""
    return [
        registers[p.param_name.data] if p.is_register else symbols[p.param_name.data]
        for p in params
    ]


def _line(op: InstructionOp) -> int | None:
    location = op.location
    if isinstance(location, FileLineColLoc):
        return location.line.data
    return None


def _lay_out_code(program: Program, function: Function) -> None:
    """Append the function's instructions; resolve branch targets to PCs."""
    blocks = [b for b in function.op.body.blocks][1:]
    start_of: dict[Block, int] = {}
    jumps: list[tuple[Instruction, Block | None, Block | None]] = []
    indirect: list[tuple[Instruction, BrxOp]] = []
    out = program.instructions
    for position, block in enumerate(blocks):
        start_of[block] = len(out)
        following = blocks[position + 1] if position + 1 < len(blocks) else None
        for op in block.ops:
            if isinstance(op, SassOp) or not isinstance(op, InstructionOp):
                if isinstance(op, FallthroughOp):
                    if op.dest is None:
                        out.append(_synthetic(len(out), "ret", function))
                    elif op.dest is not following:
                        jump = _synthetic(len(out), "bra", function)
                        out.append(jump)
                        jumps.append((jump, op.dest, None))
                continue
            inst = _instruction(program, function, op, len(out))
            out.append(inst)
            if isinstance(op, BraOp):
                jumps.append((inst, op.target, op.fallthrough))
            elif isinstance(op, BrxOp):
                jumps.append((inst, None, op.fallthrough))
                indirect.append((inst, op))
            elif isinstance(op, RetOp | ExitOp) and op.fallthrough is not None:
                jumps.append((inst, None, op.fallthrough))
    function.entry = start_of[blocks[0]] if blocks else -1
    for inst in out[function.entry :]:
        if inst.next_pc < 0:
            inst.next_pc = inst.pc + 1
    for inst, target, fallthrough in jumps:
        if target is not None:
            inst.target = start_of[target]
        if fallthrough is not None:
            inst.next_pc = start_of[fallthrough]
    for inst, op in indirect:
        inst.targets = tuple(start_of[t] for t in op.targets)


def _synthetic(pc: int, opcode: str, function: Function) -> Instruction:
    return Instruction(pc, opcode, None, function, None, klass="control")


def _instruction(
    program: Program, function: Function, op: InstructionOp, pc: int
) -> Instruction:
    guard, registers, _ = op._split_operands()  # pyright: ignore[reportPrivateUsage]
    register_of = program.register_of
    layout_roles(op.layout)
    return Instruction(
        pc,
        op.opcode.data,
        op,
        function,
        _line(op),
        guard=None if guard is None else register_of[guard],
        guard_negated=op.guard_negated is not None,
        operands=tuple(op.layout.data),
        registers=tuple(register_of[r] for r in registers),
    )
