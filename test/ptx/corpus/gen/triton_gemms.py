"""Compile the Triton 3.9 Hopper GEMMs of the corpus to PTX on a CPU (no GPU needed).

Run with a throwaway venv that has `triton==3.9.0` (never the project's own venv):

    python3 -m venv /tmp/triton-venv && /tmp/triton-venv/bin/pip install triton==3.9.0
    /tmp/triton-venv/bin/python test/ptx/corpus/gen/triton_gemms.py test/ptx/corpus

The specialisation is what the JIT infers for 16-byte aligned tensors with sizes that are
multiples of 16 (`tt.divisibility=16`) and unit inner strides passed as constexpr 1.
"""

import sys
from pathlib import Path

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

HOPPER = GPUTarget("cuda", 90, 32)


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
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
):
    """The tutorial GEMM: pointer loads, which Triton pipelines with cp.async."""
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(tl.float16)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def matmul_tma_kernel(  # noqa: PLR0917 (a Triton kernel signature)
    a_desc,
    b_desc,
    c_desc,
    M,
    N,
    K,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    """A GEMM through tensor descriptors: TMA loads into an mbarrier pipeline."""
    pid = tl.program_id(axis=0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_am = pid_m * BLOCK_M
    offs_bn = pid_n * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([offs_am, k * BLOCK_K])
        b = b_desc.load([offs_bn, k * BLOCK_K])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([offs_am, offs_bn], acc.to(tl.float16))


def pointer_gemm(block_n: int) -> str:
    signature = {
        "a_ptr": "*fp16",
        "b_ptr": "*fp16",
        "c_ptr": "*fp16",
        "M": "i32",
        "N": "i32",
        "K": "i32",
        "stride_am": "i32",
        "stride_ak": "constexpr",
        "stride_bk": "i32",
        "stride_bn": "constexpr",
        "stride_cm": "i32",
        "stride_cn": "constexpr",
        "BLOCK_M": "constexpr",
        "BLOCK_N": "constexpr",
        "BLOCK_K": "constexpr",
        "GROUP_M": "constexpr",
    }
    constexprs = {
        "stride_ak": 1,
        "stride_bn": 1,
        "stride_cn": 1,
        "BLOCK_M": 128,
        "BLOCK_N": block_n,
        "BLOCK_K": 64,
        "GROUP_M": 8,
    }
    divisible = [
        "a_ptr",
        "b_ptr",
        "c_ptr",
        "M",
        "N",
        "K",
        "stride_am",
        "stride_bk",
        "stride_cm",
    ]
    attrs = {
        (list(signature).index(name),): [["tt.divisibility", 16]] for name in divisible
    }
    src = ASTSource(matmul_kernel, signature, constexprs, attrs)
    kernel = triton.compile(
        src, target=HOPPER, options={"num_warps": 8, "num_stages": 3}
    )
    return kernel.asm["ptx"]


def tma_gemm() -> str:
    desc = "tensordesc<fp16[{}, {}]>"
    signature = {
        "a_desc": desc.format(128, 64),
        "b_desc": desc.format(128, 64),
        "c_desc": desc.format(128, 128),
        "M": "i32",
        "N": "i32",
        "K": "i32",
        "BLOCK_M": "constexpr",
        "BLOCK_N": "constexpr",
        "BLOCK_K": "constexpr",
    }
    constexprs = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}
    attrs = {
        (list(signature).index(name),): [["tt.divisibility", 16]]
        for name in ("M", "N", "K")
    }
    src = ASTSource(matmul_tma_kernel, signature, constexprs, attrs)
    kernel = triton.compile(
        src, target=HOPPER, options={"num_warps": 8, "num_stages": 3}
    )
    return kernel.asm["ptx"]


def main() -> None:
    out = Path(sys.argv[1])
    (out / "triton_gemm_cp_async.ptx").write_text(pointer_gemm(128))
    (out / "triton_gemm_tma.ptx").write_text(tma_gemm())


if __name__ == "__main__":
    main()
