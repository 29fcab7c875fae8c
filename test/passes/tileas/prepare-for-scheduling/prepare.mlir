// RUN: tileas-opt %s --split-input-file -p tileas-prepare-for-scheduling 2>/dev/null | filecheck %s
// RUN: tileas-opt %s --split-input-file -p tileas-prepare-for-scheduling 2>&1 >/dev/null | filecheck %s --check-prefix=WARN

#b8 = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>

// Hopper: 128-bit vectors (8 x f16, 4 x f32); a 512-row tile is copied in 256-row boxes;
// explicit boxes and vector sizes stay; canonicalize runs.
builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  func.func @hopper(%v: !nv_tileas.tiled_view<4096x4096xf16>, %w: !nv_tileas.tiled_view<4096x4096xf32>, %i: index) {
    %big = nv_tileas.tiled_load %v[%i, %i] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<512x64xf16, #b8>
    %f = nv_tileas.tiled_load %w[%i, %i] : !nv_tileas.tiled_view<4096x4096xf32> -> tensor<64x64xf32, #b8>
    %kept = nv_tileas.tiled_load %v[%i, %i] box = [32, 64] vec_size = 2 : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x64xf16, #b8>
    nv_tileas.tiled_store %f, %w[%i, %i] : tensor<64x64xf32, #b8> -> !nv_tileas.tiled_view<4096x4096xf32>
    %dead = arith.addi %i, %i : index
    "test.op"(%big, %kept) : (tensor<512x64xf16, #b8>, tensor<64x64xf16, #b8>) -> ()
    func.return
  }
}

// CHECK-LABEL: func.func @hopper
// CHECK-NEXT:    %big = nv_tileas.tiled_load %v[%i, %i] box = [256, 64] vec_size = 8 :
// CHECK-NEXT:    %f = nv_tileas.tiled_load %w[%i, %i] vec_size = 4 :
// CHECK-NEXT:    %kept = nv_tileas.tiled_load %v[%i, %i] box = [32, 64] vec_size = 2 :
// CHECK-NEXT:    nv_tileas.tiled_store %f, %w[%i, %i] vec_size = 4 :
// CHECK-NEXT:    "test.op"(%big, %kept)
// CHECK-NEXT:    func.return

// -----

#b8 = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>
#b16 = #nv_tileas.blocked<size_per_thread = [16, 1], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [0, 1]>

// Blackwell: 256-bit vectors (8 x f32, 16 x f16); the contiguous dimension follows order.
builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  func.func @blackwell(%w: !nv_tileas.tiled_view<4096x4096xf32>, %v: !nv_tileas.tiled_view<4096x4096xf16>, %i: index) {
    %f = nv_tileas.tiled_load %w[%i, %i] : !nv_tileas.tiled_view<4096x4096xf32> -> tensor<64x64xf32, #b8>
    %h = nv_tileas.tiled_load %v[%i, %i] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x64xf16, #b16>
    "test.op"(%f, %h) : (tensor<64x64xf32, #b8>, tensor<64x64xf16, #b16>) -> ()
    func.return
  }
}

// CHECK-LABEL: func.func @blackwell
// CHECK-NEXT:    %f = nv_tileas.tiled_load %w[%i, %i] vec_size = 8 :
// CHECK-NEXT:    %h = nv_tileas.tiled_load %v[%i, %i] vec_size = 16 :

// -----

#b8 = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>

// Without a target_spec there is no compute capability: nothing changes.
func.func @no_target(%v: !nv_tileas.tiled_view<4096x4096xf16>, %i: index) {
  %big = nv_tileas.tiled_load %v[%i, %i] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<512x64xf16, #b8>
  %dead = arith.addi %i, %i : index
  "test.op"(%big) : (tensor<512x64xf16, #b8>) -> ()
  func.return
}

// CHECK-LABEL: func.func @no_target
// CHECK-NEXT:    %big = nv_tileas.tiled_load %v[%i, %i] : !nv_tileas.tiled_view<4096x4096xf16>
// CHECK-NEXT:    %dead = arith.addi %i, %i

// -----

#b8 = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>
#s128 = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#s64t = #nv_tileas.shared<swizzle = 64, order = [0, 1]>

// TMA boxes: the inner (order[0]) extent is a multiple of 16 bytes and within the
// swizzle span (issue 14, F6: [8, 2] for 8x514xf16, [64, 256] under a 128-byte swizzle).
// A swizzled tile wider than its span gets a box even below 256 elements; when no inner
// extent fits, there is no box and a warning.
builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  func.func @tma_boxes(%v: !nv_tileas.tiled_view<4096x4096xf16>, %i: index) {
    %odd = nv_tileas.tiled_load %v[%i, %i] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<8x514xf16, #b8>
    %sw = nv_tileas.tiled_load %v[%i, %i] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x512xf16, #s128>
    %narrow = nv_tileas.tiled_load %v[%i, %i] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x128xf16, #s128>
    %fits = nv_tileas.tiled_load %v[%i, %i] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<64x64xf16, #s128>
    %cols = nv_tileas.tiled_load %v[%i, %i] : !nv_tileas.tiled_view<4096x4096xf16> -> tensor<96x512xf16, #s64t>
    "test.op"(%odd, %sw, %narrow, %fits, %cols) : (tensor<8x514xf16, #b8>, tensor<64x512xf16, #s128>, tensor<64x128xf16, #s128>, tensor<64x64xf16, #s128>, tensor<96x512xf16, #s64t>) -> ()
    func.return
  }
}

// WARN: prepare.mlir:75:5: warning: no TMA box divides the tile [8, 514] of f16: its inner extent must be a multiple of 16 bytes and at most 256 elements
// CHECK-LABEL: func.func @tma_boxes
// CHECK-NEXT:    %odd = nv_tileas.tiled_load %v[%i, %i] vec_size = 8 :
// CHECK-NEXT:    %sw = nv_tileas.tiled_load %v[%i, %i] box = [64, 64] :
// CHECK-NEXT:    %narrow = nv_tileas.tiled_load %v[%i, %i] box = [64, 64] :
// CHECK-NEXT:    %fits = nv_tileas.tiled_load %v[%i, %i] :
// CHECK-NEXT:    %cols = nv_tileas.tiled_load %v[%i, %i] box = [32, 256] :
