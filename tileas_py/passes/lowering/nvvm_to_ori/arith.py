"""Constants, integer and float arithmetic, comparisons, selects and casts.

`arith` ops and their `llvm` twins select the same PTX: `add.s32`, `mul.lo.s64`,
`shr.u32`, `div.rn.f32`, `setp.lt.s32`, `selp.f32`, `cvt.rn.f32.s32`, ... Constants stay
immediates (`add.s32 %r2, %r1, 4`, `mul.f32 %f2, %f1, 0f3F000000`) where PTX takes one, and
are moved into a register where it does not. i1 values are predicates: their `and` / `or` /
`xor` are `.pred` instructions, and they widen through `selp`. i8 values live in 16-bit
registers; the instructions that read more than their low byte see them sign- or
zero-extended first.
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#integer-arithmetic-instructions
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import FloatAttr, IntegerAttr
from xdsl.ir import Operation, SSAValue

from tileas_py.dialects.ori.attributes import FloatImmAttr, ImmAttr
from tileas_py.dialects.ori.function import RegOp
from tileas_py.passes.lowering.nvvm_to_ori.function import (
    FunctionLowering,
    fail,
    file_of,
)
from tileas_py.passes.lowering.nvvm_to_ori.operands import Constant, Def, Element
from tileas_py.passes.lowering.nvvm_to_ori.registry import lowers
from tileas_py.passes.lowering.nvvm_to_ori.types import (
    B32,
    INTEGER_FILES,
    PRED,
    Scalar,
    float_bits,
    signed_value,
)

# ---------------------------------------------------------------------------------------
# Constants


def constant_element(attr: object, scalar: Scalar) -> Constant | None:
    """A constant attribute as an element of `scalar`'s type, None if it is not one."""
    if isinstance(attr, IntegerAttr) and not scalar.is_float:
        return ImmAttr(signed_value(attr.value.data, scalar.bits))
    if isinstance(attr, FloatAttr) and scalar.is_float:
        bits = float_bits(attr.value.data, scalar)
        if scalar.allows_immediate:
            return FloatImmAttr(scalar.bits, bits)
        return ImmAttr(bits)
    return None


def zero_element(scalar: Scalar) -> Constant:
    if scalar.is_float and scalar.allows_immediate:
        return FloatImmAttr(scalar.bits, 0)
    return ImmAttr(0)


@lowers(arith.ConstantOp, llvm.ConstantOp)
def lower_constant(fl: FunctionLowering, op: Operation) -> None:
    result = op.results[0]
    scalar = fl.scalar(result.type)
    value = op.properties.get("value")
    element = constant_element(value, scalar)
    if element is None:
        fail(op, f"unsupported constant {value}")
    fl.define(result, (element,))


@lowers(llvm.ZeroOp)
def lower_zero(fl: FunctionLowering, op: llvm.ZeroOp) -> None:
    layout = fl.layout(op.res.type)
    fl.define(op.res, tuple(zero_element(leaf.scalar) for leaf in layout.leaves))


@lowers(llvm.UndefOp)
def lower_undef(fl: FunctionLowering, op: llvm.UndefOp) -> None:
    fl.fresh_value(op.res)


# ---------------------------------------------------------------------------------------
# Integer arithmetic

# (PTX operation, which type suffix: signed, unsigned or untyped bits)
_INTEGER_BINARY: dict[type[Operation], tuple[str, str]] = {
    arith.AddiOp: ("add", "s"),
    llvm.AddOp: ("add", "s"),
    arith.SubiOp: ("sub", "s"),
    llvm.SubOp: ("sub", "s"),
    arith.MuliOp: ("mul.lo", "s"),
    llvm.MulOp: ("mul.lo", "s"),
    arith.DivSIOp: ("div", "s"),
    llvm.SDivOp: ("div", "s"),
    arith.DivUIOp: ("div", "u"),
    llvm.UDivOp: ("div", "u"),
    arith.RemSIOp: ("rem", "s"),
    llvm.SRemOp: ("rem", "s"),
    arith.RemUIOp: ("rem", "u"),
    llvm.URemOp: ("rem", "u"),
    arith.MinSIOp: ("min", "s"),
    arith.MaxSIOp: ("max", "s"),
    arith.MinUIOp: ("min", "u"),
    arith.MaxUIOp: ("max", "u"),
    arith.AndIOp: ("and", "b"),
    llvm.AndOp: ("and", "b"),
    arith.OrIOp: ("or", "b"),
    llvm.OrOp: ("or", "b"),
    arith.XOrIOp: ("xor", "b"),
    llvm.XOrOp: ("xor", "b"),
    arith.ShLIOp: ("shl", "b"),
    llvm.ShlOp: ("shl", "b"),
    arith.ShRUIOp: ("shr", "u"),
    llvm.LShrOp: ("shr", "u"),
    arith.ShRSIOp: ("shr", "s"),
    llvm.AShrOp: ("shr", "s"),
}

# i1 arithmetic is arithmetic modulo 2.
_PREDICATE_BINARY = {
    "add": "xor",
    "sub": "xor",
    "mul.lo": "and",
    "and": "and",
    "or": "or",
    "xor": "xor",
}

_COMMUTATIVE = frozenset({"add", "mul.lo", "min", "max", "and", "or", "xor"})
# Operations whose result depends on more than the low byte of an i8 operand.
_READS_WHOLE_I8 = frozenset({"div", "rem", "min", "max", "shr"})


def widened_i8(fl: FunctionLowering, reg: RegOp, signed: bool) -> RegOp:
    """An i8 held in a 16-bit register, with its upper byte made a sign or zero extension."""
    wide = fl.fresh(file_of(reg))
    if signed:
        fl.emit("cvt.s16.s8", Def(wide), reg)
    else:
        fl.emit("and.b16", Def(wide), reg, ImmAttr(0xFF))
    return wide


def integer_operand(
    fl: FunctionLowering, value: SSAValue, scalar: Scalar, signed: bool, whole: bool
) -> RegOp | Constant:
    source = fl.source(value)
    if whole and scalar.bits == 8:
        if isinstance(source, ImmAttr):
            return ImmAttr(signed_value(source.value.data, 8))
        assert isinstance(source, RegOp)
        return widened_i8(fl, source, signed)
    return source


def shift_amount(
    fl: FunctionLowering, value: SSAValue, scalar: Scalar
) -> RegOp | Constant:
    """PTX shifts take a 32-bit amount whatever the width of the shifted value (an i8
    amount is its register's low byte)."""
    source = fl.source(value)
    if isinstance(source, ImmAttr) or scalar.bits == 32:
        return source
    assert isinstance(source, RegOp)
    amount = fl.fresh(B32)
    fl.emit(f"cvt.u32.u{scalar.bits}", Def(amount), source)
    return amount


@lowers(*_INTEGER_BINARY)
def lower_integer_binary(fl: FunctionLowering, op: Operation) -> None:
    operation, kind = _INTEGER_BINARY[type(op)]
    lhs, rhs = op.operands
    result = op.results[0]
    scalar = fl.scalar(result.type)
    # The op verifiers allow integers only.
    assert not scalar.is_float
    assert not scalar.packed
    if scalar.is_predicate:
        predicate_operation = _PREDICATE_BINARY.get(operation)
        if predicate_operation is None:
            fail(op, f"'{op.name}' on i1 is not supported")
        dst = fl.result(result)
        fl.emit(
            f"{predicate_operation}.pred", Def(dst), fl.register(lhs), fl.register(rhs)
        )
        return
    signed = kind == "s"
    whole = operation in _READS_WHOLE_I8
    if operation in _COMMUTATIVE and fl.constant(lhs) is not None:
        lhs, rhs = rhs, lhs
    if operation in ("shl", "shr"):
        amount = shift_amount(fl, rhs, scalar)
        first = integer_operand(fl, lhs, scalar, signed, whole)
    else:
        first = integer_operand(fl, lhs, scalar, signed, whole)
        amount = integer_operand(fl, rhs, scalar, signed, whole)
    if not isinstance(first, RegOp):
        first = fl.in_register(first, scalar)
    suffix = {"s": scalar.signed, "u": scalar.unsigned, "b": scalar.untyped}[kind]
    dst = fl.result(result)
    fl.emit(f"{operation}.{suffix}", Def(dst), first, amount)


# ---------------------------------------------------------------------------------------
# Float arithmetic

_FLOAT_BINARY: dict[type[Operation], str] = {
    arith.AddfOp: "add",
    llvm.FAddOp: "add",
    arith.SubfOp: "sub",
    llvm.FSubOp: "sub",
    arith.MulfOp: "mul",
    llvm.FMulOp: "mul",
    arith.DivfOp: "div",
    llvm.FDivOp: "div",
    arith.MaximumfOp: "max.NaN",
    arith.MinimumfOp: "min.NaN",
    arith.MaxnumfOp: "max",
    llvm.VectorFMaxOp: "max",
    arith.MinnumfOp: "min",
    llvm.VectorFMinOp: "min",
    llvm.FCopySignOp: "copysign",
}


def float_scalar(fl: FunctionLowering, op: Operation, value: SSAValue) -> Scalar:
    scalar = fl.scalar(value.type)
    if not scalar.is_float:
        fail(op, f"'{op.name}' on '{value.type}' is not supported")
    return scalar


@lowers(*_FLOAT_BINARY)
def lower_float_binary(fl: FunctionLowering, op: Operation) -> None:
    operation = _FLOAT_BINARY[type(op)]
    lhs, rhs = op.operands
    result = op.results[0]
    scalar = float_scalar(fl, op, result)
    name = scalar.float_name
    if operation == "div":
        if name not in ("f32", "f64"):
            fail(op, f"PTX has no {name} division")
        operation = "div.rn"
    if operation.endswith(".NaN") and name == "f64":
        fail(op, "PTX has no NaN-propagating f64 min/max")
    if operation == "copysign":
        if name not in ("f32", "f64"):
            fail(op, f"PTX has no {name} copysign")
        # PTX's `copysign d, a, b` gives b's magnitude with a's sign.
        lhs, rhs = rhs, lhs
    dst = fl.result(result)
    fl.emit(f"{operation}.{name}", Def(dst), fl.register(lhs), fl.source(rhs))


_FLOAT_UNARY: dict[type[Operation], str] = {
    arith.NegfOp: "neg",
    llvm.FNegOp: "neg",
    llvm.FAbsOp: "abs",
    llvm.FSqrtOp: "sqrt.rn",
    llvm.FCeilOp: "cvt.rpi",
    llvm.FFloorOp: "cvt.rmi",
}


@lowers(*_FLOAT_UNARY)
def lower_float_unary(fl: FunctionLowering, op: Operation) -> None:
    operation = _FLOAT_UNARY[type(op)]
    result = op.results[0]
    scalar = float_scalar(fl, op, result)
    name = scalar.float_name
    if operation == "sqrt.rn" and name not in ("f32", "f64"):
        fail(op, f"PTX has no {name} square root")
    suffix = f"{name}.{name}" if operation.startswith("cvt") else name
    dst = fl.result(result)
    fl.emit(f"{operation}.{suffix}", Def(dst), fl.register(op.operands[0]))


@lowers(llvm.FMAOp)
def lower_fma(fl: FunctionLowering, op: llvm.FMAOp) -> None:
    scalar = float_scalar(fl, op, op.res)
    dst = fl.result(op.res)
    fl.emit(
        f"fma.rn.{scalar.float_name}",
        Def(dst),
        fl.register(op.a),
        fl.source(op.b),
        fl.source(op.c),
    )


# ---------------------------------------------------------------------------------------
# Comparisons and selects

# arith.cmpi / llvm.icmp predicates, by number: (PTX comparison, signed)
_INTEGER_PREDICATES = (
    ("eq", False),
    ("ne", False),
    ("lt", True),
    ("le", True),
    ("gt", True),
    ("ge", True),
    ("lt", False),
    ("le", False),
    ("gt", False),
    ("ge", False),
)

# arith.cmpf / llvm.fcmp predicates, by number; None are the constant false and true.
_FLOAT_PREDICATES = (
    None,
    "eq",
    "gt",
    "ge",
    "lt",
    "le",
    "ne",
    "num",
    "equ",
    "gtu",
    "geu",
    "ltu",
    "leu",
    "neu",
    "nan",
    None,
)


def predicate_number(op: Operation) -> int:
    predicate = op.properties.get("predicate")
    assert isinstance(predicate, IntegerAttr)
    return predicate.value.data


def widened_predicate(fl: FunctionLowering, value: SSAValue, signed: bool) -> RegOp:
    """An i1 as a 32-bit integer: 1 (or -1 when signed) for true, 0 for false."""
    wide = fl.fresh(B32)
    fl.emit(
        "selp.b32",
        Def(wide),
        ImmAttr(-1 if signed else 1),
        ImmAttr(0),
        fl.register(value),
    )
    return wide


@lowers(arith.CmpiOp, llvm.ICmpOp)
def lower_integer_compare(fl: FunctionLowering, op: Operation) -> None:
    number = predicate_number(op)
    if not 0 <= number < len(_INTEGER_PREDICATES):
        fail(op, f"unknown integer comparison predicate {number}")
    comparison, signed = _INTEGER_PREDICATES[number]
    lhs, rhs = op.operands
    result = op.results[0]
    scalar = fl.scalar(lhs.type)
    dst = fl.result(result)
    if scalar.is_predicate:
        if comparison in ("eq", "ne"):
            differ = dst if comparison == "ne" else fl.fresh(PRED)
            fl.emit("xor.pred", Def(differ), fl.register(lhs), fl.register(rhs))
            if comparison == "eq":
                fl.emit("not.pred", Def(dst), differ)
            return
        first = widened_predicate(fl, lhs, signed)
        second = widened_predicate(fl, rhs, signed)
        fl.emit(f"setp.{comparison}.s32", Def(dst), first, second)
        return
    # The op verifiers allow integers only.
    assert not scalar.is_float
    assert not scalar.packed
    first = integer_operand(fl, lhs, scalar, signed, True)
    second = integer_operand(fl, rhs, scalar, signed, True)
    if not isinstance(first, RegOp):
        first = fl.in_register(first, scalar)
    suffix = scalar.signed if signed or comparison in ("eq", "ne") else scalar.unsigned
    fl.emit(f"setp.{comparison}.{suffix}", Def(dst), first, second)


@lowers(arith.CmpfOp, llvm.FCmpOp)
def lower_float_compare(fl: FunctionLowering, op: Operation) -> None:
    number = predicate_number(op)
    if not 0 <= number < len(_FLOAT_PREDICATES):
        fail(op, f"unknown float comparison predicate {number}")
    comparison = _FLOAT_PREDICATES[number]
    lhs, rhs = op.operands
    result = op.results[0]
    scalar = float_scalar(fl, op, lhs)
    if comparison is None:
        fl.define(result, (ImmAttr(0 if number == 0 else 1),))
        return
    dst = fl.result(result)
    fl.emit(
        f"setp.{comparison}.{scalar.float_name}",
        Def(dst),
        fl.register(lhs),
        fl.source(rhs),
    )


@lowers(arith.SelectOp, llvm.SelectOp)
def lower_select(fl: FunctionLowering, op: Operation) -> None:
    condition, if_true, if_false = op.operands
    result = op.results[0]
    chosen = fl.constant(condition)
    if chosen is not None:
        picked = if_true if chosen else if_false
        fl.define(result, fl.elements(picked))
        return
    predicate = fl.register(condition)
    layout = fl.layout(result.type)
    dsts = fl.fresh_value(result)
    for leaf, dst, a, b in zip(
        layout.leaves, dsts, fl.elements(if_true), fl.elements(if_false), strict=True
    ):
        scalar = leaf.scalar
        if scalar.is_predicate:
            fl.emit("mov.pred", Def(dst), fl.in_register(b, scalar))
            fl.emit("mov.pred", Def(dst), fl.in_register(a, scalar), guard=predicate)
            continue
        suffix = (
            scalar.float_name if scalar.float_name in ("f32", "f64") else scalar.untyped
        )
        fl.emit(
            f"selp.{suffix}",
            Def(dst),
            selectable(fl, a, scalar),
            selectable(fl, b, scalar),
            predicate,
        )


def selectable(
    fl: FunctionLowering, element: Element, scalar: Scalar
) -> RegOp | Constant:
    if isinstance(element, Constant) and scalar.allows_immediate:
        return element
    return fl.in_register(element, scalar)


# ---------------------------------------------------------------------------------------
# Casts


def extend(fl: FunctionLowering, op: Operation, signed: bool) -> None:
    source, result = op.operands[0], op.results[0]
    src = fl.scalar(source.type)
    dst_scalar = fl.scalar(result.type)
    dst = fl.result(result)
    if src.is_predicate:
        fl.emit(
            f"selp.{dst_scalar.untyped}",
            Def(dst),
            ImmAttr(-1 if signed else 1),
            ImmAttr(0),
            fl.register(source),
        )
        return
    sign = "s" if signed else "u"
    fl.emit(
        f"cvt.{sign}{dst_scalar.register_bits}.{sign}{src.bits}",
        Def(dst),
        fl.register(source),
    )


def truncate(fl: FunctionLowering, op: Operation) -> None:
    source, result = op.operands[0], op.results[0]
    src = fl.scalar(source.type)
    dst_scalar = fl.scalar(result.type)
    if dst_scalar.is_predicate:
        low_bit = fl.fresh(INTEGER_FILES[src.register_bits])
        fl.emit(f"and.{src.untyped}", Def(low_bit), fl.register(source), ImmAttr(1))
        dst = fl.result(result)
        fl.emit(f"setp.ne.{src.signed}", Def(dst), low_bit, ImmAttr(0))
        return
    if dst_scalar.register_bits == src.register_bits:
        fl.define(result, fl.elements(source))
        return
    dst = fl.result(result)
    fl.emit(
        f"cvt.u{dst_scalar.register_bits}.u{src.register_bits}",
        Def(dst),
        fl.register(source),
    )


def integer_cast(fl: FunctionLowering, op: Operation, signed: bool) -> None:
    """Extend, truncate or keep, by the widths of the two integer types."""
    source, result = op.operands[0], op.results[0]
    src = fl.scalar(source.type)
    dst = fl.scalar(result.type)
    # The op verifiers allow integers only.
    assert not src.is_float
    assert not dst.is_float
    if dst.bits > src.bits:
        extend(fl, op, signed)
    elif dst.bits < src.bits:
        truncate(fl, op)
    else:
        fl.define(result, fl.elements(source))


@lowers(arith.ExtSIOp, llvm.SExtOp, arith.IndexCastOp)
def lower_signed_cast(fl: FunctionLowering, op: Operation) -> None:
    integer_cast(fl, op, signed=True)


@lowers(arith.ExtUIOp, llvm.ZExtOp)
def lower_unsigned_cast(fl: FunctionLowering, op: Operation) -> None:
    integer_cast(fl, op, signed=False)


@lowers(arith.TruncIOp, llvm.TruncOp)
def lower_truncate(fl: FunctionLowering, op: Operation) -> None:
    integer_cast(fl, op, signed=False)


@lowers(arith.SIToFPOp, llvm.SIToFPOp, arith.UIToFPOp)
def lower_int_to_float(fl: FunctionLowering, op: Operation) -> None:
    signed = not isinstance(op, arith.UIToFPOp)
    source, result = op.operands[0], op.results[0]
    src = fl.scalar(source.type)
    dst_scalar = float_scalar(fl, op, result)
    if src.is_float or src.packed:
        fail(op, f"'{op.name}' from '{source.type}' is not supported")
    sign = "s" if signed else "u"
    if src.is_predicate:
        reg, bits = widened_predicate(fl, source, signed), 32
    else:
        reg, bits = fl.register(source), src.bits
    dst = fl.result(result)
    fl.emit(f"cvt.rn.{dst_scalar.float_name}.{sign}{bits}", Def(dst), reg)


@lowers(arith.FPToSIOp, arith.FPToUIOp)
def lower_float_to_int(fl: FunctionLowering, op: Operation) -> None:
    sign = "s" if isinstance(op, arith.FPToSIOp) else "u"
    source, result = op.operands[0], op.results[0]
    src = float_scalar(fl, op, source)
    dst_scalar = fl.scalar(result.type)
    assert not dst_scalar.is_float, "the op verifier allows integer results"
    if dst_scalar.is_predicate:
        whole = fl.fresh(B32)
        fl.emit(f"cvt.rzi.{sign}32.{src.float_name}", Def(whole), fl.register(source))
        dst = fl.result(result)
        fl.emit("setp.ne.s32", Def(dst), whole, ImmAttr(0))
        return
    dst = fl.result(result)
    fl.emit(
        f"cvt.rzi.{sign}{dst_scalar.bits}.{src.float_name}",
        Def(dst),
        fl.register(source),
    )


@lowers(arith.ExtFOp, llvm.FPExtOp, arith.TruncFOp, llvm.FPTruncOp)
def lower_float_cast(fl: FunctionLowering, op: Operation) -> None:
    source, result = op.operands[0], op.results[0]
    src = float_scalar(fl, op, source)
    dst_scalar = float_scalar(fl, op, result)
    if src.float_name == dst_scalar.float_name:
        fl.define(result, fl.elements(source))
        return
    # Widening is exact; narrowing (and f16 <-> bf16) rounds to nearest even.
    rounding = "" if dst_scalar.bits > src.bits else "rn."
    dst = fl.result(result)
    fl.emit(
        f"cvt.{rounding}{dst_scalar.float_name}.{src.float_name}",
        Def(dst),
        fl.register(source),
    )


@lowers(arith.BitcastOp, llvm.BitcastOp)
def lower_bitcast(fl: FunctionLowering, op: Operation) -> None:
    source, result = op.operands[0], op.results[0]
    src = fl.scalar(source.type)
    dst_scalar = fl.scalar(result.type)
    if src.bits != dst_scalar.bits:
        fail(op, f"cannot bitcast '{source.type}' to '{result.type}'")
    if src.registers == dst_scalar.registers:
        fl.define(result, fl.elements(source))
        return
    dst = fl.result(result)
    fl.emit(f"mov.b{src.bits}", Def(dst), fl.register(source))


@lowers(llvm.IntToPtrOp, llvm.PtrToIntOp)
def lower_pointer_cast(fl: FunctionLowering, op: Operation) -> None:
    source, result = op.operands[0], op.results[0]
    src = fl.scalar(source.type)
    dst_scalar = fl.scalar(result.type)
    if src.register_bits == dst_scalar.register_bits:
        fl.define(result, fl.elements(source))
        return
    if src.is_predicate or dst_scalar.is_predicate:
        fail(
            op, f"'{op.name}' from '{source.type}' to '{result.type}' is not supported"
        )
    dst = fl.result(result)
    fl.emit(
        f"cvt.u{dst_scalar.register_bits}.u{src.register_bits}",
        Def(dst),
        fl.register(source),
    )
