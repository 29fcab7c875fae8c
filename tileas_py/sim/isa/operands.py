"""Instruction operands as readers and writers over groups of threads.

An ori instruction's operands are a tree of attributes whose register leaves are its SSA
operands in order (`tileas_py.dialects.ori.attributes`). `operand_tree` pairs each leaf
with its register; `reader` and `writer` compile an operand, read or written as a given
PTX type, into a function of (machine, lanes). PTX's operand-size rules apply: a register
read as a narrower type is truncated, as a wider one zero-extended; a result written to a
wider register is sign-extended for signed types and zero-extended otherwise.
PTX ISA, "Operand Type Information": https://docs.nvidia.com/cuda/parallel-thread-execution/#operand-costs
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Attribute

from tileas_py.dialects.ori.attributes import (
    AddressAttr,
    FloatImmAttr,
    ImmAttr,
    NotAttr,
    PairAttr,
    ParenAttr,
    SinkAttr,
    SlotAttr,
    SpecialRegAttr,
    VectorAttr,
)
from tileas_py.sim import memory as mem
from tileas_py.sim.program import Instruction, Symbol
from tileas_py.sim.ptx_types import PtxType, from_bits, ptx_type, resize_bits, to_bits

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]
Values = npt.NDArray[Any]
Reader = Callable[["Machine", Lanes], Values]
Writer = Callable[["Machine", Lanes, Values], None]

U64 = ptx_type("u64")
U32 = ptx_type("u32")


# -- operand trees ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Reg:
    index: int


@dataclass(frozen=True)
class Imm:
    value: int


@dataclass(frozen=True)
class FloatImm:
    width: int
    bits: int


@dataclass(frozen=True)
class Special:
    name: str


@dataclass(frozen=True)
class Sym:
    name: str


@dataclass(frozen=True)
class Sink:
    pass


@dataclass(frozen=True)
class Address:
    base: Operand
    offset: int
    rest: tuple[Operand, ...]


@dataclass(frozen=True)
class Vector:
    elements: tuple[Operand, ...]


@dataclass(frozen=True)
class Pair:
    first: Operand
    second: Operand


@dataclass(frozen=True)
class Not:
    inner: Operand


@dataclass(frozen=True)
class Paren:
    elements: tuple[Operand, ...]


Operand = (
    Reg | Imm | FloatImm | Special | Sym | Sink | Address | Vector | Pair | Not | Paren
)


def operand_tree(inst: Instruction) -> list[Operand]:
    """The instruction's operands with their registers resolved to global numbers."""
    registers = iter(inst.registers)
    return [_convert(operand, registers) for operand in inst.operands]


def _convert(operand: Attribute, registers: Iterator[int]) -> Operand:
    if isinstance(operand, SlotAttr):
        return Reg(next(registers))
    if isinstance(operand, ImmAttr):
        return Imm(operand.value.data)
    if isinstance(operand, FloatImmAttr):
        return FloatImm(operand.width.data, operand.bits.data)
    if isinstance(operand, SpecialRegAttr):
        return Special(operand.reg_name.data)
    if isinstance(operand, SymbolRefAttr):
        return Sym(operand.root_reference.data)
    if isinstance(operand, SinkAttr):
        return Sink()
    if isinstance(operand, AddressAttr):
        base = _convert(operand.base, registers)
        rest = tuple(_convert(item, registers) for item in operand.rest)
        return Address(base, operand.offset.data, rest)
    if isinstance(operand, VectorAttr):
        return Vector(tuple(_convert(e, registers) for e in operand.elements))
    if isinstance(operand, PairAttr):
        return Pair(
            _convert(operand.first, registers), _convert(operand.second, registers)
        )
    if isinstance(operand, NotAttr):
        return Not(_convert(operand.operand, registers))
    if isinstance(operand, ParenAttr):
        return Paren(tuple(_convert(e, registers) for e in operand.elements))
    raise TypeError(f"not a PTX operand: {operand}")


# -- reading ------------------------------------------------------------------------------


class OperandError(Exception):
    """An operand the instruction cannot take (the caller locates it)."""


def reader(m: Machine, inst: Instruction, operand: Operand, ty: PtxType) -> Reader:
    """Read `operand` as values of type `ty` (packed types: shape (n, elements))."""
    if isinstance(operand, Reg):
        return _register_reader(m, operand.index, ty)
    if isinstance(operand, Imm):
        return _constant(_immediate(operand.value, ty), ty)
    if isinstance(operand, FloatImm):
        return _constant(_float_immediate(operand, ty), ty)
    if isinstance(operand, Special):
        name = operand.name

        def read_special(m: Machine, lanes: Lanes) -> Values:
            from tileas_py.sim.isa.special import special_register

            raw = special_register(m, name, lanes, inst)
            if ty.kind == "pred":  # %is_explicit_cluster
                return raw != 0
            return from_bits(resize_bits(raw, ty.bits), ty)

        return read_special
    if isinstance(operand, Sym):
        address = symbol_value(m, inst, operand.name)
        return _constant(_immediate(address, ty), ty)
    if isinstance(operand, Not):
        inner = reader(m, inst, operand.inner, ty)
        return lambda m, lanes: ~inner(m, lanes)
    raise OperandError(
        f"cannot read {type(operand).__name__.lower()} operand as .{ty.name}"
    )


def _register_reader(m: Machine, index: int, ty: PtxType) -> Reader:
    register = m.program.registers[index]
    if ty.kind == "pred":
        if register.width == 1:
            return lambda m, lanes: m.regs[index][lanes]
        return lambda m, lanes: m.regs[index][lanes] != 0
    if register.width == 1:
        return lambda m, lanes: from_bits(m.regs[index][lanes].astype(np.uint8), ty)
    if register.width == ty.bits and ty.lanes == 1:
        dtype = ty.dtype
        return lambda m, lanes: m.regs[index][lanes].view(dtype)
    return lambda m, lanes: from_bits(resize_bits(m.regs[index][lanes], ty.bits), ty)


def _immediate(value: int, ty: PtxType) -> Any:
    if ty.kind == "pred":
        return bool(value)
    if ty.is_float:
        return np.array(value, dtype=np.float64).astype(ty.dtype)
    bits = value & ((1 << ty.bits) - 1)
    return np.array(bits, dtype=np.uint64).astype(ty.storage).view(ty.dtype)


def _float_immediate(operand: FloatImm, ty: PtxType) -> Any:
    source = ptx_type("f32" if operand.width == 32 else "f64")
    value = (
        np.array(operand.bits, dtype=np.uint64)
        .astype(source.storage)
        .view(source.dtype)
    )
    if ty.is_float:
        return value.astype(ty.dtype)
    if ty.bits == operand.width:
        # An integer-typed instruction (`mov.b32 %r, 0f3F800000`) takes the bits.
        return np.array(operand.bits, dtype=np.uint64).astype(ty.storage).view(ty.dtype)
    raise OperandError(f"a {operand.width}-bit float immediate cannot be .{ty.name}")


def _constant(value: Any, ty: PtxType) -> Reader:
    if ty.lanes > 1:
        packed = from_bits(
            np.array([to_bits(np.array(value), ptx_type(f"b{ty.bits}"))]), ty
        )
        return lambda m, lanes: np.broadcast_to(
            packed, (lanes.shape[0], ty.lanes)
        ).copy()
    scalar = np.array(value, dtype=ty.dtype)

    dtype = np.dtype(ty.dtype)

    def constant(m: Machine, lanes: Lanes) -> Values:
        return cast(Values, np.full(lanes.shape[0], scalar, dtype=dtype))

    return constant


def symbol_value(m: Machine, inst: Instruction, name: str) -> int:
    """What a symbol means as a value: its address in its own state space."""
    symbol = m.program.symbol(inst.function, name)
    if symbol is not None:
        if symbol.space == "global":
            return mem.global_base(0) + symbol.address
        return symbol.address
    if name in m.program.functions:
        raise OperandError(
            f"function '{name}' used as a value (indirect calls are not supported)"
        )
    raise OperandError(f"unknown symbol '{name}'")


def lookup(m: Machine, inst: Instruction, name: str) -> Symbol:
    symbol = m.program.symbol(inst.function, name)
    if symbol is None:
        raise OperandError(f"unknown symbol '{name}'")
    return symbol


# -- writing ------------------------------------------------------------------------------


def writer(m: Machine, inst: Instruction, operand: Operand, ty: PtxType) -> Writer:
    """Write values of type `ty` to `operand` (a register or `_`)."""
    if isinstance(operand, Sink):
        return lambda m, lanes, values: None
    if isinstance(operand, Reg):
        return _register_writer(m, operand.index, ty)
    raise OperandError(f"cannot write a {type(operand).__name__.lower()} operand")


def _register_writer(m: Machine, index: int, ty: PtxType) -> Writer:
    register = m.program.registers[index]
    if register.width == 1:

        def write_predicate(m: Machine, lanes: Lanes, values: Values) -> None:
            m.regs[index][lanes] = (
                values.astype(np.bool_) if values.dtype != np.bool_ else values
            )

        return write_predicate
    width = register.width
    signed = ty.is_signed
    if ty.kind == "pred":

        def write_flag(m: Machine, lanes: Lanes, values: Values) -> None:
            m.regs[index][lanes] = values.astype(m.regs[index].dtype)

        return write_flag

    def write(m: Machine, lanes: Lanes, values: Values) -> None:
        bits = to_bits(values, ty)
        if bits.dtype.itemsize * 8 != width:
            bits = resize_bits(bits, min(width, 64), signed=signed)
        m.regs[index][lanes] = bits

    return write


def vector_elements(operand: Operand) -> tuple[Operand, ...]:
    """The elements of a `{a, b, ...}` operand, or the operand alone."""
    if isinstance(operand, Vector):
        return operand.elements
    return (operand,)


# -- addresses ----------------------------------------------------------------------------


def address_reader(
    m: Machine, inst: Instruction, operand: Operand
) -> tuple[Reader, str | None]:
    """The byte address an `[...]` operand names, as u64, and the state space of its
    base symbol if it has one (`shared`, `param`, `local`, `frame`, `global`, `const`)."""
    if not isinstance(operand, Address):
        # Some instructions (`cvta`, `mapa`, `prefetch.tensormap`) take a bare address.
        return _base_reader(m, inst, operand), _symbol_space(m, inst, operand)
    base = _base_reader(m, inst, operand.base)
    offset = np.uint64(operand.offset & ((1 << 64) - 1))
    space = _symbol_space(m, inst, operand.base)
    if operand.offset == 0:
        return base, space
    return (lambda m, lanes: base(m, lanes) + offset), space


def _base_reader(m: Machine, inst: Instruction, operand: Operand) -> Reader:
    if isinstance(operand, Reg):
        register = m.program.registers[operand.index]
        index = operand.index
        if register.width == 64:
            return lambda m, lanes: m.regs[index][lanes]
        return lambda m, lanes: m.regs[index][lanes].astype(np.uint64)
    if isinstance(operand, Imm):
        return _constant(np.uint64(operand.value & ((1 << 64) - 1)), U64)
    if isinstance(operand, Sym):
        return _constant(np.uint64(symbol_value(m, inst, operand.name)), U64)
    raise OperandError(
        f"cannot use a {type(operand).__name__.lower()} operand as an address"
    )


def _symbol_space(m: Machine, inst: Instruction, operand: Operand) -> str | None:
    if isinstance(operand, Sym):
        symbol = m.program.symbol(inst.function, operand.name)
        return symbol.space if symbol is not None else None
    return None
