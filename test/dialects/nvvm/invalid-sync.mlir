// RUN: not tileas-opt %s --split-input-file 2>&1 | filecheck %s
// Every verifier message of the sreg, sync, cluster and mbarrier ops.
// Each CHECK is the message upstream mlir-opt 22.1.8 gives for the chunk.

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  %0 = nvvm.read.ptx.sreg.tid.x range <i32, 5, 5> : i32
  llvm.return
}

// CHECK: error: 'nvvm.read.ptx.sreg.tid.x' op invalid range attribute: Lower == Upper, but they aren't min (0) or max (4294967295) value! This is an invalid constant range.

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  nvvm.barrier number_of_threads = %n
  llvm.return
}

// CHECK: error: 'nvvm.barrier' op barrier id is missing, it should be set between 0 to 15

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  "nvvm.barrier"(%n, %n) <{operandSegmentSizes = array<i32: 1, 0, 1>, reductionOp = #nvvm.reduction<and>}> : (i32, i32) -> ()
  llvm.return
}

// CHECK: error: 'nvvm.barrier' op reduction are only available when id is 0

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  "nvvm.barrier"(%n) <{operandSegmentSizes = array<i32: 0, 0, 1>}> : (i32) -> ()
  llvm.return
}

// CHECK: error: 'nvvm.barrier' op reduction predicate and reduction operation must be specified together

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<tensormap>}
  llvm.return
}

// CHECK: error: 'nvvm.fence.proxy' op tensormap proxy is not a supported proxy kind

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<generic>}
  llvm.return
}

// CHECK: error: 'nvvm.fence.proxy' op generic proxy not a supported proxy kind

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>}
  llvm.return
}

// CHECK: error: 'nvvm.fence.proxy' op async_shared fence requires space attribute

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>, space = #nvvm.shared_space<cta>}
  llvm.return
}

// CHECK: error: 'nvvm.fence.proxy' op only async_shared fence can have space attribute

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  nvvm.setmaxregister increase 100
  llvm.return
}

// CHECK: error: 'nvvm.setmaxregister' op new register size must be multiple of 8

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  nvvm.setmaxregister decrease 16
  llvm.return
}

// CHECK: error: 'nvvm.setmaxregister' op new register size must be in between 24 to 256

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  %0 = nvvm.mapa %s, %n : !llvm.ptr<3> -> !llvm.ptr
  llvm.return
}

// CHECK: error: 'nvvm.mapa' op failed to verify that Valid address-space check(or mapping) for mapa Op

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  %0 = nvvm.mapa %one, %n : !llvm.ptr<1> -> !llvm.ptr
  llvm.return
}

// CHECK: error: 'nvvm.mapa' op operand #0 must be LLVM pointer in address space 0 or LLVM pointer in address space 3, but got '!llvm.ptr<1>'

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  nvvm.mbarrier.init %one, %n : !llvm.ptr<1>, i32
  llvm.return
}

// CHECK: error: 'nvvm.mbarrier.init' op operand #0 must be LLVM pointer in address space 0 or LLVM pointer in address space 3, but got '!llvm.ptr<1>'

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  %0 = nvvm.mbarrier.arrive %c : !llvm.ptr<7> -> i64
  llvm.return
}

// CHECK: error: mbarrier in shared_cluster space cannot return any value

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  %0 = nvvm.mbarrier.arrive %s {scope = #nvvm.mem_scope<gpu>} : !llvm.ptr<3> -> i64
  llvm.return
}

// CHECK: error: mbarrier scope must be either CTA or Cluster

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  nvvm.mbarrier.arrive.expect_tx %s, %n, predicate = %p {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i32, i1
  llvm.return
}

// CHECK: error: mbarrier scope must be CTA when using predicate

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  nvvm.mbarrier.arrive.expect_tx %c, %n, predicate = %p : !llvm.ptr<7>, i32, i1
  llvm.return
}

// CHECK: error: mbarrier in shared_cluster space is not supported when using predicate

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  %0 = "nvvm.mbarrier.arrive.expect_tx"(%s, %n, %p) <{relaxed = false, scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr<3>, i32, i1) -> i64
  llvm.return
}

// CHECK: error: return-value is not supported when using predicate

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  nvvm.mbarrier.arrive.expect_tx %s, %n, predicate = %p {relaxed = true} : !llvm.ptr<3>, i32, i1
  llvm.return
}

// CHECK: error: mbarrier with relaxed semantics is not supported when using predicate

// -----

llvm.func @f(%n : i32, %p : i1, %g : !llvm.ptr, %s : !llvm.ptr<3>, %c : !llvm.ptr<7>, %st : i64, %one : !llvm.ptr<1>) {
  %0 = nvvm.mbarrier.test.wait %s, %st {scope = #nvvm.mem_scope<sys>} : !llvm.ptr<3>, i64 -> i1
  llvm.return
}

// CHECK: error: mbarrier scope must be either CTA or Cluster

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_80">} {
  llvm.func @f() {
    nvvm.cluster.wait
    llvm.return
  }
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: 'nvvm.cluster.wait' op is not supported on sm_80

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_80">} {
  llvm.func @f() {
    %0 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    llvm.return
  }
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: 'nvvm.read.ptx.sreg.cluster.ctarank' op is not supported on sm_80
