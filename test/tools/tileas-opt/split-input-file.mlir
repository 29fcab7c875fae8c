// RUN: not tileas-opt %s --split-input-file 2>&1 | filecheck %s
// Every chunk is processed; errors carry the line in the whole file; exit status is 1.

func.func @ok() {
  func.return
}

// -----

func.func @bad() -> i32 {
  %0 = arith.constant 1 : i64
  func.return %0 : i64
}

// -----

func.func @also_ok() {
  func.return
}

// CHECK: func.func @ok()
// CHECK: split-input-file.mlir:12:3: error: 'func.return' op Expected arguments
// CHECK: func.func @also_ok()
