"""How MLIR types live in PTX: register files, instruction type suffixes, memory layouts.

Every scalar value gets one virtual register of an nvcc-style register file: `%p` (pred,
i1), `%rs` (b16: i8, i16, f16, bf16), `%r` (b32: i32 and packed `vector<2xf16>`), `%rd`
(b64: i64, index, pointers), `%f` (f32) and `%fd` (f64). i8 values live in 16-bit registers,
as in LLVM's NVPTX backend: only their low byte is meaningful. A tensor-memory address
(`!llvm.ptr<6>`) is a 32-bit `%r`, as in NVPTX's data layout (`p6:32:32`).

An aggregate (`!llvm.struct`, `!llvm.array`, a vector other than the packed f16 pair) is
flattened into its scalar leaves, each with
its byte offset under LLVM's default (natural alignment) data layout; an aggregate value is
one register per leaf.
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#fundamental-types
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cache
from typing import cast

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    VectorType,
)
from xdsl.dialects.llvm import LLVMArrayType, LLVMPointerType, LLVMStructType
from xdsl.ir import Attribute

from tileas_py.dialects.nvvm.pointers import TENSOR, address_space
from tileas_py.dialects.ori.attributes import PtxType


@dataclass(frozen=True)
class RegisterFile:
    """A kind of virtual register: its `.reg` type and its name prefix."""

    ptx_type: PtxType
    prefix: str


PRED = RegisterFile(PtxType.PRED, "%p")
B16 = RegisterFile(PtxType.B16, "%rs")
B32 = RegisterFile(PtxType.B32, "%r")
B64 = RegisterFile(PtxType.B64, "%rd")
F32 = RegisterFile(PtxType.F32, "%f")
F64 = RegisterFile(PtxType.F64, "%fd")

REGISTER_FILES = (PRED, B16, B32, B64, F32, F64)
"""The register files in the order their declarations are printed."""

INTEGER_FILES = {16: B16, 32: B32, 64: B64}
"""The register file of each integer register width."""


@dataclass(frozen=True)
class Scalar:
    """A scalar MLIR type as PTX sees it.

    `bits` is the width of the value (1 for i1, 8 for i8); `float_name` is the PTX float
    type (`f32`, `f16`, `bf16`) or None for integers and pointers; `packed` marks the
    `vector<2xf16>` halves of an f16 WGMMA accumulator, which only move as 32 bits.
    """

    registers: RegisterFile
    bits: int
    float_name: str | None = None
    packed: bool = False

    @property
    def is_float(self) -> bool:
        return self.float_name is not None

    @property
    def is_predicate(self) -> bool:
        return self.registers is PRED

    @property
    def register_bits(self) -> int:
        """The width of the register: i8 arithmetic runs in 16 bits."""
        return 16 if self.bits == 8 else self.bits

    @property
    def signed(self) -> str:
        return f"s{self.register_bits}"

    @property
    def unsigned(self) -> str:
        return f"u{self.register_bits}"

    @property
    def untyped(self) -> str:
        return f"b{self.register_bits}"

    @property
    def arithmetic(self) -> str:
        """The suffix of `add`, `neg`, `setp`: the float type, else the signed type."""
        return self.float_name if self.float_name is not None else self.signed

    @property
    def size(self) -> int:
        """Bytes in memory."""
        return max(self.bits // 8, 1)

    @property
    def memory(self) -> str:
        """The type suffix of `ld` / `st`: i1 and i8 move as bytes, 16-bit floats as b16."""
        if self.bits <= 8:
            return "u8"
        if self.float_name in ("f32", "f64"):
            return self.float_name
        if self.is_float or self.packed:
            return f"b{self.bits}"
        return f"u{self.bits}"

    @property
    def allows_immediate(self) -> bool:
        """Whether a constant of this type may be an instruction operand as it is.

        PTX has no predicate or 16-bit float literals; those are moved into a register.
        """
        return not self.is_predicate and self.float_name not in ("f16", "bf16")

    @property
    def mov(self) -> str:
        """The `mov` that copies one register of this type."""
        if self.is_predicate:
            return "mov.pred"
        if self.float_name in ("f32", "f64"):
            return f"mov.{self.float_name}"
        return f"mov.b{self.register_bits}"


_POINTER = Scalar(B64, 64)
_TENSOR_POINTER = Scalar(B32, 32)
"""A tensor-memory address (`!llvm.ptr<6>`, sm_100) is 32 bits: `lane << 16 | column`."""


@cache
def scalar_of(type: Attribute) -> Scalar | None:
    """The scalar a type lowers to, or None for aggregates and unsupported types."""
    if isinstance(type, IntegerType):
        return {
            1: Scalar(PRED, 1),
            8: Scalar(B16, 8),
            16: Scalar(B16, 16),
            32: Scalar(B32, 32),
            64: Scalar(B64, 64),
        }.get(type.bitwidth)
    if isinstance(type, LLVMPointerType) and address_space(type) == TENSOR:
        return _TENSOR_POINTER
    if isinstance(type, IndexType | LLVMPointerType):
        return _POINTER
    if isinstance(type, Float16Type):
        return Scalar(B16, 16, "f16")
    if isinstance(type, BFloat16Type):
        return Scalar(B16, 16, "bf16")
    if isinstance(type, Float32Type):
        return Scalar(F32, 32, "f32")
    if isinstance(type, Float64Type):
        return Scalar(F64, 64, "f64")
    if (
        isinstance(type, VectorType)
        and type.get_shape() == (2,)
        and isinstance(type.get_element_type(), Float16Type | BFloat16Type)
    ):
        return Scalar(B32, 32, packed=True)
    return None


@dataclass(frozen=True)
class Leaf:
    """One scalar of a flattened aggregate, at its byte offset."""

    offset: int
    scalar: Scalar


@dataclass(frozen=True)
class Layout:
    """The scalar leaves of a type, its size and its alignment in bytes."""

    leaves: tuple[Leaf, ...]
    size: int
    align: int

    def shifted(self, offset: int) -> tuple[Leaf, ...]:
        return tuple(Leaf(leaf.offset + offset, leaf.scalar) for leaf in self.leaves)


def _round_up(value: int, align: int) -> int:
    return (value + align - 1) // align * align


@cache
def layout_of(type: Attribute) -> Layout | None:
    """The memory layout of a type, None if some part of it has no PTX form."""
    if (scalar := scalar_of(type)) is not None:
        return Layout((Leaf(0, scalar),), scalar.size, scalar.size)
    if isinstance(type, VectorType) and len(type.get_shape()) == 1:
        # A vector of scalars (`tcgen05.ld`'s registers): its elements, packed, aligned
        # to its size (LLVM's default for vectors).
        vector = cast(VectorType[Attribute], type)
        inner = scalar_of(vector.get_element_type())
        if inner is None or inner.is_predicate:
            return None
        count = vector.get_shape()[0]
        elements = tuple(Leaf(i * inner.size, inner) for i in range(count))
        size = inner.size * count
        return Layout(elements, size, 1 << (size - 1).bit_length())
    if isinstance(type, LLVMArrayType):
        element = layout_of(type.type)
        if element is None:
            return None
        stride = _round_up(element.size, element.align)
        elements = tuple(
            leaf for i in range(type.size.data) for leaf in element.shifted(i * stride)
        )
        return Layout(elements, stride * type.size.data, element.align)
    if isinstance(type, LLVMStructType):
        leaves: list[Leaf] = []
        offset = 0
        align = 1
        for field in type.types:
            inner = layout_of(field)
            if inner is None:
                return None
            offset = _round_up(offset, inner.align)
            leaves.extend(inner.shifted(offset))
            offset += inner.size
            align = max(align, inner.align)
        return Layout(tuple(leaves), _round_up(offset, align), align)
    return None


def member_types(type: Attribute) -> tuple[Attribute, ...]:
    """The direct members of an aggregate type, in order."""
    if isinstance(type, LLVMStructType):
        return tuple(type.types)
    if isinstance(type, LLVMArrayType):
        return (type.type,) * type.size.data
    return ()


@cache
def _member_starts(type: Attribute) -> tuple[int, ...]:
    """The index of the first leaf of each member of an aggregate, and the leaf count."""
    starts = [0]
    for member in member_types(type):
        member_layout = layout_of(member)
        assert member_layout is not None
        starts.append(starts[-1] + len(member_layout.leaves))
    return tuple(starts)


def member_leaves(
    type: Attribute, position: tuple[int, ...]
) -> tuple[int, int, Attribute] | None:
    """The leaf range `[start, end)` and type of the member at `position` of an aggregate,
    None when the position names no member."""
    start = 0
    for index in position:
        starts = _member_starts(type)
        if not 0 <= index < len(starts) - 1:
            return None
        start += starts[index]
        type = (
            type.type if isinstance(type, LLVMArrayType) else member_types(type)[index]
        )
    inner = layout_of(type)
    assert inner is not None
    return start, start + len(inner.leaves), type


def float_bits(value: float, scalar: Scalar) -> int:
    """The IEEE bits of a float constant of this type (bf16 rounds to nearest even)."""
    if scalar.float_name == "f64":
        return int.from_bytes(struct.pack(">d", value))
    if scalar.float_name == "f16":
        return int.from_bytes(struct.pack(">e", value))
    bits = int.from_bytes(struct.pack(">f", value))
    if scalar.float_name == "bf16":
        rounding = 0x7FFF + ((bits >> 16) & 1)
        return ((bits + rounding) >> 16) & 0xFFFF
    return bits


def signed_value(value: int, bits: int) -> int:
    """A constant as a signed `bits`-wide integer (i1 true is 1)."""
    if bits == 1:
        return value & 1
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value
