"""Random small WGMMA pipelines, for the differential test of `-p ptxas-gmma` against ptxas.

A generated kernel loads one to three m64n8k16 f32 accumulator sets (four registers each)
from memory, runs a random structured body, and stores every set at the end. The body is a
sequence of statements, nested at most two levels:

- a stage: `wgmma.fence`, one to three `wgmma.mma_async` (each on a random set, with its own
  A and B descriptors, scale-d `%p1`, 1 or 0), a random event between two wgmma now and
  then, and a `wgmma.commit_group` (rarely left out, or the fence);
- `wgmma.wait_group N` (N 0, 1 or 2);
- an event: a read (`st.global.f32` of an accumulator), a read-modify-write (`add.f32`), a
  write (`mov.f32`), any of them predicated now and then on a uniform or a tid-dependent
  predicate, or a call (`call.uni` of an `.extern .func`, of a defined `.func`, or of a
  defined `.func` that runs a wgmma stage itself);
- an `if` (a forward branch around a body) or a counted `loop` (a back edge), each on a
  uniform (parameter-derived) or a divergent (`%tid.x`-derived) condition.

Every kernel is valid PTX that ptxas 13.5 assembles; `GeneratedKernel.args` are the ptxas
flags it is meant for (`-c` when it calls an `.extern .func`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

_HEADER = """\
.version 8.5
.target sm_90a
.address_size 64
"""

_EXTERN = ".extern .func ext();\n"

_NOP_FUNC = """\
.func nop(.param .b64 ptr)
{
\t.reg .b64 %rd<2>;
\tld.param.b64 %rd1, [ptr];
\tst.global.u32 [%rd1+2048], 7;
\tret;
}
"""

_WGMMA_FUNC = """\
.func tile(.param .b64 ptr)
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
"""


@dataclass
class GeneratedKernel:
    seed: int
    text: str
    args: tuple[str, ...]
    summary: list[str] = field(default_factory=list[str])
    """One word per statement, for test ids and failure messages."""


class _Generator:
    def __init__(self, seed: int, divergent: bool = True) -> None:
        self.rng = random.Random(seed)
        self.divergent = divergent
        self.sets = self.rng.randint(1, 3)
        self.lines: list[str] = []
        self.labels = 0
        self.counters = 0
        self.calls: set[str] = set()
        self.summary: list[str] = []

    def label(self) -> str:
        self.labels += 1
        return f"$L_{self.labels}"

    def emit(self, line: str) -> None:
        self.lines.append(f"\t{line}")

    def accumulator(self) -> str:
        index = 1 + 4 * self.rng.randrange(self.sets) + self.rng.randrange(4)
        return f"%f{index}"

    def predicate(self) -> str:
        return self.rng.choice(["", "", "", "@%p1 ", "@%p2 "])

    def is_divergent(self) -> bool:
        """Whether the next branch depends on %tid (always False without divergence)."""
        return self.rng.random() < 0.5 and self.divergent

    def event(self) -> None:
        kind = self.rng.choice(["read", "read", "rmw", "rmw", "write", "call"])
        self.summary.append(kind)
        reg = self.accumulator()
        if kind == "read":
            offset = 512 + 4 * self.rng.randrange(64)
            self.emit(f"{self.predicate()}st.global.f32 [%rd3+{offset}], {reg};")
        elif kind == "rmw":
            self.emit(f"{self.predicate()}add.f32 {reg}, {reg}, 0f3F800000;")
        elif kind == "write":
            self.emit(f"{self.predicate()}mov.f32 {reg}, 0f40000000;")
        else:
            callee = self.rng.choice(["ext", "nop", "nop", "tile"])
            self.calls.add(callee)
            if callee == "ext":
                self.emit("call.uni ext;")
            else:
                self.emit("{")
                self.emit(".param .b64 param0;")
                self.emit("st.param.b64 [param0], %rd3;")
                self.emit(f"call.uni {callee}, (param0);")
                self.emit("}")

    def wgmma(self) -> None:
        first = 1 + 4 * self.rng.randrange(self.sets)
        accumulators = ", ".join(f"%f{first + i}" for i in range(4))
        scale = self.rng.choice(["%p1", "%p1", "1", "0"])
        # The A descriptor advances before every wgmma, as along a K loop, so that no two
        # wgmma (nor two iterations of one) have the same inputs.
        self.emit("add.s64 %rd5, %rd5, 2;")
        self.emit(
            "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
            f"{{{accumulators}}}, %rd5, %rd2, {scale}, 1, 1, 0, 0;"
        )

    def stage(self) -> None:
        self.summary.append("stage")
        self.emit("wgmma.fence.sync.aligned;")
        for _ in range(self.rng.randint(1, 3)):
            self.wgmma()
        self.emit("wgmma.commit_group.sync.aligned;")

    def statement(self, depth: int) -> None:
        roll = self.rng.random()
        if roll < 0.35:
            self.stage()
        elif roll < 0.55:
            pending = self.rng.choice([0, 0, 0, 1, 2])
            self.summary.append(f"wait{pending}")
            self.emit(f"wgmma.wait_group.sync.aligned {pending};")
        elif roll < 0.8 or depth >= 2:
            self.event()
        elif roll < 0.9:
            divergent = self.is_divergent()
            self.summary.append("if-tid" if divergent else "if")
            end = self.label()
            guard = "%p2" if divergent else "%p1"
            self.emit(f"@!{guard} bra {end};")
            self.body(depth + 1)
            self.lines.append(f"{end}:")
        else:
            divergent = self.is_divergent()
            self.summary.append("loop-tid" if divergent else "loop")
            self.counters += 1
            counter = f"%r{10 + self.counters}"
            head = self.label()
            self.emit(f"mov.u32 {counter}, 0;")
            self.lines.append(f"{head}:")
            self.body(depth + 1)
            self.emit(f"add.s32 {counter}, {counter}, 1;")
            bound = "%r3" if divergent else "4"
            self.emit(f"setp.lt.u32 %p3, {counter}, {bound};")
            self.emit(f"@%p3 bra {head};")

    def body(self, depth: int) -> None:
        for _ in range(self.rng.randint(1, 4 if depth == 0 else 3)):
            self.statement(depth)

    def kernel(self) -> str:
        self.body(0)
        if self.rng.random() < 0.7:
            self.emit("wgmma.wait_group.sync.aligned 0;")
        stores = [
            f"st.global.v4.f32 [%rd3+{64 * s}], "
            f"{{%f{4 * s + 1}, %f{4 * s + 2}, %f{4 * s + 3}, %f{4 * s + 4}}};"
            for s in range(self.sets)
        ]
        loads = [
            f"ld.global.v4.f32 "
            f"{{%f{4 * s + 1}, %f{4 * s + 2}, %f{4 * s + 3}, %f{4 * s + 4}}}, "
            f"[%rd3+{64 * s}];"
            for s in range(self.sets)
        ]
        prologue = [
            "ld.param.u64 %rd1, [desc_a];",
            "ld.param.u64 %rd2, [desc_b];",
            "ld.param.u64 %rd3, [out];",
            "mov.b64 %rd5, %rd1;",
            "ld.param.u32 %r1, [accumulate];",
            "setp.ne.u32 %p1, %r1, 0;",
            "mov.u32 %r2, %tid.x;",
            "and.b32 %r3, %r2, 7;",
            "setp.eq.u32 %p2, %r3, 0;",
            *loads,
        ]
        functions = ""
        if "ext" in self.calls:
            functions += _EXTERN + "\n"
        if "nop" in self.calls:
            functions += _NOP_FUNC + "\n"
        if "tile" in self.calls:
            functions += _WGMMA_FUNC + "\n"
        body = "\n".join(
            [*(f"\t{line}" for line in prologue), *self.lines]
            + [f"\t{line}" for line in stores]
        )
        return (
            f"{_HEADER}\n{functions}"
            ".visible .entry k(\n"
            "\t.param .u64 out,\n"
            "\t.param .u64 desc_a,\n"
            "\t.param .u64 desc_b,\n"
            "\t.param .u32 accumulate\n"
            ")\n{\n"
            "\t.reg .pred %p<4>;\n"
            "\t.reg .b32 %r<32>;\n"
            "\t.reg .b64 %rd<8>;\n"
            "\t.reg .f32 %f<16>;\n"
            f"{body}\n\tret;\n}}\n"
        )


def generate(seed: int, divergent: bool = True) -> GeneratedKernel:
    """The kernel of `seed`; the same seed always gives the same kernel. Without
    `divergent`, branches and loops depend only on kernel parameters."""
    generator = _Generator(seed, divergent)
    text = generator.kernel()
    compile_only = (
        "ext" in generator.calls or random.Random(seed * 7 + 1).random() < 0.25
    )
    args = ("-c",) if compile_only else ()
    return GeneratedKernel(seed, text, args, generator.summary)
