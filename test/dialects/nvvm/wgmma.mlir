// RUN: TILEAS_ROUNDTRIP
// RUN: TILEAS_GENERIC_ROUNDTRIP
// The CHECK lines are what upstream mlir-opt 22.1.8 prints for this input, custom and
// generic, with SSA names elided: both tools must agree op for op.

// The WGMMA ops, including every operand family of `mma_async`.

llvm.func @wgmma_sync() {
  nvvm.wgmma.fence.aligned
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 0
  nvvm.wgmma.wait.group.sync.aligned 1
  llvm.return
}

// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-GENERIC: "nvvm.wgmma.fence.aligned"() : () -> ()
// CHECK-GENERIC: "nvvm.wgmma.commit.group.sync.aligned"() : () -> ()
// CHECK-GENERIC: "nvvm.wgmma.wait.group.sync.aligned"() <{group = 0 : i64}> : () -> ()
// CHECK-GENERIC: "nvvm.wgmma.wait.group.sync.aligned"() <{group = 1 : i64}> : () -> ()

// -----


llvm.func @wgmma_f32_f16(%da : i64, %db : i64, %acc : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
  %0 = nvvm.wgmma.mma_async %da, %db, %acc, #nvvm.shape<m = 64, n = 16, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<neg>, <col>], B [<f16>, #nvvm.wgmma_scale_in<neg>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  %1 = nvvm.wgmma.mma_async %da, %db, %0, #nvvm.shape<m = 64, n = 16, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<bf16>, #nvvm.wgmma_scale_in<one>, <row>], B [<bf16>, #nvvm.wgmma_scale_in<one>, <row>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  %2 = nvvm.wgmma.mma_async %da, %db, %1, <m = 64, n = 16, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  %3 = nvvm.wgmma.mma_async %da, %db, %2, #nvvm.shape<m = 64, n = 16, k = 32>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<e4m3>, #nvvm.wgmma_scale_in<one>, <row>], B [<e5m2>, #nvvm.wgmma_scale_in<neg>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return
}

// CHECK: %{{.*}} = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 16, k = 16>, D[<f32>, <zero>], A[<f16>, <neg>, <col>], B[<f16>, <neg>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: %{{.*}} = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: %{{.*}} = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 16, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: %{{.*}} = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 16, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <neg>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-GENERIC: %{{.*}} = "nvvm.wgmma.mma_async"(%{{.*}}, %{{.*}}, %{{.*}}) <{layoutA = #nvvm.mma_layout<col>, layoutB = #nvvm.mma_layout<col>, scaleA = #nvvm.wgmma_scale_in<neg>, scaleB = #nvvm.wgmma_scale_in<neg>, scaleD = #nvvm.wgmma_scale_out<zero>, shape = #nvvm.shape<m = 64, n = 16, k = 16>, typeA = #nvvm.wgmma_type<f16>, typeB = #nvvm.wgmma_type<f16>, typeD = #nvvm.wgmma_type<f32>}> : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, i64, i64) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-GENERIC: %{{.*}} = "nvvm.wgmma.mma_async"(%{{.*}}, %{{.*}}, %{{.*}}) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, scaleA = #nvvm.wgmma_scale_in<one>, scaleB = #nvvm.wgmma_scale_in<one>, scaleD = #nvvm.wgmma_scale_out<one>, shape = #nvvm.shape<m = 64, n = 16, k = 16>, typeA = #nvvm.wgmma_type<bf16>, typeB = #nvvm.wgmma_type<bf16>, typeD = #nvvm.wgmma_type<f32>}> : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, i64, i64) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-GENERIC: %{{.*}} = "nvvm.wgmma.mma_async"(%{{.*}}, %{{.*}}, %{{.*}}) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, scaleA = #nvvm.wgmma_scale_in<one>, scaleB = #nvvm.wgmma_scale_in<one>, scaleD = #nvvm.wgmma_scale_out<one>, shape = #nvvm.shape<m = 64, n = 16, k = 8>, typeA = #nvvm.wgmma_type<tf32>, typeB = #nvvm.wgmma_type<tf32>, typeD = #nvvm.wgmma_type<f32>}> : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, i64, i64) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-GENERIC: %{{.*}} = "nvvm.wgmma.mma_async"(%{{.*}}, %{{.*}}, %{{.*}}) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, scaleA = #nvvm.wgmma_scale_in<one>, scaleB = #nvvm.wgmma_scale_in<neg>, scaleD = #nvvm.wgmma_scale_out<one>, shape = #nvvm.shape<m = 64, n = 16, k = 32>, typeA = #nvvm.wgmma_type<e4m3>, typeB = #nvvm.wgmma_type<e5m2>, typeD = #nvvm.wgmma_type<f32>}> : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, i64, i64) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>

// -----


llvm.func @wgmma_f16(%da : i64, %db : i64, %acc : !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>) {
  %0 = nvvm.wgmma.mma_async %da, %db, %acc, #nvvm.shape<m = 64, n = 32, k = 16>, D [<f16>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)> -> !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>
  llvm.return
}

// CHECK: %{{.*}} = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 32, k = 16>, D[<f16>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)> -> !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>
// CHECK-GENERIC: %{{.*}} = "nvvm.wgmma.mma_async"(%{{.*}}, %{{.*}}, %{{.*}}) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, scaleA = #nvvm.wgmma_scale_in<one>, scaleB = #nvvm.wgmma_scale_in<one>, scaleD = #nvvm.wgmma_scale_out<one>, shape = #nvvm.shape<m = 64, n = 32, k = 16>, typeA = #nvvm.wgmma_type<f16>, typeB = #nvvm.wgmma_type<f16>, typeD = #nvvm.wgmma_type<f16>}> : (!llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>, i64, i64) -> !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>

// -----


llvm.func @wgmma_s32(%da : i64, %db : i64, %acc : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>) {
  %0 = nvvm.wgmma.mma_async %da, %db, %acc, #nvvm.shape<m = 64, n = 24, k = 32>, D [<s32>, #nvvm.wgmma_scale_out<zero>, <satfinite>], A [<s8>, #nvvm.wgmma_scale_in<one>, <row>], B [<u8>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
  %1 = nvvm.wgmma.mma_async %da, %db, %0, #nvvm.shape<m = 64, n = 24, k = 256>, D [<s32>, #nvvm.wgmma_scale_out<one>, <wrapped>], A [<b1>, #nvvm.wgmma_scale_in<one>, <row>], B [<b1>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
  llvm.return
}

// CHECK: %{{.*}} = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 24, k = 32>, D[<s32>, <zero>, <satfinite>], A[<s8>, <one>, <row>], B[<u8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
// CHECK: %{{.*}} = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 24, k = 256>, D[<s32>, <one>, <wrapped>], A[<b1>, <one>, <row>], B[<b1>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
// CHECK-GENERIC: %{{.*}} = "nvvm.wgmma.mma_async"(%{{.*}}, %{{.*}}, %{{.*}}) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, satfinite = #nvvm.mma_int_overflow<satfinite>, scaleA = #nvvm.wgmma_scale_in<one>, scaleB = #nvvm.wgmma_scale_in<one>, scaleD = #nvvm.wgmma_scale_out<zero>, shape = #nvvm.shape<m = 64, n = 24, k = 32>, typeA = #nvvm.wgmma_type<s8>, typeB = #nvvm.wgmma_type<u8>, typeD = #nvvm.wgmma_type<s32>}> : (!llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>, i64, i64) -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
// CHECK-GENERIC: %{{.*}} = "nvvm.wgmma.mma_async"(%{{.*}}, %{{.*}}, %{{.*}}) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, satfinite = #nvvm.mma_int_overflow<wrapped>, scaleA = #nvvm.wgmma_scale_in<one>, scaleB = #nvvm.wgmma_scale_in<one>, scaleD = #nvvm.wgmma_scale_out<one>, shape = #nvvm.shape<m = 64, n = 24, k = 256>, typeA = #nvvm.wgmma_type<b1>, typeB = #nvvm.wgmma_type<b1>, typeD = #nvvm.wgmma_type<s32>}> : (!llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>, i64, i64) -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
