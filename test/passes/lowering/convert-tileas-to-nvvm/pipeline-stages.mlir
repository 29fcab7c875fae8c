// A pipeline whose stage holds two slots (A's and B's tiles of one K step): one full and
// one empty barrier per stage, both slots of a stage side by side (each padded to 1024
// bytes), one TMA load per slot completing on the stage's full barrier, and one
// arrive.expect_tx of their combined bytes; the consumer waits once for both.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
!stage = !nv_tileas.pipeline<2, tensor<128x64xf16, #sa>, tensor<64x32xf16, #sb>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k(%a: !nv_tileas.tiled_view<1024x1024xf16>, %b: !nv_tileas.tiled_view<1024x1024xf16>, %i32: i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 8 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !stage
    %i = arith.index_cast %i32 : i32 to index
    nv_tileas.async.pipeline.agent_switch num_warps = [4, 1] warp_id = [0, 4] agent_strides = [1, 1] {
      %sa, %sb = nv_tileas.async.pipeline.consumer_acquire %p : !stage -> tensor<128x64xf16, #sa>, tensor<64x32xf16, #sb>
      nv_tileas.async.pipeline.consumer_release %p : !stage
    } {
      %sa, %sb = nv_tileas.async.pipeline.producer_acquire %p : !stage -> tensor<128x64xf16, #sa>, tensor<64x32xf16, #sb>
      %ta = nv_tileas.tiled_load %a[%i, %i] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<128x64xf16, #sa>
      %wa = nv_tileas.copy %ta, %sa : tensor<128x64xf16, #sa> -> tensor<128x64xf16, #sa>
      %tb = nv_tileas.tiled_load %b[%i, %i] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<64x32xf16, #sb>
      %wb = nv_tileas.copy %tb, %sb : tensor<64x32xf16, #sb> -> tensor<64x32xf16, #sb>
      nv_tileas.async.pipeline.producer_commit %p : !stage
    }
    nv_tileas.return
  }
}

// A stage: 16 KiB of A, then 4 KiB of B: 20 KiB; two stages, then 2 full and 2 empty barriers.
// CHECK:      llvm.mlir.global internal @k_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<40992 x i8>
// CHECK:      %[[SLOTS:.*]] = llvm.getelementptr %{{.*}}[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[BARS:.*]] = llvm.getelementptr %{{.*}}[40960] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// Consumer: one wait on full[stage], both slots at stage * 20480 (+ 16384 for B).
// CHECK:      nvvm.mbarrier.try_wait.parity
// CHECK-NEXT: %[[STRIDE:.*]] = arith.constant 20480 : i32
// CHECK-NEXT: %[[AT:.*]] = arith.muli %{{.*}}, %[[STRIDE]] : i32
// CHECK-NEXT: %[[A:.*]] = llvm.getelementptr %[[SLOTS]][%[[AT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[B:.*]] = llvm.getelementptr %[[A]][16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NOT:  nvvm.mbarrier.try_wait.parity
// CHECK:      nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// Producer: two TMA loads onto the same full barrier, one transaction count of 20480 bytes.
// CHECK:      nvvm.cp.async.bulk.tensor.shared.cluster.global %[[PA:.*]], %a, %[[FULL:[^,]*]], box
// CHECK:      nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %b, %[[FULL]], box
// CHECK:      %[[BYTES:.*]] = arith.constant 20480 : i32
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]], predicate = %{{.*}} : !llvm.ptr<3>, i32, i1
// CHECK-NOT:  nvvm.mbarrier.arrive.expect_tx

// PTX-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX:         mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{.*}}], 20480;
