"""`tileas-run`: run a kernel in the simulator from the shell (`tileas_py.sim.launch`).

    tileas-run k.ptx --kernel NAME --grid 4 --block 256 \\
        --arg a.npy --arg 256 --arg none --arg tmap:b.npy:64x64:128 --out 0=a_out.npy

Each `--arg` is one kernel parameter, in order:

- `FILE.npy`: an array (a global pointer; `--out` can save it after the run);
- `zeros:SHAPE:DTYPE`: a new zero array, e.g. `zeros:256x256:float32`;
- an integer (`256`, `0x100`, `-1`) or a float (`1.5`): a scalar;
- `none`: a pointer that is never dereferenced;
- `tmap:ARRAY:BOX[:SWIZZLE]`: a tensor map over ARRAY (a `.npy` file or a `zeros:`
  array), box in numpy order (`64x64`), swizzle in bytes (0, 32, 64, 128).

Grid, block and cluster are `N`, `X,Y` or `XxYxZ`. Hazards print as diagnostics
(`file:line: error: race: ...`) and exit 1; so does a run that cannot go on (deadlock,
out-of-bounds access, unsupported instruction, bad arguments). Never a traceback.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

_NUMBER = re.compile(r"[-+]?(0[xX][0-9a-fA-F]+|\d+)$")


class ArgumentError(Exception):
    """A command-line argument that cannot be used (reported as one diagnostic)."""


def _dims(text: str, what: str) -> tuple[int, ...]:
    parts = re.split(r"[x,]", text)
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:
        raise ArgumentError(f"{what} must be N, X,Y or XxYxZ, got '{text}'") from None
    if not 1 <= len(values) <= 3 or any(v < 1 for v in values):
        raise ArgumentError(f"{what} must be 1 to 3 positive extents, got '{text}'")
    return values


def _array(spec: str) -> npt.NDArray[Any]:
    if spec.startswith("zeros:"):
        _, shape, dtype = [*spec.split(":"), ""][:3]
        try:
            return np.zeros(
                _dims(shape, "a zeros: shape"), dtype=np.dtype(dtype or "float32")
            )
        except TypeError:
            raise ArgumentError(f"unknown dtype '{dtype}' in '{spec}'") from None
    path = Path(spec)
    try:
        loaded: object = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as error:
        raise ArgumentError(f"cannot read array '{spec}': {error}") from None
    if not isinstance(loaded, np.ndarray):
        raise ArgumentError(f"'{spec}' does not hold one array")
    return cast(npt.NDArray[Any], loaded)


def _argument(spec: str) -> Any:
    from tileas_py.sim import TensorMap

    if spec.lower() == "none":
        return None
    if _NUMBER.match(spec):
        return int(spec, 0)
    if spec.startswith("tmap:"):
        fields = spec[len("tmap:") :].split(":")
        if len(fields) >= 2 and fields[0] == "zeros":
            fields = [":".join(fields[:3]), *fields[3:]]
        if len(fields) not in (2, 3):
            raise ArgumentError(
                f"a tensor map is tmap:ARRAY:BOX[:SWIZZLE], got '{spec}'"
            )
        array = _array(fields[0])
        box = _dims(fields[1], "a tensor map box") if fields[1] else ()
        try:
            swizzle = int(fields[2]) if len(fields) == 3 else 0
            return TensorMap(array, box, swizzle=swizzle)
        except ValueError as error:
            raise ArgumentError(f"'{spec}': {error}") from None
    if spec.endswith(".npy") or spec.startswith("zeros:"):
        return _array(spec)
    try:
        return float(spec)
    except ValueError:
        raise ArgumentError(
            f"cannot read argument '{spec}' (an .npy file, zeros:SHAPE:DTYPE, a number, "
            "none or tmap:ARRAY:BOX[:SWIZZLE])"
        ) from None


def _outputs(specs: Sequence[str], args: list[Any]) -> list[tuple[int, Path]]:
    from tileas_py.sim import TensorMap

    outputs: list[tuple[int, Path]] = []
    for spec in specs:
        index, _, path = spec.partition("=")
        if not index.isdigit() or not path:
            raise ArgumentError(f"--out takes INDEX=FILE.npy, got '{spec}'")
        if int(index) >= len(args):
            raise ArgumentError(f"--out {spec}: there are only {len(args)} arguments")
        if not isinstance(args[int(index)], np.ndarray | TensorMap):
            raise ArgumentError(f"--out {spec}: argument {index} is not an array")
        outputs.append((int(index), Path(path)))
    return outputs


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tileas-run",
        description="Run a kernel of a .ptx or .mlir file in tileas-py's CPU simulator.",
    )
    parser.add_argument("source", help="a .ptx file, or a .mlir file (tile or NVVM IR)")
    parser.add_argument("--kernel", help="the kernel (default: the file's only kernel)")
    parser.add_argument("--grid", default="1", help="CTAs: N, X,Y or XxYxZ")
    parser.add_argument(
        "--block", default=None, help="threads per CTA (default: .reqntid)"
    )
    parser.add_argument("--cluster", default=None, help="CTAs per cluster")
    parser.add_argument(
        "--arg", action="append", default=[], help="one kernel parameter"
    )
    parser.add_argument("--out", action="append", default=[], help="INDEX=FILE.npy")
    parser.add_argument("--dynamic-shared", type=int, default=None, help="bytes")
    parser.add_argument(
        "--no-check", action="store_true", help="report hazards as warnings, exit 0"
    )
    parser.add_argument(
        "--no-fixup", action="store_true", help="run the PTX exactly as written"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; every error is one diagnostic on stderr and exit status 1."""
    import os

    try:
        return run(argv)
    except RecursionError:
        print("tileas-run: error: input is nested too deeply", file=sys.stderr)
        return 1
    except (
        Exception
    ) as error:  # an internal bug: still one diagnostic, never a traceback
        if os.environ.get("TILEAS_RUN_TRACEBACK"):
            raise
        print(
            f"tileas-run: internal error: {type(error).__name__}: {error} "
            "(set TILEAS_RUN_TRACEBACK=1 for the Python traceback)",
            file=sys.stderr,
        )
        return 2


def run(argv: Sequence[str] | None = None) -> int:
    options = _parser().parse_args(argv)
    try:
        args = [_argument(spec) for spec in options.arg]
        outputs = _outputs(options.out, args)
    except ArgumentError as error:
        print(f"tileas-run: error: {error}", file=sys.stderr)
        return 1
    code = _launch(options, args)
    if code != _FAILED_BEFORE_RUN:
        _save(outputs, args)
    return min(code, 1)


_FAILED_BEFORE_RUN = 3
"""`_launch`'s code for a failure before the kernel ran: there is nothing to save."""


def _launch(options: argparse.Namespace, args: list[Any]) -> int:
    """Run the kernel; 0 if clean, 1 if it found hazards or stopped, else
    `_FAILED_BEFORE_RUN`."""
    from tileas_py.sim import HazardError, SimulationError
    from tileas_py.sim.launch import prepare, run_prepared

    source: str = options.source
    try:
        grid = _dims(options.grid, "--grid")
        cluster = _dims(options.cluster, "--cluster") if options.cluster else None
        prepared = prepare(Path(source), fixup=not options.no_fixup)
        kernel: str = options.kernel or _only_kernel(prepared)
        block = (
            _dims(options.block, "--block")
            if options.block
            else _required_block(prepared, kernel)
        )
    except ArgumentError as error:
        print(f"tileas-run: error: {error}", file=sys.stderr)
        return _FAILED_BEFORE_RUN
    except SimulationError as error:
        print(error.diagnostic(), file=sys.stderr)
        return _FAILED_BEFORE_RUN
    for message in prepared.messages:
        print(message, file=sys.stderr)
    try:
        report = run_prepared(
            prepared,
            kernel,
            grid,
            block,
            args,
            cluster=cluster,
            dynamic_shared=options.dynamic_shared,
            check=not options.no_check,
        )
    except HazardError as error:
        for hazard in error.hazards:
            print(hazard.diagnostic(error.file or source), file=sys.stderr)
        if error.stopped_by is not None:
            print(error.stopped_by.diagnostic(), file=sys.stderr)
        return 1
    except SimulationError as error:
        print(error.diagnostic(), file=sys.stderr)
        return 1
    for hazard in report.hazards:
        print(hazard.diagnostic(source, severity="warning"), file=sys.stderr)
    print(report.summary())
    return 0


def _only_kernel(prepared: Any) -> str:
    from tileas_py.dialects.ori.attributes import FunctionKind

    kernels = [
        f.name
        for f in prepared.program.functions.values()
        if f.kind is FunctionKind.ENTRY and f.entry >= 0
    ]
    if len(kernels) != 1:
        raise ArgumentError(
            f"{prepared.file} has {len(kernels)} kernels ({', '.join(kernels)}); name one "
            "with --kernel"
        )
    return kernels[0]


def _required_block(prepared: Any, kernel: str) -> tuple[int, ...]:
    function = prepared.program.kernel(kernel)
    if "reqntid" in function.directives:
        return function.directives["reqntid"]
    raise ArgumentError("--block is needed: the kernel has no .reqntid")


def _save(outputs: list[tuple[int, Path]], args: list[Any]) -> None:
    from tileas_py.sim import TensorMap

    for index, path in outputs:
        value = args[index]
        np.save(path, value.array if isinstance(value, TensorMap) else value)


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
