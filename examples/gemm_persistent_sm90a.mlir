// A Hopper (sm_90a) GEMM tile kernel at the tile level: C = A * B for 4096^3 f16 inputs
// with an f32 accumulator, one 128x128 output tile per program id, K in steps of 64.
//
// Dynamic persistent (`nv_tileas.dynamic_persistent`): the kernel is launched on 132 CTAs
// (its `gemm_persistent_grid` constant) and gets the tile grid (32, 32, 1) as its last
// three parameters; each CTA loops over every 132nd tile (docs/tileas-to-ptx.md,
// "Launching a persistent kernel"). The pipeline and its mbarriers outlive the tiles:
// their phases carry on from tile to tile. With `tileas-to-ptx{scheduler=dynamic}` the
// tiles after each CTA's first come from an atomic tile counter in global memory (one
// more parameter, before the tile grid, that the launcher zeroes): a CTA that finishes
// early takes the next tile not yet taken.
//
// Warp specialised, as CUTLASS's sm90 cooperative kernel and Triton's TMA GEMM: a consumer
// agent of two warpgroups (its 128x128 accumulator split by rows, warps_per_cta = [8, 1],
// 64 rows each) and a producer agent of one warp. They share one 4-stage pipeline whose
// stage holds A's 128x64 block and B's 64x128 block of a K step, guarded by one "full" and
// one "empty" mbarrier: per K step the producer acquires an empty stage, fills both slots
// by TMA (tiled_loads copied into the slots, completing on the stage's full barrier, which
// expects both loads' bytes) and commits it. The consumers wait for the stage once, run the
// 128x128x64 dot as four m64n128k16 WGMMAs per warpgroup, and release the stage; the dot
// keeps one WGMMA group in flight (wait_group = 1), so each stage is handed back one K step
// later, once the wait retires the WGMMAs that read it. The producer's warpgroup gives
// registers to the consumers' (setmaxnreg). The epilogue stages the accumulator in a
// 128-byte swizzled buffer (bank-conflict-free stores) and stores it by TMA, one 128x32
// panel per store.
//
// The tiled_view arguments are CUtensorMaps built on the host, box = the tile (for C, the
// store's box), dimension 0 the contiguous one (K for A and for B, stored N x K; N for C),
// 128-byte swizzle.
//
// Run: tileas-opt examples/gemm_persistent_sm90a.mlir -p tileas-to-ptx -t ptx

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#sc = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#acc = #nv_tileas.mma<warps_per_cta = [8, 1], instr_shape = [64, 128, 16]>
!stage = !nv_tileas.pipeline<4, tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb>>

builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @gemm(%a: !nv_tileas.tiled_view<4096x4096xf16>, %b: !nv_tileas.tiled_view<4096x4096xf16>, %c: !nv_tileas.tiled_view<4096x4096xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.dynamic_persistent} {
    %p = nv_tileas.async.pipeline.create_pipeline : !stage
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
        %sa, %sb = nv_tileas.async.pipeline.consumer_acquire %p : !stage -> tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb>
        %d = nv_tileas.dot %sa, %sb, %acc_k atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 1 : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #acc>
        nv_tileas.async.pipeline.consumer_release %p : !stage
        scf.yield %d : tensor<128x128xf32, #acc>
      } {nv_tileas.num_warps = 8 : i32}
      %buf = nv_tileas.alloc_tensor {nv_tileas.num_warps = 8 : i32} : tensor<128x128xf32, #sc>
      %staged = nv_tileas.copy %acc, %buf {nv_tileas.num_warps = 8 : i32} : tensor<128x128xf32, #acc> -> tensor<128x128xf32, #sc>
      nv_tileas.tiled_store %staged, %c[%m, %n] box = [128, 32] {nv_tileas.num_warps = 8 : i32} : tensor<128x128xf32, #sc> -> !nv_tileas.tiled_view<4096x4096xf32>
    } {
      scf.for %k = %c0 to %c4096 step %c64 {
        %sa, %sb = nv_tileas.async.pipeline.producer_acquire %p : !stage -> tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb>
        %ta = nv_tileas.tiled_load %a[%m, %k] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<128x64xf16, #sa>
        %wa = nv_tileas.copy %ta, %sa : tensor<128x64xf16, #sa> -> tensor<128x64xf16, #sa>
        %tb = nv_tileas.tiled_load %b[%k, %n] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x128xf16, #sb>
        %wb = nv_tileas.copy %tb, %sb : tensor<64x128xf16, #sb> -> tensor<64x128xf16, #sb>
        nv_tileas.async.pipeline.producer_commit %p : !stage
      } {nv_tileas.num_warps = 1 : i32}
    }
    nv_tileas.return
  }
}
