// Upstream test: llvm/llvm-project mlir/test/Target/LLVMIR/nvvm/mbar_complete_tx.mlir @ 056ad8294663b72cf0eaff19f1a9f54e6edbc8e4

llvm.func @mbarrier_complete_tx_shared(%barrier: !llvm.ptr<3>, %tx_count : i32) {
  nvvm.mbarrier.complete_tx %barrier, %tx_count : !llvm.ptr<3>, i32
  nvvm.mbarrier.complete_tx %barrier, %tx_count {scope = #nvvm.mem_scope<cta>} : !llvm.ptr<3>, i32
  nvvm.mbarrier.complete_tx %barrier, %tx_count {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i32

  llvm.return
}

llvm.func @mbarrier_complete_tx_shared_cluster(%barrier: !llvm.ptr<7>, %tx_count : i32) {
  nvvm.mbarrier.complete_tx %barrier, %tx_count : !llvm.ptr<7>, i32
  nvvm.mbarrier.complete_tx %barrier, %tx_count {scope = #nvvm.mem_scope<cta>} : !llvm.ptr<7>, i32
  nvvm.mbarrier.complete_tx %barrier, %tx_count {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>, i32

  llvm.return
}
