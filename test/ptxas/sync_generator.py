"""Random small synchronization kernels, for the differential test of `-t sass-sync`.

A generated sm_90a kernel runs a random structured body, nested at most two levels, of:

- CTA barriers: `bar.sync 0`, a named `bar.sync 1, 64`, `bar.arrive 2, 64`;
- full-mask warp-level syncs whose result is stored: `shfl.sync.bfly`, `vote.sync.ballot`,
  `bar.warp.sync`;
- memory barriers and fences: `membar.cta`, `membar.gl`, `fence.acq_rel.gpu`, `fence.sc.cta`;
- mbarriers: `mbarrier.init` of one of four, `mbarrier.arrive`;
- plain code: a shared or global store, an add;
- an `if` (a forward branch around a body), an `if` / `else`, or a counted loop (marked
  `nounroll`: unrolling is not a sync phase), each on a uniform (parameter-derived) or a
  divergent (`%tid.x`-derived) condition, and now and then an early `ret` under a
  divergent condition.

Every kernel is valid PTX that ptxas 13.5 assembles with `-arch=sm_90a`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

_HEADER = """\
.version 8.5
.target sm_90a
.address_size 64

.visible .entry k(
\t.param .u64 out,
\t.param .u32 n
)
{
\t.reg .b32 %r<128>;
\t.reg .pred %p<64>;
\t.reg .b64 %rd<64>;
\t.shared .align 8 .b64 bars[4];
\t.shared .align 4 .b32 buf[256];
\tld.param.u64 %rd1, [out];
\tld.param.u32 %r1, [n];
\tmov.u32 %r2, %tid.x;
\tmov.u32 %r3, buf;
"""


@dataclass(frozen=True)
class GeneratedKernel:
    text: str
    summary: frozenset[str]
    """The kinds of statement the kernel has (`bar`, `shfl`, `if-tid`, ...)."""


@dataclass
class _Generator:
    rng: random.Random
    lines: list[str] = field(default_factory=list[str])
    summary: set[str] = field(default_factory=set[str])
    registers: int = 10
    predicates: int = 1
    labels: int = 0

    def register(self, prefix: str = "%r") -> str:
        self.registers += 1
        return f"{prefix}{self.registers}"

    def predicate(self) -> str:
        self.predicates += 1
        return f"%p{self.predicates}"

    def label(self, name: str) -> str:
        self.labels += 1
        return f"{name.upper()}_{self.labels}"

    def emit(self, text: str) -> None:
        self.lines.append(f"\t{text}")

    def body(self, depth: int) -> None:
        for _ in range(self.rng.randint(1, 4 if depth < 2 else 2)):
            self.statement(depth)

    def statement(self, depth: int) -> None:
        kinds = ["sync"] * 5 + ["code"] * 2
        if depth < 2:
            kinds += ["if", "if", "else", "loop"]
        kind = self.rng.choice(kinds)
        if kind == "sync":
            self.sync()
        elif kind == "code":
            self.code()
        else:
            self.control(kind, depth)

    def sync(self) -> None:
        choice = self.rng.choice(
            [
                "bar",
                "bar",
                "bar-named",
                "bar-arrive",
                "shfl",
                "vote",
                "warp-sync",
                "membar-cta",
                "membar-gl",
                "fence",
                "fence-sc-cta",
                "mbarrier-init",
                "mbarrier-arrive",
            ]
        )
        self.summary.add(choice)
        if choice == "bar":
            self.emit("bar.sync 0;")
        elif choice == "bar-named":
            self.emit("bar.sync 1, 64;")
        elif choice == "bar-arrive":
            self.emit("bar.arrive 2, 64;")
        elif choice == "shfl":
            value = self.register()
            self.emit(f"shfl.sync.bfly.b32 {value}, %r2, 1, 31, -1;")
            self.emit(f"st.global.u32 [%rd1+{4 * self.registers}], {value};")
        elif choice == "vote":
            flag, value = self.predicate(), self.register()
            self.emit(f"setp.ne.u32 {flag}, %r2, {self.rng.randint(0, 63)};")
            self.emit(f"vote.sync.ballot.b32 {value}, {flag}, -1;")
            self.emit(f"st.global.u32 [%rd1+{4 * self.registers}], {value};")
        elif choice == "warp-sync":
            self.emit("bar.warp.sync -1;")
        elif choice == "membar-cta":
            self.emit("membar.cta;")
        elif choice == "membar-gl":
            self.emit("membar.gl;")
        elif choice == "fence":
            self.emit("fence.acq_rel.gpu;")
        elif choice == "fence-sc-cta":
            self.emit("fence.sc.cta;")
        elif choice == "mbarrier-init":
            bar = self.rng.randrange(4)
            self.emit(f"mbarrier.init.shared::cta.b64 [bars+{8 * bar}], 32;")
        else:
            state = self.register("%rd")
            bar = self.rng.randrange(4)
            self.emit(f"mbarrier.arrive.shared::cta.b64 {state}, [bars+{8 * bar}];")

    def code(self) -> None:
        choice = self.rng.choice(["st-shared", "st-global", "add"])
        self.summary.add(choice)
        if choice == "st-shared":
            self.emit(f"st.shared.u32 [%r3+{4 * self.rng.randrange(64)}], %r2;")
        elif choice == "st-global":
            self.emit(f"st.global.u32 [%rd1+{4 * self.rng.randrange(64)}], %r2;")
        else:
            value = self.register()
            self.emit(f"add.u32 {value}, %r2, %r1;")
            self.emit(f"st.global.u32 [%rd1+{4 * self.registers}], {value};")

    def condition(self, divergent: bool) -> str:
        flag = self.predicate()
        source = "%r2" if divergent else "%r1"
        self.emit(f"setp.lt.u32 {flag}, {source}, {self.rng.choice([1, 32, 64, 100])};")
        return flag

    def control(self, kind: str, depth: int) -> None:
        divergent = self.rng.random() < 0.6
        suffix = "-tid" if divergent else ""
        self.summary.add(kind + suffix)
        if kind == "loop":
            counter, flag = self.register(), self.predicate()
            head = self.label("loop")
            self.emit(f"mov.u32 {counter}, 0;")
            self.lines.append(f"{head}:")
            # Unrolling is not a sync phase; ptxas keeps a `nounroll` loop as it is.
            self.emit('.pragma "nounroll";')
            self.body(depth + 1)
            self.emit(f"add.u32 {counter}, {counter}, 1;")
            bound = "%r2" if divergent else "%r1"
            self.emit(f"setp.lt.u32 {flag}, {counter}, {bound};")
            self.emit(f"@{flag} bra {head};")
            return
        flag = self.condition(divergent)
        skip = self.label("skip")
        self.emit(f"@{flag} bra {skip};")
        self.body(depth + 1)
        if kind == "else":
            join = self.label("join")
            self.emit(f"bra.uni {join};")
            self.lines.append(f"{skip}:")
            self.body(depth + 1)
            self.lines.append(f"{join}:")
        else:
            if divergent and self.rng.random() < 0.15:
                self.summary.add("early-ret")
                self.emit("ret;")
            self.lines.append(f"{skip}:")


def generate(seed: int) -> GeneratedKernel:
    """The kernel of `seed` (the same text for the same seed)."""
    generator = _Generator(random.Random(seed))
    generator.body(0)
    text = _HEADER + "\n".join(generator.lines) + "\n\tret;\n}\n"
    return GeneratedKernel(text, frozenset(generator.summary))
