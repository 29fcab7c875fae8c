// RUN: not tileas-opt %s 2>&1 | filecheck %s
// The targets of the enclosing gpu.module gate NVVM ops by SM, as upstream's do.

gpu.module @old [#nvvm.target<chip = "sm_80">] {
  llvm.func @k() {
    nvvm.wgmma.fence.aligned
    llvm.return
  }
}

// CHECK: invalid-target.mlir:6:5: error: 'nvvm.wgmma.fence.aligned' op is not supported on sm_80
