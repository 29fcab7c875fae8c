"""Function signatures in PTX: `.entry` / `.func`, their `.param` lists and directives.

A kernel (`llvm.func` with `nvvm.kernel`) becomes an `.entry` whose parameters are
declared with nvcc's types (`.param .u64 k_param_0`, `.param .f32 k_param_1`); a by-value
`nvvm.grid_constant` argument (a TMA descriptor) is a `.param .align A .b8 k_param_2[N]`
whose generic address (`cvta.param`) the kernel receives. Any other function is a `.func`
with `.bN` parameters and, if it returns values, one `func_retval0` (several results are
returned as one struct). Aggregates are `.b8` arrays. Launch-bound attributes become
performance directives: `nvvm.reqntid` `.reqntid`, `nvvm.maxntid` `.maxntid`,
`nvvm.minctasm` `.minnctapersm`, `nvvm.maxnreg` `.maxnreg`, `nvvm.cluster_dim`
`.reqnctapercluster` + `.explicitcluster`, `nvvm.cluster_max_blocks` `.maxclusterrank`
and `nvvm.blocksareclusters` `.blocksareclusters`.
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#kernel-function-parameters
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, cast

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
)
from xdsl.ir import Attribute, Operation, TypeAttribute

from tileas_py.dialects.nvvm import kernel as nvvm_kernel
from tileas_py.dialects.ori.attributes import FunctionKind, Linkage, PtxType
from tileas_py.dialects.ori.declarations import Declarator, DirectiveAttr, ParamAttr
from tileas_py.passes.lowering.nvvm_to_ori.types import (
    Layout,
    Scalar,
    layout_of,
    scalar_of,
)

RETURN_PARAM = "func_retval0"

_IDENTIFIER = re.compile(r"[a-zA-Z][a-zA-Z0-9_$]*|[_$%][a-zA-Z0-9_$]+")


def is_ptx_identifier(name: str) -> bool:
    return _IDENTIFIER.fullmatch(name) is not None


@dataclass(frozen=True)
class Argument:
    """How one argument is passed: its `.param` and whether it is a by-value pointer."""

    param: Declarator
    by_value: bool = False


@dataclass(frozen=True)
class Signature:
    """What the callers and the body of a function need to know about its PTX form."""

    name: str
    kind: FunctionKind
    linkage: Linkage | None
    arguments: tuple[Argument, ...]
    argument_types: tuple[Attribute, ...]
    result_types: tuple[Attribute, ...]
    returns: Declarator | None
    """The `func_retval0` parameter; None for kernels and functions without results."""
    directives: tuple[DirectiveAttr, ...]

    @property
    def is_kernel(self) -> bool:
        return self.kind is FunctionKind.ENTRY

    @property
    def results_type(self) -> Attribute:
        """The results as one type: the only result, or a struct of all of them."""
        if len(self.result_types) == 1:
            return self.result_types[0]
        return llvm.LLVMStructType.from_type_list(self.result_types)


class SignatureError(Exception):
    """A function signature with no PTX form; the message says why."""


def kernel_param_type(scalar: Scalar) -> PtxType:
    """nvcc's `.param` type for a scalar kernel argument."""
    if scalar.float_name in ("f32", "f64"):
        return PtxType(scalar.float_name)
    if scalar.is_float or scalar.packed:
        return PtxType(f"b{scalar.bits}")
    return PtxType(f"u{max(scalar.bits, 8)}")


def device_param_type(scalar: Scalar) -> PtxType:
    """The `.param` type of a scalar argument or result of a `.func`."""
    if scalar.float_name in ("f32", "f64"):
        return PtxType(scalar.float_name)
    return PtxType(f"b{max(scalar.bits, 8)}")


def param_declarator(type: Attribute, name: str, kernel: bool) -> Declarator:
    scalar = scalar_of(type)
    if scalar is not None:
        ptx_type = kernel_param_type(scalar) if kernel else device_param_type(scalar)
        return Declarator(ptx_type, name)
    layout = layout_of(type)
    if layout is None:
        raise SignatureError(f"unsupported type '{type}'")
    return bytes_declarator(layout, name)


def bytes_declarator(layout: Layout, name: str, align: int | None = None) -> Declarator:
    return Declarator(
        PtxType.B8, name, align=max(layout.align, align or 1), dims=(layout.size,)
    )


def _function_type(
    op: Operation,
) -> tuple[tuple[Attribute, ...], tuple[Attribute, ...]]:
    if isinstance(op, llvm.FuncOp):
        function_type = op.function_type
        if function_type.is_variadic:
            raise SignatureError("variadic functions are not supported")
        output = function_type.output
        results = () if isinstance(output, llvm.LLVMVoidType) else (output,)
        return tuple(function_type.inputs), results
    assert isinstance(op, func.FuncOp)
    return tuple(op.function_type.inputs), tuple(op.function_type.outputs)


def _argument_attributes(op: Operation, count: int) -> list[dict[str, Attribute]]:
    """The attribute dictionary of each of the `count` arguments (empty when absent)."""
    arg_attrs = op.properties.get("arg_attrs")
    entries = (
        cast(ArrayAttr[Attribute], arg_attrs).data
        if isinstance(arg_attrs, ArrayAttr)
        else ()
    )
    attributes = [
        dict(entry.data) if isinstance(entry, DictionaryAttr) else {}
        for entry in entries[:count]
    ]
    return attributes + [{} for _ in range(count - len(attributes))]


def _by_value_argument(
    attributes: dict[str, Attribute], name: str, kernel: bool
) -> Argument:
    byval = attributes[nvvm_kernel.BYVAL]
    if not isinstance(byval, TypeAttribute):
        raise SignatureError("'llvm.byval' must name the type passed by value")
    if not kernel or nvvm_kernel.GRID_CONSTANT not in attributes:
        raise SignatureError(
            "a 'llvm.byval' argument is only supported on a kernel, with "
            "'nvvm.grid_constant' (copying it to local memory is not supported)"
        )
    layout = layout_of(byval)
    if layout is None:
        raise SignatureError(f"unsupported type '{byval}'")
    align = attributes.get("llvm.align")
    explicit = align.value.data if isinstance(align, IntegerAttr) else None
    return Argument(bytes_declarator(layout, name, explicit), by_value=True)


def _dims(value: Attribute) -> list[int]:
    assert isinstance(value, DenseArrayBase)
    return [int(v) for v in cast(DenseArrayBase[Any], value).get_values()]


def _int(value: Attribute) -> int:
    assert isinstance(value, IntegerAttr)
    return value.value.data


def kernel_directives(op: Operation) -> tuple[DirectiveAttr, ...]:
    """The performance directives of a kernel's launch-bound attributes."""
    attributes = op.attributes
    directives: list[DirectiveAttr] = []
    for attribute, directive in (
        (nvvm_kernel.MAXNTID, "maxntid"),
        (nvvm_kernel.REQNTID, "reqntid"),
    ):
        if attribute in attributes:
            directives.append(DirectiveAttr(directive, _dims(attributes[attribute])))
    for attribute, directive in (
        (nvvm_kernel.MINCTASM, "minnctapersm"),
        (nvvm_kernel.MAXNREG, "maxnreg"),
    ):
        if attribute in attributes:
            directives.append(DirectiveAttr(directive, [_int(attributes[attribute])]))
    if nvvm_kernel.CLUSTER_DIM in attributes:
        dims = _dims(attributes[nvvm_kernel.CLUSTER_DIM])
        directives.append(DirectiveAttr("reqnctapercluster", dims))
        directives.append(DirectiveAttr("explicitcluster"))
    if nvvm_kernel.CLUSTER_MAX_BLOCKS in attributes:
        blocks = _int(attributes[nvvm_kernel.CLUSTER_MAX_BLOCKS])
        directives.append(DirectiveAttr("maxclusterrank", [blocks]))
    if nvvm_kernel.BLOCKS_ARE_CLUSTERS in attributes:
        directives.append(DirectiveAttr("blocksareclusters"))
    return tuple(directives)


def _linkage(op: Operation, kernel: bool, defined: bool) -> Linkage | None:
    if not defined:
        return Linkage.EXTERN
    if isinstance(op, llvm.FuncOp):
        hidden = op.linkage.linkage.data in ("internal", "private")
    else:
        assert isinstance(op, func.FuncOp)
        hidden = op.sym_visibility is not None and op.sym_visibility.data == "private"
    return None if hidden and not kernel else Linkage.VISIBLE


def signature_of(op: Operation) -> Signature:
    """The PTX signature of an `llvm.func` / `func.func` (raises SignatureError)."""
    assert isinstance(op, llvm.FuncOp | func.FuncOp)
    name = op.sym_name.data
    if not is_ptx_identifier(name):
        raise SignatureError(f"'{name}' is not a valid PTX identifier")
    kernel = nvvm_kernel.is_kernel(op)
    inputs, results = _function_type(op)
    attributes = _argument_attributes(op, len(inputs))
    arguments: list[Argument] = []
    for index, (type, attrs) in enumerate(zip(inputs, attributes, strict=True)):
        param = f"{name}_param_{index}"
        if nvvm_kernel.BYVAL in attrs:
            arguments.append(_by_value_argument(attrs, param, kernel))
        else:
            arguments.append(Argument(param_declarator(type, param, kernel)))
    returns = None
    if results and not kernel:
        results_type = (
            results[0]
            if len(results) == 1
            else llvm.LLVMStructType.from_type_list(results)
        )
        returns = param_declarator(results_type, RETURN_PARAM, kernel=False)
    for type in results:
        if layout_of(type) is None:
            raise SignatureError(f"unsupported type '{type}'")
    defined = bool(op.body.blocks)
    return Signature(
        name,
        FunctionKind.ENTRY if kernel else FunctionKind.FUNC,
        _linkage(op, kernel, defined),
        tuple(arguments),
        inputs,
        results,
        returns,
        kernel_directives(op) if kernel else (),
    )


def params_of(signature: Signature) -> tuple[list[ParamAttr], list[ParamAttr]]:
    """The `.param` lists of the `ori.func`: parameters, and the return value if any."""
    params = [ParamAttr(argument.param) for argument in signature.arguments]
    returns = [] if signature.returns is None else [ParamAttr(signature.returns)]
    return params, returns
