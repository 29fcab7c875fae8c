// RUN: not tileas-opt %s -t ptx 2>&1 | filecheck %s
// Only ori has a PTX form: anything else is one located error and no output.

ori.version "8.7"
func.func @f() {
  func.return
}

// CHECK: write-non-ori.mlir:5:1: error: 'func.func' op has no PTX form: only ori ops can be printed as PTX
// CHECK-NOT: .version
