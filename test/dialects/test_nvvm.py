"""The nvvm dialect from Python: builders, the SM-gating traits, kernel attributes, and
agreement between the WGMMA verifier and the hardware lattice."""

import io
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import builtin, func, llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    ModuleOp,
    UnitAttr,
    f32,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, Region
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tileas_py.diagnostics import PlainVerifyException
from tileas_py.dialects.nvvm import NVVM, NVVMTargetAttr, RequiresSMf, target_archs
from tileas_py.dialects.nvvm.attrs import (
    MMALayout,
    MMALayoutAttr,
    MMAShapeAttr,
    Tcgen05FenceKind,
    Tcgen05FenceKindAttr,
    Tcgen05MMAKind,
    Tcgen05MMAKindAttr,
    WGMMAScaleIn,
    WGMMAScaleInAttr,
    WGMMAScaleOut,
    WGMMAScaleOutAttr,
    WGMMATypes,
    WGMMATypesAttr,
)
from tileas_py.dialects.nvvm.kernel import verify_nvvm_attributes
from tileas_py.dialects.nvvm.pointers import TENSOR, pointer
from tileas_py.dialects.nvvm.sync import BarrierOp, ElectSyncOp
from tileas_py.dialects.nvvm.tcgen05 import Tcgen05FenceOp, Tcgen05MMAOp
from tileas_py.dialects.nvvm.wgmma import (
    WgmmaFenceAlignedOp,
    WgmmaMmaAsyncOp,
    WgmmaWaitGroupSyncOp,
)
from tileas_py.hw import wgmma
from tileas_py.hw.arch import Arch, ArchVariant
from tileas_py.hw.wgmma import WgmmaType

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
BIN = Path(sys.executable).parent


def context() -> Context:
    ctx = Context()
    for dialect in (builtin.Builtin, func.Func, llvm.LLVM, NVVM):
        ctx.load_dialect(dialect)
    return ctx


def printed(op: ModuleOp) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_op(op)
    return stream.getvalue()


def module_with(chip: str | None) -> tuple[ModuleOp, Block]:
    """A module (targeting `chip`) holding a function whose body ends in a return."""
    block = Block([func.ReturnOp()], arg_types=[i64, i64, i32, i32])
    attributes = {} if chip is None else {"nvvm.target": NVVMTargetAttr(chip)}
    module = ModuleOp([], attributes=attributes)
    module.body.block.add_op(
        func.FuncOp("k", ((i64, i64, i32, i32), ()), Region(block))
    )
    return module, block


def add(block: Block, op: Operation) -> None:
    """Append `op` to the body, before its return."""
    terminator = block.last_op
    assert terminator is not None
    block.insert_op_before(op, terminator)


def wgmma_op(
    block: Block, type_a: WgmmaType, type_d: WgmmaType, n: int, k: int
) -> WgmmaMmaAsyncOp:
    element = {WgmmaType.F32: f32, WgmmaType.S32: i32}.get(type_d, builtin.f16)
    struct = llvm.LLVMStructType.from_type_list(
        [element] * wgmma.result_elements(n, type_d)
    )
    acc = llvm.UndefOp(struct)
    add(block, acc)
    layout_b = MMALayoutAttr(MMALayout.COL)
    op = WgmmaMmaAsyncOp(
        block.args[0],
        block.args[1],
        acc.res,
        shape=MMAShapeAttr(64, n, k),
        type_d=WGMMATypesAttr(WGMMATypes(type_d.value)),
        scale_d=WGMMAScaleOutAttr(WGMMAScaleOut.ONE),
        a=(
            WGMMATypesAttr(WGMMATypes(type_a.value)),
            WGMMAScaleInAttr(WGMMAScaleIn.ONE),
            MMALayoutAttr(MMALayout.ROW),
        ),
        b=(
            WGMMATypesAttr(WGMMATypes(type_a.value)),
            WGMMAScaleInAttr(WGMMAScaleIn.ONE),
            layout_b,
        ),
    )
    add(block, op)
    return op


@pytest.mark.parametrize("type_a", wgmma.INPUT_TYPES)
def test_wgmma_verifier_accepts_exactly_the_lattice(type_a: WgmmaType) -> None:
    _, block = module_with(None)
    type_d = wgmma.accumulator_types(type_a)[0]
    k = wgmma.k_for(type_a)
    for n in range(8, 257, 8):
        op = wgmma_op(block, type_a, type_d, n, k)
        if n in wgmma.legal_n(type_a):
            op.verify()
        else:
            with pytest.raises(VerifyException, match=f"n is set to {n}"):
                op.verify()


def test_wgmma_builder_prints_upstream_syntax() -> None:
    module, block = module_with("sm_90a")
    add(block, WgmmaFenceAlignedOp())
    wgmma_op(block, WgmmaType.F16, WgmmaType.F32, 8, 16)
    add(block, WgmmaWaitGroupSyncOp(1))
    module.verify()
    text = printed(module)
    assert "nvvm.wgmma.fence.aligned" in text
    assert "<m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>]" in text
    assert "nvvm.wgmma.wait.group.sync.aligned 1" in text


def test_target_gates_wgmma_on_sm_90a_only() -> None:
    for chip, accepted in (("sm_90a", True), ("sm_90", False), ("sm_100a", False)):
        module, block = module_with(chip)
        add(block, WgmmaFenceAlignedOp())
        if accepted:
            module.verify()
        else:
            with pytest.raises(VerifyException, match=f"is not supported on {chip}"):
                module.verify()


def test_verify_target_false_skips_the_check() -> None:
    module, block = module_with(None)
    module.attributes["nvvm.target"] = NVVMTargetAttr("sm_80", verify_target=False)
    fence = Tcgen05FenceOp(Tcgen05FenceKindAttr(Tcgen05FenceKind.BEFORE))
    add(block, fence)
    module.verify()
    assert target_archs(fence) == ()


def test_nearest_target_and_target_lists() -> None:
    _, block = module_with("sm_80")
    fence = Tcgen05FenceOp(Tcgen05FenceKindAttr(Tcgen05FenceKind.AFTER))
    add(block, fence)
    function = block.parent_op()
    assert function is not None
    function.attributes["nvvm.target"] = ArrayAttr(
        [NVVMTargetAttr("sm_100a"), NVVMTargetAttr("sm_103f")]
    )
    assert target_archs(fence) == (
        Arch(100, ArchVariant.ARCH_CONDITIONAL),
        Arch(103, ArchVariant.FAMILY_CONDITIONAL),
    )
    fence.verify()
    # ptxas 13.5 does not know sm_101a (the name PTX 9.0 changed to sm_110a).
    function.attributes["nvvm.target"] = NVVMTargetAttr("sm_101a")
    with pytest.raises(VerifyException, match="is not supported on sm_101a"):
        fence.verify()


def test_family_conditional_trait() -> None:
    trait = RequiresSMf((100, 103))
    assert trait.supports(Arch(100, ArchVariant.FAMILY_CONDITIONAL))
    assert trait.supports(Arch(103, ArchVariant.ARCH_CONDITIONAL))
    assert not trait.supports(Arch(103))
    assert not trait.supports(Arch(120, ArchVariant.FAMILY_CONDITIONAL))


def test_target_attr_prints_only_non_defaults() -> None:
    assert str(NVVMTargetAttr()) == "#nvvm.target"
    assert str(NVVMTargetAttr("sm_90a")) == '#nvvm.target<chip = "sm_90a">'
    assert (
        str(NVVMTargetAttr("sm_100a", opt_level=3, verify_target=False))
        == '#nvvm.target<O = 3, chip = "sm_100a", verifyTarget = false>'
    )
    with pytest.raises(VerifyException, match="between 0 and 3"):
        NVVMTargetAttr(opt_level=4)


def test_barrier_builder_sets_segments_and_verifies() -> None:
    _, block = module_with(None)
    plain = BarrierOp()
    named = BarrierOp(barrier_id=block.args[2], number_of_threads=block.args[3])
    for op in (plain, named, ElectSyncOp()):
        add(block, op)
        op.verify()
    assert plain.properties["operandSegmentSizes"] == DenseArrayBase.from_list(
        i32, [0, 0, 0]
    )
    assert named.properties["operandSegmentSizes"] == DenseArrayBase.from_list(
        i32, [1, 1, 0]
    )


def test_kernel_attributes_are_checked_from_python() -> None:
    module, block = module_with(None)
    function = block.parent_op()
    assert function is not None
    function.attributes["nvvm.maxntid"] = DenseArrayBase.from_list(i32, [1, 2, 3, 4])
    with pytest.raises(PlainVerifyException, match="maximum 3 index") as failure:
        verify_nvvm_attributes(module)
    assert failure.value.op is function


def test_grid_constant_needs_a_kernel() -> None:
    text = (
        "llvm.func @k(%p: !llvm.ptr {llvm.byval = i32, nvvm.grid_constant}) {\n"
        "  llvm.return\n}\n"
    )
    module = Parser(context(), text).parse_module()
    with pytest.raises(PlainVerifyException, match="only on kernel arguments"):
        verify_nvvm_attributes(module)
    function = module.body.block.first_op
    assert function is not None
    function.attributes["nvvm.kernel"] = UnitAttr()
    verify_nvvm_attributes(module)
    assert isinstance(function.properties["arg_attrs"], ArrayAttr)
    assert isinstance(function.properties["arg_attrs"].data[0], DictionaryAttr)


def test_parsed_properties_are_sorted_with_defaults() -> None:
    text = (
        "llvm.func @f(%t: !llvm.ptr<6>, %d: i64) {\n"
        "  nvvm.tcgen05.cp %t, %d {shape = #nvvm.tcgen05_cp_shape<shape_64x128b>, "
        "multicast = #nvvm.tcgen05_cp_multicast<warpx2_01_23>}\n"
        "  llvm.return\n}\n"
    )
    module = Parser(context(), text).parse_module()
    module.verify()
    op = next(o for o in module.walk() if o.name == "nvvm.tcgen05.cp")
    assert list(op.properties) == ["group", "multicast", "shape"]


def test_plain_xdsl_opt_reads_our_generic_example(tmp_path: Path) -> None:
    generic = subprocess.run(
        [
            str(BIN / "tileas-opt"),
            "examples/nvvm_wgmma_sm90a.mlir",
            "--print-op-generic",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    source = tmp_path / "generic.mlir"
    source.write_text(generic)
    result = subprocess.run(
        [str(BIN / "xdsl-opt"), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert (
        "nvvm.wgmma.mma_async %desc_a, %desc_b, %acc_in, <m = 64, n = 32, k = 16>"
        in (result.stdout)
    )


def test_tcgen05_mma_builder_and_cicc_rules() -> None:
    block = Block(arg_types=[pointer(TENSOR), i64, i64, i32, builtin.i1, i64])
    d, a, b, idesc, acc, scale = block.args
    mma = Tcgen05MMAOp(
        d,
        a,
        b,
        idesc,
        acc,
        kind=Tcgen05MMAKindAttr(Tcgen05MMAKind.F8F6F4),
        scale_input_d=scale,
    )
    block.add_op(mma)
    assert mma.cicc_view().scale_input_accumulator
    # ptxas takes (and drops) a scale input on kind::i8, not on kind::f8f6f4.
    Tcgen05MMAOp(
        d,
        a,
        b,
        idesc,
        acc,
        kind=Tcgen05MMAKindAttr(Tcgen05MMAKind.I8),
        scale_input_d=scale,
    ).verify()
    with pytest.raises(
        PlainVerifyException,
        match=r"^Scale input accumulator can only be used with f16 and tf32 types",
    ):
        mma.verify()
