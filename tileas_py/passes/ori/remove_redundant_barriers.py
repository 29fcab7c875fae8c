"""`ori-remove-redundant-barriers`: ptxas's OriRemoveRedundantBarriers (phase 26, seed 003).

Seed 003: a barrier is redundant when every thread of its scope has already passed an
equivalent dominating barrier and nothing that needs it happened in between; the phase runs
only when the compilation unit has more than one function, and its knob 358 picks a mode:
0 no removal, 1 conservative, 2 aggressive, 3 and above a full multi-function analysis.

The model: a `bar.sync` / `barrier.sync` (unguarded, same operands and operand registers,
both `.aligned` or neither) is removed when, on every path from the function's entry, an
equivalent barrier executed and nothing it orders followed (`sync_events`: memory
accesses, other synchronization, writes of its operand registers, calls). By mode:

- 1: only within a basic block;
- 2: across blocks (a bit-vector must-analysis over the CFG), when the nearest dominating
  equivalent barrier is at the same loop depth (seed 003's loop-nesting guard);
- 3: as 2, and a call of a function of the module is transparent when that function,
  transitively, does nothing a barrier orders.

A call of an extern function is transparent only under
`assume-extern-functions-do-not-sync`, which asserts that such callees neither synchronize
nor touch memory the caller's barriers order; otherwise no proof crosses a call.

ptxas 13.5 removes no barrier at all (the corpus README: every barrier is kept, with or
without `--assume-extern-functions-do-not-sync`), which the default `sync-mode=0` reproduces.

Example (`sync-mode=1`, in a module of two functions):

    ori.bar "bar.sync" (0)
    ori.inst "add.u32" (def %r2, %r1, 1)
    ori.bar "bar.sync" (0)

becomes

    ori.bar "bar.sync" (0)
    ori.inst "add.u32" (def %r2, %r1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tileas_py.dialects.ori.analysis import instructions
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import CallOp, InstructionOp
from tileas_py.passes.ori.support.common import (
    callee_name,
    defined_functions,
    erase,
    ocg_intrinsic,
)
from tileas_py.passes.ori.support.sync_events import is_transparent
from tileas_py.passes.ori.support.sync_redundancy import redundant_barriers

CONSERVATIVE, AGGRESSIVE, FULL = 1, 2, 3


@dataclass(frozen=True)
class RemoveRedundantBarriersPass(ModulePass):
    """Removes CTA barriers that an equivalent dominating barrier makes redundant (26).

    See the module docstring for the modes.
    """

    name = "ori-remove-redundant-barriers"

    sync_mode: int = 0
    """Seed 003's knob 358: 0 keep every barrier (ptxas 13.5), 1 within blocks, 2 across
    blocks, 3 also across calls of functions that do nothing a barrier orders."""
    assume_extern_functions_do_not_sync: bool = False
    """ptxas's `--assume-extern-functions-do-not-sync`: calls of extern functions do not
    stop the proof."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = defined_functions(op)
        if self.sync_mode <= 0 or len(functions) <= 1:
            return
        calls = _TransparentCalls(
            functions,
            across_module=self.sync_mode >= FULL,
            extern=self.assume_extern_functions_do_not_sync,
        )
        for func in functions:
            for barrier in redundant_barriers(
                func, calls, across_blocks=self.sync_mode >= AGGRESSIVE
            ):
                erase(barrier)


class _TransparentCalls:
    """Which calls a barrier proof may cross."""

    def __init__(
        self, functions: Sequence[FuncOp], *, across_module: bool, extern: bool
    ) -> None:
        self.by_name = {f.func_name.data: f for f in functions}
        self.across_module = across_module
        self.extern = extern
        self.known: dict[str, bool] = {}

    def __call__(self, call: CallOp) -> bool:
        if ocg_intrinsic(call) is not None:
            return False
        name = callee_name(call)
        if name is None:
            return False
        callee = self.by_name.get(name)
        if callee is None:
            return self.extern
        if not self.across_module:
            return False
        if name not in self.known:
            self.known[name] = False  # recursion: not transparent
            self.known[name] = all(
                is_transparent(i) or (isinstance(i, CallOp) and self(i))
                for i in instructions(callee)
                if not _is_control(i)
            )
        return self.known[name]


def _is_control(inst: InstructionOp) -> bool:
    return inst.opcode.data.split(".", 1)[0] in ("bra", "ret", "exit")
