// A Hopper (sm_90a) GEMM tile kernel at the tile level: C = A * B for 4096^3 f16 inputs
// with an f32 accumulator, one 128x128 output tile per CTA, K in steps of 64.
//
// A (M x K, K contiguous) and B (K x N, stored N x K: K contiguous) arrive by TMA in
// 128x64 / 64x128 boxes into two 3-stage pipelines (rings of shared-memory slots, each
// slot guarded by a "full" and an "empty" mbarrier). The kernel is warp specialised:
// - the consumer agent (8 warps: two warpgroups, 64 rows of the tile each) waits for a
//   full slot of each pipeline, runs the 128x128x64 dot as WGMMAs (m64n128k16), and hands
//   the slots back;
// - the producer agent (1 warp) waits for an empty slot, issues the TMA loads that
//   complete on the slot's full mbarrier, and commits it.
// The epilogue stages the accumulator in shared memory and stores the tile by TMA.
//
// The tensor-map arguments are CUtensorMaps built on the host (dimension 0 the
// contiguous one: K for A and B, N for C).
//
// Run: tileas-opt examples/gemm_sm90a.mlir -p tileas-to-ptx -t ptx

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#sc = #nv_tileas.shared<swizzle = 0, order = [1, 0]>
#acc = #nv_tileas.mma<warps_per_cta = [8, 1], instr_shape = [64, 128, 16]>

builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @gemm(%a: !nv_tileas.tiled_view<4096x4096xf16>, %b: !nv_tileas.tiled_view<4096x4096xf16>, %c: !nv_tileas.tiled_view<4096x4096xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
    %pa = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<3, tensor<128x64xf16, #sa>>
    %pb = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<3, tensor<64x128xf16, #sb>>
    %pid_m = nv_tileaa.get_program_id x
    %pid_n = nv_tileaa.get_program_id y
    %c128_i32 = arith.constant 128 : i32
    %m_i32 = arith.muli %pid_m, %c128_i32 : i32
    %n_i32 = arith.muli %pid_n, %c128_i32 : i32
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c4096 = arith.constant 4096 : index
    nv_tileas.async.pipeline.warp_specialize {
      %zero = arith.constant {nv_tileas.num_warps = 8 : i32} dense<0.000000e+00> : tensor<128x128xf32, #acc>
      %acc = scf.for %k = %c0 to %c4096 step %c64 iter_args(%acc_k = %zero) -> (tensor<128x128xf32, #acc>) {
        %sa = nv_tileas.async.pipeline.consumer_acquire %pa : !nv_tileas.pipeline<3, tensor<128x64xf16, #sa>> -> tensor<128x64xf16, #sa>
        %sb = nv_tileas.async.pipeline.consumer_acquire %pb : !nv_tileas.pipeline<3, tensor<64x128xf16, #sb>> -> tensor<64x128xf16, #sb>
        %d = nv_tileas.dot %sa, %sb, %acc_k atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #acc>
        nv_tileas.async.pipeline.consumer_release %pa : !nv_tileas.pipeline<3, tensor<128x64xf16, #sa>>
        nv_tileas.async.pipeline.consumer_release %pb : !nv_tileas.pipeline<3, tensor<64x128xf16, #sb>>
        scf.yield %d : tensor<128x128xf32, #acc>
      } {nv_tileas.num_warps = 8 : i32}
      %buf = nv_tileas.alloc_tensor {nv_tileas.num_warps = 8 : i32} : tensor<128x128xf32, #sc>
      %staged = nv_tileas.copy %acc, %buf {nv_tileas.num_warps = 8 : i32} : tensor<128x128xf32, #acc> -> tensor<128x128xf32, #sc>
      nv_tileas.tiled_store %staged, %c[%m, %n] {nv_tileas.num_warps = 8 : i32} : tensor<128x128xf32, #sc> -> !nv_tileas.tiled_view<4096x4096xf32>
    } {
      scf.for %k = %c0 to %c4096 step %c64 {
        %sa = nv_tileas.async.pipeline.producer_acquire %pa : !nv_tileas.pipeline<3, tensor<128x64xf16, #sa>> -> tensor<128x64xf16, #sa>
        %ta = nv_tileas.tiled_load %a[%m, %k] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<128x64xf16, #sa>
        %wa = nv_tileas.copy %ta, %sa : tensor<128x64xf16, #sa> -> tensor<128x64xf16, #sa>
        nv_tileas.async.pipeline.producer_commit %pa : !nv_tileas.pipeline<3, tensor<128x64xf16, #sa>>
        %sb = nv_tileas.async.pipeline.producer_acquire %pb : !nv_tileas.pipeline<3, tensor<64x128xf16, #sb>> -> tensor<64x128xf16, #sb>
        %tb = nv_tileas.tiled_load %b[%k, %n] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x128xf16, #sb>
        %wb = nv_tileas.copy %tb, %sb : tensor<64x128xf16, #sb> -> tensor<64x128xf16, #sb>
        nv_tileas.async.pipeline.producer_commit %pb : !nv_tileas.pipeline<3, tensor<64x128xf16, #sb>>
      } {nv_tileas.num_warps = 1 : i32}
    }
    nv_tileas.return
  }
}
