// A Blackwell (sm_100a) tile kernel for tileas-insert-OCG-knobs: a warp-specialised
// 8-bit integer GEMM, C (s32) = A (s8) * B (s8) for 4096^3, one 128x64 tile of C per
// CTA, K in steps of 128, on tcgen05.mma kind::i8 (128x64x32, four per K step; ptxas:
// UTCIMMA) into an s32 accumulator in tensor memory. The agents are gemm_sm100a.mlir's:
// a producer warp (TMA loads into two 2-stage pipelines), an MMA warp, an epilogue
// warpgroup reading tensor memory.
//
// For an sm 100 target with an MMA-family op (the dot), tileas-insert-OCG-knobs puts the
// global knob `SchedResBusyXU64=1` at the kernel's entry and `next knob FenceCode` before
// every async fence / arrive and barrier op (here the producer commits and consumer
// releases of the three pipelines); the knobs reach the PTX as `.pragma` lines (ptxas
// 13.5 answers them "unsupported", a warning).
//
// Run: tileas-opt examples/ocg_knobs_sm100a.mlir -p tileas-to-ptx -t ptx

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#sc = #nv_tileas.shared<swizzle = 0, order = [1, 0]>
#tm = #nv_tileas.tmem

builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @gemm(%a: !nv_tileas.tiled_view<4096x4096xsi8>, %b: !nv_tileas.tiled_view<4096x4096xsi8>, %c: !nv_tileas.tiled_view<4096x4096xi32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
    %pa = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<2, tensor<128x128xsi8, #sa>>
    %pb = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<2, tensor<128x64xsi8, #sb>>
    %pacc = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<1, tensor<128x64xi32, #tm>>
    %pid_m = nv_tileaa.get_program_id x
    %pid_n = nv_tileaa.get_program_id y
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %m_i32 = arith.muli %pid_m, %c128_i32 : i32
    %n_i32 = arith.muli %pid_n, %c64_i32 : i32
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c4096 = arith.constant 4096 : index
    nv_tileas.async.pipeline.warp_specialize {
      scf.for %k = %c0 to %c4096 step %c128 {
        %sa = nv_tileas.async.pipeline.producer_acquire %pa : !nv_tileas.pipeline<2, tensor<128x128xsi8, #sa>> -> tensor<128x128xsi8, #sa>
        %ta = nv_tileas.tiled_load %a[%m, %k] : !nv_tileas.tiled_view<4096x4096xsi8> -> tensor<128x128xsi8, #sa>
        %wa = nv_tileas.copy %ta, %sa : tensor<128x128xsi8, #sa> -> tensor<128x128xsi8, #sa>
        nv_tileas.async.pipeline.producer_commit %pa : !nv_tileas.pipeline<2, tensor<128x128xsi8, #sa>>
        %sb = nv_tileas.async.pipeline.producer_acquire %pb : !nv_tileas.pipeline<2, tensor<128x64xsi8, #sb>> -> tensor<128x64xsi8, #sb>
        %tb = nv_tileas.tiled_load %b[%k, %n] : !nv_tileas.tiled_view<4096x4096xsi8> -> tensor<128x64xsi8, #sb>
        %wb = nv_tileas.copy %tb, %sb : tensor<128x64xsi8, #sb> -> tensor<128x64xsi8, #sb>
        nv_tileas.async.pipeline.producer_commit %pb : !nv_tileas.pipeline<2, tensor<128x64xsi8, #sb>>
      } {nv_tileas.num_warps = 1 : i32}
    } {
      %slot = nv_tileas.async.pipeline.producer_acquire %pacc {nv_tileas.num_warps = 1 : i32} : !nv_tileas.pipeline<1, tensor<128x64xi32, #tm>> -> tensor<128x64xi32, #tm>
      %zero = arith.constant {nv_tileas.num_warps = 1 : i32} dense<0> : tensor<128x64xi32, #tm>
      %acc0 = nv_tileas.copy %zero, %slot {nv_tileas.num_warps = 1 : i32} : tensor<128x64xi32, #tm> -> tensor<128x64xi32, #tm>
      %acc = scf.for %k = %c0 to %c4096 step %c128 iter_args(%acc_k = %acc0) -> (tensor<128x64xi32, #tm>) {
        %sa = nv_tileas.async.pipeline.consumer_acquire %pa : !nv_tileas.pipeline<2, tensor<128x128xsi8, #sa>> -> tensor<128x128xsi8, #sa>
        %sb = nv_tileas.async.pipeline.consumer_acquire %pb : !nv_tileas.pipeline<2, tensor<128x64xsi8, #sb>> -> tensor<128x64xsi8, #sb>
        %d = nv_tileas.dot %sa, %sb, %acc_k atom = !cute_nvgpu.sm100.mma<128x64x32, ab_major = (k, k), elem_type = (si8, si8, i32), cta_group = 1> wait_group = 0 : tensor<128x128xsi8, #sa>, tensor<128x64xsi8, #sb> -> tensor<128x64xi32, #tm>
        nv_tileas.async.pipeline.consumer_release %pa : !nv_tileas.pipeline<2, tensor<128x128xsi8, #sa>>
        nv_tileas.async.pipeline.consumer_release %pb : !nv_tileas.pipeline<2, tensor<128x64xsi8, #sb>>
        scf.yield %d : tensor<128x64xi32, #tm>
      } {nv_tileas.num_warps = 1 : i32}
      nv_tileas.async.pipeline.producer_commit %pacc {nv_tileas.num_warps = 1 : i32} : !nv_tileas.pipeline<1, tensor<128x64xi32, #tm>>
    } {
      %t = nv_tileas.async.pipeline.consumer_acquire %pacc {nv_tileas.num_warps = 4 : i32} : !nv_tileas.pipeline<1, tensor<128x64xi32, #tm>> -> tensor<128x64xi32, #tm>
      %buf = nv_tileas.alloc_tensor {nv_tileas.num_warps = 4 : i32} : tensor<128x64xi32, #sc>
      %staged = nv_tileas.copy %t, %buf {nv_tileas.num_warps = 4 : i32} : tensor<128x64xi32, #tm> -> tensor<128x64xi32, #sc>
      nv_tileas.async.pipeline.consumer_release %pacc {nv_tileas.num_warps = 4 : i32} : !nv_tileas.pipeline<1, tensor<128x64xi32, #tm>>
      nv_tileas.tiled_store %staged, %c[%m, %n] {nv_tileas.num_warps = 4 : i32} : tensor<128x64xi32, #sc> -> !nv_tileas.tiled_view<4096x4096xi32>
    }
    nv_tileas.return
  }
}
