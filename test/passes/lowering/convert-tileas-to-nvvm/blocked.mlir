// Register tiles in a #nv_tileas.blocked layout: size_per_thread [1, 4], threads_per_warp
// [8, 4], warps_per_cta [4, 1] cover a 32x16 CTA tile, which a 32x32 tile repeats twice
// along columns. Thread t holds row 8 (t / 32) + (t % 32) / 4, columns 4 (t % 4) + 0..3
// and the same plus 16: eight elements at constant offsets from its origin.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#blk = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [8, 4], warps_per_cta = [4, 1], order = [1, 0]>
#s = #nv_tileas.shared<swizzle = 0, order = [1, 0]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @load_store(%out: !llvm.ptr<1>, %i: index, %j: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %buf = nv_tileas.alloc_tensor : tensor<32x32xf32, #s>
    %r = nv_tileas.convert_layout %buf : tensor<32x32xf32, #s> -> tensor<32x32xf32, #blk>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x128xf32>
    nv_tileas.tiled_store %r, %view[%i, %j] : tensor<32x32xf32, #blk> -> !nv_tileas.tiled_view<64x128xf32>
    nv_tileas.return
  }
  nv_tileas.kernel @splat_tma(%c: !nv_tileas.tiled_view<1024x1024xf32>, %i: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %t = arith.constant dense<2.5> : tensor<32x32xf32, #blk>
    nv_tileas.tiled_store %t, %c[%i, %i] : tensor<32x32xf32, #blk> -> !nv_tileas.tiled_view<1024x1024xf32>
    nv_tileas.return
  }
  nv_tileas.kernel @copy(%c: !nv_tileas.tiled_view<1024x1024xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %t = arith.constant dense<0.0> : tensor<32x32xf32, #blk>
    %buf = nv_tileas.alloc_tensor : tensor<32x32xf32, #nv_tileas.shared<swizzle = 0, order = [0, 1]>>
    %w = nv_tileas.copy %t, %buf : tensor<32x32xf32, #blk> -> tensor<32x32xf32, #nv_tileas.shared<swizzle = 0, order = [0, 1]>>
    nv_tileas.return
  }
  nv_tileas.kernel @elementwise(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %c0 = arith.constant 0 : index
    %buf = nv_tileas.alloc_tensor : tensor<32x32xf16, #s>
    %h = nv_tileas.convert_layout %buf : tensor<32x32xf16, #s> -> tensor<32x32xf16, #blk>
    %x = arith.extf %h : tensor<32x32xf16, #blk> to tensor<32x32xf32, #blk>
    %two = arith.constant dense<2.0> : tensor<32x32xf32, #blk>
    %y = arith.mulf %x, %two : tensor<32x32xf32, #blk>
    %z = arith.negf %y : tensor<32x32xf32, #blk>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<32x32xf32>
    nv_tileas.tiled_store %z, %view[%c0, %c0] : tensor<32x32xf32, #blk> -> !nv_tileas.tiled_view<32x32xf32>
    nv_tileas.return
  }
}

// The thread's origin, (8 warp + lane / 4, 4 (lane % 4)), is one address in the shared
// tile; its eight elements are loads at constant offsets (columns 0-3 and 16-19).
// CHECK-LABEL: llvm.func @load_store
// CHECK:      %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:      %[[T:.+]] = arith.andi %[[TID]], %{{.+}} : i32
// CHECK:      %[[LANE:.+]] = arith.andi %[[T]], %{{.+}} : i32
// CHECK:      %[[LANE_COL:.+]] = arith.andi %[[LANE]], %{{.+}} : i32
// CHECK:      %[[LANE_ROW:.+]] = arith.shrui %[[LANE]], %{{.+}} : i32
// CHECK:      %[[WARP:.+]] = arith.shrui %[[T]], %{{.+}} : i32
// CHECK:      %[[WARP_ROW:.+]] = arith.muli %[[WARP]], %{{.+}} : i32
// CHECK-NEXT: %[[ROW:.+]] = arith.addi %[[WARP_ROW]], %[[LANE_ROW]] : i32
// CHECK:      %[[COL:.+]] = arith.muli %[[LANE_COL]], %{{.+}} : i32
// CHECK:      %[[ROW_OFFSET:.+]] = arith.muli %[[ROW]], %{{.+}} : i32
// CHECK-NEXT: %[[OFFSET:.+]] = arith.addi %[[ROW_OFFSET]], %[[COL]] : i32
// CHECK-NEXT: %[[HERE:.+]] = llvm.getelementptr %{{.+}}[%[[OFFSET]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[P0:.+]] = llvm.getelementptr %[[HERE]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[V0:.+]] = llvm.load %[[P0]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: llvm.getelementptr %[[HERE]][1]
// CHECK:      llvm.getelementptr %[[HERE]][3]
// CHECK:      %[[P4:.+]] = llvm.getelementptr %[[HERE]][16]
// CHECK:      llvm.getelementptr %[[HERE]][19]
// CHECK:      %[[UNDEF:.+]] = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT: llvm.insertvalue %[[V0]], %[[UNDEF]][0]
// CHECK:      %[[TILE:.+]] = llvm.insertvalue %{{.+}}, %{{.+}}[7]
// The store: the view's row-major offset of (i + row, j + col), then one st.global per
// element at the same constant offsets.
// CHECK:      arith.index_cast %{{.+}} : index to i64
// CHECK-NEXT: arith.extui %{{.+}} : i32 to i64
// CHECK:      %[[STRIDE:.+]] = arith.constant 128 : i64
// CHECK:      %[[GLOBAL:.+]] = llvm.getelementptr %out[%{{.+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[W0:.+]] = llvm.extractvalue %[[TILE]][0]
// CHECK-NEXT: %[[Q0:.+]] = llvm.getelementptr %[[GLOBAL]][0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.store %[[W0]], %[[Q0]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK:      %[[W7:.+]] = llvm.extractvalue %[[TILE]][7]
// CHECK-NEXT: %[[Q7:.+]] = llvm.getelementptr %[[GLOBAL]][19]
// CHECK-NEXT: llvm.store %[[W7]], %[[Q7]]
// CHECK-NEXT: llvm.return

// A splat constant is its value in every element; a tile stored to a CUtensorMap is staged
// row-major in its slice of the shared buffer, then stored by TMA.
// CHECK-LABEL: llvm.func @splat_tma
// CHECK:      %[[V:.+]] = llvm.mlir.constant(2.500000e+00 : f32) : f32
// CHECK-NEXT: %[[U:.+]] = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT: llvm.insertvalue %[[V]], %[[U]][0]
// CHECK:      %[[SPLAT:.+]] = llvm.insertvalue %[[V]], %{{.+}}[7]
// CHECK:      %[[STAGING:.+]] = llvm.getelementptr %{{.+}}[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:      %[[AT:.+]] = llvm.getelementptr %[[STAGING]][%{{.+}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[S0:.+]] = llvm.extractvalue %[[SPLAT]][0]
// CHECK-NEXT: %[[A0:.+]] = llvm.getelementptr %[[AT]][0]
// CHECK-NEXT: llvm.store %[[S0]], %[[A0]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK:      llvm.getelementptr %[[AT]][19]
// CHECK:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier0
// CHECK:      scf.if
// CHECK-NEXT:   nvvm.cp.async.bulk.tensor.global.shared.cta %c, %[[STAGING]], box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>

// A copy into a column-major shared buffer: the origin's address is row + 32 col, and
// element (0, j) of the thread sits 32 j further.
// CHECK-LABEL: llvm.func @copy
// CHECK:      %[[ZERO:.+]] = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK:      %[[ROWS:.+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[COL_OFFSET:.+]] = arith.muli %{{.+}}, %[[ROWS]] : i32
// CHECK-NEXT: %[[OFFSET:.+]] = arith.addi %{{.+}}, %[[COL_OFFSET]] : i32
// CHECK-NEXT: %[[AT:.+]] = llvm.getelementptr %{{.+}}[%[[OFFSET]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[E0:.+]] = llvm.extractvalue %[[ZERO]][0]
// CHECK-NEXT: %[[A0:.+]] = llvm.getelementptr %[[AT]][0]
// CHECK-NEXT: llvm.store %[[E0]], %[[A0]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[E1:.+]] = llvm.extractvalue %[[ZERO]][1]
// CHECK-NEXT: %[[A1:.+]] = llvm.getelementptr %[[AT]][32]
// CHECK:      llvm.getelementptr %[[AT]][608]
// CHECK-NEXT: llvm.store
// CHECK-NEXT: llvm.return

// Elementwise arith: the same op on each of the thread's eight elements.
// CHECK-LABEL: llvm.func @elementwise
// CHECK:      %[[H:.+]] = llvm.insertvalue %{{.+}}, %{{.+}}[7] : !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>
// CHECK-NEXT: %[[H0:.+]] = llvm.extractvalue %[[H]][0] : !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>
// CHECK-NEXT: %[[X0:.+]] = arith.extf %[[H0]] : f16 to f32
// CHECK-COUNT-7: arith.extf
// CHECK:      %[[X:.+]] = llvm.insertvalue %{{.+}}, %{{.+}}[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK:      %[[TWO:.+]] = llvm.insertvalue %{{.+}}, %{{.+}}[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT: %[[A0:.+]] = llvm.extractvalue %[[X]][0]
// CHECK-NEXT: %[[B0:.+]] = llvm.extractvalue %[[TWO]][0]
// CHECK-NEXT: %[[Y0:.+]] = arith.mulf %[[A0]], %[[B0]] : f32
// CHECK-COUNT-7: arith.mulf
// CHECK:      %[[Y:.+]] = llvm.insertvalue %{{.+}}, %{{.+}}[7]
// CHECK-NEXT: %[[C0:.+]] = llvm.extractvalue %[[Y]][0]
// CHECK-NEXT: arith.negf %[[C0]] : f32
// CHECK-COUNT-7: arith.negf
// CHECK-NOT:  arith.negf
// CHECK:      llvm.return

// PTX-LABEL: .visible .entry load_store(
// PTX:      ld.shared.f32 {{.*}}[%rd[[AT:[0-9]+]]];
// PTX-NEXT: ld.shared.f32 {{.*}}[%rd[[AT]]+4];
// PTX:      ld.shared.f32 {{.*}}[%rd[[AT]]+76];
// PTX:      st.global.f32 [%rd[[TO:[0-9]+]]], %f{{[0-9]+}};
// PTX:      st.global.f32 [%rd[[TO]]+76], %f{{[0-9]+}};
// PTX-LABEL: .visible .entry splat_tma(
// PTX:      st.shared.f32 [%rd[[AT:[0-9]+]]], %f{{[0-9]+}};
// PTX:      st.shared.f32 [%rd[[AT]]+76], %f{{[0-9]+}};
// PTX:      cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX-LABEL: .visible .entry elementwise(
// PTX:      cvt.f32.f16
// PTX:      mul.f32
// PTX:      neg.f32
// PTX:      st.global.f32
