// A warpgroup's accumulator that needs more registers per thread than its budget is
// reported at the dot (ptxas would spill it or serialize the WGMMAs, C7511): a 128x256
// f32 tile on one warpgroup of a 128-thread kernel needs 256, the budget is 255. Split
// over two warpgroups (warps_per_cta = [8, 1]) it needs 128: no warning.
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm -o /dev/null 2>&1 | filecheck %s
// Budget options that are not setmaxnreg counts are reported.
// RUN: not tileas-opt %s --split-input-file -p 'convert-tileas-to-nvvm{producer-registers=20}' -o /dev/null 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not tileas-opt %s --split-input-file -p 'convert-tileas-to-nvvm{consumer-registers=236}' -o /dev/null 2>&1 | filecheck %s --check-prefix=OPTION2

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 256, 16]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @big(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x64xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<64x256xf16, #sb>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32, #acc>
    %d = nv_tileas.dot %a, %b, %zero atom = !cute_nvgpu.sm90.mma<64x256x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x256xf16, #sb> -> tensor<128x256xf32, #acc>
    nv_tileas.return
  }
}

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [8, 1], instr_shape = [64, 256, 16]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @split(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 8 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x64xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<64x256xf16, #sb>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32, #acc>
    %d = nv_tileas.dot %a, %b, %zero atom = !cute_nvgpu.sm90.mma<64x256x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x256xf16, #sb> -> tensor<128x256xf32, #acc>
    nv_tileas.return
  }
}

// CHECK: registers-budget.mlir:18:5: warning: this dot's accumulator needs 256 registers per thread of its warpgroup, more than the warpgroup's budget of 255: ptxas will spill it or serialize the WGMMAs (C7511); split the tile over more warpgroups (warps_per_cta) or make it smaller
// CHECK-NOT: warning
// OPTION: error: convert-tileas-to-nvvm: producer-registers must be a multiple of 8 between 24 and 256 (setmaxnreg), got 20
// OPTION2: error: convert-tileas-to-nvvm: consumer-registers must be a multiple of 8 between 24 and 256 (setmaxnreg), got 236
