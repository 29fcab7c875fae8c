// RUN: TILEAS_ROUNDTRIP
// RUN: TILEAS_GENERIC_ROUNDTRIP
// The CHECK lines are what upstream mlir-opt 22.1.8 prints for this input, custom and
// generic, with SSA names elided: both tools must agree op for op.

// Barriers, fences, elect.sync and setmaxregister.

llvm.func @barriers(%id : i32, %n : i32, %pred : i32) {
  nvvm.barrier0
  nvvm.barrier
  nvvm.barrier id = %id
  nvvm.barrier id = %id number_of_threads = %n
  nvvm.barrier #nvvm.reduction<and> %pred
  %0 = nvvm.barrier #nvvm.reduction<popc> %pred -> i32
  nvvm.barrier.arrive number_of_threads = %n
  nvvm.barrier.arrive id = %id number_of_threads = %n
  llvm.return
}

// CHECK: nvvm.barrier0
// CHECK: nvvm.barrier
// CHECK: nvvm.barrier id = %{{.*}}
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: nvvm.barrier #nvvm.reduction<and> %{{.*}}
// CHECK: %{{.*}} = nvvm.barrier #nvvm.reduction<popc> %{{.*}} -> i32
// CHECK: nvvm.barrier.arrive number_of_threads = %{{.*}}
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-GENERIC: "nvvm.barrier0"() : () -> ()
// CHECK-GENERIC: "nvvm.barrier"() <{operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> ()
// CHECK-GENERIC: "nvvm.barrier"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
// CHECK-GENERIC: "nvvm.barrier"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i32, i32) -> ()
// CHECK-GENERIC: "nvvm.barrier"(%{{.*}}) <{operandSegmentSizes = array<i32: 0, 0, 1>, reductionOp = #nvvm.reduction<and>}> : (i32) -> ()
// CHECK-GENERIC: %{{.*}} = "nvvm.barrier"(%{{.*}}) <{operandSegmentSizes = array<i32: 0, 0, 1>, reductionOp = #nvvm.reduction<popc>}> : (i32) -> i32
// CHECK-GENERIC: "nvvm.barrier.arrive"(%{{.*}}) : (i32) -> ()
// CHECK-GENERIC: "nvvm.barrier.arrive"(%{{.*}}, %{{.*}}) : (i32, i32) -> ()

// -----


llvm.func @fences() {
  nvvm.fence.sc.cluster
  nvvm.fence.mbarrier.init
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.global>}
  nvvm.fence.proxy {space = #nvvm.shared_space<cluster>, kind = #nvvm.proxy_kind<async.shared>}
  llvm.return
}

// CHECK: nvvm.fence.sc.cluster
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async>}
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.global>}
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}
// CHECK-GENERIC: "nvvm.fence.sc.cluster"() : () -> ()
// CHECK-GENERIC: "nvvm.fence.mbarrier.init"() : () -> ()
// CHECK-GENERIC: "nvvm.fence.proxy"() <{kind = #nvvm.proxy_kind<alias>}> : () -> ()
// CHECK-GENERIC: "nvvm.fence.proxy"() <{kind = #nvvm.proxy_kind<async>}> : () -> ()
// CHECK-GENERIC: "nvvm.fence.proxy"() <{kind = #nvvm.proxy_kind<async.global>}> : () -> ()
// CHECK-GENERIC: "nvvm.fence.proxy"() <{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}> : () -> ()

// -----


llvm.func @warp(%mask : i32) {
  %0 = nvvm.elect.sync -> i1
  %1 = nvvm.elect.sync %mask -> i1
  nvvm.setmaxregister increase 232
  nvvm.setmaxregister decrease 40
  llvm.return
}

// CHECK: %{{.*}} = nvvm.elect.sync -> i1
// CHECK: %{{.*}} = nvvm.elect.sync %{{.*}} -> i1
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK-GENERIC: %{{.*}} = "nvvm.elect.sync"() : () -> i1
// CHECK-GENERIC: %{{.*}} = "nvvm.elect.sync"(%{{.*}}) : (i32) -> i1
// CHECK-GENERIC: "nvvm.setmaxregister"() <{action = #nvvm<action increase>, regCount = 232 : i32}> : () -> ()
// CHECK-GENERIC: "nvvm.setmaxregister"() <{action = #nvvm<action decrease>, regCount = 40 : i32}> : () -> ()

// -----


llvm.func @cluster(%p : !llvm.ptr, %s : !llvm.ptr<3>, %rank : i32) {
  nvvm.cluster.arrive
  nvvm.cluster.arrive {aligned}
  nvvm.cluster.arrive.relaxed
  nvvm.cluster.arrive.relaxed {aligned}
  nvvm.cluster.wait
  nvvm.cluster.wait {aligned}
  %0 = nvvm.mapa %p, %rank : !llvm.ptr -> !llvm.ptr
  %1 = nvvm.mapa %s, %rank : !llvm.ptr<3> -> !llvm.ptr<7>
  llvm.return
}

// CHECK: nvvm.cluster.arrive
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK: nvvm.cluster.arrive.relaxed
// CHECK: nvvm.cluster.arrive.relaxed {aligned}
// CHECK: nvvm.cluster.wait
// CHECK: nvvm.cluster.wait {aligned}
// CHECK: %{{.*}} = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %{{.*}} = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-GENERIC: "nvvm.cluster.arrive"() : () -> ()
// CHECK-GENERIC: "nvvm.cluster.arrive"() <{aligned}> : () -> ()
// CHECK-GENERIC: "nvvm.cluster.arrive.relaxed"() : () -> ()
// CHECK-GENERIC: "nvvm.cluster.arrive.relaxed"() <{aligned}> : () -> ()
// CHECK-GENERIC: "nvvm.cluster.wait"() : () -> ()
// CHECK-GENERIC: "nvvm.cluster.wait"() <{aligned}> : () -> ()
// CHECK-GENERIC: %{{.*}} = "nvvm.mapa"(%{{.*}}, %{{.*}}) : (!llvm.ptr, i32) -> !llvm.ptr
// CHECK-GENERIC: %{{.*}} = "nvvm.mapa"(%{{.*}}, %{{.*}}) : (!llvm.ptr<3>, i32) -> !llvm.ptr<7>
