// RUN: not tileas-opt %s --split-input-file 2>&1 | filecheck %s
// Every verifier message of the tcgen05 ops: upstream's, then cicc's tcgen05.mma rules
// (reference note 004) that this op can express, then the targets and PTX versions
// ptxas 13.5 assembles tcgen05 for.
// Each CHECK is the message upstream mlir-opt 22.1.8 gives for the chunk, but where a
// note says otherwise.

llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en mask = %m4 {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_2>} : (!llvm.ptr<6>, i64, i64, i32, i1, vector<4xi32>)
  llvm.return
}

// CHECK: error: Disable Output Lane of length 4 is incompatible with CtaGroupAttr

// -----

llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>, aShift} : (!llvm.ptr<6>, i64, i64, i32, i1)
  llvm.return
}

// CHECK: error: A-shift can be applied only when matrix A is in tensor memory

// -----

llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.mma %d, %a, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>, collectorOp = #nvvm.tcgen05_mma_collectorop<use>, aShift} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
  llvm.return
}

// CHECK: error: Cannot use collector buffer operation fill or use with ashift

// -----

llvm.func @f(%t : !llvm.ptr<6>, %d : i64) {
  nvvm.tcgen05.cp %t, %d {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>, multicast = #nvvm.tcgen05_cp_multicast<warpx4>}
  llvm.return
}

// CHECK: error: Invalid multicast type for tcgen05.cp Op

// -----

llvm.func @f(%t : !llvm.ptr<6>, %d : i64) {
  nvvm.tcgen05.cp %t, %d {shape = #nvvm.tcgen05_cp_shape<shape_64x128b>}
  llvm.return
}

// CHECK: error: Shape 64x128b requires multicast warpx2_01_23 or warpx2_02_13 for tcgen05.cp Op

// -----

llvm.func @f(%t : !llvm.ptr<6>, %d : i64) {
  nvvm.tcgen05.cp %t, %d {shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
  llvm.return
}

// CHECK: error: Shape 32x128b requires multicast warpx4 for tcgen05.cp Op

// -----

llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en mask = %m8 {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1, vector<8xi32>)
  llvm.return
}

// CHECK: error: Disable Output Lane of length 8 is incompatible with CtaGroupAttr

// -----

llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<mxf8f6f4>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  llvm.return
}

// CHECK: error: expected ::mlir::NVVM::Tcgen05MMAKind to be one of: f8f6f4, i8, f16, tf32

// -----

llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en scale = %s {kind = #nvvm.tcgen05_mma_kind<f8f6f4>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1, i64)
  llvm.return
}

// Upstream accepts this; ptxas rejects it (a scale input on kind::i8 it takes and drops);
// see docs/fidelity.md.
// CHECK: error: Scale input accumulator can only be used with f16 and tf32 types

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_110a">} {
llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en scale = %s {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1, i64)
  llvm.return
}
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: Scale input accumulator is not supported on this architecture.

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_120a">} {
llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  llvm.return
}
}

// CHECK: error: 'nvvm.tcgen05.mma' op is not supported on sm_120a

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_100">} {
llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
  llvm.return
}
}

// CHECK: error: 'nvvm.tcgen05.fence' op is not supported on sm_100

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a">} {
llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.dealloc %d, %id : !llvm.ptr<6>, i32
  llvm.return
}
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: 'nvvm.tcgen05.dealloc' op is not supported on sm_90a

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_100f">} {
llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.shift %d : !llvm.ptr<6>
  llvm.return
}
}

// ptxas takes tcgen05.shift on the arch-conditional targets only; see docs/fidelity.md.
// CHECK: error: 'nvvm.tcgen05.shift' op is not supported on sm_100f

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_103a">} {
llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<i8>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  llvm.return
}
}

// Upstream rejects sm_103a altogether; see docs/fidelity.md.
// CHECK: error: Feature '.kind::i8' not supported on .target 'sm_103a'

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_100a", features = "+ptx80">} {
llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  llvm.return
}
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: Feature 'tcgen05.mma' requires PTX ISA .version 8.6 or later

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_100a", features = "+ptx80">} {
llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.relinquish_alloc_permit
  llvm.return
}
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: Feature 'tcgen05.relinquish_alloc_permit' requires PTX ISA .version 8.6 or later

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_100f", features = "+ptx86">} {
llvm.func @f(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %s : i64, %m4 : vector<4xi32>, %m8 : vector<8xi32>) {
  nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
  llvm.return
}
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: PTX .version 8.6 does not support .target sm_100f
