// RUN: TILEAS_ROUNDTRIP
// RUN: TILEAS_GENERIC_ROUNDTRIP

#cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#blocked = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #cta>
#row = #nv_tileas.blocked<size_per_thread = [4], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 64, order = [0, 1], cta = #cta>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16]>

nv_tileas.kernel @tiles(%view: !nv_tileas.tiled_view<1024x1024xf16>, %i: index, %r: tensor<64xf32, #row>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %t = nv_tileas.tiled_load %view[%i, %i] box = [64, 64] vec_size = 8 : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<128x64xf16, #blocked>
  %u = nv_tileas.tiled_load %view[%i, %i] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<128x64xf16, #blocked>
  %c = nv_tileas.convert_layout %t : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #sa>
  %e = nv_tileas.expand_dim %r axis = 0 : tensor<64xf32, #row> -> tensor<1x64xf32, #blocked>
  %b = nv_tileas.broadcast %e : tensor<1x64xf32, #blocked> -> tensor<128x64xf32, #blocked>
  %buf = nv_tileas.alloc_tensor : tensor<128x64xf16, #sa>
  %w = nv_tileas.copy %u, %buf : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #sa>
  %bb = nv_tileas.alloc_tensor : tensor<64x128xf16, #sb>
  %acc = nv_tileas.alloc_tensor : tensor<128x128xf32, #acc>
  %d = nv_tileas.dot %w, %bb, %acc atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 1 : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #acc>
  %p = nv_tileas.pragma %b "keep_in_registers" : tensor<128x64xf32, #blocked>
  %x, %y, %z = nv_tileas.cancel_next_program_id
  nv_tileas.tiled_store %u, %view[%i, %i] box = [128, 32] : tensor<128x64xf16, #blocked> -> !nv_tileas.tiled_view<1024x1024xf16>
  nv_tileas.return
}

// CHECK-LABEL: nv_tileas.kernel @tiles(%view: !nv_tileas.tiled_view<1024x1024xf16>, %i: index, %r: tensor<64xf32, #nv_tileas.blocked<size_per_thread = [4], threads_per_warp = [32], warps_per_cta = [4], order = [0]>>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
// CHECK-NEXT:    %t = nv_tileas.tiled_load %view[%i, %i] box = [64, 64] vec_size = 8 : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<128x64xf16, #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>>>
// CHECK-NEXT:    %u = nv_tileas.tiled_load %view[%i, %i] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<128x64xf16, {{.*}}>
// CHECK-NEXT:    %c = nv_tileas.convert_layout %t : tensor<128x64xf16, {{.*}}> -> tensor<128x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
// CHECK-NEXT:    %e = nv_tileas.expand_dim %r axis = 0 : tensor<64xf32, {{.*}}> -> tensor<1x64xf32, {{.*}}>
// CHECK-NEXT:    %b = nv_tileas.broadcast %e : tensor<1x64xf32, {{.*}}> -> tensor<128x64xf32, {{.*}}>
// CHECK-NEXT:    %buf = nv_tileas.alloc_tensor : tensor<128x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
// CHECK-NEXT:    %w = nv_tileas.copy %u, %buf : tensor<128x64xf16, {{.*}}> -> tensor<128x64xf16, {{.*}}>
// CHECK-NEXT:    %bb = nv_tileas.alloc_tensor : tensor<64x128xf16, #nv_tileas.shared<swizzle = 64, order = [0, 1], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>>>
// CHECK-NEXT:    %acc = nv_tileas.alloc_tensor : tensor<128x128xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16]>>
// CHECK-NEXT:    %d = nv_tileas.dot %w, %bb, %acc atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 1 : tensor<128x64xf16, {{.*}}>, tensor<64x128xf16, {{.*}}> -> tensor<128x128xf32, {{.*}}>
// CHECK-NEXT:    %p = nv_tileas.pragma %b "keep_in_registers" : tensor<128x64xf32, {{.*}}>
// CHECK-NEXT:    %x, %y, %z = nv_tileas.cancel_next_program_id
// CHECK-NEXT:    nv_tileas.tiled_store %u, %view[%i, %i] box = [128, 32] : tensor<128x64xf16, {{.*}}> -> !nv_tileas.tiled_view<1024x1024xf16>
// CHECK-NEXT:    nv_tileas.return
// CHECK-NEXT:  }

// CHECK-GENERIC-LABEL: "nv_tileas.kernel"() <{sym_name = "tiles", function_type = (!nv_tileas.tiled_view<1024x1024xf16>, index, tensor<64xf32, {{.*}}>) -> ()}> ({
// CHECK-GENERIC:       %t = "nv_tileas.tiled_load"(%view, %i, %i) <{box = array<i64: 64, 64>, vec_size = 8 : i64}> : (!nv_tileas.tiled_view<1024x1024xf16>, index, index) -> tensor<128x64xf16, {{.*}}>
// CHECK-GENERIC:       %e = "nv_tileas.expand_dim"(%r) <{axis = 0 : i64}>
// CHECK-GENERIC:       %d = "nv_tileas.dot"(%w, %bb, %acc) <{atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>, wait_group = 1 : i64}>
// CHECK-GENERIC:       %p = "nv_tileas.pragma"(%b) <{pragma = "keep_in_registers"}>
// CHECK-GENERIC:       %x, %y, %z = "nv_tileas.cancel_next_program_id"() : () -> (i32, i32, i32)
// CHECK-GENERIC:       "nv_tileas.return"() : () -> ()
// CHECK-GENERIC:       }) {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} : () -> ()

// -----

// A register-resident A operand (rs) and the universal FMA atom.
#blocked = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
func.func @other_atoms(%a: tensor<64x16xbf16, #blocked>, %b: tensor<16x64xbf16, #sb>, %c: tensor<64x64xf32, #blocked>, %x: tensor<64x16xf32, #blocked>, %y: tensor<16x64xf32, #blocked>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, mn), elem_type = (bf16, bf16, f32), frag_kind = rs> wait_group = 0 : tensor<64x16xbf16, #blocked>, tensor<16x64xbf16, #sb> -> tensor<64x64xf32, #blocked>
  %f = nv_tileas.dot %x, %y, %c atom = !cute_nvgpu.universal_fma<f32, f32, f32> wait_group = 0 : tensor<64x16xf32, #blocked>, tensor<16x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
  func.return
}

// CHECK-LABEL: func.func @other_atoms
// CHECK:       nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, mn), elem_type = (bf16, bf16, f32), frag_kind = rs> wait_group = 0
// CHECK:       nv_tileas.dot %x, %y, %c atom = !cute_nvgpu.universal_fma<f32, f32, f32> wait_group = 0
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "other_atoms"
// CHECK-GENERIC:       <{atom = !cute_nvgpu.universal_fma<f32, f32, f32>, wait_group = 0 : i64}>

// -----

// Blackwell: a tensor-memory tile, and dots with sm100 atoms (one CTA; a CTA pair, whose
// operands are this CTA's half of A and B).
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
func.func @tcgen05(%a: tensor<128x64xf16, #sa>, %b: tensor<64x256xf16, #sb>, %b2: tensor<64x128xf16, #sb>) {
  %c = nv_tileas.alloc_tensor : tensor<128x256xf32, #tm>
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x256xf16, #sb> -> tensor<128x256xf32, #tm>
  %e = nv_tileas.dot %a, %b2, %d atom = !cute_nvgpu.sm100.mma<256x256x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x256xf32, #tm>
  %p = "test.op"() : () -> !nv_tileas.pipeline<2, tensor<128x256xf32, #nv_tileas.tmem<cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>>>
  func.return
}

// CHECK-LABEL: func.func @tcgen05
// CHECK:       %c = nv_tileas.alloc_tensor : tensor<128x256xf32, #nv_tileas.tmem>
// CHECK-NEXT:  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16, {{.*}}>, tensor<64x256xf16, {{.*}}> -> tensor<128x256xf32, #nv_tileas.tmem>
// CHECK-NEXT:  %e = nv_tileas.dot %a, %b2, %d atom = !cute_nvgpu.sm100.mma<256x256x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0
// CHECK-NEXT:  %p = "test.op"() : () -> !nv_tileas.pipeline<2, tensor<128x256xf32, #nv_tileas.tmem<cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>>>

// The pair's dot at the tile level, as the cluster's program writes it: the CTA layouts
// split A and C by rows across the pair and B by columns, and each CTA's pieces are what
// the atom's shapes are checked against.
#rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#cols = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>
#sa_rows = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #rows>
#sb_cols = #nv_tileas.shared<swizzle = 128, order = [0, 1], cta = #cols>
#tm_rows = #nv_tileas.tmem<cta = #rows>
func.func @tcgen05_pair(%a: tensor<256x64xf16, #sa_rows>, %b: tensor<64x256xf16, #sb_cols>, %c: tensor<256x256xf32, #tm_rows>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<256x256x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<256x64xf16, #sa_rows>, tensor<64x256xf16, #sb_cols> -> tensor<256x256xf32, #tm_rows>
  func.return
}

// CHECK-LABEL: func.func @tcgen05_pair
// CHECK-NEXT:  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<256x256x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<256x64xf16, {{.*}}cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>>>, tensor<64x256xf16, {{.*}}cta = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>>> -> tensor<256x256xf32, #nv_tileas.tmem<cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>>>
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "tcgen05"
// CHECK-GENERIC:       %d = "nv_tileas.dot"(%a, %b, %c) <{atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1>, wait_group = 0 : i64}> : (tensor<128x64xf16, {{.*}}>, tensor<64x256xf16, {{.*}}>, tensor<128x256xf32, #nv_tileas.tmem>) -> tensor<128x256xf32, #nv_tileas.tmem>
