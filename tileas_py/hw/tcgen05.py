"""tcgen05.mma (sm_100 Blackwell): cicc's validation rules, as data and a checker.

cicc checks each `tcgen05.mma` against the target before printing it (reference note 004,
"tcgen05.mma Validation Errors"); `check` reproduces those checks and their exact texts,
including cicc's own spelling "colletor". The kinds, scale-vector sizes and collector modes
keep cicc's packed-operand values.

PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-mma-instructions-mma
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from tileas_py.hw.arch import Arch


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


class BlockScaleAlias(IntEnum):
    """`.block16` / `.block32` (bits 10:9)."""

    BLOCK16 = 0
    BLOCK32 = 1


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
MIN_SM = 100

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


@dataclass(frozen=True)
class Tcgen05Mma:
    """The features of one `tcgen05.mma` that cicc validates."""

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


def supports_tcgen05(arch: Arch) -> bool:
    """tcgen05 needs an arch- or family-conditional target of SM 100 or later."""
    return arch.version >= MIN_SM and (
        arch.is_arch_conditional or arch.is_family_conditional
    )


def scale_input_supported_on(arch: Arch) -> bool:
    """cicc rejects the scale-input accumulator on sm_100a and sm_103a only."""
    return not (arch.is_arch_conditional and arch.version in (100, 103))


def check(mma: Tcgen05Mma, arch: Arch) -> list[str]:
    """Every cicc error for this `tcgen05.mma` on `arch`, in cicc's order; empty if legal."""
    if not supports_tcgen05(arch):
        return [ARCH_GATE]
    errors: list[str] = []
    family_only = arch.is_family_conditional
    if family_only and mma.kind is Kind.I8:
        errors.append(INT8_ARCH_ONLY)
    if family_only and mma.sparse and mma.kind in FP4_KINDS:
        errors.append(FP4_SPARSITY_ARCH_ONLY)
    if family_only and mma.scale_vec_size is not ScaleVecSize.IMPLICIT:
        errors.append(SCALE_VEC_ARCH_ONLY)
    if mma.scale_input_accumulator:
        if mma.kind not in SCALE_INPUT_KINDS:
            errors.append(SCALE_INPUT_KIND)
        if not scale_input_supported_on(arch):
            errors.append(SCALE_INPUT_ARCH)
    if mma.block_scale or mma.block_scale_alias is not None:
        if mma.kind not in BLOCK_SCALE_KINDS:
            errors.append(BLOCK_SCALE_KIND)
        if mma.ashift:
            errors.append(ASHIFT_BLOCK_SCALE)
    if mma.weight_stationary:
        if mma.cta_group == 2:
            errors.append(WS_CTA_GROUP_2)
        if mma.kind is Kind.MXF8F6F4 or mma.kind in FP4_KINDS:
            errors.append(WS_KIND)
    if mma.ashift and mma.collector in (Collector.USE, Collector.FILL):
        errors.append(ASHIFT_COLLECTOR)
    errors.extend(_scale_vec_errors(mma))
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


def first_error(mma: Tcgen05Mma, arch: Arch) -> str | None:
    errors = check(mma, arch)
    return errors[0] if errors else None
