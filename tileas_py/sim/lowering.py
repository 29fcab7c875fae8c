"""From a tile-level or NVVM-level module to the PTX the simulator runs, with what the
launch needs to know that PTX does not say.

The module goes through the stages of `tileas-to-ptx` one by one; on the way this records,
per kernel:

- for each `!nv_tileas.tiled_view` parameter, the CUtensorMap the host must build: the
  element type, the box (what each CTA's TMA copies of it move: the tile, or its piece
  of a tile split across the CTAs of a cluster, or its part of a multicast one), the
  shared-memory swizzle and the dimension order (the lowering makes the tile's fastest
  dimension the map's dimension 0);
- the dynamic shared memory the launch must provide (`nv_tileas.dynamic_shared_bytes`).

The result is printed as PTX, so that the simulator's reports name lines of that text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatTF32Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation

from tileas_py.sim.errors import SimulationError


@dataclass(frozen=True)
class TiledViewRecord:
    """How the host encodes the tensor map of one `tiled_view` parameter."""

    shape: tuple[int, ...]
    """The view's shape, in the order the kernel indexes it."""
    dtype: Any
    box: tuple[int, ...]
    """The tile, in the same order."""
    order: tuple[int, ...]
    """Dimensions fastest first: `order[0]` is contiguous in memory (the map's dimension 0)."""
    swizzle: int

    @property
    def storage_axes(self) -> tuple[int, ...]:
        """The permutation from the view's order to the array's memory order (outermost
        first): `np.transpose(view_array, storage_axes)` is laid out as the map expects."""
        return tuple(reversed(self.order))


@dataclass
class KernelRecord:
    params: list[TiledViewRecord | None] = field(
        default_factory=list["TiledViewRecord | None"]
    )
    dynamic_shared: int = 0
    persistent_grid: tuple[int, int, int] | None = None
    """For a kernel `tileas-dynamic-persistent` made persistent: the launch grid it chose
    (its last three parameters are then the tile grid)."""


@dataclass
class Lowered:
    ptx: str
    kernels: dict[str, KernelRecord]
    messages: list[str]


def _numpy_dtype(element: Attribute) -> Any:
    if isinstance(element, Float16Type):
        return np.float16
    if isinstance(element, BFloat16Type):
        return ml_dtypes.bfloat16
    if isinstance(element, Float32Type | FloatTF32Type):
        # tf32 is stored in 32-bit floats (CU_TENSOR_MAP_DATA_TYPE_TFLOAT32: 4 bytes).
        return np.float32
    if isinstance(element, Float64Type):
        return np.float64
    if isinstance(element, IntegerType):
        return {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[
            element.width.data
        ]
    name = getattr(element, "name", "")
    if "e4m3" in str(element) or "E4M3" in name:
        return ml_dtypes.float8_e4m3fn
    if "e5m2" in str(element) or "E5M2" in name:
        return ml_dtypes.float8_e5m2
    raise SimulationError(f"no numpy type for element type {element}")


def _tiled_view_records(module: ModuleOp) -> dict[str, KernelRecord]:
    """The tensor maps of every tile kernel, from the tile IR after the tileas passes."""
    from tileas_py.dialects.nv_tileas.attrs import (
        PERSISTENT_GRID,
        SharedEncodingAttr,
        TiledViewType,
        encoding_of,
        ints,
    )
    from tileas_py.dialects.nv_tileas.ops import TiledLoadOp, TiledStoreOp
    from tileas_py.passes.lowering.tileas_to_nvvm.multicast import tma_box

    kernels: dict[str, KernelRecord] = {}
    for op in module.walk():
        name = op.properties.get("sym_name") or op.attributes.get("sym_name")
        if (
            not isinstance(name, StringAttr)
            or not op.regions
            or not op.regions[0].blocks
        ):
            continue
        arguments = op.regions[0].blocks.first.args  # pyright: ignore[reportOptionalMemberAccess]
        if not any(isinstance(a.type, TiledViewType) for a in arguments):
            continue
        record = KernelRecord()
        grid = op.attributes.get(PERSISTENT_GRID)
        if isinstance(grid, DenseArrayBase):
            x, y, z = (int(v) for v in grid.get_values())  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            record.persistent_grid = (x, y, z)
        for argument in arguments:
            view = argument.type
            if not isinstance(view, TiledViewType):
                record.params.append(None)
                continue
            found: TiledViewRecord | None = None
            for use in argument.uses:
                user = use.operation
                if isinstance(user, TiledLoadOp):
                    tile = user.result.type
                elif isinstance(user, TiledStoreOp):
                    tile = user.value.type
                else:
                    continue
                encoding = encoding_of(tile)
                if not isinstance(encoding, SharedEncodingAttr) or not isinstance(
                    tile, TensorType
                ):
                    continue
                shape = tma_box(user)
                candidate = TiledViewRecord(
                    ints(view.shape),
                    _numpy_dtype(view.element_type),
                    shape,
                    tuple(ints(encoding.order)),
                    encoding.swizzle.data,
                )
                if found is not None and found != candidate:
                    raise SimulationError(
                        f"parameter {argument.index} of kernel '{name.data}' is loaded with "
                        "different tiles; one tensor map cannot serve both"
                    )
                found = candidate
            record.params.append(found)
        kernels[name.data] = record
    return kernels


def _dynamic_shared(module: ModuleOp, kernels: dict[str, KernelRecord]) -> None:
    from tileas_py.passes.lowering.tileas_to_nvvm.kernel import DYNAMIC_SHARED_BYTES

    for op in module.walk():
        if not isinstance(op, llvm.GlobalOp):
            continue
        size = op.attributes.get(DYNAMIC_SHARED_BYTES)
        if not isinstance(size, IntegerAttr):
            continue
        kernel = op.sym_name.data.removesuffix("_smem")
        kernels.setdefault(kernel, KernelRecord()).dynamic_shared = int(size.value.data)  # pyright: ignore[reportUnknownArgumentType]


def lower_mlir(module: ModuleOp) -> Lowered:
    """Run `tileas-to-ptx` on a tile-level or NVVM-level module, recording what the
    launch needs; the module is changed in place."""
    from tileas_py import api
    from tileas_py.diagnostics import collect_diagnostics
    from tileas_py.pipelines import TileasToPtxPipeline

    ctx = api.make_context()
    pipeline = TileasToPtxPipeline()
    kernels: dict[str, KernelRecord] = {}
    stages = pipeline.stage_names(module)
    with collect_diagnostics() as found:
        for name in stages:
            if name == "convert-tileas-to-nvvm":
                kernels = _tiled_view_records(module)
            pipeline.stage(name).apply(ctx, module)
            module.verify()
            if name == "convert-tileas-to-nvvm":
                _dynamic_shared(module, kernels)
    messages = [str(d) for d in found if d.severity == "verbatim"]
    return Lowered(api.print_ptx(module), kernels, messages)


def is_ori(module: Operation) -> bool:
    from tileas_py.dialects.ori import FuncOp

    return any(isinstance(op, FuncOp) for op in module.walk())
