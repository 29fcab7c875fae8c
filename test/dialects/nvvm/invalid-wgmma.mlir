// RUN: not tileas-opt %s --split-input-file 2>&1 | filecheck %s
// Every verifier message of the WGMMA ops.
// Each CHECK is the message upstream mlir-opt 22.1.8 gives for the chunk.

llvm.func @w(%a : i64, %b : i64, %acc : i32) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 16, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : i32 -> i32
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op operand #0 must be LLVM structure type, but got 'i32'

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 16, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, i32)>
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op failed to verify that input struct and result struct must be the same type

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(f32, i32)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 4, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, i32)> -> !llvm.struct<(f32, i32)>
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op all elements in struct must be same type but there is 'i32'

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 16, k = 16>, D [<s8>, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op does not support the given output type s8

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 16, k = 32>, D [<s32>, #nvvm.wgmma_scale_out<zero>], A [<s8>, #nvvm.wgmma_scale_in<neg>, <row>], B [<s8>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op has s32 output, scaleA and scaleB cannot be neg

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 16, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<bf16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op f32 += f16 * bf16, it is not supported.

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(f16, f16, f16, f16)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 16, k = 16>, D [<f16>, #nvvm.wgmma_scale_out<zero>], A [<bf16>, #nvvm.wgmma_scale_in<one>, <row>], B [<bf16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f16, f16, f16, f16)> -> !llvm.struct<(f16, f16, f16, f16)>
  llvm.return
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: 'nvvm.wgmma.mma_async' op f16 += bf16 * bf16, it is not supported.

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 16, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<f32>, #nvvm.wgmma_scale_in<one>, <row>], B [<f32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op f32 += f32 * f32, it is not supported.

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 32, n = 16, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op shape 'm' must be 64

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 16, k = 32>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op shape 'k' must be 16 for input type f16

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 40, k = 32>, D [<s32>, #nvvm.wgmma_scale_out<zero>], A [<s8>, #nvvm.wgmma_scale_in<one>, <row>], B [<s8>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op has input type s8 n is set to 40, it is not supported.

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 16, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <col>], B [<tf32>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op given layouts layout_a = col and layout_b = col for input types tf32 and tf32 requires transpose. However, this is only supported for: f16 and bf16

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 32, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op results 16, however output struct has 8 elements

// -----

llvm.func @w(%a : i64, %b : i64, %acc : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
  %r = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 16, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<zero>, <satfinite>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return
}

// CHECK: error: 'nvvm.wgmma.mma_async' op  `satfinite` can be only used with s32 accumulator, however the current accumulator is f32

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90">} {
  llvm.func @f() {
    nvvm.wgmma.fence.aligned
    llvm.return
  }
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: 'nvvm.wgmma.fence.aligned' op is not supported on sm_90

// -----

builtin.module attributes {nvvm.target = [#nvvm.target<chip = "sm_90a">, #nvvm.target<chip = "sm_100a">]} {
  llvm.func @f() {
    nvvm.wgmma.wait.group.sync.aligned 0
    llvm.return
  }
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: 'nvvm.wgmma.wait.group.sync.aligned' op is not supported on sm_100a

// -----

// Not upstream's: ptxas rejects s8 with u8 below PTX ISA 8.4 (sm_90a alone means PTX 8.0).
builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a">} {
  llvm.func @mixed_integers_ptx80(%a: i64, %b: i64, %acc: !llvm.struct<(i32, i32, i32, i32)>) {
    %0 = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 8, k = 32>, D [<s32>, #nvvm.wgmma_scale_out<one>], A [<u8>, #nvvm.wgmma_scale_in<one>, <row>], B [<s8>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
    llvm.return
  }
}

// CHECK: error: Feature 'WGMMA with mixed integer types' requires PTX ISA .version 8.4 or later

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx83">} {
  llvm.func @mixed_integers_ptx83(%a: i64, %b: i64, %acc: !llvm.struct<(i32, i32, i32, i32)>) {
    %0 = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 8, k = 32>, D [<s32>, #nvvm.wgmma_scale_out<one>], A [<s8>, #nvvm.wgmma_scale_in<one>, <row>], B [<u8>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
    llvm.return
  }
}

// CHECK: error: Feature 'WGMMA with mixed integer types' requires PTX ISA .version 8.4 or later

// -----

// With +ptx84 the same op is accepted.
builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx84">} {
  llvm.func @mixed_integers_ptx84(%a: i64, %b: i64, %acc: !llvm.struct<(i32, i32, i32, i32)>) {
    %0 = nvvm.wgmma.mma_async %a, %b, %acc, #nvvm.shape<m = 64, n = 8, k = 32>, D [<s32>, #nvvm.wgmma_scale_out<one>], A [<s8>, #nvvm.wgmma_scale_in<one>, <row>], B [<u8>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
    llvm.return
  }
}

// CHECK: llvm.func @mixed_integers_ptx84
// CHECK: nvvm.wgmma.mma_async
