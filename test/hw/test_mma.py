"""cicc's packed MMA descriptor, its PTX builder and the mma.sync matrix."""

from pathlib import Path

import pytest

from tileas_py.hw import mma
from tileas_py.hw.mma import (
    B1Op,
    Layout,
    MmaDescriptor,
    MmaDescriptorError,
    MmaShape,
    MmaType,
    Rounding,
)
from tileas_py.ptx.toolchain import run_ptxas


def test_field_positions_follow_the_bit_layout() -> None:
    word = mma.pack(aty=MmaType.BF16, bty=MmaType.F16, shape=MmaShape.M16N8K16)
    assert word == (7 << 8) | (6 << 16) | (0x12 << 32)
    assert mma.query(word, "aty") == MmaType.BF16
    assert mma.query(word, "bty") == MmaType.F16
    assert mma.query(word, "shape") == 0x12
    assert mma.query(mma.pack(satf=1), "satf") == 1
    assert mma.pack(satf=1) == 1 << 28
    assert mma.pack(opc=2) == 2 << 4
    assert mma.pack(al=1, bl=1) == (1 << 24) | (1 << 26)


def test_overlapping_keys_share_bits() -> None:
    word = mma.pack(rowcol=1, mid=3)
    assert mma.query(word, "rnd") == 0b111
    assert mma.query(mma.pack(al=1, bl=1), "ety") == 0b0101
    assert mma.pack(rnd=1, rowcol=1) == 1
    with pytest.raises(MmaDescriptorError, match="disagrees"):
        mma.pack(rnd=2, rowcol=1)
    with pytest.raises(MmaDescriptorError, match="does not fit"):
        mma.pack(satf=2)


def test_descriptor_roundtrips_through_its_word() -> None:
    desc = MmaDescriptor(
        MmaShape.M16N8K256,
        MmaType.B1,
        MmaType.B1,
        b1_op=B1Op.XOR_POPC,
    )
    assert MmaDescriptor.decode(desc.encode()) == desc
    f64 = MmaDescriptor(MmaShape.M8N8K4, MmaType.F64, MmaType.F64, rounding=Rounding.RZ)
    assert MmaDescriptor.decode(f64.encode()) == f64


def test_wrong_element_type_is_the_fatal_error_text() -> None:
    word = mma.pack(aty=12, bty=MmaType.F16, shape=MmaShape.M16N8K8)
    with pytest.raises(MmaDescriptorError, match=r"^Wrong MMA element type$"):
        MmaDescriptor.decode(word)
    good = MmaDescriptor(MmaShape.M16N8K8, MmaType.F16, MmaType.F16).encode()
    with pytest.raises(MmaDescriptorError, match=r"^Wrong MMA element type$"):
        mma.mma_sync_ptx(good, MmaType.F32, d_type=0)


def test_unknown_shape_is_rejected() -> None:
    with pytest.raises(MmaDescriptorError, match="shape"):
        MmaDescriptor.decode(mma.pack(aty=6, bty=6, shape=0x7F))


def test_ptx_strings() -> None:
    bf16 = MmaDescriptor(MmaShape.M16N8K16, MmaType.BF16, MmaType.BF16)
    assert (
        mma.mma_sync_ptx(bf16.encode(), MmaType.F32)
        == "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
    )
    s8 = MmaDescriptor(MmaShape.M16N8K32, MmaType.S8, MmaType.U8, satfinite=True)
    assert (
        mma.mma_sync_ptx(s8.encode(), MmaType.S32)
        == "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32"
    )
    b1 = MmaDescriptor(MmaShape.M8N8K128, MmaType.B1, MmaType.B1, b1_op=B1Op.AND_POPC)
    assert mma.mma_sync_ptx(b1.encode(), MmaType.S32).endswith(
        ".s32.b1.b1.s32.and.popc"
    )
    f16 = MmaDescriptor(MmaShape.M8N8K4, MmaType.F16, MmaType.F16, a_layout=Layout.COL)
    assert (
        mma.mma_sync_ptx(f16.encode(), MmaType.F16, MmaType.F32)
        == "mma.sync.aligned.m8n8k4.col.col.f32.f16.f16.f16"
    )


def test_shape_enum_names() -> None:
    assert MmaShape.M16N8K256.mnk == (16, 8, 256)
    assert MmaShape.from_mnk(16, 8, 16) is MmaShape.M16N8K16
    assert MmaShape.from_mnk(16, 8, 12) is None
    assert MmaType.from_ptx("tf32") is MmaType.TF32
    assert MmaType.TF32.bits == 19


def test_matrix_queries() -> None:
    assert mma.min_sm(MmaShape.M16N8K16, MmaType.BF16, MmaType.BF16, MmaType.F32) == 80
    assert mma.min_sm(MmaShape.M16N8K8, MmaType.F16, MmaType.F16, MmaType.F16) == 75
    assert mma.min_sm(MmaShape.M16N8K4, MmaType.F64, MmaType.F64, MmaType.F64) == 90
    assert mma.min_sm(MmaShape.M16N8K16, MmaType.S8, MmaType.U8, MmaType.S32) == 80
    assert (
        mma.min_sm(MmaShape.M16N8K16, MmaType.BF16, MmaType.BF16, MmaType.F16) is None
    )
    assert mma.min_sm(MmaShape.M16N16K16, MmaType.F16, MmaType.F16, MmaType.F32) is None
    assert MmaShape.M16N8K256 in mma.shapes_for(MmaType.B1)


def _registers(desc: MmaDescriptor, c_type: MmaType) -> tuple[int, int, int]:
    m, n, k = desc.shape.mnk
    if desc.shape is MmaShape.M8N8K4 and desc.a_type is MmaType.F16:
        return 2, 2, 8 if c_type is MmaType.F32 else 4
    if desc.a_type is MmaType.F64:
        return m * k // 32, k * n // 32, m * n // 32
    bits = 32 if desc.a_type is MmaType.TF32 else desc.a_type.bits
    c = m * n // 32 // (2 if c_type is MmaType.F16 else 1)
    return max(1, m * k * bits // 1024), max(1, k * n * bits // 1024), c


@pytest.mark.parametrize(
    ("shape", "a_type", "c_type", "arch"),
    [
        (MmaShape.M16N8K16, MmaType.BF16, MmaType.F32, "sm_80"),
        (MmaShape.M16N8K16, MmaType.BF16, MmaType.F32, "sm_75"),
        (MmaShape.M16N8K8, MmaType.F16, MmaType.F16, "sm_75"),
        (MmaShape.M16N8K4, MmaType.F64, MmaType.F64, "sm_89"),
        (MmaShape.M16N8K4, MmaType.F64, MmaType.F64, "sm_90"),
        (MmaShape.M16N8K64, MmaType.S4, MmaType.S32, "sm_80"),
        (MmaShape.M8N8K128, MmaType.B1, MmaType.S32, "sm_75"),
    ],
)
def test_ptxas_agrees_with_min_sm(
    tmp_path: Path, shape: MmaShape, a_type: MmaType, c_type: MmaType, arch: str
) -> None:
    b1_op = B1Op.XOR_POPC if a_type is MmaType.B1 else B1Op.DEFAULT
    desc = MmaDescriptor(shape, a_type, a_type, b1_op=b1_op)
    instruction = mma.mma_sync_ptx(desc.encode(), c_type)
    a, b, c = _registers(desc, c_type)
    ab = "f64" if a_type is MmaType.F64 else "b32"
    cd = {MmaType.F32: "f32", MmaType.F64: "f64"}.get(c_type, "b32")

    def regs(name: str, count: int) -> str:
        return ", ".join(f"%{name}{i}" for i in range(count))

    source = tmp_path / "k.ptx"
    source.write_text(
        f".version 8.7\n.target {arch}\n.address_size 64\n.visible .entry k() {{\n"
        f" .reg .{ab} %a<{a}>; .reg .{ab} %b<{b}>; .reg .{cd} %c<{c}>; .reg .{cd} %d<{c}>;\n"
        f" {instruction} {{{regs('d', c)}}}, {{{regs('a', a)}}}, {{{regs('b', b)}}},"
        f" {{{regs('c', c)}}};\n ret;\n}}\n"
    )
    expected_min = mma.min_sm(shape, a_type, a_type, c_type)
    assert expected_min is not None
    result = run_ptxas(source, arch=arch)
    assert result.ok == (int(arch[3:]) >= expected_min), result.messages
