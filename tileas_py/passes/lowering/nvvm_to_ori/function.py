"""The state of lowering one function: registers, lowered values, blocks, edge copies.

`FunctionLowering` walks the source blocks in reverse postorder (so every value is lowered
before its uses) and hands each op to the lowering registered for its class. Lowerings
append ori instructions to the current block through `emit`; the source CFG maps one to
one onto ori blocks, plus the blocks a lowering adds (the `mbarrier.try_wait` retry loop,
edge blocks that hold the copies of a conditional branch's block arguments).

A block with a single incoming edge takes the registers of its arguments' values as they
are. The arguments of any other block get registers of their own, written by copies on
each incoming edge; the copies of one edge are sequenced as a parallel copy (a cycle goes
through a temporary), and a conditional branch that passes arguments gets an edge block for
them, so a copy never runs on a path that does not take its edge.

Values share registers (an extracted struct member is the struct's register), so before an
instruction overwrites a register in place (`wgmma.mma_async` accumulating into its
accumulator), `overwritable` asks the source function's SSA liveness whether any value
holding that register is still needed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn

from xdsl.dialects.builtin import FileLineColLoc, SymbolRefAttr, UnitAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tileas_py.analysis.cfg import reverse_postorder
from tileas_py.analysis.ssa import defining_block
from tileas_py.diagnostics import emit_error
from tileas_py.dialects.ori.attributes import ImmAttr
from tileas_py.dialects.ori.builders import build_instruction, build_register
from tileas_py.dialects.ori.function import FallthroughOp, FuncOp, RegOp
from tileas_py.dialects.ori.instructions import (
    BraOp,
    InstructionOp,
    TerminatorInstructionOp,
    instruction_class,
)
from tileas_py.dialects.ori.module_ops import VarOp, trailing_pragmas
from tileas_py.passes.lowering.nvvm_to_ori.liveness import Liveness
from tileas_py.passes.lowering.nvvm_to_ori.operands import (
    Address,
    Constant,
    Def,
    Element,
    Lowered,
    Operand,
    build_layout,
)
from tileas_py.passes.lowering.nvvm_to_ori.signature import Signature
from tileas_py.passes.lowering.nvvm_to_ori.types import (
    B64,
    F32,
    F64,
    PRED,
    REGISTER_FILES,
    Layout,
    RegisterFile,
    Scalar,
    layout_of,
    scalar_of,
)

PASS_NAME = "convert-nvvm-to-ori"

Lowering = Callable[["FunctionLowering", Any], None]
"""Lowers one source op (of the class it is registered for) at the current position."""


def fail(op: Operation | None, message: str) -> NoReturn:
    """Stop the pass with a diagnostic at `op`, prefixed with the pass name."""
    emit_error(op, f"{PASS_NAME}: {message}")


def mov_for(registers: RegisterFile) -> str:
    """The `mov` that copies a register of this file."""
    if registers.ptx_type in (PRED.ptx_type, F32.ptx_type, F64.ptx_type):
        return f"mov.{registers.ptx_type}"
    return f"mov.b{str(registers.ptx_type)[1:]}"


@dataclass
class ModuleInfo:
    """What the lowering of one function needs to know about the rest of the module."""

    signatures: dict[str, Signature]
    """The signature of every function, by symbol name."""
    global_spaces: dict[str, int]
    """The LLVM address space of every `llvm.mlir.global`, by symbol name."""


class RegisterBank:
    """The virtual registers of one function, numbered from 0 per register file."""

    def __init__(self) -> None:
        self.by_file: dict[RegisterFile, list[RegOp]] = {f: [] for f in REGISTER_FILES}

    def fresh(self, registers: RegisterFile) -> RegOp:
        declared = self.by_file.setdefault(registers, [])
        reg = build_register(registers.ptx_type, registers.prefix, len(declared))
        declared.append(reg)
        return reg

    def declarations(self) -> list[RegOp]:
        """Every register, grouped by file so each file prints as one `%r<N>`."""
        return [reg for declared in self.by_file.values() for reg in declared]


class FunctionLowering:
    """Lowers the body of one `llvm.func` / `func.func` into an `ori.func`."""

    def __init__(
        self,
        func: FuncOp,
        signature: Signature,
        module: ModuleInfo,
        lowerings: dict[type[Operation], Lowering],
    ) -> None:
        self.func = func
        self.signature = signature
        self.module = module
        self.lowerings = lowerings
        self.registers = RegisterBank()
        self.variables: list[VarOp] = []
        self.values: dict[SSAValue, Lowered] = {}
        self._holders: dict[tuple[Block, RegOp], list[SSAValue]] = {}
        """The values (lowered so far) used in a block that hold a register."""
        self._verified: dict[tuple[Block, RegOp], tuple[SSAValue, int]] = {}
        self._dead_prefix: dict[tuple[Block, RegOp], int] = {}
        self.liveness = Liveness((), {})
        self.blocks: dict[Block, Block] = {}
        self.materialized: dict[tuple[Block, Element, RegisterFile], RegOp] = {}
        self.op: Operation | None = None
        self.block = Block()
        self.tail = self.block
        self._source_successors: dict[Block, tuple[Block, ...]] = {}
        self._counters: dict[str, int] = {}
        self._merged: set[Block] = set()
        """Blocks with a single incoming edge, whose arguments are their incoming values."""

    # -- driving --------------------------------------------------------------------------

    def lower_blocks(
        self, source: Sequence[Block], prologue: Callable[[], None]
    ) -> None:
        """Lower the reachable blocks of `source` (its first is the entry) into the body.

        `prologue` runs first in the entry block and defines the entry block's arguments.
        """
        index = {block: i for i, block in enumerate(source)}
        order = [
            source[i]
            for i in reverse_postorder(
                [[index[s] for s in _successors(b)] for b in source]
            )
        ]
        reachable = set(order)
        declarations = Block()
        self.func.body.add_block(declarations)
        for block in source:
            if block in reachable:
                self.blocks[block] = Block()
                self.func.body.add_block(self.blocks[block])
                self._source_successors[block] = _successors(block)
        self.liveness = Liveness(order, self._source_successors)
        edges = Counter(s for b in order for s in self._source_successors[b])
        for block in order[1:]:
            if edges[block] == 1:
                # Its only predecessor comes first and names its arguments' values.
                self._merged.add(block)
                continue
            for arg in block.args:
                self.fresh_value(arg)
        self.start(self.blocks[source[0]])
        prologue()
        for block in order:
            self.start(self.blocks[block])
            for op in block.ops:
                self.lower_op(op)
        declarations.add_ops([*self.registers.declarations(), *self.variables])
        declarations.add_op(FallthroughOp(self.blocks[source[0]]))
        _fall_through_where_possible(self.func)

    def lower_op(self, op: Operation) -> None:
        lowering = self.lowerings.get(type(op))
        if lowering is None:
            fail(op, f"unsupported op '{op.name}'")
        self.op = op
        pragmas = trailing_pragmas(self.block)
        lowering(self, op)
        _follow_fallthrough(pragmas)

    # -- blocks ---------------------------------------------------------------------------

    def start(self, block: Block) -> None:
        """Continue emitting at the end of `block`, a block of a source block."""
        self.block = self.tail = block

    def new_block(self) -> Block:
        """A new block placed after the blocks added for the current source block."""
        block = Block()
        self.func.body.insert_block_after(block, self.tail)
        self.tail = block
        return block

    @contextmanager
    def emitting_into(self, block: Block) -> Generator[None]:
        """Emit into `block` for a while, then come back to the current block."""
        previous = self.block
        self.block = block
        try:
            yield
        finally:
            self.block = previous

    def terminate(self, terminator: Operation) -> None:
        """End the current block; nothing may be emitted into it afterwards."""
        self._locate(terminator)
        self.block.add_op(terminator)

    def ori_block(self, block: Block) -> Block:
        return self.blocks[block]

    # -- instructions ---------------------------------------------------------------------

    def emit(
        self,
        opcode: str,
        *operands: Operand,
        guard: RegOp | None = None,
        negated: bool = False,
    ) -> InstructionOp:
        """Append the PTX instruction `opcode operands;` to the current block."""
        layout, registers = build_layout(operands)
        op_class = instruction_class(opcode)
        assert not issubclass(op_class, TerminatorInstructionOp)
        guard_value = None if guard is None else guard.result
        inst = build_instruction(
            op_class, opcode, layout, registers, guard_value, negated
        )
        self._locate(inst)
        self.block.add_op(inst)
        return inst

    def _locate(self, op: Operation) -> None:
        if self.op is not None and isinstance(self.op.location, FileLineColLoc):
            op.location = self.op.location

    def fresh(self, registers: RegisterFile) -> RegOp:
        return self.registers.fresh(registers)

    def unique_name(self, stem: str) -> str:
        """`stem0`, `stem1`, ...: a fresh function-scope name for a PTX variable."""
        count = self._counters.get(stem, 0)
        self._counters[stem] = count + 1
        return f"{stem}{count}"

    # -- types ----------------------------------------------------------------------------

    def layout(self, type: Attribute, op: Operation | None = None) -> Layout:
        layout = layout_of(type)
        if layout is None:
            fail(op or self.op, f"unsupported type '{type}'")
        return layout

    def scalar(self, type: Attribute, op: Operation | None = None) -> Scalar:
        scalar = scalar_of(type)
        if scalar is None:
            fail(op or self.op, f"expected a scalar type, got '{type}'")
        return scalar

    # -- values ---------------------------------------------------------------------------

    def elements(self, value: SSAValue) -> Lowered:
        return self.values[value]

    def define(self, value: SSAValue, elements: Lowered) -> None:
        """Make `elements` (registers, constants, addresses) the lowering of `value`.

        Registers may be shared with other values (an extracted struct member is the
        struct's register); for each block, the values used there that hold a register
        are remembered, for `overwritable`.
        """
        self.values[value] = elements
        registers = [e for e in elements if isinstance(e, RegOp)]
        if not registers:
            return
        for block in {use.operation.parent_block() for use in value.uses}:
            if block is None:
                continue
            for reg in registers:
                self._holders.setdefault((block, reg), []).append(value)

    def fresh_value(self, value: SSAValue) -> tuple[RegOp, ...]:
        """Give `value` fresh registers, one per leaf."""
        layout = self.layout(value.type)
        regs = tuple(self.fresh(leaf.scalar.registers) for leaf in layout.leaves)
        self.define(value, regs)
        return regs

    def result(self, value: SSAValue) -> RegOp:
        """A fresh register for a scalar result."""
        self.scalar(value.type)
        return self.fresh_value(value)[0]

    def register(self, value: SSAValue) -> RegOp:
        """The scalar `value` in a register, moving a constant or address into one."""
        (element,) = self.values[value]
        return self.in_register(element, self.scalar(value.type))

    def source(self, value: SSAValue) -> RegOp | Constant:
        """The scalar `value` as an instruction source: an immediate where PTX allows."""
        (element,) = self.values[value]
        scalar = self.scalar(value.type)
        if isinstance(element, Constant) and scalar.allows_immediate:
            return element
        return self.in_register(element, scalar)

    def constant(self, value: SSAValue) -> int | None:
        """The integer value of a constant scalar, else None."""
        elements = self.values.get(value)
        if elements is not None and len(elements) == 1:
            (element,) = elements
            if isinstance(element, ImmAttr):
                return element.value.data
        return None

    def in_register(self, element: Element, scalar: Scalar) -> RegOp:
        """`element` in a register of `scalar`'s file (moved once per block)."""
        if isinstance(element, RegOp):
            return element
        key = (self.block, element, scalar.registers)
        cached = self.materialized.get(key)
        if cached is not None:
            return cached
        if isinstance(element, Address):
            reg = self.address_register(element)
        else:
            reg = self.fresh(scalar.registers)
            self.emit(mov_for(scalar.registers), Def(reg), element)
        self.materialized[key] = reg
        return reg

    def address_register(self, address: Address) -> RegOp:
        """A pointer in a register: `mov` of a symbol's address, plus the offset."""
        base = address.base
        if isinstance(base, SymbolRefAttr):
            reg = self.fresh(B64)
            self.emit("mov.u64", Def(reg), base)
            base = reg
        if address.offset == 0:
            return base
        reg = self.fresh(B64)
        self.emit("add.s64", Def(reg), base, ImmAttr(address.offset))
        return reg

    def address(self, pointer: SSAValue) -> Address:
        """A pointer value as a memory operand `[base+offset]`."""
        (element,) = self.values[pointer]
        if isinstance(element, Address):
            return element
        return Address(self.in_register(element, self.scalar(pointer.type)))

    # -- block arguments ------------------------------------------------------------------

    def edge_copies(
        self, target: Block, arguments: Sequence[SSAValue]
    ) -> list[tuple[RegOp, Element]]:
        """The register copies that pass `arguments` to the arguments of `target`.

        None for a block with only this incoming edge: its arguments become the
        incoming values themselves.
        """
        if target in self._merged:
            for param, value in zip(target.args, arguments, strict=True):
                self.define(param, self.values[value])
            return []
        copies: list[tuple[RegOp, Element]] = []
        for param, value in zip(target.args, arguments, strict=True):
            for dst, src in zip(self.values[param], self.values[value], strict=True):
                assert isinstance(dst, RegOp)
                if dst is not src:
                    copies.append((dst, src))
        return copies

    def parallel_copy(self, copies: Sequence[tuple[RegOp, Element]]) -> None:
        """Perform all `dst <- src` copies as if at once (sources read before any write)."""
        pending: dict[RegOp, RegOp] = {}
        later: list[tuple[RegOp, Element]] = []
        for dst, src in copies:
            if isinstance(src, RegOp):
                pending[dst] = src
            elif isinstance(src, Address) and not isinstance(src.base, SymbolRefAttr):
                # Computed from a register that a copy may overwrite: compute it first.
                pending[dst] = self.address_register(src)
            else:
                later.append((dst, src))
        readers: dict[RegOp, list[RegOp]] = {}
        for dst, src in pending.items():
            readers.setdefault(src, []).append(dst)
        ready = [dst for dst in pending if not readers.get(dst)]
        while pending:
            while ready:
                dst = ready.pop()
                src = pending.pop(dst)
                self._copy(dst, src)
                waiting = readers[src]
                waiting.remove(dst)
                if not waiting and src in pending:
                    ready.append(src)
            if pending:
                # Only cycles are left: save one register and the cycle unwinds.
                dst = next(iter(pending))
                temp = self.fresh(file_of(dst))
                self._copy(temp, dst)
                readers[temp] = readers.pop(dst)
                for reader in readers[temp]:
                    pending[reader] = temp
                ready.append(dst)
        for dst, src in later:
            if isinstance(src, Address):
                self._copy(dst, self.address_register(src))
            else:
                self.emit(mov_for(file_of(dst)), Def(dst), src)

    def _copy(self, dst: RegOp, src: RegOp) -> None:
        self.emit(mov_for(file_of(dst)), Def(dst), src)

    # -- in-place writes ----------------------------------------------------------------

    def overwritable(self, value: SSAValue, at: Operation) -> set[RegOp]:
        """The registers of `value` that `at`, which reads `value`, may overwrite in place:
        those no live value holds after `at`, `value` included."""
        liveness = self.liveness
        block = at.parent_block()
        assert block is not None
        if liveness.live_after(value, at):
            return set()
        held_later: set[RegOp] = set()
        for other in liveness.live_out(block):
            held_later.update(
                e for e in self.values.get(other, ()) if isinstance(e, RegOp)
            )
        free: set[RegOp] = set()
        for reg in self.values[value]:
            if not isinstance(reg, RegOp) or reg in held_later:
                continue
            holders = self._holders.get((block, reg), [])
            start = 0
            verified = self._verified.get((block, reg))
            if verified is not None and verified[0] is value:
                # `value` was written in place earlier in this block, after a check of
                # everything `reg` held before it: that is all dead here too.
                start = verified[1]
            # Ops are lowered in order within a block, so a holder dead after an earlier
            # op of the block is dead here too: skip the prefix already known dead, and
            # stop at the first live holder (which keeps a chain of WGMMA regions in one
            # block linear rather than quadratic).
            index = max(start, self._dead_prefix.get((block, reg), 0))
            while index < len(holders) and (
                holders[index] is value or not liveness.live_after(holders[index], at)
            ):
                index += 1
            self._dead_prefix[(block, reg)] = index
            if index == len(holders):
                free.add(reg)
        return free

    def define_overwritten(
        self, result: SSAValue, registers: tuple[RegOp, ...], in_place: set[RegOp]
    ) -> None:
        """Define `result` as `registers`, those of `in_place` written in place."""
        block = defining_block(result)
        assert block is not None
        starts = {reg: len(self._holders.get((block, reg), [])) for reg in in_place}
        self.define(result, registers)
        for reg, start in starts.items():
            self._verified[(block, reg)] = (result, start)


def _follow_fallthrough(pragmas: Sequence[Operation]) -> None:
    """`next` pragmas that a lowering left before a fallthrough (it started its
    instruction in a block of its own, a retry loop) go to the start of that block."""
    if not pragmas:
        return
    fallthrough = pragmas[-1].next_op
    if not isinstance(fallthrough, FallthroughOp) or fallthrough.dest is None:
        return
    start = fallthrough.dest.first_op
    assert start is not None
    for pragma in pragmas:
        pragma.detach()
        fallthrough.dest.insert_op_before(pragma, start)


def file_of(reg: RegOp) -> RegisterFile:
    """The register file of a register this lowering declared."""
    return RegisterFile(reg.ptx_type.data, reg.reg_name.data)


def _fall_through_where_possible(func: FuncOp) -> None:
    """Turn `@p bra next; bra other` into `@!p bra other` when the taken block is next."""
    for block in func.body.blocks:
        branch = block.last_op
        if not isinstance(branch, BraOp) or branch.guard is None:
            continue
        taken, through = branch.successors
        if block.next_block is taken and through is not taken:
            negated = None if branch.guard_negated is not None else UnitAttr()
            branch.guard_negated = negated
            branch.successors[0] = through
            branch.successors[1] = taken


def _successors(block: Block) -> tuple[Block, ...]:
    terminator = block.last_op
    return tuple(terminator.successors) if terminator is not None else ()
