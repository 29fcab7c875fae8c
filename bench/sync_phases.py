"""Time each sync phase of `ptxas-pipeline` against the real ptxas on the same file.

    .venv/bin/python bench/sync_phases.py [SIZE ...]           # default: 1000 5000 20000
    .venv/bin/python bench/sync_phases.py --aggressive 20000   # every knob on
    .venv/bin/python bench/sync_phases.py --profile 5000       # cProfile of the phases

The kernel is generated, SIZE instructions of a synchronization-heavy mix: shared-memory
traffic between repeated CTA barriers, gpu-scope membars, cp.async groups, an mbarrier
arrive and try_wait spin loop, and a shuffle in a branch on %tid.x (divergence) per chunk;
a second function makes phase 26 run (`--aggressive` turns its removal on).
Each phase should scale linearly, so its microseconds per instruction stay flat.

Times are CPU seconds (this process for the phases, the child for ptxas, which assembles
the kernel as read, with every phase of its own). The phases run with the cyclic garbage
collector paused, as `ptxas-pipeline` runs them.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

from ptx_roundtrip import time_ptxas
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from tileas_py.diagnostics import collect_diagnostics
from tileas_py.paused_gc import paused_gc
from tileas_py.pipelines import PtxasPipelinePass
from tileas_py.ptx.reader import read_ptx
from tileas_py.ptx.sass_listing import sync_sass

CHUNK = """\t// chunk {i}
\tst.shared.u32 [%r3+{off}], %r{x};
\tbar.sync 0;
\tld.shared.u32 %r{y}, [%r3+{off2}];
\tbar.sync 0;
\tadd.u32 %r{x2}, %r{y}, {i};
\tmembar.gl;
\tcp.async.ca.shared.global [%r3+{off}], [%rd1+{off}], 4;
\tcp.async.commit_group;
\tcp.async.wait_group 0;
\tsetp.lt.u32 %p1, %r1, {lane};
\t@%p1 bra $L__skip{i};
\tshfl.sync.bfly.b32 %r{y}, %r{x2}, 1, 31, 65535;
\tst.global.u32 [%rd1+{off}], %r{y};
$L__skip{i}:
\tmbarrier.arrive.shared::cta.b64 %rd2, [%r4];
$L__wait{i}:
\tmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r4], 0;
\t@!%p2 bra $L__wait{i};
"""
INSTRUCTIONS_PER_CHUNK = 16


def generate(size: int) -> str:
    """A valid sm_90a kernel of about `size` instructions."""
    chunks = max(1, size // INSTRUCTIONS_PER_CHUNK)
    body = [
        CHUNK.format(
            i=i,
            x=5 + 2 * i,
            y=6 + 2 * i,
            x2=7 + 2 * i,
            off=4 * (i % 64),
            off2=4 * ((i + 1) % 64),
            lane=i % 32,
        )
        for i in range(chunks)
    ]
    return f"""\
.version 8.7
.target sm_90a
.address_size 64

.func helper()
{{
\tret;
}}

.visible .entry generated(.param .u64 generated_param_0)
{{
\t.reg .pred %p<3>;
\t.reg .b32 %r<{2 * chunks + 8}>;
\t.reg .b64 %rd<3>;
\t.shared .align 8 .b8 smem[512];
\t.shared .align 8 .b64 bar;
\tld.param.u64 %rd1, [generated_param_0];
\tmov.u32 %r1, %tid.x;
\tmov.u32 %r3, smem;
\tmov.u32 %r4, bar;
\tmov.u32 %r5, 0;
\tmbarrier.init.shared::cta.b64 [%r4], 128;
{"".join(body)}\tret;
}}
"""


def run_phases(
    module: ModuleOp, pipeline: PtxasPipelinePass
) -> list[tuple[str, float]]:
    """CPU seconds of each phase, in order."""
    ctx = Context()
    times: list[tuple[str, float]] = []
    with collect_diagnostics(), paused_gc():
        for phase in pipeline.passes():
            start = time.process_time()
            phase.apply(ctx, module)
            times.append((phase.name, time.process_time() - start))
    start = time.process_time()
    sync_sass(module)
    times.append(("-t sass-sync", time.process_time() - start))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description="sync phases against ptxas")
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 5000, 20000])
    parser.add_argument("--aggressive", action="store_true")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--no-ptxas", action="store_true")
    args = parser.parse_args()
    pipeline = PtxasPipelinePass()
    if args.aggressive:
        pipeline = PtxasPipelinePass(
            sync_mode=3, assume_extern_functions_do_not_sync=True, stage_and_fence=True
        )
    if args.profile:
        module = read_ptx(generate(args.sizes[0]), "generated.ptx")
        profile = cProfile.Profile()
        profile.runcall(run_phases, module, pipeline)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            text = generate(size)
            count = INSTRUCTIONS_PER_CHUNK * max(1, size // INSTRUCTIONS_PER_CHUNK) + 7
            start = time.process_time()
            module = read_ptx(text, "generated.ptx")
            read = time.process_time() - start
            phases = run_phases(module, pipeline)
            total = sum(t for _, t in phases)
            print(f"{count} instructions: read {read:.3f} s")
            for name, seconds in phases:
                print(
                    f"  {name:32} {seconds:8.3f} s {1e6 * seconds / count:8.1f} us/inst"
                )
            line = (
                f"  {'all phases':32} {total:8.3f} s {1e6 * total / count:8.1f} us/inst"
            )
            if not args.no_ptxas:
                path = Path(tmp) / f"generated_{size}.ptx"
                path.write_text(text)
                ptxas = time_ptxas(path)
                line += f"   ptxas {ptxas:.3f} s, phases / ptxas {total / ptxas:.2f}"
            print(line)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
