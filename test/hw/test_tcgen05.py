"""The tcgen05.mma rules (ptxas 13.5's verdicts, cicc's texts where cicc has the rule).

`test_tcgen05_ptxas.py` probes each rule against ptxas itself.
"""

import pytest

from tileas_py.hw import tcgen05
from tileas_py.hw.arch import Arch, ArchVariant
from tileas_py.hw.tcgen05 import (
    BlockScaleAlias,
    Collector,
    Kind,
    ScaleVecSize,
    Tcgen05Mma,
)

SM100A = Arch(100, ArchVariant.ARCH_CONDITIONAL)
SM100F = Arch(100, ArchVariant.FAMILY_CONDITIONAL)
SM103A = Arch(103, ArchVariant.ARCH_CONDITIONAL)
SM110A = Arch(110, ArchVariant.ARCH_CONDITIONAL)
SM120A = Arch(120, ArchVariant.ARCH_CONDITIONAL)


def test_arch_parsing() -> None:
    assert Arch.parse("sm_90a") == Arch(90, ArchVariant.ARCH_CONDITIONAL)
    assert Arch.parse("sm_100f") == SM100F
    assert Arch.parse("sm_80") == Arch(80)
    assert Arch.parse("gfx90a") is None
    assert str(SM103A) == "sm_103a"


def test_legal_mma_has_no_errors() -> None:
    assert tcgen05.check(Tcgen05Mma(Kind.F16), SM100A) == []
    assert tcgen05.first_error(Tcgen05Mma(Kind.F16), SM100A) is None
    assert tcgen05.check(Tcgen05Mma(Kind.I8), SM100A) == []


@pytest.mark.parametrize(
    "arch",
    [
        Arch(90, ArchVariant.ARCH_CONDITIONAL),
        Arch(100),
        SM120A,
        Arch(101, ArchVariant.ARCH_CONDITIONAL),
    ],
)
def test_arch_gate(arch: Arch) -> None:
    assert tcgen05.check(Tcgen05Mma(Kind.F16), arch) == [
        "tcgen05.mma supported only on arch-conditional or family-conditional "
        "variants from SM100 onwards."
    ]


@pytest.mark.parametrize(
    ("mma", "arch", "message"),
    [
        (
            Tcgen05Mma(Kind.I8),
            SM100F,
            "INT8 type is supported only on arch-conditional variants.",
        ),
        (
            Tcgen05Mma(Kind.MXF4, block_scale=True, sparse=True),
            SM100F,
            "MXF4 and MXF4NVF4 types with Sparsity are supported only on "
            "arch-conditional variants.",
        ),
        (
            Tcgen05Mma(Kind.MXF8F6F4, block_scale=True, scale_vec_size=ScaleVecSize.X1),
            SM100F,
            "Explicit scale vector size is supported only on arch-conditional variants.",
        ),
        (
            Tcgen05Mma(Kind.F8F6F4, scale_input_accumulator=True),
            Arch(100),
            "tcgen05.mma supported only on arch-conditional or family-conditional "
            "variants from SM100 onwards.",
        ),
        (
            Tcgen05Mma(Kind.F8F6F4, scale_input_accumulator=True),
            SM100F,
            "Scale input accumulator can only be used with f16 and tf32 types",
        ),
        (
            Tcgen05Mma(Kind.F16, scale_input_accumulator=True),
            SM110A,
            "Scale input accumulator is not supported on this architecture.",
        ),
        (
            Tcgen05Mma(Kind.TF32, block_scale_alias=BlockScaleAlias.BLOCK32),
            SM100A,
            "Block scale is not supported for f16, tf32, f8f6f4 and i8 types",
        ),
        (
            Tcgen05Mma(Kind.MXF4, block_scale=True, ashift=True),
            SM100A,
            "ashift is not supported with tcgen05.mma.block_scale variants",
        ),
        (
            Tcgen05Mma(Kind.F16, weight_stationary=True, cta_group=2),
            SM100A,
            "cta_group::2 is not supported with weight stationary",
        ),
        (
            Tcgen05Mma(Kind.MXF4NVF4, weight_stationary=True),
            SM100A,
            "Cannot use weight stationary with mxf8f6f4 and fp4 types",
        ),
        (
            Tcgen05Mma(Kind.F16, ashift=True, collector=Collector.FILL),
            SM100A,
            "Cannot use collector::a::use or colletor::a::fill with ashift",
        ),
        (
            Tcgen05Mma(Kind.MXF8F6F4, block_scale=True, scale_vec_size=ScaleVecSize.X4),
            SM100A,
            "Cannot use 2X or 4X as scale vector size for mxf8f6f4 type",
        ),
        (
            Tcgen05Mma(Kind.MXF4NVF4, block_scale=True, scale_vec_size=ScaleVecSize.X1),
            SM100A,
            "Cannot use 1X as scale vector size for mxf4nvf4 type",
        ),
        (
            Tcgen05Mma(Kind.MXF4, block_scale=True, scale_vec_size=ScaleVecSize.X4),
            SM100A,
            "Cannot use 1X or 4X as scale vector size for mxf4 type",
        ),
    ],
)
def test_each_rule_and_its_text(mma: Tcgen05Mma, arch: Arch, message: str) -> None:
    assert tcgen05.first_error(mma, arch) == message


def test_allowed_combinations_around_each_rule() -> None:
    assert (
        tcgen05.check(Tcgen05Mma(Kind.F16, scale_input_accumulator=True), SM100F) == []
    )
    assert (
        tcgen05.check(Tcgen05Mma(Kind.TF32, scale_input_accumulator=True), SM103A) == []
    )
    assert (
        tcgen05.check(Tcgen05Mma(Kind.I8, scale_input_accumulator=True), SM100A) == []
    )
    assert (
        tcgen05.check(
            Tcgen05Mma(Kind.F16, ashift=True, collector=Collector.LASTUSE), SM100A
        )
        == []
    )
    assert tcgen05.check(Tcgen05Mma(Kind.F16, weight_stationary=True), SM100A) == []
    assert (
        tcgen05.check(
            Tcgen05Mma(Kind.MXF4, block_scale=True, scale_vec_size=ScaleVecSize.X2),
            SM100A,
        )
        == []
    )
    assert (
        tcgen05.check(
            Tcgen05Mma(Kind.MXF4NVF4, block_scale=True, scale_vec_size=ScaleVecSize.X4),
            SM100A,
        )
        == []
    )
    assert (
        tcgen05.check(Tcgen05Mma(Kind.MXF4, block_scale=True, sparse=True), SM100A)
        == []
    )


def test_every_violation_is_reported_in_order() -> None:
    mma = Tcgen05Mma(
        Kind.MXF4,
        weight_stationary=True,
        cta_group=2,
        ashift=True,
        collector=Collector.USE,
    )
    assert tcgen05.check(mma, SM100A) == [
        "cta_group::2 is not supported with weight stationary",
        "Cannot use weight stationary with mxf8f6f4 and fp4 types",
        "Cannot use collector::a::use or colletor::a::fill with ashift",
    ]


def test_ptx_spellings() -> None:
    assert Kind.MXF8F6F4.ptx == ".kind::mxf8f6f4"
    assert Collector.LASTUSE.ptx == ".collector::a::lastuse"
    assert Collector.DISCARD.ptx == ""
