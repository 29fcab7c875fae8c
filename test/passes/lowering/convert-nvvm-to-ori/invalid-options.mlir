// Bad pass options, and the warning about a kernel that returns a value.
// RUN: not tileas-opt %s -p 'convert-nvvm-to-ori{default-chip=gfx90a}' 2>&1 | filecheck %s --check-prefix=CHIP
// RUN: not tileas-opt %s -p 'convert-nvvm-to-ori{ptx-version="eight"}' 2>&1 | filecheck %s --check-prefix=VERSION
// RUN: tileas-opt %s -p convert-nvvm-to-ori -o /dev/null 2>&1 | filecheck %s --check-prefix=WARNING

llvm.func @returns_value(%x: i32) -> i32 attributes {nvvm.kernel} {
  llvm.return %x : i32
}

// CHIP:    error: convert-nvvm-to-ori: default-chip 'gfx90a' is not an SM target such as sm_90a
// VERSION: error: convert-nvvm-to-ori: ptx-version 'eight' is not MAJOR.MINOR
// WARNING: invalid-options.mlir:7:3: warning: convert-nvvm-to-ori: a kernel (.entry) cannot return values; the returned value is dropped
