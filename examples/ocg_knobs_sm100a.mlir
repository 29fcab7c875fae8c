// A Blackwell (sm_100) tile kernel for tileas-insert-OCG-knobs: a warp-specialised f32
// GEMM whose dot uses the universal FMA atom (WGMMA is sm_90a-only). A producer warp
// loads 32x32 tiles of A and B by TMA into two 2-stage pipelines; a consumer warpgroup
// takes each slot into registers (consume_one), accumulates with the FMA dot and stores
// its 32x32 tile.
//
// For an sm 100 target with an MMA-family op, tileas-insert-OCG-knobs puts the global
// knob `SchedResBusyXU64=1` at the kernel's entry and `next knob FenceCode` before every
// async fence / arrive and barrier op (here: the producer commits); the knobs reach the
// PTX as `.pragma` lines (ptxas 13.5 answers them "unsupported", a warning).
//
// convert-tileas-to-nvvm keeps the tiles in #nv_tileas.blocked registers (8 f32 per
// thread): each consume_one reads its slot with ld.shared, the FMA dot exchanges A and B
// through shared scratch and runs 256 fma.rn.f32 per thread and K step, and the result
// is staged in shared memory and stored by TMA. ptxas -arch=sm_100a assembles the PTX.
//
// Run: tileas-opt examples/ocg_knobs_sm100a.mlir -p tileas-to-ptx -t ptx

#s = #nv_tileas.shared<swizzle = 0, order = [1, 0]>
#blk = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [8, 4], warps_per_cta = [4, 1], order = [1, 0]>

builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @fma_gemm(%a: !nv_tileas.tiled_view<1024x1024xf32>, %b: !nv_tileas.tiled_view<1024x1024xf32>, %c: !nv_tileas.tiled_view<1024x1024xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
    %pa = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<2, tensor<32x32xf32, #s>>
    %pb = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<2, tensor<32x32xf32, #s>>
    %pid_m = nv_tileaa.get_program_id x
    %pid_n = nv_tileaa.get_program_id y
    %c32_i32 = arith.constant 32 : i32
    %m_i32 = arith.muli %pid_m, %c32_i32 : i32
    %n_i32 = arith.muli %pid_n, %c32_i32 : i32
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c1024 = arith.constant 1024 : index
    nv_tileas.async.pipeline.warp_specialize {
      scf.for %k = %c0 to %c1024 step %c32 {
        %sa = nv_tileas.async.pipeline.producer_acquire %pa : !nv_tileas.pipeline<2, tensor<32x32xf32, #s>> -> tensor<32x32xf32, #s>
        %ta = nv_tileas.tiled_load %a[%m, %k] : !nv_tileas.tiled_view<1024x1024xf32> -> tensor<32x32xf32, #s>
        %wa = nv_tileas.copy %ta, %sa : tensor<32x32xf32, #s> -> tensor<32x32xf32, #s>
        nv_tileas.async.pipeline.producer_commit %pa : !nv_tileas.pipeline<2, tensor<32x32xf32, #s>>
        %sb = nv_tileas.async.pipeline.producer_acquire %pb : !nv_tileas.pipeline<2, tensor<32x32xf32, #s>> -> tensor<32x32xf32, #s>
        %tb = nv_tileas.tiled_load %b[%k, %n] : !nv_tileas.tiled_view<1024x1024xf32> -> tensor<32x32xf32, #s>
        %wb = nv_tileas.copy %tb, %sb : tensor<32x32xf32, #s> -> tensor<32x32xf32, #s>
        nv_tileas.async.pipeline.producer_commit %pb : !nv_tileas.pipeline<2, tensor<32x32xf32, #s>>
      } {nv_tileas.num_warps = 1 : i32}
    } {
      %zero = arith.constant {nv_tileas.num_warps = 4 : i32} dense<0.000000e+00> : tensor<32x32xf32, #blk>
      %acc = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc_k = %zero) -> (tensor<32x32xf32, #blk>) {
        %ra = nv_tileas.async.pipeline.consume_one %pa : !nv_tileas.pipeline<2, tensor<32x32xf32, #s>> -> (tensor<32x32xf32, #blk>) {
        ^bb0(%slot: tensor<32x32xf32, #s>):
          %t = nv_tileas.convert_layout %slot : tensor<32x32xf32, #s> -> tensor<32x32xf32, #blk>
          nv_tileas.async.pipeline.yield %t : tensor<32x32xf32, #blk>
        }
        %rb = nv_tileas.async.pipeline.consume_one %pb : !nv_tileas.pipeline<2, tensor<32x32xf32, #s>> -> (tensor<32x32xf32, #blk>) {
        ^bb0(%slot: tensor<32x32xf32, #s>):
          %t = nv_tileas.convert_layout %slot : tensor<32x32xf32, #s> -> tensor<32x32xf32, #blk>
          nv_tileas.async.pipeline.yield %t : tensor<32x32xf32, #blk>
        }
        %d = nv_tileas.dot %ra, %rb, %acc_k atom = !cute_nvgpu.universal_fma<f32, f32, f32> wait_group = 0 : tensor<32x32xf32, #blk>, tensor<32x32xf32, #blk> -> tensor<32x32xf32, #blk>
        scf.yield %d : tensor<32x32xf32, #blk>
      } {nv_tileas.num_warps = 4 : i32}
      nv_tileas.tiled_store %acc, %c[%m, %n] {nv_tileas.num_warps = 4 : i32} : tensor<32x32xf32, #blk> -> !nv_tileas.tiled_view<1024x1024xf32>
    }
    nv_tileas.return
  }
}
