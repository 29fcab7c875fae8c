// RUN: tileas-opt %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

"test.op"() {a = !cute_nvgpu.sm90.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>} : () -> ()
// CHECK: sm90 wgmma requires M = 64, got 128

// -----

"test.op"() {a = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, bf16, f32), frag_kind = ss>} : () -> ()
// CHECK: unsupported sm90 wgmma input types A = f16, B = bf16

// -----

"test.op"() {a = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (bf16, bf16, f16), frag_kind = ss>} : () -> ()
// CHECK: sm90 wgmma with bf16 inputs accumulates in f32, got f16

// -----

"test.op"() {a = !cute_nvgpu.sm90.mma<64x128x32, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>} : () -> ()
// CHECK: sm90 wgmma with f16 inputs requires K = 16, got 32

// -----

"test.op"() {a = !cute_nvgpu.sm90.mma<64x12x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>} : () -> ()
// CHECK: WGMMA N must be a multiple of 8 between 8 and 256, got 12

// -----

"test.op"() {a = !cute_nvgpu.sm90.mma<64x264x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>} : () -> ()
// CHECK: WGMMA N must be a multiple of 8 between 8 and 256, got 264

// -----

"test.op"() {a = !cute_nvgpu.sm90.mma<64x40x32, ab_major = (k, k), elem_type = (si8, si8, i32), frag_kind = ss>} : () -> ()
// CHECK: WGMMA N must be 8, 16, 24 or a multiple of 16 up to 256, got 40

// -----

"test.op"() {a = !cute_nvgpu.sm90.mma<64x64x8, ab_major = (mn, k), elem_type = (tf32, tf32, f32), frag_kind = ss>} : () -> ()
// CHECK: mn-major operands need f16 or bf16 inputs, got tf32

// -----

"test.op"() {a = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (mn, k), elem_type = (f16, f16, f32), frag_kind = rs>} : () -> ()
// CHECK: frag_kind = rs requires a k-major A operand

// -----

"test.op"() {a = !cute_nvgpu.sm90.mma<64x64, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>} : () -> ()
// CHECK: expected an MxNxK shape

// -----

"test.op"() {a = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, row), elem_type = (f16, f16, f32), frag_kind = ss>} : () -> ()
// CHECK: expected majorness `k`, `mn`, got `row`

// -----

"test.op"() {a = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16), frag_kind = ss>} : () -> ()
// CHECK: expected three element types (A, B, accumulator)

// -----

"test.op"() {a = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = sr>} : () -> ()
// CHECK: expected fragment kind `ss`, `rs`, got `sr`

// -----

"test.op"() {a = !cute_nvgpu.universal_fma<f32, f32>} : () -> ()
// CHECK: expected three element types (A, B, accumulator)

// -----

"test.op"() {a = !cute_nvgpu.sm100.s2t_copy<shape = "16x64b", cta_group = 1>} : () -> ()
// CHECK: unknown tcgen05.cp shape '16x64b'; expected one of 128x256b, 64x128b.warpx2::02_13, 64x128b.warpx2::01_23, 32x128b.warpx4, 128x128b, 4x256b

// -----

"test.op"() {a = !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 3>} : () -> ()
// CHECK: cta_group must be 1, 2 or 4, got 3

// -----

func.func @f(%p: !llvm.ptr<1>) {
  %d = cute_nvgpu.make_gmma_smem_desc %p lbo = 2048 sbo = 0 base_offset = 0 swizzle = 128 : !llvm.ptr<1>
  func.return
}
// CHECK: base address must be a shared-memory pointer (!llvm.ptr<3>)

// -----

func.func @f(%p: !llvm.ptr<3>) {
  %d = cute_nvgpu.make_gmma_smem_desc %p lbo = 2050 sbo = 0 base_offset = 0 swizzle = 128 : !llvm.ptr<3>
  func.return
}
// CHECK: lbo must be a multiple of 16 below 262144, got 2050

// -----

func.func @f(%p: !llvm.ptr<3>) {
  %d = cute_nvgpu.make_gmma_smem_desc %p lbo = 0 sbo = 262144 base_offset = 0 swizzle = 128 : !llvm.ptr<3>
  func.return
}
// CHECK: sbo must be a multiple of 16 below 262144, got 262144

// -----

func.func @f(%p: !llvm.ptr<3>) {
  %d = cute_nvgpu.make_gmma_smem_desc %p lbo = 0 sbo = 0 base_offset = 8 swizzle = 128 : !llvm.ptr<3>
  func.return
}
// CHECK: base_offset must be between 0 and 7, got 8

// -----

func.func @f(%p: !llvm.ptr<3>) {
  %d = cute_nvgpu.make_gmma_smem_desc %p lbo = 0 sbo = 0 base_offset = 0 swizzle = 16 : !llvm.ptr<3>
  func.return
}
// CHECK: swizzle must be 0, 32, 64 or 128 bytes, got 16

// -----

func.func @f(%flag: i1) {
  %atom = "test.op"() : () -> !cute_nvgpu.sm90.mma<64x64x32, ab_major = (k, k), elem_type = (si8, si8, i32), frag_kind = ss>
  %neg = cute_nvgpu.atom.set_value %atom, neg_b, %flag : !cute_nvgpu.sm90.mma<64x64x32, ab_major = (k, k), elem_type = (si8, si8, i32), frag_kind = ss>
  func.return
}
// CHECK: neg_b is not supported by s8 wgmma atoms

// -----

func.func @f(%x: f32) {
  %u = cute_nvgpu.arch.make_warp_uniform %x : f32
  func.return
}
// CHECK: f32 should be of base attribute integer_type

// -----

!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
func.func @f(%atom: !atom, %a: tensor<64x32xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) {
  %d = cute_nvgpu.atom.gemm %atom, %a, %b, %c : !atom, tensor<64x32xf16>, tensor<16x64xf16> -> tensor<64x64xf32>
  func.return
}
// CHECK: expected A: MxK, B: KxN and C: MxN, got [64, 32], [16, 64], [64, 64]

// -----

!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
func.func @f(%atom: !atom, %a: tensor<64x32xbf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>) {
  %d = cute_nvgpu.atom.gemm %atom, %a, %b, %c : !atom, tensor<64x32xbf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  func.return
}
// CHECK: A has element type bf16 but the atom expects f16

// -----

!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
func.func @f(%atom: !atom, %a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf16>) {
  %d = cute_nvgpu.atom.gemm %atom, %a, %b, %c : !atom, tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf16>
  func.return
}
// CHECK: C has element type f16 but the atom expects f32

// -----

!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
func.func @f(%atom: !atom, %a: tensor<64x24xf16>, %b: tensor<24x64xf16>, %c: tensor<64x64xf32>) {
  %d = cute_nvgpu.atom.gemm %atom, %a, %b, %c : !atom, tensor<64x24xf16>, tensor<24x64xf16> -> tensor<64x64xf32>
  func.return
}
// CHECK: tile K = 24 is not a multiple of the atom's K = 16

// -----

!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
func.func @f(%atom: !atom, %a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>) {
  %d = cute_nvgpu.atom.gemm %atom, %a, %b, %c wait_group = -1 : !atom, tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  func.return
}
// CHECK: wait_group must be non-negative

// -----

func.func @f() {
  %atom = cute_nvgpu.make_mma_atom : !cute_nvgpu.universal_fma<f32, f32, f32>
  func.return
}
// CHECK: !cute_nvgpu.universal_fma<f32, f32, f32> should be of base attribute cute_nvgpu.sm90.mma

// -----

"test.op"() {a = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 4>} : () -> ()
// CHECK: sm100 mma cta_group must be 1 or 2, got 4

// -----

"test.op"() {a = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, bf16, f32), cta_group = 1>} : () -> ()
// CHECK: unsupported sm100 mma input types A = f16, B = bf16

// -----

"test.op"() {a = !cute_nvgpu.sm100.mma<128x128x8, ab_major = (k, k), elem_type = (tf32, tf32, f16), cta_group = 1>} : () -> ()
// CHECK: sm100 mma kind::tf32 accumulates in f32, got f16

// -----

"test.op"() {a = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (si8, si8, i32), cta_group = 1>} : () -> ()
// CHECK: sm100 mma kind::i8 requires K = 32, got 16

// -----

"test.op"() {a = !cute_nvgpu.sm100.mma<256x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1>} : () -> ()
// CHECK: sm100 mma shape: M 256 is not 64 or 128 (.cta_group::1)

// -----

"test.op"() {a = !cute_nvgpu.sm100.mma<128x8x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2>} : () -> ()
// CHECK: sm100 mma shape: N 8 is not a multiple of 16 from 16 to 256 (.cta_group::2)

// -----

func.func @f(%tmem: !llvm.ptr<3>, %desc: i64, %bar: !llvm.ptr<3>) {
  %atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 2>
  cute_nvgpu.atom.copy_s2t %atom, %tmem, %desc, %bar : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 2>, !llvm.ptr<3>, !llvm.ptr<3>
  func.return
}
// CHECK: the destination of an S2T copy is a tensor-memory address (!llvm.ptr<6>), got !llvm.ptr<3>

// -----

func.func @f(%tmem: !llvm.ptr<6>, %desc: i64, %bar: !llvm.ptr<3>) {
  %atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 4>
  cute_nvgpu.atom.copy_s2t %atom, %tmem, %desc, %bar : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 4>, !llvm.ptr<6>, !llvm.ptr<3>
  func.return
}
// CHECK: a 4-CTA S2T copy multicasts to the four warps' lanes: its shape must be 32x128b.warpx4, got '128x256b'

// -----

func.func @f(%tmem: !llvm.ptr<3>, %rank: i32) {
  %atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 4>
  %dst = cute_nvgpu.atom.partition_d %atom, %tmem, %rank : !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 4>, !llvm.ptr<3>
  func.return
}
// CHECK: partition_d slices a tensor-memory address (!llvm.ptr<6>), got !llvm.ptr<3>
