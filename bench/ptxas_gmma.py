"""Time `-p ptxas-gmma` (phases 85 and 87) against the real ptxas on the same kernels.

    .venv/bin/python bench/ptxas_gmma.py [SIZE ...]        # default: 1000 5000 20000
    .venv/bin/python bench/ptxas_gmma.py --no-ptxas 1000 5000 20000 50000
    .venv/bin/python bench/ptxas_gmma.py --profile 5000    # cProfile of the pipeline

Two generated kernels of SIZE instructions each:

- `stages`: `ptx_roundtrip.py`'s Hopper-GEMM instruction mix, one block per chunk, each with
  a complete fence / wgmma / commit / wait stage (clean: nothing to inject);
- `in-flight`: chunks whose stage is committed but not waited for before its accumulators
  are stored, so the pipeline injects a wait (C7517) in every chunk and rewrites the IR.

For each it reports the CPU seconds of reading the PTX into ori (the floor a user already
pays), of the pipeline, the pipeline's microseconds per instruction (flat when the passes
are linear in the size of the function), and ptxas's own CPU seconds on the same file.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

from ptx_roundtrip import chunk_registers, generate, time_ptxas
from xdsl.context import Context

from tileas_py.diagnostics import collect_diagnostics
from tileas_py.pipelines import PtxasGmmaPipeline
from tileas_py.ptx.reader import read_ptx

IN_FLIGHT_CHUNK = """\t// chunk {i}
\tadd.s32 %r{x}, %r1, {i};
\tsetp.lt.u32 %p1, %r{x}, %r2;
\tmul.wide.u32 %rd{q}, %r{x}, 4;
\tadd.s64 %rd{q}, %rd2, %rd{q};
\tadd.s64 %rd3, %rd3, 2;
\twgmma.fence.sync.aligned;
\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{%f{a}, %f{b}, %f{c}, %f{d}}}, %rd3, %rd4, 1, 1, 1, 0, 0;
\twgmma.commit_group.sync.aligned;
\t@%p1 st.global.f32 [%rd{q}], %f{e};
\tst.global.v4.f32 [%rd{q}+16], {{%f{a}, %f{b}, %f{c}, %f{d}}};
\t@%p1 bra $L__chunk{i};
\tadd.f32 %f{e}, %f{e}, 0f3F800000;
$L__chunk{i}:
"""
IN_FLIGHT_INSTRUCTIONS = 12


def generate_in_flight(size: int) -> str:
    chunks = max(1, size // IN_FLIGHT_INSTRUCTIONS)
    body = [
        IN_FLIGHT_CHUNK.format(**chunk_registers(i), x=4 + i) for i in range(chunks)
    ]
    return f"""\
.version 8.7
.target sm_90a
.address_size 64

.visible .entry in_flight(
\t.param .u64 in_flight_param_0,
\t.param .u32 in_flight_param_1
)
{{
\t.reg .pred %p<2>;
\t.reg .f32 %f<{5 * chunks + 9}>;
\t.reg .b32 %r<{chunks + 6}>;
\t.reg .b64 %rd<{chunks + 6}>;
\tld.param.u64 %rd1, [in_flight_param_0];
\tld.param.u32 %r2, [in_flight_param_1];
\tmov.u32 %r1, %tid.x;
\tcvta.to.global.u64 %rd2, %rd1;
\tmov.b64 %rd3, 0;
\tmov.b64 %rd4, 0;
{"".join(body)}\tret;
}}
"""


KERNELS = {"stages": generate, "in-flight": generate_in_flight}


def run_pipeline(text: str) -> tuple[float, float, int]:
    """(read seconds, pipeline seconds, messages printed)."""
    start = time.process_time()
    module = read_ptx(text, "generated.ptx")
    read = time.process_time() - start
    start = time.process_time()
    with collect_diagnostics() as diagnostics:
        PtxasGmmaPipeline().apply(Context(), module)
    return read, time.process_time() - start, len(diagnostics)


def count_instructions(text: str) -> int:
    return sum(
        1
        for line in text.splitlines()
        if line.startswith("\t")
        and not line.startswith(("\t.", "\t//", "\t{", "\t}"))
        and line.strip()
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="-p ptxas-gmma against ptxas")
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 5000, 20000])
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--no-ptxas", action="store_true")
    args = parser.parse_args()
    if args.profile:
        module = read_ptx(generate_in_flight(args.sizes[0]), "generated.ptx")
        profile = cProfile.Profile()
        with collect_diagnostics():
            profile.runcall(PtxasGmmaPipeline().apply, Context(), module)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
        return
    print(
        f"{'kernel':>10} {'instructions':>12} {'read s':>8} {'gmma s':>8} "
        f"{'us/inst':>8} {'messages':>8} {'ptxas s':>8} {'gmma/ptxas':>10}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in KERNELS.items():
            for size in args.sizes:
                text = make(size)
                count = count_instructions(text)
                read, gmma, messages = run_pipeline(text)
                line = (
                    f"{name:>10} {count:>12} {read:>8.3f} {gmma:>8.3f} "
                    f"{1e6 * gmma / count:>8.1f} {messages:>8}"
                )
                if not args.no_ptxas:
                    path = Path(tmp) / f"{name}_{size}.ptx"
                    path.write_text(text)
                    ptxas = time_ptxas(path)
                    line += f" {ptxas:>8.3f} {gmma / ptxas:>10.2f}"
                print(line)
                sys.stdout.flush()


if __name__ == "__main__":
    main()
