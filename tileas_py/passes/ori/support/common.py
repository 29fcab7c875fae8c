"""What the sync phases share: the target, the functions of a module, new SASS ops, calls."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tileas_py.dialects.ori.builders import build_instruction
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import CallOp, InstructionOp
from tileas_py.dialects.ori.module_ops import TargetOp, pragmas_of, start_of
from tileas_py.dialects.ori.sass import SassOp
from tileas_py.hw.arch import sm_version

DEFAULT_ARCH = "sm_90a"
OCG_PREFIX = "__nv_ptx_builtin_ocg_"
"""ptxas's OCG intrinsics are `.extern .func`s of this prefix that PTX code calls."""


def target_arch(module: ModuleOp) -> str:
    """The module's `.target` architecture (`sm_90a`), `sm_90a` when it declares none."""
    for op in module.ops:
        if isinstance(op, TargetOp):
            for target in op.targets:
                if target.data.startswith(("sm_", "compute_")):
                    return target.data
    return DEFAULT_ARCH


def target_sm(module: ModuleOp) -> int:
    """The SM version of the module's target: 90 for `sm_90a`."""
    return sm_version(target_arch(module))


def defined_functions(module: ModuleOp) -> list[FuncOp]:
    """The functions of the module that have a body, in order."""
    return [op for op in module.ops if isinstance(op, FuncOp) and not op.is_declaration]


def callee_name(call: CallOp) -> str | None:
    """The name a direct call calls, None for an indirect call."""
    callee = call.callee
    return callee.root_reference.data if isinstance(callee, SymbolRefAttr) else None


def ocg_intrinsic(call: CallOp) -> str | None:
    """`red_async_shared_add_u32` for a call of `__nv_ptx_builtin_ocg_red_async_...`."""
    name = callee_name(call)
    if name is None or not name.startswith(OCG_PREFIX):
        return None
    return name.removeprefix(OCG_PREFIX)


def new_sass(
    opcode: str,
    at: Operation,
    layout: Sequence[Attribute] = (),
    registers: Sequence[SSAValue] = (),
    *,
    guard: SSAValue | None = None,
    guard_negated: bool = False,
) -> SassOp:
    """An `ori.sass` op with the source location of the instruction it belongs to.

    Built through `create` with shared attributes, as the PTX reader builds instructions:
    the phases add many of them.
    """
    op = build_instruction(
        SassOp, opcode, list(layout), list(registers), guard, guard_negated
    )
    assert isinstance(op, SassOp)
    op.location = at.location
    return op


def insert_before(anchor: Operation, ops: Sequence[Operation]) -> None:
    """`ops` before `anchor` and the `next` pragmas that belong to it."""
    block = anchor.parent_block()
    assert block is not None
    start = start_of(anchor)
    for op in ops:
        block.insert_op_before(op, start)


def insert_after(anchor: Operation, ops: Sequence[Operation]) -> None:
    block = anchor.parent_block()
    assert block is not None
    for op in reversed(ops):
        block.insert_op_after(op, anchor)


def block_instructions(block: Block) -> Iterator[InstructionOp]:
    for op in block.ops:
        if isinstance(op, InstructionOp):
            yield op


def opcode_parts(inst: InstructionOp) -> list[str]:
    """The dot-separated parts of the mnemonic: `['bar', 'sync']`."""
    return inst.opcode.data.split(".")


def erase(op: Operation) -> None:
    """Remove an instruction, and the `next` pragmas that belong to it, from its block
    and drop them."""
    for dropped in [*pragmas_of(op), op]:
        dropped.detach()
        dropped.erase()
