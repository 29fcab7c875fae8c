"""MLIR's ODS verification of `nvvm` ops: constraints with ODS's summaries, checked in the
order and with the words of the verifier `mlir-tblgen` generates.

An op's operands, results and properties are declared with xDSL's IRDL as usual, with the
constraints of this module (`I32`, `ptr(3)`, `any_of(...)`, `i32_attr`, enum attributes...)
so that each carries the summary ODS prints: `operand #0 must be LLVM pointer in address
space 3, but got '!llvm.ptr<1>'`. `verify_ods` runs, like MLIR's `verifyInvariants`:

1. the result and operand counts (`requires one result`, `expected 2 operands, but found 1`,
   `expected 2 or more operands, but found 0`) and `operandSegmentSizes`;
2. the presence of required attributes, by name (`requires attribute 'layoutA'`), then
   their constraints (`attribute 'regCount' failed to satisfy constraint: ...`);
3. the operands and results in order (`operand group starting at #0 requires 0 or 1
   element, but found 2`), then the op's predicate traits (`failed to verify that ...`).

MLIR reference: https://mlir.llvm.org/docs/DefiningDialects/Operations/
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    VectorType,
)
from xdsl.dialects.llvm import LLVMPointerType, LLVMStructType
from xdsl.ir import Attribute, AttributeCovT, AttributeInvT, Operation, TypeAttribute
from xdsl.irdl import (
    AttrConstraint,
    IRDLOperation,
    OptionalDef,
    VarOperandDef,
    VarResultDef,
)
from xdsl.irdl.constraints import VerificationContext
from xdsl.utils.exceptions import VerifyException

from tileas_py.diagnostics import PlainVerifyException

# ---------------------------------------------------------------------------------------
# Constraints


@dataclass(frozen=True)
class Ods(AttrConstraint[AttributeCovT]):
    """A type or attribute constraint with the summary ODS prints for it."""

    summary: str
    test: Callable[[Attribute], bool] = field(compare=False)
    buildable: Attribute | None = None
    """The one type the constraint admits, if any: the format infers it."""
    stripped: bool = False
    """`type($x)` prints the type without its dialect prefix (`<3>` for a pointer)."""
    attr_type: type[Attribute] | None = None
    """The attribute class a format reads in its short form (`<cta>` for a scope)."""
    storage: Callable[[Attribute], bool] | None = field(default=None, compare=False)
    """For a property: whether an attribute converts to the property's storage at all
    (MLIR rejects one that does not when it reads the property, before verifying)."""

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not self.test(attr):
            raise VerifyException(f"expected {self.summary}, got {attr}")

    def mapping_type_vars(
        self, type_var_mapping: Mapping[Any, Any]
    ) -> Ods[AttributeCovT]:
        return self


def _int_type(width: int) -> Ods[IntegerType]:
    signless = IntegerType(width)
    return Ods[IntegerType](
        f"{width}-bit signless integer", lambda t: t == signless, signless
    )


I1 = _int_type(1)
I8 = _int_type(8)
I16 = _int_type(16)
I32 = _int_type(32)
I64 = _int_type(64)
I128 = _int_type(128)
F16 = Ods[Float16Type](
    "16-bit float", lambda t: isinstance(t, Float16Type), Float16Type()
)
BF16 = Ods[BFloat16Type](
    "bfloat16 type", lambda t: isinstance(t, BFloat16Type), BFloat16Type()
)
F32 = Ods[Float32Type](
    "32-bit float", lambda t: isinstance(t, Float32Type), Float32Type()
)
F64 = Ods[Float64Type](
    "64-bit float", lambda t: isinstance(t, Float64Type), Float64Type()
)
ANY_TYPE = Ods("any type", lambda t: isinstance(t, TypeAttribute))


def address_space_of(t: Attribute) -> int | None:
    if not isinstance(t, LLVMPointerType):
        return None
    space = t.addr_space
    return space.data if isinstance(space, IntAttr) else 0


def ptr(space: int) -> Ods[LLVMPointerType]:
    """`LLVM_PointerInAddressSpace<space>`."""
    from tileas_py.dialects.nvvm.pointers import pointer

    return Ods[LLVMPointerType](
        f"LLVM pointer in address space {space}",
        lambda t: address_space_of(t) == space,
        pointer(space),
        stripped=True,
    )


ANY_PTR = Ods[LLVMPointerType](
    "LLVM pointer type", lambda t: isinstance(t, LLVMPointerType)
)
LLVM_STRUCT = Ods[LLVMStructType](
    "LLVM structure type", lambda t: isinstance(t, LLVMStructType)
)


def _is_llvm_compatible(t: Attribute) -> bool:
    from xdsl.dialects import llvm

    if isinstance(
        t, IntegerType | Float16Type | BFloat16Type | Float32Type | Float64Type
    ):
        return True
    if isinstance(t, VectorType):
        return _is_llvm_compatible(cast(VectorType[Any], t).element_type)
    return (isinstance(t, TypeAttribute) and t.name.startswith("llvm.")) or isinstance(
        t, llvm.LLVMPointerType | llvm.LLVMStructType | llvm.LLVMArrayType
    )


LLVM_TYPE = Ods("LLVM dialect-compatible type", _is_llvm_compatible)
PTX_PREDICATE = I1


def any_of(*constraints: Ods) -> Ods:
    """`AnyTypeOf<[...]>`: the summaries joined with ` or `."""
    return Ods(
        " or ".join(c.summary for c in constraints),
        lambda t: any(c.test(t) for c in constraints),
    )


def vector_of(lengths: Sequence[int], element: Ods, fixed: bool = False) -> Ods:
    """`VectorOfLengthAndType<lengths, [element]>`, or with `fixed`
    `FixedVectorOfLengthAndType`."""

    def test(t: Attribute) -> bool:
        if not isinstance(t, VectorType):
            return False
        vector = cast(VectorType[Any], t)
        shape = vector.get_shape()
        return (
            len(shape) == 1
            and shape[0] in lengths
            and not vector.get_num_scalable_dims()
            and element.test(vector.element_type)
        )

    of_length = "/".join(str(n) for n in lengths)
    buildable = None
    if len(lengths) == 1 and element.buildable is not None:
        buildable = VectorType(element.buildable, [lengths[0]])
    kind = "fixed-length vector" if fixed else "vector"
    return Ods(
        f"{kind} of {element.summary} values of length {of_length}", test, buildable
    )


def _int_attr_type(a: Attribute) -> Attribute | None:
    return cast(IntegerAttr[Any], a).type if isinstance(a, IntegerAttr) else None


def _integer_attr(width: int) -> Ods[IntegerAttr[IntegerType]]:
    def test(a: Attribute) -> bool:
        return _int_attr_type(a) == IntegerType(width)

    return Ods[IntegerAttr[IntegerType]](
        f"{width}-bit signless integer attribute",
        test,
        storage=lambda a: isinstance(a, IntegerAttr),
    )


I1_ATTR = _integer_attr(1)
I16_ATTR = _integer_attr(16)
I32_ATTR = _integer_attr(32)
I64_ATTR = _integer_attr(64)


def _is_bool(a: Attribute) -> bool:
    return _int_attr_type(a) == IntegerType(1)


BOOL_ATTR = Ods[IntegerAttr[IntegerType]]("bool attribute", _is_bool, storage=_is_bool)
UNIT_ATTR = Ods[UnitAttr](
    "unit attribute",
    lambda a: isinstance(a, UnitAttr),
    storage=lambda a: isinstance(a, UnitAttr),
)
STR_ATTR = Ods[StringAttr](
    "string attribute",
    lambda a: isinstance(a, StringAttr),
    storage=lambda a: isinstance(a, StringAttr),
)
TYPE_ATTR = Ods("any type attribute", lambda a: isinstance(a, TypeAttribute))


def int_value(attr: Attribute) -> int:
    assert isinstance(attr, IntegerAttr)
    return cast(IntegerAttr[Any], attr).value.data


def confined(
    base: Ods[AttributeInvT], minimum: int | None = None, maximum: int | None = None
) -> Ods[AttributeInvT]:
    """`ConfinedAttr<base, [IntMinValue<minimum>, IntMaxValue<maximum>]>`."""
    summary = base.summary
    if minimum is not None:
        summary += f" whose minimum value is {minimum}"
    if maximum is not None:
        summary += f" whose maximum value is {maximum}"

    def test(a: Attribute) -> bool:
        if not base.test(a):
            return False
        value = int_value(a)
        return (minimum is None or value >= minimum) and (
            maximum is None or value <= maximum
        )

    return Ods[AttributeInvT](summary, test, storage=base.storage)


def of_class(attr_type: type[AttributeInvT], summary: str) -> Ods[AttributeInvT]:
    """An attribute of one class of the dialect (an enum, `#nvvm.shape<...>`...)."""

    def test(a: Attribute) -> bool:
        return isinstance(a, attr_type)

    return Ods[AttributeInvT](summary, test, attr_type=attr_type, storage=test)


# ---------------------------------------------------------------------------------------
# Verification


def _quoted(t: Attribute) -> str:
    return f"'{t}'"


def ods_of(constraint: object) -> Ods[Any] | None:
    """The `Ods` constraint inside the range constraints xDSL wraps operands in."""
    while not isinstance(constraint, Ods):
        inner = getattr(constraint, "constraint", None) or getattr(
            constraint, "constr", None
        )
        if inner is None:
            return None
        constraint = inner
    return cast(Ods[Any], constraint)


_summary = ods_of


def operand_segment_sizes(op: Operation) -> list[int] | None:
    """The sizes of `op`'s operand groups in its `operandSegmentSizes` property, if any."""
    sizes = op.properties.get("operandSegmentSizes")
    if isinstance(sizes, DenseArrayBase):
        return [int(v) for v in cast(DenseArrayBase[Any], sizes).get_values()]
    return None


def verify_ods(op: IRDLOperation) -> None:
    """Check `op` the way MLIR's generated `verifyInvariants` does (see module docs)."""
    op_def = op.get_irdl_definition()
    _verify_property_storage(op, op_def)
    _verify_result_count(op, op_def)
    groups = _verify_operand_count(op, op_def)
    _verify_properties(op, op_def)
    _verify_operand_types(op, op_def, groups)
    _verify_result_types(op, op_def)


def _verify_property_storage(op: IRDLOperation, op_def: Any) -> None:
    """MLIR's conversion of the generic form's `<{...}>` to the op's properties."""
    if not op_def.properties and op.properties:
        shown = DictionaryAttr(dict(sorted(op.properties.items())))
        raise PlainVerifyException(
            f"invalid properties {shown} for op {op.name}: this operation does not "
            "support properties"
        )
    for name, d in sorted(op_def.properties.items()):
        value = op.properties.get(name)
        if value is None or _converts(d.constr, value):
            continue
        given = getattr(op, "given_properties", op.properties)
        shown = dict(sorted(given.items()))
        raise PlainVerifyException(
            f"invalid properties {DictionaryAttr(shown)} for op {op.name}: Invalid "
            f"attribute `{name}` in property conversion: {value}"
        )


def _converts(constraint: object, value: Attribute) -> bool:
    """Whether `value` converts to the storage of a property declared with `constraint`:
    an `Ods` says so itself; a bare attribute class (`prop_def(SomeAttr)`) needs an
    instance of it."""
    ods = _summary(constraint)
    if ods is not None:
        return ods.storage is None or ods.storage(value)
    attr_type = getattr(constraint, "attr", None)
    if isinstance(attr_type, type) and issubclass(attr_type, Attribute):
        return isinstance(value, attr_type)
    return True


def _verify_result_count(op: IRDLOperation, op_def: Any) -> None:
    results = op_def.results
    variadic = [r for _, r in results if isinstance(r, VarResultDef)]
    count = len(op.results)
    if variadic:
        fixed = len(results) - len(variadic)
        if (
            len(variadic) == 1
            and isinstance(variadic[0], OptionalDef)
            and count > fixed + 1
        ):
            raise VerifyException(
                f"result group starting at #{fixed} requires 0 or 1 element, "
                f"but found {count - fixed}"
            )
        return
    if count == len(results):
        return
    if len(results) == 0:
        raise VerifyException("requires zero results")
    if len(results) == 1:
        raise VerifyException("requires one result")
    raise VerifyException(f"requires {len(results)} results")


def _verify_operand_count(op: IRDLOperation, op_def: Any) -> list[tuple[int, int]]:
    """The (start, length) of each operand group of the op definition."""
    defs = [d for _, d in op_def.operands]
    count = len(op.operands)
    fixed = sum(not isinstance(d, VarOperandDef) for d in defs)
    variadic = len(defs) - fixed
    if variadic == 0:
        if count != fixed:
            # The ZeroOperands, OneOperand and NOperands traits' words.
            if fixed == 0:
                raise VerifyException("requires zero operands")
            if fixed == 1:
                raise VerifyException("requires a single operand")
            raise VerifyException(f"expected {fixed} operands, but found {count}")
        return [(i, 1) for i in range(fixed)]
    if variadic > 1 or operand_segment_sizes(op) is not None or _has_segments(op_def):
        sizes = operand_segment_sizes(op)
        if sizes is None:
            sizes = []
        if len(sizes) != len(defs) and sizes:
            raise VerifyException(
                "'operandSegmentSizes' attribute for specifying operand segments "
                f"must have {len(defs)} elements, but got {len(sizes)}"
            )
        total = sum(sizes)
        if total != count:
            raise VerifyException(
                f"operand count ({count}) does not match with the total size "
                f"({total}) specified in attribute 'operandSegmentSizes'"
            )
        groups: list[tuple[int, int]] = []
        start = 0
        for size in sizes:
            groups.append((start, size))
            start += size
        return groups
    if count < fixed:
        raise VerifyException(f"expected {fixed} or more operands, but found {count}")
    groups = []
    start = 0
    for d in defs:
        size = count - fixed if isinstance(d, VarOperandDef) else 1
        groups.append((start, size))
        start += size
    return groups


def _has_segments(op_def: Any) -> bool:
    from xdsl.irdl import AttrSizedOperandSegments

    return any(isinstance(o, AttrSizedOperandSegments) for o in op_def.options)


def _verify_properties(op: IRDLOperation, op_def: Any) -> None:
    props = sorted(
        (name, d)
        for name, d in op_def.properties.items()
        if name != "operandSegmentSizes"
    )
    for name, d in props:
        if (
            name not in op.properties
            and not isinstance(d, OptionalDef)
            and d.default_value is None
        ):
            raise VerifyException(f"requires attribute '{name}'")
    for name, d in props:
        value = op.properties.get(name)
        constraint = _summary(d.constr)
        if value is None or constraint is None:
            continue
        if not constraint.test(value):
            raise VerifyException(
                f"attribute '{name}' failed to satisfy constraint: {constraint.summary}"
            )


def _verify_operand_types(
    op: IRDLOperation, op_def: Any, groups: list[tuple[int, int]]
) -> None:
    defs: list[tuple[str, Any]] = op_def.operands
    for (_, d), (start, size) in zip(defs, groups, strict=False):
        if isinstance(d, OptionalDef) and size > 1:
            raise VerifyException(
                f"operand group starting at #{start} requires 0 or 1 element, "
                f"but found {size}"
            )
        constraint = _summary(cast(Any, d).constr)
        if constraint is None:
            continue
        summary = constraint.summary
        if isinstance(d, VarOperandDef) and not isinstance(d, OptionalDef):
            summary = f"variadic of {summary}"
        for index in range(start, start + size):
            t = op.operands[index].type
            if not constraint.test(t):
                raise VerifyException(
                    f"operand #{index} must be {summary}, but got {_quoted(t)}"
                )


def _verify_result_types(op: IRDLOperation, op_def: Any) -> None:
    index = 0
    for _, d in op_def.results:
        constraint = _summary(d.constr)
        width = (
            len(op.results) - (len(op_def.results) - 1)
            if isinstance(d, VarResultDef)
            else 1
        )
        for _ in range(width):
            if index >= len(op.results):
                return
            t = op.results[index].type
            if constraint is not None and not constraint.test(t):
                summary = constraint.summary
                if isinstance(d, VarResultDef) and not isinstance(d, OptionalDef):
                    summary = f"variadic of {summary}"
                raise VerifyException(
                    f"result #{index} must be {summary}, but got {_quoted(t)}"
                )
            index += 1
