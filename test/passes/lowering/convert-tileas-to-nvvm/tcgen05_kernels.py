"""Warp-specialised tcgen05 GEMM kernels at the tile level, one per kind, CTA group and
majorness: the shape of `examples/gemm_sm100a.mlir` (a TMA producer warp, an MMA warp,
an epilogue warpgroup reading tensor memory), with the element types and the atom as
parameters. With `cta_group = 2` the program is the 2-CTA cluster (the shape of
`examples/gemm_2cta_sm100a.mlir`): it computes a 256-row tile, whose CTA layouts split A
and C by rows across the pair and B by columns."""

from __future__ import annotations

from dataclasses import dataclass

TILE_M = 128
"""Rows of C (and of A) per CTA."""

ROWS = (
    "#nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>"
)
COLUMNS = (
    "#nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>"
)


@dataclass(frozen=True)
class Gemm:
    """C (M x N) = A (M x K) * B (K x N) with one `size`^3 problem."""

    a: str
    b: str
    acc: str
    k: int
    """The atom's K."""
    n: int = 64
    """The atom's N (the CTA pair's with cta_group = 2)."""
    cta_group: int = 1
    b_major: str = "k"
    size: int = 256
    stages: int = 2

    @property
    def name(self) -> str:
        group = "_pair" if self.cta_group == 2 else ""
        return f"{self.a}_{self.b}_{self.acc}_b{self.b_major}{group}"

    @property
    def k_step(self) -> int:
        """K per pipeline stage: 128 bytes of A's row (one 128-byte swizzle span)."""
        return 128 * 8 // _bits(self.a)

    @property
    def b_columns(self) -> int:
        """Columns of B a CTA loads: its half of the pair's N."""
        return self.n // self.cta_group

    @property
    def grid(self) -> tuple[int, int]:
        """The launch grid in CTAs (a program is a cluster of `cta_group` CTAs)."""
        return (self.size // TILE_M, self.size // self.n)

    @property
    def cluster(self) -> tuple[int, int, int] | None:
        return (2, 1, 1) if self.cta_group == 2 else None

    @property
    def mmas(self) -> int:
        """tcgen05.mma instructions the whole launch issues."""
        pairs = self.grid[0] * self.grid[1] // self.cta_group
        return pairs * (self.size // self.k_step) * (self.k_step // self.k)

    def text(self) -> str:
        m_atom = TILE_M * self.cta_group
        b_order = "[0, 1]" if self.b_major == "k" else "[1, 0]"
        b_swizzle = (
            128
            if self.b_major == "k"
            else min(128, self.b_columns * _bits(self.b) // 8)
        )
        rows, columns = ("", "")
        if self.cta_group == 2:
            rows, columns = f", cta = {ROWS}", f", cta = {COLUMNS}"
        sa = f"#nv_tileas.shared<swizzle = 128, order = [1, 0]{rows}>"
        sb = f"#nv_tileas.shared<swizzle = {b_swizzle}, order = {b_order}{columns}>"
        tm = (
            f"#nv_tileas.tmem<cta = {ROWS}>"
            if self.cta_group == 2
            else "#nv_tileas.tmem"
        )
        ta = f"tensor<{m_atom}x{self.k_step}x{self.a}, {sa}>"
        tb = f"tensor<{self.k_step}x{self.n}x{self.b}, {sb}>"
        tc = f"tensor<{m_atom}x{self.n}x{self.acc}, {tm}>"
        ts = f"tensor<{m_atom}x{self.n}x{self.acc}, #nv_tileas.shared<swizzle = 0, order = [1, 0]{rows}>>"
        pa = f"!nv_tileas.pipeline<{self.stages}, {ta}>"
        pb = f"!nv_tileas.pipeline<{self.stages}, {tb}>"
        pacc = f"!nv_tileas.pipeline<1, {tc}>"
        s = self.size
        va = f"!nv_tileas.tiled_view<{s}x{s}x{self.a}>"
        vb = f"!nv_tileas.tiled_view<{s}x{s}x{self.b}>"
        vc = f"!nv_tileas.tiled_view<{s}x{s}x{self.acc}>"
        atom = (
            f"!cute_nvgpu.sm100.mma<{m_atom}x{self.n}x{self.k}, ab_major = (k, {self.b_major}), "
            f"elem_type = ({self.a}, {self.b}, {self.acc}), cta_group = {self.cta_group}>"
        )
        zero = "0.000000e+00" if self.acc.startswith("f") else "0"
        cluster = ""
        if self.cta_group == 2:
            cluster = """
    nv_tileas.cluster_barrier.arrive relaxed
    nv_tileas.cluster_barrier.wait"""
        return f"""
builtin.module attributes {{nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>}} {{
  nv_tileas.kernel @gemm(%a: {va}, %b: {vb}, %c: {vc}) attributes {{nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = {self.cta_group}>}} {{
    %pa = nv_tileas.async.pipeline.create_pipeline : {pa}
    %pb = nv_tileas.async.pipeline.create_pipeline : {pb}
    %pacc = nv_tileas.async.pipeline.create_pipeline : {pacc}{cluster}
    %pid_m = nv_tileaa.get_program_id x
    %pid_n = nv_tileaa.get_program_id y
    %cm_i32 = arith.constant {m_atom} : i32
    %cn_i32 = arith.constant {self.n} : i32
    %m_i32 = arith.muli %pid_m, %cm_i32 : i32
    %n_i32 = arith.muli %pid_n, %cn_i32 : i32
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %c0 = arith.constant 0 : index
    %ck = arith.constant {self.k_step} : index
    %cs = arith.constant {s} : index
    nv_tileas.async.pipeline.warp_specialize {{
      scf.for %k = %c0 to %cs step %ck {{
        %sa = nv_tileas.async.pipeline.producer_acquire %pa : {pa} -> {ta}
        %ta = nv_tileas.tiled_load %a[%m, %k] : {va} -> {ta}
        %wa = nv_tileas.copy %ta, %sa : {ta} -> {ta}
        nv_tileas.async.pipeline.producer_commit %pa : {pa}
        %sb = nv_tileas.async.pipeline.producer_acquire %pb : {pb} -> {tb}
        %tb = nv_tileas.tiled_load %b[%k, %n] : {vb} -> {tb}
        %wb = nv_tileas.copy %tb, %sb : {tb} -> {tb}
        nv_tileas.async.pipeline.producer_commit %pb : {pb}
      }} {{nv_tileas.num_warps = 1 : i32}}
    }} {{
      %slot = nv_tileas.async.pipeline.producer_acquire %pacc {{nv_tileas.num_warps = 1 : i32}} : {pacc} -> {tc}
      %zero = arith.constant {{nv_tileas.num_warps = 1 : i32}} dense<{zero}> : {tc}
      %acc0 = nv_tileas.copy %zero, %slot {{nv_tileas.num_warps = 1 : i32}} : {tc} -> {tc}
      %acc = scf.for %k = %c0 to %cs step %ck iter_args(%acc_k = %acc0) -> ({tc}) {{
        %sa = nv_tileas.async.pipeline.consumer_acquire %pa : {pa} -> {ta}
        %sb = nv_tileas.async.pipeline.consumer_acquire %pb : {pb} -> {tb}
        %d = nv_tileas.dot %sa, %sb, %acc_k atom = {atom} wait_group = 0 : {ta}, {tb} -> {tc}
        nv_tileas.async.pipeline.consumer_release %pa : {pa}
        nv_tileas.async.pipeline.consumer_release %pb : {pb}
        scf.yield %d : {tc}
      }} {{nv_tileas.num_warps = 1 : i32}}
      nv_tileas.async.pipeline.producer_commit %pacc {{nv_tileas.num_warps = 1 : i32}} : {pacc}
    }} {{
      %t = nv_tileas.async.pipeline.consumer_acquire %pacc {{nv_tileas.num_warps = 4 : i32}} : {pacc} -> {tc}
      %buf = nv_tileas.alloc_tensor {{nv_tileas.num_warps = 4 : i32}} : {ts}
      %staged = nv_tileas.copy %t, %buf {{nv_tileas.num_warps = 4 : i32}} : {tc} -> {ts}
      nv_tileas.async.pipeline.consumer_release %pacc {{nv_tileas.num_warps = 4 : i32}} : {pacc}
      nv_tileas.tiled_store %staged, %c[%m, %n] {{nv_tileas.num_warps = 4 : i32}} : {ts} -> {vc}
    }}
    nv_tileas.return
  }}
}}
"""


def _bits(element: str) -> int:
    if element in ("f16", "bf16"):
        return 16
    if element in ("tf32", "f32", "i32"):
        return 32
    return 8
