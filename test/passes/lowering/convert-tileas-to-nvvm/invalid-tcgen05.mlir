// Every diagnostic of the tcgen05 emission and of tensor memory, at the op it is about.
// RUN: not tileas-opt %s --split-input-file -p convert-tileas-to-nvvm -o /dev/null 2>&1 | filecheck %s

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %t = nv_tileas.alloc_tensor : tensor<64x32xf32, #tm>
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:11:5: error: a tensor-memory tile has 128 rows (one per lane), got 64

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %t = nv_tileas.alloc_tensor : tensor<128x32xf16, #tm>
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:24:5: error: a tensor-memory tile holds 32-bit elements (one cell each), got f16

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %t = nv_tileas.alloc_tensor : tensor<128x512xf32, #tm>
    %u = nv_tileas.alloc_tensor : tensor<128x128xf32, #tm>
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:36:3: error: the kernel's tensor-memory tiles need 640 columns; a CTA has 512

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %t = nv_tileas.alloc_tensor : tensor<128x32xf32, #tm>
    %one = arith.constant dense<1.0> : tensor<128x32xf32, #tm>
    %w = nv_tileas.copy %one, %t : tensor<128x32xf32, #tm> -> tensor<128x32xf32, #tm>
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:53:5: error: only a zero constant is copied into tensor memory (it starts an accumulator at zero); MMAs write the rest

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<1, tensor<128x32xf32, #tm>>
    %t = nv_tileas.async.pipeline.consumer_acquire %p : !nv_tileas.pipeline<1, tensor<128x32xf32, #tm>> -> tensor<128x32xf32, #tm>
    %buf = nv_tileas.alloc_tensor : tensor<128x32xf32, #sa>
    %w = nv_tileas.copy %t, %buf : tensor<128x32xf32, #tm> -> tensor<128x32xf32, #sa>
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:69:5: error: a tensor-memory tile is copied only into an unswizzled row-major shared buffer (#nv_tileas.shared<swizzle = 0, order = [1, 0]>)

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 8 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<1, tensor<128x32xf32, #tm>>
    %t = nv_tileas.async.pipeline.consumer_acquire %p : !nv_tileas.pipeline<1, tensor<128x32xf32, #tm>> -> tensor<128x32xf32, #tm>
    %buf = nv_tileas.alloc_tensor : tensor<128x32xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>
    %w = nv_tileas.copy %t, %buf : tensor<128x32xf32, #tm> -> tensor<128x32xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:85:5: error: a tensor-memory tile is read by one warpgroup (4 warps: warp w reads lanes 32 w .. 32 w + 31), not 8 warps

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<1, tensor<128x32xf32, #tm>>
    nv_tileas.async.pipeline.consume_one %p : !nv_tileas.pipeline<1, tensor<128x32xf32, #tm>> -> () {
    ^bb0(%s: tensor<128x32xf32, #tm>):
      nv_tileas.async.pipeline.yield
    }
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:99:5: error: consume_one of tensor-memory slots is not supported: use consumer_acquire and consumer_release

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x64xf16, #sa>
    %b64 = nv_tileas.alloc_tensor : tensor<64x64xf16, #sb>
    %b32 = nv_tileas.alloc_tensor : tensor<64x32xf16, #sb>
    %c = nv_tileas.alloc_tensor : tensor<128x64xf32, #tm>
    %d = nv_tileas.dot %a, %b64, %c atom = !cute_nvgpu.sm100.mma<128x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x64xf16, #sb> -> tensor<128x64xf32, #tm>
    %e = nv_tileas.dot %a, %b32, %d atom = !cute_nvgpu.sm100.mma<256x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x32xf16, #sb> -> tensor<128x64xf32, #tm>
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:119:5: error: the sm100 MMAs of a kernel all use one cta_group, got 1 and 2

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x64xf16, #sa>
    %b64 = nv_tileas.alloc_tensor : tensor<64x64xf16, #sb>
    %b32 = nv_tileas.alloc_tensor : tensor<64x32xf16, #sb>
    %c = nv_tileas.alloc_tensor : tensor<128x64xf32, #tm>
    nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1] {
      %d = nv_tileas.dot %a, %b32, %c atom = !cute_nvgpu.sm100.mma<256x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x32xf16, #sb> -> tensor<128x64xf32, #tm>
    }
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:138:7: error: a cta_group = 2 MMA runs on CTA pairs: the kernel's cluster (nv_tileaa.kernel_spec num_ctas) must be a multiple of 2, got 1

// -----

#rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#cols = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #rows>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1], cta = #cols>
#tm = #nv_tileas.tmem<cta = #rows>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<256x64xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<64x64xf16, #sb>
    %c = nv_tileas.alloc_tensor : tensor<256x64xf32, #tm>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<256x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<256x64xf16, #sa>, tensor<64x64xf16, #sb> -> tensor<256x64xf32, #tm>
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:157:5: error: a cta_group = 2 dot must run in an agent of an agent_switch (the agent runs on the even CTA of each pair)

// -----

// A pair's dot without CTA layouts: each CTA would compute a whole tile of its own.
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x64xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<64x32xf16, #sb>
    %c = nv_tileas.alloc_tensor : tensor<128x64xf32, #tm>
    nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1] {
      %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<256x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x32xf16, #sb> -> tensor<128x64xf32, #tm>
    }
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:175:7: error: a cta_group = 2 dot computes a CTA pair's tile: its CTA layouts must split A and the accumulator by rows across each pair and B by columns, the even CTA holding the first half of the pair's columns, and not split K

// -----

// B split by rows (K) instead of columns.
#rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #rows>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1], cta = #rows>
#tm = #nv_tileas.tmem<cta = #rows>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<256x64xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<128x32xf16, #sb>
    %c = nv_tileas.alloc_tensor : tensor<256x64xf32, #tm>
    nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1] {
      %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<256x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<256x64xf16, #sa>, tensor<128x32xf16, #sb> -> tensor<256x64xf32, #tm>
    }
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:195:7: error: a cta_group = 2 dot computes a CTA pair's tile: its CTA layouts must split A and the accumulator by rows across each pair and B by columns, the even CTA holding the first half of the pair's columns, and not split K

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x64xf16, #sa>
    %b64 = nv_tileas.alloc_tensor : tensor<64x64xf16, #sb>
    %b32 = nv_tileas.alloc_tensor : tensor<64x32xf16, #sb>
    %c = nv_tileas.alloc_tensor : tensor<128x64xf32, #tm>
    %d = nv_tileas.dot %a, %b64, %c atom = !cute_nvgpu.sm100.mma<128x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x64xf16, #sb> -> tensor<128x64xf32, #tm>
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:213:5: error: an sm100 atom (tcgen05.mma) needs an sm_100a, sm_103a or sm_110a target (or their family targets), got sm_90a

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x32xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<32x64xf16, #sb>
    %c = nv_tileas.alloc_tensor : tensor<128x64xf32, #tm>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x32xf16, #sa>, tensor<32x64xf16, #sb> -> tensor<128x64xf32, #tm>
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:229:5: error: no tcgen05 descriptor can walk operand A: 128-byte swizzling needs the contiguous dimension to span a multiple of 128 bytes, got 64

// -----

#tm = #nv_tileas.tmem
#sc = #nv_tileas.shared<swizzle = 0, order = [1, 0]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %t = nv_tileas.alloc_tensor : tensor<128x32xf32, #tm>
    %buf = nv_tileas.alloc_tensor : tensor<128x32xf32, #sc>
    %w = nv_tileas.copy %t, %buf : tensor<128x32xf32, #tm> -> tensor<128x32xf32, #sc>
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:[[# @LINE - 4]]:5: error: a tensor-memory tile is read once its MMAs are complete: take it with consumer_acquire from a pipeline of tensor-memory slots (the MMAs' producer_commit completes its full barrier)

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %pa = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<1, tensor<128x64xf16, #sa>>
    %b = nv_tileas.alloc_tensor : tensor<64x64xf16, #sb>
    %c = nv_tileas.alloc_tensor : tensor<128x64xf32, #tm>
    nv_tileas.async.pipeline.consume_one %pa : !nv_tileas.pipeline<1, tensor<128x64xf16, #sa>> -> () {
    ^bb0(%a: tensor<128x64xf16, #sa>):
      %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x64xf16, #sb> -> tensor<128x64xf32, #tm>
      nv_tileas.async.pipeline.yield
    }
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:[[# @LINE - 6]]:7: error: an sm100 dot reads its operands after it is issued: take them with consumer_acquire and give them back with consumer_release (consume_one would release the slot before the MMA has read it)

// -----

#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<1, tensor<128x64xf32, #tm>, tensor<128x32xf32, #tm>>
    nv_tileas.return
  }
}
// CHECK: invalid-tcgen05.mlir:[[# @LINE - 4]]:5: error: a pipeline of tensor-memory slots has one slot a stage
