"""A module of NVVM kernels to a PTX module in ori: directives, variables, functions.

The module's `#nvvm.target` picks `.target` (`sm_90a` when there is none) and `.version`:
the PTX ISA of the target's `+ptxNN` feature, raised to the first ISA that knows the chip
(8.0 for sm_90a, 8.6 for sm_100a, ...), so `.version` never names an ISA ptxas rejects
for the `.target`. Addresses are 64-bit (`.address_size 64`).
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#ptx-module-directives
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import ArrayAttr, FileLineColLoc, ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation

from tileas_py.dialects.nvvm.pointers import address_space
from tileas_py.dialects.nvvm.target import TARGET_ATTR_NAME, NVVMTargetAttr, ptx_version
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.module_ops import (
    AddressSizeOp,
    TargetOp,
    VersionOp,
)
from tileas_py.hw.arch import Arch

# The op families register their lowerings when imported.
from tileas_py.passes.lowering.nvvm_to_ori import (
    arith,
    control_flow,
    inline_asm,
    memory,
    nvvm_ops,
    tcgen05,
    wgmma,
)
from tileas_py.passes.lowering.nvvm_to_ori.function import (
    FunctionLowering,
    Lowering,
    ModuleInfo,
    fail,
)
from tileas_py.passes.lowering.nvvm_to_ori.memory import (
    PARAM_SPACE,
    global_variable,
    load_value,
)
from tileas_py.passes.lowering.nvvm_to_ori.operands import Address, Def
from tileas_py.passes.lowering.nvvm_to_ori.registry import LOWERINGS
from tileas_py.passes.lowering.nvvm_to_ori.signature import (
    Signature,
    SignatureError,
    params_of,
    signature_of,
)
from tileas_py.passes.lowering.nvvm_to_ori.types import B64

DEFAULT_CHIP = "sm_90a"

OP_FAMILIES = (arith, memory, control_flow, nvvm_ops, wgmma, tcgen05, inline_asm)
"""The modules whose lowerings `LOWERINGS` holds: each registers its own on import."""


def module_target(module: ModuleOp, default_chip: str) -> tuple[Arch, str]:
    """The chip and the `features` of the module's `#nvvm.target` (or the default chip)."""
    declared = module.attributes.get(TARGET_ATTR_NAME)
    if isinstance(declared, ArrayAttr):
        targets = cast(ArrayAttr[Attribute], declared).data
        declared = targets[0] if targets else None
    chip, features = default_chip, ""
    if isinstance(declared, NVVMTargetAttr):
        chip, features = declared.chip.data, declared.features.data
    arch = Arch.parse(chip)
    # `#nvvm.target` verifies its chip, and the pass its default-chip option.
    assert arch is not None
    return arch, features


def _called_before_defined(functions: list[llvm.FuncOp | func.FuncOp]) -> set[str]:
    """The functions called from a function that comes before their definition: PTX
    needs their prototype first."""
    position = {op.sym_name.data: i for i, op in enumerate(functions)}
    early: set[str] = set()
    for caller, op in enumerate(functions):
        for inner in op.walk():
            callee = (
                inner.callee if isinstance(inner, func.CallOp | llvm.CallOp) else None
            )
            if (
                callee is not None
                and position.get(callee.root_reference.data, -1) > caller
            ):
                early.add(callee.root_reference.data)
    return early


def check_module_level(module: ModuleOp) -> None:
    """Only globals and functions at module level (checked before `scf` is lowered,
    which would split the module's block around control flow found there)."""
    for op in module.ops:
        if not isinstance(op, llvm.GlobalOp | llvm.FuncOp | func.FuncOp):
            fail(op, f"unsupported op '{op.name}' at module level")


def lower_module(
    module: ModuleOp, default_chip: str, version: str | None
) -> list[Operation]:
    """The ori ops of the PTX module for `module` (which must be free of `scf`)."""
    arch, features = module_target(module, default_chip)
    header: list[Operation] = [
        VersionOp(version or ptx_version(arch, features)),
        TargetOp([str(arch)]),
        AddressSizeOp(64),
    ]
    variables: list[Operation] = []
    functions: list[llvm.FuncOp | func.FuncOp] = []
    info = ModuleInfo({}, {})
    check_module_level(module)
    for op in module.ops:
        if isinstance(op, llvm.GlobalOp):
            variables.append(_located(global_variable(op), op))
            info.global_spaces[op.sym_name.data] = op.addr_space.value.data
        else:
            assert isinstance(op, llvm.FuncOp | func.FuncOp)
            try:
                info.signatures[op.sym_name.data] = signature_of(op)
            except SignatureError as e:
                fail(op, str(e))
            functions.append(op)
    early = _called_before_defined(functions)
    prototypes: list[Operation] = []
    bodies: list[Operation] = []
    table = LOWERINGS
    for op in functions:
        signature = info.signatures[op.sym_name.data]
        if not op.body.blocks:
            prototypes.append(_located(_declaration(signature), op))
            continue
        if signature.name in early:
            prototypes.append(_located(_declaration(signature), op))
        bodies.append(_located(_lower_function(op, signature, info, table), op))
    return [*header, *variables, *prototypes, *bodies]


def _declaration(signature: Signature) -> FuncOp:
    params, returns = params_of(signature)
    return FuncOp(
        signature.name,
        signature.kind,
        params,
        returns,
        linkage=signature.linkage,
        directives=signature.directives,
    )


def _lower_function(
    op: llvm.FuncOp | func.FuncOp,
    signature: Signature,
    info: ModuleInfo,
    table: dict[type[Operation], Lowering],
) -> FuncOp:
    ori_func = _declaration(signature)
    lowering = FunctionLowering(ori_func, signature, info, table)
    blocks = list(op.body.blocks)
    lowering.op = op
    lowering.lower_blocks(blocks, _prologue(lowering, blocks[0], signature))
    return ori_func


def _prologue(
    fl: FunctionLowering, entry: Block, signature: Signature
) -> Callable[[], None]:
    def load_arguments() -> None:
        for value, argument in zip(entry.args, signature.arguments, strict=True):
            symbol = SymbolRefAttr(argument.param.name)
            if not argument.by_value:
                load_value(fl, "ld.param", Address(symbol), value)
            elif address_space(value.type) == PARAM_SPACE:
                fl.define(value, (Address(symbol),))
            else:
                window = fl.address_register(Address(symbol))
                generic = fl.fresh(B64)
                fl.emit("cvta.param.u64", Def(generic), window)
                fl.define(value, (generic,))

    return load_arguments


def _located(op: Operation, source: Operation) -> Operation:
    if isinstance(source.location, FileLineColLoc):
        op.location = source.location
    return op
