"""The cheap ori constructors build the same ops as the IRDL constructors."""

from tileas_py.dialects.ori.attributes import PtxType
from tileas_py.dialects.ori.builders import build_instruction, build_register
from tileas_py.dialects.ori.function import RegOp
from tileas_py.dialects.ori.instructions import InstructionOp
from tileas_py.ptx.reader import read_ptx

KERNEL = """\
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k()
{
  .reg .pred %p<1>;
  .reg .b32 %r<3>;
  @%p0 add.s32 %r2, %r0, %r1;
  @!%p0 add.s32 %r2, %r0, 5;
  ret;
}
"""


def test_build_register_matches_the_constructor() -> None:
    for args in ((PtxType.B32, "%r", 7), (PtxType.PRED, "%p_1", None)):
        fast, slow = build_register(*args), RegOp(*args)
        assert fast.properties == slow.properties
        assert fast.result.name_hint == slow.result.name_hint


def test_build_instruction_matches_the_constructor() -> None:
    module = read_ptx(KERNEL, "k.ptx")
    adds = [
        op
        for op in module.walk()
        if isinstance(op, InstructionOp) and op.opcode.data == "add.s32"
    ]
    assert len(adds) == 2
    for op in adds:
        assert op.guard is not None
        negated = op.guard_negated is not None
        layout = list(op.layout.data)
        registers = list(op.registers)
        fast = build_instruction(
            type(op), "add.s32", layout, registers, op.guard, negated
        )
        slow = type(op)(
            "add.s32", layout, registers, guard=op.guard, guard_negated=negated
        )
        assert fast.properties == slow.properties
        assert list(fast.operands) == list(slow.operands)
        assert negated == (op is adds[1])
