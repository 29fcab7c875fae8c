// The WGMMA shape lattice is held by the atom type, so an illegal instruction never reaches
// the emission: every case fails at parsing, with the atom verifier's message.
// RUN: tileas-opt %s --split-input-file --parsing-diagnostics --allow-unregistered-dialect -p convert-tileas-to-nvvm | filecheck %s

// N steps by 8 (seed 001: "WGMMA N must be a multiple of 8").
func.func @n(%a: tensor<64x16xf16, #nv_tileas.shared<swizzle = 32, order = [1, 0]>>, %b: tensor<16x12xf16, #nv_tileas.shared<swizzle = 0, order = [0, 1]>>, %c: tensor<64x12xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 12, 16]>>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x12x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x16xf16, #nv_tileas.shared<swizzle = 32, order = [1, 0]>>, tensor<16x12xf16, #nv_tileas.shared<swizzle = 0, order = [0, 1]>> -> tensor<64x12xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 12, 16]>>
  func.return
}
// CHECK: WGMMA N must be a multiple of 8 between 8 and 256, got 12

// -----

// N is at most 256.
func.func @wide() {
  %t = "test.op"() : () -> !cute_nvgpu.sm90.mma<64x264x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
  func.return
}
// CHECK: WGMMA N must be a multiple of 8 between 8 and 256, got 264

// -----

// Integer inputs step N by 16 from 32 on.
func.func @int_n() {
  %t = "test.op"() : () -> !cute_nvgpu.sm90.mma<64x40x32, ab_major = (k, k), elem_type = (si8, si8, i32), frag_kind = ss>
  func.return
}
// CHECK: WGMMA N must be 8, 16, 24 or a multiple of 16 up to 256, got 40

// -----

// M is 64 per instruction.
func.func @m() {
  %t = "test.op"() : () -> !cute_nvgpu.sm90.mma<128x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
  func.return
}
// CHECK: sm90 wgmma requires M = 64, got 128

// -----

// K is fixed per input type: 16 for f16 / bf16, 8 for tf32, 32 for fp8 and 8-bit integers.
func.func @k_tf32() {
  %t = "test.op"() : () -> !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (tf32, tf32, f32), frag_kind = ss>
  func.return
}
// CHECK: sm90 wgmma with tf32 inputs requires K = 8, got 16

// -----

func.func @k_fp8() {
  %t = "test.op"() : () -> !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f8E4M3FN, f8E5M2, f32), frag_kind = ss>
  func.return
}
// CHECK: sm90 wgmma with e4m3 inputs requires K = 32, got 16

// -----

// Accumulator types per input family.
func.func @acc() {
  %t = "test.op"() : () -> !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (bf16, bf16, f16), frag_kind = ss>
  func.return
}
// CHECK: sm90 wgmma with bf16 inputs accumulates in f32, got f16

// -----

// Only 16-bit floating-point operands may be mn-major (transposed).
func.func @mn_fp8() {
  %t = "test.op"() : () -> !cute_nvgpu.sm90.mma<64x64x32, ab_major = (k, mn), elem_type = (f8E4M3FN, f8E4M3FN, f32), frag_kind = ss>
  func.return
}
// CHECK: mn-major operands need f16 or bf16 inputs, got e4m3
