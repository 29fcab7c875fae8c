"""The SASS level of ori: what ptxas's late sync phases add below PTX.

ptxas's phases 42 and 72 (seed 003) turn PTX synchronization instructions into SASS
sequences, and phases 99, 100 and 114 work on scoreboards and stall counts. Ori models that
level with three additions, all of which the PTX writer prints so that ptxas still
assembles the output:

- `ori.sass`: a SASS instruction that ptxas adds and that has no PTX instruction of its own
  (`ERRBAR`, `CGAERRBAR`, `WARPSYNC.ALL`, `BSSY`, `BSYNC`, `DEPBAR.LE`, `FENCE.VIEW.ASYNC.S`,
  `ELECT`, `BRA.U.ANY` inside one instruction's expansion, ...). Its operands are ori
  operands (a register mask, an immediate barrier or scoreboard number). The PTX writer
  prints it as a comment, `// sass: ERRBAR`.
- the discardable attribute `ori.sass_opcode` on a PTX instruction: the SASS opcode that
  the instruction itself became (`"MEMBAR.SC.SYS"` on `membar.sys`), `""` when ptxas emits
  nothing for it (`fence.mbarrier_init`, `bar.warp.sync` in converged code).
  On a conditional `bra`, `""` means ptxas if-converted it: no `BRA`, the instructions it
  skips run under its predicate; the PTX writer prints the branch, which ptxas if-converts
  again.
- the discardable attribute `ori.ctrl`, a `#ori.ctrl<...>` control word: the stall count,
  yield flag, write / read scoreboard and wait mask of SASS's control bits, which phases 99,
  100 and 114 assign. The PTX writer leaves it out (PTX has no control bits).
- the discardable unit attribute `ori.spin_retry` on the branch of a spin loop's retry
  copy, which phase 72's rotation places after the function's code. The PTX writer prints
  the rotated loop as the loop it came from: ptxas rotates that itself, and ptxas
  rotating the printed rotation again would cost one more wait and branch per loop.
- the discardable unit attribute `ori.collective_copy` on the fall-through that ends the
  out-of-line `WARPSYNC.COLLECTIVE` copy of a `BRA.DIV` path (phase 72): SASS only, which
  the PTX writer leaves out.

SASS reference: https://docs.nvidia.com/cuda/cuda-binary-utilities/#hopper-instruction-set
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IntAttr, StringAttr, UnitAttr
from xdsl.ir import Attribute, Block, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, irdl_op_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.ori.instructions import BraOp, InstructionOp

SASS_OPCODE = "ori.sass_opcode"
"""The discardable attribute naming the SASS opcode a PTX instruction became."""
CONTROL_WORD = "ori.ctrl"
"""The discardable attribute holding an instruction's `#ori.ctrl` control word."""
SPIN_RETRY = "ori.spin_retry"
"""The discardable unit attribute on the branch of a rotated spin loop's retry copy."""

COLLECTIVE_COPY = "ori.collective_copy"
"""The discardable unit attribute on the fall-through ending a BRA.DIV path's copy."""

SCOREBOARDS = 6
"""Dependency scoreboards SB0..SB5 per warp."""
NO_SCOREBOARD = 7
"""The 3-bit scoreboard field's value for "none"."""
MAX_STALL = 15

_SASS_MNEMONIC = re.compile(r"[A-Z][A-Z0-9_]*(\.[A-Z0-9_]+)*")


@irdl_op_definition
class SassOp(InstructionOp):
    """A SASS instruction ptxas adds, with no PTX instruction of its own.

    Its operands are ordinary ori operands: `WARPSYNC` reads a mask register,
    `DEPBAR.LE (0, 1)` is `DEPBAR.LE SB0, 0x1`, `BSSY (0)` / `BSYNC (0)` name convergence
    barrier B0, `BAR.SYNC (15)` names CTA barrier 15. Printed as PTX, it is a comment.

    Example:
        ori.sass "ERRBAR"
        ori.sass "WARPSYNC" (%r4)
        ori.sass if not %p0 "BRA.U.ANY"
    """

    name = "ori.sass"

    def verify_mnemonic(self) -> None:
        if _SASS_MNEMONIC.fullmatch(self.opcode.data) is None:
            raise VerifyException(
                f"'{self.opcode.data}' is not a SASS opcode (upper case, dot-separated)"
            )


@dataclass(frozen=True)
class ControlWord:
    """The scheduling bits of one SASS instruction (seed 003, "Dependency Barriers")."""

    stall: int = 0
    """Cycles to wait before issuing the next instruction (4 bits)."""
    yield_: bool = False
    """Hint to give up the scheduling quantum."""
    write: int | None = None
    """The scoreboard released when the instruction's results are written."""
    read: int | None = None
    """The scoreboard released once the instruction has read its source registers."""
    wait: int = 0
    """A mask of the scoreboards to wait for before the instruction issues."""

    def waits_on(self, scoreboard: int) -> bool:
        return bool(self.wait >> scoreboard & 1)


@irdl_attr_definition
class ControlWordAttr(ParametrizedAttribute):
    """A SASS control word: stall count, yield flag, write / read scoreboard, wait mask.

    Fields at their default (no stall, no yield, no scoreboard, no wait) are left out.

    Example:
        #ori.ctrl<stall = 4, yield, wr = 1, rd = 2, wait = [0, 3]>
        #ori.ctrl<>
    """

    name = "ori.ctrl"

    stall: IntAttr
    yield_flag: IntAttr
    write_barrier: IntAttr
    read_barrier: IntAttr
    wait_mask: IntAttr

    def __init__(self, word: ControlWord) -> None:
        super().__init__(
            IntAttr(word.stall),
            IntAttr(int(word.yield_)),
            IntAttr(NO_SCOREBOARD if word.write is None else word.write),
            IntAttr(NO_SCOREBOARD if word.read is None else word.read),
            IntAttr(word.wait),
        )

    @property
    def word(self) -> ControlWord:
        write = self.write_barrier.data
        read = self.read_barrier.data
        return ControlWord(
            self.stall.data,
            bool(self.yield_flag.data),
            None if write == NO_SCOREBOARD else write,
            None if read == NO_SCOREBOARD else read,
            self.wait_mask.data,
        )

    def verify(self) -> None:
        if not 0 <= self.stall.data <= MAX_STALL:
            raise VerifyException(f"stall count {self.stall.data} is not in 0..15")
        for field in (self.write_barrier, self.read_barrier):
            if field.data != NO_SCOREBOARD and not 0 <= field.data < SCOREBOARDS:
                raise VerifyException(f"scoreboard {field.data} is not in 0..5")
        if not 0 <= self.wait_mask.data < 1 << SCOREBOARDS:
            raise VerifyException(f"wait mask {self.wait_mask.data} is not 6 bits")

    def print_parameters(self, printer: Printer) -> None:
        word = self.word
        items: list[str] = []
        if word.stall:
            items.append(f"stall = {word.stall}")
        if word.yield_:
            items.append("yield")
        if word.write is not None:
            items.append(f"wr = {word.write}")
        if word.read is not None:
            items.append(f"rd = {word.read}")
        if word.wait:
            waited = [str(sb) for sb in range(SCOREBOARDS) if word.waits_on(sb)]
            items.append(f"wait = [{', '.join(waited)}]")
        with printer.in_angle_brackets():
            printer.print_string(", ".join(items))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        fields: dict[str, int] = {}

        def parse_item() -> None:
            key = parser.parse_identifier()
            if key in fields:
                parser.raise_error(f"'{key}' is given twice")
            if key == "yield":
                fields[key] = 1
                return
            if key not in ("stall", "wr", "rd", "wait"):
                parser.raise_error(
                    f"unknown control word field '{key}', expected stall, yield, wr, "
                    "rd or wait"
                )
            parser.parse_punctuation("=")
            if key != "wait":
                fields[key] = parser.parse_integer(allow_boolean=False)
                return
            waited = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE,
                lambda: parser.parse_integer(allow_boolean=False, allow_negative=False),
            )
            mask = 0
            for scoreboard in waited:
                if scoreboard >= SCOREBOARDS:
                    parser.raise_error(f"scoreboard {scoreboard} is not in 0..5")
                mask |= 1 << scoreboard
            fields[key] = mask

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_item)
        return (
            IntAttr(fields.get("stall", 0)),
            IntAttr(fields.get("yield", 0)),
            IntAttr(fields.get("wr", NO_SCOREBOARD)),
            IntAttr(fields.get("rd", NO_SCOREBOARD)),
            IntAttr(fields.get("wait", 0)),
        )


def sass_opcode(inst: InstructionOp) -> str | None:
    """The SASS opcode `inst` stands for: an `ori.sass` op's own, else the one a phase
    recorded on it (`""`: nothing), else None (not lowered yet)."""
    if isinstance(inst, SassOp):
        return inst.opcode.data
    recorded = inst.attributes.get(SASS_OPCODE)
    if isinstance(recorded, StringAttr):
        return recorded.data
    return None


def set_sass_opcode(inst: InstructionOp, opcode: str) -> None:
    """Record the SASS opcode a PTX instruction became (`""`: none)."""
    inst.attributes[SASS_OPCODE] = StringAttr(opcode)


def mark_spin_retry(branch: InstructionOp) -> None:
    """Record that `branch` ends the out-of-line retry copy of a rotated spin loop."""
    branch.attributes[SPIN_RETRY] = UnitAttr()


def is_spin_retry(branch: InstructionOp) -> bool:
    return SPIN_RETRY in branch.attributes


def mark_collective_copy(through: Operation) -> None:
    """Record that `through` ends the out-of-line copy of a `BRA.DIV` path."""
    through.attributes[COLLECTIVE_COPY] = UnitAttr()


def is_collective_copy(block: Block) -> bool:
    """A block phase 72 added as the out-of-line copy of a `BRA.DIV` path."""
    last = block.last_op
    return last is not None and COLLECTIVE_COPY in last.attributes


def is_if_converted(inst: InstructionOp) -> bool:
    """A branch ptxas replaced by predicating what it skips (no `BRA` in SASS)."""
    return isinstance(inst, BraOp) and sass_opcode(inst) == ""


def control_word(inst: InstructionOp) -> ControlWord:
    """The instruction's control word (all defaults until a phase assigns one)."""
    attr = inst.attributes.get(CONTROL_WORD)
    if isinstance(attr, ControlWordAttr):
        return attr.word
    return ControlWord()


def set_control_word(inst: InstructionOp, word: ControlWord) -> None:
    inst.attributes[CONTROL_WORD] = ControlWordAttr(word)
