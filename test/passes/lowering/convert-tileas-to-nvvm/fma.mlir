// A dot with the universal FMA atom on register tiles, in one warp. A (8x4), B (4x32) and
// C (8x32) each have their own blocked layout; C's gives thread t rows 2 (t / 8) + 0..1
// and columns 4 (t % 8) + 0..3. A and B go through the dot's shared scratch (A at 0, B at
// 128 bytes) between two barriers; then, per k, the thread loads A[r][k] for its two rows
// and B[k][c] for its four columns and runs eight FMAs.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#la = #nv_tileas.blocked<size_per_thread = [1, 1], threads_per_warp = [8, 4], warps_per_cta = [1, 1], order = [1, 0]>
#lb = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [1, 1], order = [1, 0]>
#lc = #nv_tileas.blocked<size_per_thread = [2, 4], threads_per_warp = [4, 8], warps_per_cta = [1, 1], order = [1, 0]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @fma(%out: !llvm.ptr<1>, %i: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 1 : i32} {
    %a = arith.constant dense<1.0> : tensor<8x4xf32, #la>
    %b = arith.constant dense<2.0> : tensor<4x32xf32, #lb>
    %c = arith.constant dense<0.0> : tensor<8x32xf32, #lc>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.universal_fma<f32, f32, f32> wait_group = 0 : tensor<8x4xf32, #la>, tensor<4x32xf32, #lb> -> tensor<8x32xf32, #lc>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<8x32xf32>
    nv_tileas.tiled_store %d, %view[%i, %i] : tensor<8x32xf32, #lc> -> !nv_tileas.tiled_view<8x32xf32>
    nv_tileas.return
  }
}

// CHECK:      llvm.mlir.global internal @fma_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<640 x i8>
// CHECK:      %[[ZERO:.+]] = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK:      %[[SCRATCH:.+]] = llvm.getelementptr %{{.+}}[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[B_SCRATCH:.+]] = llvm.getelementptr %[[SCRATCH]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: nvvm.barrier0
// CHECK:      llvm.getelementptr %[[SCRATCH]][%{{.+}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK:      llvm.store
// CHECK:      llvm.getelementptr %[[B_SCRATCH]][%{{.+}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-COUNT-4: llvm.store
// CHECK-NEXT: nvvm.barrier0
// C's origin: row 2 (lane / 8) reads A from row * 4, column 4 (lane % 8) reads B from it.
// CHECK:      %[[A_HERE:.+]] = llvm.getelementptr %[[SCRATCH]][%{{.+}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[B_HERE:.+]] = llvm.getelementptr %[[B_SCRATCH]][%{{.+}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[C0:.+]] = llvm.extractvalue %[[ZERO]][0]
// CHECK:      %[[C7:.+]] = llvm.extractvalue %[[ZERO]][7]
// k = 0: A[0][0] and A[1][0] (offsets 0 and 4), B[0][0..3].
// CHECK-NEXT: %[[PA0:.+]] = llvm.getelementptr %[[A_HERE]][0]
// CHECK-NEXT: %[[A0:.+]] = llvm.load %[[PA0]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[PA1:.+]] = llvm.getelementptr %[[A_HERE]][4]
// CHECK-NEXT: %[[A1:.+]] = llvm.load %[[PA1]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[PB0:.+]] = llvm.getelementptr %[[B_HERE]][0]
// CHECK-NEXT: %[[B0:.+]] = llvm.load %[[PB0]] : !llvm.ptr<3> -> f32
// CHECK:      %[[PB3:.+]] = llvm.getelementptr %[[B_HERE]][3]
// CHECK-NEXT: %[[B3:.+]] = llvm.load %[[PB3]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[D0:.+]] = llvm.intr.fma(%[[A0]], %[[B0]], %[[C0]]) : (f32, f32, f32) -> f32
// CHECK-COUNT-6: llvm.intr.fma
// CHECK-NEXT: %[[D7:.+]] = llvm.intr.fma(%[[A1]], %[[B3]], %[[C7]]) : (f32, f32, f32) -> f32
// k = 1: A at offsets 1 and 5, B one row (32 elements) further.
// CHECK-NEXT: llvm.getelementptr %[[A_HERE]][1]
// CHECK:      llvm.getelementptr %[[A_HERE]][5]
// CHECK:      llvm.getelementptr %[[B_HERE]][32]
// CHECK:      llvm.intr.fma(%{{.+}}, %{{.+}}, %[[D0]])
// k = 3, the last: B's row 3.
// CHECK:      llvm.getelementptr %[[B_HERE]][99]
// CHECK-COUNT-8: llvm.intr.fma
// CHECK-NEXT: llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NOT:  llvm.intr.fma
// CHECK:      llvm.return

// PTX:      bar.sync 0;
// PTX:      bar.sync 0;
// PTX-COUNT-32: fma.rn.f32
// PTX-NOT:  fma.rn.f32
// PTX:      st.global.f32
