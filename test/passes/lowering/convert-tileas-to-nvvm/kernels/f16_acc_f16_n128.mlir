// An f16 accumulator (two values per 32-bit register: vector<2xf16>), 64x128 covered by two
// m64n64k16 n-tiles, K = 32 in two steps; A k-major, B n-major, 64-byte swizzle. B's
// n-major panels are 32 columns (64 bytes) wide, 32 rows each: the second n-tile starts two
// panels on (4096 bytes: +256), the second K step 16 rows down (1024 bytes: +64).
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @f16acc(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<64x32xf16, #nv_tileas.shared<swizzle = 64, order = [1, 0]>>
    %b = nv_tileas.alloc_tensor : tensor<32x128xf16, #nv_tileas.shared<swizzle = 64, order = [1, 0]>>
    %c = arith.constant dense<0.0> : tensor<64x128xf16, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, mn), elem_type = (f16, f16, f16), frag_kind = ss> wait_group = 0 : tensor<64x32xf16, #nv_tileas.shared<swizzle = 64, order = [1, 0]>>, tensor<32x128xf16, #nv_tileas.shared<swizzle = 64, order = [1, 0]>> -> tensor<64x128xf16, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x128xf16>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<64x128xf16, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>> -> !nv_tileas.tiled_view<64x128xf16>
    nv_tileas.return
  }
}


// CHECK:      %[[A0:.+]] = llvm.or %{{.+}}, %{{.+}} : i64
// CHECK-NEXT: llvm.mlir.constant(2) : i64
// CHECK-NEXT: %[[A2:.+]] = llvm.add %[[A0]]
// CHECK:      %[[B0:.+]] = llvm.or %{{.+}}, %{{.+}} : i64
// CHECK-NEXT: llvm.mlir.constant(64) : i64
// CHECK-NEXT: %[[B64:.+]] = llvm.add %[[B0]]
// CHECK-NEXT: llvm.mlir.constant(256) : i64
// CHECK-NEXT: %[[B256:.+]] = llvm.add %[[B0]]
// CHECK-NEXT: llvm.mlir.constant(320) : i64
// CHECK-NEXT: %[[B320:.+]] = llvm.add %[[B0]]
// CHECK-NEXT: llvm.mlir.undef : !llvm.struct<(!llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>, !llvm.struct<(vector<2xf16>,
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[N0:.+]] = nvvm.wgmma.mma_async %[[A0]], %[[B0]], %{{.+}}, <m = 64, n = 64, k = 16>, D[<f16>, <zero>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A2]], %[[B64]], %[[N0]], <m = 64, n = 64, k = 16>, D[<f16>, <one>]
// CHECK-NEXT: %[[N1:.+]] = nvvm.wgmma.mma_async %[[A0]], %[[B256]], %{{.+}}, <m = 64, n = 64, k = 16>, D[<f16>, <zero>]
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A2]], %[[B320]], %[[N1]], <m = 64, n = 64, k = 16>, D[<f16>, <one>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0

// The store writes each packed pair as one 32-bit word.
// PTX:      wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16 {%r{{[0-9]+}}, {{.*}}, 0, 1, 1, 0, 1;
// PTX:      wgmma.wait_group.sync.aligned 0;
// PTX:      st.global.u32 [%rd{{[0-9]+}}], %r0;
// PTX-NEXT: st.global.u32 [%rd{{[0-9]+}}+2048], %r1;
