// Every diagnostic of the WGMMA emission and the accumulator store, at the op it is about.
// RUN: not tileas-opt %s --split-input-file -p convert-tileas-to-nvvm -o /dev/null 2>&1 | filecheck %s

// sm_90 (without the arch-conditional `a`) has no WGMMA.
!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
module attributes {nvvm.target = #nvvm.target<chip = "sm_90">} {
  func.func @k(%a: tensor<64x16xf16, #nv_tileas.shared<swizzle = 32, order = [1, 0]>>, %b: tensor<16x64xf16, #nv_tileas.shared<swizzle = 32, order = [0, 1]>>, %c: tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
    %d = nv_tileas.dot %a, %b, %c atom = !atom wait_group = 0 : tensor<64x16xf16, #nv_tileas.shared<swizzle = 32, order = [1, 0]>>, tensor<16x64xf16, #nv_tileas.shared<swizzle = 32, order = [0, 1]>> -> tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>
    func.return
  }
}
// CHECK: invalid-dot.mlir:8:5: error: WGMMA needs the sm_90a target, got sm_90

// -----

// Blackwell has no WGMMA: its kernels need tcgen05.
#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
    %a = nv_tileas.alloc_tensor : tensor<64x16xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
    %c = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32, #acc>
    nv_tileas.return
  }
}
// CHECK: invalid-dot.mlir:25:5: error: WGMMA is not available on sm_100a: Blackwell kernels need tcgen05.mma, which convert-tileas-to-nvvm does not emit

// -----

// The accumulator's instruction shape must be the atom's.
#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 32, 16]>
nv_tileas.kernel @k(%c: tensor<64x64xf32, #acc>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %a = nv_tileas.alloc_tensor : tensor<64x16xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32, #acc>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:40:3: error: the accumulator of a WGMMA must be a tensor with a #nv_tileas.mma encoding of instr_shape = [64, 64, 16], got 'tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 32, 16]>>'

// -----

// One warpgroup holds the whole accumulator.
#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [8, 1], instr_shape = [64, 64, 16]>
nv_tileas.kernel @k(%c: tensor<128x64xf32, #acc>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %a = nv_tileas.alloc_tensor : tensor<128x16xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<128x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<128x64xf32, #acc>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:54:3: error: a WGMMA accumulator must be held by one warpgroup (warps_per_cta = [4, 1]), got [8, 1]

// -----

// A 128-byte swizzle needs rows of a multiple of 128 bytes.
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
nv_tileas.kernel @k(%c: tensor<64x64xf32, #acc>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %a = nv_tileas.alloc_tensor : tensor<64x16xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32, #acc>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:68:3: error: no WGMMA descriptor can walk operand A: 128-byte swizzling needs the contiguous dimension to span a multiple of 128 bytes, got 32

// -----

// accum_c / neg_a / neg_b become immediates: they must be constants.
!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
func.func @k(%c: tensor<64x64xf32, #acc>, %flag: i1) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %a = nv_tileas.alloc_tensor : tensor<64x16xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
  %atom = cute_nvgpu.make_mma_atom : !atom
  %set = cute_nvgpu.atom.set_value %atom, accum_c, %flag : !atom
  %d = cute_nvgpu.atom.gemm %set, %a, %b, %c : !atom, tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32, #acc>
  func.return
}
// CHECK: invalid-dot.mlir:84:3: error: 'accum_c' must be a constant: the WGMMA emission makes it an immediate

// -----

// The atom's fields must be known: it comes from make_mma_atom and atom.set_value.
!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
func.func @k(%c: tensor<64x64xf32, #acc>, %flag: i1) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %a = nv_tileas.alloc_tensor : tensor<64x16xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
  %one = cute_nvgpu.make_mma_atom : !atom
  %two = cute_nvgpu.make_mma_atom : !atom
  %atom = arith.select %flag, %one, %two : !atom
  %d = cute_nvgpu.atom.gemm %atom, %a, %b, %c : !atom, tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32, #acc>
  func.return
}
// CHECK: invalid-dot.mlir:103:3: error: the atom of a WGMMA must come from cute_nvgpu.make_mma_atom and cute_nvgpu.atom.set_value

// -----

// An accumulator constant is a splat.
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 8, 16]>
nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<1x8xf32, #acc>
  %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<1x8xf32>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %c, %view[%c0, %c0] : tensor<1x8xf32, #acc> -> !nv_tileas.tiled_view<1x8xf32>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:113:3: error: only splat accumulator constants are supported

// -----

// An accumulator is stored to a plain global pointer only (TMA stores are to come).
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
nv_tileas.kernel @k(%view: !nv_tileas.tiled_view<64x64xf32>, %c: tensor<64x64xf32, #acc>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %c, %view[%c0, %c0] : tensor<64x64xf32, #acc> -> !nv_tileas.tiled_view<64x64xf32>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:127:3: error: only stores to a plain global pointer (an unrealized cast of !llvm.ptr<1>) are supported for an accumulator
