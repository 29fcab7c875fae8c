// RUN: tileas-opt %s --split-input-file | filecheck %s
// The tcgen05 ops verify on every target ptxas 13.5 assembles them for (sm_100a/f,
// sm_103a/f, sm_110a/f), where upstream takes sm_100a and sm_101a / sm_110a only; a
// PTX version feature that has tcgen05 on the target passes. docs/fidelity.md,
// "tcgen05 gating".

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_100f", features = "+ptx88">} {
llvm.func @f(%s : !llvm.ptr<3>, %n : i32, %d : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %scale : i64) {
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  nvvm.tcgen05.relinquish_alloc_permit
  nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  nvvm.tcgen05.commit %s : !llvm.ptr<3>
  %r = nvvm.tcgen05.ld %d {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<4xi32>
  nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
  nvvm.tcgen05.dealloc %d, %n : !llvm.ptr<6>, i32
  llvm.return
}
}

// CHECK: nvvm.target = #nvvm.target<chip = "sm_100f", features = "+ptx88">
// CHECK: nvvm.tcgen05.mma
// CHECK: nvvm.tcgen05.dealloc

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_103a">} {
llvm.func @f(%s : !llvm.ptr<3>, %n : i32, %d : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %scale : i64) {
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  nvvm.tcgen05.relinquish_alloc_permit
  nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  nvvm.tcgen05.commit %s : !llvm.ptr<3>
  %r = nvvm.tcgen05.ld %d {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<4xi32>
  nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
  nvvm.tcgen05.dealloc %d, %n : !llvm.ptr<6>, i32
  nvvm.tcgen05.shift %d : !llvm.ptr<6>
  llvm.return
}
}

// CHECK: nvvm.target = #nvvm.target<chip = "sm_103a">
// CHECK: nvvm.tcgen05.mma
// CHECK: nvvm.tcgen05.dealloc

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_103f">} {
llvm.func @f(%s : !llvm.ptr<3>, %n : i32, %d : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %scale : i64) {
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  nvvm.tcgen05.relinquish_alloc_permit
  nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  nvvm.tcgen05.commit %s : !llvm.ptr<3>
  %r = nvvm.tcgen05.ld %d {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<4xi32>
  nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
  nvvm.tcgen05.dealloc %d, %n : !llvm.ptr<6>, i32
  llvm.return
}
}

// CHECK: nvvm.target = #nvvm.target<chip = "sm_103f">
// CHECK: nvvm.tcgen05.mma
// CHECK: nvvm.tcgen05.dealloc

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_110a", features = "+ptx90">} {
llvm.func @f(%s : !llvm.ptr<3>, %n : i32, %d : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %scale : i64) {
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  nvvm.tcgen05.relinquish_alloc_permit
  nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  nvvm.tcgen05.commit %s : !llvm.ptr<3>
  %r = nvvm.tcgen05.ld %d {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<4xi32>
  nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
  nvvm.tcgen05.dealloc %d, %n : !llvm.ptr<6>, i32
  nvvm.tcgen05.shift %d : !llvm.ptr<6>
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en scale = %scale {kind = #nvvm.tcgen05_mma_kind<i8>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1, i64)
  llvm.return
}
}

// CHECK: nvvm.target = #nvvm.target<chip = "sm_110a", features = "+ptx90">
// CHECK: nvvm.tcgen05.mma
// CHECK: nvvm.tcgen05.dealloc

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_110f">} {
llvm.func @f(%s : !llvm.ptr<3>, %n : i32, %d : !llvm.ptr<6>, %ad : i64, %b : i64, %id : i32, %en : i1, %scale : i64) {
  nvvm.tcgen05.alloc %s, %n : !llvm.ptr<3>, i32
  nvvm.tcgen05.relinquish_alloc_permit
  nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
  nvvm.tcgen05.mma %d, %ad, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  nvvm.tcgen05.commit %s : !llvm.ptr<3>
  %r = nvvm.tcgen05.ld %d {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<4xi32>
  nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
  nvvm.tcgen05.dealloc %d, %n : !llvm.ptr<6>, i32
  llvm.return
}
}

// CHECK: nvvm.target = #nvvm.target<chip = "sm_110f">
// CHECK: nvvm.tcgen05.mma
// CHECK: nvvm.tcgen05.dealloc
