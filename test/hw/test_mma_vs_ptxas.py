"""Every rule of `tileas_py.hw.mma` against the real ptxas 13.5: one generated PTX probe
per rule, built with the model's own PTX builder (`mma_sync_ptx`).

- each row of `MATRIX`, for each pair of its input types, accumulator and single-bit
  operation: ptxas accepts the instruction on the row's minimum SM and rejects it on the
  newest SM below (ptxas 13 targets sm_75 and later, so a row of sm_7x has only its
  acceptance probe);
- each shape of the matrix with an input type it does not list: ptxas rejects it even
  on sm_90;
- the builder's modifiers: every rounding mode on f64, `.satfinite` on 4- and 8-bit
  integers, and neither where ptxas refuses them (the builder leaves them out, and the
  instruction with them is rejected);
- the layouts: any on the f16 m8n8k4, only `row.col` elsewhere.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

import pytest

from tileas_py.hw import mma
from tileas_py.hw.mma import B1Op, Layout, MmaDescriptor, MmaShape, MmaType, Rounding
from tileas_py.ptx.toolchain import run_ptxas

ARCHS = (75, 80, 86, 87, 89, 90)
"""The SMs ptxas 13.5 assembles `mma.sync` for, oldest first."""


@dataclass(frozen=True)
class Probe:
    """One `mma.sync` instruction, the SM to assemble it for and ptxas's expected verdict."""

    desc: MmaDescriptor
    accumulator: MmaType
    sm: int
    accepted: bool
    instruction: str = ""

    @property
    def text(self) -> str:
        return self.instruction or mma.mma_sync_ptx(
            self.desc.encode(), self.accumulator
        )

    @property
    def id(self) -> str:
        verdict = "ok" if self.accepted else "rejected"
        return f"{self.text.removeprefix('mma.sync.aligned.')}-sm_{self.sm}-{verdict}"


def _fragment_registers(
    desc: MmaDescriptor, accumulator: MmaType
) -> tuple[int, int, int]:
    """How many registers A, B and C/D take in each thread."""
    m, n, k = desc.shape.mnk
    if desc.shape is MmaShape.M8N8K4 and desc.a_type is MmaType.F16:
        return 2, 2, 8 if accumulator is MmaType.F32 else 4
    if desc.a_type is MmaType.F64:
        return m * k // 32, k * n // 32, m * n // 32
    bits = 32 if desc.a_type is MmaType.TF32 else desc.a_type.bits
    c = m * n // 32 // (2 if accumulator is MmaType.F16 else 1)
    return max(1, m * k * bits // 1024), max(1, k * n * bits // 1024), c


def ptx_source(probe: Probe) -> str:
    a, b, c = _fragment_registers(probe.desc, probe.accumulator)
    ab = "f64" if probe.desc.a_type is MmaType.F64 else "b32"
    cd = {MmaType.F32: "f32", MmaType.F64: "f64"}.get(probe.accumulator, "b32")

    def regs(name: str, count: int) -> str:
        return ", ".join(f"%{name}{i}" for i in range(count))

    return (
        f".version 8.7\n.target sm_{probe.sm}\n.address_size 64\n"
        ".visible .entry k() {\n"
        f" .reg .{ab} %a<{a}>; .reg .{ab} %b<{b}>; .reg .{cd} %c<{c}>; .reg .{cd} %d<{c}>;\n"
        f" {probe.text} {{{regs('d', c)}}}, {{{regs('a', a)}}}, {{{regs('b', b)}}},"
        f" {{{regs('c', c)}}};\n ret;\n}}\n"
    )


def _matrix_probes() -> list[Probe]:
    probes: list[Probe] = []
    for variant in mma.MATRIX:
        inputs = sorted(variant.inputs)
        b1_ops = sorted(variant.b1_ops) or [B1Op.DEFAULT]
        for (a, b), accumulator, b1_op in itertools.product(
            itertools.product(inputs, inputs), sorted(variant.accumulators), b1_ops
        ):
            desc = MmaDescriptor(variant.shape, a, b, b1_op=b1_op)
            oldest = max(variant.min_sm, ARCHS[0])
            probes.append(Probe(desc, accumulator, oldest, accepted=True))
            older = [sm for sm in ARCHS if sm < variant.min_sm]
            if older:
                probes.append(Probe(desc, accumulator, older[-1], accepted=False))
    return probes


_NATURAL_ACCUMULATOR = {
    MmaType.F16: MmaType.F32,
    MmaType.BF16: MmaType.F32,
    MmaType.TF32: MmaType.F32,
    MmaType.F64: MmaType.F64,
    MmaType.S8: MmaType.S32,
    MmaType.S4: MmaType.S32,
    MmaType.B1: MmaType.S32,
}


def _unlisted_probes() -> list[Probe]:
    """Each shape of the matrix with each input family it does not list."""
    probes: list[Probe] = []
    for shape in sorted({v.shape for v in mma.MATRIX}):
        for a_type, accumulator in _NATURAL_ACCUMULATOR.items():
            if mma.find_variant(shape, a_type, a_type, accumulator) is not None:
                continue
            b1_op = B1Op.XOR_POPC if a_type is MmaType.B1 else B1Op.DEFAULT
            desc = MmaDescriptor(shape, a_type, a_type, b1_op=b1_op)
            probes.append(Probe(desc, accumulator, 90, accepted=False))
    return probes


_F64 = MmaDescriptor(MmaShape.M8N8K4, MmaType.F64, MmaType.F64)
_F16 = MmaDescriptor(MmaShape.M16N8K16, MmaType.F16, MmaType.F16)
_S8 = MmaDescriptor(MmaShape.M16N8K32, MmaType.S8, MmaType.U8)
_B1 = MmaDescriptor(MmaShape.M16N8K256, MmaType.B1, MmaType.B1, b1_op=B1Op.AND_POPC)


def _modifier_probes() -> list[Probe]:
    def replace(desc: MmaDescriptor, **fields: object) -> MmaDescriptor:
        return MmaDescriptor(**{**desc.__dict__, **fields})  # pyright: ignore[reportArgumentType]

    probes = [
        Probe(replace(_F64, rounding=r), MmaType.F64, 80, accepted=True)
        for r in (Rounding.RN, Rounding.RZ, Rounding.RM, Rounding.RP)
    ]
    probes.append(Probe(replace(_S8, satfinite=True), MmaType.S32, 80, accepted=True))
    # The builder leaves out what ptxas refuses...
    probes.append(Probe(replace(_F16, rounding=Rounding.RZ), MmaType.F32, 80, True))
    probes.append(Probe(replace(_B1, satfinite=True), MmaType.S32, 80, True))
    # ...because ptxas rejects the instruction with it.
    probes.append(
        Probe(
            _F16,
            MmaType.F32,
            80,
            accepted=False,
            instruction="mma.sync.aligned.m16n8k16.row.col.rz.f32.f16.f16.f32",
        )
    )
    probes.append(
        Probe(
            _B1,
            MmaType.S32,
            80,
            accepted=False,
            instruction="mma.sync.aligned.m16n8k256.row.col.satfinite.s32.b1.b1.s32.and.popc",
        )
    )
    return probes


def _layout_probes() -> list[Probe]:
    probes: list[Probe] = []
    for a_layout, b_layout in itertools.product(Layout, Layout):
        f16 = MmaDescriptor(
            MmaShape.M8N8K4,
            MmaType.F16,
            MmaType.F16,
            a_layout=a_layout,
            b_layout=b_layout,
        )
        probes.append(Probe(f16, MmaType.F32, 75, accepted=True))
        other = MmaDescriptor(
            MmaShape.M16N8K16,
            MmaType.F16,
            MmaType.F16,
            a_layout=a_layout,
            b_layout=b_layout,
        )
        row_col = (a_layout, b_layout) == (Layout.ROW, Layout.COL)
        probes.append(Probe(other, MmaType.F32, 80, accepted=row_col))
    return probes


PROBES = _matrix_probes() + _unlisted_probes() + _modifier_probes() + _layout_probes()


def test_the_builder_leaves_out_what_ptxas_refuses() -> None:
    f16 = MmaDescriptor(
        MmaShape.M16N8K16, MmaType.F16, MmaType.F16, rounding=Rounding.RZ
    )
    assert ".rz." not in mma.mma_sync_ptx(f16.encode(), MmaType.F32)
    b1 = MmaDescriptor(
        MmaShape.M8N8K128, MmaType.B1, MmaType.B1, satfinite=True, b1_op=B1Op.XOR_POPC
    )
    assert "satfinite" not in mma.mma_sync_ptx(b1.encode(), MmaType.S32)
    f64 = MmaDescriptor(MmaShape.M8N8K4, MmaType.F64, MmaType.F64, rounding=Rounding.RM)
    assert ".rm." in mma.mma_sync_ptx(f64.encode(), MmaType.F64)


def test_and_popc_needs_sm_80_on_m8n8k128() -> None:
    shape, b1 = MmaShape.M8N8K128, MmaType.B1
    assert mma.min_sm(shape, b1, b1, MmaType.S32, B1Op.XOR_POPC) == 75
    assert mma.min_sm(shape, b1, b1, MmaType.S32, B1Op.AND_POPC) == 80


def test_every_matrix_row_has_probes() -> None:
    probed = {(p.desc.shape, p.desc.a_type) for p in PROBES if p.accepted}
    for variant in mma.MATRIX:
        assert all((variant.shape, t) in probed for t in variant.inputs)


@pytest.mark.parametrize("probe", PROBES, ids=[p.id for p in PROBES])
def test_ptxas_agrees(tmp_path: Path, probe: Probe) -> None:
    source = tmp_path / "probe.ptx"
    source.write_text(ptx_source(probe))
    result = run_ptxas(source, arch=f"sm_{probe.sm}")
    assert result.ok == probe.accepted, (probe.text, result.messages)
