// A 2-CTA cluster gathers a tile through distributed shared memory (issue 16): each CTA
// loads 32 of the 64 rows of %in by TMA (its slot is split by rows), negates them in
// registers, and the convert_layout to a layout every CTA holds whole makes each CTA
// write its rows into both CTAs' buffers; each CTA then stores the whole tile at rows
// 64 * rank of %out.
#cta_rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#s = #nv_tileas.shared<swizzle = 0, order = [1, 0], cta = #cta_rows>
#rows = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #cta_rows>
#all = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>
!pipe = !nv_tileas.pipeline<1, tensor<64x32xf32, #s>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @gather(%in: !nv_tileas.tiled_view<64x32xf32>, %out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !pipe
    %c0 = arith.constant 0 : index
    %slot = nv_tileas.async.pipeline.producer_acquire %p : !pipe -> tensor<64x32xf32, #s>
    %t = nv_tileas.tiled_load %in[%c0, %c0] : !nv_tileas.tiled_view<64x32xf32> -> tensor<64x32xf32, #s>
    %w = nv_tileas.copy %t, %slot : tensor<64x32xf32, #s> -> tensor<64x32xf32, #s>
    nv_tileas.async.pipeline.producer_commit %p : !pipe
    %cslot = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<64x32xf32, #s>
    %r = nv_tileas.convert_layout %cslot : tensor<64x32xf32, #s> -> tensor<64x32xf32, #rows>
    nv_tileas.async.pipeline.consumer_release %p : !pipe
    %n = arith.negf %r : tensor<64x32xf32, #rows>
    %g = nv_tileas.convert_layout %n : tensor<64x32xf32, #rows> -> tensor<64x32xf32, #all>
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %c64 = arith.constant 64 : i32
    %row_i32 = arith.muli %rank, %c64 : i32
    %row = arith.index_cast %row_i32 : i32 to index
    %vout = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<128x32xf32>
    nv_tileas.tiled_store %g, %vout[%row, %c0] : tensor<64x32xf32, #all> -> !nv_tileas.tiled_view<128x32xf32>
    nv_tileas.return
  }
}
