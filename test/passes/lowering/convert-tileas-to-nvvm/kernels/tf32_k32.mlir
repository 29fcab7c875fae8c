// tf32 (K = 8 per instruction: 32 bytes of K), 64x32 from a K = 32 tile, 128-byte swizzle.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @tf32(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<64x32xtf32, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
    %b = nv_tileas.alloc_tensor : tensor<32x32xtf32, #nv_tileas.shared<swizzle = 128, order = [0, 1]>>
    %c = arith.constant dense<0.0> : tensor<64x32xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 32, 8]>>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x32x8, ab_major = (k, k), elem_type = (tf32, tf32, f32), frag_kind = ss> wait_group = 0 : tensor<64x32xtf32, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>, tensor<32x32xtf32, #nv_tileas.shared<swizzle = 128, order = [0, 1]>> -> tensor<64x32xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 32, 8]>>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x32xf32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<64x32xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 32, 8]>> -> !nv_tileas.tiled_view<64x32xf32>
    nv_tileas.return
  }
}


// CHECK:      %[[A0:.+]] = llvm.or %{{.+}}, %{{.+}} : i64
// CHECK:      %[[B0:.+]] = llvm.or %{{.+}}, %{{.+}} : i64
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A0]], %[[B0]], %{{.+}}, <m = 64, n = 32, k = 8>, D[<f32>, <zero>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 32, k = 8>, D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 32, k = 8>, D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 32, k = 8>, D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned

// tf32 has no transpose: imm-trans-a/b are not printed.
// PTX: wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 {{.*}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, 0, 1, 1;
