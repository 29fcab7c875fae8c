"""Named pipelines: ordinary passes that run a fixed sequence of passes, in order.

A pipeline is registered like any pass, so `tileas-opt k.ptx -p ptxas-gmma` runs it and
its options are the options of the passes it runs (in the style of inconspiquous's pipeline
passes and MLIR's `gpu-lower-to-nvvm-pipeline`).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from tileas_py.passes.ori.fixup_gmma_sequence import OriFixupGmmaSequencePass
from tileas_py.passes.ori.propagate_gmma import OriPropagateGmmaPass


@dataclass(frozen=True)
class PtxasGmmaPipeline(ModulePass):
    """ptxas's GMMA phases on ori: 85 `ori-propagate-gmma`, then 87
    `ori-fixup-gmma-sequence`, with ptxas's command-line flags as options.

    `tileas-opt kernel.ptx -p ptxas-gmma` prints what ptxas would print about the
    kernel's WGMMA pipelines; add `-t ptx` for the fixed-up PTX, e.g.

        tileas-opt k.ptx -p 'ptxas-gmma{compile-only=true explain=true}' -t ptx
    """

    name = "ptxas-gmma"

    compile_only: bool = False
    """ptxas `-c` (calls are not inlined)."""

    opt_level: int = 3
    """ptxas `-O` level; 0 serializes every wgmma."""

    device_debug: bool = False
    """ptxas `-g`; serializes every wgmma."""

    maxrregcount: int = 0
    """ptxas `-maxrregcount`; 0 means none."""

    max_active_live_ranges: int = 0
    """Phase 85's live-range limit (C7407); 0 means none, as ptxas 13.5 in practice."""

    explain: bool = False
    """Follow each message with notes on its cause and a fix."""

    @staticmethod
    def from_ptxas_args(
        args: Sequence[str], explain: bool = False
    ) -> PtxasGmmaPipeline:
        """The pipeline for a ptxas command line (`-c`, `-O0`, `-g`, `-maxrregcount=N`);
        flags that do not change the GMMA phases are ignored."""
        options: dict[str, bool | int] = {}
        for arg in args:
            if arg in ("-c", "--compile-only"):
                options["compile_only"] = True
            elif arg in ("-g", "--device-debug"):
                options["device_debug"] = True
            elif arg.startswith("-O") and arg[2:].isdigit():
                options["opt_level"] = int(arg[2:])
            elif arg.startswith(("-maxrregcount=", "--maxrregcount=")):
                options["maxrregcount"] = int(arg.split("=", 1)[1])
        return PtxasGmmaPipeline(explain=explain, **options)  # pyright: ignore[reportArgumentType]

    @staticmethod
    def messages(
        text: str, name: str = "<stdin>", args: Sequence[str] = ()
    ) -> list[str]:
        """Every line `tileas-opt FILE -p ptxas-gmma` prints for a PTX text, run in process
        with the options of the ptxas flags `args` (a fatal message ends the list, as it
        ends ptxas)."""
        from tileas_py.diagnostics import collect_diagnostics
        from tileas_py.ptx.reader import read_ptx

        module = read_ptx(text, name)
        with collect_diagnostics() as diagnostics, suppress(PassFailedException):
            PtxasGmmaPipeline.from_ptxas_args(args).apply(Context(), module)
        return [str(d) for d in diagnostics if d.severity == "verbatim"]

    def passes(self) -> tuple[ModulePass, ...]:
        return (
            OriPropagateGmmaPass(
                max_active_live_ranges=self.max_active_live_ranges,
                explain=self.explain,
            ),
            OriFixupGmmaSequencePass(
                compile_only=self.compile_only,
                opt_level=self.opt_level,
                device_debug=self.device_debug,
                maxrregcount=self.maxrregcount,
                explain=self.explain,
            ),
        )

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for pass_ in self.passes():
            pass_.apply(ctx, op)
