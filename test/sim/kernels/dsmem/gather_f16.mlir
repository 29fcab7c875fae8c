// The gather of gather.mlir on f16 elements (issue 16): each thread's 4 contiguous
// elements go to the peers as two 32-bit words (st.async stores 32 or 64 bits), each
// packing two f16, the first in the low half.
#cta_rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#s = #nv_tileas.shared<swizzle = 0, order = [1, 0], cta = #cta_rows>
#rows = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #cta_rows>
#all = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>
!pipe = !nv_tileas.pipeline<1, tensor<64x32xf16, #s>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @gather(%in: !nv_tileas.tiled_view<64x32xf16>, %out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !pipe
    %c0 = arith.constant 0 : index
    %slot = nv_tileas.async.pipeline.producer_acquire %p : !pipe -> tensor<64x32xf16, #s>
    %t = nv_tileas.tiled_load %in[%c0, %c0] : !nv_tileas.tiled_view<64x32xf16> -> tensor<64x32xf16, #s>
    %w = nv_tileas.copy %t, %slot : tensor<64x32xf16, #s> -> tensor<64x32xf16, #s>
    nv_tileas.async.pipeline.producer_commit %p : !pipe
    %cslot = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<64x32xf16, #s>
    %r = nv_tileas.convert_layout %cslot : tensor<64x32xf16, #s> -> tensor<64x32xf16, #rows>
    nv_tileas.async.pipeline.consumer_release %p : !pipe
    %n = arith.negf %r : tensor<64x32xf16, #rows>
    %g = nv_tileas.convert_layout %n : tensor<64x32xf16, #rows> -> tensor<64x32xf16, #all>
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %c64 = arith.constant 64 : i32
    %row_i32 = arith.muli %rank, %c64 : i32
    %row = arith.index_cast %row_i32 : i32 to index
    %vout = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<128x32xf16>
    nv_tileas.tiled_store %g, %vout[%row, %c0] : tensor<64x32xf16, #all> -> !nv_tileas.tiled_view<128x32xf16>
    nv_tileas.return
  }
}
