"""Loads, stores, address arithmetic, stack slots and module variables.

A pointer's LLVM address space picks the PTX state space of the access: 0 generic, 1
`.global`, 3 `.shared`, 4 `.const`, 5 `.local`, 7 `.shared::cluster`, 101 `.param`.
`getelementptr` folds constant indices into the byte offset of the address
(`ld.global.f32 %f1, [%rd2+12]`) and adds scaled dynamic ones (`mul.wide.s32`, `add.s64`).
An aggregate is loaded or stored one scalar leaf at a time. `llvm.mlir.global` becomes a
module-level `.global` / `.shared` / `.const` variable and `llvm.alloca` a `.local` one.
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-ld
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue

from tileas_py.dialects.nvvm.pointers import address_space
from tileas_py.dialects.ori.attributes import (
    ImmAttr,
    Linkage,
    PtxType,
    StateSpace,
)
from tileas_py.dialects.ori.declarations import UNSIZED, Declarator
from tileas_py.dialects.ori.function import RegOp
from tileas_py.dialects.ori.module_ops import VarOp
from tileas_py.passes.lowering.nvvm_to_ori.arith import constant_element
from tileas_py.passes.lowering.nvvm_to_ori.function import FunctionLowering, fail
from tileas_py.passes.lowering.nvvm_to_ori.operands import (
    Address,
    Constant,
    Def,
    Element,
)
from tileas_py.passes.lowering.nvvm_to_ori.registry import lowers
from tileas_py.passes.lowering.nvvm_to_ori.types import (
    B16,
    B64,
    Layout,
    Leaf,
    Scalar,
    layout_of,
    scalar_of,
)

PARAM_SPACE = 101
"""NVPTX's address space of kernel and function parameters."""

_SPACES = {
    0: "",
    1: ".global",
    3: ".shared",
    4: ".const",
    5: ".local",
    7: ".shared::cluster",
    PARAM_SPACE: ".param",
}


def space_of(fl: FunctionLowering, pointer: SSAValue) -> str:
    """The state-space part of an `ld` / `st` through `pointer`: `.global`, `` (generic)."""
    space = address_space(pointer.type)
    spelled = None if space is None else _SPACES.get(space)
    if spelled is None:
        fail(fl.op, f"unsupported address space in '{pointer.type}'")
    return spelled


def at_offset(address: Address, offset: int) -> Address:
    return Address(address.base, address.offset + offset, address.rest)


def load_leaf(
    fl: FunctionLowering, opcode_prefix: str, address: Address, leaf: Leaf, dst: RegOp
) -> None:
    """`ld<prefix>.<type> dst, [address+leaf offset]`; an i1 is loaded as a byte."""
    where = at_offset(address, leaf.offset)
    if leaf.scalar.is_predicate:
        byte = fl.fresh(B16)
        fl.emit(f"{opcode_prefix}.u8", Def(byte), where)
        fl.emit("setp.ne.s16", Def(dst), byte, ImmAttr(0))
        return
    fl.emit(f"{opcode_prefix}.{leaf.scalar.memory}", Def(dst), where)


def store_leaf(
    fl: FunctionLowering,
    opcode_prefix: str,
    address: Address,
    leaf: Leaf,
    element: Element,
) -> None:
    """`st<prefix>.<type> [address+leaf offset], value`; an i1 is stored as a byte."""
    where = at_offset(address, leaf.offset)
    scalar = leaf.scalar
    if isinstance(element, Constant):
        # `st` takes any immediate: predicates and 16-bit floats are stored as their bits.
        fl.emit(f"{opcode_prefix}.{scalar.memory}", where, element)
        return
    value = fl.in_register(element, scalar)
    if scalar.is_predicate:
        byte = fl.fresh(B16)
        fl.emit("selp.u16", Def(byte), ImmAttr(1), ImmAttr(0), value)
        fl.emit(f"{opcode_prefix}.u8", where, byte)
        return
    fl.emit(f"{opcode_prefix}.{scalar.memory}", where, value)


def load_value(
    fl: FunctionLowering, opcode_prefix: str, address: Address, value: SSAValue
) -> None:
    """Load every leaf of `value`'s type into fresh registers of `value`."""
    layout = fl.layout(value.type)
    for leaf, dst in zip(layout.leaves, fl.fresh_value(value), strict=True):
        load_leaf(fl, opcode_prefix, address, leaf, dst)


def store_value(
    fl: FunctionLowering, opcode_prefix: str, address: Address, value: SSAValue
) -> None:
    layout = fl.layout(value.type)
    for leaf, element in zip(layout.leaves, fl.elements(value), strict=True):
        store_leaf(fl, opcode_prefix, address, leaf, element)


def _volatile(op: Operation) -> str:
    return ".volatile" if "volatile_" in op.properties else ""


def _check_not_atomic(op: Operation) -> None:
    ordering = op.properties.get("ordering")
    if isinstance(ordering, IntegerAttr) and ordering.value.data != 0:
        fail(
            op, f"atomic '{op.name}' (ordering {ordering.value.data}) is not supported"
        )


@lowers(llvm.LoadOp)
def lower_load(fl: FunctionLowering, op: llvm.LoadOp) -> None:
    _check_not_atomic(op)
    prefix = f"ld{_volatile(op)}{space_of(fl, op.ptr)}"
    load_value(fl, prefix, fl.address(op.ptr), op.dereferenced_value)


@lowers(llvm.StoreOp)
def lower_store(fl: FunctionLowering, op: llvm.StoreOp) -> None:
    _check_not_atomic(op)
    prefix = f"st{_volatile(op)}{space_of(fl, op.ptr)}"
    store_value(fl, prefix, fl.address(op.ptr), op.value)


# ---------------------------------------------------------------------------------------
# Address arithmetic


def _stride(layout: Layout) -> int:
    return (layout.size + layout.align - 1) // layout.align * layout.align


def _field_offset(fl: FunctionLowering, struct: llvm.LLVMStructType, index: int) -> int:
    offset = 0
    for field in struct.types.data[:index]:
        layout = fl.layout(field)
        offset = (
            offset + layout.align - 1
        ) // layout.align * layout.align + layout.size
    field_layout = fl.layout(struct.types.data[index])
    return (offset + field_layout.align - 1) // field_layout.align * field_layout.align


def _scaled_index(fl: FunctionLowering, index: SSAValue, stride: int) -> RegOp:
    """`index * stride` as a 64-bit register (the index is signed, as in LLVM)."""
    scalar = fl.scalar(index.type)
    reg = fl.register(index)
    if scalar.bits == 32 and stride != 1:
        scaled = fl.fresh(B64)
        fl.emit("mul.wide.s32", Def(scaled), reg, ImmAttr(stride))
        return scaled
    if scalar.bits != 64:
        wide = fl.fresh(B64)
        fl.emit(f"cvt.s64.s{scalar.bits}", Def(wide), reg)
        reg = wide
    if stride == 1:
        return reg
    scaled = fl.fresh(B64)
    if stride & (stride - 1) == 0:
        fl.emit("shl.b64", Def(scaled), reg, ImmAttr(stride.bit_length() - 1))
    else:
        fl.emit("mul.lo.s64", Def(scaled), reg, ImmAttr(stride))
    return scaled


@lowers(llvm.GEPOp)
def lower_gep(fl: FunctionLowering, op: llvm.GEPOp) -> None:
    address = fl.address(op.ptr)
    base, offset = address.base, address.offset
    dynamic = iter(op.ssa_indices)
    current: Attribute = op.elem_type
    for position, raw in enumerate(op.rawConstantIndices.get_values()):
        index = next(dynamic) if raw == llvm.GEP_USE_SSA_VAL else None
        constant = raw if index is None else fl.constant(index)
        if position == 0:
            stride = _stride(fl.layout(current))
        elif isinstance(current, llvm.LLVMStructType):
            assert constant is not None, (
                "the GEP verifier wants constant struct indices"
            )
            offset += _field_offset(fl, current, constant)
            current = current.types.data[constant]
            continue
        elif isinstance(current, llvm.LLVMArrayType):
            current = current.type
            stride = _stride(fl.layout(current))
        else:
            raise AssertionError(f"the GEP verifier lets no index into '{current}'")
        if constant is not None:
            offset += constant * stride
            continue
        assert index is not None
        scaled = _scaled_index(fl, index, stride)
        if isinstance(base, SymbolRefAttr):
            base = fl.address_register(Address(base))
        summed = fl.fresh(B64)
        fl.emit("add.s64", Def(summed), base, scaled)
        base = summed
    fl.define(op.result, (Address(base, offset),))


# ---------------------------------------------------------------------------------------
# Variables


def _generic(fl: FunctionLowering, symbol: SymbolRefAttr, space: str) -> RegOp:
    """The generic address of a variable: `mov.u64` then `cvta.<space>.u64`."""
    window = fl.address_register(Address(symbol))
    generic = fl.fresh(B64)
    fl.emit(f"cvta.{space}.u64", Def(generic), window)
    return generic


@lowers(llvm.AddressOfOp)
def lower_addressof(fl: FunctionLowering, op: llvm.AddressOfOp) -> None:
    name = op.global_name.root_reference.data
    space = fl.module.global_spaces.get(name)
    if space is None:
        if name in fl.module.signatures:
            fail(op, f"taking the address of function '{name}' is not supported")
        fail(op, f"unknown global '@{name}'")
    symbol = SymbolRefAttr(name)
    if address_space(op.result.type) == 0 and space != 0:
        fail(
            op, "a generic pointer to a non-generic global needs an address space cast"
        )
    if space == 0:
        fl.define(op.result, (_generic(fl, symbol, "global"),))
    else:
        fl.define(op.result, (Address(symbol),))


@lowers(llvm.AllocaOp)
def lower_alloca(fl: FunctionLowering, op: llvm.AllocaOp) -> None:
    count = fl.constant(op.size)
    if count is None or count < 1:
        fail(op, "only allocas of a constant, positive size are supported")
    layout = fl.layout(op.elem_type)
    align = layout.align
    if op.alignment is not None:
        align = max(align, op.alignment.value.data)
    name = fl.unique_name("__local_depot")
    fl.variables.append(
        VarOp(
            StateSpace.LOCAL,
            Declarator(PtxType.B8, name, align=align, dims=(_stride(layout) * count,)),
        )
    )
    symbol = SymbolRefAttr(name)
    space = address_space(op.res.type)
    if space == 5:
        fl.define(op.res, (Address(symbol),))
    elif space == 0:
        fl.define(op.res, (_generic(fl, symbol, "local"),))
    else:
        fail(op, f"an alloca in address space {space} is not supported")


_GLOBAL_SPACES = {
    0: StateSpace.GLOBAL,
    1: StateSpace.GLOBAL,
    3: StateSpace.SHARED,
    4: StateSpace.CONST,
}


def variable_type(scalar: Scalar) -> PtxType:
    """The PTX type a variable of this scalar is declared with."""
    if scalar.is_float and scalar.allows_immediate:
        return PtxType(scalar.float_name)
    return PtxType(f"b{max(scalar.bits, 8)}")


def _array_element(type: Attribute) -> tuple[Attribute, int]:
    """The scalar element type of a (nested) array and how many there are."""
    count = 1
    while isinstance(type, llvm.LLVMArrayType):
        count *= type.size.data
        type = type.type
    return type, count


def _initializer(op: llvm.GlobalOp, scalar: Scalar, count: int) -> Attribute | None:
    value = op.value
    if value is None:
        return None
    if isinstance(value, StringAttr) and scalar.bits == 8:
        data = value.data.encode("latin-1", errors="replace")
        if len(data) != count:
            fail(op, f"the string initializer has {len(data)} bytes, not {count}")
        return ArrayAttr(ImmAttr(byte) for byte in data)
    if count == 1 and (element := constant_element(value, scalar)) is not None:
        return element
    if isinstance(value, DenseIntOrFPElementsAttr):
        elements = [constant_element(attr, scalar) for attr in value.get_attrs()]
        if len(elements) == count and all(e is not None for e in elements):
            return ArrayAttr(e for e in elements if e is not None)
    fail(op, f"unsupported initializer {value} for '{op.global_type}'")


def global_variable(op: llvm.GlobalOp) -> VarOp:
    """The PTX variable of an `llvm.mlir.global`."""
    space = _GLOBAL_SPACES.get(op.addr_space.value.data)
    if space is None:
        fail(
            op, f"globals in address space {op.addr_space.value.data} are not supported"
        )
    if op.body.blocks:
        fail(op, "globals with an initializer region are not supported")
    layout = layout_of(op.global_type)
    if layout is None:
        fail(op, f"unsupported type '{op.global_type}'")
    align = layout.align if op.alignment is None else op.alignment.value.data
    linkage_name = op.linkage.linkage.data
    external = linkage_name == "external"
    name = op.sym_name.data
    element_type, count = _array_element(op.global_type)
    scalar = scalar_of(element_type)
    init: Attribute | None = None
    if scalar is not None:
        dims = (count,) if isinstance(op.global_type, llvm.LLVMArrayType) else ()
        declarator = Declarator(variable_type(scalar), name, align=align, dims=dims)
        init = _initializer(op, scalar, count)
    elif op.value is not None:
        fail(op, f"initializers of '{op.global_type}' are not supported")
    else:
        declarator = Declarator(PtxType.B8, name, align=align, dims=(layout.size,))
    if space is StateSpace.SHARED:
        if init is not None:
            fail(op, "shared memory cannot be initialized")
        if layout.size == 0:
            unsized = Declarator(PtxType.B8, name, align=align, dims=(UNSIZED,))
            return VarOp(space, unsized, linkage=Linkage.EXTERN)
        return VarOp(space, declarator)
    linkage = None
    if external:
        linkage = Linkage.VISIBLE if init is not None else Linkage.EXTERN
    return VarOp(space, declarator, linkage=linkage, init=init)
