// The GEMM of gemm_sm90a.mlir on a 2-CTA cluster (`num_ctas = 2`: `.reqnctapercluster 2`):
// each CTA of the cluster computes its own 128x128 tile, and the cluster meets at a cluster
// barrier once its CTAs have initialised their pipelines and again before they exit.
//
// The staging buffers of the epilogue are anchors with a CTA layout (one copy per CTA of
// the cluster, `split = [1, 1]`), and each accumulator is converted into that layout before
// it is copied there: `tileas-plan-cta` propagates the CTA layout backwards through the
// conversion, the K loop's iter_args and yields, the dot accumulators and the zero
// constant, and the conversions disappear.
//
// Run: tileas-opt examples/gemm_cluster_sm90a.mlir -p tileas-to-ptx -t ptx
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#sc = #nv_tileas.shared<swizzle = 0, order = [1, 0]>
#sc2 = #nv_tileas.shared<swizzle = 0, order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16]>
#acc2 = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>

builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @gemm(%a: !nv_tileas.tiled_view<4096x4096xf16>, %b: !nv_tileas.tiled_view<4096x4096xf16>, %c: !nv_tileas.tiled_view<4096x4096xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
    %pa0 = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<3, tensor<64x64xf16, #sa>>
    %pa1 = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<3, tensor<64x64xf16, #sa>>
    %pb = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<3, tensor<64x128xf16, #sb>>
    %pid_m = nv_tileaa.get_program_id x
    %pid_n = nv_tileaa.get_program_id y
    %c128_i32 = arith.constant 128 : i32
    %m_i32 = arith.muli %pid_m, %c128_i32 : i32
    %n_i32 = arith.muli %pid_n, %c128_i32 : i32
    %m0 = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c4096 = arith.constant 4096 : index
    %m1 = arith.addi %m0, %c64 : index
    nv_tileas.cluster_barrier.arrive relaxed
    nv_tileas.cluster_barrier.wait
    nv_tileas.async.pipeline.warp_specialize {
      scf.for %k = %c0 to %c4096 step %c64 {
        %sa0 = nv_tileas.async.pipeline.producer_acquire %pa0 : !nv_tileas.pipeline<3, tensor<64x64xf16, #sa>> -> tensor<64x64xf16, #sa>
        %ta0 = nv_tileas.tiled_load %a[%m0, %k] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x64xf16, #sa>
        %wa0 = nv_tileas.copy %ta0, %sa0 : tensor<64x64xf16, #sa> -> tensor<64x64xf16, #sa>
        nv_tileas.async.pipeline.producer_commit %pa0 : !nv_tileas.pipeline<3, tensor<64x64xf16, #sa>>
        %sa1 = nv_tileas.async.pipeline.producer_acquire %pa1 : !nv_tileas.pipeline<3, tensor<64x64xf16, #sa>> -> tensor<64x64xf16, #sa>
        %ta1 = nv_tileas.tiled_load %a[%m1, %k] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x64xf16, #sa>
        %wa1 = nv_tileas.copy %ta1, %sa1 : tensor<64x64xf16, #sa> -> tensor<64x64xf16, #sa>
        nv_tileas.async.pipeline.producer_commit %pa1 : !nv_tileas.pipeline<3, tensor<64x64xf16, #sa>>
        %sb = nv_tileas.async.pipeline.producer_acquire %pb : !nv_tileas.pipeline<3, tensor<64x128xf16, #sb>> -> tensor<64x128xf16, #sb>
        %tb = nv_tileas.tiled_load %b[%k, %n] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x128xf16, #sb>
        %wb = nv_tileas.copy %tb, %sb : tensor<64x128xf16, #sb> -> tensor<64x128xf16, #sb>
        nv_tileas.async.pipeline.producer_commit %pb : !nv_tileas.pipeline<3, tensor<64x128xf16, #sb>>
      } {nv_tileas.num_warps = 1 : i32}
    } {
      %zero = arith.constant {nv_tileas.num_warps = 4 : i32} dense<0.000000e+00> : tensor<64x128xf32, #acc>
      %acc = scf.for %k = %c0 to %c4096 step %c64 iter_args(%acc_k = %zero) -> (tensor<64x128xf32, #acc>) {
        %sa = nv_tileas.async.pipeline.consumer_acquire %pa0 : !nv_tileas.pipeline<3, tensor<64x64xf16, #sa>> -> tensor<64x64xf16, #sa>
        %sb = nv_tileas.async.pipeline.consumer_acquire %pb : !nv_tileas.pipeline<3, tensor<64x128xf16, #sb>> -> tensor<64x128xf16, #sb>
        %d = nv_tileas.dot %sa, %sb, %acc_k atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 1 : tensor<64x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<64x128xf32, #acc>
        nv_tileas.async.pipeline.consumer_release %pa0 : !nv_tileas.pipeline<3, tensor<64x64xf16, #sa>>
        nv_tileas.async.pipeline.consumer_release %pb : !nv_tileas.pipeline<3, tensor<64x128xf16, #sb>>
        scf.yield %d : tensor<64x128xf32, #acc>
      } {nv_tileas.num_warps = 4 : i32}
      %buf = nv_tileas.alloc_tensor {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #sc2>
      %planned = nv_tileas.convert_layout %acc {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #acc> -> tensor<64x128xf32, #acc2>
      %staged = nv_tileas.copy %planned, %buf {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #acc2> -> tensor<64x128xf32, #sc2>
      nv_tileas.tiled_store %staged, %c[%m0, %n] {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #sc2> -> !nv_tileas.tiled_view<4096x4096xf32>
    } {
      %zero = arith.constant {nv_tileas.num_warps = 4 : i32} dense<0.000000e+00> : tensor<64x128xf32, #acc>
      %acc = scf.for %k = %c0 to %c4096 step %c64 iter_args(%acc_k = %zero) -> (tensor<64x128xf32, #acc>) {
        %sa = nv_tileas.async.pipeline.consumer_acquire %pa1 : !nv_tileas.pipeline<3, tensor<64x64xf16, #sa>> -> tensor<64x64xf16, #sa>
        %sb = nv_tileas.async.pipeline.consumer_acquire %pb : !nv_tileas.pipeline<3, tensor<64x128xf16, #sb>> -> tensor<64x128xf16, #sb>
        %d = nv_tileas.dot %sa, %sb, %acc_k atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 1 : tensor<64x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<64x128xf32, #acc>
        nv_tileas.async.pipeline.consumer_release %pa1 : !nv_tileas.pipeline<3, tensor<64x64xf16, #sa>>
        nv_tileas.async.pipeline.consumer_release %pb : !nv_tileas.pipeline<3, tensor<64x128xf16, #sb>>
        scf.yield %d : tensor<64x128xf32, #acc>
      } {nv_tileas.num_warps = 4 : i32}
      %buf = nv_tileas.alloc_tensor {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #sc2>
      %planned = nv_tileas.convert_layout %acc {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #acc> -> tensor<64x128xf32, #acc2>
      %staged = nv_tileas.copy %planned, %buf {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #acc2> -> tensor<64x128xf32, #sc2>
      nv_tileas.tiled_store %staged, %c[%m1, %n] {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #sc2> -> !nv_tileas.tiled_view<4096x4096xf32>
    }
    nv_tileas.cluster_barrier.arrive
    nv_tileas.cluster_barrier.wait
    nv_tileas.return
  }
}
