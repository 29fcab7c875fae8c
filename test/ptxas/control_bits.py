"""The scoreboard fields of ptxas's SASS control bits, and ori's prediction of them.

Every Hopper SASS instruction is a 128-bit word; its top 23 bits (bits 41-63 of the high
64-bit half that `nvdisasm -hex` prints) are the control bits the scheduler sets: the stall
count (4 bits), the yield flag, the write scoreboard and the read scoreboard it releases
(3 bits each, 7 for none) and the mask of scoreboards it waits for (6 bits), then operand
reuse flags. `sass_control_bits` reads them, with the PTX line of each instruction (from a
`-lineinfo` build), for every function of a cubin.

The comparison with ori's `#ori.ctrl` words (phases 99, 100 and 114) works instruction by
instruction, on the PTX instructions that have a SASS instruction of their own at their
line (`pair`): whether each releases a write and a read scoreboard, and which of them each
wait depends on (`dependences`: a wait on SBn waits for every instruction that set SBn since
the last wait on it, ptxas's scoreboards being counters). Scoreboard *numbers* are not
compared: ptxas allocates SB0..SB5 freely, ori's model round-robins SB1..SB5.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from xdsl.context import Context

from tileas_py.diagnostics import collect_diagnostics, location_of
from tileas_py.dialects.ori.analysis import instructions
from tileas_py.dialects.ori.function import FuncOp
from tileas_py.dialects.ori.instructions import InstructionOp
from tileas_py.dialects.ori.sass import (
    NO_SCOREBOARD,
    SCOREBOARDS,
    SassOp,
    control_word,
    sass_opcode,
)
from tileas_py.pipelines import PtxasPipelinePass
from tileas_py.ptx.reader import read_ptx
from tileas_py.ptx.toolchain import find_tool, run_ptxas

CONTROL_SHIFT = 41
"""Where the control bits start in the high 64-bit half of an instruction."""


@dataclass(frozen=True)
class ControlBits:
    stall: int
    yield_flag: bool
    write: int | None
    read: int | None
    wait: int
    """Bit n: waits for scoreboard n."""

    @classmethod
    def decode(cls, high: int) -> ControlBits:
        """The control bits of an instruction from the high half of its encoding."""
        bits = high >> CONTROL_SHIFT
        write, read = bits >> 5 & 7, bits >> 8 & 7
        return cls(
            bits & 0xF,
            bool(bits >> 4 & 1),
            None if write == NO_SCOREBOARD else write,
            None if read == NO_SCOREBOARD else read,
            bits >> 11 & 0x3F,
        )


@dataclass(frozen=True)
class Instruction:
    """One instruction of either side, reduced to what the comparison looks at."""

    line: int | None
    opcode: str
    write: int | None
    read: int | None
    wait: int
    index: int


_TEXT = re.compile(r"^//-+ \.text\.(?P<name>\S+)\s+-+$")
_LINE = re.compile(r'^\s*//## File "[^"]*", line (?P<line>\d+)')
_LOW = re.compile(r"^\s*/\*[0-9a-f]{4}\*/\s+(?P<text>.*?)\s*;\s*/\* 0x[0-9a-f]{16} \*/")
_HIGH = re.compile(r"^\s*/\* (?P<high>0x[0-9a-f]{16}) \*/\s*$")


def sass_control_bits(cubin: Path) -> dict[str, list[Instruction]]:
    """Every instruction (NOPs left out) of every function, with its control bits."""
    tool = find_tool("nvdisasm")
    if tool is None:
        raise FileNotFoundError("nvdisasm not found: pip install nvidia-cuda-nvdisasm")
    listing = subprocess.run(
        [str(tool), "-gp", "-hex", str(cubin)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    functions: dict[str, list[Instruction]] = {}
    current: list[Instruction] | None = None
    line: int | None = None
    pending: str | None = None
    for text in listing.splitlines():
        if (section := _TEXT.match(text)) is not None:
            current = functions.setdefault(section.group("name"), [])
            line = None
        elif text.startswith("//--"):
            current = None
        elif current is None:
            continue
        elif (marker := _LINE.match(text)) is not None:
            line = int(marker.group("line"))
        elif (low := _LOW.match(text)) is not None:
            pending = low.group("text")
        elif (high := _HIGH.match(text)) is not None and pending is not None:
            opcode = _opcode(pending)
            if opcode != "NOP":
                bits = ControlBits.decode(int(high.group("high"), 16))
                current.append(
                    Instruction(
                        line, opcode, bits.write, bits.read, bits.wait, len(current)
                    )
                )
            pending = None
    return functions


def _opcode(text: str) -> str:
    words = text.split()
    return words[1] if words[0].startswith("@") else words[0]


@cache
def ptxas_control_bits(ptx_text: str, arch: str) -> dict[str, list[Instruction]]:
    """Assemble with the real ptxas (`-lineinfo`) and read the control bits back (once
    per kernel and architecture in a session)."""
    with tempfile.TemporaryDirectory() as tmp:
        ptx = Path(tmp) / "k.ptx"
        ptx.write_text(ptx_text)
        cubin = Path(tmp) / "k.cubin"
        result = run_ptxas(ptx, arch=arch, output=cubin, extra_args=("-lineinfo",))
        assert result.ok, result.messages
        return sass_control_bits(cubin)


def model_control_bits(
    ptx_text: str,
) -> tuple[dict[str, list[Instruction]], dict[str, list[InstructionOp]]]:
    """ori's control words after `ptxas-pipeline`, per function, and the instructions."""
    module = read_ptx(ptx_text, "k.ptx")
    with collect_diagnostics():
        PtxasPipelinePass().apply(Context(), module)
    words: dict[str, list[Instruction]] = {}
    ops: dict[str, list[InstructionOp]] = {}
    for func in module.ops:
        if not isinstance(func, FuncOp) or func.is_declaration:
            continue
        body = list(instructions(func))
        ops[func.func_name.data] = body
        rows: list[Instruction] = []
        for index, inst in enumerate(body):
            word = control_word(inst)
            location = location_of(inst)
            rows.append(
                Instruction(
                    None if location is None else location.line.data,
                    inst.opcode.data,
                    word.write,
                    word.read,
                    word.wait,
                    index,
                )
            )
        words[func.func_name.data] = rows
    return words, ops


# The SASS roots a PTX instruction without a recorded SASS opcode becomes (its own SASS
# instruction, found at its line).
_SASS_ROOTS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("ld", "global"), ("LDG",)),
    (("ld", "shared"), ("LDS",)),
    (("ld", "local"), ("LDL",)),
    (("ld", "const"), ("LDC",)),
    (("ld",), ("LD", "LDG")),
    (("st", "global"), ("STG",)),
    (("st", "shared"), ("STS",)),
    (("st", "local"), ("STL",)),
    (("st",), ("ST", "STG")),
    (("atom", "shared"), ("ATOMS",)),
    (("atom",), ("ATOMG", "ATOM", "RED")),
    (("red",), ("RED", "ATOMG")),
    (("mov",), ("S2R", "S2UR", "CS2R")),
    (("cvt",), ("S2R", "S2UR", "CS2R")),
    (("shfl",), ("SHFL",)),
    (("vote",), ("VOTE",)),
    (("match",), ("MATCH",)),
    (("redux",), ("REDUX",)),
    (("ldmatrix",), ("LDSM",)),
    (("stmatrix",), ("STSM",)),
)


def sass_roots(inst: InstructionOp) -> tuple[str, ...]:
    """The opcode roots of the SASS instruction `inst` stands for (none: nothing to pair)."""
    own = inst.opcode.data if isinstance(inst, SassOp) else sass_opcode(inst)
    if own:
        return (own.split(".")[0],)
    parts = inst.opcode.data.split(".")
    for key, roots in _SASS_ROOTS:
        if parts[0] == key[0] and (len(key) == 1 or key[1] in parts):
            return roots
    return ()


def pair(model: Sequence[InstructionOp], sass: Sequence[Instruction]) -> dict[int, int]:
    """SASS index -> ori index: each ori instruction with the first unpaired SASS
    instruction of its kind at its line."""
    by_line: dict[int | None, list[Instruction]] = {}
    for instruction in sass:
        by_line.setdefault(instruction.line, []).append(instruction)
    paired: dict[int, int] = {}
    for index, inst in enumerate(model):
        roots = sass_roots(inst)
        location = location_of(inst)
        line = None if location is None else location.line.data
        for candidate in by_line.get(line, []):
            if (
                candidate.index not in paired
                and candidate.opcode.split(".")[0] in roots
            ):
                paired[candidate.index] = index
                break
    return paired


def dependences(
    rows: Sequence[Instruction], key: Callable[[Instruction], int | None]
) -> set[tuple[int, int | None]]:
    """(producer key, consumer line) for every wait, in code order: a wait on SBn waits
    for every instruction that set SBn since the last wait on it."""
    pending: list[list[Instruction]] = [[] for _ in range(SCOREBOARDS)]
    found: set[tuple[int, int | None]] = set()
    for row in rows:
        for scoreboard in range(SCOREBOARDS):
            if row.wait >> scoreboard & 1:
                for producer in pending[scoreboard]:
                    producer_key = key(producer)
                    if producer_key is not None:
                        found.add((producer_key, row.line))
                pending[scoreboard] = []
        for scoreboard in (row.write, row.read):
            if scoreboard is not None:
                pending[scoreboard].append(row)
    return found


@dataclass
class Agreement:
    """How far ori's scoreboards agree with ptxas's control bits."""

    paired: int = 0
    writes: int = 0
    """Paired instructions that both release a write scoreboard, or both do not."""
    reads: int = 0
    ptxas_dependences: int = 0
    model_dependences: int = 0
    common_dependences: int = 0
    functions: list[str] = field(default_factory=list[str])

    def add(self, ptx_text: str, arch: str) -> None:
        real = ptxas_control_bits(ptx_text, arch)
        words, ops = model_control_bits(ptx_text)
        for name, model in words.items():
            sass = real.get(name, [])
            paired = pair(ops[name], sass)
            self.functions.append(name)
            for sass_index, model_index in paired.items():
                real_row, model_row = sass[sass_index], model[model_index]
                self.paired += 1
                self.writes += (real_row.write is None) == (model_row.write is None)
                self.reads += (real_row.read is None) == (model_row.read is None)
            real_edges = dependences(sass, lambda r, p=paired: p.get(r.index))
            models = set(paired.values())
            model_edges = {
                (p, c) for p, c in dependences(model, lambda r: r.index) if p in models
            }
            self.ptxas_dependences += len(real_edges)
            self.model_dependences += len(model_edges)
            self.common_dependences += len(real_edges & model_edges)

    @property
    def write_agreement(self) -> float:
        return self.writes / self.paired

    @property
    def read_agreement(self) -> float:
        return self.reads / self.paired

    @property
    def recall(self) -> float:
        """The share of ptxas's dependences the model has."""
        return self.common_dependences / self.ptxas_dependences

    @property
    def precision(self) -> float:
        """The share of the model's dependences ptxas has."""
        return self.common_dependences / self.model_dependences

    def summary(self) -> str:
        return (
            f"{self.paired} paired instructions: write scoreboard "
            f"{self.write_agreement:.1%}, read scoreboard {self.read_agreement:.1%} "
            f"agree; dependences {self.common_dependences} shared of "
            f"{self.ptxas_dependences} (ptxas) and {self.model_dependences} (model)"
        )
