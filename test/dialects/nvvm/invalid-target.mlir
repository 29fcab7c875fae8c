// RUN: not tileas-opt %s --split-input-file 2>&1 | filecheck %s
// The kernel attributes and #nvvm.target: every verifier message.
// Each CHECK is the message upstream mlir-opt 22.1.8 gives for the chunk.

llvm.func @k() attributes {nvvm.maxntid = array<i32: 1, 2, 3, 4>} {
  llvm.return
}

// CHECK: error: '"nvvm.maxntid"' attribute must be integer array with maximum 3 index

// -----

llvm.func @k() attributes {nvvm.reqntid = 3 : i32} {
  llvm.return
}

// CHECK: error: '"nvvm.reqntid"' attribute must be integer array with maximum 3 index

// -----

llvm.func @k() attributes {nvvm.cluster_dim = array<i64: 1>} {
  llvm.return
}

// CHECK: error: '"nvvm.cluster_dim"' attribute must be integer array with maximum 3 index

// -----

llvm.func @k() attributes {nvvm.minctasm = "x"} {
  llvm.return
}

// CHECK: error: '"nvvm.minctasm"' attribute must be integer constant

// -----

llvm.func @k() attributes {nvvm.maxnreg = array<i32: 1>} {
  llvm.return
}

// CHECK: error: '"nvvm.maxnreg"' attribute must be integer constant

// -----

llvm.func @k() attributes {nvvm.blocksareclusters, nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
  llvm.return
}

// CHECK: error: '"nvvm.blocksareclusters"' attribute must be used along with 'nvvm.reqntid' and 'nvvm.cluster_dim'

// -----

func.func @k() attributes {nvvm.kernel} {
  func.return
}

// CHECK: error: 'nvvm.kernel' attribute attached to unexpected op

// -----

llvm.func @k(%arg0: !llvm.ptr {llvm.byval = i32, nvvm.grid_constant = 1 : i32}) attributes {nvvm.kernel} {
  llvm.return
}

// CHECK: error: '"nvvm.grid_constant"' must be a unit attribute

// -----

llvm.func @k(%arg0: !llvm.ptr {llvm.byval = i32, nvvm.grid_constant}) attributes {nvvm.maxnreg = 32 : i32} {
  llvm.return
}

// CHECK: error: '"nvvm.grid_constant"' attribute must be present only on kernel arguments

// -----

llvm.func @k(%arg0: !llvm.ptr {nvvm.grid_constant}) attributes {nvvm.kernel} {
  llvm.return
}

// CHECK: error: '"nvvm.grid_constant"' attribute requires the argument to also have attribute 'llvm.byval'

// -----

builtin.module attributes {nvvm.target = #nvvm.target<O = 4>} {
}

// CHECK: error: The optimization level must be a number between 0 and 3.

// -----

builtin.module attributes {nvvm.target = #nvvm.target<triple = "">} {
}

// CHECK: error: The target triple cannot be empty.

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "">} {
}

// CHECK: error: The target chip cannot be empty.

// -----

builtin.module attributes {nvvm.target = #nvvm.target<link = [1]>} {
}

// CHECK: error: All the elements in the `link` array must be strings.

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_10">} {
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: Minimum NVVM target SM version is sm_20

// -----

builtin.module attributes {nvvm.target = "sm_90a"} {
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: '"nvvm.target"' attribute must be an #nvvm.target or a non-empty array of them
