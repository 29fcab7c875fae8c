// Mixed 8-bit integers (s8 x u8, K = 32, s32 accumulator), 64-byte swizzle. Mixing them
// needs PTX ISA 8.4, so the module's target is raised to +ptx84.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @s8u8(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<64x64xsi8, #nv_tileas.shared<swizzle = 64, order = [1, 0]>>
    %b = nv_tileas.alloc_tensor : tensor<64x32xui8, #nv_tileas.shared<swizzle = 64, order = [0, 1]>>
    %c = arith.constant dense<0> : tensor<64x32xi32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 32, 32]>>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x32x32, ab_major = (k, k), elem_type = (si8, ui8, i32), frag_kind = ss> wait_group = 0 : tensor<64x64xsi8, #nv_tileas.shared<swizzle = 64, order = [1, 0]>>, tensor<64x32xui8, #nv_tileas.shared<swizzle = 64, order = [0, 1]>> -> tensor<64x32xi32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 32, 32]>>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x32xi32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<64x32xi32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 32, 32]>> -> !nv_tileas.tiled_view<64x32xi32>
    nv_tileas.return
  }
}


// CHECK:      nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx84">
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}}, <m = 64, n = 32, k = 32>, D[<s32>, <zero>], A[<s8>, <one>, <row>], B[<u8>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}}, <m = 64, n = 32, k = 32>, D[<s32>, <one>], A[<s8>, <one>, <row>], B[<u8>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned

// PTX:      .version 8.4
// PTX:      wgmma.mma_async.sync.aligned.m64n32k32.s32.s8.u8 {{.*}}, 0;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n32k32.s32.s8.u8 {{.*}}, 1;
