"""MLIR's NVVM dialect (NVIDIA GPU intrinsics) for xDSL, compatible with upstream MLIR 22.

Op names, attribute names, custom syntax and the property/attribute split follow upstream,
so `tileas-opt` and `mlir-opt` read each other's output (custom and generic form), and
verifier messages use upstream's words. The ops are grouped by family:

- `sreg`: special registers (`nvvm.read.ptx.sreg.*`);
- `sync`: barriers, fences, `elect.sync`, `setmaxregister`;
- `cluster`: the cluster barrier and `mapa`;
- `mbarrier`: mbarrier objects;
- `tma`: `cp.async.bulk.tensor` loads and stores; `cp_async`: the other `cp.async` copies,
  TMA prefetches and reductions;
- `wgmma`: warpgroup MMA (sm_90a);
- `mma`: `mma.sync` and its sparse and block-scaled forms; `wmma`: WMMA, `ldmatrix`,
  `stmatrix`;
- `tcgen05`: Blackwell tensor memory and MMA;
- `warp`: shuffles, votes, matches, reductions, dot products, `prmt`;
- `convert`: the conversions to and from narrow float formats;
- `misc`: thread control, inline PTX, prefetches, bulk stores, cluster launch control;
- `target`: `#nvvm.target` and the SM-gating traits; `kernel`: kernel attributes.

Every op derives from `base.NVVMOp`, which verifies as MLIR's generated code does
(`ods`) and reads and prints upstream's declarative format (`asm`). docs/nvvm-coverage.md
lists the ops against upstream's (`upstream.UPSTREAM_OPS`).

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.ir import Dialect

    from tileas_py.dialects.nvvm.target import (
        NVVMTargetAttr,
        RequiresSM,
        RequiresSMa,
        RequiresSMf,
        declared_targets,
        target_archs,
    )

    NVVM: Dialect

# The dialect and its names load on first use (PEP 562), so that importing one module of
# the package (`nvvm.kernel`, which `tileas-opt` runs on every input) does not build
# every op class of the dialect.
__all__ = [
    "NVVM",
    "NVVMTargetAttr",
    "RequiresSM",
    "RequiresSMa",
    "RequiresSMf",
    "declared_targets",
    "target_archs",
]
# Every name but the dialect itself comes from `nvvm.target`.
_TARGET_NAMES = frozenset(__all__) - {"NVVM"}


def _build_dialect() -> Dialect:
    from xdsl.ir import Dialect

    from tileas_py.dialects.nvvm import attrs
    from tileas_py.dialects.nvvm.cluster import CLUSTER_OPS
    from tileas_py.dialects.nvvm.convert import CONVERT_OPS
    from tileas_py.dialects.nvvm.cp_async import CP_ASYNC_OPS
    from tileas_py.dialects.nvvm.mbarrier import MBARRIER_OPS
    from tileas_py.dialects.nvvm.misc import MISC_OPS
    from tileas_py.dialects.nvvm.mma import MMA_OPS
    from tileas_py.dialects.nvvm.sreg import SREG_OPS
    from tileas_py.dialects.nvvm.sync import SYNC_OPS
    from tileas_py.dialects.nvvm.target import NVVMTargetAttr
    from tileas_py.dialects.nvvm.tcgen05 import TCGEN05_OPS
    from tileas_py.dialects.nvvm.tma import TMA_OPS
    from tileas_py.dialects.nvvm.warp import WARP_OPS
    from tileas_py.dialects.nvvm.wgmma import WGMMA_OPS
    from tileas_py.dialects.nvvm.wmma import WMMA_OPS

    return Dialect(
        "nvvm",
        [
            *SREG_OPS,
            *SYNC_OPS,
            *CLUSTER_OPS,
            *MBARRIER_OPS,
            *TMA_OPS,
            *WGMMA_OPS,
            *MMA_OPS,
            *TCGEN05_OPS,
            *MISC_OPS,
            *WARP_OPS,
            *CONVERT_OPS,
            *CP_ASYNC_OPS,
            *WMMA_OPS,
        ],
        [*attrs.ATTRIBUTES, NVVMTargetAttr],
    )


def __getattr__(name: str) -> object:
    if name == "NVVM":
        value: object = _build_dialect()
    elif name in _TARGET_NAMES:
        from tileas_py.dialects.nvvm import target

        value = getattr(target, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
