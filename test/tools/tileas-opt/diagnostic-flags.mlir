// RUN: tileas-opt %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s
// --verify-diagnostics / --parsing-diagnostics print the message and exit 0, as in xdsl-opt.

func.func @bad() -> i32 {
  %0 = arith.constant 1 : i64
  func.return %0 : i64
}

// -----

func.func @unparsable( {

// CHECK: Expected arguments to have the same types as the function output types
// CHECK: diagnostic-flags.mlir:11:24
// CHECK: Expected argument or type
