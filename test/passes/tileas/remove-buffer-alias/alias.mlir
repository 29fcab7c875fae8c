// RUN: tileas-opt %s --split-input-file -p tileas-remove-buffer-alias | filecheck %s

#s = #nv_tileas.shared<swizzle = 0, order = [0]>
#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>

// A select between one buffer and itself, and what copy returns, name that buffer.
func.func @select_same(%c: i1, %x: tensor<64xf16, #b>) -> tensor<64xf16, #s> {
  %a = nv_tileas.alloc_tensor : tensor<64xf16, #s>
  %sel = arith.select %c, %a, %a : tensor<64xf16, #s>
  %w = nv_tileas.copy %x, %sel : tensor<64xf16, #b> -> tensor<64xf16, #s>
  func.return %w : tensor<64xf16, #s>
}

// CHECK-LABEL: func.func @select_same
// CHECK-NEXT:    %a = nv_tileas.alloc_tensor
// CHECK-NEXT:    %w = nv_tileas.copy %x, %a
// CHECK-NEXT:    func.return %a

// -----

#s = #nv_tileas.shared<swizzle = 0, order = [0]>
#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>

// A loop that carries one buffer: its uses inside and after the loop name it directly.
func.func @loop_carried(%lb: index, %ub: index, %st: index, %x: tensor<64xf16, #b>) -> tensor<64xf16, #s> {
  %a = nv_tileas.alloc_tensor : tensor<64xf16, #s>
  %r = scf.for %i = %lb to %ub step %st iter_args(%buf = %a) -> (tensor<64xf16, #s>) {
    %w = nv_tileas.copy %x, %buf : tensor<64xf16, #b> -> tensor<64xf16, #s>
    scf.yield %w : tensor<64xf16, #s>
  }
  func.return %r : tensor<64xf16, #s>
}

// CHECK-LABEL: func.func @loop_carried
// CHECK-NEXT:    %a = nv_tileas.alloc_tensor
// CHECK-NEXT:    %r = scf.for %i = %lb to %ub step %st iter_args(%buf = %a) -> (tensor<64xf16, {{.*}}>) {
// CHECK-NEXT:      %w = nv_tileas.copy %x, %a
// CHECK-NEXT:      scf.yield %a
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %a

// -----

#s = #nv_tileas.shared<swizzle = 0, order = [0]>

// Ping-pong buffers stay aliased: each iteration names one of two buffers.
func.func @ping_pong(%lb: index, %ub: index, %st: index) -> tensor<64xf16, #s> {
  %a = nv_tileas.alloc_tensor : tensor<64xf16, #s>
  %b = nv_tileas.alloc_tensor : tensor<64xf16, #s>
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%cur = %a, %next = %b) -> (tensor<64xf16, #s>, tensor<64xf16, #s>) {
    scf.yield %next, %cur : tensor<64xf16, #s>, tensor<64xf16, #s>
  }
  func.return %r#0 : tensor<64xf16, #s>
}

// CHECK-LABEL: func.func @ping_pong
// CHECK:         scf.yield %next, %cur
// CHECK:         func.return %r :

// -----

#s = #nv_tileas.shared<swizzle = 0, order = [0]>

// An scf.if whose branches both yield the same buffer; a while loop that yields back
// the buffer it was entered with.
func.func @if_and_while(%c: i1) -> (tensor<64xf16, #s>, tensor<64xf16, #s>) {
  %a = nv_tileas.alloc_tensor : tensor<64xf16, #s>
  %r = scf.if %c -> (tensor<64xf16, #s>) {
    scf.yield %a : tensor<64xf16, #s>
  } else {
    %p = nv_tileas.pragma %a "keep" : tensor<64xf16, #s>
    scf.yield %p : tensor<64xf16, #s>
  }
  %w = scf.while (%x = %a) : (tensor<64xf16, #s>) -> tensor<64xf16, #s> {
    scf.condition(%c) %x : tensor<64xf16, #s>
  } do {
  ^bb0(%y: tensor<64xf16, #s>):
    scf.yield %y : tensor<64xf16, #s>
  }
  func.return %r, %w : tensor<64xf16, #s>, tensor<64xf16, #s>
}

// CHECK-LABEL: func.func @if_and_while
// CHECK:         scf.condition(%c) %a
// CHECK:         scf.yield %a
// CHECK:         func.return %a, %a
