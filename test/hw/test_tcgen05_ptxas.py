"""Every tcgen05 rule of `hw.tcgen05`, probed against the real ptxas 13.5.

Each case generates one small sm_100-family kernel holding the instruction the rule is about
and assembles it. The test checks ptxas's verdict and first message, and that `hw.tcgen05`
agrees on the verdict. `seed` says what reference note 004 (cicc's rules) would answer;
where it differs from ptxas, docs/fidelity.md ("tcgen05 rules") has the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tileas_py.hw import tcgen05
from tileas_py.hw.arch import Arch
from tileas_py.hw.tcgen05 import (
    BlockScaleAlias,
    Collector,
    Kind,
    ScaleVecSize,
    Tcgen05Mma,
)
from tileas_py.ptx.toolchain import run_ptxas

KERNEL = """.version {version}
.target {target}
.address_size 64
.visible .entry probe()
{{
  .reg .b32 %d, %a, %idesc, %meta, %sfa, %sfb, %taddr, %bar, %m32;
  .reg .b64 %adesc, %bdesc, %sdesc, %m64;
  .reg .b16 %m16;
  .reg .pred %enable;
  .shared .align 8 .b64 slot;
  mov.u32 %d, 0;
  mov.u32 %a, 0;
  mov.u32 %idesc, 0;
  mov.u32 %meta, 0;
  mov.u32 %sfa, 0;
  mov.u32 %sfb, 0;
  mov.u32 %taddr, 0;
  mov.u32 %bar, slot;
  mov.u32 %m32, 3;
  mov.u64 %adesc, 0;
  mov.u64 %bdesc, 0;
  mov.u64 %sdesc, 0;
  mov.u64 %m64, 3;
  mov.u16 %m16, 3;
  setp.ne.u32 %enable, %d, 0;
  {body}
  ret;
}}
"""

_PREFIX = re.compile(r"^ptxas (?:\S+, line \d+; )?(?:error|fatal)\s*: ")


def assemble(tmp_path: Path, body: str, target: str, version: str) -> list[str]:
    """ptxas's error lines for the kernel (without the file and line), [] if it assembles."""
    source = tmp_path / "probe.ptx"
    source.write_text(KERNEL.format(version=version, target=target, body=body))
    result = run_ptxas(source, arch=target)
    if result.ok:
        return []
    return [
        _PREFIX.sub("", line)
        for line in result.messages
        if "Ptx assembly aborted" not in line
    ]


@dataclass(frozen=True)
class MmaProbe:
    rule: str
    mma: Tcgen05Mma
    target: str
    ptxas: str | None
    """ptxas's first message, None when it assembles the kernel."""
    seed: bool
    """Whether reference note 004's rules accept it."""
    version: str = "8.8"


F16 = Tcgen05Mma(Kind.F16)

MMA_PROBES = [
    MmaProbe("target gate: sm_100a", F16, "sm_100a", None, seed=True),
    MmaProbe("target gate: sm_100f", F16, "sm_100f", None, seed=True),
    MmaProbe("target gate: sm_103a", F16, "sm_103a", None, seed=True),
    MmaProbe("target gate: sm_103f", F16, "sm_103f", None, seed=True),
    MmaProbe("target gate: sm_110a", F16, "sm_110a", None, seed=True, version="9.0"),
    MmaProbe("target gate: sm_110f", F16, "sm_110f", None, seed=True, version="9.0"),
    MmaProbe(
        "target gate: sm_120a",
        F16,
        "sm_120a",
        "Instruction 'tcgen05.mma' not supported on .target 'sm_120a'",
        seed=True,
        version="9.0",
    ),
    MmaProbe(
        "target gate: sm_100",
        F16,
        "sm_100",
        "Instruction 'tcgen05.mma' not supported on .target 'sm_100'",
        seed=False,
    ),
    MmaProbe(
        "target gate: sm_90a",
        F16,
        "sm_90a",
        "Instruction 'tcgen05.mma' not supported on .target 'sm_90a'",
        seed=False,
    ),
    MmaProbe(
        "PTX version: 8.5",
        F16,
        "sm_100a",
        "Feature 'tcgen05.mma' requires PTX ISA .version 8.6 or later",
        seed=True,
        version="8.5",
    ),
    MmaProbe("PTX version: 8.6", F16, "sm_100a", None, seed=True, version="8.6"),
    MmaProbe(
        "kind::i8 on a family target",
        Tcgen05Mma(Kind.I8),
        "sm_100f",
        "Feature '.kind::i8' not supported on .target 'sm_100f'",
        seed=False,
    ),
    MmaProbe(
        "kind::i8 on sm_103a",
        Tcgen05Mma(Kind.I8),
        "sm_103a",
        "Feature '.kind::i8' not supported on .target 'sm_103a'",
        seed=True,
    ),
    MmaProbe(
        "kind::i8 on sm_110a",
        Tcgen05Mma(Kind.I8),
        "sm_110a",
        None,
        seed=True,
        version="9.0",
    ),
    MmaProbe(
        "fp4 sparsity on a family target",
        Tcgen05Mma(Kind.MXF4, block_scale=True, sparse=True),
        "sm_100f",
        "Feature '.kind::mxf4 with .sp modifier' not supported on .target 'sm_100f'",
        seed=False,
    ),
    MmaProbe(
        "explicit scale vector on a family target",
        Tcgen05Mma(Kind.MXF8F6F4, block_scale=True, scale_vec_size=ScaleVecSize.X1),
        "sm_100f",
        "Feature '.scale_vec::1X' not supported on .target 'sm_100f'",
        seed=False,
    ),
    MmaProbe(
        "block alias on a family target",
        Tcgen05Mma(
            Kind.MXF4NVF4, block_scale=True, block_scale_alias=BlockScaleAlias.BLOCK16
        ),
        "sm_100f",
        None,
        seed=True,
    ),
    MmaProbe(
        "scale input: f16 on sm_100a",
        Tcgen05Mma(Kind.F16, scale_input_accumulator=True, scale_input=3),
        "sm_100a",
        None,
        seed=False,
    ),
    MmaProbe(
        "scale input: tf32 on sm_103a",
        Tcgen05Mma(Kind.TF32, scale_input_accumulator=True, scale_input=15),
        "sm_103a",
        None,
        seed=False,
    ),
    MmaProbe(
        "scale input: f16 on sm_100f",
        Tcgen05Mma(Kind.F16, scale_input_accumulator=True, scale_input=1),
        "sm_100f",
        None,
        seed=True,
    ),
    MmaProbe(
        "scale input: f16 on sm_110a",
        Tcgen05Mma(Kind.F16, scale_input_accumulator=True, scale_input=1),
        "sm_110a",
        "Feature 'argument scale-inp-d-imm' not supported on .target 'sm_110a'",
        seed=True,
        version="9.0",
    ),
    MmaProbe(
        "scale input: range",
        Tcgen05Mma(Kind.F16, scale_input_accumulator=True, scale_input=16),
        "sm_100a",
        "Argument 5 of instruction 'tcgen05.mma': value '16' out of range, expected "
        "to be in range [0..15]",
        seed=False,
    ),
    MmaProbe(
        "scale input: kind::f8f6f4",
        Tcgen05Mma(Kind.F8F6F4, scale_input_accumulator=True, scale_input=1),
        "sm_100a",
        "Illegal modifier '.kind::f8f6f4' for instruction 'tcgen05.mma' with "
        "'arg scale-inp-d-imm'",
        seed=False,
    ),
    MmaProbe(
        "scale input: kind::i8 (accepted and dropped)",
        Tcgen05Mma(Kind.I8, scale_input_accumulator=True, scale_input=16),
        "sm_100a",
        None,
        seed=False,
    ),
    MmaProbe(
        "block scale: kind::f16",
        Tcgen05Mma(Kind.F16, block_scale=True),
        "sm_100a",
        "Modifier '.kind::f16' cannot be combined with modifier '.block_scale'",
        seed=False,
    ),
    MmaProbe(
        "block scale: ashift",
        Tcgen05Mma(Kind.MXF4, block_scale=True, ashift=True),
        "sm_100a",
        "Illegal modifier '.ashift' for instruction 'tcgen05.mma'",
        seed=False,
    ),
    MmaProbe(
        "weight stationary: cta_group::2",
        Tcgen05Mma(Kind.F16, weight_stationary=True, cta_group=2),
        "sm_100a",
        "Illegal modifier '.cta_group::2' for instruction 'tcgen05.mma.ws'",
        seed=False,
    ),
    MmaProbe(
        "weight stationary: kind::mxf8f6f4",
        Tcgen05Mma(Kind.MXF8F6F4, weight_stationary=True),
        "sm_100a",
        "Illegal modifier '.kind::mxf8f6f4' for instruction 'tcgen05.mma.ws'",
        seed=False,
    ),
    MmaProbe(
        "weight stationary: kind::f16",
        Tcgen05Mma(Kind.F16, weight_stationary=True),
        "sm_100a",
        None,
        seed=True,
    ),
    MmaProbe(
        "ashift: collector::a::use",
        Tcgen05Mma(Kind.F16, ashift=True, collector=Collector.USE),
        "sm_100a",
        "Modifier '.collector::a::use' cannot be combined with modifier '.ashift'",
        seed=False,
    ),
    MmaProbe(
        "ashift: collector::a::lastuse",
        Tcgen05Mma(Kind.F16, ashift=True, collector=Collector.LASTUSE),
        "sm_100a",
        None,
        seed=True,
    ),
    MmaProbe(
        "ashift: A from shared memory",
        Tcgen05Mma(Kind.F16, ashift=True, a_in_tmem=False),
        "sm_100a",
        "Illegal modifier '.ashift' for instruction 'tcgen05.mma'",
        seed=True,
    ),
    MmaProbe(
        "scale vector: 2X with mxf8f6f4",
        Tcgen05Mma(Kind.MXF8F6F4, block_scale=True, scale_vec_size=ScaleVecSize.X2),
        "sm_100a",
        "Modifier '.kind::mxf8f6f4' cannot be combined with modifier '.scale_vec::2X'",
        seed=False,
    ),
    MmaProbe(
        "scale vector: 1X with mxf4nvf4",
        Tcgen05Mma(Kind.MXF4NVF4, block_scale=True, scale_vec_size=ScaleVecSize.X1),
        "sm_100a",
        "Modifier '.kind::mxf4nvf4' cannot be combined with modifier '.scale_vec::1X'",
        seed=False,
    ),
    MmaProbe(
        "scale vector: 4X with mxf4",
        Tcgen05Mma(Kind.MXF4, block_scale=True, scale_vec_size=ScaleVecSize.X4),
        "sm_100a",
        "Modifier '.kind::mxf4' cannot be combined with modifier '.scale_vec::4X'",
        seed=False,
    ),
    MmaProbe(
        "scale vector: 2X with mxf4",
        Tcgen05Mma(Kind.MXF4, block_scale=True, scale_vec_size=ScaleVecSize.X2),
        "sm_100a",
        None,
        seed=True,
    ),
    MmaProbe(
        "scale vector: mxf4nvf4 needs one",
        Tcgen05Mma(Kind.MXF4NVF4, block_scale=True),
        "sm_100a",
        "Modifier '.kind::mxf4nvf4' requires modifier '.scale_vectorsize' for "
        "instruction 'tcgen05.mma'",
        seed=True,
    ),
    MmaProbe(
        "block alias: block16 with mxf4",
        Tcgen05Mma(
            Kind.MXF4, block_scale=True, block_scale_alias=BlockScaleAlias.BLOCK16
        ),
        "sm_100a",
        "Modifier '.kind::mxf4' cannot be combined with modifier '.block16'",
        seed=True,
    ),
    MmaProbe(
        "block alias: PTX 8.7",
        Tcgen05Mma(
            Kind.MXF4, block_scale=True, block_scale_alias=BlockScaleAlias.BLOCK32
        ),
        "sm_100a",
        "Feature '.block32' requires PTX ISA .version 8.8 or later",
        seed=True,
        version="8.7",
    ),
]


def _arch(target: str) -> Arch:
    arch = Arch.parse(target)
    assert arch is not None
    return arch


@pytest.mark.parametrize("probe", MMA_PROBES, ids=[p.rule for p in MMA_PROBES])
def test_mma_rule_matches_ptxas(tmp_path: Path, probe: MmaProbe) -> None:
    body = tcgen05.mma_instruction(probe.mma)
    errors = assemble(tmp_path, body, probe.target, probe.version)
    version = tuple(int(v) for v in probe.version.split("."))
    assert len(version) == 2
    ours = tcgen05.check(probe.mma, _arch(probe.target), (version[0], version[1]))
    if probe.ptxas is None:
        assert errors == []
        assert ours == []
    else:
        assert errors[:1] == [probe.ptxas]
        assert ours != []


def test_the_seed_disagrees_where_the_table_says() -> None:
    """The cases marked `seed=False` that ptxas accepts, and the ones marked `seed=True`
    that it rejects, are the differences docs/fidelity.md lists."""
    accepted_against_seed = [p.rule for p in MMA_PROBES if not p.seed and not p.ptxas]
    rejected_against_seed = [p.rule for p in MMA_PROBES if p.seed and p.ptxas]
    assert accepted_against_seed == [
        "scale input: f16 on sm_100a",
        "scale input: tf32 on sm_103a",
        "scale input: kind::i8 (accepted and dropped)",
    ]
    assert rejected_against_seed == [
        "target gate: sm_120a",
        "PTX version: 8.5",
        "kind::i8 on sm_103a",
        "scale input: f16 on sm_110a",
        "ashift: A from shared memory",
        "scale vector: mxf4nvf4 needs one",
        "block alias: block16 with mxf4",
        "block alias: PTX 8.7",
    ]


def test_sm_101a_is_unknown(tmp_path: Path) -> None:
    errors = assemble(tmp_path, tcgen05.mma_instruction(F16), "sm_101a", "8.8")
    assert errors == ["Value 'sm_101a' is not defined for option 'gpu-name'"]
    assert not tcgen05.supports_tcgen05(_arch("sm_101a"))


def test_each_target_needs_its_first_ptx_version(tmp_path: Path) -> None:
    for arch, (major, minor) in tcgen05.TARGET_PTX_VERSION.items():
        body = tcgen05.mma_instruction(F16)
        assert assemble(tmp_path, body, str(arch), f"{major}.{minor}") == []
        earlier = f"{major}.{minor - 1}" if minor else f"{major - 1}.8"
        errors = assemble(tmp_path, body, str(arch), earlier)
        assert f"PTX .version {earlier} does not support .target {arch}" in errors


@pytest.mark.parametrize(
    ("mask_bits", "ptxas"),
    [
        (None, None),
        (16, None),
        (32, "Argument 1 of instruction 'tcgen05.commit': must be 16-bit size"),
        (64, "Arguments mismatch for instruction 'tcgen05.commit'"),
    ],
)
def test_commit_mask_size(
    tmp_path: Path, mask_bits: int | None, ptxas: str | None
) -> None:
    """Note 004: 16- and 32-bit masks; ptxas: 16 bits only."""
    body = tcgen05.commit_instruction(mask_bits=mask_bits)
    errors = assemble(tmp_path, body, "sm_100a", "8.8")
    assert errors[:1] == ([] if ptxas is None else [ptxas])
    assert (tcgen05.check_commit(mask_bits) == []) == (ptxas is None)
    assert tcgen05.SEED_COMMIT_MASK not in errors


@pytest.mark.parametrize(
    ("shape", "multicast", "formats", "ptxas"),
    [
        (".128x256b", "", (), None),
        (".4x256b", "", (), None),
        (".64x128b", ".warpx2::02_13", (), None),
        (".32x128b", ".warpx4", (), None),
        (
            ".64x128b",
            "",
            (),
            "Modifier '.warptype' require for instruction tcgen05.cp with shape "
            "'.64x128b'",
        ),
        (".128x256b", "", (".b8x16", ".b6x16_p32"), None),
        (".128x128b", "", (".b8x16", ".b4x16_p64"), None),
        (
            ".128x256b",
            "",
            (".b8x16",),
            "Unexpected number of 'format conversion' modifiers specified",
        ),
        (
            ".128x256b",
            "",
            (".b6x16_p32", ".b8x16"),
            "Illegal modifier '.b6x16_p32.b8x16' for instruction 'tcgen05.cp'",
        ),
        (
            ".128x256b",
            "",
            (".b8x16", ".b8x16"),
            "Illegal modifier '.b8x16.b8x16' for instruction 'tcgen05.cp'",
        ),
    ],
)
def test_cp_formats_and_multicasts(
    tmp_path: Path,
    shape: str,
    multicast: str,
    formats: tuple[str, ...],
    ptxas: str | None,
) -> None:
    """Note 004's "Unsupported tcgen05.cp destination format" never comes from ptxas."""
    body = tcgen05.cp_instruction(shape, multicast, formats)
    errors = assemble(tmp_path, body, "sm_100a", "8.8")
    assert errors[:1] == ([] if ptxas is None else [ptxas])
    assert tcgen05.check_cp(shape, multicast, formats)[:1] == errors[:1]
    assert tcgen05.SEED_CP_FORMAT not in errors


@pytest.mark.parametrize("columns", [32, 512, 48, 96, 1024, 16, 0])
def test_alloc_columns(tmp_path: Path, columns: int) -> None:
    for op, body in (
        (
            "alloc",
            f"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], {columns};",
        ),
        (
            "dealloc",
            f"tcgen05.dealloc.cta_group::1.sync.aligned.b32 %taddr, {columns};",
        ),
    ):
        errors = assemble(tmp_path, body, "sm_100a", "8.8")
        assert errors == tcgen05.check_alloc_columns(columns, op)


def test_scaled_mma_operand_strings(tmp_path: Path) -> None:
    """Note 004's tcgen05 "scaled MMA operand builder" prints scale-d, negate and transpose
    operands ("1", "-1", "0"): that is wgmma's operand list. ptxas rejects them on
    tcgen05.mma, where negation and transposes are instruction-descriptor bits."""
    tcgen05_form = "tcgen05.mma.cta_group::1.kind::f16 [%d], %adesc, %bdesc, %idesc, %enable, 1, -1, 1, 0, 0;"
    assert assemble(tmp_path, tcgen05_form, "sm_100a", "8.8") == [
        "Arguments mismatch for instruction 'tcgen05.mma'"
    ]
    accumulator = ", ".join(f"%f{i}" for i in range(4))
    wgmma_form = (
        ".reg .f32 %f<4>;\n  wgmma.fence.sync.aligned;\n"
        f"  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{{accumulator}}}, "
        "%adesc, %bdesc, %enable, -1, 1, 0, 0;"
    )
    assert assemble(tmp_path, wgmma_form, "sm_90a", "8.0") == []


@pytest.mark.parametrize("n", [8, 24, 40, 200, 256])
def test_wgmma_n_need_not_be_a_power_of_two(tmp_path: Path, n: int) -> None:
    """Note 004's WGMMA builtins: "N only supported for powers of two" and a grid of N in
    16, 32, 64, 128. ptxas takes every multiple of 8 up to 256 for f16 (`hw.wgmma`)."""
    from tileas_py.hw.wgmma import FLOAT_N

    accumulator = ", ".join(f"%f{i}" for i in range(n // 2))
    body = (
        f".reg .f32 %f<{n // 2}>;\n  wgmma.fence.sync.aligned;\n"
        f"  wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16 {{{accumulator}}}, "
        "%adesc, %bdesc, %enable, 1, 1, 0, 0;"
    )
    assert assemble(tmp_path, body, "sm_90a", "8.0") == []
    assert n in FLOAT_N
