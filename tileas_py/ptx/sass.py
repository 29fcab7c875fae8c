"""SASS listings with their addresses, and the loops in them, from the real `cuobjdump`.

`listing(cubin)` keeps each instruction's address, so that a backward branch (`BRA` to an
address at or before its own) marks a loop: the instructions from its target to it run
once per iteration. `innermost_loop(listing, "HGMMA")` is the K loop of a GEMM, the
smallest such range that holds an HGMMA. What a loop contains is a static count (code
placed out of line, such as an mbarrier wait's retry path, is not in the range).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tileas_py.ptx.toolchain import cuobjdump_sass

_LINE = re.compile(r"\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;")
_BRANCH = re.compile(r"^(?:@!?U?P\w+\s+)?BRA(?:\.\S+)?\s+(?:`\(\S+\)\s*)?0x([0-9a-f]+)")


@dataclass(frozen=True)
class Instruction:
    address: int
    text: str
    """The instruction without its address, encoding and trailing `;`."""

    @property
    def opcode(self) -> str:
        words = self.text.split()
        if words and words[0].startswith("@"):
            words = words[1:]
        return words[0] if words else ""


@dataclass(frozen=True)
class Loop:
    start: int
    end: int
    """The address of the backward branch."""
    body: tuple[Instruction, ...]


def listing(cubin: Path, function: str | None = None) -> list[Instruction]:
    """The SASS of `function` (the first one when None) with addresses; NOPs dropped."""
    found: list[Instruction] = []
    current: str | None = None
    for line in cuobjdump_sass(cubin).splitlines():
        if "Function :" in line:
            current = line.split("Function :")[1].strip()
            if found and function is None:
                break
            continue
        if function is not None and current != function:
            continue
        match = _LINE.match(line)
        if match is None:
            continue
        text = " ".join(match.group(2).split())
        if text == "NOP":
            continue
        found.append(Instruction(int(match.group(1), 16), text))
    return found


def loops(instructions: list[Instruction]) -> list[Loop]:
    """Every backward branch's range (but the `BRA.U.ANY` loops in which ptxas issues a
    warp-uniform instruction once per distinct value among the lanes)."""
    found: list[Loop] = []
    for instruction in instructions:
        match = _BRANCH.match(instruction.text)
        if match is None or "BRA.U.ANY" in instruction.text:
            continue
        target = int(match.group(1), 16)
        if target > instruction.address:
            continue
        body = tuple(
            i for i in instructions if target <= i.address <= instruction.address
        )
        found.append(Loop(target, instruction.address, body))
    return found


def innermost_loop(instructions: list[Instruction], opcode: str) -> Loop | None:
    """The smallest loop holding an instruction whose opcode starts with `opcode`."""
    holding = [
        loop
        for loop in loops(instructions)
        if any(i.opcode.startswith(opcode) for i in loop.body)
    ]
    return min(holding, key=lambda loop: len(loop.body), default=None)
