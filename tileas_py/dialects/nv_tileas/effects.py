"""Memory effects of the tile ops, which depend on where their tiles live.

A register tile (`#nv_tileas.blocked`, `#nv_tileas.mma`, or a tile without a layout) is a
value: reading or producing one touches no memory. A shared tile (`#nv_tileas.shared`) is
a buffer: reading it reads shared memory, and a later `copy` into the same buffer changes
what the next read sees. xDSL's `cse`, `licm` and `canonicalize` decide what they may
merge, hoist or erase from these effects (MLIR's MemoryEffectOpInterface,
https://mlir.llvm.org/docs/Rationale/SideEffectsAndSpeculation/), so they must name every
buffer an op reads, writes or allocates.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from xdsl.ir import Operation, SSAValue
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind

from tileas_py.dialects.nv_tileas.attrs import is_shared


def reads(*values: SSAValue) -> set[EffectInstance]:
    """A read of each value that is a buffer."""
    return {
        EffectInstance(MemoryEffectKind.READ, value)
        for value in values
        if is_shared(value.type)
    }


class ReadsSharedOperands(MemoryEffect):
    """Reads the buffers among the op's operands; no other effect."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        return frozenset(reads(*op.operands))


class ConvertLayoutEffects(MemoryEffect):
    """`convert_layout`: reads its source if it is a buffer; a shared result is a fresh
    buffer (allocated and filled by the op, seen by no one else)."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        effects = reads(op.operands[0])
        result = op.results[0]
        if is_shared(result.type):
            effects.add(EffectInstance(MemoryEffectKind.ALLOC, result))
        return frozenset(effects)


class CopyEffects(MemoryEffect):
    """`copy`: writes its destination buffer; reads its source if it is a buffer."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        source, dest = op.operands
        return frozenset({*reads(source), EffectInstance(MemoryEffectKind.WRITE, dest)})


class AllocatesResult(MemoryEffect):
    """Allocates the buffer it returns (erasable when unused, never merged)."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        return frozenset(
            EffectInstance(MemoryEffectKind.ALLOC, result) for result in op.results
        )
