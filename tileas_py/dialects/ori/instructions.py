"""PTX instructions as ori ops.

Every instruction keeps its full PTX mnemonic (`opcode`, with every modifier), its guard
predicate (`@%p` / `@!%p`), and its operands as a layout tree (see `attributes.py`) whose
register slots are the op's SSA operands, each read (`use`), written (`def`) or both
(`inout`). Ori is not SSA: the same register handle is written by many instructions, and
`defs()` / `uses()` say which registers one instruction writes and reads.

The instructions ptxas's phases reason about have their own op (`ori.wgmma.mma_async`,
`ori.bar`, `ori.mbarrier`, `ori.call`, the branches, ...); everything else is `ori.inst`.
`instruction_class(opcode)` picks the op for a mnemonic, and each op's verifier checks that it
holds a mnemonic of its own family.
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#instructions
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import ClassVar, Self, cast

from xdsl.dialects.builtin import (
    I32,
    ArrayAttr,
    DenseArrayBase,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    traits_def,
    var_operand_def,
    var_successor_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.ori.attributes import (
    ImmAttr,
    ParenAttr,
    RegisterType,
    Role,
    SlotAttr,
    VectorAttr,
    check_operand,
    slots_of,
)
from tileas_py.dialects.ori.operand_syntax import OperandParser, OperandPrinter
from tileas_py.xdsl_gaps.verification import (
    QuickVerifiedOperation,
    quick_verified_op_definition,
)

_ROLES: dict[int, tuple[ArrayAttr[Attribute], tuple[Role, ...]]] = {}
_MAX_CACHED_LAYOUTS = 1 << 16


@lru_cache(maxsize=1 << 16)
def segment_sizes(guarded: bool, registers: int) -> DenseArrayBase[I32]:
    """An instruction's `operandSegmentSizes`: its guard (or none), then its registers."""
    return DenseArrayBase.from_list(i32, (int(guarded), registers))


def layout_roles(layout: ArrayAttr[Attribute]) -> tuple[Role, ...]:
    """The role of each register slot of a layout, in SSA operand order.

    Cached by the layout object's identity (hashing a layout walks its whole tree, which
    the def/use queries of the phases would pay on every call).
    """
    cached = _ROLES.get(id(layout))
    if cached is not None and cached[0] is layout:
        return cached[1]
    roles = tuple(slot.role for operand in layout for slot in slots_of(operand))
    if len(_ROLES) >= _MAX_CACHED_LAYOUTS:
        _ROLES.clear()
    _ROLES[id(layout)] = (layout, roles)
    return roles


_Split = tuple[SSAValue | None, tuple[SSAValue, ...], tuple[Role, ...]]

_PROPERTY_TYPES: dict[str, type[Attribute]] = {
    "opcode": StringAttr,
    "layout": ArrayAttr,
    "guard_negated": UnitAttr,
    "operandSegmentSizes": DenseArrayBase,
}


class InstructionOp(QuickVerifiedOperation, ABC):
    """The shape shared by every PTX instruction op."""

    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ()
    """The mnemonic families (`wgmma.mma_async`, `bar`) this op stands for."""

    HAS_SUCCESSORS: ClassVar[bool] = False
    TARGETS_LABEL: ClassVar[bool] = False
    TARGETS_LIST: ClassVar[bool] = False
    """The op branches to a list of labels of its own length (`brx.idx`)."""

    guard = opt_operand_def(RegisterType)
    registers = var_operand_def(RegisterType)
    opcode = prop_def(StringAttr)
    layout = prop_def(ArrayAttr[Attribute])
    guard_negated = opt_prop_def(UnitAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        opcode: str,
        layout: Sequence[Attribute] = (),
        registers: Sequence[SSAValue | Operation] = (),
        *,
        guard: SSAValue | Operation | None = None,
        guard_negated: bool = False,
        successors: Sequence[Block] = (),
    ) -> None:
        properties: dict[str, Attribute] = {
            "opcode": StringAttr(opcode),
            "layout": ArrayAttr(layout),
        }
        if guard_negated:
            properties["guard_negated"] = UnitAttr()
        super().__init__(
            operands=[[] if guard is None else [guard], registers],
            properties=properties,
            successors=[successors] if self.HAS_SUCCESSORS else [],
        )

    # -- the accessor API of the ptxas phases ---------------------------------------------

    def _split_operands(self) -> _Split:
        """(guard, register operands, their roles): the analyses call this often, and
        slicing the operand tuple is much cheaper than xDSL's segment accessors."""
        roles = layout_roles(self.layout)
        operands = tuple(self._operands)  # a plain tuple slices in C
        registers = operands[len(operands) - len(roles) :]
        guard = operands[0] if len(operands) > len(roles) else None
        return guard, registers, roles

    def register_roles(self) -> list[tuple[SSAValue, Role]]:
        """Each register operand (guard excluded) with what this instruction does to it."""
        _, registers, roles = self._split_operands()
        return list(zip(registers, roles, strict=True))

    def defs(self) -> list[SSAValue]:
        """The registers this instruction writes, in PTX order."""
        _, registers, roles = self._split_operands()
        return [
            reg
            for reg, role in zip(registers, roles, strict=True)
            if role is not Role.USE
        ]

    def uses(self) -> list[SSAValue]:
        """The registers this instruction reads, its guard first."""
        guard, registers, roles = self._split_operands()
        used = [] if guard is None else [guard]
        used.extend(
            reg
            for reg, role in zip(registers, roles, strict=True)
            if role is not Role.DEF
        )
        return used

    @property
    def is_guarded(self) -> bool:
        return self.guard is not None

    @property
    def guard_register(self) -> SSAValue | None:
        """The guard predicate (as `guard`, without decoding the operand segments)."""
        operands = tuple(self._operands)  # a plain tuple indexes in C
        return operands[0] if len(operands) > len(layout_roles(self.layout)) else None

    def drop_guard(self) -> None:
        """Make the instruction unconditional (a pass that branches around it instead).
        Not for a branch, whose successors follow its guard."""
        assert not self.HAS_SUCCESSORS
        _, registers, _ = self._split_operands()
        self.operands = registers
        self.properties["operandSegmentSizes"] = segment_sizes(False, len(registers))
        self.properties.pop("guard_negated", None)

    # -- custom syntax: `ori.x [if [not] %p] "mnemonic" (operands) successors` ------------

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        guard = None
        negated = False
        if parser.parse_optional_keyword("if") is not None:
            negated = parser.parse_optional_keyword("not") is not None
            guard = parser.parse_unresolved_operand()
        opcode = parser.parse_str_literal("the PTX mnemonic")
        operands = OperandParser(parser)
        layout: list[Attribute] = []
        if parser.parse_optional_punctuation("(") is not None:
            layout = operands.parse_layout()
        # The successor count is fixed by the op and its guard, so a block label that
        # follows an op without successors is never taken for one.
        successors: list[Block] = []
        if cls.TARGETS_LIST:
            successors.append(parser.parse_successor())
            while parser.parse_optional_punctuation(",") is not None:
                successors.append(parser.parse_successor())
        elif cls.HAS_SUCCESSORS:
            for i in range(int(cls.TARGETS_LABEL) + int(guard is not None)):
                if i:
                    parser.parse_punctuation(",")
                successors.append(parser.parse_successor())
        attributes = parser.parse_optional_attr_dict_with_keyword()
        reg_type = RegisterType()
        properties: dict[str, Attribute] = {
            "opcode": StringAttr(opcode),
            "layout": ArrayAttr(layout),
        }
        if negated:
            properties["guard_negated"] = UnitAttr()
        op = cls.build(
            operands=[
                [] if guard is None else [parser.resolve_operand(guard, reg_type)],
                [parser.resolve_operand(r, reg_type) for r in operands.registers],
            ],
            properties=properties,
            successors=[successors] if cls.HAS_SUCCESSORS else [],
            attributes=attributes.data if attributes is not None else {},
        )
        return op

    def print(self, printer: Printer) -> None:
        guard, registers, _ = self._split_operands()
        segments = segment_sizes(guard is not None, len(registers))
        if self.properties.get("operandSegmentSizes") is not segments:
            # Not built by `build_instruction`: ask the segments themselves.
            guard, registers = self.guard, self.registers
        if guard is not None:
            printer.print_string(" if not " if self.guard_negated else " if ")
            printer.print_operand(guard)
        printer.print_string(" ")
        printer.print_string_literal(self.opcode.data)
        if self.layout.data:
            printer.print_string(" (")
            OperandPrinter(printer, registers).print_layout(self.layout.data)
            printer.print_string(")")
        if self.successors:
            printer.print_string(" ")
            printer.print_list(self.successors, printer.print_block_name)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    # -- verification ---------------------------------------------------------------------

    def verify_(self) -> None:
        for operand in self.layout:
            check_operand(operand)
        slots = len(layout_roles(self.layout))
        if slots != len(self.registers):
            raise VerifyException(
                f"the operand layout names {slots} registers but the op has "
                f"{len(self.registers)} register operands"
            )
        self._verify_guard_and_family()

    def verify_ordinary_(self) -> None:
        for operand in self.layout:
            check_operand(operand)
        self._verify_guard_and_family()

    def _verify_guard_and_family(self) -> None:
        if self.guard_negated is not None and self.guard is None:
            raise VerifyException("a negated guard needs a guard predicate")
        self.verify_mnemonic()
        self.verify_instruction()

    def has_ordinary_shape(self) -> bool:
        """Known properties of their exact types, operand segments that put a guard (or
        none) before one register per layout slot, register-typed operands, no results
        or regions, and successors only where the op takes them."""
        properties = self.properties
        if not self.has_property_types(_PROPERTY_TYPES):
            return False
        layout = properties.get("layout")
        if layout is None or "opcode" not in properties:
            return False
        operands = self._operands
        registers = len(layout_roles(cast(ArrayAttr[Attribute], layout)))
        guards = len(operands) - registers
        segments = properties.get("operandSegmentSizes")
        if guards not in (0, 1) or (
            segments is not (expected := segment_sizes(guards == 1, registers))
            and segments != expected
        ):
            return False
        return (
            all(type(operand.type) is RegisterType for operand in operands)
            and not self.results
            and not self.regions
            and (self.HAS_SUCCESSORS or not self._successors)
        )

    def verify_mnemonic(self) -> None:
        """Check that this op is the one `instruction_class` picks for its mnemonic."""
        expected = instruction_class(self.opcode.data)
        if expected is not type(self):
            raise VerifyException(
                f"PTX instruction '{self.opcode.data}' must be an '{expected.name}' op"
            )

    def verify_instruction(self) -> None:
        """Rules of one instruction family, on top of the shared ones."""

    def _expect_operand_count(self, count: int) -> None:
        if len(self.layout) != count:
            raise VerifyException(
                f"'{self.opcode.data}' takes {count} operands, got {len(self.layout)}"
            )


@quick_verified_op_definition
class GenericInstructionOp(InstructionOp):
    """A PTX instruction no ptxas phase looks into by name.

    Its registers are read or written as the layout says; the PTX reader writes the first
    operand of every instruction that produces a value.

    Example:
        ori.inst "add.f32" (def %f3, %f1, %f2)
        ori.inst if not %p1 "ld.global.v2.f32" (def {%f1, %f2}, [%rd1 + 8])
    """

    name = "ori.inst"


# ---------------------------------------------------------------------------------------
# WGMMA and the warpgroup pseudo-instructions ptxas inserts


@quick_verified_op_definition
class WgmmaFenceOp(InstructionOp):
    """`wgmma.fence`: opens a WGMMA pipeline stage (SASS `WARPGROUP.ARRIVE`).

    Example:
        ori.wgmma.fence "wgmma.fence.sync.aligned"
    """

    name = "ori.wgmma.fence"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("wgmma.fence",)

    def verify_instruction(self) -> None:
        self._expect_operand_count(0)


@quick_verified_op_definition
class WgmmaMmaAsyncOp(InstructionOp):
    """`wgmma.mma_async`: an asynchronous warpgroup MMA on an accumulator vector.

    The accumulator vector (the first operand) is read and written (`inout`); the A and B
    operands are descriptors or registers, followed by scale and transpose immediates or
    predicates.

    Example:
        ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" (inout {%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 1, 1, 0, 0)
    """

    name = "ori.wgmma.mma_async"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("wgmma.mma_async",)

    def verify_instruction(self) -> None:
        if len(self.layout) < 3:
            raise VerifyException(
                "wgmma.mma_async needs an accumulator, an A and a B operand"
            )
        accumulator = self.layout.data[0]
        if not isinstance(accumulator, VectorAttr) or any(
            not isinstance(e, SlotAttr) or e.role is not Role.INOUT
            for e in accumulator.elements
        ):
            raise VerifyException(
                "the accumulator of wgmma.mma_async must be a vector of inout registers"
            )

    @property
    def accumulators(self) -> Sequence[SSAValue]:
        """The accumulator registers, read and written by the MMA."""
        return self._split_operands()[1][: self._accumulator_count()]

    @property
    def inputs(self) -> list[SSAValue]:
        """The registers of the A, B (descriptors or fragments) and later operands."""
        return list(self._split_operands()[1][self._accumulator_count() :])

    def _accumulator_count(self) -> int:
        accumulator = self.layout.data[0]
        assert isinstance(accumulator, VectorAttr)
        return len(accumulator.elements)


@quick_verified_op_definition
class WgmmaCommitGroupOp(InstructionOp):
    """`wgmma.commit_group`: closes the current WGMMA group.

    Example:
        ori.wgmma.commit_group "wgmma.commit_group.sync.aligned"
    """

    name = "ori.wgmma.commit_group"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("wgmma.commit_group",)

    def verify_instruction(self) -> None:
        self._expect_operand_count(0)


class _WaitOp(InstructionOp, ABC):
    """An instruction that waits until at most N groups are pending."""

    def verify_instruction(self) -> None:
        self._expect_operand_count(1)
        count = self.layout.data[0]
        if not isinstance(count, ImmAttr):
            raise VerifyException(
                f"'{self.opcode.data}' takes an immediate group count"
            )
        if count.value.data < 0:
            # ptxas's words; a negative count also broke the GMMA model's group ages.
            raise VerifyException(
                f"Argument 0 of instruction '{self.PTX_PREFIXES[0]}': unexpected value "
                f"'{count.value.data}', expected to be non-negative integer"
            )

    @property
    def pending(self) -> int:
        """The number of groups that may still be pending after the wait."""
        count = self.layout.data[0]
        assert isinstance(count, ImmAttr)
        return count.value.data


@quick_verified_op_definition
class WgmmaWaitGroupOp(_WaitOp):
    """`wgmma.wait_group N`: waits until at most N WGMMA groups are pending.

    Example:
        ori.wgmma.wait_group "wgmma.wait_group.sync.aligned" (0)
    """

    name = "ori.wgmma.wait_group"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("wgmma.wait_group",)


@quick_verified_op_definition
class WarpgroupArriveOp(InstructionOp):
    """ptxas's compiler-inserted `_warpgroup.arrive` (SASS `WARPGROUP.ARRIVE`).

    Not PTX: ptxas 13.5 rejects the mnemonic in PTX text, so the PTX writer prints the
    equivalent `wgmma.fence.sync.aligned`.

    Example:
        ori.warpgroup.arrive "_warpgroup.arrive"
    """

    name = "ori.warpgroup.arrive"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("_warpgroup.arrive",)

    def verify_instruction(self) -> None:
        self._expect_operand_count(0)


@quick_verified_op_definition
class WarpgroupWaitOp(_WaitOp):
    """ptxas's compiler-inserted `_warpgroup.wait N` (SASS `WARPGROUP.DEPBAR.LE gsb0, N`).

    The PTX writer prints the equivalent `wgmma.wait_group.sync.aligned N`.

    Example:
        ori.warpgroup.wait "_warpgroup.wait" (0)
    """

    name = "ori.warpgroup.wait"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("_warpgroup.wait",)


@quick_verified_op_definition
class WarpgroupCommitBatchOp(InstructionOp):
    """ptxas's compiler-inserted `_warpgroup.commit_batch` (the `gsb0` of the last HGMMA).

    The PTX writer prints the equivalent `wgmma.commit_group.sync.aligned`.

    Example:
        ori.warpgroup.commit_batch "_warpgroup.commit_batch"
    """

    name = "ori.warpgroup.commit_batch"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("_warpgroup.commit_batch",)

    def verify_instruction(self) -> None:
        self._expect_operand_count(0)


# ---------------------------------------------------------------------------------------
# Calls and control flow


@quick_verified_op_definition
class CallOp(InstructionOp):
    """`call`: a direct or indirect call, with `.param` return and argument lists.

    Layout: `[(returns),] callee [, (arguments)] [, prototype]`.

    Example:
        ori.call "call.uni" ((@retval0), @_Z5scaleff, (@param0, @param1))
    """

    name = "ori.call"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("call",)

    def _parts(self) -> tuple[ParenAttr | None, Attribute, ParenAttr | None]:
        operands = list(self.layout.data)
        first = operands[0]
        returns = None
        if isinstance(first, ParenAttr):
            returns = first
            operands.pop(0)
        callee = operands.pop(0)
        arguments = operands.pop(0) if operands else None
        assert arguments is None or isinstance(arguments, ParenAttr)
        return returns, callee, arguments

    def verify_instruction(self) -> None:
        operands = list(self.layout.data)
        if operands and isinstance(operands[0], ParenAttr):
            operands.pop(0)
        if not operands or not isinstance(operands[0], SymbolRefAttr | SlotAttr):
            raise VerifyException("call needs a callee symbol or register")
        operands.pop(0)
        if operands and not isinstance(operands.pop(0), ParenAttr):
            raise VerifyException("the arguments of a call must be a '(...)' list")
        if operands and not isinstance(operands.pop(0), SymbolRefAttr):
            raise VerifyException("the prototype of an indirect call must be a symbol")
        if operands:
            raise VerifyException("call has operands after its prototype")

    @property
    def callee(self) -> Attribute:
        """The callee: a function symbol, or a register slot for an indirect call."""
        return self._parts()[1]

    @property
    def returns(self) -> Sequence[Attribute]:
        returns = self._parts()[0]
        return () if returns is None else returns.elements.data

    @property
    def arguments(self) -> Sequence[Attribute]:
        arguments = self._parts()[2]
        return () if arguments is None else arguments.elements.data

    @property
    def is_uniform(self) -> bool:
        return ".uni" in self.opcode.data


class TerminatorInstructionOp(InstructionOp, ABC):
    """A PTX instruction that ends a basic block (`bra`, `ret`, `exit`); guarded, it also
    falls through, to its last successor."""

    HAS_SUCCESSORS: ClassVar[bool] = True

    successor_blocks = var_successor_def()
    traits = traits_def(IsTerminator())

    def verify_instruction(self) -> None:
        self._expect_operand_count(0)
        expected = int(self.TARGETS_LABEL) + int(self.guard is not None)
        if len(self.successors) != expected:
            guarded = "a guarded" if self.guard is not None else "an unguarded"
            raise VerifyException(
                f"{guarded} '{self.opcode.data}' has {expected} successors, "
                f"got {len(self.successors)}"
            )

    @property
    def fallthrough(self) -> Block | None:
        """Where execution goes when the guard is false."""
        return self.successors[-1] if self.guard is not None else None


@quick_verified_op_definition
class BraOp(TerminatorInstructionOp):
    """`bra`: a branch, to its first successor; guarded, it falls through to the second.

    Example:
        ori.bra if %p1 "bra" ^bb2, ^bb1
    """

    name = "ori.bra"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("bra",)
    TARGETS_LABEL: ClassVar[bool] = True

    @property
    def target(self) -> Block:
        return self.successors[0]


@quick_verified_op_definition
class BrxOp(TerminatorInstructionOp):
    """`brx.idx`: an indirect branch to the label an index picks from a list.

    The successors are the labels of the `.branchtargets` list, in order, then (guarded)
    the fall-through.

    Layout: `index, @list` (the list's name, which the PTX writer declares again).

    Example:
        ori.brx "brx.idx" (%r3, @"$L_targets") ^bb2, ^bb3
    """

    name = "ori.brx"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("brx",)
    TARGETS_LIST: ClassVar[bool] = True

    def verify_instruction(self) -> None:
        self._expect_operand_count(2)
        if not isinstance(self.layout.data[1], SymbolRefAttr):
            raise VerifyException("brx.idx names its list of targets by a symbol")
        if len(self.targets) < 1:
            raise VerifyException("brx.idx needs at least one target")

    @property
    def targets(self) -> Sequence[Block]:
        """The labels of the list, in index order."""
        count = len(self.successors) - int(self.guard is not None)
        return self.successors[:count]

    @property
    def list_name(self) -> str:
        """The name of the `.branchtargets` list."""
        name = self.layout.data[1]
        assert isinstance(name, SymbolRefAttr)
        return name.root_reference.data


@quick_verified_op_definition
class RetOp(TerminatorInstructionOp):
    """`ret`: returns from a function; guarded, it falls through to its successor.

    Example:
        ori.ret "ret"
    """

    name = "ori.ret"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("ret",)


@quick_verified_op_definition
class ExitOp(TerminatorInstructionOp):
    """`exit`: ends the thread; guarded, it falls through to its successor.

    Example:
        ori.exit "exit"
    """

    name = "ori.exit"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("exit",)


# ---------------------------------------------------------------------------------------
# Barriers, fences and asynchronous copies


@quick_verified_op_definition
class BarrierOp(InstructionOp):
    """`bar` / `barrier`: CTA barriers (`sync`, `arrive`, `red`), named or not.

    Example:
        ori.bar "bar.sync" (0)
        ori.bar "barrier.cta.red.popc.u32" (def %r1, 0, %p1)
    """

    name = "ori.bar"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("bar", "barrier")


@quick_verified_op_definition
class MembarOp(InstructionOp):
    """`membar`: a memory barrier at CTA, GPU or system scope.

    Example:
        ori.membar "membar.gl"
    """

    name = "ori.membar"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("membar",)


@quick_verified_op_definition
class FenceOp(InstructionOp):
    """`fence`: memory-ordering fences, proxy fences (`fence.proxy.async`) included.

    Example:
        ori.fence "fence.proxy.async.shared::cta"
    """

    name = "ori.fence"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("fence",)


@quick_verified_op_definition
class MbarrierOp(InstructionOp):
    """`mbarrier.*`: init, arrive (with `expect_tx`), test_wait / try_wait, inval, ...

    Example:
        ori.mbarrier if %p4 "mbarrier.arrive.expect_tx.shared::cta.b64" (_, [%r6], 32768)
        ori.mbarrier "mbarrier.try_wait.parity.shared::cta.b64" (def %p1, [%r40], %r135)
    """

    name = "ori.mbarrier"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("mbarrier",)


@quick_verified_op_definition
class MbarrierWaitOp(InstructionOp):
    """ptxas's `_mbarrier.try_wait.parity` pseudo-instruction: wait until a phase completes.

    Seed 003's MBARRIER_TRY_WAIT_PARITY: a blocking wait that `ori-expand-mbarrier` expands
    into the native retry loop `WAIT: mbarrier.try_wait.parity %p, [addr], parity;
    @!%p bra WAIT;`. Not PTX: the PTX reader rejects the mnemonic and the PTX writer prints
    that loop in a `{ }` scope of its own.

    Example:
        ori.mbarrier.wait "_mbarrier.try_wait.parity.shared::cta.b64" ([@bar], %r1)
    """

    name = "ori.mbarrier.wait"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("_mbarrier.try_wait",)

    def verify_instruction(self) -> None:
        self._expect_operand_count(2)

    @property
    def native_opcode(self) -> str:
        """The PTX mnemonic of the try_wait the loop runs."""
        return self.opcode.data.removeprefix("_")


@quick_verified_op_definition
class CpAsyncOp(InstructionOp):
    """`cp.async.ca` / `cp.async.cg`: a non-bulk asynchronous copy to shared memory.

    Example:
        ori.cp.async "cp.async.cg.shared.global" ([%r1], [%rd1], 16, %r2)
    """

    name = "ori.cp.async"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("cp.async",)


@quick_verified_op_definition
class CpAsyncCommitGroupOp(InstructionOp):
    """`cp.async.commit_group`: groups the outstanding cp.async copies.

    Example:
        ori.cp.async.commit_group "cp.async.commit_group"
    """

    name = "ori.cp.async.commit_group"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("cp.async.commit_group",)

    def verify_instruction(self) -> None:
        self._expect_operand_count(0)


@quick_verified_op_definition
class CpAsyncWaitGroupOp(_WaitOp):
    """`cp.async.wait_group N`: waits until at most N cp.async groups are pending.

    Example:
        ori.cp.async.wait_group "cp.async.wait_group" (1)
    """

    name = "ori.cp.async.wait_group"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("cp.async.wait_group",)


@quick_verified_op_definition
class CpAsyncWaitAllOp(InstructionOp):
    """`cp.async.wait_all`: waits for every cp.async copy.

    Example:
        ori.cp.async.wait_all "cp.async.wait_all"
    """

    name = "ori.cp.async.wait_all"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("cp.async.wait_all",)

    def verify_instruction(self) -> None:
        self._expect_operand_count(0)


@quick_verified_op_definition
class CpAsyncMbarrierArriveOp(InstructionOp):
    """`cp.async.mbarrier.arrive`: arrives on an mbarrier once prior cp.async copies land.

    Example:
        ori.cp.async.mbarrier.arrive "cp.async.mbarrier.arrive.noinc.shared.b64" ([%r1])
    """

    name = "ori.cp.async.mbarrier.arrive"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("cp.async.mbarrier.arrive",)


@quick_verified_op_definition
class CpAsyncBulkOp(InstructionOp):
    """`cp.async.bulk(.tensor)` and its prefetch forms: bulk and TMA copies.

    Example:
        ori.cp.async.bulk "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes" ([%r9], [%rd14, {%r1, %r2}], [%r6])
    """

    name = "ori.cp.async.bulk"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("cp.async.bulk",)


@quick_verified_op_definition
class CpAsyncBulkCommitGroupOp(InstructionOp):
    """`cp.async.bulk.commit_group`: groups the outstanding bulk copies.

    Example:
        ori.cp.async.bulk.commit_group "cp.async.bulk.commit_group"
    """

    name = "ori.cp.async.bulk.commit_group"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("cp.async.bulk.commit_group",)

    def verify_instruction(self) -> None:
        self._expect_operand_count(0)


@quick_verified_op_definition
class CpAsyncBulkWaitGroupOp(_WaitOp):
    """`cp.async.bulk.wait_group(.read) N`: waits on bulk copy groups.

    Example:
        ori.cp.async.bulk.wait_group "cp.async.bulk.wait_group.read" (0)
    """

    name = "ori.cp.async.bulk.wait_group"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("cp.async.bulk.wait_group",)


@quick_verified_op_definition
class CpReduceAsyncBulkOp(InstructionOp):
    """`cp.reduce.async.bulk(.tensor)`: bulk reductions into global or shared memory.

    Example:
        ori.cp.reduce.async.bulk "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group" ([%rd1, {%r1, %r2}], [%r3])
    """

    name = "ori.cp.reduce.async.bulk"
    PTX_PREFIXES: ClassVar[tuple[str, ...]] = ("cp.reduce.async.bulk",)


INSTRUCTION_OPS: tuple[type[InstructionOp], ...] = (
    GenericInstructionOp,
    WgmmaFenceOp,
    WgmmaMmaAsyncOp,
    WgmmaCommitGroupOp,
    WgmmaWaitGroupOp,
    WarpgroupArriveOp,
    WarpgroupWaitOp,
    WarpgroupCommitBatchOp,
    CallOp,
    BraOp,
    BrxOp,
    RetOp,
    ExitOp,
    BarrierOp,
    MembarOp,
    FenceOp,
    MbarrierOp,
    MbarrierWaitOp,
    CpAsyncOp,
    CpAsyncCommitGroupOp,
    CpAsyncWaitGroupOp,
    CpAsyncWaitAllOp,
    CpAsyncMbarrierArriveOp,
    CpAsyncBulkOp,
    CpAsyncBulkCommitGroupOp,
    CpAsyncBulkWaitGroupOp,
    CpReduceAsyncBulkOp,
)

_OP_BY_PREFIX: dict[tuple[str, ...], type[InstructionOp]] = {
    tuple(prefix.split(".")): op for op in INSTRUCTION_OPS for prefix in op.PTX_PREFIXES
}
# `bar.warp.sync` is a warp-level WARPSYNC, not a CTA barrier.
_OP_BY_PREFIX["bar", "warp"] = GenericInstructionOp

_LONGEST_PREFIX = max(len(prefix) for prefix in _OP_BY_PREFIX)


@cache
def instruction_class(opcode: str) -> type[InstructionOp]:
    """The ori op for a PTX mnemonic: the longest matching family, else `ori.inst`."""
    parts = tuple(opcode.split("."))
    for length in range(min(len(parts), _LONGEST_PREFIX), 0, -1):
        if (op := _OP_BY_PREFIX.get(parts[:length])) is not None:
            return op
    return GenericInstructionOp
