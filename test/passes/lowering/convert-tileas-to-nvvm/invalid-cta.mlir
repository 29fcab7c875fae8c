// Tiles split across the CTAs of a cluster that convert-tileas-to-nvvm cannot lower: each
// is diagnosed at its op (issue 14, F7).
// RUN: not tileas-opt %s --split-input-file -p convert-tileas-to-nvvm -o /dev/null 2>&1 | filecheck %s

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

// A conversion of a whole tile into pieces is not a gather (dsmem.py).
nv_tileas.kernel @cta_change(%x: tensor<256xf32, #b>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
  %y = nv_tileas.convert_layout %x : tensor<256xf32, #b> -> tensor<256xf32, #b2>
  nv_tileas.return
}

// CHECK: invalid-cta.mlir:10:3: error: 'nv_tileas.convert_layout' between tiles split differently across the CTAs of the cluster is lowered through distributed shared memory only as a gather of blocked register tiles of one layout: each CTA's new piece made of whole pieces of the old split

// -----

#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>
#s = #nv_tileas.shared<swizzle = 0, order = [0]>

// So does a copy of a split tile into a buffer every CTA holds whole.
nv_tileas.kernel @copy_to_replica() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
  %x = arith.constant dense<1.0> : tensor<256xf32, #b2>
  %a = nv_tileas.alloc_tensor : tensor<256xf32, #s>
  %w = nv_tileas.copy %x, %a : tensor<256xf32, #b2> -> tensor<256xf32, #s>
  nv_tileas.return
}

// CHECK: invalid-cta.mlir:25:3: error: 'nv_tileas.copy' between tiles split differently across the CTAs of the cluster moves data between CTAs (through distributed shared memory), which convert-tileas-to-nvvm does not lower

// -----

#cta_k = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>
#cta_kb = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #cta_k>
#sb = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #cta_kb>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16]>

// A dot split along K would need the CTAs' partial sums added up.
nv_tileas.kernel @split_k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
  %a = nv_tileas.alloc_tensor : tensor<64x64xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<64x128xf16, #sb>
  %c = arith.constant dense<0.0> : tensor<64x128xf32, #acc>
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, mn), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<64x128xf32, #acc>
  nv_tileas.return
}

// CHECK: invalid-cta.mlir:44:3: error: a dot whose operands are split across the CTAs of the cluster must split A by the accumulator's rows and B by its columns, and not K

// -----

#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

// An element of a split tile is in one CTA only.
nv_tileas.kernel @extract(%i: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
  %x = arith.constant dense<1.0> : tensor<256xf32, #b2>
  %e = nv_tileaa.extract %x[%i] : tensor<256xf32, #b2> -> f32
  nv_tileas.return
}

// CHECK: invalid-cta.mlir:57:3: error: an element of a tile split across the CTAs of the cluster is held by one CTA only; extract from it is not supported

// -----

#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

// Each CTA's part of a constant is the same only for a splat.
nv_tileas.kernel @ramp() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
  %x = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32, #b2>
  nv_tileas.return
}

// CHECK: invalid-cta.mlir:69:3: error: a constant split across the CTAs must be a splat

// -----

#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

nv_tileas.kernel @odd() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
  %x = arith.constant dense<1.0> : tensor<129xf32, #b2>
  nv_tileas.return
}

// CHECK: invalid-cta.mlir:80:3: error: a tile of shape [129] cannot be split [2] ways

// -----

#b4 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [4], split = [4], order = [0]>>

// The CTA layout names the cluster's CTAs by rank: it spans the kernel's cluster.
nv_tileas.kernel @cluster(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
  %x = arith.constant dense<1.0> : tensor<512xf32, #b4>
  nv_tileas.return
}

// CHECK: invalid-cta.mlir:92:3: error: CTA layout spans 4 CTAs but the kernel's cluster has 2

// -----

#rows = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>>
#cols = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>>

// Rows to columns: each new piece holds half of each old one.
nv_tileas.kernel @transpose_split() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
  %x = arith.constant dense<1.0> : tensor<32x32xf32, #rows>
  %y = nv_tileas.convert_layout %x : tensor<32x32xf32, #rows> -> tensor<32x32xf32, #cols>
  nv_tileas.return
}

// CHECK: invalid-cta.mlir:106:3: error: 'nv_tileas.convert_layout' between tiles split differently across the CTAs of the cluster is lowered through distributed shared memory only as a gather of blocked register tiles of one layout: each CTA's new piece made of whole pieces of the old split

// -----

#rows = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>>
#all = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>

// A gather meets the whole cluster: not inside one agent of a warp-specialised kernel.
nv_tileas.kernel @gather_in_agent() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 8 : i32} {
  nv_tileas.async.pipeline.agent_switch num_warps = [4, 4] warp_id = [0, 4] agent_strides = [1, 1] {
    %x = arith.constant dense<1.0> : tensor<32x32xf32, #rows>
    %y = nv_tileas.convert_layout %x : tensor<32x32xf32, #rows> -> tensor<32x32xf32, #all>
  } {
  }
  nv_tileas.return
}

// CHECK: invalid-cta.mlir:121:5: error: 'nv_tileas.convert_layout' across the CTAs of the cluster meets every thread of the cluster (barrier.cluster) and cannot run inside a warp-specialised agent

// -----

#rows = #nv_tileas.blocked<size_per_thread = [1, 1], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>>
#all = #nv_tileas.blocked<size_per_thread = [1, 1], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>

// A gather writes whole 32-bit words: one f16 per thread along the rows is half a word.
nv_tileas.kernel @half_words() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
  %x = arith.constant dense<1.0> : tensor<32x8xf16, #rows>
  %y = nv_tileas.convert_layout %x : tensor<32x8xf16, #rows> -> tensor<32x8xf16, #all>
  nv_tileas.return
}

// CHECK: invalid-cta.mlir:137:3: error: 'nv_tileas.convert_layout' across the CTAs of the cluster writes to the peers in 32- or 64-bit words (st.async): each thread's run of 16-bit elements along the contiguous dimension (1) must fill whole 32-bit words
