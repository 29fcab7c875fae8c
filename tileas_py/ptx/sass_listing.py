"""`-t sass-sync`: the synchronization SASS that ori predicts for each kernel.

After the sync phases (`ptxas-pipeline`) every instruction knows its SASS: an `ori.sass` op
is one, a PTX instruction carries its own opcode in `ori.sass_opcode`. This target lists,
per kernel and in program order, the ones a listing of ptxas's synchronization keeps
(`tileas_py.hw.sync.is_sync_relevant`: barriers, fences, warp syncs, mbarrier and async
copy instructions, ordered memory accesses, control flow), each with its PTX line, in the
form of the sync corpus's `.expected` files:

    --- k (NUM_BARRIERS=1)
      13  BAR.SYNC.DEFER_BLOCKING
      15  EXIT
      15  BRA

The control flow follows ptxas's layout of whole-program code: blocks in ori order; a
branch to the next block disappears, a fall-through to another block is a `BRA`; `ret` is
`EXIT` in a kernel and `RET.REL.NODEC` in a function; `brx.idx` is `BRX`; a branch to a block that only returns
is a predicated `EXIT` (ptxas folds it); calls are `CALL.REL.NOINC` (`CALL.ABS.NOINC` for
extern functions), and the device functions a kernel calls are listed after it, in call
order; every listing ends with ptxas's `BRA` to itself, on the line before it.
EIATTR_NUM_BARRIERS is the highest CTA barrier id plus one (16 for a register id); the
header also gives EIATTR_MBARRIER_INSTR_OFFSETS (the kind of each entry, in order),
EIATTR_NUM_MBARRIERS and EIATTR_SW_WAR as ptxas records them (`tileas_py.hw.sync.eiattr`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Block
from xdsl.utils.target import Target

from tileas_py.diagnostics import location_of
from tileas_py.dialects.ori.analysis import ControlFlowGraph
from tileas_py.dialects.ori.attributes import FunctionKind, ImmAttr, Role, SlotAttr
from tileas_py.dialects.ori.function import FallthroughOp, FuncOp
from tileas_py.dialects.ori.instructions import (
    BarrierOp,
    BraOp,
    BrxOp,
    CallOp,
    ExitOp,
    InstructionOp,
    RetOp,
    TerminatorInstructionOp,
)
from tileas_py.dialects.ori.loops import loop_nest
from tileas_py.dialects.ori.module_ops import TargetOp
from tileas_py.dialects.ori.sass import SassOp, sass_opcode
from tileas_py.hw.sync.eiattr import (
    MbarrierKind,
    mbarrier_kind,
    num_mbarriers,
    sw_war,
)
from tileas_py.hw.sync.sass import is_sync_relevant, num_barriers


@dataclass(frozen=True)
class SassLine:
    line: int | None
    """The PTX line the instruction comes from, None where unknown."""
    opcode: str

    def __str__(self) -> str:
        return f"{'-' if self.line is None else self.line:>4}  {self.opcode}"


@dataclass(frozen=True)
class SassListing:
    """The predicted synchronization SASS of one kernel (and the functions it calls)."""

    name: str
    lines: tuple[SassLine, ...]
    num_barriers: int
    mbarrier_kinds: tuple[MbarrierKind, ...] = ()
    """EIATTR_MBARRIER_INSTR_OFFSETS: the kind of each entry, in code order."""
    num_mbarriers: int | None = None
    """EIATTR_NUM_MBARRIERS (None: not recorded)."""
    sw_war: int | None = None
    """EIATTR_SW_WAR (None: not recorded)."""

    @property
    def opcodes(self) -> list[str]:
        return [line.opcode for line in self.lines]

    @property
    def attributes(self) -> list[str]:
        """The EIATTRs as the header shows them: `NUM_BARRIERS=1`, `SW_WAR=0x8`, ..."""
        shown: list[str] = []
        if self.num_barriers:
            shown.append(f"NUM_BARRIERS={self.num_barriers}")
        if self.mbarrier_kinds:
            kinds = ", ".join(kind.name for kind in self.mbarrier_kinds)
            shown.append(f"MBARRIER_INSTR_OFFSETS=[{kinds}]")
        if self.num_mbarriers is not None:
            shown.append(f"NUM_MBARRIERS={self.num_mbarriers:#x}")
        if self.sw_war is not None:
            shown.append(f"SW_WAR={self.sw_war:#x}")
        return shown

    def text(self) -> str:
        attributes = f" ({', '.join(self.attributes)})" if self.attributes else ""
        body = "".join(f"{line}\n" for line in self.lines)
        return f"--- {self.name}{attributes}\n{body}"


def sync_sass(module: ModuleOp) -> list[SassListing]:
    """The listing of every kernel, or of every function when the module has no kernel."""
    functions = [
        op for op in module.ops if isinstance(op, FuncOp) and not op.is_declaration
    ]
    by_name = {f.func_name.data: f for f in functions}
    roots = [f for f in functions if f.kind.data is FunctionKind.ENTRY] or functions
    war = sw_war(_target(module))
    return [
        dataclasses.replace(_listing(root, _callees(root, by_name)), sw_war=war)
        for root in roots
    ]


def _target(module: ModuleOp) -> str:
    """The module's SM (`sm_90a` when it declares none)."""
    for op in module.ops:
        if isinstance(op, TargetOp):
            sm = next((t.data for t in op.targets if t.data.startswith("sm_")), None)
            if sm is not None:
                return sm
    return "sm_90a"


def _callees(root: FuncOp, by_name: dict[str, FuncOp]) -> list[FuncOp]:
    """`root` and the defined functions it calls, transitively, in order of first call."""
    order: list[FuncOp] = []
    stack = [root]
    seen = {root}
    while stack:
        func = stack.pop(0)
        order.append(func)
        for block in list(func.body.blocks)[1:]:
            for op in block.ops:
                if not isinstance(op, CallOp):
                    continue
                callee = by_name.get(_callee(op) or "")
                if callee is not None and callee not in seen:
                    seen.add(callee)
                    stack.append(callee)
    return order


def _callee(call: CallOp) -> str | None:
    callee = call.callee
    return callee.root_reference.data if isinstance(callee, SymbolRefAttr) else None


def _listing(root: FuncOp, functions: list[FuncOp]) -> SassListing:
    defined = {f.func_name.data for f in functions}
    lines: list[SassLine] = []
    barrier_ids: list[int | None] = []
    kinds: list[MbarrierKind] = []
    init_in_loop = False
    for func in functions:
        lines.extend(_function_lines(func, defined, barrier_ids))
        function_kinds, loops = _mbarrier_entries(func)
        kinds.extend(function_kinds)
        init_in_loop = init_in_loop or loops
    if lines:
        lines.append(SassLine(lines[-1].line, "BRA"))
    return SassListing(
        root.func_name.data,
        tuple(lines),
        num_barriers(barrier_ids),
        tuple(kinds),
        num_mbarriers(kinds, init_in_loop),
    )


def _mbarrier_entries(func: FuncOp) -> tuple[list[MbarrierKind], bool]:
    """The EIATTR_MBARRIER_INSTR_OFFSETS kinds of a function in code order (one per
    mbarrier instruction, whatever SASS it became), and whether an `mbarrier.init` is in
    a loop."""
    kinds: list[MbarrierKind] = []
    init_blocks: list[Block] = []
    for block in list(func.body.blocks)[1:]:
        for op in block.ops:
            if isinstance(op, SassOp) or not isinstance(op, InstructionOp):
                continue
            kind = mbarrier_kind(op.opcode.data)
            if kind is None:
                continue
            kinds.append(kind)
            if kind is MbarrierKind.INIT:
                init_blocks.append(block)
    init_in_loop = False
    if init_blocks:
        cfg = ControlFlowGraph(func)
        depth = loop_nest(cfg).depth
        init_in_loop = any(
            cfg.is_reachable(b) and depth[cfg.index[b]] > 0 for b in init_blocks
        )
    return kinds, init_in_loop


def _function_lines(
    func: FuncOp, defined: set[str], barrier_ids: list[int | None]
) -> Iterator[SassLine]:
    blocks = list(func.body.blocks)[1:]
    is_kernel = func.kind.data is FunctionKind.ENTRY
    leave = "EXIT" if is_kernel else "RET.REL.NODEC"
    for position, block in enumerate(blocks):
        following = blocks[position + 1] if position + 1 < len(blocks) else None
        for op in block.ops:
            if isinstance(op, FallthroughOp):
                if op.dest is None:
                    yield SassLine(_line_before(op), leave)
                elif op.dest is not following:
                    yield SassLine(_line_before(op), "BRA")
                continue
            if not isinstance(op, InstructionOp):
                continue
            line = _line(op)
            if isinstance(op, TerminatorInstructionOp):
                yield from _terminator(op, line, following, leave)
                continue
            opcode = _instruction_opcode(op, defined)
            if opcode is None:
                continue
            _collect_barrier(op, opcode, barrier_ids)
            if is_sync_relevant(opcode):
                yield SassLine(line, opcode)


def _terminator(
    op: TerminatorInstructionOp, line: int | None, following: Block | None, leave: str
) -> Iterator[SassLine]:
    if isinstance(op, BraOp):
        own = sass_opcode(op)
        if own == "":
            return  # if-converted: its blocks run predicated, in place
        if _only_returns(op.target):
            yield SassLine(line, leave)
        elif op.guard is not None or op.target is not following:
            yield SassLine(line, own or "BRA")
    elif isinstance(op, BrxOp):
        yield SassLine(line, "BRX")
    elif isinstance(op, RetOp):
        yield SassLine(line, leave)
    elif isinstance(op, ExitOp):
        yield SassLine(line, "EXIT")
    through = op.fallthrough
    if through is not None and through is not following:
        yield SassLine(line, "BRA")


def _instruction_opcode(op: InstructionOp, defined: set[str]) -> str | None:
    opcode = sass_opcode(op)
    if opcode:
        return opcode
    if opcode is None and isinstance(op, CallOp):
        callee = _callee(op)
        if callee in defined:
            return "CALL.REL.NOINC"
        if callee is not None and not callee.startswith("__nv_ptx_builtin_ocg_"):
            return "CALL.ABS.NOINC"
    return None


def _collect_barrier(
    op: InstructionOp, opcode: str, barrier_ids: list[int | None]
) -> None:
    """Record the CTA barrier id a `BAR.*` instruction uses (None: a register)."""
    if not opcode.startswith("BAR.") or not op.layout.data:
        return
    if not isinstance(op, BarrierOp | SassOp):
        return
    operands = list(op.layout.data)
    first = operands[0]
    if isinstance(first, SlotAttr) and first.role is not Role.USE and len(operands) > 1:
        first = operands[1]  # bar.red's result comes first
    barrier_ids.append(first.value.data if isinstance(first, ImmAttr) else None)


def _only_returns(block: Block) -> bool:
    body = [op for op in block.ops if isinstance(op, InstructionOp)]
    return (
        len(body) == 1 and isinstance(body[0], RetOp | ExitOp) and body[0].guard is None
    )


def _line(op: InstructionOp) -> int | None:
    location = location_of(op)
    return None if location is None else location.line.data


def _line_before(op: FallthroughOp) -> int | None:
    previous = op.prev_op
    while previous is not None and not isinstance(previous, InstructionOp):
        previous = previous.prev_op
    return None if previous is None else _line(previous)


@dataclass(frozen=True)
class SassSyncTarget(Target):
    """`-t sass-sync`: the predicted synchronization SASS of each kernel."""

    name: ClassVar[str] = "sass-sync"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        for listing in sync_sass(module):
            output.write(listing.text())
