// A dot with wait_group = 1 in a K loop keeps one WGMMA group in flight across iterations:
// the release of the slot it read is deferred by one iteration (guarded by k >= lb + step),
// `wgmma.wait_group 0` drains the loop, and the slot of the last iteration is released
// after the drain when the loop ran at all. Releases deferred in the same loop share one
// guard.
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
!pa = !nv_tileas.pipeline<2, tensor<64x64xf16, #sa>>
!pb = !nv_tileas.pipeline<2, tensor<64x64xf16, #sb>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k(%out: !llvm.ptr<1>, %n32: i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %pa = nv_tileas.async.pipeline.create_pipeline : !pa
    %pb = nv_tileas.async.pipeline.create_pipeline : !pb
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = arith.index_cast %n32 : i32 to index
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %acc = scf.for %k = %c0 to %n step %c64 iter_args(%c = %zero) -> (tensor<64x64xf32, #acc>) {
      %sa = nv_tileas.async.pipeline.consumer_acquire %pa : !pa -> tensor<64x64xf16, #sa>
      %sb = nv_tileas.async.pipeline.consumer_acquire %pb : !pb -> tensor<64x64xf16, #sb>
      %d = nv_tileas.dot %sa, %sb, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 1 : tensor<64x64xf16, #sa>, tensor<64x64xf16, #sb> -> tensor<64x64xf32, #acc>
      nv_tileas.async.pipeline.consumer_release %pa : !pa
      nv_tileas.async.pipeline.consumer_release %pb : !pb
      scf.yield %d : tensor<64x64xf32, #acc>
    }
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x64xf32>
    nv_tileas.tiled_store %acc, %view[%c0, %c0] : tensor<64x64xf32, #acc> -> !nv_tileas.tiled_view<64x64xf32>
    nv_tileas.return
  }
}

// The first iteration that releases: lb + 1 * step.
// CHECK:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[STEPS:.*]] = arith.muli %c64, %[[ONE]] : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.addi %c0, %[[STEPS]] : index
// CHECK-NEXT: %{{.*}} = scf.for %[[K:.*]] = %c0 to %n step %c64 iter_args(
// CHECK:        nvvm.wgmma.fence.aligned
// CHECK:        nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:   nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:        %[[READY:.*]] = arith.cmpi sge, %[[K]], %[[FIRST]] : index
// CHECK-NEXT:   %{{.*}} = scf.if %[[READY]] -> (i32, i32, i32, i32) {
// CHECK:          nvvm.mbarrier.arrive
// CHECK:          nvvm.mbarrier.arrive
// CHECK:        } else {
// CHECK-NOT:      nvvm.mbarrier
// CHECK:        scf.yield %{{.*}} : !llvm.struct
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: %[[RAN:.*]] = arith.cmpi sgt, %n, %c0 : index
// CHECK-NEXT: %{{.*}} = scf.if %[[RAN]] -> (i32, i32, i32, i32) {
// CHECK:        nvvm.mbarrier.arrive
// CHECK:        nvvm.mbarrier.arrive
// CHECK:      } else {
// CHECK-NOT:  nvvm.wgmma

// PTX:      wgmma.commit_group.sync.aligned;
// PTX-NEXT: wgmma.wait_group.sync.aligned 1;
// PTX:      wgmma.wait_group.sync.aligned 0;
// PTX-NOT:  wgmma.wait_group
// PTX:      st.global.f32

// -----

// Outside a loop the group left in flight is drained before the first op that reads the
// accumulator (here, the store).
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @straight(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<64x64xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<64x64xf16, #sb>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %d = nv_tileas.dot %a, %b, %zero atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 1 : tensor<64x64xf16, #sa>, tensor<64x64xf16, #sb> -> tensor<64x64xf32, #acc>
    %c0 = arith.constant 0 : index
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x64xf32>
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<64x64xf32, #acc> -> !nv_tileas.tiled_view<64x64xf32>
    nv_tileas.return
  }
}

// CHECK-LABEL: llvm.func @straight
// CHECK:       nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT:   llvm.store
// CHECK:       nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:       llvm.store
