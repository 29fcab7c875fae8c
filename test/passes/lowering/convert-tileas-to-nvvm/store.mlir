// An accumulator stored to a plain global pointer: each thread of the warpgroup stores the
// values it holds, at a constant offset from its first element's address
// (row0 = 16 warp + lane / 4, col0 = 2 (lane % 4), plus the view offset).
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 8, 16]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @store(%out: !llvm.ptr<1>, %i: index, %j: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
    %c = arith.constant dense<3.0> : tensor<128x8xf32, #acc>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<256x16xf32>
    nv_tileas.tiled_store %c, %view[%i, %j] : tensor<128x8xf32, #acc> -> !nv_tileas.tiled_view<256x16xf32>
    nv_tileas.return
  }
}

// CHECK:      %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[TID64:.+]] = llvm.zext %[[TID]] : i32 to i64
// CHECK-NEXT: %[[C128:.+]] = llvm.mlir.constant(128) : i64
// CHECK-NEXT: %[[T:.+]] = llvm.urem %[[TID64]], %[[C128]] : i64
// CHECK:      %[[WARP:.+]] = llvm.udiv %[[T]], %{{.+}} : i64
// CHECK:      %[[LANE:.+]] = llvm.urem %[[T]], %{{.+}} : i64
// CHECK:      %[[ROW_BASE:.+]] = llvm.mul %[[WARP]], %{{.+}} : i64
// CHECK:      %[[QUAD:.+]] = llvm.udiv %[[LANE]], %{{.+}} : i64
// CHECK-NEXT: %[[ROW0:.+]] = llvm.add %[[ROW_BASE]], %[[QUAD]] : i64
// CHECK:      %[[I:.+]] = arith.index_cast %{{.+}} : index to i64
// CHECK-NEXT: %[[J:.+]] = arith.index_cast %{{.+}} : index to i64
// CHECK-NEXT: %[[ROW:.+]] = llvm.add %[[ROW0]], %[[I]] : i64
// CHECK-NEXT: %[[COL:.+]] = llvm.add %{{.+}}, %[[J]] : i64
// CHECK-NEXT: %[[STRIDE:.+]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT: %[[ROWS:.+]] = llvm.mul %[[ROW]], %[[STRIDE]] : i64
// CHECK-NEXT: %[[OFFSET:.+]] = llvm.add %[[ROWS]], %[[COL]] : i64
// CHECK-NEXT: %[[BASE:.+]] = llvm.getelementptr %out[%[[OFFSET]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// Tile 0 (rows 0-63): d0, d1 at (row0, col0 + 0/1), d2, d3 eight rows down (8 * 16).
// CHECK:      llvm.getelementptr %[[BASE]][0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK:      llvm.getelementptr %[[BASE]][1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK:      llvm.getelementptr %[[BASE]][128] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK:      llvm.getelementptr %[[BASE]][129] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// Tile 1 (rows 64-127): 64 * 16 further.
// CHECK:      llvm.getelementptr %[[BASE]][1024] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK:      llvm.getelementptr %[[BASE]][1025] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK:      llvm.getelementptr %[[BASE]][1152] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK:      llvm.getelementptr %[[BASE]][1153] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK-NOT:  llvm.getelementptr

// PTX:      st.global.f32 [%rd[[B:[0-9]+]]], %f{{[0-9]+}};
// PTX-NEXT: st.global.f32 [%rd[[B]]+4], %f{{[0-9]+}};
// PTX-NEXT: st.global.f32 [%rd[[B]]+512], %f{{[0-9]+}};
// PTX-NEXT: st.global.f32 [%rd[[B]]+516], %f{{[0-9]+}};
// PTX-NEXT: st.global.f32 [%rd[[B]]+4096], %f{{[0-9]+}};
// PTX-NEXT: st.global.f32 [%rd[[B]]+4100], %f{{[0-9]+}};
// PTX-NEXT: st.global.f32 [%rd[[B]]+4608], %f{{[0-9]+}};
// PTX-NEXT: st.global.f32 [%rd[[B]]+4612], %f{{[0-9]+}};
