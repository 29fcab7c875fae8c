"""The kernels of test/ptxas/sync/corpus/ and what the real ptxas and nvdisasm make of them.

Each `name.ptx` opens with a line saying what it exercises, then one `// RUN:` line per
ptxas command whose result `name.expected` records, with the exit status ptxas returned:

    // back-to-back identical bar.sync 0: both are kept at every -O level
    // RUN: ptxas -arch=sm_90a => exit 0
    // RUN: ptxas -arch=sm_90a -O0 => exit 0

`name.expected` has one section per RUN line, in order:

    === -arch=sm_90a
    ptxas warning : ...                      (every line ptxas printed, verbatim)
    module attributes: GEN_ERRBAR_AT_EXIT    (the module's sync-relevant EIATTRs, if any)
    --- k (NUM_BARRIERS=1)                   (a function: its sync-relevant EIATTRs)
      11  BAR.SYNC.DEFER_BLOCKING 0x0        (PTX line, then the SASS instruction)
       -  .L_x_1:                            (a label: where branches go)

The SASS lists keep only the synchronization-relevant instructions (`SYNC_OPCODES`, and
memory accesses with a memory-order modifier), the control flow (`CONTROL_OPCODES`) and labels, in program order, from `nvdisasm -c -gp` of a
cubin that ptxas built with `-lineinfo` added to the RUN line's arguments; the PTX line of
each instruction comes from the cubin's `.nv_debug_line_sass` section (`-lineinfo` does not
change the code: the tests compare the code sections of both builds byte for byte).
"""

from __future__ import annotations

import re
import struct
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tileas_py.hw.sync.sass import (
    CONTROL_FLOW_OPCODE_ROOTS,
    SYNC_OPCODE_ROOTS,
    is_sync_relevant,
)
from tileas_py.ptx.toolchain import PtxasResult, find_tool, run_ptxas

CORPUS_DIR = Path(__file__).parent / "sync" / "corpus"

RUN_LINE = re.compile(
    r"^// RUN: ptxas -arch=(?P<arch>\S+)(?P<args>.*?) => exit (?P<exit>\d+)$"
)

SYNC_OPCODES = SYNC_OPCODE_ROOTS
CONTROL_OPCODES = CONTROL_FLOW_OPCODE_ROOTS
is_kept = is_sync_relevant


SYNC_ATTRIBUTE = re.compile(r"BARRIER|ERRBAR|MEMBAR|SYNC|COOP_GROUP")
"""EIATTRs of a function that the sync phases decide (NUM_BARRIERS, GEN_ERRBAR_AT_EXIT...)."""


@dataclass(frozen=True)
class Run:
    """One `// RUN:` line: the arguments ptxas gets and the exit status it returned."""

    arch: str
    args: tuple[str, ...]
    exit_status: int

    @property
    def command(self) -> str:
        """`-arch=sm_90a -O0`: the RUN line between `ptxas ` and ` =>`."""
        return " ".join((f"-arch={self.arch}", *self.args))


@dataclass(frozen=True)
class SassLine:
    line: int | None
    """The PTX line the instruction came from; None for labels and unmapped code."""
    text: str

    def __str__(self) -> str:
        return f"{'-' if self.line is None else self.line:>4}  {self.text}"

    @property
    def opcode(self) -> str:
        """`BAR.SYNC.DEFER_BLOCKING` for `@!P0 BAR.SYNC.DEFER_BLOCKING 0x0`; `` for labels."""
        if self.text.endswith(":"):
            return ""
        words = self.text.split()
        return words[1] if words[0].startswith("@") else words[0]


@dataclass(frozen=True)
class FunctionSass:
    name: str
    attributes: tuple[str, ...]
    sass: tuple[SassLine, ...]

    @property
    def instructions(self) -> list[str]:
        """The SASS texts without labels: what a test of the phases compares."""
        return [s.text for s in self.sass if s.opcode]


@dataclass(frozen=True)
class Recording:
    """What one ptxas run printed and, when it succeeded, the SASS it made."""

    messages: tuple[str, ...]
    functions: tuple[FunctionSass, ...]
    attributes: tuple[str, ...] = ()
    """The sync-relevant EIATTRs of the module (`.nv.info`), e.g. GEN_ERRBAR_AT_EXIT."""

    def function(self, name: str) -> FunctionSass:
        return next(f for f in self.functions if f.name == name)

    def lines(self) -> list[str]:
        out = list(self.messages)
        if self.attributes:
            out.append(f"{MODULE_ATTRIBUTES}{', '.join(self.attributes)}")
        for function in self.functions:
            attributes = (
                f" ({', '.join(function.attributes)})" if function.attributes else ""
            )
            out.append(f"--- {function.name}{attributes}")
            out.extend(str(s) for s in function.sass)
        return out


@dataclass(frozen=True)
class SyncCase:
    ptx: Path
    description: str
    runs: tuple[Run, ...]

    @property
    def name(self) -> str:
        return self.ptx.stem

    @property
    def expected(self) -> Path:
        return self.ptx.with_suffix(".expected")

    def assemble(self, run: Run, cubin: Path, *extra: str) -> PtxasResult:
        return run_ptxas(
            self.ptx, arch=run.arch, output=cubin, extra_args=(*run.args, *extra)
        )

    def record(self, run: Run) -> tuple[int, Recording]:
        """Run ptxas as the RUN line says; on success disassemble a `-lineinfo` build too."""
        with tempfile.TemporaryDirectory() as tmp:
            cubin = Path(tmp) / f"{self.name}.cubin"
            result = self.assemble(run, cubin)
            messages = tuple(self.messages(result))
            if not result.ok:
                return result.returncode, Recording(messages, ())
            with_lines = self.assemble(run, cubin, "-lineinfo")
            if not with_lines.ok:
                raise RuntimeError(
                    f"{self.name}: -lineinfo build failed: {with_lines.stderr}"
                )
            functions, attributes = disassemble(cubin)
            return result.returncode, Recording(messages, functions, attributes)

    def messages(self, result: PtxasResult) -> list[str]:
        """What ptxas printed, with the kernel's path shortened to its file name."""
        return [line.replace(str(self.ptx), self.ptx.name) for line in result.messages]

    def code_with_and_without_line_info(self, run: Run) -> tuple[dict[str, bytes], ...]:
        """The code sections of a build as the RUN line says, and with `-lineinfo` added."""
        with tempfile.TemporaryDirectory() as tmp:
            plain, with_lines = Path(tmp) / "plain.cubin", Path(tmp) / "lines.cubin"
            for cubin, extra in ((plain, ()), (with_lines, ("-lineinfo",))):
                result = self.assemble(run, cubin, *extra)
                if not result.ok:
                    raise RuntimeError(f"{self.name}: ptxas failed: {result.stderr}")
            return text_sections(plain), text_sections(with_lines)

    def recordings(self) -> list[Recording]:
        """The recordings of `name.expected`, one per RUN line."""
        sections = read_expected(self.expected)
        if [command for command, _ in sections] != [run.command for run in self.runs]:
            raise ValueError(
                f"{self.expected.name}: sections do not match the RUN lines"
            )
        return [recording for _, recording in sections]


def nvdisasm(*args: str) -> str:
    tool = find_tool("nvdisasm")
    if tool is None:
        raise FileNotFoundError(
            "nvdisasm not found: pip install nvidia-cuda-nvdisasm==13.5.37"
        )
    return subprocess.run(
        [str(tool), *args], capture_output=True, text=True, check=True
    ).stdout


TEXT_SECTION = re.compile(r"^//-+ \.text\.(?P<name>\S+)\s+-+$")
INFO_SECTION = re.compile(r"^//-+ \.nv\.info(\.(?P<name>\S+))?\s+-+$")
ANY_SECTION = re.compile(r"^//-+ \S+\s+-+$")
LINE_MARKER = re.compile(r'^\s*//## File "[^"]*", line (?P<line>\d+)')
INSTRUCTION = re.compile(r"^\s*/\*[0-9a-f]{4}\*/\s+(?P<text>.*?)\s*;\s*$")
LABEL = re.compile(r"^(?P<label>\.L_x_\d+):$")
ATTRIBUTE = re.compile(r"^\s*//----- nvinfo : EIATTR_(?P<name>\w+)$")
BYTES = re.compile(r"^\s*/\*[0-9a-f]{4}\*/\s+\.byte\s+(?P<bytes>.*)$")


def disassemble(cubin: Path) -> tuple[tuple[FunctionSass, ...], tuple[str, ...]]:
    """The functions of a cubin, and the module's sync-relevant EIATTRs."""
    listing = nvdisasm("-gp", str(cubin))
    sass = function_sass(listing)
    attributes = function_attributes(listing)
    functions = tuple(
        FunctionSass(name, tuple(attributes.get(name, ())), tuple(lines))
        for name, lines in sass.items()
    )
    return functions, tuple(attributes.get("", ()))


def text_sections(cubin: Path) -> dict[str, bytes]:
    """The code of each function in a cubin (an ELF64 file): `.text.k` -> its bytes."""
    elf = cubin.read_bytes()
    (shoff,) = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    headers = [
        struct.unpack_from("<IIQQQQ", elf, shoff + i * shentsize) for i in range(shnum)
    ]
    names_at = headers[shstrndx][4]

    def name(offset: int) -> str:
        end = elf.index(b"\0", names_at + offset)
        return elf[names_at + offset : end].decode()

    return {
        name(h[0]): elf[h[4] : h[4] + h[5]]
        for h in headers
        if name(h[0]).startswith(".text.")
    }


def function_sass(listing: str) -> dict[str, list[SassLine]]:
    """The sync-relevant instructions, control flow and labels of each function."""
    functions: dict[str, list[SassLine]] = {}
    current: list[SassLine] | None = None
    line: int | None = None
    for text in listing.splitlines():
        if (section := TEXT_SECTION.match(text)) is not None:
            current = functions.setdefault(section.group("name"), [])
            line = None
        elif ANY_SECTION.match(text) is not None:
            current = None
        elif current is None:
            continue
        elif (marker := LINE_MARKER.match(text)) is not None:
            line = int(marker.group("line"))
        elif (label := LABEL.match(text)) is not None:
            current.append(SassLine(None, label.group(0)))
        elif (instruction := INSTRUCTION.match(text)) is not None:
            entry = SassLine(line, instruction.group("text"))
            if is_kept(entry.opcode):
                current.append(entry)
    for lines in functions.values():
        # nvdisasm puts a label before every branch target and after the last EXIT;
        # keep only those some kept branch names.
        targets = {
            t for s in lines for t in re.findall(r"\.L_x_\d+", s.text) if s.opcode
        }
        lines[:] = [s for s in lines if s.opcode or s.text[:-1] in targets]
    return functions


def function_attributes(listing: str) -> dict[str, list[str]]:
    """`NUM_BARRIERS=n` and the names of the other sync-relevant EIATTRs per function
    (the module's, from `.nv.info`, under the name ``)."""
    attributes: dict[str, list[str]] = {}
    current: list[str] | None = None
    pending: str | None = None
    for text in listing.splitlines():
        if (section := INFO_SECTION.match(text)) is not None:
            current = attributes.setdefault(section.group("name") or "", [])
        elif ANY_SECTION.match(text) is not None:
            current = None
        elif current is None:
            continue
        elif (attribute := ATTRIBUTE.match(text)) is not None:
            name = attribute.group("name")
            pending = name if name == "NUM_BARRIERS" else None
            if name != "NUM_BARRIERS" and SYNC_ATTRIBUTE.search(name):
                current.append(name)
        elif pending is not None and (data := BYTES.match(text)) is not None:
            values = [int(b, 16) for b in data.group("bytes").split(", ")]
            # `.byte 0x02, 0x4c` (format, attribute) comes first, then `.byte N`.
            if values[:2] != [0x02, 0x4C]:
                current.append(f"{pending}={values[0]}")
                pending = None
    return attributes


def read_expected(path: Path) -> list[tuple[str, Recording]]:
    sections: list[tuple[str, list[str]]] = []
    for text in path.read_text().splitlines():
        if text.startswith("=== "):
            sections.append((text.removeprefix("=== "), []))
        elif sections:
            sections[-1][1].append(text)
        else:
            raise ValueError(f"{path.name}: text before the first `=== ` section")
    return [(command, parse_recording(lines)) for command, lines in sections]


MODULE_ATTRIBUTES = "module attributes: "
FUNCTION_HEADER = re.compile(r"^--- (?P<name>\S+)(?: \((?P<attributes>[^)]*)\))?$")
SASS_ENTRY = re.compile(r"^\s*(?P<line>\d+|-)  (?P<text>\S.*)$")


def parse_recording(lines: list[str]) -> Recording:
    messages: list[str] = []
    module: tuple[str, ...] = ()
    functions: list[tuple[str, tuple[str, ...], list[SassLine]]] = []
    for text in lines:
        if text.startswith(MODULE_ATTRIBUTES) and not functions:
            module = tuple(text.removeprefix(MODULE_ATTRIBUTES).split(", "))
        elif (header := FUNCTION_HEADER.match(text)) is not None:
            attributes = header.group("attributes")
            functions.append(
                (
                    header.group("name"),
                    tuple(attributes.split(", ")) if attributes else (),
                    [],
                )
            )
        elif functions:
            entry = SASS_ENTRY.match(text)
            if entry is None:
                raise ValueError(f"not a SASS line: {text!r}")
            line = entry.group("line")
            functions[-1][2].append(
                SassLine(None if line == "-" else int(line), entry.group("text"))
            )
        else:
            messages.append(text)
    return Recording(
        tuple(messages),
        tuple(
            FunctionSass(name, attrs, tuple(sass)) for name, attrs, sass in functions
        ),
        module,
    )


def write_expected(path: Path, sections: list[tuple[Run, Recording]]) -> None:
    out: list[str] = []
    for run, recording in sections:
        out.append(f"=== {run.command}")
        out.extend(recording.lines())
    path.write_text("".join(f"{line}\n" for line in out))


def read_case(ptx: Path) -> SyncCase:
    lines = ptx.read_text().splitlines()
    if not lines or not lines[0].startswith("// ") or lines[0].startswith("// RUN:"):
        raise ValueError(
            f"{ptx.name}: the first line must say what the kernel exercises"
        )
    runs: list[Run] = []
    for text in lines[1:]:
        if not text.startswith("// RUN:"):
            break
        run = RUN_LINE.match(text)
        if run is None:
            raise ValueError(f"{ptx.name}: bad RUN line {text!r}")
        runs.append(
            Run(
                run.group("arch"),
                tuple(run.group("args").split()),
                int(run.group("exit")),
            )
        )
    if not runs:
        raise ValueError(
            f"{ptx.name}: line 2 must be `// RUN: ptxas -arch=... => exit N`"
        )
    return SyncCase(ptx, lines[0].removeprefix("// "), tuple(runs))


def corpus_cases(corpus: Path = CORPUS_DIR) -> list[SyncCase]:
    return [read_case(ptx) for ptx in sorted(corpus.glob("*.ptx"))]


@dataclass(frozen=True)
class ElfAttributes:
    """The sync EIATTRs of one function as `cuobjdump -elf` prints them."""

    mbarrier_kinds: tuple[str, ...]
    """EIATTR_MBARRIER_INSTR_OFFSETS: each entry's `Instruction Kind`, in order."""
    num_mbarriers: int | None
    sw_war: int | None


ELF_INFO_SECTION = re.compile(r"^\.nv\.info\.(?P<name>\S+)$")
ELF_ATTRIBUTE = re.compile(r"^\tAttribute:\tEIATTR_(?P<name>\w+)$")
ELF_VALUE = re.compile(r"^\tValue:\t\s*(?P<value>0x[0-9a-f]+)")
ELF_KIND = re.compile(r"^\t0x[0-9a-f]+\t:\tInstruction Kind : (?P<kind>.+?)\t")


def elf_attributes(cubin: Path) -> dict[str, ElfAttributes]:
    """The sync EIATTRs of every function of a cubin, from `cuobjdump -elf`."""
    tool = find_tool("cuobjdump")
    if tool is None:
        raise FileNotFoundError(
            "cuobjdump not found: pip install nvidia-cuda-cuobjdump==13.5.37"
        )
    listing = subprocess.run(
        [str(tool), "-elf", str(cubin)], capture_output=True, text=True, check=True
    ).stdout
    found: dict[str, tuple[list[str], dict[str, int]]] = {}
    current: tuple[list[str], dict[str, int]] | None = None
    attribute = ""
    for text in listing.splitlines():
        if (section := ELF_INFO_SECTION.match(text)) is not None:
            current = found.setdefault(section.group("name"), ([], {}))
        elif text.startswith("."):
            current = None
        elif current is None:
            continue
        elif (name := ELF_ATTRIBUTE.match(text)) is not None:
            attribute = name.group("name")
        elif (kind := ELF_KIND.match(text)) is not None:
            current[0].append(kind.group("kind"))
        elif (value := ELF_VALUE.match(text)) is not None:
            current[1][attribute] = int(value.group("value"), 16)
    return {
        name: ElfAttributes(
            tuple(kinds), values.get("NUM_MBARRIERS"), values.get("SW_WAR")
        )
        for name, (kinds, values) in found.items()
    }
