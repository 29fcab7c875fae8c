"""Warp-level data exchange and integer helpers: `shfl.sync`, `vote.sync`, `match.sync`,
`redux.sync`, `dot.accumulate.{4,2}way` and `prmt`.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-shfl-sync
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from xdsl.dialects.builtin import BoolAttr, UnitAttr
from xdsl.dialects.llvm import LLVMStructType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.utils.exceptions import VerifyException

from tileas_py.diagnostics import PlainVerifyException
from tileas_py.dialects.nvvm.attrs import (
    DotAccumulateTypeAttr,
    MatchSyncKind,
    MatchSyncKindAttr,
    PermuteMode,
    PermuteModeAttr,
    ReduxKind,
    ReduxKindAttr,
    ShflKindAttr,
    VoteSyncKind,
    VoteSyncKindAttr,
)
from tileas_py.dialects.nvvm.base import NVVMOp
from tileas_py.dialects.nvvm.ods import (
    BOOL_ATTR,
    F32,
    I1,
    I8,
    I16,
    I32,
    I64,
    LLVM_STRUCT,
    UNIT_ATTR,
    any_of,
    of_class,
    vector_of,
)
from tileas_py.dialects.nvvm.target import RequiresSM

_FALSE = BoolAttr.from_bool(False)


def _quoted(t: Attribute) -> str:
    return f"'{t}'"


@irdl_op_definition
class ShflOp(NVVMOp):
    """Exchanges a register between the lanes of a warp (`shfl.sync`); with
    `return_value_and_is_valid` it also returns whether the source lane was valid.

    Example:
        %r = nvvm.shfl.sync bfly %mask, %val, %offset, %clamp : f32 -> f32
    """

    name = "nvvm.shfl.sync"

    thread_mask = operand_def(I32)
    val = operand_def(any_of(I32, F32))
    offset = operand_def(I32)
    mask_and_clamp = operand_def(I32)
    kind = prop_def(of_class(ShflKindAttr, ShflKindAttr.SUMMARY))
    return_value_and_is_valid = opt_prop_def(UNIT_ATTR)
    res = result_def(any_of(I32, F32, LLVM_STRUCT))

    traits = traits_def(RequiresSM(30))

    FORMAT: ClassVar[str] = (
        "$kind $thread_mask `,` $val `,` $offset `,` $mask_and_clamp  attr-dict "
        "`:` type($val) `->` type($res)"
    )

    def __init__(
        self,
        kind: ShflKindAttr,
        thread_mask: SSAValue,
        val: SSAValue,
        offset: SSAValue,
        mask_and_clamp: SSAValue,
        *,
        result_type: Attribute | None = None,
    ) -> None:
        result = val.type if result_type is None else result_type
        super().__init__(
            operands=[thread_mask, val, offset, mask_and_clamp],
            result_types=[result],
            properties={
                "kind": kind,
                "return_value_and_is_valid": (
                    UnitAttr() if isinstance(result, LLVMStructType) else None
                ),
            },
        )

    def verify_(self) -> None:
        result = self.res.type
        value = self.val.type
        if isinstance(result, LLVMStructType):
            if self.return_value_and_is_valid is None:
                raise VerifyException(
                    '"return_value_and_is_valid" attribute must be specified when the '
                    "return type is a struct type"
                )
            body = list(result.types.data)
            if len(body) != 2:
                raise VerifyException("expected return type to be a two-element struct")
            if body[0] != value:
                raise VerifyException(
                    "expected first element in the returned struct to be of type "
                    f"{_quoted(value)} but got {_quoted(body[0])} instead"
                )
            if not I1.test(body[1]):
                raise VerifyException(
                    "expected second element in the returned struct to be of type "
                    f"'i1' but got {_quoted(body[1])} instead"
                )
        else:
            if self.return_value_and_is_valid is not None:
                raise VerifyException("expected return type to be a two-element struct")
            if result != value:
                raise VerifyException(
                    f"expected return type to be of type {_quoted(value)} but got "
                    f"{_quoted(result)} instead"
                )


@irdl_op_definition
class VoteSyncOp(NVVMOp):
    """Votes on a predicate across the threads of `mask` (`vote.sync`).

    Example:
        %b = nvvm.vote.sync ballot %mask, %pred -> i32
    """

    name = "nvvm.vote.sync"

    mask = operand_def(I32)
    pred = operand_def(I1)
    kind = prop_def(of_class(VoteSyncKindAttr, VoteSyncKindAttr.SUMMARY))
    res = result_def(any_of(I32, I1))

    FORMAT: ClassVar[str] = "$kind $mask `,` $pred attr-dict `->` type($res)"

    def __init__(
        self, kind: VoteSyncKind, mask: SSAValue, pred: SSAValue, result: Attribute
    ) -> None:
        super().__init__(
            operands=[mask, pred],
            result_types=[result],
            properties={"kind": VoteSyncKindAttr(kind)},
        )

    def verify_(self) -> None:
        if self.kind.data is VoteSyncKind.BALLOT:
            if not I32.test(self.res.type):
                raise VerifyException("vote.sync 'ballot' returns an i32")
        elif not I1.test(self.res.type):
            raise VerifyException("vote.sync 'any', 'all' and 'uni' returns an i1")


@irdl_op_definition
class MatchSyncOp(NVVMOp):
    """Finds the lanes of `thread_mask` holding the same `val` (`match.sync`).

    Example:
        %m = nvvm.match.sync any %mask, %val : i32 -> i32
    """

    name = "nvvm.match.sync"

    thread_mask = operand_def(I32)
    val = operand_def(any_of(I32, I64))
    kind = prop_def(of_class(MatchSyncKindAttr, MatchSyncKindAttr.SUMMARY))
    res = result_def(any_of(I32, LLVM_STRUCT))

    FORMAT: ClassVar[str] = (
        "$kind $thread_mask `,` $val attr-dict `:` type($val) `->` type($res)"
    )

    def __init__(
        self, kind: MatchSyncKind, mask: SSAValue, val: SSAValue, result: Attribute
    ) -> None:
        super().__init__(
            operands=[mask, val],
            result_types=[result],
            properties={"kind": MatchSyncKindAttr(kind)},
        )

    def verify_(self) -> None:
        result = self.res.type
        if self.kind.data is MatchSyncKind.ALL:
            body = list(result.types.data) if isinstance(result, LLVMStructType) else []
            if len(body) != 2 or not I32.test(body[0]) or not I1.test(body[1]):
                raise VerifyException(
                    "match.sync 'all' returns a two element struct with first element "
                    "as i32 and second element as i1"
                )
        elif not I32.test(result):
            raise VerifyException("match.sync 'any' returns an i32")


_INTEGER_REDUX = (
    ReduxKind.ADD,
    ReduxKind.AND,
    ReduxKind.OR,
    ReduxKind.XOR,
    ReduxKind.MAX,
    ReduxKind.MIN,
    ReduxKind.UMAX,
    ReduxKind.UMIN,
)


@irdl_op_definition
class ReduxOp(NVVMOp):
    """Reduces a 32-bit register across the warp (`redux.sync`).

    Example:
        %s = nvvm.redux.sync add %val, %mask : i32 -> i32
    """

    name = "nvvm.redux.sync"

    val = operand_def(any_of(I32, F32))
    kind = prop_def(of_class(ReduxKindAttr, ReduxKindAttr.SUMMARY))
    mask_and_clamp = operand_def(I32)
    abs = prop_def(BOOL_ATTR, default_value=_FALSE)
    nan = prop_def(BOOL_ATTR, default_value=_FALSE)
    res = result_def(any_of(I32, F32))

    traits = traits_def(RequiresSM(80))

    FORMAT: ClassVar[str] = (
        "$kind $val `,` $mask_and_clamp  attr-dict `:` type($val) `->` type($res)"
    )

    def __init__(self, kind: ReduxKind, val: SSAValue, mask: SSAValue) -> None:
        super().__init__(
            operands=[val, mask],
            result_types=[val.type],
            properties={"kind": ReduxKindAttr(kind)},
        )

    def verify_(self) -> None:
        if self.res.type != self.val.type:
            raise VerifyException(
                "failed to verify that all of {res, val} have same type"
            )
        result = self.res.type
        if not F32.test(result):
            if cast(Any, self.abs).value.data:
                raise VerifyException("abs attribute is supported only for f32 type")
            if cast(Any, self.nan).value.data:
                raise VerifyException("nan attribute is supported only for f32 type")
        kind = self.kind.data
        if kind in _INTEGER_REDUX and not I32.test(result):
            raise VerifyException(
                f"'{kind.value}' redux kind unsupported with {_quoted(result)} type. "
                "Only supported type is 'i32'."
            )
        if kind not in _INTEGER_REDUX and not F32.test(result):
            raise VerifyException(
                f"'{kind.value}' redux kind unsupported with {_quoted(result)} type. "
                "Only supported type is 'f32'."
            )


_DOT_TYPE = of_class(DotAccumulateTypeAttr, DotAccumulateTypeAttr.SUMMARY)


@irdl_op_definition
class DotAccumulate4WayOp(NVVMOp):
    """Four-way byte dot product accumulated into `c` (`dp4a`).

    Example:
        %r = nvvm.dot.accumulate.4way %a <signed>, %b <unsigned>, %c : vector<4xi8>, vector<4xi8>
    """

    name = "nvvm.dot.accumulate.4way"

    a = operand_def(vector_of([4], I8))
    a_type = prop_def(_DOT_TYPE)
    b = operand_def(vector_of([4], I8))
    b_type = prop_def(_DOT_TYPE)
    c = operand_def(I32)
    res = result_def(I32)

    FORMAT: ClassVar[str] = (
        "$a $a_type `,` $b $b_type `,` $c attr-dict `:` type($a) `,` type($b)"
    )


@irdl_op_definition
class DotAccumulate2WayOp(NVVMOp):
    """Two-way 16-bit by 8-bit dot product accumulated into `c`; `b_hi` picks the upper
    bytes of `b` (`dp2a`).

    Example:
        %r = nvvm.dot.accumulate.2way %a <signed>, %b <signed>, %c {b_hi = true} : vector<2xi16>, vector<4xi8>
    """

    name = "nvvm.dot.accumulate.2way"

    a = operand_def(vector_of([2], I16))
    a_type = prop_def(_DOT_TYPE)
    b = operand_def(vector_of([4], I8))
    b_type = prop_def(_DOT_TYPE)
    c = operand_def(I32)
    b_hi = prop_def(BOOL_ATTR)
    res = result_def(I32)

    FORMAT: ClassVar[str] = (
        "$a $a_type `,` $b $b_type `,` $c attr-dict `:` type($a) `,` type($b)"
    )


_NEEDS_HI = (PermuteMode.DEFAULT, PermuteMode.F4E, PermuteMode.B4E)


@irdl_op_definition
class PermuteOp(NVVMOp):
    """Picks bytes from the 64-bit pair `hi:lo` under `selector` (`prmt`).

    Example:
        %r = nvvm.prmt #nvvm.permute_mode<default> %lo, %hi, %sel : i32
    """

    name = "nvvm.prmt"

    lo = operand_def(I32)
    hi = opt_operand_def(I32)
    selector = operand_def(I32)
    mode = prop_def(of_class(PermuteModeAttr, PermuteModeAttr.SUMMARY))
    res = result_def(I32)

    FORMAT: ClassVar[str] = (
        "$mode $selector `,` $lo (`,` $hi^)? attr-dict `:` type($res)"
    )

    def verify_(self) -> None:
        mode = self.mode.data
        if mode in _NEEDS_HI and self.hi is None:
            raise PlainVerifyException(f"mode '{mode.value}' requires 'hi' operand.")
        if mode not in _NEEDS_HI and self.hi is not None:
            raise PlainVerifyException(
                f"mode '{mode.value}' does not accept 'hi' operand."
            )


WARP_OPS = (
    ShflOp,
    VoteSyncOp,
    MatchSyncOp,
    ReduxOp,
    DotAccumulate4WayOp,
    DotAccumulate2WayOp,
    PermuteOp,
)
