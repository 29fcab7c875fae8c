// Mixed fp8 (e4m3 x e5m2, K = 32), two m-tiles: A advances 2, 4, 6 along K and 512 to
// the second m-tile, B only along K.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @fp8(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x128xf8E4M3FN, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
    %b = nv_tileas.alloc_tensor : tensor<128x64xf8E5M2, #nv_tileas.shared<swizzle = 128, order = [0, 1]>>
    %c = arith.constant dense<0.0> : tensor<128x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 32]>>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x32, ab_major = (k, k), elem_type = (f8E4M3FN, f8E5M2, f32), frag_kind = ss> wait_group = 0 : tensor<128x128xf8E4M3FN, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>, tensor<128x64xf8E5M2, #nv_tileas.shared<swizzle = 128, order = [0, 1]>> -> tensor<128x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 32]>>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<128x64xf32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<128x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 32]>> -> !nv_tileas.tiled_view<128x64xf32>
    nv_tileas.return
  }
}


// CHECK:      %[[A0:.+]] = llvm.or %{{.+}}, %{{.+}} : i64
// CHECK:      llvm.mlir.constant(512) : i64
// CHECK-NEXT: %[[A512:.+]] = llvm.add %[[A0]]
// CHECK:      %[[B0:.+]] = llvm.or %{{.+}}, %{{.+}} : i64
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A0]], %[[B0]], %{{.+}}, <m = 64, n = 64, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}}, D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}}, D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}}, D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A512]], %[[B0]], %{{.+}}, <m = 64, n = 64, k = 32>, D[<f32>, <zero>]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}}, D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}}, D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}}, D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned

// PTX: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2 {{.*}}, 0, 1, 1;
