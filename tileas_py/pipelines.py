"""Named pipelines: end-to-end flows built from the project's passes.

A pipeline is an ordinary `ModulePass` that runs its passes in order (MLIR's
`gpu-lower-to-nvvm-pipeline` style, https://mlir.llvm.org/docs/PassManagement/), so it is
selected with `-p` like any pass and composes with others.

- `tileas-wgmma-to-ptx`: a tile kernel whose matrix multiplies are sm90 WGMMA atoms, down
  to ori, which `-t ptx` prints as PTX for the real ptxas:
  `convert-tileas-to-nvvm`, then `convert-nvvm-to-ori`.

Example:

    tileas-opt gemm.mlir -p tileas-wgmma-to-ptx -t ptx -o gemm.ptx
    ptxas -arch=sm_90a gemm.ptx -o gemm.cubin
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class TileasWgmmaToPtxPipeline(ModulePass):
    """`convert-tileas-to-nvvm`, then `convert-nvvm-to-ori` (print with `-t ptx`)."""

    name = "tileas-wgmma-to-ptx"

    def passes(self) -> tuple[ModulePass, ...]:
        from tileas_py.passes.lowering.convert_nvvm_to_ori import ConvertNvvmToOriPass
        from tileas_py.passes.lowering.convert_tileas_to_nvvm import (
            ConvertTileasToNvvmPass,
        )

        return (ConvertTileasToNvvmPass(), ConvertNvvmToOriPass())

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for stage in self.passes():
            stage.apply(ctx, op)
            op.verify()
