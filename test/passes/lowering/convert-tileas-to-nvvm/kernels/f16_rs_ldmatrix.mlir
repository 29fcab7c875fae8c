// D(64x64, f32) = A(64x64, f16) * B(64x64, f16), m64n64k16 with A in registers loaded from
// a 128-byte swizzled K-major shared tile: the `convert_layout` of the shared tile into
// registers is one `ldmatrix.x4` per K step (the four 8x8 matrices of the warp's 16 rows
// and the step's two 16-byte halves of K, which are the A fragment's four registers). Lane l
// gives the address of row l % 8 of matrix l / 8: row 16 (warp % 4) + 8 ((l / 8) % 2) +
// l % 8, byte 16 (l / 16) of the K step, swizzled (bits 4-6 ^= bits 7-9). The K steps
// are 32 bytes apart in the same 128-byte row: one runtime swizzle each.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @f16_rs_ldmatrix(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %sa = nv_tileas.alloc_tensor : tensor<64x64xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<64x64xf16, #sb>
    %a = nv_tileas.convert_layout %sa : tensor<64x64xf16, #sa> -> tensor<64x64xf16>
    %c = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = rs> wait_group = 0 : tensor<64x64xf16>, tensor<64x64xf16, #sb> -> tensor<64x64xf32, #acc>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x64xf32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<64x64xf32, #acc> -> !nv_tileas.tiled_view<64x64xf32>
    nv_tileas.return
  }
}

// The lane's row and its offset in the tile: row * 128 + (lane / 16) * 16.
// CHECK:      %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:      %[[P:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %[[ROWB:.*]] = arith.muli %{{.*}}, %[[P]] : i32
// CHECK-NEXT: %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK-NEXT: %[[HALF:.*]] = arith.shrui %{{.*}}, %[[FOUR]] : i32
// CHECK-NEXT: %[[SIXTEEN:.*]] = arith.constant 16 : i32
// CHECK-NEXT: %[[COLB:.*]] = arith.muli %[[HALF]], %[[SIXTEEN]] : i32
// CHECK-NEXT: %[[T:.*]] = arith.addi %[[ROWB]], %[[COLB]] : i32
// K step 0: the lane's own offset, swizzled.
// CHECK:      %[[PHYS0:.*]] = arith.xori %[[T]], %{{.*}} : i32
// CHECK-NEXT: %[[AT0:.*]] = llvm.getelementptr %{{.*}}[%[[PHYS0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[A0:.*]] = llvm.inline_asm has_side_effects "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l" %[[AT0]] : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// K step 1: 32 bytes further.
// CHECK-NEXT: %[[K32:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[L1:.*]] = arith.addi %[[T]], %[[K32]] : i32
// CHECK-COUNT-3: llvm.inline_asm has_side_effects "ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT:  ldmatrix
// The registers feed the MMAs of their K step.
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK:      %{{.*}} = llvm.extractvalue %[[A0]][0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK:      llvm.inline_asm has_side_effects "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK-NOT:  nv_tileas.convert_layout

// PTX-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX:         wgmma.fence.sync.aligned;
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
