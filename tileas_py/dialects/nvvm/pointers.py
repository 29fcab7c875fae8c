"""LLVM pointer address spaces as NVVM uses them, and upstream's operand-type messages."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntAttr
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, SSAValue
from xdsl.utils.exceptions import VerifyException

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


def check_pointer_operand(value: SSAValue, index: int, spaces: Sequence[int]) -> None:
    """Upstream's ODS message for a pointer operand outside the allowed address spaces."""
    if address_space(value.type) in spaces:
        return
    allowed = " or ".join(f"LLVM pointer in address space {s}" for s in spaces)
    raise VerifyException(f"operand #{index} must be {allowed}, but got '{value.type}'")
