"""Benchmark: convert-nvvm-to-ori on generated NVVM kernels of growing size.

The kernel repeats a step made of what NVVM GEMM kernels hold: an mbarrier wait (a retry
loop), TMA loads, address arithmetic, a branch with a block argument, a fence, four
mma_async threading one accumulator, a commit, a wait and an inline-asm snippet. It
reports CPU seconds to parse the MLIR, to run the pass, to print PTX, and for the real
ptxas to assemble the result.

    .venv/bin/python bench/convert_nvvm_to_ori.py               # 50 100 200 steps
    .venv/bin/python bench/convert_nvvm_to_ori.py --no-ptxas 100 200 400 800
"""

from __future__ import annotations

import argparse
import tempfile
import time
from io import StringIO
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from tileas_py.api import make_context
from tileas_py.passes.lowering.convert_nvvm_to_ori import ConvertNvvmToOriPass
from tileas_py.ptx.toolchain import run_ptxas
from tileas_py.ptx.writer import write_ptx

ACC = "!llvm.struct<(" + ", ".join(["f32"] * 32) + ")>"
SHAPE = "#nvvm.shape<m = 64, n = 64, k = 16>"
OPERANDS = (
    "D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], "
    "B [<f16>, #nvvm.wgmma_scale_in<one>, <col>]"
)


def step(i: int) -> str:
    previous = "zero" if i == 0 else f"acc{i - 1}_3"
    lines = [
        "    nvvm.mbarrier.try_wait.parity %bar, %parity, %ticks : !llvm.ptr<3>, i32, i32",
        f"    %col{i} = llvm.add %tid, %c{i % 7} : i32",
        f"    %p{i} = llvm.getelementptr %out[%col{i}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32",
        f"    %v{i} = llvm.load %p{i} : !llvm.ptr<1> -> f32",
        f'    %big{i} = llvm.fcmp "ogt" %v{i}, %half : f32',
        f"    llvm.cond_br %big{i}, ^s{i}a, ^s{i}b(%v{i} : f32)",
        f"  ^s{i}a:",
        f"    %w{i} = llvm.fmul %v{i}, %half : f32",
        f"    llvm.br ^s{i}b(%w{i} : f32)",
        f"  ^s{i}b(%x{i}: f32):",
        f"    llvm.store %x{i}, %p{i} : f32, !llvm.ptr<1>",
        "    nvvm.cp.async.bulk.tensor.shared.cluster.global %tile, %map, %bar, "
        f"box[%col{i}, %tid] : !llvm.ptr<3>, !llvm.ptr",
        "    nvvm.wgmma.fence.aligned",
    ]
    acc = previous
    for k in range(4):
        lines.append(
            f"    %acc{i}_{k} = nvvm.wgmma.mma_async %da, %db, %{acc}, {SHAPE}, {OPERANDS} : {ACC} -> {ACC}"
        )
        acc = f"acc{i}_{k}"
    lines += [
        "    nvvm.wgmma.commit.group.sync.aligned",
        "    nvvm.wgmma.wait.group.sync.aligned 1",
        f'    %y{i} = llvm.inline_asm "add.s32 $0, $1, 1;", "=r,r" %col{i} : (i32) -> i32',
        f"    llvm.store %y{i}, %out : i32, !llvm.ptr<1>",
    ]
    return "\n".join(lines)


def kernel(steps: int) -> str:
    body = "\n".join(step(i) for i in range(steps))
    last = f"acc{steps - 1}_3"
    constants = "\n".join(
        f"    %c{j} = llvm.mlir.constant({j} : i32) : i32" for j in range(7)
    )
    return f"""
module attributes {{nvvm.target = #nvvm.target<chip = "sm_90a">}} {{
  llvm.mlir.global internal @tile_smem() {{addr_space = 3 : i32, alignment = 1024 : i64}} : !llvm.array<8192 x i8>
  llvm.mlir.global internal @bar_smem() {{addr_space = 3 : i32, alignment = 8 : i64}} : i64
  llvm.func @bench(%map: !llvm.ptr, %out: !llvm.ptr<1>, %da: i64, %db: i64, %parity: i32) attributes {{nvvm.kernel, nvvm.maxnreg = 168 : i32}} {{
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %tile = llvm.mlir.addressof @tile_smem : !llvm.ptr<3>
    %bar = llvm.mlir.addressof @bar_smem : !llvm.ptr<3>
    %ticks = llvm.mlir.constant(100 : i32) : i32
    %half = llvm.mlir.constant(0.5 : f32) : f32
{constants}
    %zero = llvm.mlir.zero : {ACC}
{body}
    nvvm.wgmma.wait.group.sync.aligned 0
    llvm.store %{last}, %out : {ACC}, !llvm.ptr<1>
    llvm.return
  }}
}}
"""


def measure(steps: int, ptxas: bool) -> None:
    text = kernel(steps)
    ctx = make_context()
    start = time.process_time()
    module = Parser(ctx, text).parse_module()
    parsed = time.process_time()
    lower_seconds, write_seconds, ptx = lower_and_write(ctx, module)
    instructions = sum(
        1
        for line in ptx.splitlines()
        if line.startswith("\t") and line.endswith(";") and not line.startswith("\t.")
    )
    row = (
        f"| {steps} | {len(text.splitlines())} | {instructions} | {parsed - start:.3f} | "
        f"{lower_seconds:.3f} | {write_seconds:.3f} | "
        f"{lower_seconds / instructions * 1e6:.0f} |"
    )
    if ptxas:
        row += f" {ptxas_wall_seconds(ptx):.2f} |"
    print(row, flush=True)


def lower_and_write(ctx: Context, module: ModuleOp) -> tuple[float, float, str]:
    """CPU seconds of convert-nvvm-to-ori and of the PTX writer on `module`, and the PTX."""
    start = time.process_time()
    ConvertNvvmToOriPass().apply(ctx, module)
    lowered = time.process_time()
    output = StringIO()
    write_ptx(module, output)
    return lowered - start, time.process_time() - lowered, output.getvalue()


def ptxas_wall_seconds(ptx: str) -> float:
    """The wall-clock seconds the real ptxas takes to assemble `ptx` (which it must)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.ptx"
        path.write_text(ptx)
        before = time.perf_counter()
        result = run_ptxas(path)
        assert result.ok, result.messages
        return time.perf_counter() - before


def main() -> None:
    parser = argparse.ArgumentParser(
        description="convert-nvvm-to-ori on generated kernels"
    )
    parser.add_argument("steps", nargs="*", type=int, default=[50, 100, 200])
    parser.add_argument("--no-ptxas", action="store_true")
    args = parser.parse_args()
    header = "| steps | MLIR lines | PTX instructions | parse s | lower s | write s | lower us / instruction |"
    print(header + (" ptxas s (wall) |" if not args.no_ptxas else ""))
    for steps in args.steps:
        measure(steps, not args.no_ptxas)


if __name__ == "__main__":
    main()
