"""Our Hopper GEMM examples beside CUTLASS's CuTe DSL `dense_gemm` and Triton's TMA GEMM,
compared statically from what ptxas 13.5 makes of each (`ptxas -v`, and the SASS that
`cuobjdump -sass` lists).

Three steps, each in its own environment (CUTLASS's and Triton's compilers run in
throwaway venvs, never the project's):

    python3 -m venv /tmp/triton-venv && /tmp/triton-venv/bin/pip install triton==3.9.0
    /tmp/triton-venv/bin/python bench/hopper_gemm_comparison.py triton OUT

    python3 -m venv /tmp/cutlass-venv && /tmp/cutlass-venv/bin/pip install nvidia-cutlass-dsl numpy
    /tmp/cutlass-venv/bin/python bench/hopper_gemm_comparison.py cutlass OUT \\
        --dense-gemm PATH/TO/cutlass/examples/python/CuTeDSL/hopper/dense_gemm.py

    .venv/bin/python bench/hopper_gemm_comparison.py table OUT

`triton` compiles Triton's tutorial-09 TMA GEMM (`matmul_kernel_tma`, the kernel of
`test/sim/kernels/triton/generate.py`) for sm_90a at 128x128x64 (8 warps, 4 stages) and
128x256x64 (8 warps, 3 stages), f16 in, f32 accumulation, f16 out. `cutlass` compiles
CUTLASS's CuTe DSL Hopper `dense_gemm` example (`HopperWgmmaGemmKernel`, f16 in, f32
accumulation, f16 out, k-major A and B, cluster 1x1) at the same tiles, with
`CUTE_DSL_ARCH=sm_90a` and the PTX kept (no GPU needed; the example's torch host code is
not used). Both write `<name>.ptx` and `<name>.json` (the dynamic shared memory the launch
gives) into OUT. `table` lowers our `examples/gemm_sm90a.mlir` and
`examples/gemm_128x256_sm90a.mlir` with `tileas-to-ptx` (and, as a second column, without
its last stage `ptxas-pipeline`, whose modelled ptxas phases are written into the PTX),
assembles every PTX in OUT with the project's ptxas 13.5 and prints the comparison as a
Markdown table.

What is counted, per kernel:

- the K loop: the smallest loop (SASS range from a backward branch's target to the branch;
  not the `BRA.U.ANY` loops ptxas makes to issue a uniform instruction lane by lane)
  holding an HGMMA; when the TMA loads are issued elsewhere (a warp-specialised kernel's TMA
  warp), the smallest loop holding a `UTMALDG` is counted too. "per K step" sums both;
- mbarrier waits: wait sites, each a `SYNCS.PHASECHK.TRANS64.TRYWAIT` with the phase checks
  ptxas puts right after it for the same `mbarrier.try_wait` (a back-off and a retry);
  mbarrier operations: every `SYNCS` instruction; CTA barriers: `BAR.SYNC`;
- the `WARPGROUP.DEPBAR.LE gsb0, N` levels of the K loop, the `USETMAXREG` counts;
- registers, stack frame and spills from `ptxas -v`; shared memory: static plus dynamic.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TILES = ((128, 128), (128, 256))
TRITON_STAGES = {(128, 128): 4, (128, 256): 3}
OURS = {
    (128, 128): "examples/gemm_sm90a.mlir",
    (128, 256): "examples/gemm_128x256_sm90a.mlir",
}


def _name(compiler: str, tile: tuple[int, int]) -> str:
    return f"{compiler}_{tile[0]}x{tile[1]}"


# -- triton (run in a venv with triton==3.9.0) ----------------------------------------------


def compile_triton(out: Path) -> None:
    sys.path.insert(0, str(REPO / "test" / "sim" / "kernels" / "triton"))
    generate: Any = importlib.import_module("generate")  # needs triton

    for tile in TILES:
        stages = TRITON_STAGES[tile]
        gemm = generate.tma_gemm(
            _name("triton", tile),
            "",
            "fp16",
            "fp16",
            (*tile, 64),
            num_warps=8,
            num_stages=stages,
        )
        kernel: Any = generate.compile_gemm(gemm)
        name = _name("triton", tile)
        (out / f"{name}.ptx").write_text(kernel.asm["ptx"])
        facts: dict[str, Any] = {
            "dynamic_shared": kernel.metadata.shared,
            "config": f"8 warps, {stages} stages",
        }
        (out / f"{name}.json").write_text(json.dumps(facts))
        print(f"{name}: {kernel.metadata.shared} bytes of shared memory")


# -- cutlass (run in a venv with nvidia-cutlass-dsl and numpy) ------------------------------


def compile_cutlass(out: Path, dense_gemm: Path) -> None:
    os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")
    os.environ["CUTE_DSL_KEEP"] = "ptx"
    dump = out / "cutlass.dump"
    dump.mkdir(exist_ok=True)
    os.environ["CUTE_DSL_DUMP_DIR"] = str(dump)  # read when cutlass is imported
    import numpy as np

    cuda: Any = importlib.import_module("cuda.bindings.driver")
    cutlass: Any = importlib.import_module("cutlass")
    cute: Any = importlib.import_module("cutlass.cute")
    from_dlpack: Any = importlib.import_module("cutlass.cute.runtime").from_dlpack

    spec = importlib.util.spec_from_file_location("dense_gemm", dense_gemm)
    assert spec is not None
    assert spec.loader is not None
    module: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def tensor(rows: int, cols: int, dtype: Any) -> Any:
        # (rows, cols, L = 1), cols contiguous: the example's k-major A / B, n-major C.
        array = np.zeros((1, rows, cols), dtype=dtype)
        view: Any = from_dlpack(np.transpose(array, (1, 2, 0)), assumed_align=16)
        return view.mark_layout_dynamic(leading_dim=1)

    size = 4096
    for tile in TILES:
        name = _name("cutlass", tile)
        for old in dump.glob("*.ptx"):  # named after the argument types, not the tile
            old.unlink()
        gemm: Any = module.HopperWgmmaGemmKernel(cutlass.Float32, tile, (1, 1))
        a = tensor(size, size, np.float16)
        b = tensor(size, size, np.float16)
        c = tensor(size, size, np.float16)
        cute.compile(gemm, a, b, c, cuda.CUstream(0))
        (ptx,) = dump.glob("*.ptx")
        (out / f"{name}.ptx").write_text(ptx.read_text())
        facts = {
            "dynamic_shared": gemm.shared_storage.size_in_bytes(),
            "config": f"{gemm.threads_per_cta // 32} warps, {gemm.ab_stage} stages",
        }
        (out / f"{name}.json").write_text(json.dumps(facts))
        print(f"{name}: {facts}")


# -- the table (run in the project's venv) ---------------------------------------------------


def _lower_ours(out: Path) -> None:
    """`tileas-to-ptx` of our examples ("ours"), and the same without its last stage,
    `ptxas-pipeline` ("ours-nvvm": convert-nvvm-to-ori's PTX as it is)."""
    from tileas_py import api
    from tileas_py.sim.lowering import lower_mlir

    for tile, example in OURS.items():
        text = (REPO / example).read_text()
        lowered = lower_mlir(api.parse_mlir(text, example))
        facts = {
            "dynamic_shared": lowered.kernels["gemm"].dynamic_shared,
            "config": "12 warps (8 MMA, 1 TMA), 4 stages"
            if tile == (128, 128)
            else "12 warps (8 MMA, 1 TMA), 2 stages",
        }
        direct = api.run_pipeline(
            api.parse_mlir(text, example),
            "tileas-to-ptx{stop-after=nvvm},convert-nvvm-to-ori",
        )
        for name, ptx in (
            (_name("ours", tile), lowered.ptx),
            (_name("ours-nvvm", tile), api.print_ptx(direct)),
        ):
            (out / f"{name}.ptx").write_text(ptx)
            (out / f"{name}.json").write_text(json.dumps(facts))


WAIT_SEQUENCE = 4
"""ptxas expands one `mbarrier.try_wait` into a few `SYNCS.PHASECHK` a few instructions
apart (a try, a back-off, a retry): one wait site."""

_USED = re.compile(r"Used (\d+) registers")
_FRAME = re.compile(
    r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads"
)
_SMEM = re.compile(r"(\d+) bytes smem")


def analyze(ptx: Path) -> dict[str, Any]:
    from tileas_py.hw.gmma_diagnostics import parse_ptxas_output
    from tileas_py.ptx.sass import innermost_loop, listing
    from tileas_py.ptx.toolchain import run_ptxas

    result = run_ptxas(ptx, extra_args=("-v",))
    if not result.ok:
        raise SystemExit(f"ptxas failed on {ptx}:\n{result.stderr}")
    log = result.stdout + result.stderr
    used = _USED.search(log)
    frame = _FRAME.search(log)
    smem = _SMEM.search(log)
    assert used is not None
    assert frame is not None
    code = listing(ptx.with_suffix(".cubin"))
    mma = innermost_loop(code, "HGMMA")
    assert mma is not None
    loops = [mma]
    if not any(i.opcode.startswith("UTMALDG") for i in mma.body):
        tma = innermost_loop(code, "UTMALDG")
        if tma is not None:
            loops.append(tma)

    def count(body: Any, opcode: str) -> int:
        return sum(i.opcode.startswith(opcode) for i in body)

    def waits(body: Any) -> int:
        sites = 0
        last: int | None = None
        for index, instruction in enumerate(body):
            if not instruction.opcode.startswith("SYNCS.PHASECHK"):
                continue
            if instruction.opcode.endswith("TRYWAIT") and (
                last is None or index - last > WAIT_SEQUENCE
            ):
                sites += 1
            last = index
        return sites

    facts = json.loads(ptx.with_suffix(".json").read_text())
    hgmma = count(mma.body, "HGMMA")
    mma_waits = waits(mma.body)
    return {
        "config": facts["config"],
        "sass_mma": len(mma.body),
        "sass_tma": len(loops[1].body) if len(loops) > 1 else 0,
        "sass_step": sum(len(loop.body) for loop in loops),
        "hgmma": hgmma,
        "waits": sum(waits(loop.body) for loop in loops),
        "hgmma_per_wait": hgmma / mma_waits if mma_waits else float("inf"),
        "syncs": sum(count(loop.body, "SYNCS") for loop in loops),
        "bar_sync": sum(count(loop.body, "BAR.SYNC") for loop in loops),
        "depbar": sorted(
            {
                i.text.rsplit(",", 1)[1].strip()
                for i in mma.body
                if i.opcode == "WARPGROUP.DEPBAR.LE"
            }
        ),
        "setmaxnreg": [
            i.text.split()[-1] for i in code if i.opcode.startswith("USETMAXREG")
        ],
        "registers": int(used.group(1)),
        "stack": int(frame.group(1)),
        "spill_stores": int(frame.group(2)),
        "spill_loads": int(frame.group(3)),
        "shared": (int(smem.group(1)) if smem else 0) + int(facts["dynamic_shared"]),
        "gmma_messages": len(parse_ptxas_output(log)),
    }


Facts = dict[str, Any]

ROWS: tuple[tuple[str, Callable[[Facts], str]], ...] = (
    ("kernel", lambda f: f["config"]),
    (
        "SASS instructions per K step (MMA loop + TMA loop)",
        lambda f: (
            f"{f['sass_step']} ({f['sass_mma']} + {f['sass_tma']})"
            if f["sass_tma"]
            else f"{f['sass_step']} (one loop)"
        ),
    ),
    ("HGMMA per K step", lambda f: str(f["hgmma"])),
    ("mbarrier waits per K step", lambda f: str(f["waits"])),
    ("HGMMA per mbarrier wait (MMA loop)", lambda f: f"{f['hgmma_per_wait']:g}"),
    ("mbarrier instructions (SYNCS) per K step", lambda f: str(f["syncs"])),
    ("CTA barriers (BAR.SYNC) per K step", lambda f: str(f["bar_sync"])),
    ("DEPBAR gsb0 levels in the K loop", lambda f: ", ".join(f["depbar"])),
    ("registers (ptxas -v)", lambda f: str(f["registers"])),
    ("setmaxnreg", lambda f: " / ".join(f["setmaxnreg"]) or "none"),
    ("shared memory (bytes)", lambda f: str(f["shared"])),
    ("stack frame (bytes)", lambda f: str(f["stack"])),
    (
        "spill stores / loads (bytes)",
        lambda f: f"{f['spill_stores']} / {f['spill_loads']}",
    ),
    ("ptxas GMMA messages", lambda f: str(f["gmma_messages"])),
)


COLUMNS = {
    "ours": "ours (tileas-to-ptx)",
    "ours-nvvm": "ours, without ptxas-pipeline",
    "cutlass": "CUTLASS CuTe DSL dense_gemm",
    "triton": "Triton TMA GEMM",
}


def table(out: Path) -> str:
    _lower_ours(out)
    lines: list[str] = []
    for tile in TILES:
        columns = [
            (compiler, out / f"{_name(compiler, tile)}.ptx")
            for compiler in ("ours", "ours-nvvm", "cutlass", "triton")
        ]
        present = [(c, p) for c, p in columns if p.exists()]
        facts = {c: analyze(p) for c, p in present}
        lines.append(f"### {tile[0]}x{tile[1]}x64 tiles, f16 inputs, f32 accumulator\n")
        header = "| | " + " | ".join(COLUMNS[c] for c, _ in present)
        lines.append(header + " |")
        lines.append("| --- |" + " ---: |" * len(present))
        for label, value in ROWS:
            cells = " | ".join(value(facts[c]) for c, _ in present)
            lines.append(f"| {label} | {cells} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("step", choices=("triton", "cutlass", "table"))
    parser.add_argument(
        "out", type=Path, help="the folder the PTX is written to / read from"
    )
    parser.add_argument(
        "--dense-gemm", type=Path, help="CUTLASS's hopper/dense_gemm.py"
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.step == "triton":
        compile_triton(args.out)
    elif args.step == "cutlass":
        if args.dense_gemm is None:
            parser.error("cutlass needs --dense-gemm")
        compile_cutlass(args.out, args.dense_gemm)
    else:
        print(table(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
