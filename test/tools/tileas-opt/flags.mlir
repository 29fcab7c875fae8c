// RUN: tileas-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: tileas-opt %s -p canonicalize,cse --print-between-passes | filecheck %s --check-prefix=BETWEEN
// RUN: tileas-opt %s -t mlir | filecheck %s --check-prefix=TARGET
// RUN: tileas-opt --version | filecheck %s --check-prefix=VERSION
// RUN: cat %s | tileas-opt | filecheck %s --check-prefix=STDIN

func.func @f(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  func.return %0 : i32
}

// GENERIC: "func.func"() <{sym_name = "f"
// BETWEEN: IR after canonicalize:
// TARGET: func.func @f
// VERSION: tileas-opt (xdsl 0.74.0)
// STDIN: arith.addi
