"""The WGMMA shape and type lattice of sm_90a (`wgmma.mma_async`).

A warpgroup MMA computes `D = A * B (+ D)` on an `m64nNkK` tile. M is always 64 (four
warps of 16 rows); K is fixed by the input type; N steps by 8 for floating-point inputs and
more coarsely for integer and single-bit inputs. The accumulator type depends on the input
family. This table is what ptxas 13.5 accepts (see docs/fidelity.md for where it differs from
the reference notes and from upstream MLIR); the nvvm verifier and the WGMMA emitter both
query it through the functions below.

PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-shape
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class WgmmaType(StrEnum):
    """Element types of WGMMA operands, spelled as in PTX and in `#nvvm.wgmma_type`."""

    F16 = "f16"
    BF16 = "bf16"
    TF32 = "tf32"
    E4M3 = "e4m3"
    E5M2 = "e5m2"
    S8 = "s8"
    U8 = "u8"
    B1 = "b1"
    F32 = "f32"
    S32 = "s32"


M = 64
"""Every WGMMA instruction covers 64 rows of D: one warpgroup."""

INPUT_TYPES = (
    WgmmaType.F16,
    WgmmaType.BF16,
    WgmmaType.TF32,
    WgmmaType.E4M3,
    WgmmaType.E5M2,
    WgmmaType.S8,
    WgmmaType.U8,
    WgmmaType.B1,
)
ACCUMULATOR_TYPES = (WgmmaType.F32, WgmmaType.F16, WgmmaType.S32)

_K_BY_INPUT = {
    WgmmaType.F16: 16,
    WgmmaType.BF16: 16,
    WgmmaType.TF32: 8,
    WgmmaType.E4M3: 32,
    WgmmaType.E5M2: 32,
    WgmmaType.S8: 32,
    WgmmaType.U8: 32,
    WgmmaType.B1: 256,
}

FLOAT_N = tuple(range(8, 257, 8))
"""Legal N for f16, bf16, tf32, e4m3 and e5m2 inputs: every multiple of 8 up to 256."""

INTEGER_N = (8, 16, 24, *range(32, 257, 16))
"""Legal N for s8, u8 and b1 inputs: 8, 16, 24, then multiples of 16 up to 256."""

# The operand families: inputs that may be combined as A and B, and their accumulators.
_FAMILIES: tuple[tuple[frozenset[WgmmaType], tuple[WgmmaType, ...]], ...] = (
    (frozenset({WgmmaType.F16}), (WgmmaType.F32, WgmmaType.F16)),
    (frozenset({WgmmaType.BF16}), (WgmmaType.F32,)),
    (frozenset({WgmmaType.TF32}), (WgmmaType.F32,)),
    (frozenset({WgmmaType.E4M3, WgmmaType.E5M2}), (WgmmaType.F32, WgmmaType.F16)),
    (frozenset({WgmmaType.S8, WgmmaType.U8}), (WgmmaType.S32,)),
    (frozenset({WgmmaType.B1}), (WgmmaType.S32,)),
)


@dataclass(frozen=True)
class WgmmaShape:
    """One instruction shape, `m64nNkK`."""

    m: int
    n: int
    k: int

    @property
    def ptx(self) -> str:
        return f"m{self.m}n{self.n}k{self.k}"


def _family(type_a: WgmmaType) -> tuple[frozenset[WgmmaType], tuple[WgmmaType, ...]]:
    for inputs, accumulators in _FAMILIES:
        if type_a in inputs:
            return inputs, accumulators
    raise KeyError(f"{type_a} is not a WGMMA input type")


def is_input_type(type_: WgmmaType) -> bool:
    return type_ in _K_BY_INPUT


def k_for(type_a: WgmmaType) -> int:
    """The K of every WGMMA instruction whose A operand has this type."""
    return _K_BY_INPUT[type_a]


def legal_n(type_a: WgmmaType) -> tuple[int, ...]:
    """Every N that ptxas accepts for this input type, ascending."""
    if type_a in (WgmmaType.S8, WgmmaType.U8, WgmmaType.B1):
        return INTEGER_N
    return FLOAT_N


def accumulator_types(type_a: WgmmaType) -> tuple[WgmmaType, ...]:
    """The accumulator (D) types an A operand of this type may feed."""
    return _family(type_a)[1]


def partner_types(type_a: WgmmaType) -> frozenset[WgmmaType]:
    """The B types that may be multiplied with an A of this type."""
    return _family(type_a)[0]


def is_legal_combination(
    type_d: WgmmaType, type_a: WgmmaType, type_b: WgmmaType
) -> bool:
    """Whether `D(type_d) += A(type_a) * B(type_b)` is a WGMMA instruction."""
    if not is_input_type(type_a):
        return False
    return type_b in partner_types(type_a) and type_d in accumulator_types(type_a)


def supports_transpose(type_a: WgmmaType) -> bool:
    """Only 16-bit floating-point operands may be read transposed (column-major A)."""
    return type_a in (WgmmaType.F16, WgmmaType.BF16)


def result_elements(n: int, type_d: WgmmaType) -> int:
    """Registers per thread holding D: N/2 for 32-bit accumulators, N/4 for packed f16."""
    if type_d == WgmmaType.F16:
        return n // 4
    return n // 2


def shapes_for(type_a: WgmmaType) -> tuple[WgmmaShape, ...]:
    """Every legal instruction shape for this input type, by ascending N."""
    return tuple(WgmmaShape(M, n, k_for(type_a)) for n in legal_n(type_a))


def is_legal_shape(type_a: WgmmaType, m: int, n: int, k: int) -> bool:
    return m == M and k == k_for(type_a) and n in legal_n(type_a)


def largest_n(type_a: WgmmaType, at_most: int) -> int | None:
    """The largest legal N not above `at_most` (for tiling a wider matmul), if any."""
    candidates = [n for n in legal_n(type_a) if n <= at_most]
    return candidates[-1] if candidates else None


def ptx_mnemonic(
    shape: WgmmaShape,
    type_d: WgmmaType,
    type_a: WgmmaType,
    type_b: WgmmaType,
    satfinite: bool = False,
) -> str:
    """`wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16` (plus `.satfinite`)."""
    mnemonic = f"wgmma.mma_async.sync.aligned.{shape.ptx}.{type_d}.{type_a}.{type_b}"
    return mnemonic + ".satfinite" if satfinite else mnemonic
