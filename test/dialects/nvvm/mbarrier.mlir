// RUN: TILEAS_ROUNDTRIP
// RUN: TILEAS_GENERIC_ROUNDTRIP
// The CHECK lines are what upstream mlir-opt 22.1.8 prints for this input, custom and
// generic, with SSA names elided: both tools must agree op for op.

// mbarrier ops on generic, shared::cta and shared::cluster pointers.

llvm.func @mbarrier(%g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %count : i32, %tx : i32, %phase : i32, %ticks : i32, %state : i64, %p : i1) {
  nvvm.mbarrier.init %g, %count : !llvm.ptr, i32
  nvvm.mbarrier.init %s, %count : !llvm.ptr<3>, i32
  nvvm.mbarrier.init %s, %count, predicate = %p : !llvm.ptr<3>, i32, i1
  %0 = nvvm.mbarrier.arrive %g : !llvm.ptr -> i64
  %1 = nvvm.mbarrier.arrive %s : !llvm.ptr<3> -> i64
  nvvm.mbarrier.arrive %s : !llvm.ptr<3>
  %2 = nvvm.mbarrier.arrive %s {scope = #nvvm.mem_scope<cluster>, relaxed = true} : !llvm.ptr<3> -> i64
  nvvm.mbarrier.arrive %c {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
  nvvm.mbarrier.arrive.expect_tx %g, %tx : !llvm.ptr, i32
  nvvm.mbarrier.arrive.expect_tx %s, %tx : !llvm.ptr<3>, i32
  nvvm.mbarrier.arrive.expect_tx %s, %tx, predicate = %p : !llvm.ptr<3>, i32, i1
  %3 = nvvm.mbarrier.arrive.expect_tx %s, %tx {relaxed = true} : !llvm.ptr<3>, i32 -> i64
  nvvm.mbarrier.try_wait.parity %g, %phase, %ticks : !llvm.ptr, i32, i32
  nvvm.mbarrier.try_wait.parity %s, %phase, %ticks : !llvm.ptr<3>, i32, i32
  %4 = nvvm.mbarrier.test.wait %g, %state : !llvm.ptr, i64 -> i1
  %5 = nvvm.mbarrier.test.wait %s, %state {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i64 -> i1
  nvvm.mbarrier.inval %g : !llvm.ptr
  nvvm.mbarrier.inval %s : !llvm.ptr<3>
  llvm.return
}

// CHECK: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr, i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %{{.*}}, predicate = %{{.*}} : !llvm.ptr<3>, i32, i1
// CHECK: %{{.*}} = nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr -> i64
// CHECK: %{{.*}} = nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3> -> i64
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK: %{{.*}} = nvvm.mbarrier.arrive %{{.*}} {relaxed = true, scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3> -> i64
// CHECK: nvvm.mbarrier.arrive %{{.*}} {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr, i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}}, predicate = %{{.*}} : !llvm.ptr<3>, i32, i1
// CHECK: %{{.*}} = nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} {relaxed = true} : !llvm.ptr<3>, i32 -> i64
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %{{.*}}, %{{.*}} : !llvm.ptr, i32, i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32, i32
// CHECK: %{{.*}} = nvvm.mbarrier.test.wait %{{.*}}, %{{.*}} : !llvm.ptr, i64 -> i1
// CHECK: %{{.*}} = nvvm.mbarrier.test.wait %{{.*}}, %{{.*}} {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i64 -> i1
// CHECK: nvvm.mbarrier.inval %{{.*}} : !llvm.ptr
// CHECK: nvvm.mbarrier.inval %{{.*}} : !llvm.ptr<3>
// CHECK-GENERIC: "nvvm.mbarrier.init"(%{{.*}}, %{{.*}}) : (!llvm.ptr, i32) -> ()
// CHECK-GENERIC: "nvvm.mbarrier.init"(%{{.*}}, %{{.*}}) : (!llvm.ptr<3>, i32) -> ()
// CHECK-GENERIC: "nvvm.mbarrier.init"(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr<3>, i32, i1) -> ()
// CHECK-GENERIC: %{{.*}} = "nvvm.mbarrier.arrive"(%{{.*}}) <{relaxed = false, scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr) -> i64
// CHECK-GENERIC: %{{.*}} = "nvvm.mbarrier.arrive"(%{{.*}}) <{relaxed = false, scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr<3>) -> i64
// CHECK-GENERIC: "nvvm.mbarrier.arrive"(%{{.*}}) <{relaxed = false, scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr<3>) -> ()
// CHECK-GENERIC: %{{.*}} = "nvvm.mbarrier.arrive"(%{{.*}}) <{relaxed = true, scope = #nvvm.mem_scope<cluster>}> : (!llvm.ptr<3>) -> i64
// CHECK-GENERIC: "nvvm.mbarrier.arrive"(%{{.*}}) <{relaxed = false, scope = #nvvm.mem_scope<cluster>}> : (!llvm.ptr<7>) -> ()
// CHECK-GENERIC: "nvvm.mbarrier.arrive.expect_tx"(%{{.*}}, %{{.*}}) <{relaxed = false, scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr, i32) -> ()
// CHECK-GENERIC: "nvvm.mbarrier.arrive.expect_tx"(%{{.*}}, %{{.*}}) <{relaxed = false, scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr<3>, i32) -> ()
// CHECK-GENERIC: "nvvm.mbarrier.arrive.expect_tx"(%{{.*}}, %{{.*}}, %{{.*}}) <{relaxed = false, scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr<3>, i32, i1) -> ()
// CHECK-GENERIC: %{{.*}} = "nvvm.mbarrier.arrive.expect_tx"(%{{.*}}, %{{.*}}) <{relaxed = true, scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr<3>, i32) -> i64
// CHECK-GENERIC: "nvvm.mbarrier.try_wait.parity"(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i32, i32) -> ()
// CHECK-GENERIC: "nvvm.mbarrier.try_wait.parity"(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr<3>, i32, i32) -> ()
// CHECK-GENERIC: %{{.*}} = "nvvm.mbarrier.test.wait"(%{{.*}}, %{{.*}}) <{relaxed = false, scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr, i64) -> i1
// CHECK-GENERIC: %{{.*}} = "nvvm.mbarrier.test.wait"(%{{.*}}, %{{.*}}) <{relaxed = false, scope = #nvvm.mem_scope<cluster>}> : (!llvm.ptr<3>, i64) -> i1
// CHECK-GENERIC: "nvvm.mbarrier.inval"(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK-GENERIC: "nvvm.mbarrier.inval"(%{{.*}}) : (!llvm.ptr<3>) -> ()
