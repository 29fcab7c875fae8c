"""Details of the PTX reader that the corpus round trip does not pin down."""

import gc

import pytest
from xdsl.utils.exceptions import ParseError

from tileas_py.dialects.ori import BraOp, FuncOp, GenericInstructionOp, LabelOp, RegOp
from tileas_py.dialects.ori.attributes import FloatImmAttr, ImmAttr
from tileas_py.ptx.reader import integer_value, read_ptx

HEADER = ".version 8.7\n.target sm_90a\n.address_size 64\n"


def kernel(body: str) -> FuncOp:
    module = read_ptx(f"{HEADER}.visible .entry k()\n{{\n{body}\n}}\n", "t.ptx")
    module.verify()
    return next(op for op in module.ops if isinstance(op, FuncOp))


@pytest.mark.parametrize(
    ("text", "value"),
    [("42", 42), ("0x1F", 31), ("0XffU", 255), ("017", 15), ("0b101", 5), ("0", 0)],
)
def test_integer_literals(text: str, value: int) -> None:
    assert integer_value(text) == value


def test_immediates_keep_their_value_and_width() -> None:
    func = kernel(
        ".reg .f32 %f;\n.reg .f64 %d;\n.reg .b32 %r;\n"
        "add.f32 %f, %f, 0f3F800000;\nadd.f64 %d, %d, 1.5;\nadd.s32 %r, %r, -0x10;"
    )
    add_f, add_d, add_s = (
        op for op in func.walk() if isinstance(op, GenericInstructionOp)
    )
    assert add_f.layout.data[2] == FloatImmAttr(32, 0x3F800000)
    assert add_d.layout.data[2] == FloatImmAttr(64, 0x3FF8000000000000)
    assert add_s.layout.data[2] == ImmAttr(-16)


def test_a_forward_branch_takes_the_innermost_label() -> None:
    func = kernel(
        """
        .reg .pred %p;
        OUTER:
        {
            @%p bra L;
            bra OUTER;
        L:
        }
        L:
        exit;
        """
    )
    branches = [op for op in func.walk() if isinstance(op, BraOp)]
    inner_target = branches[0].target
    label = inner_target.first_op
    assert isinstance(label, LabelOp)
    assert label.label.data == "L"
    outer_l = [op for op in func.walk() if isinstance(op, LabelOp)][-1]
    assert outer_l.label.data == "L$1"
    outer = branches[1].target.first_op
    assert isinstance(outer, LabelOp)
    assert outer.label.data == "OUTER"


def test_scoped_registers_are_renamed_apart() -> None:
    func = kernel(
        "{\n.reg .b32 t;\nmov.u32 t, 1;\n}\n{\n.reg .b32 t;\nmov.u32 t, 2;\n}\n"
        ".reg .b32 t$1;\n"
    )
    names = [op.ptx_name for op in func.walk() if isinstance(op, RegOp)]
    assert names == ["t", "t$1", "t$1$1"]


def test_register_groups_keep_prefix_and_index() -> None:
    func = kernel(".reg .b32 %r<3>, %x;")
    regs = func.registers()
    assert [(r.reg_name.data, r.index) for r in regs][-1] == ("%x", None)
    assert [r.ptx_name for r in regs] == ["%r0", "%r1", "%r2", "%x"]


def test_errors_are_parse_errors_with_a_span() -> None:
    with pytest.raises(ParseError) as info:
        read_ptx(f"{HEADER}.visible .entry k()\n{{\n  bogus.op;\n}}\n", "bad.ptx")
    assert info.value.msg == "Not a name of any known instruction: 'bogus'"
    assert str(info.value.span.get_location()) == "bad.ptx:6:3"


def test_split_chunks_keep_file_line_numbers() -> None:
    module = read_ptx(f"{HEADER}.visible .entry k()\n{{\n  exit;\n}}\n", "k.ptx", 10)
    exit_op = next(op for op in module.walk() if op.name == "ori.exit")
    assert str(exit_op.location) == 'loc("k.ptx":16:3)'


@pytest.mark.parametrize("enabled", [True, False])
def test_reading_leaves_the_garbage_collector_as_it_was(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        if enabled:
            gc.enable()
        else:
            gc.disable()
        read_ptx(f"{HEADER}.visible .entry k()\n{{\n  exit;\n}}\n", "k.ptx")
        assert gc.isenabled() is enabled
    finally:
        if was:
            gc.enable()
        else:
            gc.disable()


def test_registers_named_like_numbers_print_with_numbered_values() -> None:
    func = kernel(".reg .b32 %1, %_2;\nmov.u32 %1, %_2;")
    first, second = func.registers()
    assert first.ptx_name == "%1"
    assert first.result.name_hint is None
    assert second.result.name_hint == "_2_"
