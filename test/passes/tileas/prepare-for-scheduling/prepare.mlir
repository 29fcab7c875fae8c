// RUN: tileas-opt %s --split-input-file -p tileas-prepare-for-scheduling | filecheck %s

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
