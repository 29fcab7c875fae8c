"""Benchmark: the WGMMA emission (`convert-tileas-to-nvvm`) on tile kernels of growing size.

The kernel chains N `nv_tileas.dot` (f16, 128x128x64 tiles: eight m64n128k16 MMAs each,
descriptors for both operands), each accumulating into the previous result, and stores the
last accumulator. It reports CPU seconds to parse the tile MLIR, to run
convert-tileas-to-nvvm, to run convert-nvvm-to-ori and to print PTX, and the real ptxas's
wall-clock time on the result.

    .venv/bin/python bench/convert_tileas_to_nvvm.py               # 10 20 40 dots
    .venv/bin/python bench/convert_tileas_to_nvvm.py --no-ptxas 20 40 80 160
"""

from __future__ import annotations

import argparse
import time

from convert_nvvm_to_ori import lower_and_write, ptxas_wall_seconds
from xdsl.parser import Parser

from tileas_py.api import make_context
from tileas_py.passes.lowering.convert_tileas_to_nvvm import ConvertTileasToNvvmPass

SA = "tensor<128x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>"
SB = "tensor<64x128xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>"
ACC = "tensor<128x128xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16]>>"
ATOM = (
    "!cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, mn), elem_type = (f16, f16, f32), "
    "frag_kind = ss>"
)


def kernel(dots: int) -> str:
    lines = [
        f"    %d{i + 1} = nv_tileas.dot %a, %b, %d{i} atom = {ATOM} wait_group = 0 : "
        f"{SA}, {SB} -> {ACC}"
        for i in range(dots)
    ]
    body = "\n".join(lines)
    return f"""
module attributes {{nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>}} {{
  nv_tileas.kernel @bench(%out: !llvm.ptr<1>) attributes {{nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32}} {{
    %a = nv_tileas.alloc_tensor : {SA}
    %b = nv_tileas.alloc_tensor : {SB}
    %d0 = arith.constant dense<0.0> : {ACC}
{body}
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<128x128xf32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d{dots}, %view[%c0, %c0] : {ACC} -> !nv_tileas.tiled_view<128x128xf32>
    nv_tileas.return
  }}
}}
"""


def measure(dots: int, ptxas: bool) -> None:
    text = kernel(dots)
    ctx = make_context()
    start = time.process_time()
    module = Parser(ctx, text).parse_module()
    parsed = time.process_time()
    ConvertTileasToNvvmPass().apply(ctx, module)
    emitted = time.process_time()
    lower_seconds, write_seconds, ptx = lower_and_write(ctx, module)
    mmas = ptx.count("wgmma.mma_async")
    row = (
        f"| {dots} | {mmas} | {parsed - start:.3f} | {emitted - parsed:.3f} | "
        f"{(emitted - parsed) / mmas * 1e6:.0f} | {lower_seconds:.3f} | "
        f"{write_seconds:.3f} |"
    )
    if ptxas:
        row += f" {ptxas_wall_seconds(ptx):.2f} |"
    print(row, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="convert-tileas-to-nvvm on generated tile kernels"
    )
    parser.add_argument("dots", nargs="*", type=int, default=[10, 20, 40])
    parser.add_argument("--no-ptxas", action="store_true")
    args = parser.parse_args()
    header = "| dots | MMAs | parse s | emit s | emit us / MMA | to ori s | write s |"
    print(header + (" ptxas s (wall) |" if not args.no_ptxas else ""))
    for dots in args.dots:
        measure(dots, not args.no_ptxas)


if __name__ == "__main__":
    main()
