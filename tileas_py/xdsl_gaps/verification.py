"""IRDL verification that skips its generic checks for ops built in bulk.

xDSL 0.74's IRDL verifier re-derives every op's shape from its definition (operand
segments, then a constraint per operand, result and property) each time a module is
verified, which is after every pass. For the ops a PTX kernel has by the thousand (an
instruction per line, a register per virtual register), that was two thirds of verifying
a GEMM. An op class decorated with `quick_verified_op_definition` says itself, from a few
type checks, whether it has the ordinary shape that passes those checks by construction;
then only its traits and its own rules run. Any other op takes IRDL's full path, so every
diagnostic is IRDL's own, in IRDL's order.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import TypeVar

from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition


class QuickVerifiedOperation(IRDLOperation, ABC):
    """An op that can tell cheaply that IRDL's generic checks would pass on it."""

    @abstractmethod
    def has_ordinary_shape(self) -> bool:
        """Whether IRDL's generic checks (and `verify_`'s checks of the same things)
        would pass, found without running them."""

    @abstractmethod
    def verify_ordinary_(self) -> None:
        """The op's own rules, for an op of the ordinary shape."""

    def has_property_types(self, types: Mapping[str, type[Attribute]]) -> bool:
        """Whether each property is one `types` names, of exactly the type it names."""
        return all(
            type(value) is types.get(name) for name, value in self.properties.items()
        )


QuickVerifiedT = TypeVar("QuickVerifiedT", bound=QuickVerifiedOperation)


def quick_verified_op_definition(cls: type[QuickVerifiedT]) -> type[QuickVerifiedT]:
    """`irdl_op_definition`, whose verifier runs IRDL's generic checks and then `verify_`
    only for an op whose `has_ordinary_shape()` is false; otherwise the op's traits, then
    `verify_ordinary_()`."""
    defined = irdl_op_definition(cls)
    irdl_verify: Callable[[QuickVerifiedT], None] = defined.verify_
    traits = defined.get_irdl_definition().traits

    def verify_(self: QuickVerifiedT) -> None:
        if not self.has_ordinary_shape():
            irdl_verify(self)
            return
        for trait in traits:
            trait.verify(self)
        self.verify_ordinary_()

    defined.verify_ = verify_
    return defined
