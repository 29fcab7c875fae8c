"""The tile dialects as a Python library: building ops, the atom and layout helpers."""

import pytest
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    TensorType,
    f16,
    f32,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import MemoryEffectKind, get_effects
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.cute_nvgpu import (
    S2T_SHAPES,
    FragKind,
    Major,
    S2tCopyAtomType,
    SM90MmaAtomType,
)
from tileas_py.dialects.nv_tileaa import ExtractOp
from tileas_py.dialects.nv_tileas import (
    AgentLikeOpInterface,
    AgentSwitchOp,
    AllocTensorOp,
    BlockedEncodingAttr,
    ConvertLayoutOp,
    CopyOp,
    CTALayoutAttr,
    DotOp,
    MmaEncodingAttr,
    SharedEncodingAttr,
    cta_of,
    with_cta,
)

ATOM = SM90MmaAtomType((64, 128, 16), (Major.K, Major.K), (f16, f16, f32))


def test_sm90_atom_fields_for_the_wgmma_emitter() -> None:
    assert ATOM.shape == (64, 128, 16)
    assert ATOM.family == "f16"
    assert isinstance(ATOM.a_type, Float16Type)
    assert isinstance(ATOM.acc_type, Float32Type)
    assert ATOM.frag_kind.data == FragKind.SS


def test_sm90_atom_rejects_illegal_k() -> None:
    with pytest.raises(VerifyException, match="requires K = 16, got 8"):
        SM90MmaAtomType((64, 128, 8), (Major.K, Major.K), (f16, f16, f32))


@pytest.mark.parametrize(
    ("shape", "width"),
    [
        ("128x256b", 1),
        ("64x128b.warpx2::02_13", 2),
        ("64x128b.warpx2::01_23", 2),
        ("32x128b.warpx4", 4),
        ("128x128b", 1),
        ("4x256b", 1),
    ],
)
def test_s2t_multicast_width(shape: str, width: int) -> None:
    assert shape in S2T_SHAPES
    assert S2tCopyAtomType(shape, 2).multicast_width == width


def test_cta_layout_expand_and_squeeze_are_inverse() -> None:
    cta = CTALayoutAttr([2, 1], [2, 1], [1, 0])
    expanded = cta.expand(0)
    assert expanded == CTALayoutAttr([1, 2, 1], [1, 2, 1], [2, 1, 0])
    assert expanded.squeeze(0) == cta
    assert cta.squeeze(0) is None  # CTAs are spread along dimension 0
    assert cta.num_ctas == 2


def test_cta_layout_fit_replicates_what_the_shape_cannot_split() -> None:
    cta = CTALayoutAttr([2, 4], [2, 4], [1, 0])
    assert cta.fit([128, 64]) is cta
    fitted = cta.fit([1, 2])
    assert fitted == CTALayoutAttr([2, 4], [1, 2], [1, 0])
    fitted.verify()


def test_with_cta_changes_only_the_cta_part() -> None:
    blocked = BlockedEncodingAttr([1, 8], [4, 8], [4, 1], [1, 0])
    tile = TensorType(f32, [128, 64], blocked)
    assert cta_of(tile) is None
    cta = CTALayoutAttr([2, 1], [2, 1], [1, 0])
    planned = with_cta(tile, cta)
    assert cta_of(planned) == cta
    assert with_cta(planned, None) == tile


def dot_operands(m: int, n: int, k: int) -> tuple[AllocTensorOp, ...]:
    a = AllocTensorOp(TensorType(f16, [m, k], SharedEncodingAttr(128, [1, 0])))
    b = AllocTensorOp(TensorType(f16, [k, n], SharedEncodingAttr(128, [0, 1])))
    c = AllocTensorOp(TensorType(f32, [m, n], MmaEncodingAttr([4, 1], [64, 128, 16])))
    return a, b, c


def test_dot_tile_counts() -> None:
    a, b, c = dot_operands(128, 256, 64)
    dot = DotOp(a, b, c, ATOM, wait_group=1)
    dot.verify()
    assert dot.tile_counts() == (2, 2, 4)
    assert dot.wait_group.value.data == 1
    assert dot.result.type == c.result.type


def test_dot_checks_operand_majorness() -> None:
    a, b, c = dot_operands(128, 128, 64)
    atom = SM90MmaAtomType((64, 128, 16), (Major.K, Major.MN), (f16, f16, f32))
    with pytest.raises(VerifyException, match="B is mn-major in the atom"):
        DotOp(a, b, c, atom).verify()


def effect_kinds(op: Operation) -> set[tuple[MemoryEffectKind, SSAValue | None]]:
    effects = get_effects(op)
    assert effects is not None
    return {
        (e.kind, e.value if isinstance(e.value, SSAValue) else None) for e in effects
    }


def test_memory_effects_follow_where_tiles_live() -> None:
    blocked = TensorType(f32, [64], BlockedEncodingAttr([1], [32], [4], [0]))
    shared = TensorType(f32, [64], SharedEncodingAttr(0, [0]))
    x, buf = AllocTensorOp(blocked), AllocTensorOp(shared)
    assert effect_kinds(buf) == {(MemoryEffectKind.ALLOC, buf.result)}
    to_regs = ConvertLayoutOp(buf, blocked)
    assert effect_kinds(to_regs) == {(MemoryEffectKind.READ, buf.result)}
    to_smem = ConvertLayoutOp(x, shared)
    assert effect_kinds(to_smem) == {(MemoryEffectKind.ALLOC, to_smem.result)}
    assert effect_kinds(ConvertLayoutOp(x, blocked)) == set()
    copy = CopyOp(x, buf)
    assert effect_kinds(copy) == {(MemoryEffectKind.WRITE, buf.result)}
    smem_copy = CopyOp(buf, to_smem)
    assert effect_kinds(smem_copy) == {
        (MemoryEffectKind.READ, buf.result),
        (MemoryEffectKind.WRITE, to_smem.result),
    }
    assert effect_kinds(ExtractOp(buf, [])) == {(MemoryEffectKind.READ, buf.result)}
    assert effect_kinds(ExtractOp(x, [])) == set()
    a, b, c = dot_operands(128, 128, 64)
    assert effect_kinds(DotOp(a, b, c, ATOM)) == {
        (MemoryEffectKind.READ, a.result),
        (MemoryEffectKind.READ, b.result),
    }


def test_agent_switch_implements_the_agent_interface() -> None:
    agents = [
        Region(Block([xdsl_test.TestOp()])),
        Region(),
        Region(Block([xdsl_test.TestOp()])),
    ]
    switch = AgentSwitchOp([1, 1, 4], [0, 1, 4], [1, 3, 1], agents)
    switch.verify()
    assert isinstance(switch, AgentLikeOpInterface)
    assert [switch.get_declared_num_warps(i) for i in range(3)] == [1, 1, 4]
    assert switch.get_agent_stride(1) == 3
