// Upstream test: llvm/llvm-project mlir/test/Target/LLVMIR/nvvm/mbar_arrive.mlir @ 37cc738331c6bfa185e82528ddf69f9013d19816

llvm.func @mbarrier_arrive_generic(%barrier: !llvm.ptr, %count : i32) {
  %0 = nvvm.mbarrier.arrive %barrier : !llvm.ptr  -> i64
  %1 = nvvm.mbarrier.arrive %barrier, %count : !llvm.ptr  -> i64
  %2 = nvvm.mbarrier.arrive %barrier, %count {scope = #nvvm.mem_scope<cta>} : !llvm.ptr  -> i64
  %3 = nvvm.mbarrier.arrive %barrier, %count {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr  -> i64

  %4 = nvvm.mbarrier.arrive %barrier {relaxed = true} : !llvm.ptr  -> i64
  %5 = nvvm.mbarrier.arrive %barrier, %count {relaxed = true} : !llvm.ptr  -> i64
  %6 = nvvm.mbarrier.arrive %barrier, %count {scope = #nvvm.mem_scope<cta>, relaxed = true} : !llvm.ptr  -> i64
  %7 = nvvm.mbarrier.arrive %barrier, %count {scope = #nvvm.mem_scope<cluster>, relaxed = true} : !llvm.ptr  -> i64
  llvm.return
}

llvm.func @mbarrier_arrive_shared(%barrier: !llvm.ptr<3>, %count : i32) {
  %0 = nvvm.mbarrier.arrive %barrier : !llvm.ptr<3>  -> i64
  %1 = nvvm.mbarrier.arrive %barrier, %count : !llvm.ptr<3>  -> i64
  %2 = nvvm.mbarrier.arrive %barrier, %count {scope = #nvvm.mem_scope<cta>} : !llvm.ptr<3>  -> i64
  %3 = nvvm.mbarrier.arrive %barrier, %count {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>  -> i64

  %4 = nvvm.mbarrier.arrive %barrier {relaxed = true} : !llvm.ptr<3>  -> i64
  %5 = nvvm.mbarrier.arrive %barrier, %count {relaxed = true} : !llvm.ptr<3>  -> i64
  %6 = nvvm.mbarrier.arrive %barrier, %count {scope = #nvvm.mem_scope<cta>, relaxed = true} : !llvm.ptr<3>  -> i64
  %7 = nvvm.mbarrier.arrive %barrier, %count {scope = #nvvm.mem_scope<cluster>, relaxed = true} : !llvm.ptr<3>  -> i64
  llvm.return
}

llvm.func @mbarrier_arrive_shared_cluster(%barrier: !llvm.ptr<7>, %count : i32) {
  nvvm.mbarrier.arrive %barrier : !llvm.ptr<7>
  nvvm.mbarrier.arrive %barrier, %count : !llvm.ptr<7>
  nvvm.mbarrier.arrive %barrier, %count {scope = #nvvm.mem_scope<cta>} : !llvm.ptr<7>
  nvvm.mbarrier.arrive %barrier, %count {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>

  nvvm.mbarrier.arrive %barrier {relaxed = true} : !llvm.ptr<7>
  nvvm.mbarrier.arrive %barrier, %count {relaxed = true} : !llvm.ptr<7>
  nvvm.mbarrier.arrive %barrier, %count {scope = #nvvm.mem_scope<cta>, relaxed = true} : !llvm.ptr<7>
  nvvm.mbarrier.arrive %barrier, %count {scope = #nvvm.mem_scope<cluster>, relaxed = true} : !llvm.ptr<7>
  llvm.return
}

llvm.func @mbarrier_arrive_nocomplete(%barrier: !llvm.ptr) {
  %count = nvvm.read.ptx.sreg.ntid.x : i32
  %0 = nvvm.mbarrier.arrive.nocomplete %barrier, %count : !llvm.ptr, i32 -> i64
  llvm.return
}

llvm.func @mbarrier_arrive_nocomplete_shared(%barrier: !llvm.ptr<3>) {
  %count = nvvm.read.ptx.sreg.ntid.x : i32
  %0 = nvvm.mbarrier.arrive.nocomplete %barrier, %count : !llvm.ptr<3>, i32  -> i64
  llvm.return
}

llvm.func @mbarrier_arrive_ignore_retval(%count : i32, %barrier: !llvm.ptr<3>) {
  // Result silently discarded (backward compatible form)
  nvvm.mbarrier.arrive %barrier, %count : !llvm.ptr<3>
  // Result explicitly captured
  %0 = nvvm.mbarrier.arrive %barrier, %count : !llvm.ptr<3> -> i64

  llvm.return
}
