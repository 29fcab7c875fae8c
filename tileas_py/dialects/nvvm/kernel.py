"""Kernel attributes of the `nvvm` dialect and their verification.

A kernel is an `llvm.func` marked `nvvm.kernel`; launch bounds ride along as discardable
attributes, and a by-value kernel argument may be marked `nvvm.grid_constant`:

    llvm.func @k(%p: !llvm.ptr {llvm.byval = !llvm.struct<(i64)>, nvvm.grid_constant})
        attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>,
                    nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.maxnreg = 168 : i32}

MLIR verifies these through dialect hooks (`verifyOperationAttribute`,
`verifyRegionArgAttribute`) that xDSL does not have; `verify_nvvm_attributes` performs the
same checks, with upstream's messages, and `tileas-opt` runs it on every input.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/
"""

from __future__ import annotations

from typing import Any, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation

from tileas_py.diagnostics import PlainVerifyException

KERNEL = "nvvm.kernel"
MAXNTID = "nvvm.maxntid"
REQNTID = "nvvm.reqntid"
CLUSTER_DIM = "nvvm.cluster_dim"
CLUSTER_MAX_BLOCKS = "nvvm.cluster_max_blocks"
MINCTASM = "nvvm.minctasm"
MAXNREG = "nvvm.maxnreg"
BLOCKS_ARE_CLUSTERS = "nvvm.blocksareclusters"
GRID_CONSTANT = "nvvm.grid_constant"
BYVAL = "llvm.byval"
TARGET = "nvvm.target"
"""`target.TARGET_ATTR_NAME`, spelt out: importing it would load the dialect's attributes
on every input."""

_DIM_ATTRS = (MAXNTID, REQNTID, CLUSTER_DIM)
_INT_ATTRS = (MINCTASM, MAXNREG, CLUSTER_MAX_BLOCKS)


def is_kernel(op: Operation) -> bool:
    return KERNEL in op.attributes


def _is_i32_array(value: Attribute, max_size: int) -> bool:
    if not isinstance(value, DenseArrayBase):
        return False
    array = cast(DenseArrayBase[Any], value)
    element: Attribute = array.elt_type
    if not isinstance(element, IntegerType):
        return False
    width: int = cast(IntegerType[Any], element).width.data
    return width == 32 and len(array.get_values()) <= max_size


def _is_function(op: Operation) -> bool:
    # Loaded here: this runs on every input, most of which have no kernel.
    from xdsl.dialects import gpu, llvm

    return isinstance(op, llvm.FuncOp | gpu.FuncOp)


def verify_operation_attributes(op: Operation) -> None:
    """Upstream's checks of the `nvvm.*` attributes attached to one op."""
    attributes = op.attributes
    if KERNEL in attributes and not _is_function(op):
        raise PlainVerifyException(
            "'nvvm.kernel' attribute attached to unexpected op", op
        )
    for name in _DIM_ATTRS:
        if name in attributes and not _is_i32_array(attributes[name], 3):
            raise PlainVerifyException(
                f"'\"{name}\"' attribute must be integer array with maximum 3 index", op
            )
    for name in _INT_ATTRS:
        if name in attributes and not isinstance(attributes[name], IntegerAttr):
            raise PlainVerifyException(
                f"'\"{name}\"' attribute must be integer constant", op
            )
    if BLOCKS_ARE_CLUSTERS in attributes and not (
        REQNTID in attributes and CLUSTER_DIM in attributes
    ):
        raise PlainVerifyException(
            f"'\"{BLOCKS_ARE_CLUSTERS}\"' attribute must be used along with "
            f"'{REQNTID}' and '{CLUSTER_DIM}'",
            op,
        )
    if TARGET in attributes:
        # Loaded here: this runs on every input, most of which have no target.
        from tileas_py.dialects.nvvm.target import NVVMTargetAttr

        target = attributes[TARGET]
        targets: tuple[Attribute, ...] = (
            cast(ArrayAttr[Attribute], target).data
            if isinstance(target, ArrayAttr)
            else (target,)
        )
        if not targets or not all(isinstance(t, NVVMTargetAttr) for t in targets):
            raise PlainVerifyException(
                f"'\"{TARGET}\"' attribute must be an #nvvm.target or a "
                "non-empty array of them",
                op,
            )
    _verify_argument_attributes(op)


def _verify_argument_attributes(op: Operation) -> None:
    arg_attrs = op.properties.get("arg_attrs", op.attributes.get("arg_attrs"))
    if not isinstance(arg_attrs, ArrayAttr):
        return
    for entry in cast(ArrayAttr[Attribute], arg_attrs).data:
        if not isinstance(entry, DictionaryAttr) or GRID_CONSTANT not in entry.data:
            continue
        if not isinstance(entry.data[GRID_CONSTANT], UnitAttr):
            raise PlainVerifyException(
                f"'\"{GRID_CONSTANT}\"' must be a unit attribute", op
            )
        if not is_kernel(op):
            raise PlainVerifyException(
                f"'\"{GRID_CONSTANT}\"' attribute must be present only on kernel "
                "arguments",
                op,
            )
        if BYVAL not in entry.data:
            raise PlainVerifyException(
                f"'\"{GRID_CONSTANT}\"' attribute requires the argument to also have "
                f"attribute '{BYVAL}'",
                op,
            )


def verify_nvvm_attributes(root: Operation) -> None:
    """Check the `nvvm.*` attributes of `root` and every op nested in it."""
    for op in root.walk():
        verify_operation_attributes(op)
