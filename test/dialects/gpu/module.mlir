// RUN: TILEAS_ROUNDTRIP
// RUN: tileas-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// upstream's gpu.module: a symbol, an optional target list, a body without terminator;
// the NVVM ops inside are checked against every listed target.
gpu.module @kernels [#nvvm.target<chip = "sm_90a">, #nvvm.target<chip = "sm_100a">] {
  llvm.func @k() {
    nvvm.barrier0
    llvm.return
  }
}

// CHECK:      gpu.module @kernels [#nvvm.target<chip = "sm_90a">, #nvvm.target<chip = "sm_100a">] {
// CHECK-NEXT:   llvm.func @k() {
// GENERIC:    "gpu.module"() <{sym_name = "kernels", targets = [#nvvm.target<chip = "sm_90a">, #nvvm.target<chip = "sm_100a">]}> ({

// -----

gpu.module @plain {
}

// CHECK:  gpu.module @plain {
// GENERIC: "gpu.module"() <{sym_name = "plain"}> ({
