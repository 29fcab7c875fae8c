// RUN: not tileas-opt %s 2>&1 | filecheck %s
// A verifier error names the op and where it was written.

func.func @f() -> i32 {
  %0 = arith.constant 1 : i64
  func.return %0 : i64
}

// CHECK: verify-error.mlir:6:3: error: 'func.return' op Expected arguments to have the same types as the function output types: expected [i32], got [i64]
// CHECK-NOT: Traceback
