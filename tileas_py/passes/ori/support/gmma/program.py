"""The function as ptxas's GMMA phases see it: wgmma, calls, and what earlier phases did.

By phase 85 ptxas has already optimized the code: dead instructions are gone (a wgmma whose
accumulators are never read too), wgmma with identical inputs and zero accumulators are
merged, calls of defined functions are inlined unless compiling with `-c`. `FunctionFacts`
models that and computes the per-instruction facts the pipeline dataflow
(`tileas_py.passes.ori.support.gmma.model`) reads: register use and definition bit vectors (a
guarded instruction also reads what it writes, a scale-d 0 wgmma does not read its
accumulators), accumulator live ranges that lead into a later wgmma, where the program
waits, and which divergent regions issue or sync wgmma.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum, auto

from xdsl.dialects.builtin import FileLineColLoc, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tileas_py.analysis.cfg import reverse_postorder
from tileas_py.analysis.divergence import WarpgroupDivergence
from tileas_py.analysis.liveness import solve, use_def
from tileas_py.diagnostics import location_of
from tileas_py.dialects.ori.analysis import (
    ControlFlowGraph,
    RegisterNumbering,
    code_blocks,
)
from tileas_py.dialects.ori.attributes import (
    FloatImmAttr,
    ImmAttr,
    SlotAttr,
    VectorAttr,
    slots_of,
)
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import (
    CallOp,
    GenericInstructionOp,
    InstructionOp,
    WarpgroupCommitBatchOp,
    WgmmaCommitGroupOp,
    WgmmaFenceOp,
    WgmmaMmaAsyncOp,
    WgmmaWaitGroupOp,
)
from tileas_py.passes.ori.support.common import OCG_PREFIX

_PURE_ROOTS = frozenset(
    {
        "abs", "add", "addc", "and", "bfe", "bfi", "brev", "clz", "cnot", "copysign",
        "cos", "cvt", "cvta", "div", "dp2a", "dp4a", "ex2", "fma", "fns", "ld", "ldu",
        "lg2", "lop3", "mad", "mad24", "madc", "max", "min", "mov", "mul", "mul24",
        "neg", "not", "or", "popc", "prmt", "rcp", "rem", "rsqrt", "sad", "selp", "set",
        "setp", "shf", "shl", "shr", "sin", "slct", "sqrt", "sub", "subc", "tanh",
        "testp", "xor",
    }
)  # fmt: skip

GMMA_OPS = (WgmmaFenceOp, WgmmaMmaAsyncOp, WgmmaCommitGroupOp, WgmmaWaitGroupOp)

UNROLL_LIMIT = 8
"""The most instructions other than GMMA ones (the loop's own counter, compare and branch
included) in a one-block loop that ptxas 13.5 still unrolls (measured: with stores of
accumulators, 8 unrolls and 9 does not)."""


def line_of(op: Operation | None) -> int:
    """The PTX line ptxas names for `op` (0 when it has no source location)."""
    location = location_of(op)
    return location.line.data if isinstance(location, FileLineColLoc) else 0


def is_removable(inst: InstructionOp) -> bool:
    """Whether ptxas deletes `inst` when nothing reads what it writes."""
    if not isinstance(inst, GenericInstructionOp):
        return False
    opcode = inst.opcode.data
    return opcode.split(".", 1)[0] in _PURE_ROOTS and ".volatile" not in opcode


def scale_d_operand(op: WgmmaMmaAsyncOp) -> Attribute | None:
    """The scale-d operand: after D, A, B (and the sparse metadata and selector)."""
    position = 5 if ".sp." in op.opcode.data else 3
    layout = op.layout.data
    return layout[position] if position < len(layout) else None


def is_zero_immediate(operand: Attribute | None) -> bool:
    return isinstance(operand, ImmAttr) and operand.value.data == 0


def is_zero_constant(operand: Attribute) -> bool:
    if isinstance(operand, ImmAttr):
        return operand.value.data == 0
    if isinstance(operand, FloatImmAttr):
        return operand.bits.data & ~(1 << (operand.width.data - 1)) == 0
    return False


def _is_zero_move(op: InstructionOp) -> bool:
    """An unguarded `mov` of the constant 0."""
    layout = op.layout.data
    return (
        op.opcode.data.startswith("mov.")
        and len(layout) == 2
        and is_zero_constant(layout[1])
        and op.guard_register is None
    )


def bit_indices(bits: int) -> Iterator[int]:
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


@dataclass(eq=False)
class Wgmma:
    """One `wgmma.mma_async` and the registers the GMMA phases track for it."""

    index: int
    op: WgmmaMmaAsyncOp
    accumulators: Sequence[SSAValue]
    accumulator_bits: int
    fragment_bits: int
    """The A-fragment registers (A given in registers rather than as a descriptor)."""
    input_bits: int
    """Every non-accumulator register it reads: A, B, sparse metadata, scale-d."""
    scale_zero: bool
    """scale-d is the immediate 0: the accumulator input is not read."""
    line: int
    starts_from_zero: bool = False
    """scale-d is 0, or every accumulator register holds the constant 0 on every path to
    it (ptxas folds that into scale-d 0)."""
    merged_into: Wgmma | None = None
    """The identical earlier wgmma ptxas merges this one into (it becomes a copy)."""
    merged_across_commit: bool = False

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def reads_scale_register(self) -> bool:
        """scale-d is a predicate register rather than an immediate."""
        return isinstance(scale_d_operand(self.op), SlotAttr)

    @property
    def reads_accumulators(self) -> bool:
        """A guarded wgmma keeps the old accumulators where it does not run."""
        return not self.scale_zero or self.op.guard_register is not None


class CallKind(Enum):
    OPAQUE = auto()
    """Not visible to the caller: `-c`, an extern or an indirect callee."""
    TRANSPARENT = auto()
    """A whole-program call of a defined `.func` without wgmma (ptxas inlines it)."""
    WGMMA = auto()
    """A whole-program call of a defined `.func` that issues wgmma."""
    UNRESOLVED = auto()
    """A whole-program call of an `.extern .func`: ptxas stops."""


@dataclass
class ModuleFunctions:
    """What the call rules need to know about the module's functions."""

    definitions: dict[str, FuncOp] = field(default_factory=dict[str, FuncOp])
    issues_wgmma: set[str] = field(default_factory=set[str])
    """Functions that run `wgmma.mma_async` or `wgmma.commit_group`, themselves or
    through a defined callee (a callee that only fences or waits is inlined)."""
    callees: dict[str, list[str]] = field(default_factory=dict[str, list[str]])
    """The defined functions each function calls, in call order."""

    @staticmethod
    def of(funcs: Sequence[FuncOp]) -> ModuleFunctions:
        info = ModuleFunctions()
        for func in funcs:
            name = func.func_name.data
            if func.is_declaration:
                continue
            info.definitions[name] = func
            called: dict[str, None] = {}
            for block in code_blocks(func):
                for op in block.ops:
                    if isinstance(op, WgmmaMmaAsyncOp | WgmmaCommitGroupOp):
                        info.issues_wgmma.add(name)
                    elif isinstance(op, CallOp) and isinstance(
                        op.callee, SymbolRefAttr
                    ):
                        called[op.callee.root_reference.data] = None
            info.callees[name] = list(called)
        changed = True
        while changed:
            changed = False
            for name, callees in info.callees.items():
                if name not in info.issues_wgmma and info.issues_wgmma.intersection(
                    callees
                ):
                    info.issues_wgmma.add(name)
                    changed = True
        return info


class FunctionFacts:
    """The function as ptxas's GMMA phases see it, and the analyses they start from."""

    def __init__(
        self,
        func: FuncOp,
        functions: ModuleFunctions,
        compile_only: bool = False,
        inlines_calls: bool = True,
    ) -> None:
        self.func = func
        self.name = func.func_name.data
        self.functions = functions
        self.compile_only = compile_only
        self.inlines_calls = inlines_calls and not compile_only
        self.cfg = ControlFlowGraph(func)
        self.numbering = RegisterNumbering(func)
        self.order: dict[Operation, int] = {}
        self.instructions: list[InstructionOp] = []
        self.block_ops: list[list[Operation]] = []
        """Each CFG block's ops, listed once: the analyses below walk every block many
        times, and walking a block's linked list of ops costs a call per op."""
        self.block_instructions: list[list[InstructionOp]] = []
        """Each CFG block's instructions (its ops but labels and registers)."""
        for block in self.cfg.blocks:
            ops = list(block.ops)
            instructions = [op for op in ops if isinstance(op, InstructionOp)]
            self.block_ops.append(ops)
            self.block_instructions.append(instructions)
            for op in ops:
                self.order[op] = len(self.order)
            self.instructions.extend(instructions)
        self.walk_order = self._walk_order()
        """Where ptxas meets each instruction in its walk: blocks in reverse postorder of a
        depth-first search that takes the fall-through before the branch target (so the
        `else` side of a branch comes before the `then` side), each block in order."""
        self.wgmmas: list[Wgmma] = []
        self.wgmma_of: dict[Operation, Wgmma] = {}
        for op in self.instructions:
            if isinstance(op, WgmmaMmaAsyncOp):
                self._add_wgmma(op)
        self.accumulator_bits = 0
        for wgmma in self.wgmmas:
            self.accumulator_bits |= wgmma.accumulator_bits
        self.uses_bits: dict[InstructionOp, int] = {}
        self.defs_bits: dict[InstructionOp, int] = {}
        for op in self.instructions:
            self._register_roles(op)
        self.calls = self._classify_calls()
        self.commit_bits: dict[Operation, int] = {}
        for op in self.instructions:
            if isinstance(op, WgmmaCommitGroupOp | WarpgroupCommitBatchOp):
                self.commit_bits[op] = 1 << (len(self.wgmmas) + len(self.commit_bits))

    def _walk_order(self) -> dict[Operation, int]:
        cfg = self.cfg
        fallthrough_first = [list(reversed(s)) for s in cfg.successors]
        blocks = reverse_postorder(fallthrough_first) if cfg.blocks else []
        reached = set(blocks)
        blocks += [i for i in range(len(cfg.blocks)) if i not in reached]
        order: dict[Operation, int] = {}
        for index in blocks:
            for op in self.block_ops[index]:
                order[op] = len(order)
        return order

    def analyse(self) -> None:
        """What ptxas's earlier phases have done by phase 85, and the per-instruction facts
        the pipeline dataflow reads (only for functions that issue or sync wgmma)."""
        self._propagate_copies()
        self.dead = self._dead_instructions()
        self._find_zero_starts()
        self.divergence = WarpgroupDivergence(self.func, self.cfg, self.numbering)
        self._find_merges()
        self.defined_before = self._defined_before_wgmma()
        self.flows_into_wgmma = self._flows_into_wgmma()
        self.gmma_ahead = self._gmma_ahead()
        self.unrolled, self.fully_unrolled = self._unrolled_loops()
        waits = [
            self.order[op]
            for op in self.instructions
            if isinstance(op, WgmmaWaitGroupOp) and op not in self.dead
        ]
        self.first_wait = min(waits, default=len(self.order))
        """Where the first `wgmma.wait_group` of the function is, in layout order."""
        self._gmma_divergent = self._gmma_divergent_ops()

    # -- the function's wgmma -------------------------------------------------------------

    def _add_wgmma(self, op: WgmmaMmaAsyncOp) -> None:
        numbering = self.numbering
        layout = op.layout.data
        accumulators = op.accumulators
        fragment: list[SSAValue] = []
        a_operand = layout[1]
        if isinstance(a_operand, VectorAttr):
            registers = iter(op.registers[len(accumulators) :])
            fragment = [next(registers) for _ in slots_of(a_operand)]
        wgmma = Wgmma(
            index=len(self.wgmmas),
            op=op,
            accumulators=accumulators,
            accumulator_bits=numbering.mask(accumulators),
            fragment_bits=numbering.mask(fragment),
            input_bits=numbering.mask(op.inputs),
            scale_zero=is_zero_immediate(scale_d_operand(op)),
            line=line_of(op),
        )
        self.wgmmas.append(wgmma)
        self.wgmma_of[op] = wgmma

    def has_gmma_work(self) -> bool:
        """Whether the function issues or syncs wgmma, or calls a function that does."""
        return any(
            isinstance(
                op,
                WgmmaMmaAsyncOp | WgmmaCommitGroupOp | WgmmaWaitGroupOp | WgmmaFenceOp,
            )
            for op in self.instructions
        ) or any(
            kind in (CallKind.WGMMA, CallKind.UNRESOLVED)
            for kind in self.calls.values()
        )

    def _register_roles(self, op: InstructionOp) -> None:
        """What `op` reads and writes as ptxas sees it: a guarded instruction also reads
        what it writes (the old value survives where it does not run), and a wgmma with
        scale-d 0 does not read its accumulators."""
        numbering = self.numbering
        wgmma = self.wgmma_of.get(op)
        if wgmma is not None:
            uses = wgmma.input_bits
            if wgmma.reads_accumulators:
                uses |= wgmma.accumulator_bits
            if op.guard_register is not None:
                uses |= numbering.mask((op.guard_register,))
            self.uses_bits[op] = uses
            self.defs_bits[op] = wgmma.accumulator_bits
            return
        defs = numbering.mask(op.defs())
        uses = numbering.mask(op.uses())
        if op.guard_register is not None:
            uses |= defs
        self.uses_bits[op] = uses
        self.defs_bits[op] = defs

    # -- what ptxas's earlier phases have done by phase 85 ---------------------------------

    def _propagate_copies(self) -> None:
        """ptxas propagates register copies: a `mov` of an accumulator register into a
        register defined only there is replaced, at each use of the copy that no
        redefinition of the accumulator reaches (on any path), by the accumulator itself;
        a copy with no use left is then dead. A copy of an in-flight accumulator whose value
        is used after the wait is thus no read at all."""
        defined_twice = defined = 0
        for op in self.instructions:
            defined_twice |= defined & self.defs_bits[op]
            defined |= self.defs_bits[op]
        copies = [
            op
            for op in self.instructions
            if self._is_accumulator_copy(op) and not self.defs_bits[op] & defined_twice
        ]
        if not copies:
            return
        cfg = self.cfg
        count = len(cfg.blocks)
        full = (1 << len(copies)) - 1
        kills: list[int] = [0] * len(self.numbering.registers)
        for index, copy in enumerate(copies):
            (source,) = copy.uses()
            kills[self.numbering.number[source]] |= 1 << index

        def transfer(op: InstructionOp, available: int) -> int:
            for number in bit_indices(self.defs_bits[op]):
                available &= ~kills[number]
            if op in copy_index:
                available |= 1 << copy_index[op]
            return available

        copy_index = {op: index for index, op in enumerate(copies)}
        # Each block as `available_out = gen | (available_in & ~kill)`.
        gen = [0] * count
        kill = [0] * count
        for index, instructions in enumerate(self.block_instructions):
            for op in instructions:
                gen[index] = transfer(op, gen[index])
                for number in bit_indices(self.defs_bits[op]):
                    kill[index] |= kills[number]
        available_in = cfg.must_reach_in(gen, kill, full)
        copy_of: dict[int, int] = {}
        """The copy that defines each destination register, by register number."""
        for index, copy in enumerate(copies):
            (destination,) = copy.defs()
            copy_of[self.numbering.number[destination]] = index
        destinations = self.numbering.mask(c.defs()[0] for c in copies)
        for index, instructions in enumerate(self.block_instructions):
            available = available_in[index]
            for op in instructions:
                uses = self.uses_bits[op]
                for number in bit_indices(uses & destinations):
                    copy = copies[copy_of[number]]
                    if available >> copy_of[number] & 1:
                        uses = uses & ~(1 << number) | self.uses_bits[copy]
                self.uses_bits[op] = uses
                available = transfer(op, available)

    def _is_accumulator_copy(self, op: InstructionOp) -> bool:
        """An unguarded register-to-register `mov` of an accumulator register."""
        if not isinstance(op, GenericInstructionOp) or op.guard_register is not None:
            return False
        layout = op.layout.data
        if not op.opcode.data.startswith("mov.") or len(layout) != 2:
            return False
        if not all(isinstance(operand, SlotAttr) for operand in layout):
            return False
        return bool(self.uses_bits[op] & self.accumulator_bits)

    def _dead_instructions(self) -> set[InstructionOp]:
        """Instructions ptxas deletes before phase 85: side-effect-free ones, and wgmma,
        whose results are never read (faint code, to a fixed point)."""
        dead: set[InstructionOp] = set()
        while True:
            live_out = self._live_out(dead)
            found = False
            for index, instructions in enumerate(self.block_instructions):
                live = live_out[index]
                for op in reversed(instructions):
                    if op in dead:
                        continue
                    defs = self.defs_bits[op]
                    removable = is_removable(op) or (
                        isinstance(op, WgmmaMmaAsyncOp)
                        and self.wgmma_of[op].merged_into is None
                    )
                    if removable and defs and not defs & live:
                        dead.add(op)
                        found = True
                        continue
                    if op.guard_register is None:
                        live &= ~defs
                    live |= self.uses_bits[op]
            if not found:
                return dead

    def _live_out(self, dead: set[InstructionOp]) -> list[int]:
        """Live-out registers of each block, as ptxas sees reads and writes."""
        gen_kill = [
            use_def(
                (self.uses_bits[op], self.defs_bits[op], op.guard_register is None)
                for op in instructions
                if op not in dead
            )
            for instructions in self.block_instructions
        ]
        _, live_out = solve(
            self.cfg.successors,
            [gen for gen, _ in gen_kill],
            [kill for _, kill in gen_kill],
        )
        return live_out

    def _classify_calls(self) -> dict[Operation, CallKind]:
        kinds: dict[Operation, CallKind] = {}
        for op in self.instructions:
            if not isinstance(op, CallOp):
                continue
            callee = op.callee
            name = (
                callee.root_reference.data
                if isinstance(callee, SymbolRefAttr)
                else None
            )
            if name is None or self.compile_only:
                kinds[op] = CallKind.OPAQUE
            elif name.startswith(OCG_PREFIX):
                # ptxas's own intrinsics: lowered in place to instructions, not calls.
                kinds[op] = CallKind.TRANSPARENT
            elif name not in self.functions.definitions:
                kinds[op] = CallKind.UNRESOLVED
            elif not self.inlines_calls:
                kinds[op] = CallKind.OPAQUE
            elif name in self.functions.issues_wgmma:
                kinds[op] = CallKind.WGMMA
            else:
                kinds[op] = CallKind.TRANSPARENT
        return kinds

    def _find_zero_starts(self) -> None:
        """Which wgmma start from zero: scale-d 0, or accumulators that hold the constant 0
        on every path (a must-analysis of `mov r, 0` definitions)."""
        cfg = self.cfg
        count = len(cfg.blocks)
        everything = (1 << len(self.numbering.registers)) - 1
        zero_moves = {
            op
            for op in self.instructions
            if op not in self.dead and self.defs_bits[op] and _is_zero_move(op)
        }

        def transfer(op: Operation, zero: int) -> int:
            if not isinstance(op, InstructionOp) or op in self.dead:
                return zero
            if op in zero_moves:
                return zero | self.defs_bits[op]
            return zero & ~self.defs_bits[op]

        # Each block as `zero_out = gen | (zero_in & ~kill)`.
        gen = [0] * count
        kill = [0] * count
        for index, instructions in enumerate(self.block_instructions):
            for op in instructions:
                if op not in self.dead:
                    defs = self.defs_bits[op]
                    kill[index] |= defs
                    gen[index] = (
                        gen[index] | defs if op in zero_moves else gen[index] & ~defs
                    )
        zero_in = cfg.must_reach_in(gen, kill, everything)
        for index, instructions in enumerate(self.block_instructions):
            zero = zero_in[index]
            for op in instructions:
                wgmma = self.wgmma_of.get(op)
                if wgmma is not None:
                    wgmma.starts_from_zero = wgmma.scale_zero or (
                        wgmma.accumulator_bits & ~zero == 0
                    )
                zero = transfer(op, zero)

    def _find_merges(self) -> None:
        """ptxas merges a wgmma into an identical earlier one of the same block and fence
        region when both start from a zero accumulator (scale-d 0, or registers only ever
        set to 0) and none of their inputs is redefined in between."""
        zero = self._zero_registers()
        for block in self.cfg.blocks:
            candidates: list[tuple[Wgmma, int]] = []
            commits = 0
            for op in block.ops:
                if isinstance(op, WgmmaFenceOp):
                    candidates = []
                elif isinstance(op, WgmmaCommitGroupOp):
                    commits += 1
                elif isinstance(op, WgmmaMmaAsyncOp):
                    wgmma = self.wgmma_of[op]
                    starts_from_zero = wgmma.scale_zero or (
                        wgmma.accumulator_bits & ~zero == 0
                    )
                    if op.guard_register is None and starts_from_zero:
                        for earlier, earlier_commits in candidates:
                            if self._identical(earlier, wgmma):
                                wgmma.merged_into = earlier.merged_into or earlier
                                wgmma.merged_across_commit = earlier_commits != commits
                                break
                        else:
                            candidates.append((wgmma, commits))
                    continue
                if isinstance(op, InstructionOp) and candidates:
                    defs = self.numbering.mask(op.defs())
                    candidates = [
                        (w, c) for w, c in candidates if not w.input_bits & defs
                    ]

    def _identical(self, first: Wgmma, second: Wgmma) -> bool:
        return (
            first.op.opcode == second.op.opcode
            and first.op.layout.data[1:] == second.op.layout.data[1:]
            and list(first.op.inputs) == list(second.op.inputs)
            and first.scale_zero == second.scale_zero
            and first.accumulator_bits != second.accumulator_bits
        )

    def _zero_registers(self) -> int:
        """Registers whose every definition is a `mov` of the constant 0."""
        zero = 0
        other = 0
        numbering = self.numbering
        for op in self.instructions:
            defs = numbering.mask(op.defs())
            if not defs or isinstance(op, WgmmaMmaAsyncOp):
                continue
            if _is_zero_move(op):
                zero |= defs
            else:
                other |= defs
        return zero & ~other

    def _defined_before_wgmma(self) -> dict[Wgmma, int]:
        """For each wgmma, the registers some definition reaches it with (may-defined; a dead
        load counts: ptxas removes it only after the GMMA phases)."""
        numbering = self.numbering
        count = len(self.cfg.blocks)
        gen = [0] * count
        for index, instructions in enumerate(self.block_instructions):
            for op in instructions:
                gen[index] |= numbering.mask(op.defs())
        defined_in = [0] * count
        changed = True
        while changed:
            changed = False
            for index in self.cfg.reverse_postorder:
                incoming = 0
                for p in self.cfg.predecessors[index]:
                    incoming |= defined_in[p] | gen[p]
                if incoming != defined_in[index]:
                    defined_in[index] = incoming
                    changed = True
        result: dict[Wgmma, int] = {}
        for index, instructions in enumerate(self.block_instructions):
            defined = defined_in[index]
            for op in instructions:
                wgmma = self.wgmma_of.get(op)
                if wgmma is not None:
                    result[wgmma] = defined
                defined |= numbering.mask(op.defs())
        return result

    def _flows_into_wgmma(self) -> dict[Operation, int]:
        """For each instruction, the registers whose value after it a later wgmma takes as
        its accumulator (ptxas's accumulator live ranges; scale-d 0 does not cut them)."""
        cfg = self.cfg
        count = len(cfg.blocks)

        def scan(index: int, live: int, record: dict[Operation, int] | None) -> int:
            for op in reversed(self.block_instructions[index]):
                if op in self.dead:
                    continue
                if record is not None:
                    record[op] = live
                wgmma = self.wgmma_of.get(op)
                if wgmma is not None:
                    live |= wgmma.accumulator_bits
                elif op.guard_register is None:
                    live &= ~self.defs_bits[op]
            return live

        live_in = [0] * count
        live_out = [0] * count
        changed = True
        while changed:
            changed = False
            for index in reversed(cfg.reverse_postorder):
                out = 0
                for successor in cfg.successors[index]:
                    out |= live_in[successor]
                new_in = scan(index, out, None)
                if out != live_out[index] or new_in != live_in[index]:
                    live_out[index], live_in[index] = out, new_in
                    changed = True
        result: dict[Operation, int] = {}
        for index in range(count):
            scan(index, live_out[index], result)
        return result

    def _gmma_ahead(self) -> dict[Operation, bool]:
        """For each instruction, whether a fence, wgmma, commit or wait follows it on some
        path (when none does, ptxas ends the stage itself at the first place it can)."""
        cfg = self.cfg
        has_gmma = [
            any(isinstance(op, GMMA_OPS) for op in instructions)
            for instructions in self.block_instructions
        ]
        reach_in = list(has_gmma)
        changed = True
        while changed:
            changed = False
            for index in reversed(cfg.reverse_postorder):
                if not reach_in[index] and any(
                    reach_in[s] for s in cfg.successors[index]
                ):
                    reach_in[index] = True
                    changed = True
        result: dict[Operation, bool] = {}
        for index, ops in enumerate(self.block_ops):
            ahead = any(reach_in[s] for s in cfg.successors[index])
            for op in reversed(ops):
                result[op] = ahead
                if isinstance(op, GMMA_OPS):
                    ahead = True
        return result

    def _unrolled_loops(self) -> tuple[set[int], set[int]]:
        """The loops ptxas unrolls before the GMMA phases, as the blocks that hold them: a
        loop of one block with at most `UNROLL_LIMIT` other instructions than GMMA ones is
        unrolled, fully when its trip count is a constant (a counter set from an
        immediate, stepped by an immediate and compared with one), else partially (the
        back edge stays)."""
        unrolled: set[int] = set()
        fully: set[int] = set()
        definitions: dict[int, list[InstructionOp]] | None = None
        for index, block in enumerate(self.cfg.blocks):
            if index not in self.cfg.successors[index]:
                continue
            others = sum(
                1
                for op in block.ops
                if isinstance(op, InstructionOp) and not isinstance(op, GMMA_OPS)
            )
            if others > UNROLL_LIMIT:
                continue
            unrolled.add(index)
            if definitions is None:
                definitions = {}
                for op in self.instructions:
                    for number in bit_indices(self.defs_bits[op]):
                        definitions.setdefault(number, []).append(op)
            if self._constant_trip_count(index, definitions):
                fully.add(index)
        return unrolled, fully

    def _constant_trip_count(
        self, index: int, definitions: dict[int, list[InstructionOp]]
    ) -> bool:
        block = self.cfg.blocks[index]
        branch = block.last_op
        guard = branch.guard_register if isinstance(branch, InstructionOp) else None
        if guard is None:
            return False
        compare = next(
            (
                op
                for op in block.ops
                if isinstance(op, GenericInstructionOp)
                and op.opcode.data.startswith("setp.")
                and guard in op.defs()
            ),
            None,
        )
        if compare is None or len(compare.layout.data) != 3:
            return False
        _, counter_operand, bound = compare.layout.data
        if not isinstance(bound, ImmAttr) or not isinstance(counter_operand, SlotAttr):
            return False
        (counter,) = [r for r in compare.uses() if r is not guard]
        steps = definitions.get(self.numbering.number[counter], [])
        inside = [op for op in steps if op.parent_block() is block]
        outside = [op for op in steps if op.parent_block() is not block]
        return (
            len(inside) == 1
            and len(outside) == 1
            and all(
                isinstance(operand, ImmAttr)
                for op in (inside[0], outside[0])
                for operand in op.layout.data[2 if op is inside[0] else 1 :]
            )
        )

    def _gmma_divergent_ops(self) -> dict[Operation, bool]:
        """For each instruction, whether a GMMA instruction of the region of a divergent
        branch it depends on runs on a path through it (before or after it): a wait
        needed there cannot be hoisted above the branch (C7518); otherwise, with GMMA
        instructions only on the other side of the branch, ptxas waits before it."""
        cfg = self.cfg
        dependence = self.divergence.control_dependence
        branches = self.divergence.branches
        count = len(cfg.blocks)
        result: dict[Operation, bool] = {}

        def scan(index: int, seen: int, backward: bool, record: bool) -> int:
            mine = dependence[index] & branches
            ops = self.block_ops[index]
            for op in reversed(ops) if backward else ops:
                if record:
                    result[op] = result.get(op, False) or bool(seen & mine)
                if isinstance(op, GMMA_OPS) and op not in self.dead:
                    seen |= mine
            return seen

        # A block adds its own branches once it holds a GMMA instruction.
        adds = [
            dependence[index] & branches
            if any(
                isinstance(op, GMMA_OPS) and op not in self.dead
                for op in self.block_instructions[index]
            )
            else 0
            for index in range(count)
        ]
        for backward in (False, True):
            seen_in = [0] * count
            edges = cfg.predecessors if backward else cfg.successors
            order = cfg.reverse_postorder[::-1] if backward else cfg.reverse_postorder
            changed = True
            while changed:
                changed = False
                for index in order:
                    out = seen_in[index] | adds[index]
                    for neighbour in edges[index]:
                        if out & ~seen_in[neighbour]:
                            seen_in[neighbour] |= out
                            changed = True
            for index in range(count):
                scan(index, seen_in[index], backward, True)
        return result

    # -- helpers --------------------------------------------------------------------------

    def _block(self, op: Operation) -> Block:
        block = op.parent_block()
        assert block is not None
        return block

    def _members(self, bits: int) -> list[Wgmma]:
        """The wgmma of a bit vector (commit pseudo-members left out)."""
        members: list[Wgmma] = []
        bits &= (1 << len(self.wgmmas)) - 1
        while bits:
            low = bits & -bits
            members.append(self.wgmmas[low.bit_length() - 1])
            bits ^= low
        return members

    def _branch_of(self, blocks: int) -> Operation | None:
        """The branch ending the first block (in program order) of a bit vector."""
        blocks &= (1 << len(self.cfg.blocks)) - 1
        if not blocks:
            return None
        return self.cfg.blocks[(blocks & -blocks).bit_length() - 1].last_op

    def _dependence(self, wgmma: Wgmma) -> int:
        """The divergent branches a wgmma depends on; a divergent guard counts as one."""
        return self._op_dependence(wgmma.op)

    def _op_dependence(self, op: InstructionOp) -> int:
        """The divergent branches an instruction depends on; a divergent guard counts as
        one more (ptxas turns a guarded instruction into a branch around it)."""
        return self.divergence.divergent_dependence(
            self._block(op)
        ) | self._guard_dependence(op)

    def _guard_dependence(self, op: InstructionOp) -> int:
        """The pseudo-branch of a divergent guard (none for a uniform or no guard)."""
        if self.has_divergent_guard(op):
            return 1 << (len(self.cfg.blocks) + self.order[op])
        return 0

    def has_divergent_guard(self, op: InstructionOp) -> bool:
        """Whether `op` is guarded by a predicate that may differ between threads."""
        guard = op.guard_register
        return guard is not None and self.divergence.is_divergent(guard, self.numbering)
