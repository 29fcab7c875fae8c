// RUN: TILEAS_ROUNDTRIP
// #nvvm.target (defaults omitted when printing) and the kernel attributes.
// The CHECK lines are what upstream mlir-opt 22.1.8 prints for this input.

builtin.module attributes {nvvm.target = #nvvm.target<O = 2, triple = "nvptx64-nvidia-cuda", chip = "sm_90a", features = "+ptx80", flags = {fast}, link = ["lib.bc"], verifyTarget = true>} {
  llvm.func @kernel(%arg0: !llvm.ptr {llvm.byval = i32, nvvm.grid_constant}, %arg1: i32) attributes {nvvm.blocksareclusters, nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.kernel, nvvm.maxnreg = 168 : i32, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 128, 1, 1>} {
    llvm.return
  }
}

// CHECK: builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx80", flags = {fast}, link = ["lib.bc"]>} {
// CHECK: llvm.func @kernel(%{{.*}}: !llvm.ptr {llvm.byval = i32, nvvm.grid_constant}, %{{.*}}: i32) attributes {nvvm.blocksareclusters, nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.kernel, nvvm.maxnreg = 168 : i32, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 128, 1, 1>} {

// -----


builtin.module attributes {nvvm.target = [#nvvm.target, #nvvm.target<O = 3, chip = "sm_100a", verifyTarget = false>]} {
}

// CHECK: builtin.module attributes {nvvm.target = [#nvvm.target, #nvvm.target<O = 3, chip = "sm_100a", verifyTarget = false>]} {
