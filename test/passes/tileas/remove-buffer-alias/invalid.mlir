// RUN: not tileas-opt %s --split-input-file --allow-unregistered-dialect -p tileas-remove-buffer-alias 2>&1 | filecheck %s
// RUN: not tileas-opt %s --split-input-file --allow-unregistered-dialect -p 'tileas-remove-buffer-alias{max-iterations=2}' 2>&1 | filecheck %s --check-prefix=BOUND

#s = #nv_tileas.shared<swizzle = 0, order = [0]>

func.func @unsupported() {
  %a = nv_tileas.alloc_tensor : tensor<64xf16, #s>
  %v = "test.view"(%a) : (tensor<64xf16, #s>) -> tensor<64xf16, #s>
  func.return
}

// CHECK: invalid.mlir:8:3: error: RemoveBufferAlias: not supported operation type
// BOUND: invalid.mlir:8:3: error: RemoveBufferAlias: not supported operation type

// -----

#s = #nv_tileas.shared<swizzle = 0, order = [0]>

func.func @while_swaps(%c: i1) {
  %a = nv_tileas.alloc_tensor : tensor<64xf16, #s>
  %b = nv_tileas.alloc_tensor : tensor<64xf16, #s>
  %w = scf.while (%x = %a) : (tensor<64xf16, #s>) -> tensor<64xf16, #s> {
    scf.condition(%c) %x : tensor<64xf16, #s>
  } do {
  ^bb0(%y: tensor<64xf16, #s>):
    scf.yield %b : tensor<64xf16, #s>
  }
  func.return
}

// CHECK: invalid.mlir:26:5: error: Yielded alias not implemented yet
// BOUND: invalid.mlir:19:1: error: TileASRemoveBufferAliasPass failed to converge

// -----

// Converges in 3 rounds (the loop's back edge needs one more): fine by default, too many
// for max-iterations=2.
#s = #nv_tileas.shared<swizzle = 0, order = [0]>

func.func @loop(%lb: index, %ub: index, %st: index) {
  %a = nv_tileas.alloc_tensor : tensor<64xf16, #s>
  %b = nv_tileas.alloc_tensor : tensor<64xf16, #s>
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%cur = %a, %next = %b) -> (tensor<64xf16, #s>, tensor<64xf16, #s>) {
    scf.yield %next, %cur : tensor<64xf16, #s>, tensor<64xf16, #s>
  }
  func.return
}

// CHECK-NOT: error: TileASRemoveBufferAliasPass failed to converge
// BOUND: invalid.mlir:40:1: error: TileASRemoveBufferAliasPass failed to converge
