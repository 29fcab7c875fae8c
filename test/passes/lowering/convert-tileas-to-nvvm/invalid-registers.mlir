// Every diagnostic of the register-tile (#nv_tileas.blocked) and FMA-dot patterns of
// convert-tileas-to-nvvm, at the op it is about.
// RUN: not tileas-opt %s --split-input-file -p convert-tileas-to-nvvm -o /dev/null 2>&1 | filecheck %s

// A tile smaller than its layout's CTA tile (some elements would be held twice).
#b = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [8, 4], warps_per_cta = [4, 1], order = [1, 0]>
nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
  %t = arith.constant dense<0.0> : tensor<16x16xf32, #b>
  %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<16x16xf32>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %t, %view[%c0, %c0] : tensor<16x16xf32, #b> -> !nv_tileas.tiled_view<16x16xf32>
  nv_tileas.return
}
// CHECK: invalid-registers.mlir:8:3: error: a #nv_tileas.blocked tile of shape [16, 16] must be a whole number of its layout's CTA tile [32, 16]

// -----

// A layout over 4 warps in a kernel of 8.
#b = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [8, 4], warps_per_cta = [4, 1], order = [1, 0]>
nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 8 : i32} {
  %t = arith.constant dense<0.0> : tensor<32x32xf32, #b>
  %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<32x32xf32>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %t, %view[%c0, %c0] : tensor<32x32xf32, #b> -> !nv_tileas.tiled_view<32x32xf32>
  nv_tileas.return
}
// CHECK: invalid-registers.mlir:21:3: error: a #nv_tileas.blocked tile laid out over 4 warps is used by 8 warps

// -----

// A constant that is not a splat.
#b = #nv_tileas.blocked<size_per_thread = [1, 1], threads_per_warp = [8, 4], warps_per_cta = [1, 1], order = [1, 0]>
nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 1 : i32} {
  %t = arith.constant dense<[
      [0.0, 1.0, 2.0, 3.0],
      [4.0, 5.0, 6.0, 7.0],
      [8.0, 9.0, 10.0, 11.0],
      [12.0, 13.0, 14.0, 15.0],
      [16.0, 17.0, 18.0, 19.0],
      [20.0, 21.0, 22.0, 23.0],
      [24.0, 25.0, 26.0, 27.0],
      [28.0, 29.0, 30.0, 31.0]]> : tensor<8x4xf32, #b>
  %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<8x4xf32>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %t, %view[%c0, %c0] : tensor<8x4xf32, #b> -> !nv_tileas.tiled_view<8x4xf32>
  nv_tileas.return
}
// CHECK: invalid-registers.mlir:34:3: error: only splat register-tile constants are supported

// -----

// A swizzled shared tile read into registers.
#b = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [8, 4], warps_per_cta = [4, 1], order = [1, 0]>
#s = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
  %buf = nv_tileas.alloc_tensor : tensor<32x32xf32, #s>
  %t = nv_tileas.convert_layout %buf : tensor<32x32xf32, #s> -> tensor<32x32xf32, #b>
  %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<32x32xf32>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %t, %view[%c0, %c0] : tensor<32x32xf32, #b> -> !nv_tileas.tiled_view<32x32xf32>
  nv_tileas.return
}
// CHECK: invalid-registers.mlir:57:3: error: convert_layout reads only unswizzled shared tiles (#nv_tileas.shared<swizzle = 0, ...>) into registers

// -----

// An FMA dot whose A is a shared tile.
#b = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [8, 4], warps_per_cta = [4, 1], order = [1, 0]>
#s = #nv_tileas.shared<swizzle = 0, order = [1, 0]>
nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
  %a = nv_tileas.alloc_tensor : tensor<32x32xf32, #s>
  %b = arith.constant dense<1.0> : tensor<32x32xf32, #b>
  %c = arith.constant dense<0.0> : tensor<32x32xf32, #b>
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.universal_fma<f32, f32, f32> wait_group = 0 : tensor<32x32xf32, #s>, tensor<32x32xf32, #b> -> tensor<32x32xf32, #b>
  %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<32x32xf32>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<32x32xf32, #b> -> !nv_tileas.tiled_view<32x32xf32>
  nv_tileas.return
}
// CHECK: invalid-registers.mlir:74:3: error: a dot with the universal FMA atom takes #nv_tileas.blocked register tiles for A, B and C

// -----

// An FMA dot from f16 into f32.
#b = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [8, 4], warps_per_cta = [4, 1], order = [1, 0]>
nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
  %a = arith.constant dense<1.0> : tensor<32x32xf16, #b>
  %c = arith.constant dense<0.0> : tensor<32x32xf32, #b>
  %d = nv_tileas.dot %a, %a, %c atom = !cute_nvgpu.universal_fma<f16, f16, f32> wait_group = 0 : tensor<32x32xf16, #b>, tensor<32x32xf16, #b> -> tensor<32x32xf32, #b>
  %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<32x32xf32>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<32x32xf32, #b> -> !nv_tileas.tiled_view<32x32xf32>
  nv_tileas.return
}
// CHECK: invalid-registers.mlir:89:3: error: a dot with the universal FMA atom is lowered only when A, B and C have one floating-point element type

// -----

// A register tile copied into a swizzled buffer.
#b = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [8, 4], warps_per_cta = [4, 1], order = [1, 0]>
#s = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
  %t = arith.constant dense<0.0> : tensor<32x32xf32, #b>
  %buf = nv_tileas.alloc_tensor : tensor<32x32xf32, #s>
  %w = nv_tileas.copy %t, %buf : tensor<32x32xf32, #b> -> tensor<32x32xf32, #s>
  nv_tileas.return
}
// CHECK: invalid-registers.mlir:105:3: error: a register tile is copied only into an unswizzled shared buffer (#nv_tileas.shared<swizzle = 0, ...>)

// -----

// An elementwise op that changes the layout.
#b = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [8, 4], warps_per_cta = [4, 1], order = [1, 0]>
#c = #nv_tileas.blocked<size_per_thread = [4, 1], threads_per_warp = [4, 8], warps_per_cta = [1, 4], order = [0, 1]>
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
  %h = arith.constant dense<1.0> : tensor<32x32xf16, #b>
  %x = arith.extf %h : tensor<32x32xf16, #b> to tensor<32x32xf32, #c>
  nv_tileas.return
}
// CHECK: invalid-registers.mlir:117:3: error: 'arith.extf' on register tiles needs one shape and layout for all its operands and results
