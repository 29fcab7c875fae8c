"""What the operations enclosing an op of xDSL IR say about it."""

from __future__ import annotations

from typing import TypeVar

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation

AttributeT = TypeVar("AttributeT", bound=Attribute)


def module_attribute(
    op: Operation, name: str, kind: type[AttributeT]
) -> AttributeT | None:
    """The `name` attribute of the innermost module enclosing `op` (or `op` itself) that
    has one of type `kind`; None where no enclosing module has."""
    current: Operation | None = op
    while current is not None:
        if isinstance(current, ModuleOp):
            found = current.attributes.get(name)
            if isinstance(found, kind):
                return found
        current = current.parent_op()
    return None
