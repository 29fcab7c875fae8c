// Each stage fails when it has not settled within max-iterations sweeps (one sweep that
// changes something plus one that confirms nothing changes is the minimum).
// RUN: not tileas-opt %s --split-input-file -p 'tileas-remove-layout-conversions{max-iterations=1}' 2>&1 | filecheck %s
// RUN: tileas-opt %s --split-input-file -p 'tileas-remove-layout-conversions{max-iterations=2}' | filecheck %s --check-prefix=ENOUGH

#b1 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>

func.func @greedy(%x: tensor<64xf32, #b1>) -> tensor<64xf32, #b1> {
  %same = nv_tileas.convert_layout %x : tensor<64xf32, #b1> -> tensor<64xf32, #b1>
  func.return %same : tensor<64xf32, #b1>
}

// CHECK: invalid.mlir:8:1: error: failed to apply patterns greedily
// ENOUGH-LABEL: func.func @greedy
// ENOUGH-NEXT:    func.return %x

// -----

#s = #nv_tileas.shared<swizzle = 0, order = [0]>
#s128 = #nv_tileas.shared<swizzle = 128, order = [0]>

func.func @buffer() -> tensor<64xf16, #s128> {
  %a = nv_tileas.alloc_tensor : tensor<64xf16, #s>
  %c = nv_tileas.convert_layout %a : tensor<64xf16, #s> -> tensor<64xf16, #s128>
  func.return %c : tensor<64xf16, #s128>
}

// CHECK: invalid.mlir:22:1: error: failed to rewrite in buffer layout propagation
// ENOUGH-LABEL: func.func @buffer
// ENOUGH-NEXT:    nv_tileas.alloc_tensor : tensor<64xf16, #nv_tileas.shared<swizzle = 128, order = [0]>>

// -----

#b1 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [4], threads_per_warp = [32], warps_per_cta = [4], order = [0]>

func.func @reg(%x: tensor<64xf32, #b1>) -> tensor<64xf32, #b1> {
  %a = nv_tileas.convert_layout %x : tensor<64xf32, #b1> -> tensor<64xf32, #b2>
  %n = arith.negf %a : tensor<64xf32, #b2>
  %r = nv_tileas.convert_layout %n : tensor<64xf32, #b2> -> tensor<64xf32, #b1>
  func.return %r : tensor<64xf32, #b1>
}

// CHECK: invalid.mlir:37:1: error: failed to rewrite in reg layout propagation
// ENOUGH-LABEL: func.func @reg
// ENOUGH-NEXT:    arith.negf %x
