"""Quick verification: an ordinary op skips IRDL's generic checks; any other op gets them,
with IRDL's own message, exactly as if the op were plainly IRDL-defined."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.ori.attributes import PtxType, RegisterType
from tileas_py.dialects.ori.function import FuncOp, RegOp
from tileas_py.dialects.ori.instructions import GenericInstructionOp, InstructionOp
from tileas_py.ptx.reader import read_ptx
from tileas_py.xdsl_gaps.verification import QuickVerifiedOperation

PTX = """\
.version 8.5
.target sm_90a
.address_size 64
.visible .entry k()
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 add.s32 %r2, %r1, 5;
  ret;
}
"""


def kernel() -> FuncOp:
    module = read_ptx(PTX, "k.ptx")
    return next(op for op in module.walk() if isinstance(op, FuncOp))


def ops_of(kind: type[QuickVerifiedOperation]) -> list[QuickVerifiedOperation]:
    return [op for op in kernel().walk() if isinstance(op, kind)]


def irdl_message(op: Operation) -> str:
    """What IRDL's checks and then the op's own `verify_` say, run by hand."""
    assert isinstance(op, QuickVerifiedOperation)
    try:
        type(op).get_irdl_definition().verify(op)
        type(op).__mro__[1].verify_(op)  # the family's `verify_`, IRDL's custom hook
    except VerifyException as e:
        return str(e)
    return ""


def test_the_readers_ops_have_the_ordinary_shape() -> None:
    ops = ops_of(InstructionOp) + ops_of(RegOp)
    assert len(ops) > 6
    for op in ops:
        assert op.has_ordinary_shape(), op
        op.verify_()


def break_segments(op: Operation) -> None:
    op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, (0, 9))


def add_property(op: Operation) -> None:
    op.properties["stray"] = UnitAttr()


def drop_opcode(op: Operation) -> None:
    del op.properties["opcode"]


def wrong_opcode_type(op: Operation) -> None:
    op.properties["opcode"] = IntegerAttr(1, i64)


def i64_segments(op: Operation) -> None:
    op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i64, (1, 2))


@pytest.mark.parametrize(
    "damage",
    [break_segments, add_property, drop_opcode, wrong_opcode_type, i64_segments],
)
def test_a_damaged_instruction_gets_irdls_message(
    damage: Callable[[Operation], None],
) -> None:
    op = next(
        op
        for op in kernel().walk()
        if isinstance(op, InstructionOp) and op.guard_register is not None
    )
    damage(op)
    assert not op.has_ordinary_shape()
    expected = irdl_message(op)
    assert expected
    with pytest.raises(VerifyException) as info:
        op.verify_()
    assert str(info.value) == expected


def test_a_register_with_a_wrong_index_type_gets_irdls_message() -> None:
    reg = RegOp(PtxType.B32, "%r", 3)
    reg.properties["index"] = IntegerAttr(3, i32)
    assert not reg.has_ordinary_shape()
    expected = irdl_message(reg)
    assert "i64" in expected
    with pytest.raises(VerifyException) as info:
        reg.verify_()
    assert str(info.value) == expected


def test_an_ordinary_instruction_still_gets_its_own_rules() -> None:
    op = GenericInstructionOp("wgmma.fence.sync.aligned")
    assert op.has_ordinary_shape()
    with pytest.raises(VerifyException) as info:
        op.verify_()
    assert str(info.value) == (
        "PTX instruction 'wgmma.fence.sync.aligned' must be an 'ori.wgmma.fence' op"
    )


def test_an_ordinary_register_still_gets_its_own_rules() -> None:
    reg = RegOp(PtxType.B32, "%r", 3)
    assert reg.has_ordinary_shape()
    assert reg.result.type == RegisterType()
    with pytest.raises(VerifyException) as info:
        reg.verify_()
    assert str(info.value) == (
        "registers are declared in the entry block of an 'ori.func'"
    )
    assert StringAttr("%r") == reg.reg_name
