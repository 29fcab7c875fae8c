"""Building ori from Python (as a lowering does), and the rules the text syntax cannot reach."""

from io import StringIO
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.ori import (
    AddressSizeOp,
    BarrierOp,
    BraOp,
    CpAsyncBulkOp,
    CpAsyncBulkWaitGroupOp,
    CpAsyncOp,
    ExitOp,
    FallthroughOp,
    FuncOp,
    GenericInstructionOp,
    MbarrierOp,
    TargetOp,
    VersionOp,
    WgmmaMmaAsyncOp,
    instruction_class,
)
from tileas_py.dialects.ori.attributes import (
    DEF_SLOT,
    INOUT_SLOT,
    USE_SLOT,
    AddressAttr,
    FloatImmAttr,
    FunctionKind,
    ImmAttr,
    PtxType,
    SlotAttr,
    SpecialRegAttr,
    VectorAttr,
)
from tileas_py.dialects.ori.declarations import Declarator, DirectiveAttr, ParamAttr
from tileas_py.ptx.isa import first_operand_role, is_special_register
from tileas_py.ptx.reader import read_ptx
from tileas_py.ptx.toolchain import run_ptxas
from tileas_py.ptx.writer import write_ptx


def build_kernel() -> ModuleOp:
    """A kernel built the way a lowering builds ori: declare registers, append ops."""
    body = Region([Block([]), Block([])])
    decls, code = body.blocks
    decls.add_op(FallthroughOp(code))
    func = FuncOp(
        "built",
        FunctionKind.ENTRY,
        [ParamAttr(Declarator(PtxType.U64, "built_param_0"))],
        directives=[DirectiveAttr("reqntid", [128])],
        body=body,
    )
    tid = func.add_register(PtxType.B32, "%r", 0)
    addr = func.add_register(PtxType.B64, "%rd", 0)
    flag = func.add_register(PtxType.PRED, "%p", 0)
    code.add_ops(
        [
            GenericInstructionOp(
                "mov.u32", [DEF_SLOT, SpecialRegAttr("%tid.x")], [tid]
            ),
            GenericInstructionOp(
                "ld.param.u64",
                [DEF_SLOT, AddressAttr(SymbolRefAttr("built_param_0"))],
                [addr],
            ),
            GenericInstructionOp(
                "setp.eq.u32", [DEF_SLOT, USE_SLOT, ImmAttr(0)], [flag, tid]
            ),
            GenericInstructionOp(
                "st.global.u32",
                [AddressAttr(USE_SLOT, 4), USE_SLOT],
                [addr, tid],
                guard=flag,
            ),
            BarrierOp("bar.sync", [ImmAttr(0)]),
            ExitOp("exit"),
        ]
    )
    return ModuleOp([VersionOp("8.7"), TargetOp(["sm_90a"]), AddressSizeOp(64), func])


def test_a_built_kernel_verifies_and_assembles(tmp_path: Path) -> None:
    module = build_kernel()
    module.verify()
    output = StringIO()
    write_ptx(module, output)
    text = output.getvalue()
    assert "\t.reg .b32 \t%r<1>;" in text
    assert "@%p0 st.global.u32 \t[%rd0+4], %r0;" in text
    ptx = tmp_path / "built.ptx"
    ptx.write_text(text)
    result = run_ptxas(ptx)
    assert result.ok, result.messages
    # and the PTX reads back into the same instructions
    again = read_ptx(text, "built.ptx")
    again.verify()
    output2 = StringIO()
    write_ptx(again, output2)
    assert output2.getvalue() == text


def test_fresh_registers_go_to_the_declaration_block() -> None:
    module = build_kernel()
    func = next(op for op in module.ops if isinstance(op, FuncOp))
    reg = func.add_register(PtxType.F32, "%f9")
    assert reg.parent_block() is func.declaration_block
    assert func.registers()[-1] is reg
    assert reg.result.name_hint == "f9"
    module.verify()


@pytest.mark.parametrize(
    ("opcode", "op"),
    [
        ("wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16", WgmmaMmaAsyncOp),
        ("cp.async.bulk.tensor.2d.shared::cluster.global.tile", CpAsyncBulkOp),
        ("cp.async.bulk.wait_group.read", CpAsyncBulkWaitGroupOp),
        ("cp.async.cg.shared.global", CpAsyncOp),
        ("mbarrier.try_wait.parity.shared::cta.b64", MbarrierOp),
        ("barrier.cta.sync.aligned", BarrierOp),
        ("bar.warp.sync", GenericInstructionOp),
        ("bra.uni", BraOp),
        ("add.s32", GenericInstructionOp),
    ],
)
def test_instruction_class_picks_the_longest_family(opcode: str, op: type) -> None:
    assert instruction_class(opcode) is op


@pytest.mark.parametrize(
    ("opcode", "role"),
    [
        ("add.s32", "def"),
        ("st.global.v4.f32", "use"),
        ("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "inout"),
        ("mbarrier.init.shared::cta.b64", "use"),
        ("mbarrier.arrive.shared::cta.b64", "def"),
        ("red.global.add.u32", "use"),
        ("shfl.sync.bfly.b32", "def"),
        ("bar.sync", "use"),
        ("bar.red.popc.u32", "def"),
        ("barrier.cta.red.and.pred", "def"),
        ("atom.global.add.u32", "def"),
        ("cp.async.bulk.tensor.2d.shared::cluster.global.tile", "use"),
    ],
)
def test_first_operand_roles(opcode: str, role: str) -> None:
    assert first_operand_role(opcode) == role


def test_special_registers() -> None:
    assert is_special_register("%tid.x")
    assert is_special_register("%cluster_ctarank")
    assert is_special_register("%envreg31")
    assert not is_special_register("%envreg32")
    assert not is_special_register("%r1")


def _one_wgmma(guard: str = "") -> tuple[ModuleOp, WgmmaMmaAsyncOp]:
    """A kernel of one wgmma.mma_async, with `guard` (`@!%p0 `) in front of it."""
    text = f""".version 8.7
.target sm_90a
.address_size 64
.visible .entry k()
{{
.reg .pred %p<1>;
.reg .f32 %f<4>;
.reg .b64 %rd<2>;
{guard}wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{%f0, %f1, %f2, %f3}}, %rd0, %rd1, 1, 1, 1, 0, 0;
}}
"""
    module = read_ptx(text, "k.ptx")
    mma = next(op for op in module.walk() if isinstance(op, WgmmaMmaAsyncOp))
    return module, mma


def test_wgmma_accessors() -> None:
    _, mma = _one_wgmma()
    assert mma.layout.data[0] == VectorAttr([INOUT_SLOT] * 4)
    assert len(mma.accumulators) == 4
    assert len(mma.inputs) == 2


def test_drop_guard_makes_an_instruction_unconditional() -> None:
    module, mma = _one_wgmma("@!%p0 ")
    registers = list(mma.registers)
    mma.drop_guard()
    module.verify()
    assert mma.guard is None
    assert mma.guard_register is None
    assert mma.guard_negated is None
    assert list(mma.registers) == registers == mma.uses()
    output = StringIO()
    write_ptx(module, output)
    assert "\twgmma.mma_async" in output.getvalue()
    assert "%p0 wgmma" not in output.getvalue()


# Rules of attributes whose custom syntax cannot express a bad value.


def test_slot_role_must_be_known() -> None:
    with pytest.raises(VerifyException, match="unknown register role 'both'"):
        SlotAttr.new((StringAttr("both"),))


def test_float_immediates_are_f32_or_f64() -> None:
    with pytest.raises(
        VerifyException, match="float immediates are f32 or f64, not 16 bits"
    ):
        FloatImmAttr(16, 0)


def test_pointer_spaces_are_ptx_state_spaces() -> None:
    with pytest.raises(VerifyException, match="unknown pointer state space 'texture'"):
        ParamAttr(Declarator(PtxType.U64, "p", ptr_space="texture"))


def test_directives_are_ptx_performance_directives() -> None:
    with pytest.raises(
        VerifyException, match="unknown function directive 'maxthreads'"
    ):
        DirectiveAttr("maxthreads", [1])


def test_every_op_documents_itself_with_an_example() -> None:
    from tileas_py.dialects.ori import Ori

    ops = list(Ori.operations)
    assert len(ops) >= 30
    for op in ops:
        doc = op.__doc__ or ""
        summary = doc.strip().split("\n", 1)[0]
        assert summary.endswith((".", ")")), f"{op.name} needs a one-line summary"
        assert "Example:" in doc, f"{op.name} needs an example"
        assert op.name in doc.split("Example:", 1)[1], f"{op.name}'s example"
