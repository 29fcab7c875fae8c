// RUN: rm -f %t.out && tileas-opt %S/Inputs/valid.mlir -o %t.out && filecheck %s --check-prefix=WRITTEN < %t.out
// RUN: rm -f %t.bad && not tileas-opt %s -o %t.bad 2>&1 | filecheck %s --check-prefix=ERROR
// RUN: not test -e %t.bad
// -o writes only a complete result: a failing run leaves no output file behind.

func.func @bad() -> i32 {
  %0 = arith.constant 1 : i64
  func.return %0 : i64
}

// WRITTEN: func.func @f(%x: i32) -> i32
// ERROR: output-file.mlir:8:3: error: 'func.return' op
// RUN: not tileas-opt %S/Inputs/valid.mlir -o %S/Inputs/no-such-dir/out.mlir 2>&1 | filecheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: tileas-opt: error: cannot write output file '{{.*}}out.mlir': No such file or directory
