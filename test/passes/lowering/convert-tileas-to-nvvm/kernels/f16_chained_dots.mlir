// Two dots in a row, the second accumulating into the first's result: two WGMMA regions,
// the second with scale-d one from its first K step, reading the accumulator the first
// region's wait drained, in the same registers (no copy between the regions).
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

#sa = #nv_tileas.shared<swizzle = 64, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 64, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @chain(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<64x32xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<32x64xf16, #sb>
    %a2 = nv_tileas.alloc_tensor : tensor<64x32xf16, #sa>
    %b2 = nv_tileas.alloc_tensor : tensor<32x64xf16, #sb>
    %c = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %d = nv_tileas.dot %a, %b, %c atom = !atom wait_group = 0 : tensor<64x32xf16, #sa>, tensor<32x64xf16, #sb> -> tensor<64x64xf32, #acc>
    %e = nv_tileas.dot %a2, %b2, %d atom = !atom wait_group = 0 : tensor<64x32xf16, #sa>, tensor<32x64xf16, #sb> -> tensor<64x64xf32, #acc>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x64xf32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %e, %view[%c0, %c0] : tensor<64x64xf32, #acc> -> !nv_tileas.tiled_view<64x64xf32>
    nv_tileas.return
  }
}

// CHECK:      nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}} D[<f32>, <zero>]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}} D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:      nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}} D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.+}} D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0

// PTX:      wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {[[ACC:%f0, .*, %f31]]}, {{.*}}, 0, 1, 1, 0, 0;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {[[ACC]]}, {{.*}}, 1, 1, 1, 0, 0;
// PTX:      wgmma.wait_group.sync.aligned 0;
// PTX-NOT:  mov.f32
// PTX:      wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {[[ACC]]}, {{.*}}, 1, 1, 1, 0, 0;
