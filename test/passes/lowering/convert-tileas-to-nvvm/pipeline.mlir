// Pipelines and the TMA loads that fill them: slots then full / empty mbarriers in the
// shared buffer, per-thread cursors (stage, phase) in registers, waits on the phase bit,
// the producer leader's TMA load and transaction arrival, the consumers' releases.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#s = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
!pipe = !nv_tileas.pipeline<2, tensor<64x64xf16, #s>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k(%a: !nv_tileas.tiled_view<1024x1024xf16>, %i32: i32, %j32: i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 8 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !pipe
    %i = arith.index_cast %i32 : i32 to index
    %j = arith.index_cast %j32 : i32 to index
    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4] warp_id = [0, 1, 4] agent_strides = [1, 3, 1] {
      %slot = nv_tileas.async.pipeline.producer_acquire %p : !pipe -> tensor<64x64xf16, #s>
      %t = nv_tileas.tiled_load %a[%i, %j] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<64x64xf16, #s>
      %w = nv_tileas.copy %t, %slot : tensor<64x64xf16, #s> -> tensor<64x64xf16, #s>
      nv_tileas.async.pipeline.producer_commit %p : !pipe
    } {
    } {
      %slot = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<64x64xf16, #s>
      nv_tileas.async.pipeline.consumer_release %p : !pipe
      nv_tileas.async.pipeline.consume_one %p : !pipe -> () {
      ^bb0(%s2: tensor<64x64xf16, #s>):
        nv_tileas.async.pipeline.yield
      }
    }
    nv_tileas.return
  }
}

// Two 8 KiB slots (1024-aligned), then full[0..1] (one arrival: the producer's leader)
// and empty[0..1] (every thread of the one consumer warpgroup).
// CHECK:      llvm.mlir.global internal @k_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<16416 x i8>
// CHECK:      %[[SLOTS:.*]] = llvm.getelementptr %{{.*}}[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[BARS:.*]] = llvm.getelementptr %{{.*}}[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:      %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[F0:.*]] = llvm.getelementptr %[[BARS]][0]
// CHECK-NEXT: nvvm.mbarrier.init %[[F0]], %[[ONE]], predicate = %{{.*}}
// CHECK-NEXT: %[[F1:.*]] = llvm.getelementptr %[[BARS]][8]
// CHECK-NEXT: nvvm.mbarrier.init %[[F1]], %[[ONE]], predicate = %{{.*}}
// CHECK-NEXT: %[[THREADS:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %[[E0:.*]] = llvm.getelementptr %[[BARS]][16]
// CHECK-NEXT: nvvm.mbarrier.init %[[E0]], %[[THREADS]], predicate = %{{.*}}
// CHECK:      nvvm.fence.mbarrier.init
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NOT:  llvm.alloca

// Producer: its stage and phase (both 0 at first) are registers, carried out of the agent.
// Wait on empty[stage] for parity phase ^ 1, TMA into the slot (coordinates fastest
// dimension first), arrive.expect_tx 8192 bytes on full[stage]; then the next stage, 0
// again past the last one with the phase flipped.
// CHECK:      scf.if %{{.*}} -> (i32, i32) {
// CHECK:        %[[PARITY:.*]] = arith.xori %[[ZERO]], %{{.*}} : i32
// CHECK:        nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PARITY]], %{{.*}} : !llvm.ptr<3>, i32, i32
// CHECK:        %[[J:.*]] = arith.index_cast %j : index to i32
// CHECK-NEXT:   %[[I:.*]] = arith.index_cast %i : index to i32
// CHECK:        nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %a, %{{.*}}, box[%[[J]], %[[I]]] predicate = %{{.*}} : !llvm.ptr<3>, !llvm.ptr
// CHECK:        %[[BYTES:.*]] = arith.constant 8192 : i32
// CHECK-NEXT:   nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]], predicate = %{{.*}} : !llvm.ptr<3>, i32, i1
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[NEXT:.*]] = arith.addi %[[ZERO]], %[[ONE]] : i32
// CHECK-NEXT:   %[[DEPTH:.*]] = arith.constant 2 : i32
// CHECK-NEXT:   %[[WRAP:.*]] = arith.cmpi eq, %[[NEXT]], %[[DEPTH]] : i32
// CHECK-NEXT:   %[[FIRST:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[STAGE:.*]] = arith.select %[[WRAP]], %[[FIRST]], %[[NEXT]] : i32
// CHECK-NEXT:   %[[FLIP:.*]] = arith.extui %[[WRAP]] : i1 to i32
// CHECK-NEXT:   %[[PHASE:.*]] = arith.xori %[[ZERO]], %[[FLIP]] : i32
// CHECK-NEXT:   scf.yield %[[STAGE]], %[[PHASE]] : i32, i32
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %[[ZERO]], %[[ZERO]] : i32, i32
// CHECK-NEXT: }{nv_tileas.agent_warps = 1 : i32, nv_tileas.agent_index = 0 : i32}

// Consumers: an acquire waits on full[stage] for parity phase and moves the acquire
// cursor on; every thread arrives on empty[stage] of the release cursor, which moves on.
// The second acquire (consume_one's) waits at the acquire cursor's next stage.
// CHECK:      scf.if %{{.*}} -> (i32, i32, i32, i32) {
// CHECK:        nvvm.mbarrier.try_wait.parity %{{.*}}, %[[ZERO]], %{{.*}} : !llvm.ptr<3>, i32, i32
// CHECK:        %[[A_STAGE:.*]] = arith.select
// CHECK-NEXT:   %{{.*}} = arith.extui
// CHECK-NEXT:   %[[A_PHASE:.*]] = arith.xori %[[ZERO]], %{{.*}} : i32
// CHECK:        nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK:        %[[A_BAR:.*]] = arith.muli %[[A_STAGE]], %{{.*}} : i32
// CHECK-NEXT:   %[[A_FULL:.*]] = llvm.getelementptr %{{.*}}[%[[A_BAR]]]
// CHECK:        nvvm.mbarrier.try_wait.parity %[[A_FULL]], %[[A_PHASE]], %{{.*}} : !llvm.ptr<3>, i32, i32
// CHECK:        nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK:      }{nv_tileas.agent_warps = 4 : i32, nv_tileas.agent_index = 2 : i32}

// PTX:      mbarrier.init.shared::cta.b64 [k_smem+16384], 1;
// PTX:      mbarrier.init.shared::cta.b64 [k_smem+16400], 128;
// PTX:      mbarrier.init.shared::cta.b64 [k_smem+16408], 128;
// PTX-NOT:  ld.u32
// PTX:      mbarrier.try_wait.parity.shared::cta.b64
// PTX:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX:      mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{.*}}], 8192;
// PTX:      mbarrier.arrive.shared::cta.b64
