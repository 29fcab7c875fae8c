// The GEMM of gemm_sm90a.mlir on 2-CTA clusters (`num_ctas = 2`: `.reqnctapercluster 2`):
// a program is a cluster, which computes a 256x128 tile of C, each CTA 128 rows of it
// (a 2x1 cluster along M). The program ids are the cluster's (`%clusterid`), so the
// kernel is launched on (2 * 4096 / 256, 4096 / 128) CTAs in clusters of (2, 1, 1).
//
// The CTA layouts say who holds what. A's 256x64 block of a K step and the accumulator
// are split by rows (`#rows`: each CTA holds its 128 rows); B's 64x128 block is needed
// whole by both CTAs (`#both`: `split = [1, 1]`, replicated). So the lowering loads each
// B block once per cluster: each CTA loads half of it (64 of its 128 columns) by TMA and
// multicasts it to both CTAs' slots; each CTA's full barrier expects the whole stage, its
// own bytes and the half that arrives from its peer, and a consumer releasing a stage
// arrives on both CTAs' empty barriers, since both producers write into its slots. Per K
// step a CTA loads 16 KiB of A and 8 KiB of B instead of 16 KiB of each.
//
// The epilogue's staging buffer is an anchor split like the accumulator, and the
// accumulator is converted into that layout before it is copied there:
// `tileas-plan-cta` propagates the CTA layout backwards through the conversion, the K
// loop's iter_args and yields, the dot accumulator and the zero constant, and the
// conversion disappears. The C tile is stored by each CTA at its rows.
//
// The CTAs meet (a cluster barrier) once their pipelines' barriers are initialised and
// before they exit; the lowering adds both.
//
// Run: tileas-opt examples/gemm_cluster_sm90a.mlir -p tileas-to-ptx -t ptx

#rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#both = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #rows>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1], cta = #both>
#sc = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #rows>
#acc = #nv_tileas.mma<warps_per_cta = [8, 1], instr_shape = [64, 128, 16]>
#acc_rows = #nv_tileas.mma<warps_per_cta = [8, 1], instr_shape = [64, 128, 16], cta = #rows>
!stage = !nv_tileas.pipeline<4, tensor<256x64xf16, #sa>, tensor<64x128xf16, #sb>>

builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @gemm(%a: !nv_tileas.tiled_view<4096x4096xf16>, %b: !nv_tileas.tiled_view<4096x4096xf16>, %c: !nv_tileas.tiled_view<4096x4096xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
    %p = nv_tileas.async.pipeline.create_pipeline : !stage
    %pid_m = nv_tileaa.get_program_id x
    %pid_n = nv_tileaa.get_program_id y
    %c256_i32 = arith.constant 256 : i32
    %c128_i32 = arith.constant 128 : i32
    %m_i32 = arith.muli %pid_m, %c256_i32 : i32
    %n_i32 = arith.muli %pid_n, %c128_i32 : i32
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c4096 = arith.constant 4096 : index
    nv_tileas.async.pipeline.warp_specialize {
      %zero = arith.constant {nv_tileas.num_warps = 8 : i32} dense<0.000000e+00> : tensor<256x128xf32, #acc>
      %acc = scf.for %k = %c0 to %c4096 step %c64 iter_args(%acc_k = %zero) -> (tensor<256x128xf32, #acc>) {
        %sa, %sb = nv_tileas.async.pipeline.consumer_acquire %p : !stage -> tensor<256x64xf16, #sa>, tensor<64x128xf16, #sb>
        %d = nv_tileas.dot %sa, %sb, %acc_k atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 1 : tensor<256x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<256x128xf32, #acc>
        nv_tileas.async.pipeline.consumer_release %p : !stage
        scf.yield %d : tensor<256x128xf32, #acc>
      } {nv_tileas.num_warps = 8 : i32}
      %buf = nv_tileas.alloc_tensor {nv_tileas.num_warps = 8 : i32} : tensor<256x128xf32, #sc>
      %planned = nv_tileas.convert_layout %acc {nv_tileas.num_warps = 8 : i32} : tensor<256x128xf32, #acc> -> tensor<256x128xf32, #acc_rows>
      %staged = nv_tileas.copy %planned, %buf {nv_tileas.num_warps = 8 : i32} : tensor<256x128xf32, #acc_rows> -> tensor<256x128xf32, #sc>
      nv_tileas.tiled_store %staged, %c[%m, %n] box = [128, 32] {nv_tileas.num_warps = 8 : i32} : tensor<256x128xf32, #sc> -> !nv_tileas.tiled_view<4096x4096xf32>
    } {
      scf.for %k = %c0 to %c4096 step %c64 {
        %sa, %sb = nv_tileas.async.pipeline.producer_acquire %p : !stage -> tensor<256x64xf16, #sa>, tensor<64x128xf16, #sb>
        %ta = nv_tileas.tiled_load %a[%m, %k] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<256x64xf16, #sa>
        %wa = nv_tileas.copy %ta, %sa : tensor<256x64xf16, #sa> -> tensor<256x64xf16, #sa>
        %tb = nv_tileas.tiled_load %b[%k, %n] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x128xf16, #sb>
        %wb = nv_tileas.copy %tb, %sb : tensor<64x128xf16, #sb> -> tensor<64x128xf16, #sb>
        nv_tileas.async.pipeline.producer_commit %p : !stage
      } {nv_tileas.num_warps = 1 : i32}
    }
    nv_tileas.return
  }
}
