"""NVVM-level kernels around one `cute_nvgpu.atom.copy_s2t`, for the simulator.

Each CTA of 128 threads allocates 32 tensor-memory columns (`.cta_group::2` for a 2- or
4-CTA atom), thread i writes row i of a 128-row, 32-byte matrix into shared memory in the
canonical K-major layout without swizzle (16-byte chunks of 8 rows: LBO 128 between a
row's two chunks, SBO 256 between 8-row groups), word w of row i in CTA r being
`100000 r + 100 i + w`; then the copy moves it into tensor memory at column 0 (the 4-CTA
copy at its `partition_d` slice), every thread waits on the copy's mbarrier (phase 0),
reads its lane's first 16 columns (the `.32x32b` quarter of its warp) and stores them to
`out[r, i]`.
"""

from __future__ import annotations

from dataclasses import dataclass

DESCRIPTOR_BITS = (8 << 16) | ((16 | 1 << 14) << 32)
"""LBO 128 >> 4 in bits 16-29, SBO 256 >> 4 in bits 32-45, the sm_100 version bit 46."""


@dataclass(frozen=True)
class S2tKernel:
    shape: str
    cta_group: int
    ctas: int
    barrier_space: int = 3

    @property
    def atom(self) -> str:
        return (
            f'!cute_nvgpu.sm100.s2t_copy<shape = "{self.shape}", '
            f"cta_group = {self.cta_group}>"
        )

    def _stores(self) -> str:
        lines: list[str] = []
        for w in range(8):
            offset = 128 * (w // 4) + 4 * (w % 4)
            lines.append(
                f"    %v{w} = llvm.add %base_value, %c{w} : i32\n"
                f"    %o{w} = llvm.add %row_at, %c{offset}_b : i32\n"
                f"    %p{w} = llvm.getelementptr %matrix[%o{w}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8\n"
                f"    llvm.store %v{w}, %p{w} : i32, !llvm.ptr<3>"
            )
        return "\n".join(lines)

    def text(self) -> str:
        group = "cta_1" if self.cta_group == 1 else "cta_2"
        cluster = (
            f", nvvm.cluster_dim = array<i32: {self.ctas}, 1, 1>"
            if self.ctas > 1
            else ""
        )
        sync = (
            "nvvm.cluster.arrive {aligned}\n    nvvm.cluster.wait {aligned}"
            if self.cta_group > 1
            else "nvvm.barrier0"
        )
        constants = (
            "\n".join(
                f"    %c{w} = llvm.mlir.constant({w} : i32) : i32" for w in range(8)
            )
            + "\n"
            + "\n".join(
                f"    %c{o}_b = llvm.mlir.constant({o} : i32) : i32"
                for o in sorted({128 * (w // 4) + 4 * (w % 4) for w in range(8)})
            )
        )
        barrier = (
            "%bar = llvm.mlir.addressof @bar : !llvm.ptr<3>"
            if self.barrier_space == 3
            else "%bar_cta = llvm.mlir.addressof @bar : !llvm.ptr<3>\n"
            "    %bar = llvm.addrspacecast %bar_cta : !llvm.ptr<3> to !llvm.ptr"
        )
        barrier_type = "!llvm.ptr<3>" if self.barrier_space == 3 else "!llvm.ptr"
        return f"""
module attributes {{nvvm.target = #nvvm.target<chip = "sm_100a">}} {{
  llvm.mlir.global internal @matrix() {{addr_space = 3 : i32, alignment = 1024 : i64}} : !llvm.array<4096 x i8>
  llvm.mlir.global internal @slot() {{addr_space = 3 : i32, alignment = 4 : i64}} : i32
  llvm.mlir.global internal @bar() {{addr_space = 3 : i32, alignment = 8 : i64}} : i64
  llvm.func @s2t(%out: !llvm.ptr<1>) attributes {{nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>{cluster}}} {{
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %c0_i = llvm.mlir.constant(0 : i32) : i32
    %c3_i = llvm.mlir.constant(3 : i32) : i32
    %c4_i = llvm.mlir.constant(4 : i32) : i32
    %c5_i = llvm.mlir.constant(5 : i32) : i32
    %c7_i = llvm.mlir.constant(7 : i32) : i32
    %c8_i = llvm.mlir.constant(8 : i32) : i32
    %c16_i = llvm.mlir.constant(16 : i32) : i32
    %c21_i = llvm.mlir.constant(21 : i32) : i32
    %c32_i = llvm.mlir.constant(32 : i32) : i32
    %c100_i = llvm.mlir.constant(100 : i32) : i32
    %c128_i = llvm.mlir.constant(128 : i32) : i32
    %c100000_i = llvm.mlir.constant(100000 : i32) : i32
{constants}
    %warp = llvm.lshr %tid, %c5_i : i32
    %warp0 = llvm.icmp "eq" %warp, %c0_i : i32
    %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
    %matrix = llvm.mlir.addressof @matrix : !llvm.ptr<3>
    {barrier}
    scf.if %warp0 {{
      nvvm.tcgen05.alloc %slot, %c32_i {{group = #nvvm.cta_group<{group}>}} : !llvm.ptr<3>, i32
      nvvm.tcgen05.relinquish_alloc_permit {{group = #nvvm.cta_group<{group}>}}
    }}
    %in_row = llvm.and %tid, %c7_i : i32
    %in_row_b = llvm.shl %in_row, %c4_i : i32
    %group8 = llvm.lshr %tid, %c3_i : i32
    %group8_b = llvm.shl %group8, %c8_i : i32
    %row_at = llvm.add %in_row_b, %group8_b : i32
    %r_value = llvm.mul %rank, %c100000_i : i32
    %t_value = llvm.mul %tid, %c100_i : i32
    %base_value = llvm.add %r_value, %t_value : i32
{self._stores()}
    nvvm.fence.proxy {{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}}
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    {sync}
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
    %tmem = llvm.load %slot : !llvm.ptr<3> -> !llvm.ptr<6>
    %matrix_i = llvm.ptrtoint %matrix : !llvm.ptr<3> to i32
    %start = llvm.lshr %matrix_i, %c4_i : i32
    %start64 = llvm.zext %start : i32 to i64
    %fields = llvm.mlir.constant({DESCRIPTOR_BITS} : i64) : i64
    %desc = llvm.or %start64, %fields : i64
    %atom = cute_nvgpu.make_s2t_copy_atom : {self.atom}
    cute_nvgpu.atom.copy_s2t %atom, %tmem, %desc, %bar : {self.atom}, !llvm.ptr<6>, {barrier_type}
    %ticks = llvm.mlir.constant(10000000 : i32) : i32
    nvvm.mbarrier.try_wait.parity %bar, %c0_i, %ticks : {barrier_type}, i32, i32
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
    %quarter = llvm.shl %warp, %c21_i : i32
    %tmem_i = llvm.ptrtoint %tmem : !llvm.ptr<6> to i32
    %lane_at = llvm.add %tmem_i, %quarter : i32
    %lane_tmem = llvm.inttoptr %lane_at : i32 to !llvm.ptr<6>
    %row = nvvm.tcgen05.ld %lane_tmem {{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}} : vector<16xi32>
    nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
    %r_rows = llvm.mul %rank, %c128_i : i32
    %out_row = llvm.add %r_rows, %tid : i32
    %out_word = llvm.mul %out_row, %c16_i : i32
    %out_at = llvm.getelementptr %out[%out_word] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    llvm.store %row, %out_at : vector<16xi32>, !llvm.ptr<1>
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    {sync}
    scf.if %warp0 {{
      nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
      nvvm.tcgen05.dealloc %tmem, %c32_i {{group = #nvvm.cta_group<{group}>}} : !llvm.ptr<6>, i32
    }}
    llvm.return
  }}
}}
"""
