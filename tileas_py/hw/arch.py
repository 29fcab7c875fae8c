"""NVIDIA SM targets as PTX and `#nvvm.target` spell them: `sm_90`, `sm_90a`, `sm_100f`.

A plain target (`sm_90`) runs on that SM and every later one. The `a` suffix (arch-conditional,
"architecture-accelerated") unlocks features of exactly that SM, such as WGMMA on sm_90a or
tcgen05 on sm_100a; code for it runs on no other SM. The `f` suffix (family-conditional, from
sm_100 on) unlocks the features shared by an SM family.

PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#ptx-module-directives-target
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class ArchVariant(StrEnum):
    PLAIN = ""
    ARCH_CONDITIONAL = "a"
    FAMILY_CONDITIONAL = "f"


_CHIP = re.compile(r"sm_(\d+)([af]?)")


@dataclass(frozen=True)
class Arch:
    """An SM version and its variant: `Arch(90, ArchVariant.ARCH_CONDITIONAL)` is sm_90a."""

    version: int
    variant: ArchVariant = ArchVariant.PLAIN

    @classmethod
    def parse(cls, chip: str) -> Arch | None:
        """`sm_90a` -> Arch(90, 'a'); None for anything that is not an SM chip name."""
        match = _CHIP.fullmatch(chip)
        if match is None:
            return None
        return cls(int(match.group(1)), ArchVariant(match.group(2)))

    @property
    def is_arch_conditional(self) -> bool:
        return self.variant is ArchVariant.ARCH_CONDITIONAL

    @property
    def is_family_conditional(self) -> bool:
        return self.variant is ArchVariant.FAMILY_CONDITIONAL

    def __str__(self) -> str:
        return f"sm_{self.version}{self.variant}"


def sm_version(arch: str) -> int:
    """90 for `sm_90a`, 100 for `sm_100a`, 80 for `sm_80` (or `compute_80`)."""
    match = _SM_OR_COMPUTE.fullmatch(arch)
    if match is None:
        raise ValueError(f"not a GPU architecture: {arch!r}")
    return int(match.group(1))


_SM_OR_COMPUTE = re.compile(r"(?:sm|compute)_(\d+)[af]?")
