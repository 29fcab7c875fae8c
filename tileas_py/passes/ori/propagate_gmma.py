"""`ori-propagate-gmma`: ptxas's phase 85 (OriPropagateGmma).

For every `wgmma.mma_async` of every function, the pass gives its accumulator registers
ptxas's accumulator register class (class 6, `class accumulator` on their `ori.reg`),
collects its inputs (A fragment or descriptor, B descriptor, sparse metadata), and
propagates the in-flight accumulator sets across the CFG: a worklist over the blocks in
reverse postorder, joining the pipeline states of the predecessors (see
`tileas_py.passes.ori.support.gmma.model`), each block revisited only while its state grows.

The most accumulator registers in flight at one point are ptxas's "active live ranges";
above the limit the pass prints ptxas's

    ptxas warning : (C7407) GMMA sequence has too many active live ranges (300), reduce it to bring it under (256)

ptxas 13.5 was never seen to print it (up to 64 accumulator sets in flight, across
branches and loops, at every optimization level), so by default there is no limit.

Before (PTX read by `tileas-opt k.ptx`):

    %f1 = ori.reg f32 "%f" <1>
    ...
    ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" (inout {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1, 0, 0)

After:

    %f1 = ori.reg f32 "%f" <1> class accumulator
    ...
    ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" (inout {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1, 0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass

from tileas_py.diagnostics import emit_note, emit_verbatim
from tileas_py.dialects.ori.analysis import declaration
from tileas_py.dialects.ori.attributes import RegisterClass
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import WgmmaMmaAsyncOp
from tileas_py.hw.gmma_diagnostics import GMMA_MESSAGE_BY_CODE, GmmaDiagnostic
from tileas_py.passes.ori.support.gmma import (
    GmmaFunctionModel,
    GmmaOptions,
    ModuleFunctions,
    line_of,
)

_LIVE_RANGES = 7407


@dataclass(frozen=True)
class OriPropagateGmmaPass(ModulePass):
    """Phase 85: accumulator register class, in-flight accumulator propagation, and the
    active-live-range limit (C7407)."""

    name = "ori-propagate-gmma"

    max_active_live_ranges: int = 0
    """The most accumulator registers that may be in flight at one point (ptxas's
    maxActiveGmmaLiveRanges); 0, the default, means no limit, which is what ptxas 13.5 does
    in practice (it never printed C7407)."""

    explain: bool = False
    """Follow each message with notes on its cause and a fix."""

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        funcs = [f for f in op.walk() if isinstance(f, FuncOp)]
        functions = ModuleFunctions.of(funcs)
        for func in funcs:
            if func.is_declaration:
                continue
            for wgmma in func.walk():
                if isinstance(wgmma, WgmmaMmaAsyncOp):
                    for reg in wgmma.accumulators:
                        reg_op = declaration(reg)
                        if reg_op.register_class is not RegisterClass.ACCUMULATOR:
                            reg_op.register_class = RegisterClass.ACCUMULATOR
            if self.max_active_live_ranges > 0:
                # The in-flight propagation is only needed to check the limit.
                self._check_live_ranges(
                    GmmaFunctionModel(func, functions, GmmaOptions())
                )

    def _check_live_ranges(self, model: GmmaFunctionModel) -> None:
        limit = self.max_active_live_ranges
        if limit <= 0 or model.max_in_flight <= limit:
            return
        where = model.max_in_flight_op
        message = GmmaDiagnostic(
            GMMA_MESSAGE_BY_CODE[_LIVE_RANGES],
            function=model.name,
            counts=(model.max_in_flight, limit),
        )
        emit_verbatim(where, message.format())
        if self.explain:
            line = line_of(where) if where is not None else 0
            emit_note(
                where,
                f"{model.max_in_flight} accumulator registers are in flight at once in "
                f"'{model.name}' (the stage opened at line {line})",
            )
            emit_note(
                where,
                "fix: wait for earlier groups sooner, or give each stage fewer or smaller "
                "accumulators",
            )
