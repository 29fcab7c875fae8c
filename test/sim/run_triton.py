"""Launch a Triton GEMM of `kernels/triton/` in the simulator, as Triton's host would.

`launch_kernel(name, M, N, K)` builds small-integer A and B, every argument the manifest
describes (arrays, tensor maps, scalars), runs the kernel and returns (C, A @ B computed
in f64, report). Run as a script to try one: `.venv/bin/python test/sim/run_triton.py tma_f16 128 128 128`.
"""

from __future__ import annotations

import sys
from math import ceil
from typing import Any

import ml_dtypes
import numpy as np
import numpy.typing as npt
from triton_kernels import KERNELS_DIR, load_manifest  # pyright: ignore[reportImplicitRelativeImport]

from tileas_py.sim import Report, TensorMap, launch

_DTYPES: dict[str, Any] = {
    "float16": np.float16,
    "bfloat16": ml_dtypes.bfloat16,
    "float32": np.float32,
    "float8_e4m3fn": ml_dtypes.float8_e4m3fn,
    "e4m3": ml_dtypes.float8_e4m3fn,
}

LIMITS = {"float16": 2, "bfloat16": 2, "float32": 2, "float8_e4m3fn": 2, "e4m3": 2}
"""Inputs are integers in [-limit, limit]: every sum of K products stays exact."""


def _cdiv(a: int, b: int) -> int:
    return ceil(a / b)


def _evaluate(expression: str | int, sizes: dict[str, int]) -> int:
    if isinstance(expression, int):
        return expression
    scope: dict[str, object] = {"cdiv": _cdiv, "min": min, **sizes}
    return int(eval(expression, {"__builtins__": {}}, scope))


def launch_kernel(
    name: str,
    m: int,
    n: int,
    k: int,
    *,
    num_sms: int = 2,
    seed: int = 0,
    check: bool = True,
) -> tuple[npt.NDArray[Any], npt.NDArray[np.float64], Report]:
    kernel = load_manifest()[name]
    sizes = {"M": m, "N": n, "K": k, "num_sms": num_sms}
    rng = np.random.default_rng(seed)
    matrices = kernel["matrices"]
    a_dtype = _DTYPES[matrices["A"]["dtype"]]
    b_dtype = _DTYPES[matrices["B"]["dtype"]]
    limit_a = LIMITS[matrices["A"]["dtype"]]
    a = (
        rng.integers(-limit_a, limit_a + 1, size=(m, k))
        .astype(np.float32)
        .astype(a_dtype)
    )
    b = (
        rng.integers(-limit_a, limit_a + 1, size=(k, n))
        .astype(np.float32)
        .astype(b_dtype)
    )
    c = np.zeros((m, n), dtype=_DTYPES[matrices["C"]["dtype"]])
    stored = {
        "A": a,
        "B": np.ascontiguousarray(b.T) if matrices["B"]["holds"] == "B.T" else b,
        "C": c,
    }
    args: list[Any] = []
    for param in kernel["params"]:
        kind = param["kind"]
        if kind == "tensormap":
            args.append(
                TensorMap(
                    stored[param["matrix"]],
                    param["box"],
                    swizzle=param["swizzle"],
                    element_strides=param.get("element_strides"),
                    oob_fill=param.get("oob_fill", "zero"),
                )
            )
        elif kind == "pointer":
            args.append(stored[param["matrix"]])
        elif kind == "scalar":
            args.append(_evaluate(param["value"], sizes))
        elif kind in ("scratch", "none"):
            args.append(None)
        else:
            raise ValueError(f"unknown parameter kind {kind!r}")
    report = launch(
        KERNELS_DIR / kernel["ptx"],
        kernel["entry"],
        _evaluate(kernel["grid"], sizes),
        tuple(kernel["block"]),
        args,
        cluster=tuple(kernel["cluster"]),
        dynamic_shared=kernel["dynamic_shared"],
        check=check,
    )
    expected = a.astype(np.float64) @ b.astype(np.float64)
    return c, expected, report


if __name__ == "__main__":
    name, m, n, k = sys.argv[1], *map(int, sys.argv[2:5])
    c, expected, report = launch_kernel(name, m, n, k)
    print(report)
    print("exact:", np.array_equal(c.astype(np.float64), expected))
