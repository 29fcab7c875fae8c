// mbarriers, async fences and arrives: 8 bytes of the shared buffer each; init by thread
// 0 of the CTA, arrivals and transaction counts by the agent's leader, waits by every
// thread.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k(%phase: i1) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %bar = nv_tileas.mbarrier.create arrive_count = 1
    nv_tileas.mbarrier.expect_tx %bar bytes = 16384
    nv_tileas.mbarrier.arrive %bar
    nv_tileas.async.arrive %bar
    nv_tileas.mbarrier.wait %bar, %phase
    nv_tileas.return
  }
}

// CHECK:      llvm.mlir.global internal @k_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8 x i8>
// CHECK:      %[[BASE:.*]] = llvm.mlir.addressof @k_smem : !llvm.ptr<3>
// CHECK-NEXT: %[[BAR:.*]] = llvm.getelementptr %[[BASE]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// The leader: the lane elect.sync elects in the CTA's first warp.
// CHECK:      %[[ELECTED:.*]] = nvvm.elect.sync -> i1
// CHECK:      %[[WARP:.*]] = arith.andi %{{.*}}, %{{.*}} : i32
// CHECK:      %[[FIRST:.*]] = arith.cmpi eq, %[[WARP]], %{{.*}} : i32
// CHECK-NEXT: %[[LEADER:.*]] = arith.andi %[[FIRST]], %[[ELECTED]] : i1
// CHECK:      nvvm.mbarrier.init %[[BAR]], %{{.*}}, predicate = %[[LEADER]] : !llvm.ptr<3>, i32, i1
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: nvvm.barrier0
// CHECK:      scf.if
// CHECK-NEXT:   llvm.inline_asm has_side_effects "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [$0], $1;", "l,r" %[[BAR]], %{{.*}} : (!llvm.ptr<3>, i32) -> ()
// CHECK:      scf.if
// CHECK-NEXT:   nvvm.mbarrier.arrive %[[BAR]] : !llvm.ptr<3>
// CHECK:      llvm.inline_asm has_side_effects "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [$0];", "l" %[[BAR]] : (!llvm.ptr<3>) -> ()
// CHECK:      %[[PARITY:.*]] = arith.extui %phase : i1 to i32
// CHECK-NEXT: %[[TICKS:.*]] = arith.constant 10000000 : i32
// CHECK-NEXT: nvvm.mbarrier.try_wait.parity %[[BAR]], %[[PARITY]], %[[TICKS]] : !llvm.ptr<3>, i32, i32

// PTX:      .shared .align 1024 .b8 k_smem[8];
// PTX:      elect.sync _|%p{{[0-9]+}}, -1;
// PTX:      mbarrier.init.shared::cta.b64 [k_smem], 1;
// PTX:      fence.mbarrier_init.release.cluster;
// PTX:      bar.sync 0;
// PTX:      mbarrier.expect_tx.relaxed.cta.shared::cta.b64
// PTX:      mbarrier.arrive.shared::cta.b64
// PTX:      cp.async.mbarrier.arrive.noinc.shared::cta.b64
// PTX:      mbarrier.try_wait.parity.shared::cta.b64
