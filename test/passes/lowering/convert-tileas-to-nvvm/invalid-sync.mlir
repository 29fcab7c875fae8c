// Every diagnostic of the agent, mbarrier, pipeline, TMA, epilogue and loop patterns of
// convert-tileas-to-nvvm, at the op it is about.
// RUN: not tileas-opt %s --split-input-file -p convert-tileas-to-nvvm -o /dev/null 2>&1 | filecheck %s

// A warp_specialize before optimize-execution-unit-mapping.
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  nv_tileas.async.pipeline.warp_specialize {
    nv_tileas.async.fence
  }
  nv_tileas.return
}
// CHECK: invalid-sync.mlir:7:3: error: warp_specialize has no warp assignment: run optimize-execution-unit-mapping before convert-tileas-to-nvvm

// -----

// A pipeline created inside an agent.
!pipe = !nv_tileas.pipeline<2, tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>>
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1] {
    %p = nv_tileas.async.pipeline.create_pipeline : !pipe
  }
  nv_tileas.return
}
// CHECK: invalid-sync.mlir:20:5: error: create_pipeline must run on the whole CTA, not in an agent

// -----

// An mbarrier created inside an agent.
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1] {
    %bar = nv_tileas.mbarrier.create arrive_count = 1
  }
  nv_tileas.return
}
// CHECK: invalid-sync.mlir:31:5: error: mbarrier.create must run on the whole CTA, not in an agent

// -----

// A pipeline whose slots are not filled by TMA.
!pipe = !nv_tileas.pipeline<2, tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>>
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %p = nv_tileas.async.pipeline.create_pipeline : !pipe
  nv_tileas.async.pipeline.producer_commit %p : !pipe
  nv_tileas.return
}
// CHECK: invalid-sync.mlir:43:3: error: producer_commit: only pipelines whose slots are filled by TMA (a tiled_load copied into the acquired slot) are supported

// -----

// A register tile copied into a pipeline slot.
#s = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#b = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>
!pipe = !nv_tileas.pipeline<2, tensor<64x64xf16, #s>>
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %p = nv_tileas.async.pipeline.create_pipeline : !pipe
  %t = arith.constant dense<0.0> : tensor<64x64xf16, #b>
  %slot = nv_tileas.async.pipeline.producer_acquire %p : !pipe -> tensor<64x64xf16, #s>
  %w = nv_tileas.copy %t, %slot : tensor<64x64xf16, #b> -> tensor<64x64xf16, #s>
  nv_tileas.return
}
// CHECK: invalid-sync.mlir:58:3: error: a copy into a pipeline slot must copy a tiled_load (a TMA load); register copies into slots are not supported

// -----

// An accumulator copied into a column-major buffer.
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %buf = nv_tileas.alloc_tensor : tensor<64x64xf32, #nv_tileas.shared<swizzle = 128, order = [0, 1]>>
  %w = nv_tileas.copy %zero, %buf : tensor<64x64xf32, #acc> -> tensor<64x64xf32, #nv_tileas.shared<swizzle = 128, order = [0, 1]>>
  nv_tileas.return
}
// CHECK: invalid-sync.mlir:70:3: error: an accumulator is copied only into a row-major shared buffer (#nv_tileas.shared<swizzle = S, order = [1, 0]>)

// -----

// An accumulator of one warpgroup copied by two.
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 8 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %buf = nv_tileas.alloc_tensor : tensor<64x64xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>
  %w = nv_tileas.copy %zero, %buf : tensor<64x64xf32, #acc> -> tensor<64x64xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>
  nv_tileas.return
}
// CHECK: invalid-sync.mlir:82:3: error: an accumulator held by 1 warpgroup(s) must be copied by 4 warps

// -----

// A store of a tile that has no layout.
nv_tileas.kernel @k(%v: !nv_tileas.tiled_view<64x64xf16>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %t = arith.constant dense<0.0> : tensor<64x64xf16>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %t, %v[%c0, %c0] : tensor<64x64xf16> -> !nv_tileas.tiled_view<64x64xf16>
  nv_tileas.return
}
// CHECK: invalid-sync.mlir:93:3: error: tiled_store stores shared tiles (by TMA) and #nv_tileas.blocked register tiles; copy an accumulator into a #nv_tileas.shared buffer first

// -----

// An agent_switch outside any kernel.
nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1] {
}
// CHECK: invalid-sync.mlir:101:1: error: agent_switch must be inside a kernel or function

// -----

// A dot that keeps one group in flight reads a one-stage pipeline: the stage it reads is
// still in use when it needs the next one.
!pipe = !nv_tileas.pipeline<1, tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !pipe
    %b = nv_tileas.alloc_tensor : tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [0, 1]>>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>) {
      %sa = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
      %d = nv_tileas.dot %sa, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 1 : tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>, tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [0, 1]>> -> tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>
      nv_tileas.async.pipeline.consumer_release %p : !pipe
      scf.yield %d : tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>
    }
    nv_tileas.return
  }
}
// CHECK: invalid-sync.mlir:119:7: error: wait_group = 1 keeps 2 stages of each pipeline the dot reads in use at once: the pipeline's depth (1) must be more than 1

// -----

// A swizzled staging buffer stored in boxes narrower than its 128-byte panels.
nv_tileas.kernel @k(%v: !nv_tileas.tiled_view<1024x1024xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
  %buf = nv_tileas.alloc_tensor : tensor<64x64xf32, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %buf, %v[%c0, %c0] box = [64, 16] : tensor<64x64xf32, #nv_tileas.shared<swizzle = 128, order = [1, 0]>> -> !nv_tileas.tiled_view<1024x1024xf32>
  nv_tileas.return
}
// CHECK: invalid-sync.mlir:[[# @LINE - 3]]:3: error: the box's rows (64 bytes) must be the tile's swizzle width (128 bytes): each box is one panel of the buffer

// -----

// An unswizzled buffer stored in boxes of part of its rows.
nv_tileas.kernel @k(%v: !nv_tileas.tiled_view<1024x1024xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
  %buf = nv_tileas.alloc_tensor : tensor<64x64xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %buf, %v[%c0, %c0] box = [64, 32] : tensor<64x64xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>> -> !nv_tileas.tiled_view<1024x1024xf32>
  nv_tileas.return
}
// CHECK: invalid-sync.mlir:[[# @LINE - 3]]:3: error: an unswizzled tile is stored in boxes of whole rows: the box must span its columns

// -----

// A dot with A in registers cannot keep its groups in flight across iterations: the next
// iteration's ldmatrix would overwrite the A registers the WGMMAs in flight read.
!pipe = !nv_tileas.pipeline<2, tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !pipe
    %b = nv_tileas.alloc_tensor : tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [0, 1]>>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %acc = scf.for %k = %c0 to %c64 step %c64 iter_args(%c = %zero) -> (tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>) {
      %sa = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
      %ra = nv_tileas.convert_layout %sa : tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>> -> tensor<64x64xf16>
      %d = nv_tileas.dot %ra, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = rs> wait_group = 1 : tensor<64x64xf16>, tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [0, 1]>> -> tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>
      nv_tileas.async.pipeline.consumer_release %p : !pipe
      scf.yield %d : tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>
    }
    nv_tileas.return
  }
}
// CHECK: invalid-sync.mlir:[[# @LINE - 7]]:7: error: wait_group = 1 with A in registers: the next iteration would overwrite the A registers that the WGMMAs in flight still read (they are in flight until the wait_group that retires them); use wait_group = 0 or A in shared memory
