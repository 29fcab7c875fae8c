// tileas-py case file: barriers, fences, elect.sync, setmaxregister and the cluster ops

llvm.func @sync_ops(%gen: !llvm.ptr, %id: i32, %n: i32, %pred: i32, %p3: !llvm.ptr<3>) {
  nvvm.barrier0
  nvvm.barrier
  nvvm.barrier id = %id
  nvvm.barrier id = %id number_of_threads = %n
  %0 = nvvm.barrier #nvvm.reduction<popc> %pred -> i32
  %1 = nvvm.barrier #nvvm.reduction<and> %pred -> i32
  %2 = nvvm.barrier #nvvm.reduction<or> %pred -> i32
  nvvm.barrier.arrive number_of_threads = %n
  nvvm.barrier.arrive id = %id number_of_threads = %n
  nvvm.fence.sc.cluster
  nvvm.fence.mbarrier.init
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.global>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}
  nvvm.fence.proxy.acquire <cta> %gen, %n
  nvvm.fence.proxy.acquire <sys> %gen, %n from_proxy = <generic> to_proxy = <tensormap>
  nvvm.fence.proxy.release <gpu>
  nvvm.fence.proxy.release <cluster> from_proxy = <generic> to_proxy = <tensormap>
  nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<release>}
  nvvm.fence.proxy.sync_restrict {fromProxy = #nvvm.proxy_kind<generic>, order = #nvvm.mem_order<acquire>, toProxy = #nvvm.proxy_kind<async>}
  nvvm.fence.sync_restrict {order = #nvvm.mem_order<release>}
  %3 = nvvm.elect.sync -> i1
  %4 = nvvm.elect.sync %n -> i1
  nvvm.setmaxregister increase 232
  nvvm.setmaxregister decrease 40
  nvvm.cluster.arrive
  nvvm.cluster.arrive {aligned}
  nvvm.cluster.arrive.relaxed
  nvvm.cluster.arrive.relaxed {aligned}
  nvvm.cluster.wait
  nvvm.cluster.wait {aligned}
  %5 = nvvm.mapa %gen, %n : !llvm.ptr -> !llvm.ptr
  %6 = nvvm.mapa %p3, %n : !llvm.ptr<3> -> !llvm.ptr<7>
  llvm.return
}

// -----

llvm.func @barrier_threads_without_id(%n: i32) {
  // expected-error @below {{barrier id is missing, it should be set between 0 to 15}}
  nvvm.barrier number_of_threads = %n
  llvm.return
}

// -----

llvm.func @barrier_reduction_with_id(%id: i32, %pred: i32) {
  %0 = "nvvm.barrier"(%id, %pred) <{operandSegmentSizes = array<i32: 1, 0, 1>, reductionOp = #nvvm.reduction<and>}> : (i32, i32) -> i32
  llvm.return
}

// -----

llvm.func @barrier_reduction_without_predicate() {
  %0 = "nvvm.barrier"() <{operandSegmentSizes = array<i32: 0, 0, 0>, reductionOp = #nvvm.reduction<and>}> : () -> i32
  llvm.return
}

// -----

llvm.func @barrier_segments(%id: i32) {
  "nvvm.barrier"(%id) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i32) -> ()
  llvm.return
}

// -----

llvm.func @barrier_i64(%id: i64) {
  "nvvm.barrier"(%id) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i64) -> ()
  llvm.return
}

// -----

llvm.func @barrier_reduction_kind(%pred: i32) {
  // expected-error @below {{Invalid attribute `reductionOp` in property conversion}}
  %0 = "nvvm.barrier"(%pred) <{operandSegmentSizes = array<i32: 0, 0, 1>, reductionOp = #nvvm.mem_scope<cta>}> : (i32) -> i32
  llvm.return
}

// -----

llvm.func @fence_proxy_tensormap() {
  // expected-error @below {{tensormap proxy is not a supported proxy kind}}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<tensormap>}
  llvm.return
}

// -----

llvm.func @fence_proxy_generic() {
  // expected-error @below {{generic proxy not a supported proxy kind}}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<generic>}
  llvm.return
}

// -----

llvm.func @fence_proxy_async_shared_without_space() {
  // expected-error @below {{async_shared fence requires space attribute}}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>}
  llvm.return
}

// -----

llvm.func @fence_proxy_space() {
  // expected-error @below {{only async_shared fence can have space attribute}}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async>, space = #nvvm.shared_space<cta>}
  llvm.return
}

// -----

llvm.func @fence_proxy_without_kind() {
  "nvvm.fence.proxy"() : () -> ()
  llvm.return
}

// -----

llvm.func @fence_proxy_acquire_from(%gen: !llvm.ptr, %n: i32) {
  // expected-error @below {{uni-directional proxies only support generic for from_proxy attribute}}
  nvvm.fence.proxy.acquire <cta> %gen, %n from_proxy = <async>
  llvm.return
}

// -----

llvm.func @fence_proxy_release_to() {
  // expected-error @below {{uni-directional proxies only support tensormap for to_proxy attribute}}
  nvvm.fence.proxy.release <cta> to_proxy = <async>
  llvm.return
}

// -----

llvm.func @fence_proxy_acquire_global(%p: !llvm.ptr<1>, %n: i32) {
  "nvvm.fence.proxy.acquire"(%p, %n) <{scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr<1>, i32) -> ()
  llvm.return
}

// -----

llvm.func @fence_proxy_release_without_scope() {
  "nvvm.fence.proxy.release"() : () -> ()
  llvm.return
}

// -----

llvm.func @fence_proxy_sync_restrict_order() {
  // expected-error @below {{only acquire and release semantics are supported}}
  nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<relaxed>}
  llvm.return
}

// -----

llvm.func @fence_proxy_sync_restrict_to() {
  // expected-error @below {{only async is supported for to_proxy attribute}}
  nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<acquire>, toProxy = #nvvm.proxy_kind<generic>}
  llvm.return
}

// -----

llvm.func @fence_proxy_sync_restrict_from() {
  // expected-error @below {{only generic is support for from_proxy attribute}}
  nvvm.fence.proxy.sync_restrict {order = #nvvm.mem_order<acquire>, fromProxy = #nvvm.proxy_kind<async>}
  llvm.return
}

// -----

llvm.func @fence_sync_restrict_order() {
  // expected-error @below {{only acquire and release semantics are supported}}
  nvvm.fence.sync_restrict {order = #nvvm.mem_order<acq_rel>}
  llvm.return
}

// -----

llvm.func @elect_sync_i64(%m: i64) {
  %0 = "nvvm.elect.sync"(%m) : (i64) -> i1
  llvm.return
}

// -----

llvm.func @elect_sync_i32_result() {
  %0 = "nvvm.elect.sync"() : () -> i32
  llvm.return
}

// -----

llvm.func @setmaxregister_multiple() {
  // expected-error @below {{new register size must be multiple of 8}}
  nvvm.setmaxregister increase 100
  llvm.return
}

// -----

llvm.func @setmaxregister_range() {
  // expected-error @below {{new register size must be in between 24 to 256}}
  nvvm.setmaxregister decrease 16
  llvm.return
}

// -----

llvm.func @setmaxregister_i64() {
  "nvvm.setmaxregister"() <{action = #nvvm<action increase>, regCount = 64 : i64}> : () -> ()
  llvm.return
}

// -----

llvm.func @barrier_arrive_without_threads(%id: i32) {
  "nvvm.barrier.arrive"() : () -> ()
  llvm.return
}

// -----

llvm.func @cluster_arrive_aligned_not_unit() {
  // expected-error @below {{Invalid attribute `aligned` in property conversion: 1 : i32}}
  "nvvm.cluster.arrive"() <{aligned = 1 : i32}> : () -> ()
  llvm.return
}

// -----

llvm.func @mapa_mismatch(%p: !llvm.ptr<3>, %n: i32) {
  %0 = "nvvm.mapa"(%p, %n) : (!llvm.ptr<3>, i32) -> !llvm.ptr
  llvm.return
}

// -----

llvm.func @mapa_i64(%p: !llvm.ptr, %n: i64) {
  %0 = "nvvm.mapa"(%p, %n) : (!llvm.ptr, i64) -> !llvm.ptr
  llvm.return
}
