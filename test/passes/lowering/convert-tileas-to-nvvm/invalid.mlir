// Every diagnostic of convert-tileas-to-nvvm's kernel patterns and driver, at the op it is about.
// RUN: not tileas-opt %s --split-input-file -p convert-tileas-to-nvvm -o /dev/null 2>&1 | filecheck %s

// An op that no pattern module lowers.
nv_tileas.kernel @k(%view: !nv_tileas.tiled_view<64x64xf16>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %x, %y, %z = nv_tileas.cancel_next_program_id
  nv_tileas.return
}
// CHECK: invalid.mlir:6:3: error: 'nv_tileas.cancel_next_program_id' is not supported by convert-tileas-to-nvvm

// -----

// A parameter type with no LLVM form.
nv_tileas.kernel @k(%t: tensor<64x64xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  nv_tileas.return
}
// CHECK: invalid.mlir:14:1: error: parameter of type 'tensor<64x64xf32>' is not supported by convert-tileas-to-nvvm

// -----

// A result type with no LLVM form.
func.func @f(%x: i32) -> tensor<4xf32> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %t = arith.constant dense<0.0> : tensor<4xf32>
  func.return %t : tensor<4xf32>
}
// CHECK: invalid.mlir:22:1: error: result of type 'tensor<4xf32>' is not supported by convert-tileas-to-nvvm

// -----

// A value that reaches an LLVM op with a type it cannot be converted from.
func.func @g(%p: !llvm.ptr<1>) -> !nv_tileas.mbarrier {
  %v = builtin.unrealized_conversion_cast %p : !llvm.ptr<1> to !nv_tileas.mbarrier
  func.return %v : !nv_tileas.mbarrier
}
// CHECK: invalid.mlir:33:3: error: a value of type '!nv_tileas.mbarrier' is used as '!llvm.ptr<3>', which convert-tileas-to-nvvm does not know how to convert

// -----

// An llvm.func returns one value.
func.func @two(%x: i32) -> (i32, i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  func.return %x, %x : i32, i32
}
// CHECK: invalid.mlir:40:1: error: a function with several results is not supported

// -----

// A loop may carry only values with an LLVM form.
func.func @loop(%n: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %t = nv_tileas.alloc_tensor : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %t) -> (tensor<4xf32>) {
    scf.yield %x : tensor<4xf32>
  }
  func.return
}
// CHECK: invalid.mlir:52:3: error: a loop-carried value of type 'tensor<4xf32>' is not supported by convert-tileas-to-nvvm

// -----

// A kernel of more warps than a CTA has.
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 33 : i32} {
  nv_tileas.return
}
// CHECK: invalid.mlir:62:1: error: nv_tileas.num_warps = 33: a CTA has 1 to 32 warps (at most 1024 threads)

// -----

// A kernel of no warps.
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = -2147483648 : i32} {
  nv_tileas.return
}
// CHECK: invalid.mlir:70:1: error: nv_tileas.num_warps = -2147483648: a CTA has 1 to 32 warps (at most 1024 threads)

// -----

// A persistent kernel takes its tile grid as its last three i32 parameters.
nv_tileas.kernel @no_tile_grid(%n: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.persistent_grid = array<i32: 132, 1, 1>} {
  nv_tileas.return
}
// CHECK: invalid.mlir:78:1: error: a kernel with nv_tileas.persistent_grid records a launch grid (array<i32: x, y, z>, positive) and takes the tile grid as its last three i32 parameters

// -----

// A declaration has no body to lower the tiles of (it crashed the pass).
func.func private @sink(tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [2], order = [0]>>)
// CHECK: invalid.mlir:86:1: error: a declaration of a function with tile values is not supported by convert-tileas-to-nvvm

// -----

// The dynamic scheduler takes its tiles from a counter before the tile grid.
nv_tileas.kernel @no_counter(%x: i32, %y: i32, %z: i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.persistent_grid = array<i32: 132, 1, 1>, nv_tileas.tile_scheduler = "dynamic"} {
  nv_tileas.return
}
// CHECK: invalid.mlir:92:1: error: a kernel with nv_tileas.tile_scheduler = "dynamic" takes its tile counter (!llvm.ptr<1>) as the parameter before the tile grid
