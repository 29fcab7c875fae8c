"""The PTX writer: ori to PTX text that the real ptxas assembles (`tileas-opt -t ptx`).

Blocks print in region order. A block gets a label when it has one (`ori.label`) or when a
branch, or a fall-through that does not lead to the next printed block, needs one; such a
fall-through prints as a `bra`. Registers declared as a `%r<N>` group print back as one
declaration. ptxas's internal `_warpgroup.*` pseudo-instructions, which ptxas does not
accept in PTX text, print as their PTX equivalents (`wgmma.fence`, `wgmma.wait_group`,
`wgmma.commit_group`), and the `_mbarrier.try_wait` pseudo-instruction as its retry loop
in a `{ }` scope. The SASS level prints as comments: an `ori.sass` op is `// sass: ERRBAR`;
the `ori.sass_opcode` and `ori.ctrl` attributes are left out. A spin loop that phase 72
rotated (its retry copy marked `ori.spin_retry`) prints as the loop it came from, the in-line
wait under the retry's label and the retry left out: ptxas rotates the loop itself.
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.hints import isa
from xdsl.utils.target import Target

from tileas_py.diagnostics import LocatedPassFailure
from tileas_py.dialects.ori.attributes import (
    AddressAttr,
    FloatImmAttr,
    GenericAddressAttr,
    ImmAttr,
    NotAttr,
    PairAttr,
    ParenAttr,
    SinkAttr,
    SlotAttr,
    SpecialRegAttr,
    VectorAttr,
)
from tileas_py.dialects.ori.function import (
    FallthroughOp,
    FuncOp,
    LabelOp,
    LocOp,
    RegOp,
)
from tileas_py.dialects.ori.instructions import (
    BraOp,
    BrxOp,
    InstructionOp,
    MbarrierWaitOp,
    TerminatorInstructionOp,
    WarpgroupArriveOp,
    WarpgroupCommitBatchOp,
    WarpgroupWaitOp,
)
from tileas_py.dialects.ori.module_ops import (
    AddressSizeOp,
    FileOp,
    PragmaOp,
    SectionOp,
    TargetOp,
    VarOp,
    VersionOp,
    start_of,
)
from tileas_py.dialects.ori.sass import SassOp, is_collective_copy, is_spin_retry
from tileas_py.paused_gc import paused_gc

_PTX_SPELLING: dict[type[InstructionOp], str] = {
    WarpgroupArriveOp: "wgmma.fence.sync.aligned",
    WarpgroupWaitOp: "wgmma.wait_group.sync.aligned",
    WarpgroupCommitBatchOp: "wgmma.commit_group.sync.aligned",
}


class PtxWriteError(LocatedPassFailure):
    """The module holds something that has no PTX form."""


def write_ptx(module: ModuleOp, output: IO[str]) -> None:
    """Print a module of ori ops as PTX (raises PtxWriteError for non-ori ops)."""
    with paused_gc():
        output.write("".join(_module_lines(module)))


@dataclass(frozen=True)
class PtxTarget(Target):
    """`-t ptx`: print the module as PTX."""

    name: ClassVar[str] = "ptx"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        write_ptx(module, output)


def ptx_instruction_text(op: InstructionOp) -> str:
    """One instruction as a line of PTX (`@%p1 bar.sync 0;`), registers by their PTX names.

    Branch targets print as `<target>`: the text is for matching an instruction, not for
    assembling it.
    """
    names: dict[SSAValue, str] = {}
    for reg in (*op.registers, *([] if op.guard is None else [op.guard])):
        owner = reg.owner
        names[reg] = owner.ptx_name if isinstance(owner, RegOp) else str(reg)
    text = _guarded_opcode(op, names)
    if isinstance(op, BraOp):
        return f"{text} <target>;"
    if op.layout.data:
        text += f" {_operand_list(op, names)}"
    return text + ";"


def _guard_text(op: InstructionOp, names: dict[SSAValue, str]) -> str:
    """The instruction's guard (`@%p1 `, `@!%p1 `), or nothing."""
    if op.guard is None:
        return ""
    return f"@{'!' if op.guard_negated else ''}{names[op.guard]} "


def _guarded_opcode(op: InstructionOp, names: dict[SSAValue, str]) -> str:
    """The guard and the opcode as PTX spells it (`@%p1 bar.sync`)."""
    return _guard_text(op, names) + _PTX_SPELLING.get(type(op), op.opcode.data)


def _operand_list(op: InstructionOp, names: dict[SSAValue, str]) -> str:
    """The instruction's operands, comma-separated, registers named by `names`."""
    registers = iter(op.registers)
    return ", ".join(_operand_text(operand, registers, names) for operand in op.layout)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _module_lines(module: ModuleOp) -> Iterator[str]:
    for op in module.ops:
        if isinstance(op, VersionOp):
            yield f".version {op.version.data}\n"
        elif isinstance(op, TargetOp):
            yield f".target {', '.join(t.data for t in op.targets)}\n"
        elif isinstance(op, AddressSizeOp):
            yield f".address_size {op.size.value.data}\n\n"
        elif isinstance(op, FileOp):
            extra = ""
            if op.timestamp is not None:
                extra = f", {op.timestamp.value.data}"
                if op.size is not None:
                    extra += f", {op.size.value.data}"
            yield f"\t.file\t{op.index.value.data} {_quote(op.path.data)}{extra}\n"
        elif isinstance(op, SectionOp):
            yield f"\t.section\t{op.section.data}\n\t{{{op.body.data}}}\n"
        elif isinstance(op, PragmaOp):
            yield f".pragma {', '.join(_quote(s.data) for s in op.strings)};\n"
        elif isinstance(op, VarOp):
            yield _variable(op) + "\n"
        elif isinstance(op, FuncOp):
            yield from _function_lines(op)
        else:
            raise PtxWriteError(
                op,
                f"'{op.name}' op has no PTX form: only ori ops can be printed as PTX",
            )


def _variable(op: VarOp) -> str:
    linkage = "" if op.linkage is None else f".{op.linkage.data.value} "
    text = linkage + op.declarator.ptx(f".{op.space.data.value}")
    if op.init is not None:
        text += " = " + _initializer(op.init)
    return text + ";"


def _initializer(init: Attribute) -> str:
    if isa(init, ArrayAttr[Attribute]):
        return "{" + ", ".join(_initializer(e) for e in init) + "}"
    if isinstance(init, ImmAttr):
        return str(init.value.data)
    if isinstance(init, FloatImmAttr):
        return init.ptx
    if isinstance(init, GenericAddressAttr):
        return f"generic({init.symbol.root_reference.data})"
    assert isinstance(init, SymbolRefAttr)
    return init.root_reference.data


def _function_lines(func: FuncOp) -> Iterator[str]:
    head = "" if func.linkage is None else f".{func.linkage.data.value} "
    head += f".{func.kind.data.value} "
    if func.returns.data:
        returns = ", ".join(p.ptx for p in func.returns)
        head += f"({returns}) "
    head += func.func_name.data
    params = ",\n".join(f"\t{p.ptx}" for p in func.params)
    yield f"{head}(\n{params}\n)\n" if params else f"{head}()\n"
    for directive in func.directives:
        values = ", ".join(str(v.data) for v in directive.values)
        yield f".{directive.directive.data} {values}\n".replace(" \n", "\n")
    if func.is_declaration:
        yield ";\n\n"
        return
    yield "{\n"
    register_params = {
        p.param_name.data for p in (*func.returns, *func.params) if p.is_register
    }
    yield from _declaration_lines(func.declaration_block, register_params)
    yield from _FunctionWriter(func).lines()
    yield "}\n\n"


def _instruction_before(op: Operation) -> InstructionOp | None:
    """The PTX instruction before `op` in its block, past the SASS level's comments."""
    previous = op.prev_op
    while isinstance(previous, SassOp):
        previous = previous.prev_op
    return previous if isinstance(previous, InstructionOp) else None


def _opens_block(op: Operation) -> bool:
    """Whether no PTX instruction comes before `op` in its block."""
    previous = op.prev_op
    while previous is not None:
        if isinstance(previous, InstructionOp) and not isinstance(previous, SassOp):
            return False
        previous = previous.prev_op
    return True


def _declaration_lines(block: Block, register_params: set[str]) -> Iterator[str]:
    """The `.reg` and variable declarations; the registers of `.reg` parameters are
    declared by the signature."""
    ops = [
        op
        for op in block.ops
        if not (isinstance(op, RegOp) and op.ptx_name in register_params)
    ]
    i = 0
    while i < len(ops):
        op = ops[i]
        if isinstance(op, VarOp):
            yield f"\t{_variable(op)}\n"
            i += 1
            continue
        if isinstance(op, FallthroughOp):
            break
        if not isinstance(op, RegOp):
            raise PtxWriteError(op, f"'{op.name}' op has no PTX form")
        count = _group_length(ops, i)
        if count:
            yield f"\t.reg .{op.ptx_type.data.value} \t{op.reg_name.data}<{count}>;\n"
            i += count
        else:
            yield f"\t.reg .{op.ptx_type.data.value} \t{op.ptx_name};\n"
            i += 1
    yield "\n"


def _group_length(ops: Sequence[Operation], start: int) -> int:
    """How many registers from `start` print as one `prefix<N>`: those numbered 0, 1, ..."""
    first = ops[start]
    assert isinstance(first, RegOp)
    if first.index is None or first.index.value.data != 0:
        return 0
    count = 0
    for op in ops[start:]:
        if (
            not isinstance(op, RegOp)
            or op.index is None
            or op.index.value.data != count
            or op.reg_name != first.reg_name
            or op.ptx_type != first.ptx_type
        ):
            break
        count += 1
    return count


class _FunctionWriter:
    """Prints the code blocks of one function."""

    def __init__(self, func: FuncOp) -> None:
        self.func = func
        self.blocks = list(func.body.blocks)[1:]
        self.names: dict[SSAValue, str] = {
            reg.result: reg.ptx_name for reg in func.registers()
        }
        self.rotated = self._rotated_waits()
        # The retry's label goes before the wait's `next` pragmas, which belong to it.
        self.retry_labelled = {start_of(w): r for w, r in self.rotated.items()}
        self.looping_to_block_label: set[Block] = set()
        self.blocks = [b for b in self.blocks if b not in self.rotated.values()]
        self.labels = self._assign_labels()
        self.wait_loops = 0
        self.target_lists: set[str] = set(self.labels.values())
        self.list_names: dict[BrxOp, str] = {}

    def _rotated_waits(self) -> dict[Operation, Block]:
        """The in-line wait of each spin loop phase 72 rotated, with its retry copy: a
        marked self-loop whose only other predecessor branches to it right after the same
        wait and falls through where the retry does."""
        rotated: dict[Operation, Block] = {}
        for retry in self.blocks:
            retry_branch = retry.last_op
            if not (
                isinstance(retry_branch, BraOp)
                and is_spin_retry(retry_branch)
                and retry_branch.target is retry
            ):
                continue
            entries = [
                u.operation for u in retry.uses if u.operation is not retry_branch
            ]
            retry_wait = _instruction_before(retry_branch)
            if len(entries) != 1 or retry_wait is None:
                continue
            branch = entries[0]
            wait = _instruction_before(branch)
            if (
                isinstance(branch, BraOp)
                and branch.target is retry
                and branch.fallthrough is retry_branch.fallthrough
                and wait is not None
                and wait.opcode == retry_wait.opcode
            ):
                rotated[wait] = retry
        return rotated

    def _assign_labels(self) -> dict[Block, str]:
        labels: dict[Block, str] = {}
        taken: set[str] = set()
        for block in self.blocks:
            if isinstance(label := block.first_op, LabelOp):
                labels[block] = label.label.data
                taken.add(label.label.data)
        for wait, retry in self.rotated.items():
            # A wait that opens a labelled block loops back to that label.
            block = wait.parent_block()
            if block is not None and block in labels and _opens_block(wait):
                labels[retry] = labels[block]
                self.looping_to_block_label.add(retry)
        wanted: list[Block] = []
        for position, block in enumerate(self.blocks):
            terminator = block.last_op
            if is_collective_copy(block):
                continue
            if isinstance(terminator, BraOp):
                wanted.append(self._dest(terminator.target))
            elif isinstance(terminator, BrxOp):
                wanted.extend(self._dest(b) for b in terminator.targets)
            through = None
            if isinstance(terminator, FallthroughOp):
                through = terminator.dest
            elif isinstance(terminator, TerminatorInstructionOp):
                through = terminator.fallthrough
            if through is not None and not self._runs_into(position, through):
                wanted.append(self._dest(through))
        counter = 0
        for block in wanted:
            if block in labels:
                continue
            while f"$L__ori_{counter}" in taken:
                counter += 1
            labels[block] = f"$L__ori_{counter}"
            taken.add(labels[block])
        return labels

    def _is_next(self, position: int, block: Block) -> bool:
        return position + 1 < len(self.blocks) and self.blocks[position + 1] is block

    def _runs_into(self, position: int, block: Block) -> bool:
        """Whether the code after block `position` is `block`, or what it leads to in PTX."""
        return self._is_next(position, block) or self._is_next(
            position, self._dest(block)
        )

    @staticmethod
    def _dest(block: Block) -> Block:
        """Where a branch to `block` goes in PTX: past blocks that hold only SASS (a
        BSYNC that phase 72 put before a join), which PTX does not have."""
        seen = {block}
        while (
            isinstance(through := block.last_op, FallthroughOp)
            and through.dest is not None
            and through.dest not in seen
            and all(isinstance(op, SassOp) for op in block.ops if op is not through)
        ):
            block = through.dest
            seen.add(block)
        return block

    def lines(self) -> Iterator[str]:
        for position, block in enumerate(self.blocks):
            if is_collective_copy(block):
                continue  # SASS only: ptxas lays out its own BRA.DIV path
            if block in self.labels:
                yield f"{self.labels[block]}:\n"
            for op in block.ops:
                yield from self._op_lines(op, position)

    def _op_lines(self, op: Operation, position: int) -> Iterator[str]:
        if isinstance(op, LabelOp):
            return
        retry = self.retry_labelled.get(op)
        if retry is not None and retry not in self.looping_to_block_label:
            yield f"{self.labels[retry]}:\n"
        if isinstance(op, SassOp):
            yield "\t// sass: " + self._instruction(op).strip().removesuffix(";") + "\n"
        elif isinstance(op, MbarrierWaitOp):
            yield from self._wait_loop(op)
        elif isinstance(op, InstructionOp):
            yield self._instruction(op)
            if isinstance(op, TerminatorInstructionOp):
                through = op.fallthrough
                if through is not None and not self._runs_into(position, through):
                    yield f"\tbra \t{self.labels[self._dest(through)]};\n"
        elif isinstance(op, FallthroughOp):
            if op.dest is not None and not self._runs_into(position, op.dest):
                yield f"\tbra \t{self.labels[self._dest(op.dest)]};\n"
        elif isinstance(op, LocOp):
            text = f"\t.loc\t{op.file.value.data} {op.line.value.data} {op.column.value.data}"
            if op.function_name is not None:
                text += f", function_name {op.function_name.root_reference.data}"
            if (inlined := op.inlined_at) is not None:
                text += f", inlined_at {inlined[0]} {inlined[1]} {inlined[2]}"
            yield text + "\n"
        elif isinstance(op, PragmaOp):
            yield f"\t.pragma {', '.join(_quote(s.data) for s in op.strings)};\n"
        else:
            raise PtxWriteError(
                op,
                f"'{op.name}' op has no PTX form: only ori ops can be printed as PTX",
            )

    def _wait_loop(self, op: MbarrierWaitOp) -> Iterator[str]:
        """The native retry loop of a `_mbarrier.try_wait` pseudo-instruction, in a scope of
        its own so that its predicate and label clash with nothing."""
        label = f"$L__ori_wait_{self.wait_loops}"
        while label in self.labels.values():
            self.wait_loops += 1
            label = f"$L__ori_wait_{self.wait_loops}"
        self.wait_loops += 1
        operands = _operand_list(op, self.names)
        guard = _guard_text(op, self.names)
        skip = ""
        if op.guard is not None:
            name = self.names[op.guard]
            # A false guard skips the wait: the loop must not spin on a stale predicate.
            skip = f"\t@{'' if op.guard_negated else '!'}{name} bra \t{label}_done;\n"
        yield "\t{\n\t.reg .pred \t%p_wait;\n"
        yield f"{label}:\n"
        yield f"\t{guard}{op.native_opcode} \t%p_wait, {operands};\n"
        yield skip
        yield f"\t@!%p_wait bra \t{label};\n"
        if skip:
            yield f"{label}_done:\n"
        yield "\t}\n"

    def _instruction(self, op: InstructionOp) -> str:
        text = "\t" + _guarded_opcode(op, self.names)
        if isinstance(op, BraOp):
            return f"{text} \t{self.labels[self._dest(op.target)]};\n"
        if isinstance(op, BrxOp):
            return self._target_list(op) + self._indirect_branch(text, op)
        if op.layout.data:
            text += f" \t{_operand_list(op, self.names)}"
        return text + ";\n"

    def _target_list(self, op: BrxOp) -> str:
        """The `.branchtargets` list of an indirect branch, declared just before it (under
        a fresh name when another branch already declared its own)."""
        name = op.list_name
        counter = 1
        while name in self.target_lists:
            name = f"{op.list_name}${counter}"
            counter += 1
        self.target_lists.add(name)
        self.list_names[op] = name
        labels = ", ".join(self.labels[self._dest(b)] for b in op.targets)
        return f"{name}: .branchtargets {labels};\n"

    def _indirect_branch(self, text: str, op: BrxOp) -> str:
        index = _operand_text(op.layout.data[0], iter(op.registers), self.names)
        return f"{text} \t{index}, {self.list_names[op]};\n"


def _operand_text(
    operand: Attribute, registers: Iterator[SSAValue], names: dict[SSAValue, str]
) -> str:
    """One PTX operand, taking its registers' names from `names` in order."""
    if isinstance(operand, SlotAttr):
        return names[next(registers)]
    if isinstance(operand, ImmAttr):
        return str(operand.value.data)
    if isinstance(operand, FloatImmAttr):
        return operand.ptx
    if isinstance(operand, SymbolRefAttr):
        return operand.root_reference.data
    if isinstance(operand, SpecialRegAttr):
        return operand.reg_name.data
    if isinstance(operand, SinkAttr):
        return "_"
    if isinstance(operand, AddressAttr):
        text = _operand_text(operand.base, registers, names)
        if operand.offset.data:
            text += f"+{operand.offset.data}"
        for item in operand.rest:
            text += ", " + _operand_text(item, registers, names)
        return f"[{text}]"
    if isinstance(operand, VectorAttr):
        inner = ", ".join(_operand_text(e, registers, names) for e in operand.elements)
        return f"{{{inner}}}"
    if isinstance(operand, ParenAttr):
        inner = ", ".join(_operand_text(e, registers, names) for e in operand.elements)
        return f"({inner})"
    if isinstance(operand, PairAttr):
        first = _operand_text(operand.first, registers, names)
        return f"{first}|{_operand_text(operand.second, registers, names)}"
    if isinstance(operand, NotAttr):
        return "!" + _operand_text(operand.operand, registers, names)
    raise AssertionError(f"not a PTX operand: {operand}")
