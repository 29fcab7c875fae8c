// Both operands mn-major (transposed: A col, B row) without swizzling: 16-byte panels,
// LBO 128 (between 8-element core-matrix columns), SBO the 512-byte panel stride; the
// second K step is 16 rows (256 bytes: +16) down.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @mn(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<64x32xf16, #nv_tileas.shared<swizzle = 0, order = [0, 1]>>
    %b = nv_tileas.alloc_tensor : tensor<32x16xf16, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>
    %c = arith.constant dense<0.0> : tensor<64x16xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 16, 16]>>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x16x16, ab_major = (mn, mn), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x32xf16, #nv_tileas.shared<swizzle = 0, order = [0, 1]>>, tensor<32x16xf16, #nv_tileas.shared<swizzle = 0, order = [1, 0]>> -> tensor<64x16xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 16, 16]>>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x16xf32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<64x16xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 16, 16]>> -> !nv_tileas.tiled_view<64x16xf32>
    nv_tileas.return
  }
}


// CHECK:      llvm.mlir.constant(137439477760) : i64
// CHECK-NEXT: %[[A0:.+]] = llvm.or
// CHECK-NEXT: llvm.mlir.constant(16) : i64
// CHECK-NEXT: %[[A16:.+]] = llvm.add %[[A0]]
// CHECK:      llvm.mlir.constant(137439477760) : i64
// CHECK-NEXT: %[[B0:.+]] = llvm.or
// CHECK-NEXT: llvm.mlir.constant(16) : i64
// CHECK-NEXT: %[[B16:.+]] = llvm.add %[[B0]]
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A0]], %[[B0]], %{{.+}}, <m = 64, n = 16, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A16]], %[[B16]], %{{.+}}, <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]

// PTX: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {{.*}}, 0, 1, 1, 1, 1;
