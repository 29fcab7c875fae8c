"""Compile the Triton 3.9 Hopper GEMMs that `tileas_py.sim` is checked against, on a CPU.

Run from the repository root with a throwaway venv that has `triton==3.9.0` (never the
project's own venv; Triton needs no GPU to compile):

    python3 -m venv /tmp/triton-venv && /tmp/triton-venv/bin/pip install triton==3.9.0
    TRITON_DEFAULT_FP_FUSION=1 /tmp/triton-venv/bin/python test/sim/kernels/triton/generate.py

It writes one `<name>.ptx` per kernel next to this file and `manifest.json`, which says how
Triton's own host launcher (`triton/backends/nvidia/driver.py`, 3.9.0) would launch each
kernel: block, dynamic shared memory, cluster, grid, and one entry per PTX parameter.

What the manifest takes from Triton rather than from this file:
- a host `TensorDescriptor` argument becomes five parameters, `[CUtensorMap, *shape,
  *strides]` (`make_tensordesc_arg`): the 128-byte map, the shape as i32 and the strides (in
  elements) as i64, both in numpy order;
- the map's box is `tensordesc_meta[i]["block_size"]` (numpy order; Triton splits a tile
  whose inner extent is wider than the swizzle span into several boxes, so it may be smaller
  than the block), its swizzle is `tensordesc_meta[i]["swizzle"]` (the CUtensorMapSwizzle
  enum: 0, 1, 2, 3 for none, 32, 64, 128 bytes, `getTMASwizzleMode`), its element strides
  are all 1 and its out-of-bounds fill is zero (`fill_tma_descriptor_tiled`, padding
  "zero");
- two pointers follow the kernel's own parameters: the global and the profile scratch.
  The launcher passes a null pointer when the kernel needs no scratch (size 0, as for
  every kernel here), else `grid * num_ctas * size` bytes;
- `num_ctas > 1` launches `grid * num_ctas` CTAs in clusters of `(num_ctas, 1, 1)`;
- the dynamic shared memory is `metadata.shared`, the block `32 * num_warps` threads.

The specialisation is what the JIT infers for 16-byte aligned tensors whose sizes and strides
are multiples of 16 (`tt.divisibility=16` on pointers, sizes and strides; unit strides are
constexpr 1). The number of persistent programs is a runtime argument here (the tutorial
makes it a constexpr), so that the same PTX runs with few CTAs and several tiles each.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

HOPPER = GPUTarget("cuda", 90, 32)
HERE = Path(__file__).parent

SWIZZLE_BYTES = {0: 0, 1: 32, 2: 64, 3: 128}
"""CUtensorMapSwizzle, as `getTMASwizzleMode` encodes it, to bytes."""

NUMPY_DTYPES = {
    "fp16": "float16",
    "bf16": "bfloat16",
    "fp32": "float32",
    "fp8e4nv": "float8_e4m3fn",
}
"""Triton's element types to numpy / ml_dtypes names."""


# -- the kernels: Triton's tutorials 03 (matrix multiplication) and 09 (persistent matmul) --


@triton.jit
def matmul_kernel(  # noqa: PLR0917 (a Triton kernel signature)
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
):
    """Tutorial 03: pointer loads, which Triton pipelines with cp.async."""
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def matmul_kernel_tma(  # noqa: PLR0917 (a Triton kernel signature)
    a_desc,
    b_desc,
    c_desc,
    M,
    N,
    K,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
):
    """Tutorial 09's TMA GEMM with host descriptors: one tile per program."""
    dtype = c_desc.dtype
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    pid_m, pid_n = _compute_pid(pid, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    offs_am = pid_m * BLOCK_SIZE_M
    offs_bn = pid_n * BLOCK_SIZE_N
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in tl.range(k_tiles):
        offs_k = k * BLOCK_SIZE_K
        a = a_desc.load([offs_am, offs_k])
        b = b_desc.load([offs_bn, offs_k])
        accumulator = tl.dot(a, b.T, accumulator)
    c = accumulator.to(dtype)
    c_desc.store([offs_am, offs_bn], c)


@triton.jit
def matmul_kernel_tma_persistent(  # noqa: PLR0917 (a Triton kernel signature)
    a_desc,
    b_desc,
    c_desc,
    M,
    N,
    K,
    NUM_SMS,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
    EPILOGUE_SUBTILE: tl.constexpr,
):
    """Tutorial 09's persistent TMA GEMM with host descriptors: programs stride over tiles."""
    dtype = c_desc.dtype
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    tile_id_c = start_pid - NUM_SMS
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_am = pid_m * BLOCK_SIZE_M
        offs_bn = pid_n * BLOCK_SIZE_N
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_bn, offs_k])
            accumulator = tl.dot(a, b.T, accumulator)
        tile_id_c += NUM_SMS
        pid_m, pid_n = _compute_pid(
            tile_id_c, num_pid_in_group, num_pid_m, GROUP_SIZE_M
        )
        offs_cm = pid_m * BLOCK_SIZE_M
        offs_cn = pid_n * BLOCK_SIZE_N
        if EPILOGUE_SUBTILE:
            acc = tl.reshape(accumulator, (BLOCK_SIZE_M, 2, BLOCK_SIZE_N // 2))
            acc = tl.permute(acc, (0, 2, 1))
            acc0, acc1 = tl.split(acc)
            c0 = acc0.to(dtype)
            c_desc.store([offs_cm, offs_cn], c0)
            c1 = acc1.to(dtype)
            c_desc.store([offs_cm, offs_cn + BLOCK_SIZE_N // 2], c1)
        else:
            c = accumulator.to(dtype)
            c_desc.store([offs_cm, offs_cn], c)


# -- what is compiled, and how each parameter is filled ---------------------------------------


@dataclass
class Gemm:
    """One compiled kernel: its Triton signature, and the role of each runtime argument.

    `roles` maps a runtime argument to a matrix ("A", "B", "C") for pointers and tensor
    descriptors, or to a Python expression over M, N, K and num_sms for scalars.
    `b_k_major`: B is passed as its transpose, an (N, K) array, as the TMA tutorials do.
    """

    name: str
    summary: str
    fn: Any
    signature: dict[str, str]
    constexprs: dict[str, Any]
    roles: dict[str, str]
    in_dtype: str
    out_dtype: str
    b_k_major: bool
    grid: str
    num_warps: int
    num_stages: int
    num_ctas: int = 1
    contains: list[str] = field(default_factory=list[str])
    absent: list[str] = field(default_factory=list[str])

    def __post_init__(self) -> None:
        runtime = {arg for arg, ty in self.signature.items() if ty != "constexpr"}
        assert set(self.roles) == runtime, (
            f"{self.name}: a role for each runtime argument"
        )


def pointer_gemm(
    name: str, summary: str, dtype: str, out: str, tile: tuple[int, int, int], **kw: Any
) -> Gemm:
    """Tutorial 03 with row-major A, B (K x N, so N-major) and C."""
    bm, bn, bk = tile
    signature = {
        "a_ptr": f"*{dtype}",
        "b_ptr": f"*{dtype}",
        "c_ptr": f"*{out}",
        "M": "i32",
        "N": "i32",
        "K": "i32",
        "stride_am": "i32",
        "stride_ak": "constexpr",
        "stride_bk": "i32",
        "stride_bn": "constexpr",
        "stride_cm": "i32",
        "stride_cn": "constexpr",
        "BLOCK_SIZE_M": "constexpr",
        "BLOCK_SIZE_N": "constexpr",
        "BLOCK_SIZE_K": "constexpr",
        "GROUP_SIZE_M": "constexpr",
    }
    constexprs = {
        "stride_ak": 1,
        "stride_bn": 1,
        "stride_cn": 1,
        "BLOCK_SIZE_M": bm,
        "BLOCK_SIZE_N": bn,
        "BLOCK_SIZE_K": bk,
        "GROUP_SIZE_M": 8,
    }
    roles = {
        "a_ptr": "A",
        "b_ptr": "B",
        "c_ptr": "C",
        "M": "M",
        "N": "N",
        "K": "K",
        "stride_am": "K",
        "stride_bk": "N",
        "stride_cm": "N",
    }
    return Gemm(
        name,
        summary,
        matmul_kernel,
        signature,
        constexprs,
        roles,
        in_dtype=dtype,
        out_dtype=out,
        b_k_major=False,
        grid=f"cdiv(M, {bm}) * cdiv(N, {bn})",
        **kw,
    )


def tma_gemm(
    name: str,
    summary: str,
    dtype: str,
    out: str,
    tile: tuple[int, int, int],
    *,
    persistent: bool = False,
    **kw: Any,
) -> Gemm:
    """Tutorial 09 with host descriptors: A (M, K), B as its transpose (N, K), C (M, N)."""
    bm, bn, bk = tile
    c_block = (bm, bn // 2) if persistent else (bm, bn)
    signature = {
        "a_desc": f"tensordesc<{dtype}[{bm}, {bk}]>",
        "b_desc": f"tensordesc<{dtype}[{bn}, {bk}]>",
        "c_desc": f"tensordesc<{out}[{c_block[0]}, {c_block[1]}]>",
        "M": "i32",
        "N": "i32",
        "K": "i32",
    }
    roles = {"a_desc": "A", "b_desc": "B", "c_desc": "C", "M": "M", "N": "N", "K": "K"}
    constexprs: dict[str, Any] = {}
    tiles = f"cdiv(M, {bm}) * cdiv(N, {bn})"
    ctas = kw.get("num_ctas", 1)
    if persistent:
        assert ctas == 1, "a persistent grid of clusters is not modelled here"
        signature["NUM_SMS"] = "i32"
        roles["NUM_SMS"] = "num_sms"
        constexprs["EPILOGUE_SUBTILE"] = True
        grid = f"min(num_sms, {tiles})"
    else:
        # The launcher launches num_ctas CTAs per program.
        grid = tiles if ctas == 1 else f"{ctas} * {tiles}"
    constexprs |= {
        "BLOCK_SIZE_M": bm,
        "BLOCK_SIZE_N": bn,
        "BLOCK_SIZE_K": bk,
        "GROUP_SIZE_M": 8,
    }
    signature |= dict.fromkeys(constexprs, "constexpr")
    fn = matmul_kernel_tma_persistent if persistent else matmul_kernel_tma
    signature = {arg: signature[arg] for arg in fn.arg_names}  # the kernel's order
    return Gemm(
        name,
        summary,
        fn,
        signature,
        constexprs,
        roles,
        in_dtype=dtype,
        out_dtype=out,
        b_k_major=True,
        grid=grid,
        **kw,
    )


NO_DEVICE_DESCRIPTORS = ["tensormap", "cp.fence"]
"""Host descriptors only: no `tensormap.replace`, `tensormap.cp_fenceproxy` or device-side
descriptor creation in the PTX."""

GEMMS = [
    pointer_gemm(
        "cp_async_f16",
        "tutorial 03 GEMM, f16, cp.async pipeline (4 stages) feeding wgmma, which waits with "
        "wait_group 1",
        "fp16",
        "fp16",
        (64, 64, 32),
        num_warps=4,
        num_stages=4,
        contains=[
            "wgmma.wait_group.sync.aligned 1;",
            "cp.async.cg.shared.global",
            "cp.async.wait_group",
        ],
    ),
    tma_gemm(
        "tma_persistent_f16",
        "tutorial 09 persistent TMA GEMM, f16, host descriptors, mbarrier pipeline, "
        "epilogue split into two TMA stores",
        "fp16",
        "fp16",
        (128, 128, 64),
        persistent=True,
        num_warps=8,
        num_stages=3,
        contains=[
            "cp.async.bulk.tensor",
            "mbarrier.try_wait.parity",
            "wgmma.mma_async",
        ],
        absent=NO_DEVICE_DESCRIPTORS,
    ),
    tma_gemm(
        "tma_f16",
        "tutorial 09 TMA GEMM, f16, host descriptors, one tile per CTA",
        "fp16",
        "fp16",
        (64, 128, 64),
        num_warps=4,
        num_stages=3,
        contains=[
            "cp.async.bulk.tensor",
            "mbarrier.try_wait.parity",
            "wgmma.mma_async",
        ],
        absent=NO_DEVICE_DESCRIPTORS,
    ),
    tma_gemm(
        "tma_bf16_f32",
        "TMA GEMM, bf16 in, f32 out; 64-byte swizzled operand tiles, C stored as two boxes",
        "bf16",
        "fp32",
        (64, 64, 32),
        num_warps=4,
        num_stages=3,
        contains=["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"],
        absent=NO_DEVICE_DESCRIPTORS,
    ),
    tma_gemm(
        "tma_fp8_f16",
        "TMA GEMM, fp8 e4m3 in, f32 accumulation, f16 out (wgmma k32)",
        "fp8e4nv",
        "fp16",
        (64, 64, 64),
        num_warps=4,
        num_stages=3,
        contains=["wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3"],
        absent=NO_DEVICE_DESCRIPTORS,
    ),
    pointer_gemm(
        "cp_async_tf32",
        "tutorial 03 GEMM on f32 inputs with tf32 wgmma (k8); B is N-major, so Triton "
        "transposes it through shared memory with 4-byte cp.async",
        "fp32",
        "fp32",
        (64, 64, 32),
        num_warps=4,
        num_stages=3,
        contains=["wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32"],
    ),
    tma_gemm(
        "tma_cluster2_f16",
        "TMA GEMM, f16, num_ctas=2: clusters of two CTAs that split the tile, "
        "barrier.cluster",
        "fp16",
        "fp16",
        (128, 128, 64),
        num_warps=4,
        num_stages=3,
        num_ctas=2,
        contains=["barrier.cluster", "%cluster_ctarank", ".reqnctapercluster 2"],
        absent=NO_DEVICE_DESCRIPTORS,
    ),
]


def compile_gemm(gemm: Gemm) -> Any:
    divisible = [
        arg
        for arg, ty in gemm.signature.items()
        if ty.startswith("*") or (ty == "i32" and arg != "NUM_SMS")
    ]
    attrs = {
        (list(gemm.signature).index(arg),): [["tt.divisibility", 16]]
        for arg in divisible
    }
    options: dict[str, Any] = {
        "num_warps": gemm.num_warps,
        "num_stages": gemm.num_stages,
        "num_ctas": gemm.num_ctas,
    }
    src = ASTSource(gemm.fn, gemm.signature, gemm.constexprs, attrs)
    return triton.compile(src, target=HOPPER, options=options)


# -- the manifest -------------------------------------------------------------------------------

_ENTRY = re.compile(r"\.entry\s+(\w+)\s*\((.*?)\)(.*?)\{", re.S)
_PARAM = re.compile(r"\.param\s+(.*?)\s+(\w+)(\[\d+\])?\s*$")


def ptx_entry(ptx: str) -> tuple[str, list[dict[str, str]], dict[str, Any]]:
    """The entry's name, its parameters (name, declared type) and performance directives."""
    match = _ENTRY.search(ptx)
    assert match is not None, "no .entry in the PTX"
    params: list[dict[str, str]] = []
    for line in match.group(2).split(","):
        param = _PARAM.search(line.strip())
        assert param is not None, line
        params.append(
            {
                "ptx_name": param.group(2),
                "ptx_type": param.group(1) + (param.group(3) or ""),
            }
        )
    directives: dict[str, Any] = {}
    for directive in re.finditer(r"\.(\w+)([^.\n{]*)", match.group(3)):
        values = [int(v) for v in re.findall(r"\d+", directive.group(2))]
        directives[directive.group(1)] = values or True
    return match.group(1), params, directives


def matrices(gemm: Gemm) -> dict[str, Any]:
    """Each matrix: the numpy dtype, the shape of the array passed, and what it holds."""
    ab = NUMPY_DTYPES[gemm.in_dtype]
    b = (
        {"dtype": ab, "shape": ["N", "K"], "holds": "B.T"}
        if gemm.b_k_major
        else {"dtype": ab, "shape": ["K", "N"], "holds": "B"}
    )
    c = {"dtype": NUMPY_DTYPES[gemm.out_dtype], "shape": ["M", "N"], "holds": "A @ B"}
    a = {"dtype": ab, "shape": ["M", "K"], "holds": "A"}
    for matrix, dtype in ((a, gemm.in_dtype), (b, gemm.in_dtype), (c, gemm.out_dtype)):
        matrix["itemsize"] = triton_dtype(dtype).primitive_bitwidth // 8
    return {"A": a, "B": b, "C": c}


def triton_dtype(name: str) -> Any:
    return {
        "fp16": tl.float16,
        "bf16": tl.bfloat16,
        "fp32": tl.float32,
        "fp8e4nv": tl.float8e4nv,
    }[name]


def row_major_strides(shape: list[str]) -> list[str]:
    return [*shape[1:], "1"]


def kernel_params(gemm: Gemm, metadata: Any) -> list[dict[str, Any]]:
    """One entry per PTX parameter, in order, as the host launcher fills it."""
    mats = matrices(gemm)
    descriptors = iter(metadata.tensordesc_meta or [])
    params: list[dict[str, Any]] = []
    for arg, ty in gemm.signature.items():
        if ty == "constexpr":
            continue
        role = gemm.roles[arg]
        if ty.startswith("tensordesc"):
            meta = next(descriptors)
            assert not meta["fp4_padded"]
            assert not meta.get("is_im2col", False)
            shape = mats[role]["shape"]
            params.append(
                {
                    "name": arg,
                    "kind": "tensormap",
                    "matrix": role,
                    "box": list(meta["block_size"]),
                    "swizzle": SWIZZLE_BYTES[meta["swizzle"]],
                    "element_strides": [1] * len(shape),
                    "oob_fill": "zero",
                }
            )
            params += [
                {"name": f"{arg}.shape[{d}]", "kind": "scalar", "value": e}
                for d, e in enumerate(shape)
            ]
            params += [
                {"name": f"{arg}.strides[{d}]", "kind": "scalar", "value": e}
                for d, e in enumerate(row_major_strides(shape))
            ]
        elif ty.startswith("*"):
            params.append({"name": arg, "kind": "pointer", "matrix": role})
        else:
            params.append({"name": arg, "kind": "scalar", "value": role})
    assert next(descriptors, None) is None, (
        "more descriptors in the metadata than arguments"
    )
    # The launcher passes a null pointer for a scratch of size 0, else allocates
    # `grid * num_ctas * size` bytes; none of these kernels needs any.
    for scratch in ("global_scratch", "profile_scratch"):
        size = getattr(metadata, f"{scratch}_size")
        assert size == 0, f"{gemm.name} needs {size} bytes of {scratch} per CTA"
        params.append(
            {"name": scratch, "kind": "scratch", "bytes_per_cta": 0, "value": None}
        )
    return params


def manifest_entry(gemm: Gemm, kernel: Any, ptx: str) -> dict[str, Any]:
    metadata = kernel.metadata
    entry, ptx_params, directives = ptx_entry(ptx)
    params = kernel_params(gemm, metadata)
    assert len(params) == len(ptx_params), (gemm.name, len(params), len(ptx_params))
    for param, declared in zip(params, ptx_params, strict=True):
        param.update(declared)
    for needle in gemm.contains:
        assert needle in ptx, (gemm.name, needle)
    for needle in gemm.absent:
        assert needle not in ptx, (gemm.name, needle)
    runtime = [arg for arg, ty in gemm.signature.items() if ty != "constexpr"]
    sizes = [arg for arg in ("M", "N", "K") if arg in runtime]
    return {
        "ptx": f"{gemm.name}.ptx",
        "entry": entry,
        "summary": gemm.summary,
        "triton": {
            "version": triton.__version__,
            "function": gemm.fn.__name__,
            "signature": gemm.signature,
            "constexprs": gemm.constexprs,
            "num_warps": metadata.num_warps,
            "num_stages": metadata.num_stages,
            "num_ctas": metadata.num_ctas,
        },
        "block": [32 * metadata.num_warps, 1, 1],
        "directives": directives,
        "dynamic_shared": metadata.shared,
        "cluster": [metadata.num_ctas, 1, 1],
        "grid": gemm.grid,
        "requires": " and ".join(f"{s} % 16 == 0" for s in sizes),
        "matrices": matrices(gemm),
        "b_layout": "K-major" if gemm.b_k_major else "N-major",
        "accumulator": "float32",
        # tl.dot's default precision for f32 operands; other types multiply exactly.
        "input_precision": metadata.default_dot_input_precision
        if gemm.in_dtype == "fp32"
        else None,
        "output": NUMPY_DTYPES[gemm.out_dtype],
        "params": params,
        "checks": {"contains": gemm.contains, "absent": gemm.absent},
    }


def main() -> None:
    manifest: dict[str, Any] = {
        "comment": "Written by generate.py; see README.md for the meaning of each field.",
        "kernels": {},
    }
    for gemm in GEMMS:
        kernel = compile_gemm(gemm)
        ptx: str = kernel.asm["ptx"]
        (HERE / f"{gemm.name}.ptx").write_text(ptx)
        manifest["kernels"][gemm.name] = manifest_entry(gemm, kernel, ptx)
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")


if __name__ == "__main__":
    main()
