// bf16 with A in registers (frag_kind = rs): a splat A packed into the four registers of
// each (m, k) tile before the fence, B (k-major, 128B swizzle) the only descriptor,
// advancing by (n, k): 2, 4, 6 along K and 512 to the second n-tile. `nvvm.wgmma.mma_async`
// has no register-A form, so each MMA is the PTX instruction as `llvm.inline_asm`, its
// accumulator tied to its outputs; imm-trans-b 0 (B k-major), no imm-trans-a.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @bf16_rs(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = arith.constant dense<1.5> : tensor<64x64xbf16>
    %b = nv_tileas.alloc_tensor : tensor<64x128xbf16, #nv_tileas.shared<swizzle = 128, order = [0, 1]>>
    %c = arith.constant dense<0.0> : tensor<64x128xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (bf16, bf16, f32), frag_kind = rs> wait_group = 0 : tensor<64x64xbf16>, tensor<64x128xbf16, #nv_tileas.shared<swizzle = 128, order = [0, 1]>> -> tensor<64x128xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x128xf32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<64x128xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>> -> !nv_tileas.tiled_view<64x128xf32>
    nv_tileas.return
  }
}

// 1.5 in bf16 is 0x3FC0: each register packs two.
// CHECK:      %[[WORD:.+]] = llvm.mlir.constant(1069563840 : i32) : i32
// CHECK-NEXT: %[[U:.+]] = llvm.mlir.undef : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT: %[[R0:.+]] = llvm.insertvalue %[[WORD]], %[[U]][0]
// CHECK-NEXT: %[[R1:.+]] = llvm.insertvalue %[[WORD]], %[[R0]][1]
// CHECK-NEXT: %[[R2:.+]] = llvm.insertvalue %[[WORD]], %[[R1]][2]
// CHECK-NEXT: %[[AREGS:.+]] = llvm.insertvalue %[[WORD]], %[[R2]][3]
// CHECK-NEXT: llvm.ptrtoint
// CHECK:      %[[B0:.+]] = llvm.or %{{.+}}, %{{.+}} : i64
// CHECK-NEXT: llvm.mlir.constant(2) : i64
// CHECK-NEXT: %[[B2:.+]] = llvm.add %[[B0]]
// CHECK-NEXT: llvm.mlir.constant(4) : i64
// CHECK-NEXT: %[[B4:.+]] = llvm.add %[[B0]]
// CHECK-NEXT: llvm.mlir.constant(6) : i64
// CHECK-NEXT: %[[B6:.+]] = llvm.add %[[B0]]
// CHECK-NEXT: llvm.mlir.constant(512) : i64
// CHECK-NEXT: %[[B512:.+]] = llvm.add %[[B0]]
// CHECK-NEXT: llvm.mlir.constant(514) : i64
// CHECK-NEXT: %[[B514:.+]] = llvm.add %[[B0]]
// CHECK-NEXT: llvm.mlir.constant(516) : i64
// CHECK-NEXT: %[[B516:.+]] = llvm.add %[[B0]]
// CHECK-NEXT: llvm.mlir.constant(518) : i64
// CHECK-NEXT: %[[B518:.+]] = llvm.add %[[B0]]
// CHECK-NOT:  llvm.ptrtoint
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK:      llvm.inline_asm has_side_effects "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, 0, 1, 1, 0;", "=f,{{(=f,)+}}r,r,r,r,l,0,1,{{.*}},31" {{(%[0-9]+, )+}}%[[B0]],
// CHECK:      llvm.inline_asm {{.*}} $36, 1, 1, 1, 0;", {{.*}} %[[B2]],
// CHECK:      llvm.inline_asm {{.*}} $36, 1, 1, 1, 0;", {{.*}} %[[B4]],
// CHECK:      llvm.inline_asm {{.*}} $36, 1, 1, 1, 0;", {{.*}} %[[B6]],
// CHECK:      llvm.inline_asm {{.*}} $36, 0, 1, 1, 0;", {{.*}} %[[B512]],
// CHECK:      llvm.inline_asm {{.*}} $36, 1, 1, 1, 0;", {{.*}} %[[B514]],
// CHECK:      llvm.inline_asm {{.*}} $36, 1, 1, 1, 0;", {{.*}} %[[B516]],
// CHECK:      llvm.inline_asm {{.*}} $36, 1, 1, 1, 0;", {{.*}} %[[B518]],
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0

// PTX:      mov.b32 {{%r[0-9]+}}, 1069563840;
// PTX:      wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 0, 1, 1, 0;
// PTX:      wgmma.commit_group.sync.aligned;
// PTX-NEXT: wgmma.wait_group.sync.aligned 0;
