// A Blackwell (sm_100a) GEMM on CTA pairs (tcgen05.mma.cta_group::2): C = A * B for
// 4096^3 f16 inputs with an f32 accumulator in tensor memory, on 2-CTA clusters
// (`num_ctas = 2`). As in gemm_cluster_sm90a.mlir, a program is a cluster: its program
// ids are the cluster's (`%clusterid`), and it computes a 256x128 tile of C, as
// CUTLASS's 2-SM MMA does.
//
// The CTA layouts say which CTA of the pair holds what. A's 256x64 block of a K step,
// the accumulator and the epilogue's staging buffer are split by rows (`#rows`: CTA r
// holds rows 128 r .. 128 r + 127); B's 64x128 block is split by columns (`#cols`: CTA r
// holds columns 64 r .. 64 r + 63). So each CTA loads a 128x64 piece of A and a 64x64
// piece of B per K step, and stores its 128 rows of the C tile. One thread of the even
// CTA issues the pair's 256x128x16 MMAs, which read both CTAs' pieces in shared memory
// and write each CTA's rows of the accumulator in its tensor memory.
//
// The kernel is gemm_sm100a.mlir's, with the pair's synchronisation added by the
// lowering: both CTAs' TMA loads of a stage complete on the even CTA's full barrier,
// which expects the bytes of both pieces (`.cta_group::2`); the MMA warp runs on the
// even CTA only, and releases a stage in both CTAs (a multicast tcgen05.commit); the
// accumulator commit reaches both CTAs' epilogues, which both release it on the even
// CTA's barrier. Both CTAs allocate their tensor memory together
// (`tcgen05.alloc.cta_group::2`). The cluster meets once the pipelines' barriers are
// initialised, before any CTA signals a barrier of the other.
//
// The launch grid is (2 * 4096 / 256, 4096 / 128) CTAs in clusters of (2, 1, 1); the
// CUtensorMaps are gemm_sm100a.mlir's, with B's box 64x64 (a CTA's piece).
//
// Run: tileas-opt examples/gemm_2cta_sm100a.mlir -p tileas-to-ptx -t ptx

#rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#cols = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #rows>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1], cta = #cols>
#sc = #nv_tileas.shared<swizzle = 0, order = [1, 0], cta = #rows>
#tm = #nv_tileas.tmem<cta = #rows>

builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @gemm(%a: !nv_tileas.tiled_view<4096x4096xf16>, %b: !nv_tileas.tiled_view<4096x4096xf16>, %c: !nv_tileas.tiled_view<4096x4096xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
    %pa = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<4, tensor<256x64xf16, #sa>>
    %pb = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<4, tensor<64x128xf16, #sb>>
    %pacc = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<1, tensor<256x128xf32, #tm>>
    nv_tileas.cluster_barrier.arrive relaxed
    nv_tileas.cluster_barrier.wait
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
      scf.for %k = %c0 to %c4096 step %c64 {
        %sa = nv_tileas.async.pipeline.producer_acquire %pa : !nv_tileas.pipeline<4, tensor<256x64xf16, #sa>> -> tensor<256x64xf16, #sa>
        %ta = nv_tileas.tiled_load %a[%m, %k] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<256x64xf16, #sa>
        %wa = nv_tileas.copy %ta, %sa : tensor<256x64xf16, #sa> -> tensor<256x64xf16, #sa>
        nv_tileas.async.pipeline.producer_commit %pa : !nv_tileas.pipeline<4, tensor<256x64xf16, #sa>>
        %sb = nv_tileas.async.pipeline.producer_acquire %pb : !nv_tileas.pipeline<4, tensor<64x128xf16, #sb>> -> tensor<64x128xf16, #sb>
        %tb = nv_tileas.tiled_load %b[%k, %n] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x128xf16, #sb>
        %wb = nv_tileas.copy %tb, %sb : tensor<64x128xf16, #sb> -> tensor<64x128xf16, #sb>
        nv_tileas.async.pipeline.producer_commit %pb : !nv_tileas.pipeline<4, tensor<64x128xf16, #sb>>
      } {nv_tileas.num_warps = 1 : i32}
    } {
      %slot = nv_tileas.async.pipeline.producer_acquire %pacc {nv_tileas.num_warps = 1 : i32} : !nv_tileas.pipeline<1, tensor<256x128xf32, #tm>> -> tensor<256x128xf32, #tm>
      %zero = arith.constant {nv_tileas.num_warps = 1 : i32} dense<0.000000e+00> : tensor<256x128xf32, #tm>
      %acc0 = nv_tileas.copy %zero, %slot {nv_tileas.num_warps = 1 : i32} : tensor<256x128xf32, #tm> -> tensor<256x128xf32, #tm>
      %acc = scf.for %k = %c0 to %c4096 step %c64 iter_args(%acc_k = %acc0) -> (tensor<256x128xf32, #tm>) {
        %sa = nv_tileas.async.pipeline.consumer_acquire %pa : !nv_tileas.pipeline<4, tensor<256x64xf16, #sa>> -> tensor<256x64xf16, #sa>
        %sb = nv_tileas.async.pipeline.consumer_acquire %pb : !nv_tileas.pipeline<4, tensor<64x128xf16, #sb>> -> tensor<64x128xf16, #sb>
        %d = nv_tileas.dot %sa, %sb, %acc_k atom = !cute_nvgpu.sm100.mma<256x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<256x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<256x128xf32, #tm>
        nv_tileas.async.pipeline.consumer_release %pa : !nv_tileas.pipeline<4, tensor<256x64xf16, #sa>>
        nv_tileas.async.pipeline.consumer_release %pb : !nv_tileas.pipeline<4, tensor<64x128xf16, #sb>>
        scf.yield %d : tensor<256x128xf32, #tm>
      } {nv_tileas.num_warps = 1 : i32}
      nv_tileas.async.pipeline.producer_commit %pacc {nv_tileas.num_warps = 1 : i32} : !nv_tileas.pipeline<1, tensor<256x128xf32, #tm>>
    } {
      %t = nv_tileas.async.pipeline.consumer_acquire %pacc {nv_tileas.num_warps = 4 : i32} : !nv_tileas.pipeline<1, tensor<256x128xf32, #tm>> -> tensor<256x128xf32, #tm>
      %buf = nv_tileas.alloc_tensor {nv_tileas.num_warps = 4 : i32} : tensor<256x128xf32, #sc>
      %staged = nv_tileas.copy %t, %buf {nv_tileas.num_warps = 4 : i32} : tensor<256x128xf32, #tm> -> tensor<256x128xf32, #sc>
      nv_tileas.async.pipeline.consumer_release %pacc {nv_tileas.num_warps = 4 : i32} : !nv_tileas.pipeline<1, tensor<256x128xf32, #tm>>
      nv_tileas.tiled_store %staged, %c[%m, %n] {nv_tileas.num_warps = 4 : i32} : tensor<256x128xf32, #sc> -> !nv_tileas.tiled_view<4096x4096xf32>
    }
    nv_tileas.return
  }
}
