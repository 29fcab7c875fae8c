"""The model of ptxas 13.5's GMMA phases (85 OriPropagateGmma, 87 FixupGmmaSequence).

- `program`: the function as those phases see it (wgmma, calls, what earlier phases did);
- `state`: the pipeline state, the lattice of the dataflow;
- `model`: the dataflow over the CFG and ptxas's rules: where waits go, why it serializes;
- `registers`: the accumulators' register resources (positions, the register budget);
- `findings`: the decisions as data (message codes, causes, options);
- `report`: ptxas's exact lines for them, and the `explain` notes.

The passes `ori-propagate-gmma` and `ori-fixup-gmma-sequence` apply it to the IR.
"""

from tileas_py.passes.ori.support.gmma.findings import Cause, Code, Finding, GmmaOptions
from tileas_py.passes.ori.support.gmma.model import GmmaFunctionModel
from tileas_py.passes.ori.support.gmma.program import (
    CallKind,
    ModuleFunctions,
    Wgmma,
    line_of,
)

__all__ = [
    "CallKind",
    "Cause",
    "Code",
    "Finding",
    "GmmaFunctionModel",
    "GmmaOptions",
    "ModuleFunctions",
    "Wgmma",
    "line_of",
]
