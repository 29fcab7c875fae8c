// A Hopper (sm_90a) GEMM tile kernel with 128x256 output tiles: C = A * B for 4096^3 f16
// inputs with an f32 accumulator, K in steps of 64.
//
// The structure of gemm_sm90a.mlir on a twice wider tile: a consumer agent of two
// warpgroups holds the 128x256 accumulator, split by rows (warps_per_cta = [8, 1]): each
// warpgroup's 64x256 share is one m64n256k16 accumulator, 128 registers per thread, which
// its budget of 232 registers after setmaxnreg.inc holds with room for the addresses (on
// one warpgroup the tile would need 256 registers per thread, more than any budget:
// convert-tileas-to-nvvm warns, ptxas serializes the WGMMAs, C7511, and spills). A producer
// warp fills a 2-stage pipeline whose stage holds A's 128x64 block and B's 64x256 block
// (48 KiB); the dot keeps one WGMMA group in flight (wait_group = 1), so each stage is
// handed back one K step later. The f32 tile is staged in a 128-byte swizzled buffer
// (128 KiB) and stored by TMA as eight 128x32 panels: with the two stages, 224 KiB of
// shared memory.
//
// The tiled_view arguments are CUtensorMaps built on the host, box = the tile (for C, the
// store's box), dimension 0 the contiguous one (K for A and for B, stored N x K; N for C),
// 128-byte swizzle.
//
// Run: tileas-opt examples/gemm_128x256_sm90a.mlir -p tileas-to-ptx -t ptx

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#sc = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#acc = #nv_tileas.mma<warps_per_cta = [8, 1], instr_shape = [64, 256, 16]>
!stage = !nv_tileas.pipeline<2, tensor<128x64xf16, #sa>, tensor<64x256xf16, #sb>>

builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @gemm(%a: !nv_tileas.tiled_view<4096x4096xf16>, %b: !nv_tileas.tiled_view<4096x4096xf16>, %c: !nv_tileas.tiled_view<4096x4096xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
    %p = nv_tileas.async.pipeline.create_pipeline : !stage
    %pid_m = nv_tileaa.get_program_id x
    %pid_n = nv_tileaa.get_program_id y
    %c128_i32 = arith.constant 128 : i32
    %c256_i32 = arith.constant 256 : i32
    %m_i32 = arith.muli %pid_m, %c128_i32 : i32
    %n_i32 = arith.muli %pid_n, %c256_i32 : i32
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c4096 = arith.constant 4096 : index
    nv_tileas.async.pipeline.warp_specialize {
      %zero = arith.constant {nv_tileas.num_warps = 8 : i32} dense<0.000000e+00> : tensor<128x256xf32, #acc>
      %acc = scf.for %k = %c0 to %c4096 step %c64 iter_args(%acc_k = %zero) -> (tensor<128x256xf32, #acc>) {
        %sa, %sb = nv_tileas.async.pipeline.consumer_acquire %p : !stage -> tensor<128x64xf16, #sa>, tensor<64x256xf16, #sb>
        %d = nv_tileas.dot %sa, %sb, %acc_k atom = !cute_nvgpu.sm90.mma<64x256x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 1 : tensor<128x64xf16, #sa>, tensor<64x256xf16, #sb> -> tensor<128x256xf32, #acc>
        nv_tileas.async.pipeline.consumer_release %p : !stage
        scf.yield %d : tensor<128x256xf32, #acc>
      } {nv_tileas.num_warps = 8 : i32}
      %buf = nv_tileas.alloc_tensor {nv_tileas.num_warps = 8 : i32} : tensor<128x256xf32, #sc>
      %staged = nv_tileas.copy %acc, %buf {nv_tileas.num_warps = 8 : i32} : tensor<128x256xf32, #acc> -> tensor<128x256xf32, #sc>
      nv_tileas.tiled_store %staged, %c[%m, %n] box = [128, 32] {nv_tileas.num_warps = 8 : i32} : tensor<128x256xf32, #sc> -> !nv_tileas.tiled_view<4096x4096xf32>
    } {
      scf.for %k = %c0 to %c4096 step %c64 {
        %sa, %sb = nv_tileas.async.pipeline.producer_acquire %p : !stage -> tensor<128x64xf16, #sa>, tensor<64x256xf16, #sb>
        %ta = nv_tileas.tiled_load %a[%m, %k] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<128x64xf16, #sa>
        %wa = nv_tileas.copy %ta, %sa : tensor<128x64xf16, #sa> -> tensor<128x64xf16, #sa>
        %tb = nv_tileas.tiled_load %b[%k, %n] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x256xf16, #sb>
        %wb = nv_tileas.copy %tb, %sb : tensor<64x256xf16, #sb> -> tensor<64x256xf16, #sb>
        nv_tileas.async.pipeline.producer_commit %p : !stage
      } {nv_tileas.num_warps = 1 : i32}
    }
    nv_tileas.return
  }
}
