"""tcgen05 (sm_100 Blackwell): which instructions ptxas 13.5 accepts, as data and a checker.

`check` says whether ptxas 13.5 assembles a `tcgen05.mma` for a target and PTX version, and
why not. The rules started as cicc's (reference note 004, "tcgen05.mma Validation Errors");
each one is probed against ptxas (`test/hw/test_tcgen05_ptxas.py`) and follows ptxas where
they differ (docs/fidelity.md, "tcgen05 rules"). A rule cicc has keeps cicc's exact text,
including cicc's own spelling "colletor"; a rule only ptxas has uses ptxas's text. The kinds,
scale-vector sizes and collector modes keep cicc's packed-operand values.

`mma_instruction`, `commit_instruction` and `cp_instruction` print the PTX of an instruction
with these features, the probes' form. `check_commit` and `check_cp` are ptxas's operand
rules for `tcgen05.commit` and `tcgen05.cp`, `check_alloc_columns` those of
`tcgen05.alloc` / `tcgen05.dealloc`.

PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-mma-instructions-mma
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from tileas_py.hw.arch import Arch, ArchVariant


class Kind(IntEnum):
    """`.kind::*` (bits 8:6 of cicc's packed operand)."""

    MXF4NVF4 = 0
    F8F6F4 = 1
    MXF8F6F4 = 2
    F16 = 3
    I8 = 4
    TF32 = 5
    MXF4 = 7

    @property
    def ptx(self) -> str:
        return f".kind::{self.name.lower()}"


class ScaleVecSize(IntEnum):
    """`.scale_vec::NX` (bits 3:2); 0 leaves the size implicit."""

    IMPLICIT = 0
    X1 = 1
    X2 = 2
    X4 = 3

    @property
    def ptx(self) -> str:
        return "" if self is ScaleVecSize.IMPLICIT else f".scale_vec::{self.name[1:]}X"


class BlockScaleAlias(IntEnum):
    """`.block16` / `.block32` (bits 10:9)."""

    BLOCK16 = 0
    BLOCK32 = 1

    @property
    def ptx(self) -> str:
        return f".{self.name.lower()}"


class Collector(IntEnum):
    """`.collector::a::*` modes; DISCARD prints no modifier."""

    DISCARD = 0
    LASTUSE = 1
    FILL = 2
    USE = 3

    @property
    def ptx(self) -> str:
        return (
            "" if self is Collector.DISCARD else f".collector::a::{self.name.lower()}"
        )


FP4_KINDS = frozenset({Kind.MXF4, Kind.MXF4NVF4})
BLOCK_SCALE_KINDS = frozenset({Kind.MXF8F6F4, Kind.MXF4, Kind.MXF4NVF4})
SCALE_INPUT_KINDS = frozenset({Kind.F16, Kind.TF32})
"""The kinds whose scale-input immediate scales D (ptxas also takes one on kind::i8, and
drops it: the SASS is the same)."""
MIN_SM = 100

TCGEN05_SMS = frozenset({100, 103, 110})
"""The SMs whose arch- and family-conditional targets have tcgen05 (ptxas 13.5)."""
INT8_SMS = frozenset({100, 110})
"""kind::i8 needs one of these, arch-conditional (ptxas rejects it on sm_103a)."""
SCALE_INPUT_SMS = frozenset({100, 103})
"""The scale-input immediate needs one of these (ptxas rejects it on sm_110a / sm_110f)."""
SCALE_INPUT_MAX = 15

MIN_PTX_VERSION = (8, 6)
"""Every tcgen05 instruction needs PTX ISA 8.6."""
BLOCK_ALIAS_PTX_VERSION = (8, 8)
"""`.block16` / `.block32` need PTX ISA 8.8."""
TARGET_PTX_VERSION: dict[Arch, tuple[int, int]] = {
    Arch(100, ArchVariant.ARCH_CONDITIONAL): (8, 6),
    Arch(100, ArchVariant.FAMILY_CONDITIONAL): (8, 8),
    Arch(103, ArchVariant.ARCH_CONDITIONAL): (8, 8),
    Arch(103, ArchVariant.FAMILY_CONDITIONAL): (8, 8),
    Arch(110, ArchVariant.ARCH_CONDITIONAL): (9, 0),
    Arch(110, ArchVariant.FAMILY_CONDITIONAL): (9, 0),
}
"""The first PTX ISA version each tcgen05 target exists in (`.version` x.y `.target` t)."""

ALLOC_COLUMNS = (32, 64, 128, 256, 512)
"""`nCols` of tcgen05.alloc / dealloc: a power of 2 from 32 to 512."""

# cicc's texts (reference note 004), kept where ptxas has the same rule.
ARCH_GATE = (
    "tcgen05.mma supported only on arch-conditional or family-conditional variants "
    "from SM100 onwards."
)
INT8_ARCH_ONLY = "INT8 type is supported only on arch-conditional variants."
FP4_SPARSITY_ARCH_ONLY = (
    "MXF4 and MXF4NVF4 types with Sparsity are supported only on arch-conditional "
    "variants."
)
SCALE_VEC_ARCH_ONLY = (
    "Explicit scale vector size is supported only on arch-conditional variants."
)
SCALE_INPUT_KIND = "Scale input accumulator can only be used with f16 and tf32 types"
SCALE_INPUT_ARCH = "Scale input accumulator is not supported on this architecture."
BLOCK_SCALE_KIND = "Block scale is not supported for f16, tf32, f8f6f4 and i8 types"
ASHIFT_BLOCK_SCALE = "ashift is not supported with tcgen05.mma.block_scale variants"
WS_CTA_GROUP_2 = "cta_group::2 is not supported with weight stationary"
WS_KIND = "Cannot use weight stationary with mxf8f6f4 and fp4 types"
ASHIFT_COLLECTOR = "Cannot use collector::a::use or colletor::a::fill with ashift"
SCALE_VEC_MXF8F6F4 = "Cannot use 2X or 4X as scale vector size for mxf8f6f4 type"
SCALE_VEC_MXF4NVF4 = "Cannot use 1X as scale vector size for mxf4nvf4 type"
SCALE_VEC_MXF4 = "Cannot use 1X or 4X as scale vector size for mxf4 type"
SEED_COMMIT_MASK = (
    "tcgen05.commit.* supports only 16-bit and 32-bit multicast mask size."
)
"""cicc's commit rule; ptxas takes a 16-bit mask only (`COMMIT_MASK`)."""
SEED_CP_FORMAT = "Unsupported tcgen05.cp destination format"
"""cicc's tcp rule; ptxas never prints it (`check_cp`)."""

# ptxas 13.5's texts, for the rules cicc does not have.
PTX_VERSION = "Feature 'tcgen05.{op}' requires PTX ISA .version 8.6 or later"
BLOCK_ALIAS_VERSION = "Feature '.{alias}' requires PTX ISA .version 8.8 or later"
INT8_TARGET = "Feature '.kind::i8' not supported on .target '{arch}'"
SCALE_INPUT_RANGE = (
    "Argument 5 of instruction 'tcgen05.mma': value '{value}' out of range, "
    "expected to be in range [0..15]"
)
MXF4NVF4_SCALE_VEC = (
    "Modifier '.kind::mxf4nvf4' requires modifier '.scale_vectorsize' for "
    "instruction 'tcgen05.mma'"
)
BLOCK_ALIAS_KIND = "Modifier '{kind}' cannot be combined with modifier '{alias}'"
ASHIFT_A_IN_TMEM = "Illegal modifier '.ashift' for instruction 'tcgen05.mma'"
COMMIT_MASK = "Argument 1 of instruction 'tcgen05.commit': must be 16-bit size"
CP_FORMAT_COUNT = "Unexpected number of 'format conversion' modifiers specified"
CP_FORMAT = "Illegal modifier '{formats}' for instruction 'tcgen05.cp'"
CP_WARPX = (
    "Modifier '.warptype' require for instruction tcgen05.cp with shape '{shape}'"
)
ALLOC_MULTIPLE = (
    "Argument 1 of instruction 'tcgen05.{op}': unexpected value '{n}', expected to be "
    "multiple of 32"
)
ALLOC_POWER = "Argument 1 of 'tcgen05.{op}' instruction: value must be power of 2"
ALLOC_POSITIVE = (
    "Argument 1 of instruction 'tcgen05.{op}' : value '{n}' expected to be a non-zero "
    "positive"
)
ALLOC_RANGE = (
    "Argument 1 of instruction 'tcgen05.{op}': value '{n}' out of range, expected to "
    "be in range [32..512]"
)


@dataclass(frozen=True)
class Tcgen05Mma:
    """The features of one `tcgen05.mma` that the rules look at."""

    kind: Kind
    cta_group: int = 1
    block_scale: bool = False
    block_scale_alias: BlockScaleAlias | None = None
    scale_vec_size: ScaleVecSize = ScaleVecSize.IMPLICIT
    weight_stationary: bool = False
    collector: Collector = Collector.DISCARD
    ashift: bool = False
    sparse: bool = False
    scale_input_accumulator: bool = False
    scale_input: int | None = None
    """The scale-input immediate, when known (range-checked)."""
    a_in_tmem: bool | None = None
    """Whether A is in tensor memory; None: as the features require (`.ashift` does)."""

    @property
    def a_tmem(self) -> bool:
        return self.ashift if self.a_in_tmem is None else self.a_in_tmem


def supports_tcgen05(arch: Arch) -> bool:
    """tcgen05 needs the arch- or family-conditional target of sm_100, sm_103 or sm_110."""
    return arch.version in TCGEN05_SMS and (
        arch.is_arch_conditional or arch.is_family_conditional
    )


def scale_input_supported_on(arch: Arch) -> bool:
    """ptxas takes the scale-input immediate on sm_100 and sm_103 (`a` and `f`) only."""
    return arch.version in SCALE_INPUT_SMS


def check(
    mma: Tcgen05Mma, arch: Arch, ptx_version: tuple[int, int] | None = None
) -> list[str]:
    """Every reason ptxas 13.5 rejects this `tcgen05.mma` on `arch` (and `.version`),
    cicc's text where cicc has the rule; empty if ptxas assembles it."""
    if not supports_tcgen05(arch):
        return [ARCH_GATE]
    errors: list[str] = []
    if ptx_version is not None and ptx_version < MIN_PTX_VERSION:
        errors.append(PTX_VERSION.format(op="mma"))
    family_only = arch.is_family_conditional
    if mma.kind is Kind.I8 and arch.version not in INT8_SMS:
        errors.append(INT8_TARGET.format(arch=arch))
    elif family_only and mma.kind is Kind.I8:
        errors.append(INT8_ARCH_ONLY)
    if family_only and mma.sparse and mma.kind in FP4_KINDS:
        errors.append(FP4_SPARSITY_ARCH_ONLY)
    if family_only and mma.scale_vec_size is not ScaleVecSize.IMPLICIT:
        errors.append(SCALE_VEC_ARCH_ONLY)
    errors.extend(_scale_input_errors(mma, arch))
    if mma.block_scale or mma.block_scale_alias is not None:
        errors.extend(_block_scale_errors(mma, ptx_version))
    if mma.weight_stationary:
        if mma.cta_group == 2:
            errors.append(WS_CTA_GROUP_2)
        if mma.kind is Kind.MXF8F6F4 or mma.kind in FP4_KINDS:
            errors.append(WS_KIND)
    if mma.ashift and not mma.a_tmem:
        errors.append(ASHIFT_A_IN_TMEM)
    if mma.ashift and mma.collector in (Collector.USE, Collector.FILL):
        errors.append(ASHIFT_COLLECTOR)
    errors.extend(_scale_vec_errors(mma))
    return errors


def _scale_input_errors(mma: Tcgen05Mma, arch: Arch) -> list[str]:
    if not mma.scale_input_accumulator:
        return []
    if mma.kind is Kind.I8:
        return []
    if mma.kind not in SCALE_INPUT_KINDS:
        return [SCALE_INPUT_KIND]
    errors: list[str] = []
    if not scale_input_supported_on(arch):
        errors.append(SCALE_INPUT_ARCH)
    value = mma.scale_input
    if value is not None and not 0 <= value <= SCALE_INPUT_MAX:
        errors.append(SCALE_INPUT_RANGE.format(value=value))
    return errors


def _block_scale_errors(
    mma: Tcgen05Mma, ptx_version: tuple[int, int] | None
) -> list[str]:
    if mma.kind not in BLOCK_SCALE_KINDS:
        return [BLOCK_SCALE_KIND]
    errors: list[str] = []
    if mma.ashift:
        errors.append(ASHIFT_BLOCK_SCALE)
    alias = mma.block_scale_alias
    if alias is not None:
        if ptx_version is not None and ptx_version < BLOCK_ALIAS_PTX_VERSION:
            errors.append(BLOCK_ALIAS_VERSION.format(alias=alias.name.lower()))
        if alias is BlockScaleAlias.BLOCK16 and mma.kind is not Kind.MXF4NVF4:
            errors.append(BLOCK_ALIAS_KIND.format(kind=mma.kind.ptx, alias=alias.ptx))
    elif mma.kind is Kind.MXF4NVF4 and mma.scale_vec_size is ScaleVecSize.IMPLICIT:
        errors.append(MXF4NVF4_SCALE_VEC)
    return errors


def _scale_vec_errors(mma: Tcgen05Mma) -> list[str]:
    size = mma.scale_vec_size
    if size is ScaleVecSize.IMPLICIT:
        return []
    if mma.kind is Kind.MXF8F6F4 and size in (ScaleVecSize.X2, ScaleVecSize.X4):
        return [SCALE_VEC_MXF8F6F4]
    if mma.kind is Kind.MXF4NVF4 and size is ScaleVecSize.X1:
        return [SCALE_VEC_MXF4NVF4]
    if mma.kind is Kind.MXF4 and size in (ScaleVecSize.X1, ScaleVecSize.X4):
        return [SCALE_VEC_MXF4]
    return []


def first_error(
    mma: Tcgen05Mma, arch: Arch, ptx_version: tuple[int, int] | None = None
) -> str | None:
    errors = check(mma, arch, ptx_version)
    return errors[0] if errors else None


def mma_instruction(mma: Tcgen05Mma) -> str:
    """The PTX of a `tcgen05.mma` with these features, on registers named after their
    operands (`%d`, `%adesc`, `%a` for A in tensor memory, `%bdesc`, `%idesc`, `%enable`,
    `%meta`, `%sfa`, `%sfb`)."""
    name = "tcgen05.mma"
    if mma.weight_stationary:
        name += ".ws"
    if mma.sparse:
        name += ".sp"
    name += f".cta_group::{mma.cta_group}{mma.kind.ptx}"
    scaled = mma.block_scale or mma.block_scale_alias is not None
    if scaled:
        name += ".block_scale"
    name += mma.scale_vec_size.ptx
    if mma.block_scale_alias is not None:
        name += mma.block_scale_alias.ptx
    if mma.ashift:
        name += ".ashift"
    name += mma.collector.ptx
    operands = ["[%d]", "[%a]" if mma.a_tmem else "%adesc", "%bdesc"]
    if mma.sparse:
        operands.append("[%meta]")
    operands.append("%idesc")
    if scaled:
        operands += ["[%sfa]", "[%sfb]"]
    operands.append("%enable")
    if mma.scale_input_accumulator:
        operands.append(str(mma.scale_input if mma.scale_input is not None else 0))
    return f"{name} {', '.join(operands)};"


# -- tcgen05.commit, tcgen05.cp, tcgen05.alloc --------------------------------------------------


def check_commit(mask_bits: int | None) -> list[str]:
    """ptxas's rule for the multicast mask of `tcgen05.commit...multicast::cluster`: a
    16-bit register or an immediate (`mask_bits` None)."""
    if mask_bits is None or mask_bits == 16:
        return []
    return [COMMIT_MASK]


def commit_instruction(cta_group: int = 1, mask_bits: int | None = None) -> str:
    """A `tcgen05.commit` to the mbarrier `[%bar]`, with a multicast mask register of
    `mask_bits` bits (`%m16`, `%m32`, `%m64`), or none."""
    if mask_bits is None:
        return (
            f"tcgen05.commit.cta_group::{cta_group}.mbarrier::arrive::one.b64 [%bar];"
        )
    return (
        f"tcgen05.commit.cta_group::{cta_group}.mbarrier::arrive::one.shared::cluster"
        f".multicast::cluster.b64 [%bar], %m{mask_bits};"
    )


CP_SHAPES = (".128x256b", ".4x256b", ".128x128b", ".64x128b", ".32x128b")
CP_MULTICASTS = {
    ".64x128b": (".warpx2::02_13", ".warpx2::01_23"),
    ".32x128b": (".warpx4",),
}
"""The shapes that need a multicast, and the ones each takes."""
CP_FORMATS = (".b8x16.b6x16_p32", ".b8x16.b4x16_p64")
"""The decompressing forms (destination format, then source format)."""


def check_cp(
    shape: str, multicast: str = "", formats: tuple[str, ...] = ()
) -> list[str]:
    """ptxas's rules for the shape, multicast and format modifiers of `tcgen05.cp`."""
    errors: list[str] = []
    needs = CP_MULTICASTS.get(shape)
    if needs is not None and multicast not in needs:
        errors.append(CP_WARPX.format(shape=shape))
    if len(formats) == 1:
        errors.append(CP_FORMAT_COUNT)
    elif formats and "".join(formats) not in CP_FORMATS:
        errors.append(CP_FORMAT.format(formats="".join(formats)))
    return errors


def cp_instruction(
    shape: str, multicast: str = "", formats: tuple[str, ...] = (), cta_group: int = 1
) -> str:
    return (
        f"tcgen05.cp.cta_group::{cta_group}{shape}{multicast}{''.join(formats)} "
        "[%taddr], %sdesc;"
    )


def check_alloc_columns(n: int, op: str = "alloc") -> list[str]:
    """ptxas's rules for the immediate column count of `tcgen05.alloc` / `dealloc`."""
    if n <= 0:
        return [ALLOC_POSITIVE.format(op=op, n=n), ALLOC_RANGE.format(op=op, n=n)]
    errors: list[str] = []
    if n % 32:
        errors.append(ALLOC_MULTIPLE.format(op=op, n=n))
    if n & (n - 1):
        errors.append(ALLOC_POWER.format(op=op))
    if n > ALLOC_COLUMNS[-1] or n < ALLOC_COLUMNS[0]:
        errors.append(ALLOC_RANGE.format(op=op, n=n))
    return errors
