// A K loop: the accumulator is carried through `scf.for` as its LLVM struct, starts from
// zeros set before the loop, and every iteration's WGMMA region accumulates into it
// (scale-d one: the loop cannot know which iteration is the first). ptxas keeps the loop
// and the pipeline: four HGMMAs in the body, no GMMA diagnostic.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16]>
!atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @kloop(%out: !llvm.ptr<1>, %n: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<64x64xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<64x128xf16, #sb>
    %c = arith.constant dense<0.0> : tensor<64x128xf32, #acc>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %d = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x128xf32, #acc>) {
      %e = nv_tileas.dot %a, %b, %acc atom = !atom wait_group = 0 : tensor<64x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<64x128xf32, #acc>
      scf.yield %e : tensor<64x128xf32, #acc>
    }
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x128xf32>
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<64x128xf32, #acc> -> !nv_tileas.tiled_view<64x128xf32>
    nv_tileas.return
  }
}

// CHECK:      %[[ZERO:.+]] = llvm.mlir.zero : !llvm.struct<(!llvm.struct<(f32,
// CHECK:      %[[D:.+]] = scf.for %k = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (!llvm.struct<(!llvm.struct<(f32,
// CHECK:        %[[TILE:.+]] = llvm.extractvalue %[[ACC]][0]
// CHECK:        nvvm.wgmma.fence.aligned
// CHECK-NEXT:   %[[M0:.+]] = nvvm.wgmma.mma_async %{{.+}}, %{{.+}}, %[[TILE]], <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK-NEXT:   %[[M1:.+]] = nvvm.wgmma.mma_async %{{.+}}, %{{.+}}, %[[M0]], <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK-NEXT:   %[[M2:.+]] = nvvm.wgmma.mma_async %{{.+}}, %{{.+}}, %[[M1]], <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK-NEXT:   %[[M3:.+]] = nvvm.wgmma.mma_async %{{.+}}, %{{.+}}, %[[M2]], <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK-NEXT:   nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:   nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:   %[[NEXT:.+]] = llvm.insertvalue %[[M3]], %{{.+}}[0]
// CHECK-NEXT:   scf.yield %[[NEXT]] : !llvm.struct<(!llvm.struct<(f32,
// CHECK:      llvm.extractvalue %[[D]][0]

// The accumulator registers are zeroed before the loop and accumulated into in place.
// PTX:      mov.f32 %f63, 0f00000000;
// PTX:      wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%f0, {{.*}}, %f63}, {{.*}}, 1, 1, 1, 0, 0;
// PTX:      wgmma.wait_group.sync.aligned 0;
// PTX-NEXT: add.s64
// PTX:      bra
