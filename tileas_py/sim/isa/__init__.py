"""Instruction semantics: each PTX instruction compiled into an action over threads.

`compile_instruction` picks the family of an instruction by its root mnemonic and builds
its action once, on first execution: the operand readers and writers are resolved then,
so running it again only moves data. An instruction no family models, or an operand form a
family does not take, stops the run with a located `SimulationError`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

from tileas_py.sim.isa.operands import Operand, OperandError, operand_tree
from tileas_py.sim.program import Action, Instruction

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Compiler = Callable[["Machine", Instruction, list[Operand]], Action]

_FAMILIES: dict[str, tuple[Compiler, str]] = {}


def semantics(*roots: str, klass: str) -> Callable[[Compiler], Compiler]:
    """Register a compiler for the instructions with these root mnemonics."""

    def register(compiler: Compiler) -> Compiler:
        for root in roots:
            _FAMILIES[root] = (compiler, klass)
        return compiler

    return register


class Unsupported(Exception):
    """An instruction or form the simulator does not model (the caller locates it)."""


_FAMILY_MODULES = (
    "alu",
    "async_copy",
    "barriers",
    "clusterlaunchcontrol",
    "control",
    "mbarrier",
    "memory_ops",
    "registers",
    "special",
    "tcgen05",
    "warp",
    "wgmma",
)


@cache
def _load_families() -> None:
    """Import every family module once: each registers its compilers on import."""
    for name in _FAMILY_MODULES:
        import_module(f"tileas_py.sim.isa.{name}")


def compile_instruction(m: Machine, inst: Instruction) -> Action:
    _load_families()
    root = inst.root
    if inst.op is not None and inst.opcode.startswith("_"):
        root = inst.opcode.split(".", 1)[0]
    family = _FAMILIES.get(root)
    if family is None:
        m.fail(f"unsupported instruction '{inst.opcode}'", inst)
    compiler, klass = family
    inst.klass = klass
    try:
        return compiler(m, inst, operand_tree(inst))
    except (Unsupported, OperandError, NotImplementedError, KeyError) as error:
        detail = str(error).strip("'")
        m.fail(f"unsupported instruction '{inst.opcode}': {detail}", inst)
