// Tiles split across the CTAs of a cluster: each CTA holds and computes its piece, and a
// tiled access of the piece is offset by its place in the tile, from the CTA's rank in
// the cluster (issue 14, F7: a split = [2] tile lowered with no cluster-rank term, each
// CTA handling the whole tile). Replicated layouts (split 1) lower as before.
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#split2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>
#replicated = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [1], order = [0]>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @split(%out: !llvm.ptr<1>, %i: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %t = arith.constant dense<1.0> : tensor<256xf32, #split2>
    %n = arith.negf %t : tensor<256xf32, #split2>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<1024xf32>
    nv_tileas.tiled_store %n, %view[%i] : tensor<256xf32, #split2> -> !nv_tileas.tiled_view<1024xf32>
    nv_tileas.return
  }
  nv_tileas.kernel @replicated(%out: !llvm.ptr<1>, %i: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %t = arith.constant dense<1.0> : tensor<256xf32, #replicated>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<1024xf32>
    nv_tileas.tiled_store %t, %view[%i] : tensor<256xf32, #replicated> -> !nv_tileas.tiled_view<1024xf32>
    nv_tileas.return
  }
}

// Each CTA holds 128 of the 256 elements (one per thread), at 128 * rank.
// CHECK-LABEL: llvm.func @split
// CHECK:         arith.negf %{{.*}} : f32
// CHECK-NEXT:    llvm.mlir.undef : !llvm.struct<(f32)>
// CHECK-NEXT:    llvm.insertvalue %{{.*}}, %{{.*}}[0] : !llvm.struct<(f32)>
// CHECK-NEXT:    %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:    %[[PIECE:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[RANK]], %[[PIECE]] : i32
// CHECK-NEXT:    %[[OFFI:.*]] = arith.index_cast %[[OFF]] : i32 to index
// CHECK-NEXT:    %[[I:.*]] = arith.addi %{{.*}}, %[[OFFI]] : index
// CHECK:         arith.index_cast %[[I]] : index to i64
// CHECK-NOT:     llvm.extractvalue %{{.*}}[1]
// CHECK:         llvm.return
// Replicated: every CTA holds the whole tile (two elements per thread), no rank.
// CHECK-LABEL: llvm.func @replicated
// CHECK-NOT:     ctarank
// CHECK:         !llvm.struct<(f32, f32)>
// CHECK:         llvm.return

// PTX-LABEL: .entry split(
// PTX:         mov.u32 %r{{[0-9]+}}, %cluster_ctarank;
// PTX-LABEL: .entry replicated(
// PTX-NOT:     %cluster_ctarank
// PTX:         ret;

// -----

// Four CTAs as 2 x 2, the rows split in two (order [1, 0]: the column coordinate is the
// rank's fastest digit, the row coordinate rank / 2); the columns are replicated.
#split_rows = #nv_tileas.blocked<size_per_thread = [1, 1], threads_per_warp = [1, 32], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 2], split = [2, 1], order = [1, 0]>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @rows(%out: !llvm.ptr<1>, %i: index, %j: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 4>, nv_tileas.num_warps = 4 : i32} {
    %t = arith.constant dense<0.0> : tensor<16x32xf32, #split_rows>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x64xf32>
    nv_tileas.tiled_store %t, %view[%i, %j] : tensor<16x32xf32, #split_rows> -> !nv_tileas.tiled_view<64x64xf32>
    nv_tileas.return
  }
}

// CHECK-LABEL: llvm.func @rows
// CHECK:         llvm.mlir.zero : !llvm.struct<(f32, f32)>
// CHECK-NEXT:    %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[ROW:.*]] = arith.divui %[[RANK]], %[[TWO]] : i32
// CHECK-NEXT:    %[[EIGHT:.*]] = arith.constant 8 : i32
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[ROW]], %[[EIGHT]] : i32
// CHECK-NEXT:    %[[OFFI:.*]] = arith.index_cast %[[OFF]] : i32 to index
// CHECK-NEXT:    %{{.*}} = arith.addi %{{.*}}, %[[OFFI]] : index

// -----

// A dot split by the accumulator's rows: each CTA multiplies its 64 rows of A by all of B
// (one m64n128 tile, four K steps: four wgmma instead of eight) and stores its 64 rows of
// D at row 64 * rank; its shared buffers are its pieces (8 KiB of A, not 16: 24 KiB in all).
#cta2 = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #cta2>
#sb = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16], cta = #cta2>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @rows_dot(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x64xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<64x128xf16, #sb>
    %c = arith.constant dense<0.0> : tensor<128x128xf32, #acc>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, mn), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #acc>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<128x128xf32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<128x128xf32, #acc> -> !nv_tileas.tiled_view<128x128xf32>
    nv_tileas.return
  }
}

// CHECK:       llvm.mlir.global internal @rows_dot_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<24576 x i8>
// CHECK-LABEL: llvm.func @rows_dot
// CHECK-COUNT-4: nvvm.wgmma.mma_async
// CHECK-NOT:     nvvm.wgmma.mma_async
// CHECK:         nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:    arith.constant 64 : i32
// CHECK-NEXT:    arith.muli

// PTX-LABEL: .entry rows_dot(
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// PTX-NOT:     wgmma.mma_async
// PTX:         %cluster_ctarank
