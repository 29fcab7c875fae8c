"""The systematic GMMA corpus: small WGMMA kernels as products of the situations ptxas 13.5
reacts to, written into test/ptxas/gmma/families/ and recorded with the real ptxas.

A kernel is written in a small statement language, one token per PTX statement or
structure (tokens are separated by spaces; `@u:` / `@d:` / `@!u:` / `@!d:` in front of a
token predicates it on the uniform `%p1` (a kernel parameter) or the divergent `%p2`
(`%tid.x & 7 == 0`)):

| token | PTX |
| --- | --- |
| `F` | `wgmma.fence` |
| `M<s>[.mods]` | `wgmma.mma_async` on accumulator set s; mods: `z` scale-d 0, `o` scale-d 1 (else `%p1`), `a` A from registers, `p` the set's registers permuted, `h` shifted by one register, `s` a subset (the first half, a shape half as wide), `q` the same B descriptor as the previous wgmma |
| `C`, `W<n>` | `wgmma.commit_group`, `wgmma.wait_group n` |
| `R<s>` | a store of the set's first register (a read of part of the accumulator) |
| `V<s>` | a store of the whole set |
| `RMW<s>`, `MOV<s>` | `add.f32` on / `mov.f32` of a constant into the set's first register |
| `CP<s>` | `mov.f32` of the set's first register into a scratch register stored at the end |
| `ADD<s>` | `add.f32` of the set's first two registers into a scratch register |
| `AF` | `add.s32` on the first A-fragment register |
| `ret`, `exit` | `ret;`, `exit;` |
| `call.<f>` | a call: `ext` (`.extern`), `nop` (a defined `.func` without wgmma), `cw` (only commit + wait), `c` (only commit), `w` (only a wait), `f` (only a fence), `pipe` (a whole fence..wait stage), `rec` (a recursive `.func` with a stage), `recnop` (a recursive `.func` without wgmma) |
| `if.u{ ... }`, `if.d{ ... }else{ ... }` | a forward branch on `%p1` / `%p2` |
| `loop.k{ ... }`, `loop.u{`, `loop.d{` | a counted loop: 4 trips, `%r1` trips (uniform), `%r3` trips (divergent) |
| `forever{ ... }` | a loop that never exits |
| `break.u`, `break.d` | leave the innermost loop if `%p1` / `%p2` |

Accumulator sets are m64nNk16 f32 (N/2 registers each), loaded from memory (or zeroed) at
the start and stored at the end. Each wgmma has its own B descriptor (so that no two are
merged as identical) unless `q` says otherwise. A `Kernel` can carry `.maxnreg` and a
`setmaxnreg.inc` / `.dec`; a `Case` is one PTX file (one or more kernels) and the ptxas
flags it is assembled with.

`cases()` lists every case of every family; `write_corpus()` writes them, with the
`// RUN:` header of test/ptxas/gmma_corpus.py, for test/ptxas/record_gmma_families.py.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

FAMILIES_DIR = Path(__file__).parent / "gmma" / "corpus" / "families"
"""Under corpus/, which lit does not search for tests."""

SASS_COUNTS = FAMILIES_DIR / "sass_counts.json"
"""How many SASS instructions (NOPs left out) ptxas made of each kernel, by name."""

_HEADER = """\
.version 8.5
.target sm_90a
.address_size 64
"""

_FUNCTIONS = {
    "ext": ".extern .func ext();\n",
    "nop": """\
.func nop(.param .b64 ptr)
{
\t.reg .b64 %rd<2>;
\tld.param.b64 %rd1, [ptr];
\tst.global.u32 [%rd1+2048], 7;
\tret;
}
""",
    "cw": """\
.func cw()
{
\twgmma.commit_group.sync.aligned;
\twgmma.wait_group.sync.aligned 0;
\tret;
}
""",
    "c": """\
.func c()
{
\twgmma.commit_group.sync.aligned;
\tret;
}
""",
    "w": """\
.func w()
{
\twgmma.wait_group.sync.aligned 0;
\tret;
}
""",
    "f": """\
.func f()
{
\twgmma.fence.sync.aligned;
\tret;
}
""",
    "pipe": """\
.func pipe(.param .b64 ptr)
{
\t.reg .b64 %rd<4>;
\t.reg .f32 %f<5>;
\tld.param.b64 %rd1, [ptr];
\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+4096];
\twgmma.fence.sync.aligned;
\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd1, 1, 1, 1, 0, 0;
\twgmma.commit_group.sync.aligned;
\twgmma.wait_group.sync.aligned 0;
\tst.global.v4.f32 [%rd1+4096], {%f1, %f2, %f3, %f4};
\tret;
}
""",
    "rec": """\
.func rec(.param .b64 ptr, .param .b32 n)
{
\t.reg .pred %p<2>;
\t.reg .b32 %r<3>;
\t.reg .b64 %rd<2>;
\t.reg .f32 %f<5>;
\tld.param.b64 %rd1, [ptr];
\tld.param.b32 %r1, [n];
\tsetp.eq.u32 %p1, %r1, 0;
\t@%p1 bra $Lrec_done;
\tsub.u32 %r2, %r1, 1;
\t{
\t.param .b64 param0;
\t.param .b32 param1;
\tst.param.b64 [param0], %rd1;
\tst.param.b32 [param1], %r2;
\tcall.uni rec, (param0, param1);
\t}
\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+4096];
\twgmma.fence.sync.aligned;
\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd1, 1, 1, 1, 0, 0;
\twgmma.commit_group.sync.aligned;
\twgmma.wait_group.sync.aligned 0;
\tst.global.v4.f32 [%rd1+4096], {%f1, %f2, %f3, %f4};
$Lrec_done:
\tret;
}
""",
    "recnop": """\
.func recnop(.param .b64 ptr, .param .b32 n)
{
\t.reg .pred %p<2>;
\t.reg .b32 %r<3>;
\t.reg .b64 %rd<2>;
\tld.param.b64 %rd1, [ptr];
\tld.param.b32 %r1, [n];
\tsetp.eq.u32 %p1, %r1, 0;
\t@%p1 bra $Lrecnop_done;
\tsub.u32 %r2, %r1, 1;
\t{
\t.param .b64 param0;
\t.param .b32 param1;
\tst.param.b64 [param0], %rd1;
\tst.param.b32 [param1], %r2;
\tcall.uni recnop, (param0, param1);
\t}
\tst.global.u32 [%rd1+2048], %r1;
$Lrecnop_done:
\tret;
}
""",
}
"""The callees of `call.<f>`, in the order they are written into a file."""

_CALL_ARGS = {"nop": 1, "pipe": 1, "rec": 2, "recnop": 2}
"""Callees that take the output pointer (and a recursion depth)."""

_PREDICATES = {"u": "%p1", "d": "%p2", "!u": "!%p1", "!d": "!%p2"}
_LOOP_BOUNDS = {"k": "4", "u": "%r1", "d": "%r3"}
_MMA = re.compile(r"^M(?P<set>\d)(?:\.(?P<mods>[zoaphsq]+))?$")
_SET_EVENT = re.compile(r"^(?P<kind>R|V|RMW|MOV|CP|ADD)(?P<set>\d)$")


@dataclass(frozen=True)
class Kernel:
    """One `.entry` and what is around its body."""

    program: str
    n: int = 8
    """The N of the m64nNk16 accumulators (N/2 f32 registers per set)."""
    zero: bool = False
    """Accumulators start as `mov.f32 0` rather than loaded from memory."""
    maxnreg: int = 0
    setmaxnreg: str = ""
    """`inc 232` or `dec 168`: a `setmaxnreg` at the start of the kernel."""
    name: str = "k"
    store: bool = True
    """Store every accumulator set at the end (else only what the program stores)."""

    def describe(self) -> str:
        extras = [f"n={self.n}"] if self.n != 8 else []
        if not self.store:
            extras.append("no final store")
        if self.zero:
            extras.append("zero")
        if self.maxnreg:
            extras.append(f".maxnreg {self.maxnreg}")
        if self.setmaxnreg:
            extras.append(f"setmaxnreg.{self.setmaxnreg}")
        suffix = f" [{', '.join(extras)}]" if extras else ""
        prefix = f"{self.name}: " if self.name != "k" else ""
        return f"{prefix}{self.program}{suffix}"


@dataclass(frozen=True)
class Case:
    """One PTX file of the corpus: its kernels and the ptxas flags."""

    family: str
    index: int
    kernels: tuple[Kernel, ...]
    args: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return f"{self.family}_{self.index:03d}"

    @property
    def description(self) -> str:
        return f"{self.family}: " + " | ".join(k.describe() for k in self.kernels)

    def text(self) -> str:
        """The PTX file, with the two header lines of the corpus format."""
        renders = [_Render(kernel) for kernel in self.kernels]
        callees = set[str]().union(*(r.callees for r in renders))
        functions = "".join(
            _FUNCTIONS[name] + "\n" for name in _FUNCTIONS if name in callees
        )
        run = f"// RUN: ptxas -arch=sm_90a{''.join(' ' + a for a in self.args)}"
        entries = "\n".join(r.text() for r in renders)
        return (
            f"// {self.description}\n{run} => exit 0\n{_HEADER}\n{functions}{entries}"
        )


@dataclass
class _Render:
    kernel: Kernel
    lines: list[str] = field(default_factory=list[str])
    callees: set[str] = field(default_factory=set[str])
    labels: int = 0
    loops: int = 0
    offsets: int = 0
    scratch: int = 0
    descriptors: int = 0
    uses_fragment: bool = False
    loop_ends: list[str] = field(default_factory=list[str])

    def __post_init__(self) -> None:
        self.sets = 1 + max(
            (
                int(m.group(1))
                for m in re.finditer(
                    r"(?:M|R|V|RMW|MOV|CP|ADD)(\d)", self.kernel.program
                )
            ),
            default=0,
        )
        self.tokens: list[str] = re.findall(
            r"[^\s{}]+\{|\}|[^\s{}]+", self.kernel.program
        )
        self.position = 0
        self.body(top=True)

    @property
    def regs(self) -> int:
        return self.kernel.n // 2

    def set_registers(self, index: int, shift: int = 0) -> list[str]:
        base = 1 + index * self.regs + shift
        return [f"%f{base + i}" for i in range(self.regs)]

    def emit(self, line: str) -> None:
        self.lines.append(f"\t{line}")

    def label(self, kind: str) -> str:
        self.labels += 1
        return f"$L_{kind}{self.labels}"

    def body(self, top: bool = False) -> None:
        while self.position < len(self.tokens):
            token = self.tokens[self.position]
            if token == "}":
                if top:
                    raise ValueError(f"unbalanced '}}' in {self.kernel.program!r}")
                return
            self.position += 1
            self.statement(token)
        if not top:
            raise ValueError(f"unclosed '{{' in {self.kernel.program!r}")

    def expect(self, token: str) -> None:
        if self.position >= len(self.tokens) or self.tokens[self.position] != token:
            raise ValueError(f"expected {token!r} in {self.kernel.program!r}")
        self.position += 1

    def statement(self, token: str) -> None:
        guard = ""
        if token.startswith("@"):
            condition, token = token[1:].split(":", 1)
            guard = f"@{_PREDICATES[condition]} "
        if token in ("if.u{", "if.d{"):
            self.branch(token[-2])
        elif token.startswith("loop.") or token == "forever{":
            self.loop(token.removesuffix("{"))
        elif token in ("break.u", "break.d"):
            if not self.loop_ends:
                raise ValueError(f"{token} outside a loop in {self.kernel.program!r}")
            self.emit(f"@{_PREDICATES[token[-1]]} bra {self.loop_ends[-1]};")
        elif token.startswith("call."):
            self.call(token[5:], guard)
        else:
            self.instruction(token, guard)

    def branch(self, condition: str) -> None:
        otherwise = self.label("else")
        self.emit(f"@!{_PREDICATES[condition]} bra {otherwise};")
        self.body()
        self.expect("}")
        if self.position < len(self.tokens) and self.tokens[self.position] == "else{":
            self.position += 1
            end = self.label("end")
            self.emit(f"bra.uni {end};")
            self.lines.append(f"{otherwise}:")
            self.body()
            self.expect("}")
            self.lines.append(f"{end}:")
        else:
            self.lines.append(f"{otherwise}:")

    def loop(self, token: str) -> None:
        head = self.label("loop")
        end = self.label("exit")
        self.loops += 1
        counter = f"%r{10 + self.loops}"
        if token != "forever":
            self.emit(f"mov.u32 {counter}, 0;")
        self.lines.append(f"{head}:")
        self.loop_ends.append(end)
        self.body()
        self.expect("}")
        self.loop_ends.pop()
        if token == "forever":
            self.emit(f"bra.uni {head};")
        else:
            bound = _LOOP_BOUNDS[token.removeprefix("loop.")]
            predicate = f"%p{3 + self.loops}"
            self.emit(f"add.s32 {counter}, {counter}, 1;")
            self.emit(f"setp.lt.u32 {predicate}, {counter}, {bound};")
            self.emit(f"@{predicate} bra {head};")
        self.lines.append(f"{end}:")

    def call(self, callee: str, guard: str) -> None:
        if callee not in _FUNCTIONS:
            raise ValueError(f"unknown callee {callee!r}")
        self.callees.add(callee)
        arguments = _CALL_ARGS.get(callee, 0)
        if arguments == 0:
            self.emit(f"{guard}call.uni {callee};")
            return
        self.emit("{")
        self.emit(".param .b64 param0;")
        self.emit("st.param.b64 [param0], %rd3;")
        names = "param0"
        if arguments == 2:
            self.emit(".param .b32 param1;")
            self.emit("st.param.b32 [param1], %r1;")
            names += ", param1"
        self.emit(f"{guard}call.uni {callee}, ({names});")
        self.emit("}")

    def offset(self) -> int:
        self.offsets += 1
        return 4096 + 4 * self.offsets

    def instruction(self, token: str, guard: str) -> None:
        if token == "F":
            self.emit(f"{guard}wgmma.fence.sync.aligned;")
        elif token == "C":
            self.emit(f"{guard}wgmma.commit_group.sync.aligned;")
        elif token.startswith("W") and token[1:].isdigit():
            self.emit(f"{guard}wgmma.wait_group.sync.aligned {token[1:]};")
        elif token in ("ret", "exit"):
            self.emit(f"{guard}{token};")
        elif token == "AF":
            self.uses_fragment = True
            self.emit(f"{guard}add.s32 %r4, %r4, %r1;")
        elif (mma := _MMA.match(token)) is not None:
            self.mma(int(mma.group("set")), mma.group("mods") or "", guard)
        elif (event := _SET_EVENT.match(token)) is not None:
            self.set_event(event.group("kind"), int(event.group("set")), guard)
        else:
            raise ValueError(f"unknown token {token!r} in {self.kernel.program!r}")

    def set_event(self, kind: str, index: int, guard: str) -> None:
        registers = self.set_registers(index)
        first = registers[0]
        if kind == "R":
            self.emit(f"{guard}st.global.f32 [%rd3+{self.offset()}], {first};")
        elif kind == "V":
            for chunk in range(0, len(registers), 4):
                group = ", ".join(registers[chunk : chunk + 4])
                self.emit(
                    f"{guard}st.global.v4.f32 [%rd3+{self.offset() * 16}], {{{group}}};"
                )
        elif kind == "RMW":
            self.emit(f"{guard}add.f32 {first}, {first}, 0f3F800000;")
        elif kind == "MOV":
            self.emit(f"{guard}mov.f32 {first}, 0f40000000;")
        else:
            self.scratch += 1
            target = f"%s{self.scratch}"
            if kind == "CP":
                self.emit(f"{guard}mov.f32 {target}, {first};")
            else:
                self.emit(f"{guard}add.f32 {target}, {first}, {registers[1]};")

    def mma(self, index: int, mods: str, guard: str) -> None:
        n = self.kernel.n
        registers = self.set_registers(index, shift=1 if "h" in mods else 0)
        if "p" in mods:
            registers = [registers[i ^ 1] for i in range(len(registers))]
        if "s" in mods:
            n //= 2
            registers = registers[: len(registers) // 2]
        if "z" in mods:
            scale = "0"
        elif "o" in mods:
            scale = "1"
        else:
            scale = "%p1"
        if "q" not in mods:
            self.descriptors += 1
        b = f"%rb{max(self.descriptors, 1)}"
        shape = f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16"
        accumulators = "{" + ", ".join(registers) + "}"
        if "a" in mods:
            self.uses_fragment = True
            self.emit(
                f"{guard}{shape} {accumulators}, {{%r4, %r5, %r6, %r7}}, {b}, {scale}, 1, 1, 0;"
            )
        else:
            self.emit(f"{guard}{shape} {accumulators}, %rd1, {b}, {scale}, 1, 1, 0, 0;")

    def text(self) -> str:
        kernel = self.kernel
        float_registers = self.sets * self.regs + 2
        prologue = [
            "ld.param.u64 %rd1, [desc_a];",
            "ld.param.u64 %rd2, [desc_b];",
            "ld.param.u64 %rd3, [out];",
            "ld.param.u32 %r1, [accumulate];",
            "setp.ne.u32 %p1, %r1, 0;",
            "mov.u32 %r2, %tid.x;",
            "and.b32 %r3, %r2, 7;",
            "setp.eq.u32 %p2, %r3, 0;",
        ]
        if kernel.setmaxnreg:
            action, count = kernel.setmaxnreg.split()
            prologue.append(f"setmaxnreg.{action}.sync.aligned.u32 {count};")
        for descriptor in range(1, max(self.descriptors, 1) + 1):
            prologue.append(f"add.s64 %rb{descriptor}, %rd2, {64 * descriptor};")
        if self.uses_fragment:
            prologue.append("ld.global.v4.b32 {%r4, %r5, %r6, %r7}, [%rd3+8192];")
        stores: list[str] = []
        for index in range(self.sets):
            registers = self.set_registers(index)
            for chunk in range(0, len(registers), 4):
                group = ", ".join(registers[chunk : chunk + 4])
                if kernel.zero:
                    prologue.extend(
                        f"mov.f32 {r}, 0f00000000;"
                        for r in registers[chunk : chunk + 4]
                    )
                else:
                    prologue.append(
                        f"ld.global.v4.f32 {{{group}}}, [%rd3+{4 * (index * self.regs + chunk)}];"
                    )
                if kernel.store:
                    stores.append(
                        f"st.global.v4.f32 [%rd3+{4 * (index * self.regs + chunk)}], {{{group}}};"
                    )
        for scratch in range(1, self.scratch + 1):
            stores.append(f"st.global.f32 [%rd3+{12288 + 4 * scratch}], %s{scratch};")
        maxnreg = f" .maxnreg {kernel.maxnreg}" if kernel.maxnreg else ""
        declarations = [
            ".reg .pred %p<16>;",
            ".reg .b32 %r<32>;",
            ".reg .b64 %rd<8>;",
            f".reg .b64 %rb<{max(self.descriptors, 1) + 1}>;",
            f".reg .f32 %f<{float_registers}>;",
            f".reg .f32 %s<{self.scratch + 1}>;",
        ]
        body = [
            *(f"\t{d}" for d in declarations),
            "",
            *(f"\t{line}" for line in prologue),
            *self.lines,
            *(f"\t{line}" for line in stores),
            "\tret;",
        ]
        return (
            f".visible .entry {kernel.name}(\n"
            "\t.param .u64 out,\n"
            "\t.param .u64 desc_a,\n"
            "\t.param .u64 desc_b,\n"
            "\t.param .u32 accumulate\n"
            f"){maxnreg}\n{{\n" + "\n".join(body) + "\n}\n"
        )


# -- the families ------------------------------------------------------------------------


def _insert(base: Sequence[str], position: int, token: str) -> str:
    return " ".join([*base[:position], token, *base[position:]])


def positions() -> Iterator[tuple[Kernel, tuple[str, ...]]]:
    """Each kind of instruction at each position of a stage."""
    bases: list[tuple[str, list[str]]] = [
        ("F M0 M0 C W0", ["R0", "RMW0", "MOV0", "CP0", "ADD0", "ret", "exit"]),
        ("F M0 M1 C W0", ["R0", "R1", "RMW1", "MOV1", "CP1", "ret"]),
        ("F M0.z M0 C W0", ["R0", "RMW0", "MOV0", "CP0", "ret"]),
        ("F M0.a M0.a C W0", ["R0", "MOV0", "AF", "ret"]),
        ("F M0.za M0.a C W0", ["AF", "MOV0", "CP0"]),
        ("F M0 C F M1 C W0", ["R0", "R1", "MOV0", "CP1", "ret"]),
        ("F M0 C W1 F M1 C W0", ["R0", "MOV0", "CP0"]),
    ]
    for base, events in bases:
        tokens = base.split()
        for event in events:
            for position in range(len(tokens) + 1):
                yield Kernel(_insert(tokens, position, event)), ()
    for base, zero in itertools.product(["F M0 M0 C W0", "F M0.z M0 C W0"], [True]):
        tokens = base.split()
        for event in ["R0", "MOV0", "CP0"]:
            for position in range(1, len(tokens)):
                yield Kernel(_insert(tokens, position, event), zero=zero), ()


def calls() -> Iterator[tuple[Kernel, tuple[str, ...]]]:
    """Calls of each kind of callee at each position of a stage, whole-program and -c."""
    base = ["F", "M0", "M0", "C", "W0"]
    for callee in ["ext", "nop", "cw", "c", "w", "f", "pipe", "rec", "recnop"]:
        for position in [0, 1, 2, 4, 5]:
            program = _insert(base, position, f"call.{callee}")
            for args in [(), ("-c",)]:
                if callee == "ext" and not args:
                    continue
                yield Kernel(program), args
    for program in [
        "F M0 call.cw R0",
        "F M0 call.c W0 R0",
        "F M0 call.c call.w R0",
        "call.f M0 C W0",
        "call.f M0 call.cw V0",
        "F M0 C call.w R0",
        "F M0 C @u:call.w W0",
        "F M0 C if.d{ call.nop } W0",
        "F M0 C loop.u{ call.nop } W0",
        "loop.u{ F M0 C W0 call.nop }",
        "F M0 C W0 call.pipe F M1 C W0",
        "call.pipe call.pipe",
    ]:
        for args in [(), ("-c",)]:
            yield Kernel(program), args


def predication() -> Iterator[tuple[Kernel, tuple[str, ...]]]:
    """Predicated fence / commit / wait, divergent paths that hold part of a stage."""
    for base in ["F M0 M0 C W0 R0", "F M0 C F M1 C W0", "F M0 C W0 F M0 C W0"]:
        tokens = base.split()
        for position, token in enumerate(tokens):
            if token[0] not in "FCW":
                continue
            for condition in ["u", "d", "!d"]:
                predicated = [*tokens]
                predicated[position] = f"@{condition}:{token}"
                yield Kernel(" ".join(predicated)), ()
    for condition in ["u", "d"]:
        for program in [
            "if.{c}{{ F }} M0 C W0",
            "F M0 C if.{c}{{ W0 }} R0",
            "F M0 C if.{c}{{ W0 }} W0",
            "F M0 C if.{c}{{ W0 R0 }} W0",
            "F M0 C if.{c}{{ W0 }}else{{ W0 }} R0",
            "F M0 if.{c}{{ C }}else{{ C }} W0",
            "F M0 if.{c}{{ C W0 }}else{{ C W0 }} R0",
            "F M0 if.{c}{{ C }} W0",
            "F M0 if.{c}{{ M0 }} C W0",
            "F M0 if.{c}{{ M1 }} C W0",
            "F if.{c}{{ M0 }} C W0",
            "if.{c}{{ F M0 }} C W0",
            "F M0 if.{c}{{ C W0 }} R0",
            "F M0 C if.{c}{{ R0 }} W0",
            "F M0 C if.{c}{{ F M1 C }} W0",
            "F M0 C W0 if.{c}{{ F M0 C W0 }} R0",
            "if.{c}{{ F M0 C W0 }} R0",
            "F M0 C if.{c}{{ W0 }}else{{ R0 }} W0",
            "F M0 C W1 if.{c}{{ F }} M1 C W0",
            "F M0 if.{c}{{ C }}else{{ M1 C }} W0",
            "@{c}:M0 F M0 C W0",
            "F @{c}:M0 M1 C W0",
            "F M0 @{c}:M0 C W0",
            "F M0 C @{c}:MOV0 W0",
            "F M0 C @{c}:R0 W0",
            "F M0 M0 @{c}:C @{c}:W0 R0",
        ]:
            yield Kernel(program.format(c=condition)), ()
    # A wgmma under a divergent guard, at each place of a stage: alone, before and after
    # independent wgmma, chained to a later one, two guarded, in loops and branches.
    for program, guard in itertools.product(
        [
            "F {g}M0 C W0",
            "F {g}M0 M1 C W0",
            "F M0 {g}M1 C W0",
            "F {g}M0 M1 M2 C W0",
            "F M0 {g}M1 M2 C W0",
            "F {g}M0 M0 C W0",
            "F {g}M0 M1 M0 C W0",
            "F {g}M0 {g}M1 C W0",
            "F {g}M0.a M1 C W0",
            "F {g}M0 M1 C W0 F M2 C W0",
            "F {g}M0 M1 C R1 W0",
            "loop.u{{ F {g}M0 M1 C W0 }}",
            "loop.k{{ F {g}M0 C W0 }}",
            "if.u{{ F {g}M0 M1 C W0 }}",
            # chained to the next wgmma: its group's wait covers the guarded one's
            "F {g}M0 M0 M0 C W0",
            "F {g}M0 {g}M0 M0 C W0",
            "F {g}M0 @u:M0 C W0",
            "F {g}M0 M0.z C W0",
            "F {g}M0 M0.a C W0",
            "F {g}M0 M0 C R0 W0",
            "loop.u{{ F {g}M0 M0 C W0 }}",
            "loop.k{{ F {g}M0 M0 C W0 }}",
        ],
        ["@!d:", "@d:"],
    ):
        if program.format(g=guard) != "F @d:M0 M1 C W0":  # predication_089
            yield Kernel(program.format(g=guard)), ()


def loops() -> Iterator[tuple[Kernel, tuple[str, ...]]]:
    """Back edges, never-exiting loops, early exits, accumulators partly stored in loops."""
    for kind in ["k", "u", "d"]:
        for program in [
            "loop.{k}{{ F M0 C W0 }}",
            "loop.{k}{{ F M0 C W1 }} W0",
            "loop.{k}{{ F M0 C }} W0",
            "loop.{k}{{ F M0 C }}",
            "loop.{k}{{ F M0 C W0 R0 }}",
            "loop.{k}{{ F M0 C R0 }} W0",
            "loop.{k}{{ F M0 C W1 R0 }} W0",
            "loop.{k}{{ R0 F M0 C }} W0",
            "loop.{k}{{ F M0 C W0 V0 }}",
            "loop.{k}{{ F M0 M1 C W1 R1 }} W0",
            "F M0 C loop.{k}{{ R0 }} W0",
            "F M0 C loop.{k}{{ W0 R0 }}",
            "loop.{k}{{ F M0 C W0 MOV0 }}",
            "loop.{k}{{ F M0 C @d:ret W0 }}",
            "loop.{k}{{ F M0 C break.u W0 }}",
            "loop.{k}{{ F M0 C break.d W0 }}",
            "loop.{k}{{ F M0 C W0 break.d }} R0",
            "loop.{k}{{ F M0 C W1 break.u }} W0 R0",
            "F loop.{k}{{ M0 }} C W0",
            "loop.{k}{{ F M0 M0 C W0 }}",
            "loop.{k}{{ F M0.z M0 C W0 R0 }}",
            "loop.{k}{{ F M0 C W0 }} loop.{k}{{ F M1 C W0 }}",
        ]:
            yield Kernel(program.format(k=kind)), ()
    for program in [
        "loop.{k}{{ F M0.z C W0 MOV0 }}",
        "loop.{k}{{ F M0.z C W0 }} MOV0",
        "loop.{k}{{ F M0.z C W0 RMW0 }}",
        "loop.{k}{{ MOV0 F M0.z C W0 }}",
        "loop.{k}{{ F M0.z M1 C W1 MOV0 }} W0",
    ]:
        for kind in ["k", "u"]:
            yield Kernel(program.format(k=kind)), ()
    for program in [
        "loop.u{ F M0 C W0 R0 }",
        "loop.u{ F M0 C W1 R0 } W0",
        "loop.u{ F M0 C W1 } W0 R0",
        "loop.u{ F M0.z C W0 } R0",
    ]:
        yield Kernel(program, store=False), ()
    for program in [
        "forever{ F M0 C W0 R0 }",
        "forever{ F M0 C R0 }",
        "forever{ F M0 C W1 R0 }",
        "forever{ F M0 C W0 }",
        "forever{ F M0 C W0 break.u } V0",
        "forever{ F M0 C W0 break.d } V0",
        "F M0 C forever{ R0 }",
        "forever{ R0 F M0 C }",
    ]:
        yield Kernel(program), ()


def exits() -> Iterator[tuple[Kernel, tuple[str, ...]]]:
    """`ret` / `exit` inside a stage, after its commit, predicated or on divergent paths."""
    for leave in ["ret", "exit"]:
        for program in [
            "F M0 {x}",
            "F M0 C {x}",
            "F M0 C @u:{x} W0",
            "F M0 C @d:{x} W0",
            "F M0 @u:{x} M0 C W0",
            "F M0 @d:{x} M0 C W0",
            "F M0 C W1 @d:{x} W0",
            "F M0 C if.d{{ {x} }} W0",
            "F M0 C if.u{{ {x} }} W0",
            "F M0 C W0 @d:{x} F M0 C W0",
            "@d:{x} F M0 C W0",
            "F M0 M1 C {x}",
        ]:
            yield Kernel(program.format(x=leave)), ()


def overlap() -> Iterator[tuple[Kernel, tuple[str, ...]]]:
    """Accumulator vectors that overlap between wgmma, and reads between two wgmma."""
    for first, second in [
        ("M0", "M0.p"),
        ("M0", "M0.h"),
        ("M0", "M0.s"),
        ("M0.s", "M0"),
        ("M0.p", "M0"),
        ("M0.z", "M0.p"),
        ("M0.z", "M0.h"),
    ]:
        for between in ["", "C", "C W0", "CP0", "ADD0"]:
            tokens = ["F", first, *between.split(), second, "C", "W0"]
            yield Kernel(" ".join(tokens), n=16), ()


def register_a() -> Iterator[tuple[Kernel, tuple[str, ...]]]:
    """An A fragment from registers rewritten at each point of its stage."""
    for scale in ["", ".z", ".o"]:
        mma = f"M0{scale}a" if scale else "M0.a"
        if scale:
            mma = f"M0.{scale[1:]}a"
        for program in [
            f"F {mma} C AF W0",
            f"F {mma} AF M0.a C W0",
            f"F {mma} C W0 AF F M0.a C W0",
            f"F {mma} C W1 AF F M0.a C W0",
            f"F {mma} AF C W0",
            f"AF F {mma} C W0",
        ]:
            yield Kernel(program), ()


def pressure() -> Iterator[tuple[Kernel, tuple[str, ...]]]:
    """Several large accumulators, straight or in a main loop, under register limits."""
    shapes = [(256, 1), (128, 2), (192, 2), (64, 4), (96, 4), (64, 6), (256, 2)]
    placements = {
        "straight": "F {m} C W0",
        "loop": "loop.u{{ F {m} C W0 }}",
        "pipelined": "loop.u{{ F {m} C W1 }} W0",
        "read in loop": "loop.u{{ F {m} C {r} W0 }}",
        "read after wait 1": "loop.u{{ F {m} C W1 {r} }} W0",
    }
    for (n, sets), (placement, program) in itertools.product(
        shapes, placements.items()
    ):
        mmas = " ".join(f"M{s}" for s in range(sets))
        reads = " ".join(f"R{s}" for s in range(sets))
        limits = (
            [0, 232, 168, 136]
            if placement in ("straight", "loop", "pipelined")
            else [0, 200, 168]
        )
        for limit in limits:
            args = (f"-maxrregcount={limit}",) if limit else ()
            yield Kernel(program.format(m=mmas, r=reads), n=n), args


def setmaxnreg() -> Iterator[tuple[Kernel, tuple[str, ...]]]:
    """Register budgets that follow `setmaxnreg` rather than `.maxnreg`."""
    for (n, sets), (maxnreg, action) in itertools.product(
        [(192, 2), (128, 2), (256, 1), (64, 4)],
        [
            (168, "inc 232"),
            (128, "inc 232"),
            (168, "inc 200"),
            (232, "dec 168"),
            (0, "inc 232"),
        ],
    ):
        mmas = " ".join(f"M{s}" for s in range(sets))
        for program in [f"loop.u{{ F {mmas} C W1 }} W0", f"F {mmas} C W0"]:
            yield Kernel(program, n=n, maxnreg=maxnreg, setmaxnreg=action), ()


def flags() -> Iterator[tuple[Kernel, tuple[str, ...]]]:
    """The same kernels under the flags that change what ptxas's GMMA phases do."""
    programs = [
        Kernel("F M0 M0 C W0"),
        Kernel("F M0 M1 C W0"),
        Kernel("F M0 C R0 W0"),
        Kernel("F M0 C F M1 C W1 R0 W0"),
        Kernel("loop.u{ F M0 C W1 } W0"),
        Kernel("loop.u{ F M0 M1 C W1 } W0", n=64),
        Kernel("loop.k{ F M0 C W0 }"),
        Kernel("F M0.a C W0"),
        Kernel("F M0.z M0 C W0 MOV0"),
        Kernel("F M0 call.nop M0 C W0"),
        Kernel("if.d{ F M0 C W0 } R0"),
    ]
    yield from itertools.product(
        programs,
        [
            ("-O0",),
            ("-O1",),
            ("-O2",),
            ("-g",),
            ("--Ofast-compile=max",),
            ("--Ofast-compile=mid",),
            ("--Ofast-compile=min",),
            ("-O0", "-c"),
        ],
    )


def several_kernels() -> Iterator[tuple[tuple[Kernel, ...], tuple[str, ...]]]:
    """Several entries in one file: ptxas reports the functions last to first."""
    programs = [
        "F M0 C R0 W0",
        "F M0 MOV0 M0 C W0",
        "F M0 M0 C W0",
        "F M0 C @d:ret W0",
        "F M0.z M0 C W0 MOV0",
        "F M0 call.nop M0 C W0",
    ]
    for first, second in itertools.permutations(programs, 2):
        yield (Kernel(first, name="k0"), Kernel(second, name="k1")), ()
    for first, second, third in [(0, 1, 2), (1, 0, 3), (3, 4, 0)]:
        yield (
            (
                Kernel(programs[first], name="k0"),
                Kernel(programs[second], name="k1"),
                Kernel(programs[third], name="k2"),
            ),
            (),
        )


FAMILIES = {
    "positions": positions,
    "calls": calls,
    "predication": predication,
    "loops": loops,
    "exits": exits,
    "overlap": overlap,
    "register_a": register_a,
    "pressure": pressure,
    "setmaxnreg": setmaxnreg,
    "flags": flags,
}


def cases() -> list[Case]:
    """Every case of every family, in a fixed order."""
    result: list[Case] = []
    for family, generate in FAMILIES.items():
        for index, (kernel, args) in enumerate(generate()):
            result.append(Case(family, index, (kernel,), args))
    for index, (kernels, args) in enumerate(several_kernels()):
        result.append(Case("several", index, kernels, args))
    return result


def write_corpus(directory: Path = FAMILIES_DIR) -> list[Path]:
    """Write every case as `name.ptx` (the `// RUN:` exit status still to be recorded)."""
    directory.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for case in cases():
        path = directory / f"{case.name}.ptx"
        path.write_text(case.text())
        paths.append(path)
    return paths
