// RUN: TILEAS_ROUNDTRIP
// RUN: TILEAS_GENERIC_ROUNDTRIP
// The CHECK lines are what upstream mlir-opt 22.1.8 prints for this input, custom and
// generic, with SSA names elided: both tools must agree op for op.

// tcgen05: tensor memory management, fences, commit, copy and MMA.

llvm.func @tcgen05_memory(%g : !llvm.ptr, %s : !llvm.ptr<3>, %n : i32, %t : !llvm.ptr<6>, %mask : i16, %desc : i64) {
  nvvm.tcgen05.alloc %g, %n : !llvm.ptr, i32
  nvvm.tcgen05.alloc %s, %n {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
  nvvm.tcgen05.dealloc %t, %n : !llvm.ptr<6>, i32
  nvvm.tcgen05.dealloc %t, %n {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>, i32
  nvvm.tcgen05.relinquish_alloc_permit
  nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
  nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
  nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
  nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
  nvvm.tcgen05.wait #nvvm.tcgen05_wait<store>
  nvvm.tcgen05.commit %g : !llvm.ptr
  nvvm.tcgen05.commit %s, multicast_mask = %mask {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
  nvvm.tcgen05.cp %t, %desc {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}
  nvvm.tcgen05.cp %t, %desc {shape = #nvvm.tcgen05_cp_shape<shape_4x256b>, group = #nvvm.cta_group<cta_2>}
  nvvm.tcgen05.cp %t, %desc {shape = #nvvm.tcgen05_cp_shape<shape_64x128b>, multicast = #nvvm.tcgen05_cp_multicast<warpx2_01_23>, srcFormat = #nvvm.tcgen05_cp_src_fmt<b6x16_p32>}
  nvvm.tcgen05.cp %t, %desc {shape = #nvvm.tcgen05_cp_shape<shape_32x128b>, multicast = #nvvm.tcgen05_cp_multicast<warpx4>, srcFormat = #nvvm.tcgen05_cp_src_fmt<b4x16_p64>}
  llvm.return
}

// CHECK: nvvm.tcgen05.alloc %{{.*}}, %{{.*}} : !llvm.ptr, i32
// CHECK: nvvm.tcgen05.alloc %{{.*}}, %{{.*}} {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
// CHECK: nvvm.tcgen05.dealloc %{{.*}}, %{{.*}} : !llvm.ptr<6>, i32
// CHECK: nvvm.tcgen05.dealloc %{{.*}}, %{{.*}} {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>, i32
// CHECK: nvvm.tcgen05.relinquish_alloc_permit
// CHECK: nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
// CHECK: nvvm.tcgen05.fence <before>
// CHECK: nvvm.tcgen05.fence <after>
// CHECK: nvvm.tcgen05.wait <load>
// CHECK: nvvm.tcgen05.wait <store>
// CHECK: nvvm.tcgen05.commit %{{.*}} : !llvm.ptr
// CHECK: nvvm.tcgen05.commit %{{.*}}, multicast_mask = %{{.*}} {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// CHECK: nvvm.tcgen05.cp %{{.*}}, %{{.*}} {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}
// CHECK: nvvm.tcgen05.cp %{{.*}}, %{{.*}} {group = #nvvm.cta_group<cta_2>, shape = #nvvm.tcgen05_cp_shape<shape_4x256b>}
// CHECK: nvvm.tcgen05.cp %{{.*}}, %{{.*}} {multicast = #nvvm.tcgen05_cp_multicast<warpx2_01_23>, shape = #nvvm.tcgen05_cp_shape<shape_64x128b>, srcFormat = #nvvm.tcgen05_cp_src_fmt<b6x16_p32>}
// CHECK: nvvm.tcgen05.cp %{{.*}}, %{{.*}} {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>, srcFormat = #nvvm.tcgen05_cp_src_fmt<b4x16_p64>}
// CHECK-GENERIC: "nvvm.tcgen05.alloc"(%{{.*}}, %{{.*}}) <{group = #nvvm.cta_group<cta_1>}> : (!llvm.ptr, i32) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.alloc"(%{{.*}}, %{{.*}}) <{group = #nvvm.cta_group<cta_2>}> : (!llvm.ptr<3>, i32) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.dealloc"(%{{.*}}, %{{.*}}) <{group = #nvvm.cta_group<cta_1>}> : (!llvm.ptr<6>, i32) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.dealloc"(%{{.*}}, %{{.*}}) <{group = #nvvm.cta_group<cta_2>}> : (!llvm.ptr<6>, i32) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.relinquish_alloc_permit"() <{group = #nvvm.cta_group<cta_1>}> : () -> ()
// CHECK-GENERIC: "nvvm.tcgen05.relinquish_alloc_permit"() <{group = #nvvm.cta_group<cta_2>}> : () -> ()
// CHECK-GENERIC: "nvvm.tcgen05.fence"() <{kind = #nvvm.tcgen05_fence<before>}> : () -> ()
// CHECK-GENERIC: "nvvm.tcgen05.fence"() <{kind = #nvvm.tcgen05_fence<after>}> : () -> ()
// CHECK-GENERIC: "nvvm.tcgen05.wait"() <{kind = #nvvm.tcgen05_wait<load>}> : () -> ()
// CHECK-GENERIC: "nvvm.tcgen05.wait"() <{kind = #nvvm.tcgen05_wait<store>}> : () -> ()
// CHECK-GENERIC: "nvvm.tcgen05.commit"(%{{.*}}) <{group = #nvvm.cta_group<cta_1>}> : (!llvm.ptr) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.commit"(%{{.*}}, %{{.*}}) <{group = #nvvm.cta_group<cta_2>}> : (!llvm.ptr<3>, i16) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.cp"(%{{.*}}, %{{.*}}) <{group = #nvvm.cta_group<cta_1>, multicast = #nvvm.tcgen05_cp_multicast<none>, shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}> : (!llvm.ptr<6>, i64) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.cp"(%{{.*}}, %{{.*}}) <{group = #nvvm.cta_group<cta_2>, multicast = #nvvm.tcgen05_cp_multicast<none>, shape = #nvvm.tcgen05_cp_shape<shape_4x256b>}> : (!llvm.ptr<6>, i64) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.cp"(%{{.*}}, %{{.*}}) <{group = #nvvm.cta_group<cta_1>, multicast = #nvvm.tcgen05_cp_multicast<warpx2_01_23>, shape = #nvvm.tcgen05_cp_shape<shape_64x128b>, srcFormat = #nvvm.tcgen05_cp_src_fmt<b6x16_p32>}> : (!llvm.ptr<6>, i64) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.cp"(%{{.*}}, %{{.*}}) <{group = #nvvm.cta_group<cta_1>, multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>, srcFormat = #nvvm.tcgen05_cp_src_fmt<b4x16_p64>}> : (!llvm.ptr<6>, i64) -> ()

// -----


llvm.func @tcgen05_mma(%d : !llvm.ptr<6>, %a : !llvm.ptr<6>, %adesc : i64, %bdesc : i64, %idesc : i32, %acc : i1, %scale : i64, %lanes4 : vector<4xi32>, %lanes8 : vector<8xi32>) {
  nvvm.tcgen05.mma %d, %adesc, %bdesc, %idesc, %acc {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  nvvm.tcgen05.mma %d, %a, %bdesc, %idesc, %acc {kind = #nvvm.tcgen05_mma_kind<tf32>, ctaGroup = #nvvm.cta_group<cta_2>, collectorOp = #nvvm.tcgen05_mma_collectorop<lastuse>, aShift} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
  nvvm.tcgen05.mma %d, %adesc, %bdesc, %idesc, %acc scale = %scale {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>, collectorOp = #nvvm.tcgen05_mma_collectorop<fill>} : (!llvm.ptr<6>, i64, i64, i32, i1, i64)
  nvvm.tcgen05.mma %d, %adesc, %bdesc, %idesc, %acc mask = %lanes4 {kind = #nvvm.tcgen05_mma_kind<i8>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1, vector<4xi32>)
  nvvm.tcgen05.mma %d, %a, %bdesc, %idesc, %acc scale = %scale mask = %lanes8 {kind = #nvvm.tcgen05_mma_kind<tf32>, ctaGroup = #nvvm.cta_group<cta_2>, collectorOp = #nvvm.tcgen05_mma_collectorop<use>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, i64, vector<8xi32>)
  llvm.return
}

// CHECK: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
// CHECK: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {aShift, collectorOp = #nvvm.tcgen05_mma_collectorop<lastuse>, ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<tf32>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
// CHECK: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} scale = %{{.*}} {collectorOp = #nvvm.tcgen05_mma_collectorop<fill>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1, i64)
// CHECK: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} mask = %{{.*}} {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<i8>} : (!llvm.ptr<6>, i64, i64, i32, i1, vector<4xi32>)
// CHECK: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} scale = %{{.*}} mask = %{{.*}} {collectorOp = #nvvm.tcgen05_mma_collectorop<use>, ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<tf32>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, i64, vector<8xi32>)
// CHECK-GENERIC: "nvvm.tcgen05.mma"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{collectorOp = #nvvm.tcgen05_mma_collectorop<discard>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>}> : (!llvm.ptr<6>, i64, i64, i32, i1) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.mma"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{aShift, collectorOp = #nvvm.tcgen05_mma_collectorop<lastuse>, ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<tf32>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>}> : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.mma"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{collectorOp = #nvvm.tcgen05_mma_collectorop<fill>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 0>}> : (!llvm.ptr<6>, i64, i64, i32, i1, i64) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.mma"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{collectorOp = #nvvm.tcgen05_mma_collectorop<discard>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<i8>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>}> : (!llvm.ptr<6>, i64, i64, i32, i1, vector<4xi32>) -> ()
// CHECK-GENERIC: "nvvm.tcgen05.mma"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{collectorOp = #nvvm.tcgen05_mma_collectorop<use>, ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<tf32>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>}> : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, i64, vector<8xi32>) -> ()
