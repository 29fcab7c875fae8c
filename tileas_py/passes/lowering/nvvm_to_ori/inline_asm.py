"""`llvm.inline_asm`: PTX text with `$N` operands, as nvcc and MLIR's NVVMToLLVM emit it.

The operands get registers first: each output (`=r`, `=l`, `=h`, `=f`, `=d`, `=b`) a
fresh register of the result's type, each input (`r`, `l`, ...) the register of its value,
each immediate (`n`, `i`) the constant's digits, and an input tied to an output (`0`) is
the output's register: its own register when no live value holds that after the
statement (the output is then written in place), else a copy. The text, with `$N` replaced by those names, is then
read by the PTX reader, as ptxas reads the PTX nvcc pastes it into, so the snippet becomes
ordinary ori instructions: its labels become blocks, its `{ .reg .pred p; ... }` scratch
registers fresh registers of the function, and nothing stays opaque to later passes.
LLVM reference: https://llvm.org/docs/LangRef.html#inline-assembler-expressions
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.dialects import llvm
from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Block, Operation, SSAValue
from xdsl.utils.exceptions import ParseError

from tileas_py.dialects.ori.attributes import PtxType
from tileas_py.dialects.ori.function import FallthroughOp, FuncOp, LabelOp, RegOp
from tileas_py.dialects.ori.module_ops import VarOp, trailing_pragmas
from tileas_py.passes.lowering.nvvm_to_ori.function import (
    FunctionLowering,
    fail,
    mov_for,
)
from tileas_py.passes.lowering.nvvm_to_ori.operands import Def
from tileas_py.passes.lowering.nvvm_to_ori.registry import lowers
from tileas_py.passes.lowering.nvvm_to_ori.types import (
    B16,
    B32,
    B64,
    F32,
    F64,
    PRED,
)
from tileas_py.ptx.reader import read_ptx

# The register file each constraint letter asks for.
_CONSTRAINTS = {"b": PRED, "h": B16, "r": B32, "l": B64, "f": F32, "d": F64}

# Where a register the snippet declares itself lands among the function's registers.
_SCRATCH_FILES = {
    PtxType.PRED: PRED,
    PtxType.B16: B16,
    PtxType.U16: B16,
    PtxType.S16: B16,
    PtxType.F16: B16,
    PtxType.BF16: B16,
    PtxType.B32: B32,
    PtxType.U32: B32,
    PtxType.S32: B32,
    PtxType.F16X2: B32,
    PtxType.BF16X2: B32,
    PtxType.B64: B64,
    PtxType.U64: B64,
    PtxType.S64: B64,
    PtxType.F32: F32,
    PtxType.F64: F64,
}

_OPERAND_REFERENCE = re.compile(r"\$(\$|\d+|\{[^}]*\})")

_SNIPPET_HEADER = ".version 9.0\n.target sm_90a\n.address_size 64\n\n"


@dataclass(frozen=True)
class Constraint:
    """One entry of the constraint string."""

    kind: str
    """`output`, `input`, `immediate`, `tied` or `clobber`."""
    letter: str = ""
    tied_to: int = 0


def parse_constraints(op: llvm.InlineAsmOp) -> list[Constraint]:
    constraints: list[Constraint] = []
    text = op.constraints.data
    for raw in text.split(",") if text else ():
        entry = raw.strip()
        if entry.startswith("~"):
            constraints.append(Constraint("clobber"))
        elif entry.startswith("="):
            letter = entry.lstrip("=&")
            if letter not in _CONSTRAINTS:
                fail(op, f"unsupported inline asm output constraint '{entry}'")
            constraints.append(Constraint("output", letter))
        elif entry.isdigit():
            constraints.append(Constraint("tied", tied_to=int(entry)))
        elif entry in ("n", "i"):
            constraints.append(Constraint("immediate", entry))
        elif entry in _CONSTRAINTS:
            constraints.append(Constraint("input", entry))
        else:
            fail(op, f"unsupported inline asm constraint '{entry}'")
    return constraints


def _outputs(
    fl: FunctionLowering,
    op: llvm.InlineAsmOp,
    letters: list[str],
    lent: dict[int, RegOp],
) -> list[RegOp]:
    """The registers of the outputs, which become the registers of the result: those
    `lent` by a tied input that dies here, fresh ones for the others."""
    if op.res is None:
        if letters:
            fail(op, f"inline asm has {len(letters)} outputs but no result")
        return []
    layout = fl.layout(op.res.type)
    if len(layout.leaves) != len(letters):
        fail(
            op,
            f"inline asm has {len(letters)} outputs for a result of "
            f"{len(layout.leaves)} values",
        )
    for letter, leaf in zip(letters, layout.leaves, strict=True):
        if _CONSTRAINTS[letter].ptx_type != leaf.scalar.registers.ptx_type:
            fail(
                op,
                f"inline asm output constraint '={letter}' does not fit a "
                f"'{leaf.scalar.registers.ptx_type.value}' register",
            )
    if not lent:
        return list(fl.fresh_value(op.res))
    registers = tuple(
        lent.get(index) or fl.fresh(leaf.scalar.registers)
        for index, leaf in enumerate(layout.leaves)
    )
    fl.define_overwritten(op.res, registers, set(lent.values()))
    return list(registers)


def _lent_registers(
    fl: FunctionLowering,
    op: llvm.InlineAsmOp,
    tied: list[tuple[Constraint, SSAValue]],
    letters: list[str],
) -> dict[int, RegOp]:
    """For each output tied to an input whose register no live value holds after `op`,
    that register: the output is written in place, as a register allocator would, so
    that a chain of asm statements updating the same values (a WGMMA accumulator) names
    one set of registers instead of copying them at every step."""
    lent: dict[int, RegOp] = {}
    for constraint, value in tied:
        output = constraint.tied_to
        if output >= len(letters) or output in lent:
            continue
        elements = fl.elements(value)
        if len(elements) != 1:
            continue
        (reg,) = elements
        if (
            isinstance(reg, RegOp)
            and reg.ptx_type.data == _CONSTRAINTS[letters[output]].ptx_type
            and reg not in lent.values()
            and reg in fl.overwritable(value, op)
        ):
            lent[output] = reg
    return lent


def _operand_names(
    fl: FunctionLowering, op: llvm.InlineAsmOp
) -> tuple[list[str], list[RegOp]]:
    """The text of each `$N`, and the registers the snippet may name."""
    constraints = [c for c in parse_constraints(op) if c.kind != "clobber"]
    letters = [c.letter for c in constraints if c.kind == "output"]
    inputs = [c for c in constraints if c.kind != "output"]
    values = list(op.operands_)
    if len(inputs) != len(values):
        fail(
            op,
            f"inline asm has {len(inputs)} input constraints for {len(values)} operands",
        )
    tied = [(c, v) for c, v in zip(inputs, values, strict=True) if c.kind == "tied"]
    outputs = _outputs(fl, op, letters, _lent_registers(fl, op, tied, letters))
    names = [reg.ptx_name for reg in outputs]
    registers = list(outputs)
    for constraint, value in zip(inputs, values, strict=True):
        names.append(
            _input(
                fl,
                op,
                constraint=constraint,
                value=value,
                outputs=outputs,
                registers=registers,
            )
        )
    return names, registers


def _input(
    fl: FunctionLowering,
    op: llvm.InlineAsmOp,
    *,
    constraint: Constraint,
    value: SSAValue,
    outputs: list[RegOp],
    registers: list[RegOp],
) -> str:
    if constraint.kind == "immediate":
        constant = fl.constant(value)
        if constant is None:
            fail(op, "an inline asm 'n' operand must be an integer constant")
        return str(constant)
    if constraint.kind == "tied":
        if constraint.tied_to >= len(outputs):
            fail(op, f"inline asm input is tied to missing output {constraint.tied_to}")
        output = outputs[constraint.tied_to]
        if fl.elements(value) != (output,):
            scalar = fl.scalar(value.type)
            fl.emit(mov_for(scalar.registers), Def(output), fl.source(value))
        return output.ptx_name
    reg = fl.register(value)
    if _CONSTRAINTS[constraint.letter].ptx_type != reg.ptx_type.data:
        fail(
            op,
            f"inline asm input constraint '{constraint.letter}' does not fit a "
            f"'{reg.ptx_type.data.value}' register",
        )
    registers.append(reg)
    return reg.ptx_name


def substitute(op: llvm.InlineAsmOp, names: list[str]) -> str:
    """The asm text with `$N` / `${N}` replaced by operand names and `$$` by `$`."""

    def replace(match: re.Match[str]) -> str:
        reference = match.group(1)
        if reference == "$":
            return "$"
        index_text = reference.strip("{}")
        if not index_text.isdigit():
            fail(op, f"unsupported inline asm operand reference '${reference}'")
        index = int(index_text)
        if index >= len(names):
            fail(op, f"inline asm refers to ${index} but has {len(names)} operands")
        return names[index]

    return _OPERAND_REFERENCE.sub(replace, op.asm_string.data)


def _read_snippet(op: llvm.InlineAsmOp, text: str, registers: list[RegOp]) -> FuncOp:
    declarations = "".join(
        f"\t.reg .{reg.ptx_type.data.value} {reg.ptx_name};\n"
        for reg in dict.fromkeys(registers)
    )
    source = f"{_SNIPPET_HEADER}.func __inline_asm()\n{{\n{declarations}{text}\n}}\n"
    try:
        module = read_ptx(source, "<inline asm>")
    except ParseError as e:
        fail(op, f"cannot read the inline PTX: {e.msg}")
    functions = [o for o in module.ops if isinstance(o, FuncOp)]
    if len(functions) != 1:
        fail(op, "inline PTX must not close the function it is pasted into")
    return functions[0]


@lowers(llvm.InlineAsmOp)
def lower_inline_asm(fl: FunctionLowering, op: llvm.InlineAsmOp) -> None:
    # A pragma before the statement belongs to its first instruction, not to the movs
    # that put its operands in registers.
    pragmas = trailing_pragmas(fl.block)
    names, registers = _operand_names(fl, op)
    snippet = _read_snippet(op, substitute(op, names), registers)
    by_name = {reg.ptx_name: reg for reg in registers}
    for declaration in list(snippet.declaration_block.ops):
        if isinstance(declaration, VarOp):
            fail(op, "variables declared inside inline PTX are not supported")
        if not isinstance(declaration, RegOp):
            continue
        reg = by_name.get(declaration.ptx_name)
        if reg is None:
            registers_file = _SCRATCH_FILES.get(declaration.ptx_type.data)
            if registers_file is None:
                fail(
                    op,
                    f"inline PTX registers of type "
                    f"'.{declaration.ptx_type.data.value}' are not supported",
                )
            reg = fl.fresh(registers_file)
        declaration.result.replace_all_uses_with(reg.result)
    blocks = list(snippet.body.blocks)[1:]
    for block in blocks:
        snippet.body.detach_block(block)
        for inner in list(block.ops):
            if isinstance(inner, LabelOp):
                inner.detach()
                inner.erase()
            else:
                _relocate(fl, inner)
    first = blocks[0].first_op
    _splice(fl, blocks)
    if (
        pragmas
        and first is not None
        and first.parent_block() is pragmas[-1].parent_block()
    ):
        for pragma in pragmas:
            pragma.detach()
            fl.block.insert_op_before(pragma, first)


def _relocate(fl: FunctionLowering, op: Operation) -> None:
    source = fl.op
    if source is not None and isinstance(source.location, FileLineColLoc):
        op.location = source.location


def _splice(fl: FunctionLowering, blocks: list[Block]) -> None:
    """Put the snippet's blocks where the inline asm was and continue after them."""
    last = blocks[-1]
    end = last.last_op
    assert isinstance(end, FallthroughOp)
    assert end.dest is None
    if len(blocks) == 1:
        for inner in list(last.ops):
            if inner is not end:
                inner.detach()
                fl.block.add_op(inner)
        return
    fl.terminate(FallthroughOp(blocks[0]))
    for block in blocks:
        fl.func.body.insert_block_after(block, fl.tail)
        fl.tail = block
    after = fl.new_block()
    end.detach()
    end.erase()
    last.add_op(FallthroughOp(after))
    fl.block = after
