"""Cheap constructors for the two ori ops built in bulk: instructions and registers.

The PTX reader and instruction selection (`convert-nvvm-to-ori`) build one `ori.reg` per
virtual register and one instruction per PTX instruction. The IRDL constructors check
every operand and property constraint as they build; these build through `create` with
attributes shared across ops (a PTX type, a register name, an operand count repeat
thousands of times), at about a third of the cost. Callers pass what the constructors
would accept; the module verifier still checks the result.
"""

from __future__ import annotations

from functools import lru_cache

from xdsl.dialects.builtin import (
    ArrayAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, SSAValue

from tileas_py.dialects.ori.attributes import (
    PtxType,
    PtxTypeAttr,
    RegisterType,
    i64_attr,
)
from tileas_py.dialects.ori.function import RegOp, register_name_hint
from tileas_py.dialects.ori.instructions import InstructionOp, segment_sizes


def build_instruction(  # noqa: PLR0917 (mirrors the op constructor)
    op_class: type[InstructionOp],
    opcode: str,
    layout: list[Attribute],
    registers: list[SSAValue],
    guard: SSAValue | None = None,
    negated: bool = False,
) -> InstructionOp:
    """`op_class(opcode, layout, registers, guard=guard, guard_negated=negated)`."""
    properties: dict[str, Attribute] = {
        "opcode": _string_attr(opcode),
        "layout": ArrayAttr(layout),
        "operandSegmentSizes": segment_sizes(guard is not None, len(registers)),
    }
    if negated:
        properties["guard_negated"] = _UNIT
    operands = registers if guard is None else [guard, *registers]
    return op_class.create(operands=operands, properties=properties)


def build_register(ptx_type: PtxType, name: str, index: int | None = None) -> RegOp:
    """`RegOp(ptx_type, name, index)`, its result named after the register."""
    properties: dict[str, Attribute] = {
        "ptx_type": _ptx_type_attr(ptx_type),
        "reg_name": _string_attr(name),
    }
    if index is not None:
        properties["index"] = i64_attr(index)
    reg = RegOp.create(result_types=[_REGISTER], properties=properties)
    reg.result.name_hint = register_name_hint(
        name if index is None else f"{name}{index}"
    )
    return reg


_REGISTER = RegisterType()
_UNIT = UnitAttr()


@lru_cache(maxsize=1 << 16)
def _ptx_type_attr(ptx_type: PtxType) -> PtxTypeAttr:
    return PtxTypeAttr(ptx_type)


@lru_cache(maxsize=1 << 16)
def _string_attr(text: str) -> StringAttr:
    return StringAttr(text)
