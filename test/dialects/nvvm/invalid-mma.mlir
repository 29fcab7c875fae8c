// RUN: not tileas-opt %s --split-input-file 2>&1 | filecheck %s
// Every verifier message of nvvm.mma.sync.
// Each CHECK is the message upstream mlir-opt 22.1.8 gives for the chunk.

func.func @a(%a0 : vector<2xf16>, %b0 : vector<2xf16>, %c0 : vector<2xf16>) {
  %0 = nvvm.mma.sync A[%a0, %a0, %a0, %a0] B[%b0, %b0] C[%c0, %c0] {layoutA = #nvvm.mma_layout<col>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  return
}

// CHECK: error: 'nvvm.mma.sync' op requires layoutA = #nvvm.mma_layout<row> and layoutB = #nvvm.mma_layout<col> for shape <16, 8, 16> with element types f16 and f16. Only m8n8k4 with f16 supports other layouts.

// -----

func.func @b(%a0 : vector<2xf16>, %b0 : vector<2xf16>, %c0 : vector<2xf16>) {
  %0 = nvvm.mma.sync A[%a0, %a0, %a0] B[%b0, %b0] C[%c0, %c0] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  return
}

// CHECK: error: 'nvvm.mma.sync' op Could not match types for the A operands; expected one of 4xvector<2xf16> but got vector<2xf16>, vector<2xf16>, vector<2xf16>

// -----

func.func @c(%a0 : vector<2xf16>, %b0 : vector<2xf16>, %c0 : vector<2xf16>) {
  %0 = nvvm.mma.sync A[%a0, %a0, %a0, %a0] B[%b0, %b0] C[%c0, %c0] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  return
}

// CHECK: error: 'nvvm.mma.sync' op unimplemented variant for MMA shape <16, 8, 32>

// -----

func.func @d(%a0 : vector<2xf16>, %b0 : vector<2xf16>, %c0 : vector<2xf16>) {
  %0 = nvvm.mma.sync A[%a0, %a0, %a0, %a0] B[%b0, %b0] C[%c0, %c0] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(f32, f32, f32, f32)>
  return
}

// CHECK: error: 'nvvm.mma.sync' op ctype does not match dtype

// -----

func.func @e(%a : i32, %c : i32) {
  %0 = nvvm.mma.sync A[%a, %a] B[%a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  return
}

// CHECK: error: 'nvvm.mma.sync' op op requires intOverflowBehavior attribute

// -----

func.func @f(%a : i32, %c : i32) {
  %0 = nvvm.mma.sync A[%a, %a] B[%a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<b1>, multiplicandBPtxType = #nvvm.mma_type<b1>, shape = #nvvm.shape<m = 16, n = 8, k = 128>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  return
}

// CHECK: error: 'nvvm.mma.sync' op op requires b1Op attribute

// -----

func.func @g(%a : i32, %c : i32) {
  %0 = nvvm.mma.sync A[%a, %a] B[%a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  return
}

// CHECK: error: invalid shape or multiplicand type: s32

// -----

func.func @h(%a : f64, %c : f64) {
  %0 = nvvm.mma.sync A[%a] B[%a] C[%c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 8, n = 8, k = 8>} : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
  return
}

// CHECK: error: 'nvvm.mma.sync' op unimplemented variant for MMA shape <8, 8, 8>

// -----

func.func @i(%a : vector<2xf16>, %c : f32) {
  %0 = nvvm.mma.sync A[%a, %a, %a, %a] B[%a, %a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  return
}

// CHECK: error: 'nvvm.mma.sync' op ctype does not match dtype

// -----

func.func @j(%a : i32, %c : f32) {
  %0 = nvvm.mma.sync A[%a, %a, %a, %a] B[%a, %a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e4m3>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  return
}

// CHECK: error: invalid shape or multiplicand type: e4m3

// -----

func.func @k(%a : f64, %c : f64) {
  %0 = nvvm.mma.sync A[%a] B[%a] C[%c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 4>} : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
  return
}

// CHECK: error: invalid shape or multiplicand type: f64

// -----

func.func @m(%a : i32, %c : f32) {
  %0 = nvvm.mma.sync A[%a, %a, %a, %a] B[%a, %a] C[%c, %c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32)>
  return
}

// CHECK: error: 'nvvm.mma.sync' op Could not match allowed types for the result; expected one of !llvm.struct<(f32, f32, f32, f32)> but got !llvm.struct<(f32, f32)>

// -----

func.func @n(%a : vector<2xf16>, %b : vector<2xf16>, %c : vector<2xf16>) {
  %0 = nvvm.mma.sync A[%a, %a, %a, %a] B[%b, %b] C[%c, %c, %c] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  return
}

// CHECK: error: 'nvvm.mma.sync' op Could not match types for the C operands; expected one of 2xvector<2xf16> 4xf32 but got vector<2xf16>, vector<2xf16>, vector<2xf16>

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_75">} {
  func.func @o(%a0 : i32, %a1 : i32, %a2 : i32, %a3 : i32, %b0 : i32, %b1 : i32, %c0 : f32, %c1 : f32, %c2 : f32, %c3 : f32) {
    %0 = nvvm.mma.sync A[%a0, %a1, %a2, %a3] B[%b0, %b1] C[%c0, %c1, %c2, %c3] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    return
  }
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: 'nvvm.mma.sync' op is not supported on sm_75

// -----

// ptxas: "Modifier '.and' on 'mma' requires .target sm_80 or higher" (xor.popc runs on sm_75).
builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_75">} {
  func.func @p(%a : i32, %c : i32) {
    %0 = nvvm.mma.sync A[%a] B[%a] C[%c, %c] {b1Op = #nvvm.mma_b1op<xor_popc>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<b1>, multiplicandBPtxType = #nvvm.mma_type<b1>, shape = #nvvm.shape<m = 8, n = 8, k = 128>} : (i32, i32, i32) -> !llvm.struct<(i32, i32)>
    %1 = nvvm.mma.sync A[%a] B[%a] C[%c, %c] {b1Op = #nvvm.mma_b1op<and_popc>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<b1>, multiplicandBPtxType = #nvvm.mma_type<b1>, shape = #nvvm.shape<m = 8, n = 8, k = 128>} : (i32, i32, i32) -> !llvm.struct<(i32, i32)>
    return
  }
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: invalid-mma.mlir:[[# @LINE - 6]]:{{[0-9]+}}: error: 'nvvm.mma.sync' op is not supported on sm_75
