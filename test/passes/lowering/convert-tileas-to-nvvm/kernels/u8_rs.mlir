// u8 with A in registers: a splat 3 packs into 0x03030303; integer MMAs take only scale-d.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @u8rs(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = arith.constant dense<3> : tensor<64x64xui8>
    %b = nv_tileas.alloc_tensor : tensor<64x16xui8, #nv_tileas.shared<swizzle = 64, order = [0, 1]>>
    %c = arith.constant dense<0> : tensor<64x16xi32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 16, 32]>>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x16x32, ab_major = (k, k), elem_type = (ui8, ui8, i32), frag_kind = rs> wait_group = 0 : tensor<64x64xui8>, tensor<64x16xui8, #nv_tileas.shared<swizzle = 64, order = [0, 1]>> -> tensor<64x16xi32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 16, 32]>>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x16xi32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<64x16xi32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 16, 32]>> -> !nv_tileas.tiled_view<64x16xi32>
    nv_tileas.return
  }
}


// CHECK:      llvm.mlir.constant(50529027 : i32) : i32
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK:      llvm.inline_asm has_side_effects "wgmma.mma_async.sync.aligned.m64n16k32.s32.u8.u8 {$0, $1, $2, $3, $4, $5, $6, $7}, {$8, $9, $10, $11}, $12, 0;", "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,l,0,1,2,3,4,5,6,7"
// CHECK:      llvm.inline_asm has_side_effects "wgmma.mma_async.sync.aligned.m64n16k32.s32.u8.u8 {$0, $1, $2, $3, $4, $5, $6, $7}, {$8, $9, $10, $11}, $12, 1;"
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned

// PTX:      mov.b32 {{%r[0-9]+}}, 50529027;
// PTX:      wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n16k32.s32.u8.u8
