"""Run one PTX instruction sequence over many operand values in a single launch.

Every thread of the kernel loads its operands from input arrays at its global index, runs the
body and stores its results to output arrays at the same index, so one launch checks as many
cases as there are threads. Operands move as raw bits (`.b16`, `.b32`, ...), so the test
decides how to read them; predicates travel as bytes (0 or 1).

    out = run_cases("add.rz.f32 %d, %a, %b;", {"a": ("b32", xs), "b": ("b32", ys)}, {"d": "b32"})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from tileas_py.sim import launch

Bits = npt.NDArray[Any]

BLOCK = 1024

_STORAGE: dict[str, Any] = {
    "b8": np.uint8,
    "b16": np.uint16,
    "b32": np.uint32,
    "b64": np.uint64,
    "pred": np.uint8,
}


def run_cases(
    body: str,
    inputs: Mapping[str, tuple[str, npt.ArrayLike]],
    outputs: Mapping[str, str],
    *,
    scratch: str = "",
) -> dict[str, Bits]:
    """Run `body` once per case. `inputs` and `outputs` name registers (`%a`, `%d`, ...)
    with their register type (`b16`, `b32`, `b64` or `pred`); inputs give one value per
    case. `scratch` declares further registers the body uses."""
    arrays = {
        name: np.array(
            [int(v) for v in np.asarray(values, dtype=object)], dtype=_STORAGE[kind]
        )
        for name, (kind, values) in inputs.items()
    }
    count = len(next(iter(arrays.values())))
    assert all(len(a) == count for a in arrays.values())
    padded = -(-count // BLOCK) * BLOCK if count > BLOCK else count
    args: list[Bits] = []
    for array in arrays.values():
        args.append(np.resize(array, padded))
    results = {name: np.zeros(padded, _STORAGE[kind]) for name, kind in outputs.items()}
    args.extend(results.values())
    kinds = {name: kind for name, (kind, _) in inputs.items()} | dict(outputs)
    ptx = _kernel(body, kinds, list(inputs), list(outputs), scratch)
    block = min(padded, BLOCK)
    launch(ptx, "cases", padded // block, block, args, fixup=False)
    return {name: values[:count] for name, values in results.items()}


def _kernel(
    body: str,
    kinds: dict[str, str],
    inputs: list[str],
    outputs: list[str],
    scratch: str,
) -> str:
    params = ", ".join(f".param .u64 p_{name}" for name in [*inputs, *outputs])
    lines = [
        ".version 8.7",
        ".target sm_90a",
        ".address_size 64",
        f".visible .entry cases({params})",
        "{",
        "  .reg .b32 %tid, %cta, %ntid, %index;",
        "  .reg .b64 %i, %base, %addr;",
        "  .reg .b16 %byte;",
    ]
    lines += [f"  .reg .{kind} %{name};" for name, kind in kinds.items()]
    if scratch:
        lines.append(f"  {scratch}")
    lines += [
        "  mov.u32 %tid, %tid.x;",
        "  mov.u32 %cta, %ctaid.x;",
        "  mov.u32 %ntid, %ntid.x;",
        "  mad.lo.u32 %index, %cta, %ntid, %tid;",
        "  cvt.u64.u32 %i, %index;",
    ]
    for name in inputs:
        lines += _address(name, kinds[name])
        if kinds[name] == "pred":
            lines += [
                "  ld.global.u8 %byte, [%addr];",
                f"  setp.ne.u16 %{name}, %byte, 0;",
            ]
        else:
            lines.append(f"  ld.global.{kinds[name]} %{name}, [%addr];")
    lines += [f"  {line.strip()}" for line in body.strip().splitlines()]
    for name in outputs:
        lines += _address(name, kinds[name])
        if kinds[name] == "pred":
            lines += [
                "  mov.u16 %byte, 1;",
                f"  @%{name} st.global.u8 [%addr], %byte;",
            ]
        else:
            lines.append(f"  st.global.{kinds[name]} [%addr], %{name};")
    lines += ["  ret;", "}"]
    return "\n".join(lines) + "\n"


def _address(name: str, kind: str) -> list[str]:
    size = np.dtype(_STORAGE[kind]).itemsize
    return [
        f"  ld.param.u64 %base, [p_{name}];",
        f"  mad.lo.u64 %addr, %i, {size}, %base;",
    ]
