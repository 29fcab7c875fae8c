// RUN: tileas-opt %s --split-input-file -p tileas-remove-layout-conversions | filecheck %s

#b1 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [4], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#s = #nv_tileas.shared<swizzle = 0, order = [0]>

// Cleanup: identities and chains of conversions.
func.func @cleanup(%x: tensor<64xf32, #b1>) -> (tensor<64xf32, #b1>, tensor<64xf32, #s>) {
  %same = nv_tileas.convert_layout %x : tensor<64xf32, #b1> -> tensor<64xf32, #b1>
  %a = nv_tileas.convert_layout %same : tensor<64xf32, #b1> -> tensor<64xf32, #b2>
  %back = nv_tileas.convert_layout %a : tensor<64xf32, #b2> -> tensor<64xf32, #b1>
  %c = nv_tileas.convert_layout %a : tensor<64xf32, #b2> -> tensor<64xf32, #s>
  func.return %back, %c : tensor<64xf32, #b1>, tensor<64xf32, #s>
}

// CHECK-LABEL: func.func @cleanup
// CHECK-NEXT:    %c = nv_tileas.convert_layout %x : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1]{{.*}}>> -> tensor<64xf32, #nv_tileas.shared<swizzle = 0, order = [0]>>
// CHECK-NEXT:    func.return %x, %c

// -----

#b1 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#s = #nv_tileas.shared<swizzle = 0, order = [0]>
#s128 = #nv_tileas.shared<swizzle = 128, order = [0]>

// Buffer propagation: a fresh buffer only ever converted to one layout is allocated in it.
func.func @buffer(%x: tensor<64xf16, #b1>) -> tensor<64xf16, #s128> {
  %a = nv_tileas.alloc_tensor : tensor<64xf16, #s>
  %c = nv_tileas.convert_layout %a : tensor<64xf16, #s> -> tensor<64xf16, #s128>
  %w = nv_tileas.copy %x, %c : tensor<64xf16, #b1> -> tensor<64xf16, #s128>
  func.return %w : tensor<64xf16, #s128>
}

// CHECK-LABEL: func.func @buffer
// CHECK-NEXT:    %[[A:.*]] = nv_tileas.alloc_tensor : tensor<64xf16, #nv_tileas.shared<swizzle = 128, order = [0]>>
// CHECK-NEXT:    %w = nv_tileas.copy %x, %[[A]]
// CHECK-NEXT:    func.return %w

// -----

#b1 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [4], threads_per_warp = [32], warps_per_cta = [4], order = [0]>

// Register propagation: elementwise work (and a pragma) is redone in the layout its
// inputs were converted from; constants are re-typed.
func.func @elementwise(%x: tensor<64xf32, #b1>) -> tensor<64xf32, #b1> {
  %a = nv_tileas.convert_layout %x : tensor<64xf32, #b1> -> tensor<64xf32, #b2>
  %two = arith.constant dense<2.0> : tensor<64xf32, #b2>
  %m = arith.mulf %a, %two : tensor<64xf32, #b2>
  %p = nv_tileas.pragma %m "keep" : tensor<64xf32, #b2>
  %r = nv_tileas.convert_layout %p : tensor<64xf32, #b2> -> tensor<64xf32, #b1>
  func.return %r : tensor<64xf32, #b1>
}

// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1]{{.*}}>>
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %x, %[[TWO]] : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1]{{.*}}>>
// CHECK-NEXT:    %[[P:.*]] = nv_tileas.pragma %[[M]] "keep" : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1]{{.*}}>>
// CHECK-NEXT:    func.return %[[P]]

// -----

#b1 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [4], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#s = #nv_tileas.shared<swizzle = 0, order = [0]>

// Conversions of scf.if and consume_one results move into the regions and cancel.
func.func @regions(%c: i1, %x: tensor<64xf32, #b1>, %y: tensor<64xf32, #b1>, %p: !nv_tileas.pipeline<2, tensor<64xf32, #s>>) -> (tensor<64xf32, #b1>, tensor<64xf32, #b1>) {
  %i = scf.if %c -> (tensor<64xf32, #b2>) {
    %a = nv_tileas.convert_layout %x : tensor<64xf32, #b1> -> tensor<64xf32, #b2>
    scf.yield %a : tensor<64xf32, #b2>
  } else {
    %b = nv_tileas.convert_layout %y : tensor<64xf32, #b1> -> tensor<64xf32, #b2>
    scf.yield %b : tensor<64xf32, #b2>
  }
  %ri = nv_tileas.convert_layout %i : tensor<64xf32, #b2> -> tensor<64xf32, #b1>
  %o = nv_tileas.async.pipeline.consume_one %p : !nv_tileas.pipeline<2, tensor<64xf32, #s>> -> (tensor<64xf32, #b2>) {
  ^bb0(%slot: tensor<64xf32, #s>):
    "test.op"(%slot) : (tensor<64xf32, #s>) -> ()
    %m = nv_tileas.convert_layout %x : tensor<64xf32, #b1> -> tensor<64xf32, #b2>
    nv_tileas.async.pipeline.yield %m : tensor<64xf32, #b2>
  }
  %ro = nv_tileas.convert_layout %o : tensor<64xf32, #b2> -> tensor<64xf32, #b1>
  func.return %ri, %ro : tensor<64xf32, #b1>, tensor<64xf32, #b1>
}

// CHECK-LABEL: func.func @regions
// CHECK-NEXT:    %{{.*}} = scf.if %c -> (tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1]{{.*}}>>) {
// CHECK-NEXT:      scf.yield %x
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %y
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = nv_tileas.async.pipeline.consume_one %p : {{.*}} -> (tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1]{{.*}}>>) {
// CHECK-NEXT:    ^bb0(%slot: tensor<64xf32, #nv_tileas.shared<swizzle = 0, order = [0]>>):
// CHECK-NEXT:      "test.op"(%slot)
// CHECK-NEXT:      nv_tileas.async.pipeline.yield %x
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

#b1 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [4], threads_per_warp = [32], warps_per_cta = [4], order = [0]>

// A converted constant is the constant in the target layout, its value re-typed with it
// (issue 14, F2: the value kept the old type and the IR failed to verify).
func.func @constant() -> tensor<64xf32, #b2> {
  %c = arith.constant dense<1.0> : tensor<64xf32, #b1>
  %r = nv_tileas.convert_layout %c : tensor<64xf32, #b1> -> tensor<64xf32, #b2>
  func.return %r : tensor<64xf32, #b2>
}

// CHECK-LABEL: func.func @constant
// CHECK-NEXT:    %r = arith.constant dense<1.000000e+00> : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [4]{{.*}}>>
// CHECK-NEXT:    func.return %r

// -----

#b1 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [4], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#s = #nv_tileas.shared<swizzle = 0, order = [0]>

// Elementwise work is redone only in register layouts, and only when conversions go
// away (issue 14, F3: a conversion into shared memory moved above arith.negf, which then
// ran on a shared tile, and the number of conversions stayed the same).
func.func @no_gain(%x: tensor<64xf32, #b1>, %y: tensor<64xf32, #b1>) -> (tensor<64xf32, #s>, tensor<64xf32, #b2>) {
  %n = arith.negf %x : tensor<64xf32, #b1>
  %c = nv_tileas.convert_layout %n : tensor<64xf32, #b1> -> tensor<64xf32, #s>
  %m = arith.negf %y : tensor<64xf32, #b1>
  %d = nv_tileas.convert_layout %m : tensor<64xf32, #b1> -> tensor<64xf32, #b2>
  func.return %c, %d : tensor<64xf32, #s>, tensor<64xf32, #b2>
}

// CHECK-LABEL: func.func @no_gain
// CHECK-NEXT:    %n = arith.negf %x : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1]{{.*}}>>
// CHECK-NEXT:    %c = nv_tileas.convert_layout %n
// CHECK-NEXT:    %m = arith.negf %y : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1]{{.*}}>>
// CHECK-NEXT:    %d = nv_tileas.convert_layout %m
// CHECK-NEXT:    func.return %c, %d

// -----

#b1 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [4], threads_per_warp = [32], warps_per_cta = [4], order = [0]>

// A chain is redone as a whole: two conversions become one on the other input.
func.func @chain(%x: tensor<64xf32, #b1>, %y: tensor<64xf32, #b2>) -> tensor<64xf32, #b1> {
  %a = nv_tileas.convert_layout %x : tensor<64xf32, #b1> -> tensor<64xf32, #b2>
  %n = arith.negf %a : tensor<64xf32, #b2>
  %s = arith.addf %n, %y : tensor<64xf32, #b2>
  %m = arith.mulf %s, %s : tensor<64xf32, #b2>
  %r = nv_tileas.convert_layout %m : tensor<64xf32, #b2> -> tensor<64xf32, #b1>
  func.return %r : tensor<64xf32, #b1>
}

// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %n = arith.negf %x : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1]{{.*}}>>
// CHECK-NEXT:    %[[Y:.*]] = nv_tileas.convert_layout %y : {{.*}} -> tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1]{{.*}}>>
// CHECK-NEXT:    %s = arith.addf %n, %[[Y]]
// CHECK-NEXT:    %m = arith.mulf %s, %s
// CHECK-NEXT:    func.return %m
