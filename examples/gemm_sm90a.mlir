// A Hopper (sm_90a) GEMM tile kernel at the tile level: C = A * B for 4096^3 f16 inputs
// with an f32 accumulator, one 128x128 output tile per CTA, K in steps of 64.
//
// Warp specialised: a producer agent (one warp) and two consumer agents (one warpgroup
// each, 64 rows of the tile). Per K step the producer acquires an empty slot of three
// 3-stage pipelines (rings of shared-memory slots, each guarded by a "full" and an "empty"
// mbarrier): the two 64x64 halves of A's 128x64 block and B's 64x128 block, fills each by
// TMA (a tiled_load copied into the slot, completing on the slot's full mbarrier) and
// commits it. Each consumer waits for its A half and for B, runs its 64x128x64 dot as
// four m64n128k16 WGMMAs into its f32 accumulator, and releases the slots. The epilogue
// stages each consumer's accumulator in shared memory and stores it by TMA.
//
// The tiled_view arguments are CUtensorMaps built on the host, box = the tile, dimension
// 0 the contiguous one (K for A and for B, stored N x K; N for C), no swizzle for C and
// 128-byte swizzle for A and B.
//
// Run: tileas-opt examples/gemm_sm90a.mlir -p tileas-to-ptx -t ptx

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#sc = #nv_tileas.shared<swizzle = 0, order = [1, 0]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16]>

builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @gemm(%a: !nv_tileas.tiled_view<4096x4096xf16>, %b: !nv_tileas.tiled_view<4096x4096xf16>, %c: !nv_tileas.tiled_view<4096x4096xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
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
      %buf = nv_tileas.alloc_tensor {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #sc>
      %staged = nv_tileas.copy %acc, %buf {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #acc> -> tensor<64x128xf32, #sc>
      nv_tileas.tiled_store %staged, %c[%m0, %n] {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #sc> -> !nv_tileas.tiled_view<4096x4096xf32>
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
      %buf = nv_tileas.alloc_tensor {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #sc>
      %staged = nv_tileas.copy %acc, %buf {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #acc> -> tensor<64x128xf32, #sc>
      nv_tileas.tiled_store %staged, %c[%m1, %n] {nv_tileas.num_warps = 4 : i32} : tensor<64x128xf32, #sc> -> !nv_tileas.tiled_view<4096x4096xf32>
    }
    nv_tileas.return
  }
}
