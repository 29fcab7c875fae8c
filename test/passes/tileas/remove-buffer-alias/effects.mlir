// RUN: tileas-opt %s --split-input-file -p tileas-remove-buffer-alias,cse,licm,canonicalize | filecheck %s

// Once copy no longer hands its buffer on, reads of the buffer are ordered only by their
// memory effects: cse, licm and canonicalize must not move or merge a read across a copy
// into the same buffer (issue 14, F4).

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#s = #nv_tileas.shared<swizzle = 0, order = [0]>

// Two reads of one buffer with a copy between them stay two reads.
func.func @reads(%x: tensor<64xf32, #b>, %y: tensor<64xf32, #b>) -> (tensor<64xf32, #b>, tensor<64xf32, #b>) {
  %a = nv_tileas.alloc_tensor : tensor<64xf32, #s>
  %w1 = nv_tileas.copy %x, %a : tensor<64xf32, #b> -> tensor<64xf32, #s>
  %r1 = nv_tileas.convert_layout %w1 : tensor<64xf32, #s> -> tensor<64xf32, #b>
  %w2 = nv_tileas.copy %y, %a : tensor<64xf32, #b> -> tensor<64xf32, #s>
  %r2 = nv_tileas.convert_layout %w2 : tensor<64xf32, #s> -> tensor<64xf32, #b>
  func.return %r1, %r2 : tensor<64xf32, #b>, tensor<64xf32, #b>
}

// CHECK-LABEL: func.func @reads
// CHECK-NEXT:    %a = nv_tileas.alloc_tensor
// CHECK-NEXT:    %w1 = nv_tileas.copy %x, %a
// CHECK-NEXT:    %r1 = nv_tileas.convert_layout %a
// CHECK-NEXT:    %w2 = nv_tileas.copy %y, %a
// CHECK-NEXT:    %r2 = nv_tileas.convert_layout %a
// CHECK-NEXT:    func.return %r1, %r2

// -----

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#s = #nv_tileas.shared<swizzle = 0, order = [0]>

// A read of a buffer that the loop writes stays in the loop, after the write.
func.func @loop(%lb: index, %ub: index, %st: index, %x: tensor<64xf32, #b>) -> tensor<64xf32, #b> {
  %a = nv_tileas.alloc_tensor : tensor<64xf32, #s>
  %z = arith.constant dense<0.0> : tensor<64xf32, #b>
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %z) -> (tensor<64xf32, #b>) {
    %w = nv_tileas.copy %acc, %a : tensor<64xf32, #b> -> tensor<64xf32, #s>
    %t = nv_tileas.convert_layout %w : tensor<64xf32, #s> -> tensor<64xf32, #b>
    %n = arith.addf %t, %x : tensor<64xf32, #b>
    scf.yield %n : tensor<64xf32, #b>
  }
  func.return %r : tensor<64xf32, #b>
}

// CHECK-LABEL: func.func @loop
// CHECK:         scf.for
// CHECK-NEXT:      %w = nv_tileas.copy %acc, %a
// CHECK-NEXT:      %t = nv_tileas.convert_layout %a
// CHECK-NEXT:      %n = arith.addf %t, %x
// CHECK-NEXT:      scf.yield %n

// -----

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#s = #nv_tileas.shared<swizzle = 0, order = [0]>

// Register-to-register conversions stay pure (merged and hoisted); a conversion into
// shared memory makes a fresh buffer each time (never merged); unused buffers go.
func.func @values(%lb: index, %ub: index, %st: index, %x: tensor<64xf32, #b>) -> (tensor<64xf32, #s>, tensor<64xf32, #s>) {
  %unused = nv_tileas.alloc_tensor : tensor<64xf32, #s>
  %s1 = nv_tileas.convert_layout %x : tensor<64xf32, #b> -> tensor<64xf32, #s>
  %s2 = nv_tileas.convert_layout %x : tensor<64xf32, #b> -> tensor<64xf32, #s>
  scf.for %i = %lb to %ub step %st {
    %n = arith.negf %x : tensor<64xf32, #b>
    "test.op"(%n) : (tensor<64xf32, #b>) -> ()
  }
  func.return %s1, %s2 : tensor<64xf32, #s>, tensor<64xf32, #s>
}

// CHECK-LABEL: func.func @values
// CHECK-NEXT:    %s1 = nv_tileas.convert_layout %x
// CHECK-NEXT:    %s2 = nv_tileas.convert_layout %x
// CHECK-NEXT:    %n = arith.negf %x
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      "test.op"(%n)
// CHECK:         func.return %s1, %s2
