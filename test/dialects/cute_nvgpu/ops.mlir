// RUN: TILEAS_ROUNDTRIP
// RUN: TILEAS_GENERIC_ROUNDTRIP

func.func @atoms(%smem: !llvm.ptr<3>, %flag: i1, %lane: i32) {
  %atom = "test.op"() : () -> !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
  %acc = cute_nvgpu.atom.set_value %atom, accum_c, %flag : !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
  %neg = cute_nvgpu.atom.set_value %acc, neg_a, %flag : !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
  %desc = cute_nvgpu.make_gmma_smem_desc %smem lbo = 2048 sbo = 0 base_offset = 0 swizzle = 128 : !llvm.ptr<3>
  %u = cute_nvgpu.arch.make_warp_uniform %lane : i32
  %p = cute_nvgpu.arch.make_warp_uniform %flag : i1
  func.return
}

func.func @s2t(%tmem: !llvm.ptr<6>, %desc: i64, %bar: !llvm.ptr<3>) {
  %pair = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "64x128b.warpx2::01_23", cta_group = 2>
  cute_nvgpu.atom.copy_s2t %pair, %tmem, %desc, %bar : !cute_nvgpu.sm100.s2t_copy<shape = "64x128b.warpx2::01_23", cta_group = 2>, !llvm.ptr<6>, !llvm.ptr<3>
  %rank = "test.op"() : () -> i32
  %four = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 4>
  %dst = cute_nvgpu.atom.partition_d %four, %tmem, %rank : !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 4>, !llvm.ptr<6>
  func.return
}

// CHECK-LABEL: func.func @atoms
// CHECK:       %acc = cute_nvgpu.atom.set_value %atom, accum_c, %flag : !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
// CHECK-NEXT:  %neg = cute_nvgpu.atom.set_value %acc, neg_a, %flag : !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
// CHECK-NEXT:  %desc = cute_nvgpu.make_gmma_smem_desc %smem lbo = 2048 sbo = 0 base_offset = 0 swizzle = 128 : !llvm.ptr<3>
// CHECK-NEXT:  %u = cute_nvgpu.arch.make_warp_uniform %lane : i32
// CHECK-NEXT:  %p = cute_nvgpu.arch.make_warp_uniform %flag : i1

// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "atoms"
// CHECK-GENERIC:       %acc = "cute_nvgpu.atom.set_value"(%atom, %flag) <{field = #cute_nvgpu<atom_field accum_c>}> : (!cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>, i1) -> !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
// CHECK-GENERIC:       %desc = "cute_nvgpu.make_gmma_smem_desc"(%smem) <{lbo = 2048 : i64, sbo = 0 : i64, base_offset = 0 : i64, swizzle = 128 : i64}> : (!llvm.ptr<3>) -> !cute_nvgpu.smem_desc
// CHECK-GENERIC:       %u = "cute_nvgpu.arch.make_warp_uniform"(%lane) : (i32) -> i32

// CHECK-LABEL: func.func @s2t
// CHECK-NEXT:  %pair = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "64x128b.warpx2::01_23", cta_group = 2>
// CHECK-NEXT:  cute_nvgpu.atom.copy_s2t %pair, %tmem, %desc, %bar : !cute_nvgpu.sm100.s2t_copy<shape = "64x128b.warpx2::01_23", cta_group = 2>, !llvm.ptr<6>, !llvm.ptr<3>
// CHECK-NEXT:  %rank = "test.op"() : () -> i32
// CHECK-NEXT:  %four = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 4>
// CHECK-NEXT:  %dst = cute_nvgpu.atom.partition_d %four, %tmem, %rank : !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 4>, !llvm.ptr<6>

// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "s2t"
// CHECK-GENERIC:       %pair = "cute_nvgpu.make_s2t_copy_atom"() : () -> !cute_nvgpu.sm100.s2t_copy<shape = "64x128b.warpx2::01_23", cta_group = 2>
// CHECK-GENERIC-NEXT:  "cute_nvgpu.atom.copy_s2t"(%pair, %tmem, %desc, %bar) : (!cute_nvgpu.sm100.s2t_copy<shape = "64x128b.warpx2::01_23", cta_group = 2>, !llvm.ptr<6>, i64, !llvm.ptr<3>) -> ()
// CHECK-GENERIC:       %dst = "cute_nvgpu.atom.partition_d"(%four, %tmem, %rank) : (!cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 4>, !llvm.ptr<6>, i32) -> !llvm.ptr<6>

// -----

// Every wgmma input family, the integer N lattice, transposed 16-bit operands, rs.
"test.op"() {
  f16_f16 = !cute_nvgpu.sm90.mma<64x256x16, ab_major = (mn, mn), elem_type = (f16, f16, f16), frag_kind = ss>,
  bf16 = !cute_nvgpu.sm90.mma<64x8x16, ab_major = (k, mn), elem_type = (bf16, bf16, f32), frag_kind = rs>,
  tf32 = !cute_nvgpu.sm90.mma<64x64x8, ab_major = (k, k), elem_type = (tf32, tf32, f32), frag_kind = ss>,
  fp8 = !cute_nvgpu.sm90.mma<64x200x32, ab_major = (k, k), elem_type = (f8E4M3FN, f8E5M2, f16), frag_kind = ss>,
  int8 = !cute_nvgpu.sm90.mma<64x48x32, ab_major = (k, k), elem_type = (si8, ui8, i32), frag_kind = rs>,
  b1 = !cute_nvgpu.sm90.mma<64x256x256, ab_major = (k, k), elem_type = (i1, i1, i32), frag_kind = ss>,
  fma = !cute_nvgpu.universal_fma<f32, f32, f32>,
  desc = !cute_nvgpu.smem_desc,
  s2t = !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 2>
} : () -> ()

// CHECK:      f16_f16 = !cute_nvgpu.sm90.mma<64x256x16, ab_major = (mn, mn), elem_type = (f16, f16, f16), frag_kind = ss>
// CHECK-SAME: bf16 = !cute_nvgpu.sm90.mma<64x8x16, ab_major = (k, mn), elem_type = (bf16, bf16, f32), frag_kind = rs>
// CHECK-SAME: tf32 = !cute_nvgpu.sm90.mma<64x64x8, ab_major = (k, k), elem_type = (tf32, tf32, f32), frag_kind = ss>
// CHECK-SAME: fp8 = !cute_nvgpu.sm90.mma<64x200x32, ab_major = (k, k), elem_type = (f8E4M3FN, f8E5M2, f16), frag_kind = ss>
// CHECK-SAME: int8 = !cute_nvgpu.sm90.mma<64x48x32, ab_major = (k, k), elem_type = (si8, ui8, i32), frag_kind = rs>
// CHECK-SAME: b1 = !cute_nvgpu.sm90.mma<64x256x256, ab_major = (k, k), elem_type = (i1, i1, i32), frag_kind = ss>
// CHECK-SAME: fma = !cute_nvgpu.universal_fma<f32, f32, f32>
// CHECK-SAME: desc = !cute_nvgpu.smem_desc
// CHECK-SAME: s2t = !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 2>
// CHECK-GENERIC: s2t = !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 2>

// -----

"test.op"() {major = #cute_nvgpu<major mn>, frag = #cute_nvgpu<frag_kind rs>, field = #cute_nvgpu<atom_field neg_b>} : () -> ()

// CHECK: "test.op"() {major = #cute_nvgpu<major mn>, frag = #cute_nvgpu<frag_kind rs>, field = #cute_nvgpu<atom_field neg_b>} : () -> ()
// CHECK-GENERIC: "test.op"() {major = #cute_nvgpu<major mn>, frag = #cute_nvgpu<frag_kind rs>, field = #cute_nvgpu<atom_field neg_b>} : () -> ()

// -----

// An atom value with its fields set, applied to a whole tile (A in shared memory or in
// registers), with and without an explicit wait_group.
!atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
!rs = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, mn), elem_type = (bf16, bf16, f32), frag_kind = rs>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16]>
func.func @gemm(%a: tensor<128x64xf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<128x128xf32, #acc>, %ra: tensor<64x32xbf16>, %rb: tensor<32x64xbf16, #sa>, %rc: tensor<64x64xf32>) {
  %atom = cute_nvgpu.make_mma_atom : !atom
  %false = arith.constant false
  %zero = cute_nvgpu.atom.set_value %atom, accum_c, %false : !atom
  %d = cute_nvgpu.atom.gemm %zero, %a, %b, %c wait_group = 1 : !atom, tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #acc>
  %rs = cute_nvgpu.make_mma_atom : !rs
  %e = cute_nvgpu.atom.gemm %rs, %ra, %rb, %rc : !rs, tensor<64x32xbf16>, tensor<32x64xbf16, #sa> -> tensor<64x64xf32>
  func.return
}

// CHECK-LABEL: func.func @gemm
// CHECK:       %atom = cute_nvgpu.make_mma_atom : !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
// CHECK:       %d = cute_nvgpu.atom.gemm %zero, %a, %b, %c wait_group = 1 : !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>, tensor<128x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>, tensor<64x128xf16, #nv_tileas.shared<swizzle = 128, order = [0, 1]>> -> tensor<128x128xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16]>>
// CHECK:       %e = cute_nvgpu.atom.gemm %rs, %ra, %rb, %rc : !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, mn), elem_type = (bf16, bf16, f32), frag_kind = rs>, tensor<64x32xbf16>, tensor<32x64xbf16, {{.*}}> -> tensor<64x64xf32>

// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "gemm"
// CHECK-GENERIC:       %atom = "cute_nvgpu.make_mma_atom"() : () -> !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
// CHECK-GENERIC:       %d = "cute_nvgpu.atom.gemm"(%zero, %a, %b, %c) <{wait_group = 1 : i64}> : (!cute_nvgpu.sm90.mma<{{.*}}>, tensor<128x64xf16, {{.*}}>, tensor<64x128xf16, {{.*}}>, tensor<128x128xf32, {{.*}}>) -> tensor<128x128xf32, {{.*}}>
// CHECK-GENERIC:       %e = "cute_nvgpu.atom.gemm"(%rs, %ra, %rb, %rc) : (

// -----

// The sm100 (tcgen05.mma) atom: each kind, both CTA groups, transposed operands.
"test.op"() {
  f16 = !cute_nvgpu.sm100.mma<128x256x16, ab_major = (k, mn), elem_type = (f16, f16, f32), cta_group = 1>,
  bf16 = !cute_nvgpu.sm100.mma<64x8x16, ab_major = (mn, k), elem_type = (bf16, bf16, f16), cta_group = 1>,
  tf32 = !cute_nvgpu.sm100.mma<256x128x8, ab_major = (k, k), elem_type = (tf32, tf32, f32), cta_group = 2>,
  fp8 = !cute_nvgpu.sm100.mma<128x64x32, ab_major = (k, k), elem_type = (f8E4M3FN, f8E5M2, f32), cta_group = 2>,
  i8 = !cute_nvgpu.sm100.mma<128x24x32, ab_major = (k, k), elem_type = (si8, ui8, i32), cta_group = 1>
} : () -> ()

// CHECK:      f16 = !cute_nvgpu.sm100.mma<128x256x16, ab_major = (k, mn), elem_type = (f16, f16, f32), cta_group = 1>
// CHECK-SAME: bf16 = !cute_nvgpu.sm100.mma<64x8x16, ab_major = (mn, k), elem_type = (bf16, bf16, f16), cta_group = 1>
// CHECK-SAME: tf32 = !cute_nvgpu.sm100.mma<256x128x8, ab_major = (k, k), elem_type = (tf32, tf32, f32), cta_group = 2>
// CHECK-SAME: fp8 = !cute_nvgpu.sm100.mma<128x64x32, ab_major = (k, k), elem_type = (f8E4M3FN, f8E5M2, f32), cta_group = 2>
// CHECK-SAME: i8 = !cute_nvgpu.sm100.mma<128x24x32, ab_major = (k, k), elem_type = (si8, ui8, i32), cta_group = 1>
// CHECK-GENERIC: tf32 = !cute_nvgpu.sm100.mma<256x128x8, ab_major = (k, k), elem_type = (tf32, tf32, f32), cta_group = 2>
