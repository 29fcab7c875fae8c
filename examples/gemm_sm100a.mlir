// A Blackwell (sm_100a) GEMM tile kernel at the tile level: C = A * B for 4096^3 f16
// inputs with an f32 accumulator in tensor memory, one 128x128 output tile per CTA, K in
// steps of 64.
//
// Warp specialised, as CUTLASS's sm100 GEMMs are: a producer warp loads A's 128x64 and
// B's 64x128 blocks by TMA into two 4-stage pipelines; an MMA warp waits for each stage
// and has one thread issue four 128x128x16 tcgen05.mma (kind::f16) into the accumulator,
// a slot of a one-stage pipeline of tensor memory, then releases the stage with a
// tcgen05.commit to its empty barrier; after the last K step it commits the accumulator
// to its full barrier. The epilogue warpgroup waits for it, reads it from tensor memory
// (tcgen05.ld, each warp its 32 lanes = rows), stages it in shared memory and stores it
// by TMA. The first MMA does not read the accumulator: `copy` of a zero constant into
// the slot starts it at zero.
//
// The tiled_view arguments are CUtensorMaps built on the host, box = the tile, dimension
// 0 the contiguous one (K for A and for B, stored N x K; N for C), no swizzle for C and
// 128-byte swizzle for A and B.
//
// Run: tileas-opt examples/gemm_sm100a.mlir -p tileas-to-ptx -t ptx

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#sc = #nv_tileas.shared<swizzle = 0, order = [1, 0]>
#tm = #nv_tileas.tmem

builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @gemm(%a: !nv_tileas.tiled_view<4096x4096xf16>, %b: !nv_tileas.tiled_view<4096x4096xf16>, %c: !nv_tileas.tiled_view<4096x4096xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
    %pa = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<4, tensor<128x64xf16, #sa>>
    %pb = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<4, tensor<64x128xf16, #sb>>
    %pacc = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<1, tensor<128x128xf32, #tm>>
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
      scf.for %k = %c0 to %c4096 step %c64 {
        %sa = nv_tileas.async.pipeline.producer_acquire %pa : !nv_tileas.pipeline<4, tensor<128x64xf16, #sa>> -> tensor<128x64xf16, #sa>
        %ta = nv_tileas.tiled_load %a[%m, %k] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<128x64xf16, #sa>
        %wa = nv_tileas.copy %ta, %sa : tensor<128x64xf16, #sa> -> tensor<128x64xf16, #sa>
        nv_tileas.async.pipeline.producer_commit %pa : !nv_tileas.pipeline<4, tensor<128x64xf16, #sa>>
        %sb = nv_tileas.async.pipeline.producer_acquire %pb : !nv_tileas.pipeline<4, tensor<64x128xf16, #sb>> -> tensor<64x128xf16, #sb>
        %tb = nv_tileas.tiled_load %b[%k, %n] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x128xf16, #sb>
        %wb = nv_tileas.copy %tb, %sb : tensor<64x128xf16, #sb> -> tensor<64x128xf16, #sb>
        nv_tileas.async.pipeline.producer_commit %pb : !nv_tileas.pipeline<4, tensor<64x128xf16, #sb>>
      } {nv_tileas.num_warps = 1 : i32}
    } {
      %slot = nv_tileas.async.pipeline.producer_acquire %pacc {nv_tileas.num_warps = 1 : i32} : !nv_tileas.pipeline<1, tensor<128x128xf32, #tm>> -> tensor<128x128xf32, #tm>
      %zero = arith.constant {nv_tileas.num_warps = 1 : i32} dense<0.000000e+00> : tensor<128x128xf32, #tm>
      %acc0 = nv_tileas.copy %zero, %slot {nv_tileas.num_warps = 1 : i32} : tensor<128x128xf32, #tm> -> tensor<128x128xf32, #tm>
      %acc = scf.for %k = %c0 to %c4096 step %c64 iter_args(%acc_k = %acc0) -> (tensor<128x128xf32, #tm>) {
        %sa = nv_tileas.async.pipeline.consumer_acquire %pa : !nv_tileas.pipeline<4, tensor<128x64xf16, #sa>> -> tensor<128x64xf16, #sa>
        %sb = nv_tileas.async.pipeline.consumer_acquire %pb : !nv_tileas.pipeline<4, tensor<64x128xf16, #sb>> -> tensor<64x128xf16, #sb>
        %d = nv_tileas.dot %sa, %sb, %acc_k atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #tm>
        nv_tileas.async.pipeline.consumer_release %pa : !nv_tileas.pipeline<4, tensor<128x64xf16, #sa>>
        nv_tileas.async.pipeline.consumer_release %pb : !nv_tileas.pipeline<4, tensor<64x128xf16, #sb>>
        scf.yield %d : tensor<128x128xf32, #tm>
      } {nv_tileas.num_warps = 1 : i32}
      nv_tileas.async.pipeline.producer_commit %pacc {nv_tileas.num_warps = 1 : i32} : !nv_tileas.pipeline<1, tensor<128x128xf32, #tm>>
    } {
      %t = nv_tileas.async.pipeline.consumer_acquire %pacc {nv_tileas.num_warps = 4 : i32} : !nv_tileas.pipeline<1, tensor<128x128xf32, #tm>> -> tensor<128x128xf32, #tm>
      %buf = nv_tileas.alloc_tensor {nv_tileas.num_warps = 4 : i32} : tensor<128x128xf32, #sc>
      %staged = nv_tileas.copy %t, %buf {nv_tileas.num_warps = 4 : i32} : tensor<128x128xf32, #tm> -> tensor<128x128xf32, #sc>
      nv_tileas.async.pipeline.consumer_release %pacc {nv_tileas.num_warps = 4 : i32} : !nv_tileas.pipeline<1, tensor<128x128xf32, #tm>>
      nv_tileas.tiled_store %staged, %c[%m, %n] {nv_tileas.num_warps = 4 : i32} : tensor<128x128xf32, #sc> -> !nv_tileas.tiled_view<4096x4096xf32>
    }
    nv_tileas.return
  }
}
