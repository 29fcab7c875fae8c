// RUN: not tileas-opt %s --split-input-file --allow-unregistered-dialect -p tileas-slicing 2>&1 | filecheck %s

func.func @not_integer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  } {sliceCount = "two"}
  func.return
}
// CHECK: invalid.mlir:6:3: error: The sliceCountneed to be aIntegerAttr

// -----

func.func @not_a_for(%c: i1) {
  scf.while () : () -> () {
    scf.condition(%c)
  } do {
    scf.yield
  } attributes {sliceCount = 2 : i64}
  func.return
}
// CHECK: invalid.mlir:15:3: error: unsupported op in Slicing pass

// -----

func.func @lower_bound(%a: index, %n: index) {
  %lb = arith.addi %a, %a : index
  %c1 = arith.constant 1 : index
  scf.for %i = %lb to %n step %c1 {
  } {sliceCount = 2 : i64}
  func.return
}
// CHECK: invalid.mlir:29:3: error: unsupported op to be a lower bound in slicing pass {{$}}

// -----

func.func @dynamic_step(%s: index, %n: index) {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %s {
  } {sliceCount = 2 : i64}
  func.return
}
// CHECK: invalid.mlir:39:3: error:  fail to get an initial forOperand in slicing pass {{$}}

// -----

func.func @allocates(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %buf = nv_tileas.alloc_tensor : tensor<64xf16, #nv_tileas.shared<swizzle = 0, order = [0]>>
  } {sliceCount = 2 : i64}
  func.return
}
// CHECK: invalid.mlir:51:5: error: 'nv_tileas.alloc_tensor' op is not expected inside sliced part in SlicingPass

// -----

func.func @zero(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  } {sliceCount = 0 : i64}
  func.return
}
// CHECK: invalid.mlir:62:3: error: sliceCount must be at least 1, got 0
