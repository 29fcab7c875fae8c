"""`launch`: run one kernel on the simulated machine, as a CUDA launch would.

See docs/api.md ("Run a kernel on the CPU") for the contract; in short:

    report = launch(source, kernel, grid, block, args, cluster=None, dynamic_shared=None,
                    check=True, fixup=True)

`source` is PTX text, a path to a `.ptx` or `.mlir` file, or a `ModuleOp` (ori, or tile /
NVVM IR, lowered as `tileas-opt -p tileas-to-ptx` lowers it). Arrays passed as arguments
are global allocations, copied back when the run ends, also when it stops with an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError

from tileas_py.sim import memory as mem
from tileas_py.sim.errors import HazardError, SimulationError
from tileas_py.sim.geometry import Dim3, Geometry, dim3, waves
from tileas_py.sim.lowering import KernelRecord, TiledViewRecord, is_ori, lower_mlir
from tileas_py.sim.machine import WAVE_LANES, Machine
from tileas_py.sim.program import Function, Program, Symbol, build_program
from tileas_py.sim.report import Report
from tileas_py.sim.tensormap import TensorMap

MAX_SHARED = 227 * 1024
"""The most shared memory a CTA can have on sm_90 (232448 bytes, opt-in)."""
MAX_THREADS = 1024
MAX_CLUSTER = 16
MAX_STEPS = 20_000_000
"""Scheduler steps before a run counts as endless."""

Source = str | Path | ModuleOp
Argument = npt.NDArray[Any] | int | float | TensorMap | None


@dataclass
class Prepared:
    """A source made ready to run: its program, PTX text and what lowering recorded."""

    program: Program
    ptx: str
    messages: list[str] = field(default_factory=list[str])
    records: dict[str, KernelRecord] = field(default_factory=dict[str, KernelRecord])
    file: str = "<ptx>"


def launch(
    source: Source,
    kernel: str,
    grid: int | tuple[int, ...],
    block: int | tuple[int, ...],
    args: Sequence[Argument],
    *,
    cluster: int | tuple[int, ...] | None = None,
    dynamic_shared: int | None = None,
    check: bool = True,
    fixup: bool = True,
    resident_ctas: int | None = None,
) -> Report:
    """Run `kernel` of `source` over `grid` CTAs of `block` threads; see the module doc."""
    prepared = prepare(source, fixup=fixup)
    return run_prepared(
        prepared,
        kernel,
        grid,
        block,
        args,
        cluster=cluster,
        dynamic_shared=dynamic_shared,
        check=check,
        resident_ctas=resident_ctas,
    )


def prepare(source: Source, *, fixup: bool = True) -> Prepared:
    """Read (and, for tile or NVVM IR, lower) a source into a program."""
    from tileas_py.ptx.reader import read_ptx

    module: ModuleOp | None = None
    try:
        if isinstance(source, ModuleOp):
            return _prepare_module(source, "<module>", fixup)
        path, text = _read_source(source)
        if path is not None and path.suffix == ".mlir":
            from tileas_py import api
            from tileas_py.diagnostics import LocatedParser

            module = LocatedParser(api.make_context(), text, str(path)).parse_module()
            api.verify(module)
            return _prepare_module(module, str(path), fixup)
        name = str(path) if path is not None else "<ptx>"
        module = read_ptx(text, name)
        return _prepare_ptx(module, text, name, fixup)
    except ParseError as error:
        from tileas_py.tools.tileas_opt import format_parse_error

        raise SimulationError(error.msg, rendered=format_parse_error(error)) from None
    except DiagnosticException as error:
        from tileas_py.tools.tileas_opt import describe_failure

        diagnostic = describe_failure(error, module)
        raise SimulationError(str(error).strip(), rendered=str(diagnostic)) from None


def _read_source(source: str | Path) -> tuple[Path | None, str]:
    if isinstance(source, Path) or (
        "\n" not in source and source.endswith((".ptx", ".mlir"))
    ):
        path = Path(source)
        try:
            return path, path.read_text()
        except OSError as error:
            raise SimulationError(
                f"cannot read it: {error.strerror}", file=str(path)
            ) from None
    return None, source


def _prepare_module(module: ModuleOp, name: str, fixup: bool) -> Prepared:
    from tileas_py.ptx.reader import read_ptx

    if is_ori(module):
        from tileas_py import api

        text = api.print_ptx(module)
        return _prepare_ptx(read_ptx(text, name), text, name, fixup)
    lowered = lower_mlir(module)
    ptx_name = (
        name.removesuffix(".mlir") + ".ptx"
        if name.endswith(".mlir")
        else "<lowered>.ptx"
    )
    program = build_program(read_ptx(lowered.ptx, ptx_name), ptx_name)
    return Prepared(program, lowered.ptx, lowered.messages, lowered.kernels, ptx_name)


def _prepare_ptx(module: ModuleOp, text: str, name: str, fixup: bool) -> Prepared:
    messages: list[str] = []
    if fixup:
        from xdsl.context import Context

        from tileas_py import api
        from tileas_py.diagnostics import collect_diagnostics
        from tileas_py.pipelines import PtxasGmmaPipeline

        with collect_diagnostics() as found:
            PtxasGmmaPipeline().apply(Context(), module)
        messages = [str(d) for d in found if d.severity == "verbatim"]
        text = api.print_ptx(module)
    return Prepared(build_program(module, name), text, messages, {}, name)


# -- the launch -----------------------------------------------------------------------------------


def run_prepared(
    prepared: Prepared,
    kernel: str,
    grid: int | tuple[int, ...],
    block: int | tuple[int, ...],
    args: Sequence[Argument],
    *,
    cluster: int | tuple[int, ...] | None = None,
    dynamic_shared: int | None = None,
    check: bool = True,
    track: bool = True,
    resident_ctas: int | None = None,
) -> Report:
    """`launch` on a prepared source. `track=False` runs without the checker's clocks, to
    measure the bare interpreter (no hazard can then be seen). With `resident_ctas`, at
    most that many CTAs (whole clusters, at least one) run at once; the others wait for a
    later wave, as CTAs wait for a free SM."""
    program = prepared.program
    function = program.kernel(kernel)
    record = prepared.records.get(kernel)
    if (
        record is not None
        and record.persistent_grid is not None
        and len(args) == len(function.params) - 3
    ):
        # A persistent tile kernel, given the tile-level arguments and grid: launch the
        # grid it chose and pass the tile grid, as its launcher does (docs/tileas-to-ptx.md).
        try:
            tile_grid = dim3(grid, "grid")
        except ValueError as bad:
            raise SimulationError(str(bad), file=program.file) from None
        args = [*args, *tile_grid]
        grid = record.persistent_grid
    geometry = _geometry(program, function, grid, block, cluster)
    if dynamic_shared is None:
        dynamic_shared = record.dynamic_shared if record is not None else 0
    if dynamic_shared < 0:
        raise SimulationError("dynamic_shared cannot be negative", file=program.file)
    shared = program.static_shared
    if program.dynamic_shared_offset is not None:
        shared = program.dynamic_shared_offset + dynamic_shared
    elif dynamic_shared:
        shared += dynamic_shared
    if shared > MAX_SHARED:
        raise SimulationError(
            f"the CTA needs {shared} bytes of shared memory; sm_90 has at most {MAX_SHARED}",
            file=program.file,
        )
    report = Report(
        kernel,
        shared_bytes=shared,
        gmma_messages=list(prepared.messages),
        ptx=prepared.ptx,
    )
    wave_lanes = WAVE_LANES
    if resident_ctas is not None:
        padded = -(-geometry.threads_per_cta // 32) * 32
        wave_lanes = min(wave_lanes, max(resident_ctas, 1) * padded)
    parts = waves(geometry.grid, geometry.block, geometry.cluster, wave_lanes)
    first = Geometry(geometry.grid, geometry.block, geometry.cluster, parts[0])
    machine = Machine(
        program, function, first, shared_bytes=shared, report=report, track=track
    )
    machine.state["dynamic_shared"] = dynamic_shared
    machine.state["launch_queue"] = [int(cta) for wave in parts[1:] for cta in wave]
    machine.state["explicit_cluster"] = (
        cluster is not None
        or "reqnctapercluster" in function.directives
        or "explicitcluster" in function.directives
    )
    binding = _bind_arguments(machine, function, args, record)
    error: SimulationError | None = None
    try:
        for index, wave in enumerate(parts):
            if index:
                machine.start_wave(
                    Geometry(geometry.grid, geometry.block, geometry.cluster, wave)
                )
            machine.run(MAX_STEPS)
    except SimulationError as stopped:
        error = stopped
    finally:
        binding.copy_back()
        report.steps = machine.steps
    if error is not None:
        error.report = report
        if report.hazards:
            raise HazardError(report, stopped_by=error, file=program.file) from None
        raise error
    if check and report.hazards:
        raise HazardError(report, file=program.file)
    return report


def _geometry(
    program: Program,
    function: Function,
    grid: int | tuple[int, ...],
    block: int | tuple[int, ...],
    cluster: int | tuple[int, ...] | None,
) -> Geometry:
    try:
        grid3, block3 = dim3(grid, "grid"), dim3(block, "block")
        cluster3 = dim3(cluster, "cluster") if cluster is not None else None
    except ValueError as error:
        raise SimulationError(str(error), file=program.file) from None
    directives = function.directives
    name = function.name

    def fail(message: str) -> None:
        raise SimulationError(f"kernel '{name}': {message}", file=program.file)

    threads = block3[0] * block3[1] * block3[2]
    if threads > MAX_THREADS:
        fail(f"a block of {threads} threads is more than {MAX_THREADS}")
    if "reqntid" in directives:
        required = _pad3(directives["reqntid"])
        if _count(required) != threads or _strip(required) != _strip(block3):
            fail(
                f"block {block3} contradicts .reqntid {', '.join(map(str, directives['reqntid']))}"
            )
    if "maxntid" in directives:
        limit = _pad3(directives["maxntid"])
        if threads > _count(limit):
            fail(
                f"block {block3} has more threads than .maxntid {', '.join(map(str, directives['maxntid']))}"
            )
    required_cluster = (
        _pad3(directives["reqnctapercluster"])
        if "reqnctapercluster" in directives
        else None
    )
    if cluster3 is None:
        cluster3 = required_cluster or (1, 1, 1)
    elif required_cluster is not None and _strip(required_cluster) != _strip(cluster3):
        fail(
            f"cluster {cluster3} contradicts .reqnctapercluster {', '.join(map(str, directives['reqnctapercluster']))}"
        )
    if "explicitcluster" in directives and cluster is None and required_cluster is None:
        fail("the kernel has .explicitcluster, so the launch must give a cluster")
    size = _count(cluster3)
    if size > MAX_CLUSTER:
        fail(f"a cluster of {size} CTAs is more than {MAX_CLUSTER}")
    if "maxclusterrank" in directives and size > directives["maxclusterrank"][0]:
        fail(
            f"a cluster of {size} CTAs is more than .maxclusterrank {directives['maxclusterrank'][0]}"
        )
    if any(g % c for g, c in zip(grid3, cluster3, strict=True)):
        fail(f"grid {grid3} is not a whole number of clusters {cluster3}")
    return Geometry(grid3, block3, cluster3)


def _pad3(values: tuple[int, ...]) -> Dim3:
    padded = (*values, 1, 1, 1)
    return (padded[0], padded[1], padded[2])


def _count(d: Dim3) -> int:
    return d[0] * d[1] * d[2]


def _strip(d: Dim3) -> tuple[int, ...]:
    return d


# -- arguments ------------------------------------------------------------------------------------


@dataclass
class _Binding:
    """The launch's global allocations, and how to hand their contents back."""

    copies: list[tuple[npt.NDArray[Any], mem.Region, tuple[int, ...] | None]] = field(
        default_factory=list[
            "tuple[npt.NDArray[Any], mem.Region, tuple[int, ...] | None]"
        ]
    )

    def copy_back(self) -> None:
        for array, region, axes in self.copies:
            if not array.flags.writeable:
                continue
            stored_shape = (
                array.shape if axes is None else tuple(array.shape[a] for a in axes)
            )
            data = region.data[: region.size].view(array.dtype).reshape(stored_shape)
            if axes is not None:
                data = np.transpose(data, np.argsort(axes))
            np.copyto(array, data)


def _bind_arguments(
    machine: Machine,
    function: Function,
    args: Sequence[Argument],
    record: KernelRecord | None,
) -> _Binding:
    params = function.kernel_params
    name = function.name
    if len(args) != len(params):
        raise SimulationError(
            f"kernel '{name}' takes {len(params)} parameters, the launch gave {len(args)}",
            file=machine.program.file,
        )
    size = max((p.address + p.size for p in params), default=0)
    data = bytearray(size)
    binding = _Binding()
    regions: dict[int, mem.Region] = {}
    machine.state["array_regions"] = regions
    maps: dict[int, TensorMap] = {}
    machine.state["tensor_maps"] = maps
    global_maps: dict[int, TensorMap] = {}
    machine.state["global_tensor_maps"] = global_maps

    def allocate(
        array: npt.NDArray[Any], label: str, axes: tuple[int, ...] | None = None
    ) -> mem.Region:
        region = regions.get(id(array))
        if region is not None:
            return region
        stored = np.ascontiguousarray(
            array if axes is None else np.transpose(array, axes)
        )
        region = machine.add_global(label, stored.nbytes)
        region.data[: stored.nbytes] = stored.reshape(-1).view(np.uint8)
        region.array = array
        regions[id(array)] = region
        binding.copies.append((array, region, axes))
        return region

    for index, (param, arg) in enumerate(zip(params, args, strict=True)):
        label = f"argument {index} ({param.name})"
        view = (
            record.params[index]
            if record is not None and index < len(record.params)
            else None
        )
        if isinstance(arg, np.ndarray) and view is not None:
            arg = _tensor_map_for_view(machine, view, arg, index, allocate, label)  # noqa: PLW2901 (the array stands for this map)
        if isinstance(arg, TensorMap):
            allocate(arg.array, label + " tensor map")
            if param.size == 8 and param.type.kind != "f":
                # A pointer parameter: the map lives in global memory, where the host
                # copied the encoded map (CUDA's tensor maps in global memory).
                holder = machine.add_global(f"{label}: the tensor map", 128)
                global_maps[holder.extra["index"]] = arg
                _put(
                    data, param, mem.global_base(holder.extra["index"]), machine, index
                )
                continue
            _check_map_param(machine, param, index, name)
            maps[param.address] = arg
            continue
        if isinstance(arg, np.ndarray):
            region = allocate(arg, label)
            _put(data, param, mem.global_base(region.extra["index"]), machine, index)
            continue
        if arg is None:
            continue
        if isinstance(arg, bool | int | np.integer):
            _put(data, param, int(arg), machine, index)
            continue
        if isinstance(arg, float | np.floating):
            _put_float(data, param, float(arg), machine, index)
            continue
        raise SimulationError(
            f"argument {index} of kernel '{name}' is a {type(arg).__name__}; pass a numpy "
            "array, an int, a float, a TensorMap or None",
            file=machine.program.file,
        )
    machine.set_params(bytes(data))
    return binding


def _tensor_map_for_view(  # noqa: PLR0917 (one argument and where it goes)
    machine: Machine,
    view: TiledViewRecord,
    array: npt.NDArray[Any],
    index: int,
    allocate: Any,
    label: str,
) -> TensorMap:
    if tuple(array.shape) != view.shape:
        raise SimulationError(
            f"argument {index} stands for a tiled_view of shape {view.shape}, got an array "
            f"of shape {array.shape}",
            file=machine.program.file,
        )
    if np.dtype(array.dtype) != np.dtype(view.dtype):
        raise SimulationError(
            f"argument {index} stands for a tiled_view of {np.dtype(view.dtype).name}, got "
            f"{array.dtype.name}",
            file=machine.program.file,
        )
    axes = view.storage_axes
    region = allocate(array, label, axes)
    stored = np.ascontiguousarray(np.transpose(array, axes))
    box = tuple(view.box[a] for a in axes)
    try:
        tmap = TensorMap(stored, box, swizzle=view.swizzle)
    except ValueError as error:
        raise SimulationError(
            f"argument {index}: {error}", file=machine.program.file
        ) from None
    machine.state["array_regions"][id(stored)] = region
    return tmap


def _check_map_param(machine: Machine, param: Symbol, index: int, name: str) -> None:
    if param.size != 128 or param.align < 64:
        raise SimulationError(
            f"argument {index} of kernel '{name}' is a TensorMap, but its parameter "
            f"'{param.name}' is neither a 128-byte `.param .align 64 .b8` array nor a pointer",
            file=machine.program.file,
        )


def _put(
    data: bytearray, param: Symbol, value: int, machine: Machine, index: int
) -> None:
    width = param.size
    if width not in (1, 2, 4, 8):
        raise SimulationError(
            f"argument {index}: parameter '{param.name}' of {width} bytes cannot take a scalar",
            file=machine.program.file,
        )
    data[param.address : param.address + width] = (
        value & ((1 << (8 * width)) - 1)
    ).to_bytes(width, "little")


def _put_float(
    data: bytearray, param: Symbol, value: float, machine: Machine, index: int
) -> None:
    width = param.size
    if width == 4:
        raw = np.array(value, dtype=np.float32).tobytes()
    elif width == 8:
        raw = np.array(value, dtype=np.float64).tobytes()
    elif width == 2:
        raw = np.array(value, dtype=np.float16).tobytes()
    else:
        raise SimulationError(
            f"argument {index}: parameter '{param.name}' of {width} bytes cannot take a float",
            file=machine.program.file,
        )
    data[param.address : param.address + width] = raw
