// The epilogue: a zero accumulator carried by a K loop, copied into a row-major shared
// buffer (one st.shared per fragment value) and stored by TMA (fence, agent barrier,
// the leader's store, commit and wait, barrier).
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
#sc = #nv_tileas.shared<swizzle = 0, order = [1, 0]>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k(%c: !nv_tileas.tiled_view<1024x1024xf32>, %i32: i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %i = arith.index_cast %i32 : i32 to index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #acc>
    %acc = scf.for %k = %c0 to %i step %c1 iter_args(%a = %zero) -> (tensor<64x64xf32, #acc>) {
      scf.yield %a : tensor<64x64xf32, #acc>
    }
    %buf = nv_tileas.alloc_tensor : tensor<64x64xf32, #sc>
    %w = nv_tileas.copy %acc, %buf : tensor<64x64xf32, #acc> -> tensor<64x64xf32, #sc>
    nv_tileas.tiled_store %w, %c[%i, %c0] : tensor<64x64xf32, #sc> -> !nv_tileas.tiled_view<1024x1024xf32>
    nv_tileas.return
  }
}

// CHECK:      %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>)>
// CHECK-NEXT: %[[ACC:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[ZERO]]) -> (!llvm.struct<(!llvm.struct<(f32
// CHECK-NEXT:   scf.yield %[[A]] : !llvm.struct<(!llvm.struct<(f32
// CHECK-NEXT: }
// The thread's first element: row 16 (warp % 4) + lane / 4, column 2 (lane % 4), in a
// 64-wide f32 buffer; value j of the m64n64 fragment sits at a constant offset from it.
// CHECK:      %[[V0:.*]] = llvm.extractvalue %[[ACC]][0, 0]
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %[[HERE:.*]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: llvm.store %[[V0]], %[[P0]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[V1:.*]] = llvm.extractvalue %[[ACC]][0, 1]
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %[[HERE]][4]
// CHECK-NEXT: llvm.store %[[V1]], %[[P1]]
// CHECK-NEXT: %[[V2:.*]] = llvm.extractvalue %[[ACC]][0, 2]
// CHECK-NEXT: %[[P2:.*]] = llvm.getelementptr %[[HERE]][2048]
// CHECK:      %[[V31:.*]] = llvm.extractvalue %[[ACC]][0, 31]
// CHECK-NEXT: %[[P31:.*]] = llvm.getelementptr %[[HERE]][2276]
// CHECK:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier0
// CHECK:      scf.if
// CHECK-NEXT:   nvvm.cp.async.bulk.tensor.global.shared.cta %c, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK-NEXT:   llvm.inline_asm has_side_effects "cp.async.bulk.commit_group;\0A\09cp.async.bulk.wait_group.read 0;", ""
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.barrier0

// PTX:      st.shared.f32 [%rd{{[0-9]+}}], %f{{[0-9]+}};
// PTX:      st.shared.f32 [%rd{{[0-9]+}}+2276], %f{{[0-9]+}};
// PTX:      fence.proxy.async.shared::cta;
// PTX:      cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [k_smem];
// PTX:      cp.async.bulk.commit_group;
// PTX:      cp.async.bulk.wait_group.read 0;
