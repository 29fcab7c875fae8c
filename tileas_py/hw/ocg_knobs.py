"""OCG knobs: the `.pragma` strings tileiras writes for ptxas's OCG scheduler (seed 002,
"InsertOCGKnobs (D17)").

OCG is the PTX -> SASS optimiser inside ptxas. A knob reaches it as a `.pragma` directive
(PTX ISA, "pragma": https://docs.nvidia.com/cuda/parallel-thread-execution/#miscellaneous-directives-pragma):
a `global knob` holds for the whole compilation unit, a `next knob` for the next
instruction only. ptxas 13.5 answers both of tileiras's knobs with
`ptxas warning : Pragma '...' unsupported` on sm_90a and sm_100a (docs/fidelity.md).
"""

from __future__ import annotations

BUSY_XU64 = "global knob SchedResBusyXU64=1"
"""Treat the 64-bit issue slots as busy (against tcgen05 MMA on Blackwell)."""

FENCE_CODE = "next knob FenceCode"
"""Keep the next instruction (a fence, arrive or barrier) in place."""

BUSY_XU64_TARGETS = (100, 101, 102, 103, 110)
"""Blackwell sm100..sm103 and Jetson Thor sm110: `target - 100 <= 3 || target == 110`."""

NEXT_KNOB_PREFIX = "next "
"""A pragma of this prefix belongs to the instruction that follows it."""

FENCE_CODE_MNEMONICS = (
    "fence.",
    "membar.",
    "mbarrier.",
    "cp.async.mbarrier.arrive",
    "bar.",
    "barrier.",
    "tcgen05.fence",
    "tcgen05.commit",
)
"""The PTX mnemonics (prefixes) of the fence, arrive and barrier instructions FenceCode
belongs to: memory and proxy fences, every mbarrier instruction, the CTA and cluster
barriers, and the arrives of asynchronous copies and tcgen05 MMAs on an mbarrier."""


def pragma_asm(directive: str) -> str:
    """The inline-asm text of a `.pragma` directive: `.pragma "next knob FenceCode";\\n`."""
    return f'.pragma "{directive}";\n'


def is_fence_code_anchor(mnemonic: str) -> bool:
    """Whether a FenceCode knob may precede the PTX instruction `mnemonic`."""
    return mnemonic.startswith(FENCE_CODE_MNEMONICS)


def directive_problem(directive: str) -> str | None:
    """Why `directive` cannot be written as a `.pragma` string, or None."""
    if not directive:
        return "is empty"
    if any(c in directive for c in '"\\\n'):
        return "holds a quote, a backslash or a newline"
    return None
