"""The WGMMA lattice, checked against its rules and against the real ptxas."""

from pathlib import Path

import pytest

from tileas_py.hw import wgmma
from tileas_py.hw.wgmma import WgmmaShape, WgmmaType
from tileas_py.ptx.toolchain import run_ptxas


def test_k_is_256_bits_of_input_except_tf32_and_b1() -> None:
    assert wgmma.k_for(WgmmaType.F16) == 16
    assert wgmma.k_for(WgmmaType.BF16) == 16
    assert wgmma.k_for(WgmmaType.TF32) == 8
    assert wgmma.k_for(WgmmaType.E4M3) == 32
    assert wgmma.k_for(WgmmaType.S8) == 32
    assert wgmma.k_for(WgmmaType.B1) == 256


def test_float_inputs_step_n_by_8() -> None:
    assert wgmma.legal_n(WgmmaType.F16) == tuple(range(8, 257, 8))
    assert 40 in wgmma.legal_n(WgmmaType.E5M2)


def test_integer_and_bit_inputs_step_n_by_16_after_32() -> None:
    for type_a in (WgmmaType.S8, WgmmaType.U8, WgmmaType.B1):
        legal = wgmma.legal_n(type_a)
        assert legal[:4] == (8, 16, 24, 32)
        assert 40 not in legal
        assert 48 in legal
        assert legal[-1] == 256
        assert len(legal) == 18


def test_accumulators_per_family() -> None:
    assert wgmma.accumulator_types(WgmmaType.F16) == (WgmmaType.F32, WgmmaType.F16)
    assert wgmma.accumulator_types(WgmmaType.BF16) == (WgmmaType.F32,)
    assert wgmma.accumulator_types(WgmmaType.E4M3) == (WgmmaType.F32, WgmmaType.F16)
    assert wgmma.accumulator_types(WgmmaType.U8) == (WgmmaType.S32,)


def test_legal_combinations_mix_only_within_a_family() -> None:
    assert wgmma.is_legal_combination(WgmmaType.F32, WgmmaType.E4M3, WgmmaType.E5M2)
    assert wgmma.is_legal_combination(WgmmaType.S32, WgmmaType.S8, WgmmaType.U8)
    assert not wgmma.is_legal_combination(WgmmaType.F32, WgmmaType.F16, WgmmaType.BF16)
    assert not wgmma.is_legal_combination(WgmmaType.F16, WgmmaType.BF16, WgmmaType.BF16)
    assert not wgmma.is_legal_combination(WgmmaType.F32, WgmmaType.F32, WgmmaType.F32)
    assert not wgmma.is_legal_combination(WgmmaType.S32, WgmmaType.B1, WgmmaType.S8)


def test_result_elements_and_transpose() -> None:
    assert wgmma.result_elements(128, WgmmaType.F32) == 64
    assert wgmma.result_elements(128, WgmmaType.S32) == 64
    assert wgmma.result_elements(128, WgmmaType.F16) == 32
    assert wgmma.supports_transpose(WgmmaType.BF16)
    assert not wgmma.supports_transpose(WgmmaType.TF32)


def test_shapes_and_tiling_queries() -> None:
    shapes = wgmma.shapes_for(WgmmaType.TF32)
    assert shapes[0] == WgmmaShape(64, 8, 8)
    assert shapes[-1].ptx == "m64n256k8"
    assert wgmma.is_legal_shape(WgmmaType.F16, 64, 128, 16)
    assert not wgmma.is_legal_shape(WgmmaType.F16, 64, 128, 32)
    assert not wgmma.is_legal_shape(WgmmaType.F16, 32, 128, 16)
    assert wgmma.largest_n(WgmmaType.S8, 40) == 32
    assert wgmma.largest_n(WgmmaType.F16, 7) is None


def test_ptx_mnemonic() -> None:
    shape = WgmmaShape(64, 128, 16)
    text = wgmma.ptx_mnemonic(shape, WgmmaType.F32, WgmmaType.F16, WgmmaType.F16)
    assert text == "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16"


def _kernel(n: int, type_a: WgmmaType, type_d: WgmmaType) -> str:
    """A one-instruction sm_90a kernel with A and B in shared memory."""
    count = wgmma.result_elements(n, type_d)
    reg = "f32" if type_d == WgmmaType.F32 else "b32"
    regs = ", ".join(f"%d{i}" for i in range(count))
    shape = WgmmaShape(64, n, wgmma.k_for(type_a))
    mnemonic = wgmma.ptx_mnemonic(shape, type_d, type_a, type_a)
    if type_a == WgmmaType.B1:
        mnemonic += ".and.popc"
    immediates = ""
    if wgmma.supports_transpose(type_a):
        immediates = ", 1, 1, 0, 0"
    elif type_d != WgmmaType.S32:
        immediates = ", 1, 1"
    return f"""
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 pa) {{
  .reg .b64 %rd<2>;
  .reg .{reg} %d<{count}>;
  .reg .pred %p;
  ld.param.u64 %rd1, [pa];
  setp.ne.b64 %p, %rd1, 0;
  wgmma.fence.sync.aligned;
  {mnemonic} {{{regs}}}, %rd1, %rd1, %p{immediates};
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  ret;
}}
"""


@pytest.mark.parametrize(
    ("type_a", "type_d", "n"),
    [
        (WgmmaType.F16, WgmmaType.F32, 40),
        (WgmmaType.BF16, WgmmaType.F32, 8),
        (WgmmaType.TF32, WgmmaType.F32, 24),
        (WgmmaType.E4M3, WgmmaType.F16, 40),
        (WgmmaType.S8, WgmmaType.S32, 24),
        (WgmmaType.S8, WgmmaType.S32, 40),
        (WgmmaType.S8, WgmmaType.S32, 48),
        (WgmmaType.B1, WgmmaType.S32, 40),
        (WgmmaType.B1, WgmmaType.S32, 256),
    ],
)
def test_ptxas_agrees_on_legal_n(
    tmp_path: Path, type_a: WgmmaType, type_d: WgmmaType, n: int
) -> None:
    source = tmp_path / "k.ptx"
    source.write_text(_kernel(n, type_a, type_d))
    result = run_ptxas(source, arch="sm_90a")
    assert result.ok == (n in wgmma.legal_n(type_a)), result.messages


def test_ptxas_rejects_bf16_with_f16_accumulator(tmp_path: Path) -> None:
    source = tmp_path / "k.ptx"
    source.write_text(_kernel(8, WgmmaType.BF16, WgmmaType.F16))
    result = run_ptxas(source, arch="sm_90a")
    assert not result.ok
    assert not wgmma.is_legal_combination(WgmmaType.F16, WgmmaType.BF16, WgmmaType.BF16)
