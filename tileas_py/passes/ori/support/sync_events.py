"""What an instruction means to the redundancy proofs of phases 26 and 71.

A barrier or fence is only redundant when nothing it orders happens between it and an
equivalent earlier one. What it orders is memory: any access to shared, global, local or
generic memory (loads, stores, atomics, asynchronous and bulk copies, texture and surface
accesses, WGMMA's shared-memory operands, mbarrier operations) and every other
synchronization instruction. Register arithmetic, `ld.param` / `st.param`, `ld.const`, and
warp-level data exchange (`shfl`, `vote`, ...) are transparent. A call is transparent only
when its callee is known to be (phase 26's rules decide).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import SSAValue

from tileas_py.dialects.ori.instructions import (
    BarrierOp,
    CallOp,
    FenceOp,
    GenericInstructionOp,
    InstructionOp,
    MembarOp,
)
from tileas_py.passes.ori.support.common import opcode_parts

MEMORY_ROOTS = frozenset(
    {
        "ld",
        "ldu",
        "st",
        "atom",
        "red",
        "cp",
        "tex",
        "tld4",
        "txq",
        "suld",
        "sust",
        "sured",
        "suq",
        "prefetch",
        "prefetchu",
        "ldmatrix",
        "stmatrix",
        "multimem",
        "discard",
        "applypriority",
        "wgmma",
        "tcgen05",
        "mbarrier",
        "bar",
        "barrier",
        "membar",
        "fence",
        "setmaxnreg",
    }
)
"""Mnemonic roots of instructions that access memory or synchronize."""
_THREAD_PRIVATE_SPACES = frozenset({"param", "const"})


def is_transparent(inst: InstructionOp) -> bool:
    """Whether no barrier or fence orders anything this instruction does (calls aside)."""
    if not isinstance(inst, GenericInstructionOp):
        return False
    parts = opcode_parts(inst)
    if parts[0] not in MEMORY_ROOTS:
        return True
    return parts[0] in ("ld", "st") and parts[1] in _THREAD_PRIVATE_SPACES


def accesses_memory(inst: InstructionOp) -> bool:
    """Whether the instruction may touch memory another thread can see, or synchronize
    (everything but transparent instructions, CTA barriers and fences themselves)."""
    if isinstance(inst, BarrierOp | FenceOp | MembarOp):
        return False
    return not is_transparent(inst) and not isinstance(inst, CallOp)


@dataclass(frozen=True)
class BarrierKey:
    """What makes two CTA barriers equivalent: kind, operands and operand registers."""

    aligned: bool
    operands: str
    registers: tuple[SSAValue, ...]


def barrier_key(inst: InstructionOp) -> BarrierKey | None:
    """The key of an unguarded `bar.sync` / `barrier.sync` (None for anything else)."""
    if not isinstance(inst, BarrierOp) or inst.guard is not None:
        return None
    parts = opcode_parts(inst)
    kind = [p for p in parts[1:] if p != "cta"]
    if parts[0] not in ("bar", "barrier") or not kind or kind[0] != "sync":
        return None
    aligned = parts[0] == "bar" or "aligned" in parts
    return BarrierKey(aligned, str(inst.layout), tuple(inst.registers))


SCOPES = ("cta", "cluster", "gpu", "sys")
_MEMBAR_SCOPES = {"cta": "cta", "gl": "gpu", "sys": "sys"}
_STRENGTHS = {
    "sc": {"sc", "acq_rel", "acquire", "release"},
    "acq_rel": {"acq_rel", "acquire", "release"},
    "acquire": {"acquire"},
    "release": {"release"},
}


@dataclass(frozen=True)
class FenceKind:
    """A memory fence by semantics and scope; proxy fences (and `fence.mbarrier_init`)
    by their full mnemonic, as `proxy:<mnemonic>`."""

    semantics: str
    scope: str

    def covers(self) -> list[FenceKind]:
        """The fences this one makes redundant when nothing happens in between."""
        if self.semantics.startswith("proxy"):
            return [self]
        reach = SCOPES[: SCOPES.index(self.scope) + 1]
        return [
            FenceKind(s, c) for s in sorted(_STRENGTHS[self.semantics]) for c in reach
        ]


def fence_kind(inst: InstructionOp) -> FenceKind | None:
    """The kind of an unguarded `membar` / `fence` (None for anything else)."""
    if inst.guard is not None:
        return None
    parts = opcode_parts(inst)
    if isinstance(inst, MembarOp):
        if parts[1:2] == ["proxy"]:
            return FenceKind(f"proxy:{inst.opcode.data}", "sys")
        scope = _MEMBAR_SCOPES.get(parts[1]) if len(parts) == 2 else None
        return None if scope is None else FenceKind("sc", scope)
    if not isinstance(inst, FenceOp):
        return None
    if parts[1] in ("proxy", "mbarrier_init"):
        return FenceKind(f"proxy:{inst.opcode.data}", "sys")
    semantics = parts[1] if parts[1] in _STRENGTHS else "acq_rel"
    scope = next((p for p in parts[1:] if p in SCOPES), None)
    return None if scope is None else FenceKind(semantics, scope)
