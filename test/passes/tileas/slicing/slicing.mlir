// RUN: tileas-opt %s --split-input-file --allow-unregistered-dialect -p tileas-slicing | filecheck %s

// Constant bounds, trip count a multiple of sliceCount: no residual loop.
func.func @even() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c8 step %c1 {
    "test.work"(%i) : (index) -> ()
  } {sliceCount = 2 : i64}
  func.return
}

// CHECK-LABEL: func.func @even
// CHECK:         %[[SPLIT:[0-9]+]] = arith.constant 8 : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.constant 2 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %[[SPLIT]] step %[[STEP]] {
// CHECK-NEXT:      "test.work"(%[[I]]) : (index) -> ()
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[I1:.*]] = arith.addi %[[I]], %[[ONE]] : index
// CHECK-NEXT:      "test.work"(%[[I1]]) : (index) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NOT:     sliceCount

// -----

// Constant bounds with a remainder: 5 iterations, 4 slices -> one sliced iteration and a
// residual loop from 8.
func.func @remainder() {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c10 step %c2 {
    "test.work"(%i) : (index) -> ()
  } {sliceCount = 4 : i64, tag}
  func.return
}

// CHECK-LABEL: func.func @remainder
// CHECK:         %[[SPLIT:[0-9]+]] = arith.constant 8 : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.constant 8 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %[[SPLIT]] step %[[STEP]] {
// CHECK-NEXT:      "test.work"(%[[I]])
// CHECK:           arith.constant 2 : index
// CHECK:           arith.constant 4 : index
// CHECK:           arith.constant 6 : index
// CHECK:           "test.work"
// CHECK-NEXT:    } {tag}
// CHECK-NEXT:    scf.for %[[J:.*]] = %[[SPLIT]] to %c10 step %c2 {
// CHECK-NEXT:      "test.work"(%[[J]])
// CHECK-NEXT:    } {tag}

// -----

// A dynamic upper bound and loop-carried values: the split point is computed, the
// slices thread the carried value, the residual loop continues from the sliced results.
func.func @dynamic(%ub: index, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %x) -> (f32) {
    %n = arith.addf %acc, %acc : f32
    scf.yield %n : f32
  } {sliceCount = 2 : i64}
  func.return %r : f32
}

// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[SPAN:.*]] = arith.subi %ub, %c0 : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[POS:.*]] = arith.maxsi %[[SPAN]], %[[ZERO]] : index
// CHECK-NEXT:    %[[BIG:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[GROUPS:.*]] = arith.divsi %[[POS]], %[[BIG]] : index
// CHECK-NEXT:    %[[COVERED:.*]] = arith.muli %[[GROUPS]], %[[BIG]] : index
// CHECK-NEXT:    %[[SPLIT:.*]] = arith.addi %c0, %[[COVERED]] : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[MAIN:.*]] = scf.for %{{.*}} = %c0 to %[[SPLIT]] step %[[STEP]] iter_args(%[[ACC:.*]] = %x) -> (f32) {
// CHECK-NEXT:      %[[N0:.*]] = arith.addf %[[ACC]], %[[ACC]] : f32
// CHECK-NEXT:      arith.constant 1 : index
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:      %[[N1:.*]] = arith.addf %[[N0]], %[[N0]] : f32
// CHECK-NEXT:      scf.yield %[[N1]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[REST:.*]] = scf.for %{{.*}} = %[[SPLIT]] to %ub step %c1 iter_args(%{{.*}} = %[[MAIN]]) -> (f32) {
// CHECK:         func.return %[[REST]]

// -----

// Fewer iterations than slices: nothing to slice.
func.func @short() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c3 step %c1 {
    "test.work"(%i) : (index) -> ()
  } {sliceCount = 4 : i64}
  func.return
}

// CHECK-LABEL: func.func @short
// CHECK:         scf.for %i = %c0 to %c3 step %c1 {
// CHECK-NEXT:      "test.work"(%i)
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
