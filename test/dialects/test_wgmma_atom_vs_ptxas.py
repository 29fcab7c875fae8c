"""The sm90 MMA atom accepts exactly the wgmma shapes and types the real ptxas accepts."""

from pathlib import Path

import pytest
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    IntegerType,
    Signedness,
    f16,
    f32,
    i1,
    i32,
    tf32,
)
from xdsl.ir import TypeAttribute
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.cute_nvgpu import Major, SM90MmaAtomType, element_type_name
from tileas_py.ptx.toolchain import run_ptxas

bf16 = BFloat16Type()
e4m3 = Float8E4M3FNType()
e5m2 = Float8E5M2Type()
s8 = IntegerType(8, Signedness.SIGNED)
u8 = IntegerType(8, Signedness.UNSIGNED)

CASES: list[tuple[TypeAttribute, TypeAttribute, TypeAttribute, int, int]] = [
    (f16, f16, f32, 128, 16),
    (f16, f16, f16, 256, 16),
    (f16, f16, f32, 12, 16),
    (f16, f16, f32, 264, 16),
    (f16, f16, f32, 64, 32),
    (bf16, bf16, f32, 8, 16),
    (bf16, bf16, f16, 64, 16),
    (tf32, tf32, f32, 40, 8),
    (tf32, tf32, f32, 40, 16),
    (e4m3, e5m2, f16, 40, 32),
    (e5m2, e5m2, f32, 256, 32),
    (s8, u8, i32, 48, 32),
    (s8, s8, i32, 40, 32),
    (u8, u8, i32, 24, 32),
    (i1, i1, i32, 24, 256),
    (i1, i1, i32, 40, 256),
    (f16, bf16, f32, 64, 16),
]


def wgmma_ptx(a: str, b: str, acc: str, n: int, k: int) -> str:
    """A kernel issuing one `wgmma.mma_async` with both operands from descriptors."""
    registers = n // 4 if acc == "f16" else n // 2
    register_type = {"f16": "b32", "f32": "f32", "s32": "s32"}[acc]
    immediates = {
        "f16": ", 1, 1, 0, 0",
        "bf16": ", 1, 1, 0, 0",
        "tf32": ", 1, 1",
        "e4m3": ", 1, 1",
        "e5m2": ", 1, 1",
    }.get(a, "")
    types = f"{acc}.{a}.{b}" + (".and.popc" if a == "b1" else "")
    outputs = ", ".join(f"%d{i}" for i in range(registers))
    return f"""\
.version 8.7
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 p)
{{
	.reg .b64 %rd<2>;
	.reg .{register_type} %d<{registers}>;
	ld.param.u64 %rd1, [p];
	wgmma.fence.sync.aligned;
	wgmma.mma_async.sync.aligned.m64n{n}k{k}.{types} {{{outputs}}}, %rd1, %rd1, 1{immediates};
	wgmma.commit_group.sync.aligned;
	wgmma.wait_group.sync.aligned 0;
	ret;
}}
"""


Case = tuple[TypeAttribute, TypeAttribute, TypeAttribute, int, int]


@pytest.mark.parametrize("case", CASES)
def test_atom_verifier_agrees_with_ptxas(case: Case, tmp_path: Path) -> None:
    a, b, acc, n, k = case
    try:
        SM90MmaAtomType((64, n, k), (Major.K, Major.K), (a, b, acc))
        accepted = True
    except VerifyException:
        accepted = False
    ptx = tmp_path / "k.ptx"
    names = [element_type_name(t) for t in (a, b, acc)]
    ptx.write_text(wgmma_ptx(names[0], names[1], names[2], n, k))
    result = run_ptxas(ptx, "sm_90a", tmp_path / "k.cubin")
    assert result.ok == accepted, "\n".join(result.messages)
