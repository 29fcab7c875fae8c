"""convert-nvvm-to-ori from Python: its documented example, its choice of `.version`, and
running it as a library pass."""

from io import StringIO

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, cf, func, llvm, scf
from xdsl.parser import Parser
from xdsl.passes import PassPipeline

from tileas_py.dialects import get_all_dialects
from tileas_py.dialects.ori import FuncOp, WgmmaMmaAsyncOp
from tileas_py.hw.arch import Arch
from tileas_py.passes import get_all_passes
from tileas_py.passes.lowering import convert_nvvm_to_ori
from tileas_py.passes.lowering.convert_nvvm_to_ori import ConvertNvvmToOriPass
from tileas_py.passes.lowering.nvvm_to_ori.module import ptx_version
from tileas_py.ptx.writer import write_ptx


def context() -> Context:
    ctx = Context()
    for dialect in (builtin.Builtin, arith.Arith, cf.Cf, func.Func, llvm.LLVM, scf.Scf):
        ctx.load_dialect(dialect)
    for factory in get_all_dialects().values():
        ctx.load_dialect(factory())
    return ctx


def docstring_example() -> tuple[str, str]:
    doc = convert_nvvm_to_ori.__doc__
    assert doc is not None
    before = doc.split("Before:\n", 1)[1].split("After (`-t ptx`):\n", 1)
    return before[0], before[1]


def squeeze(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def test_the_docstring_example_is_what_the_pass_prints() -> None:
    source, expected = docstring_example()
    ctx = context()
    module = Parser(ctx, source).parse_module()
    ConvertNvvmToOriPass().apply(ctx, module)
    module.verify()
    output = StringIO()
    write_ptx(module, output)
    assert squeeze(output.getvalue()) == squeeze(expected)


def test_the_pass_is_registered_with_its_options() -> None:
    passes = PassPipeline.parse_spec(
        get_all_passes(), 'convert-nvvm-to-ori{default-chip=sm_100a ptx-version="8.8"}'
    ).passes
    assert passes == (ConvertNvvmToOriPass(default_chip="sm_100a", ptx_version="8.8"),)


@pytest.mark.parametrize(
    ("chip", "features", "version"),
    [
        ("sm_90a", "+ptx60", "8.0"),
        ("sm_90a", "+ptx87", "8.7"),
        ("sm_90", "", "7.8"),
        ("sm_80", "+ptx70", "7.0"),
        ("sm_100a", "+ptx80", "8.6"),
        ("sm_100f", "", "8.8"),
        ("sm_120", "+ptx90", "9.0"),
    ],
)
def test_the_version_is_the_feature_raised_to_the_chip(
    chip: str, features: str, version: str
) -> None:
    arch = Arch.parse(chip)
    assert arch is not None
    assert ptx_version(arch, features) == version


def test_consecutive_mmas_share_their_accumulator_registers() -> None:
    ctx = context()
    acc = "!llvm.struct<(f32, f32, f32, f32)>"
    mma = (
        "nvvm.wgmma.mma_async %a, %b, {acc}, #nvvm.shape<m = 64, n = 8, k = 16>, "
        "D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], "
        f"B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : {acc} -> {acc}"
    )
    source = f"""
    llvm.func @k(%a: i64, %b: i64, %acc: {acc}, %out: !llvm.ptr<1>) attributes {{nvvm.kernel}} {{
      nvvm.wgmma.fence.aligned
      %d0 = {mma.format(acc="%acc")}
      %d1 = {mma.format(acc="%d0")}
      %d2 = {mma.format(acc="%d1")}
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      llvm.store %d2, %out : {acc}, !llvm.ptr<1>
      llvm.return
    }}
    """
    module = Parser(ctx, source).parse_module()
    ConvertNvvmToOriPass().apply(ctx, module)
    module.verify()
    kernel = next(op for op in module.ops if isinstance(op, FuncOp))
    mmas = [op for op in kernel.walk() if isinstance(op, WgmmaMmaAsyncOp)]
    assert len(mmas) == 3
    first = list(mmas[0].accumulators)
    assert all(list(m.accumulators) == first for m in mmas)
    assert len(set(first)) == 4
