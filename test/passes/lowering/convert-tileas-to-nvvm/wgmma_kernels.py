"""Tile-level GEMM kernels for the WGMMA emission tests: one `nv_tileas.dot` whose
accumulator is stored to global memory (so that ptxas keeps every MMA)."""

from __future__ import annotations

from dataclasses import dataclass

K_BY_TYPE = {
    "f16": 16,
    "bf16": 16,
    "tf32": 8,
    "f8E4M3FN": 32,
    "f8E5M2": 32,
    "si8": 32,
    "ui8": 32,
}

SASS_BY_TYPE = {
    "f16": "HGMMA",
    "bf16": "HGMMA",
    "tf32": "HGMMA",
    "f8E4M3FN": "QGMMA",
    "f8E5M2": "QGMMA",
    "si8": "IGMMA",
    "ui8": "IGMMA",
}
"""The SASS instruction ptxas 13.5 makes of a WGMMA with these inputs."""


@dataclass(frozen=True)
class Gemm:
    """D(M x N, acc) = A(M x K, a) * B(K x N, b) with an m64n{n}k* atom."""

    name: str
    a: str
    b: str
    acc: str
    n: int
    m_size: int
    n_size: int
    k_size: int
    kind: str = "ss"
    a_major: str = "k"
    b_major: str = "k"
    swizzle: int = 128
    wait_group: int = 0
    a_splat: str = "1.0"

    @property
    def k(self) -> int:
        return K_BY_TYPE[self.a]

    @property
    def mma_count(self) -> int:
        return (self.m_size // 64) * (self.n_size // self.n) * (self.k_size // self.k)

    def text(self) -> str:
        a_order = "[1, 0]" if self.a_major == "k" else "[0, 1]"
        b_order = "[0, 1]" if self.b_major == "k" else "[1, 0]"
        sa = f"#nv_tileas.shared<swizzle = {self.swizzle}, order = {a_order}>"
        sb = f"#nv_tileas.shared<swizzle = {self.swizzle}, order = {b_order}>"
        mma = (
            "#nv_tileas.mma<warps_per_cta = [4, 1], "
            f"instr_shape = [64, {self.n}, {self.k}]>"
        )
        atom = (
            f"!cute_nvgpu.sm90.mma<64x{self.n}x{self.k}, ab_major = ({self.a_major}, "
            f"{self.b_major}), elem_type = ({self.a}, {self.b}, {self.acc}), "
            f"frag_kind = {self.kind}>"
        )
        m, n, k = self.m_size, self.n_size, self.k_size
        a_type = (
            f"tensor<{m}x{k}x{self.a}, {sa}>"
            if self.kind == "ss"
            else f"tensor<{m}x{k}x{self.a}>"
        )
        b_type = f"tensor<{k}x{n}x{self.b}, {sb}>"
        c_type = f"tensor<{m}x{n}x{self.acc}, {mma}>"
        view = f"!nv_tileas.tiled_view<{m}x{n}x{self.acc}>"
        zero = "0" if self.acc.startswith("i") else "0.0"
        a_def = (
            f"%a = nv_tileas.alloc_tensor : {a_type}"
            if self.kind == "ss"
            else f"%a = arith.constant dense<{self.a_splat}> : {a_type}"
        )
        return f"""module attributes {{nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>}} {{
  nv_tileas.kernel @{self.name}(%out: !llvm.ptr<1>) attributes {{nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32}} {{
    {a_def}
    %b = nv_tileas.alloc_tensor : {b_type}
    %c = arith.constant dense<{zero}> : {c_type}
    %d = nv_tileas.dot %a, %b, %c atom = {atom} wait_group = {self.wait_group} : {a_type}, {b_type} -> {c_type}
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to {view}
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : {c_type} -> {view}
    nv_tileas.return
  }}
}}
"""


# Register A tiles stay at one m-tile: a splat A makes every m-tile's MMAs identical, and
# ptxas merges identical MMAs.
CASES = (
    # f16: both accumulators, every swizzle, several M / N / K tiles, both majornesses.
    Gemm("f16_f32_sw128", "f16", "f16", "f32", 64, 128, 64, 64),
    Gemm("f16_f16_sw64", "f16", "f16", "f16", 32, 64, 64, 32, swizzle=64),
    Gemm("f16_f32_sw32_n8", "f16", "f16", "f32", 8, 64, 32, 16, swizzle=32),
    Gemm("f16_f32_sw0_mn", "f16", "f16", "f32", 16, 128, 32, 32, "ss", "mn", "mn", 0),
    Gemm("f16_f32_n256", "f16", "f16", "f32", 256, 64, 256, 64, b_major="mn"),
    Gemm("f16_f32_m192", "f16", "f16", "f32", 24, 192, 48, 64, swizzle=128),
    Gemm("f16_rs", "f16", "f16", "f32", 64, 64, 128, 32, "rs", swizzle=64),
    # bf16
    Gemm("bf16_sw128", "bf16", "bf16", "f32", 128, 128, 128, 64, a_major="mn"),
    Gemm("bf16_rs_mn_b", "bf16", "bf16", "f32", 64, 64, 64, 64, "rs", "k", "mn"),
    # tf32
    Gemm("tf32_sw128", "tf32", "tf32", "f32", 64, 128, 64, 32),
    Gemm("tf32_rs", "tf32", "tf32", "f32", 32, 64, 32, 16, "rs", swizzle=64),
    # fp8, both types and mixed
    Gemm("e4m3", "f8E4M3FN", "f8E4M3FN", "f32", 64, 64, 64, 128),
    Gemm("e5m2_f16acc", "f8E5M2", "f8E5M2", "f16", 128, 64, 128, 64, swizzle=64),
    Gemm("e5m2_e4m3", "f8E5M2", "f8E4M3FN", "f32", 48, 128, 48, 128),
    Gemm("e4m3_rs", "f8E4M3FN", "f8E4M3FN", "f32", 32, 64, 64, 64, "rs", swizzle=64),
    # 8-bit integers, both types and mixed
    Gemm("s8", "si8", "si8", "i32", 64, 128, 64, 128),
    Gemm("u8_n24", "ui8", "ui8", "i32", 24, 64, 48, 32, swizzle=32),
    Gemm("s8_u8", "si8", "ui8", "i32", 32, 64, 32, 64, swizzle=64),
    Gemm("s8_rs", "si8", "si8", "i32", 16, 64, 32, 128, "rs", a_splat="2"),
)
