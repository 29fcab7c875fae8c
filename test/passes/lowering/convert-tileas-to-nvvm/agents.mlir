// agent_switch: one scf.if per agent on the warp index tid.x / 32; holes emit nothing.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 12 : i32} {
    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4, 4] warp_id = [0, 1, 4, 8] agent_strides = [1, 3, 1, 1] {
      nv_tileas.async.fence
    } {
    } {
      nv_tileas.cluster_barrier.arrive relaxed
    } {
      nv_tileas.cluster_barrier.wait
    }
    nv_tileas.return
  }
}

// CHECK:      %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[WARP:.*]] = arith.shrui %[[TID]], %{{.*}} : i32
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[IN0:.*]] = arith.cmpi ult, %[[WARP]], %[[C1]] : i32
// CHECK-NEXT: scf.if %[[IN0]] {
// CHECK-NEXT:   nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: }{nv_tileas.agent_warps = 1 : i32, nv_tileas.agent_index = 0 : i32}
// CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi ult, %[[WARP]], %[[C8]] : i32
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi uge, %[[WARP]], %[[C4]] : i32
// CHECK-NEXT: %[[IN2:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT: scf.if %[[IN2]] {
// CHECK-NEXT:   nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT: }{nv_tileas.agent_warps = 4 : i32, nv_tileas.agent_index = 2 : i32}
// CHECK:      scf.if %{{.*}} {
// CHECK-NEXT:   nvvm.cluster.wait {aligned}
// CHECK-NEXT: }{nv_tileas.agent_warps = 4 : i32, nv_tileas.agent_index = 3 : i32}
// CHECK-NEXT: llvm.return

// PTX:      shr.u32 %r{{[0-9]+}}, %r{{[0-9]+}}, 5;
// PTX:      fence.proxy.async.shared::cta;
// PTX:      barrier.cluster.arrive.relaxed.aligned;
// PTX:      barrier.cluster.wait.aligned;
