"""PTX's fundamental types as numpy dtypes, and the bit-level moves between them.

Registers hold raw bits (an unsigned integer array of the register's width, or booleans for
predicates); an instruction reads them as its own type and writes its result back as bits.
The narrow float formats come from `ml_dtypes` (bf16, the fp8 formats), tf32 is an f32 whose
low 13 mantissa bits are zero. PTX ISA, "Fundamental Types":
https://docs.nvidia.com/cuda/parallel-thread-execution/#fundamental-types
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import ml_dtypes
import numpy as np
import numpy.typing as npt

Kind = Literal["b", "u", "s", "f", "pred"]

Array = npt.NDArray[Any]

UNSIGNED: dict[int, type[np.unsignedinteger[Any]]] = {
    8: np.uint8,
    16: np.uint16,
    32: np.uint32,
    64: np.uint64,
}
SIGNED: dict[int, type[np.signedinteger[Any]]] = {
    8: np.int8,
    16: np.int16,
    32: np.int32,
    64: np.int64,
}
_FLOATS: dict[str, Any] = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "tf32": np.float32,
    "f32": np.float32,
    "f64": np.float64,
    "e4m3": ml_dtypes.float8_e4m3fn,
    "e5m2": ml_dtypes.float8_e5m2,
}


@dataclass(frozen=True)
class PtxType:
    """One PTX type: `u32`, `f16x2`, `pred`, ...

    `lanes` > 1 for the packed types (`f16x2`, `bf16x2`, `e4m3x2`): `bits` is the whole
    register's width and `element` the type of one packed element.
    """

    name: str
    kind: Kind
    bits: int
    lanes: int = 1

    @property
    def element(self) -> PtxType:
        if self.lanes == 1:
            return self
        return ptx_type(self.name.removesuffix(f"x{self.lanes}"))

    @property
    def is_float(self) -> bool:
        return self.kind == "f"

    @property
    def is_signed(self) -> bool:
        return self.kind == "s"

    @property
    def storage(self) -> Any:
        """The unsigned dtype that holds this type's bits."""
        if self.kind == "pred":
            return np.bool_
        return UNSIGNED[self.bits]

    @property
    def dtype(self) -> Any:
        """The dtype values of this type are computed in (one element for packed types)."""
        element = self.element
        if element.kind == "pred":
            return np.bool_
        if element.kind == "f":
            return _FLOATS[element.name]
        if element.kind == "s":
            return SIGNED[element.bits]
        return UNSIGNED[element.bits]

    @property
    def bytes(self) -> int:
        return max(self.bits // 8, 1)


_NAMES: dict[str, tuple[Kind, int]] = {
    "pred": ("pred", 1),
    "f16": ("f", 16),
    "bf16": ("f", 16),
    "tf32": ("f", 32),
    "f32": ("f", 32),
    "f64": ("f", 64),
    "e4m3": ("f", 8),
    "e5m2": ("f", 8),
}
for _width in (8, 16, 32, 64):
    for _kind in ("b", "u", "s"):
        _NAMES[f"{_kind}{_width}"] = (_kind, _width)  # pyright: ignore[reportArgumentType]
_NAMES["b128"] = ("b", 128)


@cache
def ptx_type(name: str) -> PtxType:
    """The type of a PTX type name (`u32`, `f16x2`, `e4m3x2`, ...); KeyError if unknown."""
    if name in _NAMES:
        kind, bits = _NAMES[name]
        return PtxType(name, kind, bits)
    for lanes in (2, 4):
        base = name.removesuffix(f"x{lanes}")
        if base != name and base in _NAMES and _NAMES[base][0] == "f":
            return PtxType(name, "f", _NAMES[base][1] * lanes, lanes)
    raise KeyError(name)


def is_type_name(name: str) -> bool:
    try:
        ptx_type(name)
    except KeyError:
        return False
    return True


def resize_bits(bits: Array, width: int, *, signed: bool = False) -> Array:
    """Unsigned `bits` truncated or extended (zero, or sign with `signed`) to `width` bits."""
    current = bits.dtype.itemsize * 8
    if width == current:
        return bits
    target = UNSIGNED[width]
    if width < current:
        return bits.astype(target)
    if signed:
        return bits.view(SIGNED[current]).astype(SIGNED[width]).view(target)
    return bits.astype(target)


def from_bits(bits: Array, ty: PtxType) -> Array:
    """Values of type `ty` from unsigned bits of its width (packed types: shape (..., lanes))."""
    if ty.kind == "pred":
        return bits.astype(np.bool_)
    bits = resize_bits(bits, ty.bits)
    if ty.lanes > 1:
        element = ty.element
        parts = bits.view(UNSIGNED[element.bits]).reshape(*bits.shape, ty.lanes)
        return parts.view(element.dtype)
    return bits.view(ty.dtype)


def to_bits(values: Array, ty: PtxType) -> Array:
    """The unsigned bits of values of type `ty` (packed types: values of shape (..., lanes))."""
    if ty.kind == "pred":
        return values.astype(np.bool_)
    if ty.lanes > 1:
        element = ty.element
        parts = np.ascontiguousarray(values.astype(element.dtype))
        return (
            parts.view(UNSIGNED[element.bits])
            .view(UNSIGNED[ty.bits])
            .reshape(values.shape[:-1])
        )
    typed = np.ascontiguousarray(values.astype(ty.dtype, copy=False))
    return typed.view(UNSIGNED[ty.bits])
