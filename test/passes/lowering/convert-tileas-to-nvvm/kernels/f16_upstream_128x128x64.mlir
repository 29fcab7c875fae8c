// The tile of upstream MLIR's NVGPU -> NVVM test `warpgroup_mma_128_128_64`
// (mlir/test/Conversion/NVGPUToNVVM/nvgpu-to-nvvm.mlir): D(128x128, f32) += A(128x64, f16,
// k-major) * B(64x128, f16, n-major), m64n128k16, both in 128-byte swizzled shared memory,
// wait_group 1. Upstream advances A by 2, 4, 6 (K) and 512 (M), 514, 516, 518, and B by
// 128, 256, 384 (K), issuing m-tile 0's four K steps, then m-tile 1's: the same here.
// Unlike upstream, every descriptor is built before the fence (docs/fidelity.md), and the
// dot starts from zero, so each m-tile's first K step has scale-d zero.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @upstream(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x64xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<64x128xf16, #sb>
    %c = arith.constant dense<0.0> : tensor<128x128xf32, #acc>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, mn), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 1 : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #acc>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<128x128xf32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<128x128xf32, #acc> -> !nv_tileas.tiled_view<128x128xf32>
    nv_tileas.return
  }
}

// A: k-major, 128B swizzle: LBO 16 (unused), SBO 1024, swizzle mode 1 (bit 62).
// CHECK:      %[[A_ADDR:.+]] = llvm.ptrtoint %{{.+}} : !llvm.ptr<3> to i64
// CHECK-NEXT: %[[MASK:.+]] = llvm.mlir.constant(262128) : i64
// CHECK-NEXT: %[[A_LOW:.+]] = llvm.and %[[A_ADDR]], %[[MASK]] : i64
// CHECK-NEXT: %[[FOUR:.+]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT: %[[A_START:.+]] = llvm.lshr %[[A_LOW]], %[[FOUR]] : i64
// CHECK-NEXT: %[[A_FIELDS:.+]] = llvm.mlir.constant(4611686293305360384) : i64
// CHECK-NEXT: %[[A0:.+]] = llvm.or %[[A_START]], %[[A_FIELDS]] : i64
// CHECK-NEXT: %[[C2:.+]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT: %[[A2:.+]] = llvm.add %[[A0]], %[[C2]] : i64
// CHECK-NEXT: %[[C4:.+]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT: %[[A4:.+]] = llvm.add %[[A0]], %[[C4]] : i64
// CHECK-NEXT: %[[C6:.+]] = llvm.mlir.constant(6) : i64
// CHECK-NEXT: %[[A6:.+]] = llvm.add %[[A0]], %[[C6]] : i64
// CHECK-NEXT: %[[C512:.+]] = llvm.mlir.constant(512) : i64
// CHECK-NEXT: %[[A512:.+]] = llvm.add %[[A0]], %[[C512]] : i64
// CHECK-NEXT: %[[C514:.+]] = llvm.mlir.constant(514) : i64
// CHECK-NEXT: %[[A514:.+]] = llvm.add %[[A0]], %[[C514]] : i64
// CHECK-NEXT: %[[C516:.+]] = llvm.mlir.constant(516) : i64
// CHECK-NEXT: %[[A516:.+]] = llvm.add %[[A0]], %[[C516]] : i64
// CHECK-NEXT: %[[C518:.+]] = llvm.mlir.constant(518) : i64
// CHECK-NEXT: %[[A518:.+]] = llvm.add %[[A0]], %[[C518]] : i64
// B: n-major, 128B swizzle: LBO 8192 (the next 64-column panel), SBO 1024.
// CHECK-NEXT: %[[B_ADDR:.+]] = llvm.ptrtoint %{{.+}} : !llvm.ptr<3> to i64
// CHECK:      %[[B_FIELDS:.+]] = llvm.mlir.constant(4611686293338849280) : i64
// CHECK-NEXT: %[[B0:.+]] = llvm.or %{{.+}}, %[[B_FIELDS]] : i64
// CHECK-NEXT: %[[C128:.+]] = llvm.mlir.constant(128) : i64
// CHECK-NEXT: %[[B128:.+]] = llvm.add %[[B0]], %[[C128]] : i64
// CHECK-NEXT: %[[C256:.+]] = llvm.mlir.constant(256) : i64
// CHECK-NEXT: %[[B256:.+]] = llvm.add %[[B0]], %[[C256]] : i64
// CHECK-NEXT: %[[C384:.+]] = llvm.mlir.constant(384) : i64
// CHECK-NEXT: %[[B384:.+]] = llvm.add %[[B0]], %[[C384]] : i64
// A zero start: the MMAs get undefined registers, the first K step of each tile ignores them.
// CHECK-NEXT: %[[UNDEF:.+]] = llvm.mlir.undef : !llvm.struct<(!llvm.struct<(f32,
// CHECK-NEXT: %[[T0:.+]] = llvm.extractvalue %[[UNDEF]][0]
// CHECK-NEXT: %[[T1:.+]] = llvm.extractvalue %[[UNDEF]][1]
// CHECK-NEXT: %[[RES:.+]] = llvm.mlir.undef
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[M0K0:.+]] = nvvm.wgmma.mma_async %[[A0]], %[[B0]], %[[T0]], <m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK-NEXT: %[[M0K1:.+]] = nvvm.wgmma.mma_async %[[A2]], %[[B128]], %[[M0K0]], <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK-NEXT: %[[M0K2:.+]] = nvvm.wgmma.mma_async %[[A4]], %[[B256]], %[[M0K1]], <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK-NEXT: %[[M0K3:.+]] = nvvm.wgmma.mma_async %[[A6]], %[[B384]], %[[M0K2]], <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK-NEXT: %[[M1K0:.+]] = nvvm.wgmma.mma_async %[[A512]], %[[B0]], %[[T1]], <m = 64, n = 128, k = 16>, D[<f32>, <zero>]
// CHECK-NEXT: %[[M1K1:.+]] = nvvm.wgmma.mma_async %[[A514]], %[[B128]], %[[M1K0]], <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK-NEXT: %[[M1K2:.+]] = nvvm.wgmma.mma_async %[[A516]], %[[B256]], %[[M1K1]], <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK-NEXT: %[[M1K3:.+]] = nvvm.wgmma.mma_async %[[A518]], %[[B384]], %[[M1K2]], <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: %[[R0:.+]] = llvm.insertvalue %[[M0K3]], %[[RES]][0]
// CHECK-NEXT: %{{.+}} = llvm.insertvalue %[[M1K3]], %[[R0]][1]
// The group left in flight is drained before the store reads the accumulator.
// CHECK:      nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: nvvm.read.ptx.sreg.tid.x
// CHECK-NOT:  nvvm.wgmma

// PTX:      wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 0, 1, 1, 0, 1;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 1, 1, 1, 0, 1;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 1, 1, 1, 0, 1;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 1, 1, 1, 0, 1;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 0, 1, 1, 0, 1;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 1, 1, 1, 0, 1;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 1, 1, 1, 0, 1;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 1, 1, 1, 0, 1;
// PTX-NEXT: wgmma.commit_group.sync.aligned;
// PTX-NEXT: wgmma.wait_group.sync.aligned 1;
