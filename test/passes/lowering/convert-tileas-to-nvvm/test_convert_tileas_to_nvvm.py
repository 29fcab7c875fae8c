"""Python-level tests of convert-tileas-to-nvvm: the value conventions, the pattern-module
list, and the descriptor arithmetic checked against upstream MLIR's NVGPU lowering."""

from __future__ import annotations

import re
from pathlib import Path

from xdsl.dialects import llvm
from xdsl.dialects.builtin import Float16Type, Float32Type, TensorType, VectorType, f32

from tileas_py.dialects.nv_tileas.attrs import MmaEncodingAttr
from tileas_py.hw import wgmma_layout
from tileas_py.passes.lowering import tileas_to_nvvm
from tileas_py.passes.lowering.tileas_to_nvvm import conventions
from tileas_py.tools.tileas_opt import run_tool

HERE = Path(__file__).resolve().parent


def accumulator(
    rows: int, cols: int, n: int, element: Float16Type | Float32Type, warps: int = 4
):
    return TensorType(element, [rows, cols], MmaEncodingAttr([warps, 1], [64, n, 16]))


def test_every_pattern_module_contributes() -> None:
    patterns, shared = tileas_to_nvvm.collect()
    modules = {type(p).__module__.rsplit(".", 1)[-1] for p in patterns}
    assert modules == set(tileas_to_nvvm.MODULES)
    assert shared  # kernel.py allocates nv_tileas.alloc_tensor


def test_fragment_type_is_one_struct_per_instruction_tile() -> None:
    t = accumulator(128, 256, 128, f32)
    fragment = conventions.fragment_type(t)
    assert len(fragment.types.data) == 4  # 2 m-tiles x 2 n-tiles
    tile = fragment.types.data[0]
    assert isinstance(tile, llvm.LLVMStructType)
    assert list(tile.types.data) == [f32] * 64
    half = conventions.fragment_type(accumulator(64, 64, 64, Float16Type()))
    inner = half.types.data[0]
    assert isinstance(inner, llvm.LLVMStructType)
    assert list(inner.types.data) == [VectorType(Float16Type(), [2])] * 16


def test_every_accumulator_element_is_held_once() -> None:
    t = accumulator(128, 64, 32, f32)
    fragment = conventions.fragment_type(t)
    held: set[tuple[int, int]] = set()
    for thread in range(wgmma_layout.WARPGROUP_THREADS):
        warp, lane = divmod(thread, 32)
        for member, tile in enumerate(fragment.types.data):
            assert isinstance(tile, llvm.LLVMStructType)
            for j in range(len(tile.types.data)):
                held.add(conventions.accumulator_element(t, warp, lane, member, j))
    assert held == {(r, c) for r in range(128) for c in range(64)}


def test_a_split_accumulator_gives_each_warpgroup_its_rows() -> None:
    """warps_per_cta = [8, 1]: a 128x256 tile over two warpgroups, 64 rows each."""
    t = accumulator(128, 256, 256, f32, warps=8)
    fragment = conventions.fragment_type(t)
    assert len(fragment.types.data) == 1  # one m64n256 tile per warpgroup
    assert conventions.accumulator_registers(fragment) == 128
    rows: dict[int, set[int]] = {0: set(), 1: set()}
    held: set[tuple[int, int]] = set()
    for thread in range(2 * wgmma_layout.WARPGROUP_THREADS):
        warp, lane = divmod(thread, 32)
        for j in range(128):
            row, col = conventions.accumulator_element(t, warp, lane, 0, j)
            rows[warp // 4].add(row)
            held.add((row, col))
    assert rows == {0: set(range(64)), 1: set(range(64, 128))}
    assert held == {(r, c) for r in range(128) for c in range(256)}


def test_upstream_128x128x64_offsets_from_the_layouts() -> None:
    """upstream nvgpu-to-nvvm.mlir, `warpgroup_mma_128_128_64`: A advances 2, 4, 6, 512,
    514, 516, 518 and B 128, 256, 384 (descriptor units of 16 bytes)."""
    a = wgmma_layout.OperandTiling(
        wgmma_layout.SharedTileLayout(
            inner=64, outer=128, element_bytes=2, swizzle=128
        ),
        k_major=True,
        mn=64,
        k=16,
    )
    b = wgmma_layout.OperandTiling(
        wgmma_layout.SharedTileLayout(
            inner=128, outer=64, element_bytes=2, swizzle=128
        ),
        k_major=False,
        mn=128,
        k=16,
    )
    a_steps = [a.byte_offset(m, k) >> 4 for m in range(2) for k in range(4)]
    b_steps = [b.byte_offset(0, k) >> 4 for k in range(4)]
    assert a_steps == [0, 2, 4, 6, 512, 514, 516, 518]
    assert b_steps == [0, 128, 256, 384]


def test_upstream_128x128x64_offsets_in_the_emitted_order(tmp_path: Path) -> None:
    """The same offsets, read off the emitted MMAs in issue order."""
    source = HERE / "kernels" / "f16_upstream_128x128x64.mlir"
    out = tmp_path / "out.mlir"
    assert run_tool([str(source), "-p", "convert-tileas-to-nvvm", "-o", str(out)]) == 0
    text = out.read_text()
    increments: dict[str, int] = {}
    constants = dict(re.findall(r"(%\d+) = llvm\.mlir\.constant\((\d+)\) : i64", text))
    bases: list[str] = re.findall(r"(%\d+) = llvm\.or ", text)
    for name, base, step in re.findall(
        r"(%\d+) = llvm\.add (%\d+), (%\d+) : i64", text
    ):
        if base in bases:
            increments[name] = int(constants[step])
    for base in bases:
        increments[base] = 0
    pairs = re.findall(r"nvvm\.wgmma\.mma_async (%\d+), (%\d+), ", text)
    a_steps = [increments[a] for a, _ in pairs]
    b_steps = [increments[b] for _, b in pairs]
    assert a_steps == [0, 2, 4, 6, 512, 514, 516, 518]
    assert b_steps == [0, 128, 256, 384] * 2
    assert text.index("nvvm.wgmma.fence.aligned") > max(
        text.index(f"{name} = ") for name in increments
    )


def test_register_a_splats_pack_the_element_bits() -> None:
    from xdsl.dialects.builtin import BFloat16Type, Float8E4M3FNType, Float8E5M2Type

    from tileas_py.passes.lowering.tileas_to_nvvm.dot import fp8_bits, half_bits

    e4m3, e5m2 = Float8E4M3FNType(), Float8E5M2Type()
    assert [fp8_bits(v, e4m3) for v in (1.0, -2.0, 448.0, 2.0**-9)] == [
        0x38,
        0xC0,
        0x7E,
        0x01,
    ]
    assert [fp8_bits(v, e5m2) for v in (1.0, 1.5, 2.0**-16)] == [0x3C, 0x3E, 0x01]
    one_and_a_half = 0x3FC00000
    assert half_bits(one_and_a_half, BFloat16Type()) == 0x3FC0
    assert half_bits(one_and_a_half, Float16Type()) == 0x3E00
