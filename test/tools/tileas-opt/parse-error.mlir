// RUN: not tileas-opt %s 2>&1 | filecheck %s
// A parse error names file:line:col, shows the line, and exits 1 without a traceback.

func.func @f(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i64
  func.return %0 : i32
}

// CHECK: parse-error.mlir:5:19: error: operand is used with type i64, but has been previously used or defined with type i32
// CHECK-NEXT: %0 = arith.addi %x, %x : i64
// CHECK-NEXT: ^^
// CHECK-NOT: Traceback
