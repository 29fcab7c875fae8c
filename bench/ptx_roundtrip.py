"""Time PTX -> ori -> PTX against the real ptxas on the same file, at growing sizes.

    .venv/bin/python bench/ptx_roundtrip.py [SIZE ...]      # default: 1000 10000 50000
    .venv/bin/python bench/ptx_roundtrip.py --profile 10000  # cProfile of one round trip

The kernel is generated: a loop of straight-line blocks in the mix Hopper GEMMs have (vector
loads, integer and float arithmetic, predicated stores, shuffles, mbarrier waits with
scoped registers and labels, a WGMMA stage), SIZE instructions in all. Reading and writing
should both scale linearly, so the microseconds per instruction stay flat across sizes.

Times are CPU seconds (this process for reading and writing, the child for ptxas), which a
busy shared machine disturbs far less than wall-clock time. `--no-ptxas` skips ptxas, whose
time grows much faster than linearly (minutes at 50k instructions).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import subprocess
import sys
import tempfile
import time
from io import StringIO
from pathlib import Path

from tileas_py.ptx.reader import read_ptx
from tileas_py.ptx.toolchain import find_tool
from tileas_py.ptx.writer import write_ptx

CHUNK = """\t// chunk {i}
\tld.global.nc.v4.f32 {{%f{a}, %f{b}, %f{c}, %f{d}}}, [%rd1+{off}];
\tfma.rn.f32 %f{e}, %f{a}, %f{b}, 0f3F800000;
\tfma.rn.f32 %f{e}, %f{c}, %f{d}, %f{e};
\tadd.s32 %r{x}, %r1, {i};
\tsetp.lt.u32 %p1, %r{x}, %r2;
\tshfl.sync.bfly.b32 %r{y}|%p2, %r{x}, 1, 31, -1;
\tmul.wide.u32 %rd{q}, %r{y}, 4;
\tadd.s64 %rd{q}, %rd2, %rd{q};
\t@%p1 st.global.f32 [%rd{q}], %f{e};
\t{{
\t.reg .pred P1;
\tLAB_WAIT:
\tmbarrier.try_wait.parity.shared::cta.b64 P1, [%r3], 0;
\t@!P1 bra LAB_WAIT;
\t}}
\twgmma.fence.sync.aligned;
\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{%f0, %f1, %f2, %f3}}, %rd3, %rd4, 1, 1, 1, 0, 0;
\twgmma.commit_group.sync.aligned;
\twgmma.wait_group.sync.aligned 0;
$L__chunk{i}:
"""
INSTRUCTIONS_PER_CHUNK = 17


def chunk_registers(i: int) -> dict[str, int]:
    """Chunk `i`'s own registers: five floats `%f{a}` to `%f{e}` and `%rd{q}`."""
    floats = {name: 4 + k + 5 * i for k, name in enumerate("abcde")}
    return {"i": i, **floats, "q": 5 + i}


def generate(size: int) -> str:
    """A valid sm_90a kernel of about `size` instructions."""
    chunks = max(1, size // INSTRUCTIONS_PER_CHUNK)
    body = [
        CHUNK.format(**chunk_registers(i), x=4 + 2 * i, y=5 + 2 * i, off=16 * (i % 64))
        for i in range(chunks)
    ]
    return f"""\
.version 8.7
.target sm_90a
.address_size 64

.extern .shared .align 16 .b8 smem[];

.visible .entry generated(
\t.param .u64 generated_param_0,
\t.param .u32 generated_param_1
)
.reqntid 128
{{
\t.reg .pred %p<3>;
\t.reg .f32 %f<{5 * chunks + 9}>;
\t.reg .b32 %r<{2 * chunks + 6}>;
\t.reg .b64 %rd<{chunks + 6}>;
\tld.param.u64 %rd1, [generated_param_0];
\tld.param.u32 %r2, [generated_param_1];
\tmov.u32 %r1, %tid.x;
\tmov.u32 %r3, smem;
\tcvta.to.global.u64 %rd2, %rd1;
\tmov.b64 %rd3, 0;
\tmov.b64 %rd4, 0;
\tmov.f32 %f0, 0f00000000;
\tmov.f32 %f1, 0f00000000;
\tmov.f32 %f2, 0f00000000;
\tmov.f32 %f3, 0f00000000;
{"".join(body)}\tst.global.v4.f32 [%rd2], {{%f0, %f1, %f2, %f3}};
\tret;
}}
"""


def round_trip(text: str) -> tuple[float, float, str]:
    start = time.process_time()
    module = read_ptx(text, "generated.ptx")
    read = time.process_time() - start
    output = StringIO()
    start = time.process_time()
    write_ptx(module, output)
    write = time.process_time() - start
    return read, write, output.getvalue()


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_ptxas(path: Path) -> float:
    ptxas = find_tool("ptxas")
    if ptxas is None:
        raise SystemExit("ptxas not found: pip install nvidia-cuda-nvcc==13.5.37")
    start = children_cpu()
    subprocess.run(
        [str(ptxas), "-arch=sm_90a", str(path), "-o", str(path.with_suffix(".cubin"))],
        check=True,
        capture_output=True,
    )
    return children_cpu() - start


def main() -> None:
    parser = argparse.ArgumentParser(description="PTX -> ori -> PTX against ptxas")
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 10000, 50000])
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--no-ptxas", action="store_true")
    args = parser.parse_args()
    if args.profile:
        text = generate(args.sizes[0])
        profile = cProfile.Profile()
        profile.runcall(round_trip, text)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
        return
    print(
        f"{'instructions':>12} {'read s':>8} {'write s':>8} {'us/inst':>8} "
        f"{'ptxas s':>8} {'ratio':>6}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            text = generate(size)
            count = INSTRUCTIONS_PER_CHUNK * max(1, size // INSTRUCTIONS_PER_CHUNK) + 13
            read, write, printed = round_trip(text)
            path = Path(tmp) / f"generated_{size}.ptx"
            path.write_text(printed)
            ours = read + write
            line = f"{count:>12} {read:>8.3f} {write:>8.3f} {1e6 * ours / count:>8.1f}"
            if not args.no_ptxas:
                ptxas = time_ptxas(path)
                line += f" {ptxas:>8.3f} {ours / ptxas:>6.2f}"
            print(line)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
