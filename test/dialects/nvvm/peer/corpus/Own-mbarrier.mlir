// tileas-py case file: every mbarrier op, and each of their verifier messages

llvm.func @mbarrier_ops(%gen: !llvm.ptr, %cta: !llvm.ptr<3>, %cluster: !llvm.ptr<7>, %count: i32, %state: i64, %pred: i1) {
  nvvm.mbarrier.init %cta, %count : !llvm.ptr<3>, i32
  nvvm.mbarrier.init %gen, %count, predicate = %pred : !llvm.ptr, i32, i1
  nvvm.mbarrier.inval %cta : !llvm.ptr<3>
  %0 = nvvm.mbarrier.arrive %cta : !llvm.ptr<3> -> i64
  %1 = nvvm.mbarrier.arrive %gen, %count {relaxed = true, scope = #nvvm.mem_scope<cluster>} : !llvm.ptr -> i64
  nvvm.mbarrier.arrive %cluster, %count : !llvm.ptr<7>
  %2 = nvvm.mbarrier.arrive_drop %cta, %count : !llvm.ptr<3> -> i64
  nvvm.mbarrier.arrive_drop %cluster {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
  %3 = nvvm.mbarrier.arrive.nocomplete %cta, %count : !llvm.ptr<3>, i32 -> i64
  %4 = nvvm.mbarrier.arrive_drop.nocomplete %gen, %count : !llvm.ptr, i32 -> i64
  nvvm.mbarrier.arrive.expect_tx %cta, %count : !llvm.ptr<3>, i32
  %5 = nvvm.mbarrier.arrive.expect_tx %cta, %count {relaxed = true} : !llvm.ptr<3>, i32 -> i64
  nvvm.mbarrier.arrive.expect_tx %cta, %count, predicate = %pred : !llvm.ptr<3>, i32, i1
  nvvm.mbarrier.arrive.expect_tx %cluster, %count {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>, i32
  %6 = nvvm.mbarrier.arrive_drop.expect_tx %cta, %count : !llvm.ptr<3>, i32 -> i64
  nvvm.mbarrier.arrive_drop.expect_tx %cluster, %count {relaxed = true} : !llvm.ptr<7>, i32
  nvvm.mbarrier.expect_tx %cta, %count : !llvm.ptr<3>, i32
  nvvm.mbarrier.expect_tx %cluster, %count {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>, i32
  nvvm.mbarrier.complete_tx %cta, %count : !llvm.ptr<3>, i32
  nvvm.mbarrier.complete_tx %cluster, %count {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>, i32
  nvvm.mbarrier.try_wait.parity %cta, %count, %count : !llvm.ptr<3>, i32, i32
  %7 = nvvm.mbarrier.try_wait %cta, %state : !llvm.ptr<3>, i64 -> i1
  %8 = nvvm.mbarrier.try_wait %gen, %count, %count {relaxed = true, scope = #nvvm.mem_scope<cluster>} : !llvm.ptr, i32, i32 -> i1
  %9 = nvvm.mbarrier.test.wait %cta, %state : !llvm.ptr<3>, i64 -> i1
  %10 = nvvm.mbarrier.test.wait %gen, %count {relaxed = true} : !llvm.ptr, i32 -> i1
  llvm.return
}

// -----

llvm.func @generic_form(%cta: !llvm.ptr<3>, %count: i32) {
  %0 = "nvvm.mbarrier.arrive"(%cta, %count) <{relaxed = false, scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr<3>, i32) -> i64
  "nvvm.mbarrier.expect_tx"(%cta, %count) : (!llvm.ptr<3>, i32) -> ()
  llvm.return
}

// -----

llvm.func @arrive_bad_scope(%cta: !llvm.ptr<3>) {
  // expected-error @below {{mbarrier scope must be either CTA or Cluster}}
  %0 = nvvm.mbarrier.arrive %cta {scope = #nvvm.mem_scope<gpu>} : !llvm.ptr<3> -> i64
  llvm.return
}

// -----

llvm.func @arrive_drop_cluster_result(%cluster: !llvm.ptr<7>) {
  // expected-error @below {{mbarrier in shared_cluster space cannot return any value}}
  %0 = nvvm.mbarrier.arrive_drop %cluster : !llvm.ptr<7> -> i64
  llvm.return
}

// -----

llvm.func @arrive_global(%p: !llvm.ptr<1>) {
  %0 = "nvvm.mbarrier.arrive"(%p) : (!llvm.ptr<1>) -> i64
  llvm.return
}

// -----

llvm.func @arrive_two_counts(%cta: !llvm.ptr<3>, %count: i32) {
  %0 = "nvvm.mbarrier.arrive"(%cta, %count, %count) : (!llvm.ptr<3>, i32, i32) -> i64
  llvm.return
}

// -----

llvm.func @arrive_i32_state(%cta: !llvm.ptr<3>) {
  %0 = "nvvm.mbarrier.arrive"(%cta) : (!llvm.ptr<3>) -> i32
  llvm.return
}

// -----

llvm.func @arrive_relaxed_not_bool(%cta: !llvm.ptr<3>) {
  // expected-error @below {{Invalid attribute `relaxed` in property conversion: 1 : i32}}
  "nvvm.mbarrier.arrive"(%cta) <{relaxed = 1 : i32}> : (!llvm.ptr<3>) -> ()
  llvm.return
}

// -----

llvm.func @expect_tx_predicate_cluster_scope(%cta: !llvm.ptr<3>, %count: i32, %pred: i1) {
  // expected-error @below {{mbarrier scope must be CTA when using predicate}}
  nvvm.mbarrier.arrive.expect_tx %cta, %count, predicate = %pred {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i32, i1
  llvm.return
}

// -----

llvm.func @expect_tx_predicate_cluster_space(%cluster: !llvm.ptr<7>, %count: i32, %pred: i1) {
  // expected-error @below {{mbarrier in shared_cluster space is not supported when using predicate}}
  nvvm.mbarrier.arrive.expect_tx %cluster, %count, predicate = %pred : !llvm.ptr<7>, i32, i1
  llvm.return
}

// -----

llvm.func @expect_tx_predicate_result(%cta: !llvm.ptr<3>, %count: i32, %pred: i1) {
  // expected-error @below {{return-value is not supported when using predicate}}
  %0 = nvvm.mbarrier.arrive.expect_tx %cta, %count, predicate = %pred : !llvm.ptr<3>, i32, i1 -> i64
  llvm.return
}

// -----

llvm.func @expect_tx_predicate_relaxed(%cta: !llvm.ptr<3>, %count: i32, %pred: i1) {
  // expected-error @below {{mbarrier with relaxed semantics is not supported when using predicate}}
  nvvm.mbarrier.arrive.expect_tx %cta, %count, predicate = %pred {relaxed = true} : !llvm.ptr<3>, i32, i1
  llvm.return
}

// -----

llvm.func @nocomplete_cluster(%cluster: !llvm.ptr<7>, %count: i32) {
  %0 = "nvvm.mbarrier.arrive.nocomplete"(%cluster, %count) : (!llvm.ptr<7>, i32) -> i64
  llvm.return
}

// -----

llvm.func @nocomplete_no_result(%cta: !llvm.ptr<3>, %count: i32) {
  "nvvm.mbarrier.arrive_drop.nocomplete"(%cta, %count) : (!llvm.ptr<3>, i32) -> ()
  llvm.return
}

// -----

llvm.func @nocomplete_properties(%cta: !llvm.ptr<3>, %count: i32) {
  // expected-error @below {{this operation does not support properties}}
  %0 = "nvvm.mbarrier.arrive.nocomplete"(%cta, %count) <{relaxed = true}> : (!llvm.ptr<3>, i32) -> i64
  llvm.return
}

// -----

llvm.func @complete_tx_generic(%gen: !llvm.ptr, %count: i32) {
  "nvvm.mbarrier.complete_tx"(%gen, %count) : (!llvm.ptr, i32) -> ()
  llvm.return
}

// -----

llvm.func @complete_tx_scope(%cta: !llvm.ptr<3>, %count: i32) {
  // expected-error @below {{mbarrier scope must be either CTA or Cluster}}
  nvvm.mbarrier.complete_tx %cta, %count {scope = #nvvm.mem_scope<sys>} : !llvm.ptr<3>, i32
  llvm.return
}

// -----

llvm.func @expect_tx_result(%cta: !llvm.ptr<3>, %count: i32) {
  %0 = "nvvm.mbarrier.expect_tx"(%cta, %count) : (!llvm.ptr<3>, i32) -> i64
  llvm.return
}

// -----

llvm.func @try_wait_i16(%cta: !llvm.ptr<3>, %x: i16) {
  %0 = "nvvm.mbarrier.try_wait"(%cta, %x) : (!llvm.ptr<3>, i16) -> i1
  llvm.return
}

// -----

llvm.func @try_wait_scope(%cta: !llvm.ptr<3>, %x: i64) {
  // expected-error @below {{mbarrier scope must be either CTA or Cluster}}
  %0 = nvvm.mbarrier.try_wait %cta, %x {scope = #nvvm.mem_scope<gpu>} : !llvm.ptr<3>, i64 -> i1
  llvm.return
}

// -----

llvm.func @try_wait_i64_ticks(%cta: !llvm.ptr<3>, %x: i64) {
  %0 = "nvvm.mbarrier.try_wait"(%cta, %x, %x) : (!llvm.ptr<3>, i64, i64) -> i1
  llvm.return
}

// -----

llvm.func @test_wait_cluster(%cluster: !llvm.ptr<7>, %x: i64) {
  %0 = "nvvm.mbarrier.test.wait"(%cluster, %x) : (!llvm.ptr<7>, i64) -> i1
  llvm.return
}

// -----

llvm.func @test_wait_no_result(%cta: !llvm.ptr<3>, %x: i64) {
  "nvvm.mbarrier.test.wait"(%cta, %x) : (!llvm.ptr<3>, i64) -> ()
  llvm.return
}

// -----

llvm.func @try_wait_parity_cluster(%cluster: !llvm.ptr<7>, %x: i32) {
  "nvvm.mbarrier.try_wait.parity"(%cluster, %x, %x) : (!llvm.ptr<7>, i32, i32) -> ()
  llvm.return
}

// -----

llvm.func @try_wait_parity_properties(%cta: !llvm.ptr<3>, %x: i32) {
  // expected-error @below {{this operation does not support properties}}
  "nvvm.mbarrier.try_wait.parity"(%cta, %x, %x) <{scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr<3>, i32, i32) -> ()
  llvm.return
}

// -----

llvm.func @init_cluster(%cluster: !llvm.ptr<7>, %x: i32) {
  "nvvm.mbarrier.init"(%cluster, %x) : (!llvm.ptr<7>, i32) -> ()
  llvm.return
}

// -----

llvm.func @init_predicate_i32(%cta: !llvm.ptr<3>, %x: i32) {
  "nvvm.mbarrier.init"(%cta, %x, %x) : (!llvm.ptr<3>, i32, i32) -> ()
  llvm.return
}

// -----

llvm.func @inval_operands(%cta: !llvm.ptr<3>, %x: i32) {
  "nvvm.mbarrier.inval"(%cta, %x) : (!llvm.ptr<3>, i32) -> ()
  llvm.return
}
