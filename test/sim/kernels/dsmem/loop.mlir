// The gather of gather.mlir run 3 times in a loop (issue 16): each run initialises the
// gather's mbarrier again and refills its buffer, so the CTA must be done with the last
// run's phase and reads first. Each CTA holds 16 of the 32 rows of a tile of value
// -(k + 1) in run k; every CTA stores the gathered tile of run k at rows 32 k of %out
// (both CTAs store the same values there).
#rows = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>>
#all = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @loop(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant dense<1.0> : tensor<32x32xf32, #rows>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<96x32xf32>
    %last = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %one) -> (tensor<32x32xf32, #rows>) {
      %n = arith.negf %acc : tensor<32x32xf32, #rows>
      %g = nv_tileas.convert_layout %n : tensor<32x32xf32, #rows> -> tensor<32x32xf32, #all>
      %row = arith.muli %k, %c32 : index
      nv_tileas.tiled_store %g, %view[%row, %c0] : tensor<32x32xf32, #all> -> !nv_tileas.tiled_view<96x32xf32>
      %back = arith.addf %acc, %one : tensor<32x32xf32, #rows>
      scf.yield %back : tensor<32x32xf32, #rows>
    }
    nv_tileas.return
  }
}
