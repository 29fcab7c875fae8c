"""`tileas-insert-OCG-knobs`: scheduler knobs for ptxas's OCG back end (D17).

OCG, the PTX -> SASS optimiser inside ptxas, reads `.pragma` directives as knobs. tileiras
writes them as side-effecting `llvm.inline_asm` ops so that they survive every lowering
down to the PTX text (PTX ISA, ".pragma":
https://docs.nvidia.com/cuda/parallel-thread-execution/#miscellaneous-directives-pragma).
The knob strings and the instructions FenceCode belongs to are in `tileas_py/hw/ocg_knobs.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tileas_py.dialects.nv_tileaa import target_sm_of
from tileas_py.dialects.nv_tileas import AsyncFenceOrArrive, BarrierOp, MmaFamily
from tileas_py.dialects.nvvm.target import TARGET_ATTR_NAME, NVVMTargetAttr
from tileas_py.hw.ocg_knobs import (
    BUSY_XU64,
    BUSY_XU64_TARGETS,
    FENCE_CODE,
    is_fence_code_anchor,
    pragma_asm,
)
from tileas_py.passes.tileas.common import function_like_ops

BUSY_XU64_KNOB = pragma_asm(BUSY_XU64)
FENCE_CODE_KNOB = pragma_asm(FENCE_CODE)

NVVM_ANCHORS = frozenset(
    {
        "nvvm.barrier0",
        "nvvm.barrier",
        "nvvm.barrier.arrive",
        "nvvm.cluster.arrive",
        "nvvm.cluster.arrive.relaxed",
        "nvvm.cluster.wait",
        "nvvm.cp.async.mbarrier.arrive",
        "nvvm.memory.barrier",
        "nvvm.tcgen05.fence",
        "nvvm.tcgen05.commit",
    }
)
"""The NVVM ops FenceCode belongs to, besides every `nvvm.fence.*` and `nvvm.mbarrier.*`
op: the NVVM forms of `hw.ocg_knobs.FENCE_CODE_MNEMONICS`."""

NVVM_ANCHOR_FAMILIES = ("nvvm.fence.", "nvvm.mbarrier.")

NVVM_MMA = frozenset(
    {
        "nvvm.wgmma.mma_async",
        "nvvm.mma.sync",
        "nvvm.mma.sp.sync",
        "nvvm.mma.block_scale",
        "nvvm.mma.sp.block_scale",
        "nvvm.wmma.mma",
    }
)
"""The NVVM MMA-family ops, besides every `nvvm.tcgen05.mma*` op."""


def pragma(text: str) -> llvm.InlineAsmOp:
    return llvm.InlineAsmOp(text, "", [], has_side_effects=True)


def is_pragma(op: Operation | None, text: str) -> bool:
    return isinstance(op, llvm.InlineAsmOp) and op.asm_string.data == text


def first_asm_mnemonic(text: str) -> str:
    """The mnemonic of the first instruction of an inline-asm text (braces, register
    declarations and a guard skipped): `mbarrier.arrive.shared::cta.b64` for
    `{ .reg .pred p; @p mbarrier.arrive.shared::cta.b64 _, [$0]; }`."""
    for statement in text.replace("{", ";").replace("}", ";").split(";"):
        words = statement.split()
        if words and words[0].startswith("@"):
            words = words[1:]
        if words and not words[0].startswith("."):
            return words[0]
    return ""


def is_anchor(op: Operation) -> bool:
    """An op FenceCode belongs to: a tile-level async fence / arrive or barrier op, its
    NVVM form, or inline asm whose first instruction is one."""
    if op.has_trait(AsyncFenceOrArrive) or op.has_trait(BarrierOp):
        return True
    if isinstance(op, llvm.InlineAsmOp):
        return is_fence_code_anchor(first_asm_mnemonic(op.asm_string.data))
    return op.name in NVVM_ANCHORS or op.name.startswith(NVVM_ANCHOR_FAMILIES)


def is_mma(op: Operation) -> bool:
    return (
        op.has_trait(MmaFamily)
        or op.name in NVVM_MMA
        or op.name.startswith("nvvm.tcgen05.mma")
    )


def target_of(function: Operation) -> int | None:
    """The SM number of the module's `nv_tileaa.target_spec`, else of its `nvvm.target`
    (late IR)."""
    sm = target_sm_of(function)
    if sm is not None:
        return sm
    current = function.parent_op()
    while current is not None:
        target = current.attributes.get(TARGET_ATTR_NAME)
        if isinstance(target, NVVMTargetAttr) and target.arch is not None:
            return target.arch.version
        current = current.parent_op()
    return None


def insert_knobs(function: Operation, busy_xu64_target: bool) -> None:
    body = function.regions[0]
    if not body.blocks:
        return
    ops = list(function.walk())
    if busy_xu64_target and any(is_mma(op) for op in ops):
        entry = body.blocks.first
        assert entry is not None
        if not is_pragma(entry.first_op, BUSY_XU64_KNOB):
            Rewriter.insert_op(pragma(BUSY_XU64_KNOB), InsertPoint.at_start(entry))
    for op in ops:
        if is_anchor(op) and not is_pragma(op.prev_op, FENCE_CODE_KNOB):
            Rewriter.insert_op(pragma(FENCE_CODE_KNOB), InsertPoint.before(op))


@dataclass(frozen=True)
class InsertOCGKnobsPass(ModulePass):
    """
    Emits OCG knobs as optimization hints for the backend OCG compiler.

    In every function-like op, on tile-level IR and on late (NVVM-level) IR alike:
    - `.pragma "global knob SchedResBusyXU64=1";` at function entry when the target is
      sm 100, 101, 102, 103 or 110 (the module's `nv_tileaa.target_spec`, else the chip
      of its `nvvm.target`) and the function holds an MMA-family op (`MmaFamily`, e.g.
      `nv_tileas.dot`; `nvvm.wgmma.mma_async`, `nvvm.mma.sync`, `nvvm.tcgen05.mma`, ...):
      OCG treats the 64-bit issue slots as busy, throttling the scalar 64-bit lane
      against tcgen05 MMA;
    - `.pragma "next knob FenceCode";` right before every async fence / arrive
      (`AsyncFenceOrArrive`: `async.fence`, `async.arrive`, `producer_commit`,
      `consumer_release`) and every mbarrier / cluster-barrier op (`BarrierOp`), and in
      late IR before every fence, arrive and barrier op (`nvvm.fence.*`,
      `nvvm.mbarrier.*`, `nvvm.barrier0`, `nvvm.barrier`, `nvvm.cluster.arrive` /
      `wait`, `nvvm.cp.async.mbarrier.arrive`, `nvvm.tcgen05.fence` / `commit`, and
      inline asm whose first instruction is one of those), so that OCG keeps that
      instruction in place relative to surrounding memory ops.

    Each knob is an `llvm.inline_asm has_side_effects` with empty constraints. A module
    without a target gets no SchedResBusyXU64 knob. Running the pass again adds nothing:
    a knob already in place is not repeated (tileiras runs it once). On tile-level IR,
    `convert-tileas-to-nvvm` moves each op's FenceCode knob to the instruction it
    belongs to (seed 002's `emitFenceCodePragmaBefore`).

    Before (target_spec sm 100):
    ```
    func.func @k(...) {
      %d = nv_tileas.dot %a, %b, %c atom = ... wait_group = 0 : ...
      nv_tileas.mbarrier.arrive %bar
      func.return
    }
    ```
    After:
    ```
    func.func @k(...) {
      llvm.inline_asm has_side_effects ".pragma \\22global knob SchedResBusyXU64=1\\22;\\0A", "" : () -> ()
      %d = nv_tileas.dot %a, %b, %c atom = ... wait_group = 0 : ...
      llvm.inline_asm has_side_effects ".pragma \\22next knob FenceCode\\22;\\0A", "" : () -> ()
      nv_tileas.mbarrier.arrive %bar
      func.return
    }
    ```
    Late IR (`nvvm.target<chip = "sm_100a">`): before
    ```
    llvm.func @k(%bar: !llvm.ptr<3>) {
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.mbarrier.arrive %bar : !llvm.ptr<3>
      llvm.return
    }
    ```
    after
    ```
    llvm.func @k(%bar: !llvm.ptr<3>) {
      llvm.inline_asm has_side_effects ".pragma \\22next knob FenceCode\\22;\\0A", "" : () -> ()
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      llvm.inline_asm has_side_effects ".pragma \\22next knob FenceCode\\22;\\0A", "" : () -> ()
      nvvm.mbarrier.arrive %bar : !llvm.ptr<3>
      llvm.return
    }
    ```
    """

    name = "tileas-insert-OCG-knobs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in list(function_like_ops(op)):
            insert_knobs(function, target_of(function) in BUSY_XU64_TARGETS)
