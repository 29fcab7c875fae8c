"""`tileas-insert-OCG-knobs`: scheduler knobs for ptxas's OCG back end (D17).

OCG, the PTX -> SASS optimiser inside ptxas, reads `.pragma` directives as knobs. tileiras
writes them as side-effecting `llvm.inline_asm` ops so that they survive every lowering
down to the PTX text (PTX ISA, ".pragma":
https://docs.nvidia.com/cuda/parallel-thread-execution/#miscellaneous-directives-pragma).
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
from tileas_py.passes.tileas.common import function_like_ops

BUSY_XU64_KNOB = '.pragma "global knob SchedResBusyXU64=1";\n'
FENCE_CODE_KNOB = '.pragma "next knob FenceCode";\n'

BUSY_XU64_TARGETS = (100, 101, 102, 103, 110)
"""Blackwell sm100..sm103 and Jetson Thor sm110: `target - 100 <= 3 || target == 110`."""


def pragma(text: str) -> llvm.InlineAsmOp:
    return llvm.InlineAsmOp(text, "", [], has_side_effects=True)


def is_pragma(op: Operation | None, text: str) -> bool:
    return isinstance(op, llvm.InlineAsmOp) and op.asm_string.data == text


def insert_knobs(function: Operation, busy_xu64_target: bool) -> None:
    body = function.regions[0]
    if not body.blocks:
        return
    ops = list(function.walk())
    if busy_xu64_target and any(op.has_trait(MmaFamily) for op in ops):
        entry = body.blocks.first
        assert entry is not None
        if not is_pragma(entry.first_op, BUSY_XU64_KNOB):
            Rewriter.insert_op(pragma(BUSY_XU64_KNOB), InsertPoint.at_start(entry))
    for op in ops:
        if not (op.has_trait(AsyncFenceOrArrive) or op.has_trait(BarrierOp)):
            continue
        if not is_pragma(op.prev_op, FENCE_CODE_KNOB):
            Rewriter.insert_op(pragma(FENCE_CODE_KNOB), InsertPoint.before(op))


@dataclass(frozen=True)
class InsertOCGKnobsPass(ModulePass):
    """
    Emits OCG knobs as optimization hints for the backend OCG compiler.

    In every function-like op:
    - `.pragma "global knob SchedResBusyXU64=1";` at function entry when the module's
      `nv_tileaa.target_spec` is sm 100, 101, 102, 103 or 110 and the function holds an
      MMA-family op (`MmaFamily`, e.g. `nv_tileas.dot`): OCG treats the 64-bit issue
      slots as busy, throttling the scalar 64-bit lane against tcgen05 MMA;
    - `.pragma "next knob FenceCode";` right before every async fence / arrive
      (`AsyncFenceOrArrive`: `async.fence`, `async.arrive`, `producer_commit`,
      `consumer_release`) and every mbarrier / cluster-barrier op (`BarrierOp`), so that
      OCG keeps the next instruction in place relative to surrounding memory ops.

    Each knob is an `llvm.inline_asm has_side_effects` with empty constraints. A module
    without `nv_tileaa.target_spec` gets no SchedResBusyXU64 knob. Running the pass again
    adds nothing: a knob already in place is not repeated (tileiras runs it once).

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
    """

    name = "tileas-insert-OCG-knobs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in list(function_like_ops(op)):
            sm = target_sm_of(function)
            insert_knobs(function, sm in BUSY_XU64_TARGETS)
