"""LLVM pointer address spaces as NVVM uses them."""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute

GENERIC = 0
GLOBAL = 1
SHARED = 3
CONSTANT = 4
LOCAL = 5
TENSOR = 6
SHARED_CLUSTER = 7


def pointer(space: int) -> LLVMPointerType:
    """`!llvm.ptr` for the generic space, `!llvm.ptr<N>` otherwise."""
    return LLVMPointerType() if space == GENERIC else LLVMPointerType(IntAttr(space))


def address_space(type: Attribute) -> int | None:
    """The address space of an LLVM pointer type, None for anything else."""
    if not isinstance(type, LLVMPointerType):
        return None
    space = type.addr_space
    return space.data if isinstance(space, IntAttr) else GENERIC
