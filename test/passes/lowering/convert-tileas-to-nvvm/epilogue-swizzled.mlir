// An accumulator split over two warpgroups (warps_per_cta = [8, 1]: 64 rows each), staged
// in a 128-byte swizzled buffer and stored by TMA one 128x32 panel at a time. Each thread
// stores adjacent value pairs with st.shared.v2 at their swizzled addresses: per distinct
// offset modulo 1024 (0, 32, 64, 96 bytes into a 128-byte panel row) one runtime swizzle
// of the thread's offset (bits 4-6 ^= bits 7-9), the rest an immediate; so a warp's
// stores spread over every bank. The boxes are the four panels (16 KiB apart), at columns
// n, n + 32, n + 64, n + 96.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#acc = #nv_tileas.mma<warps_per_cta = [8, 1], instr_shape = [64, 128, 16]>
#sc = #nv_tileas.shared<swizzle = 128, order = [1, 0]>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k(%c: !nv_tileas.tiled_view<1024x1024xf32>, %i32: i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 8 : i32} {
    %i = arith.index_cast %i32 : i32 to index
    %c0 = arith.constant 0 : index
    %acc = arith.constant dense<1.0> : tensor<128x128xf32, #acc>
    %buf = nv_tileas.alloc_tensor : tensor<128x128xf32, #sc>
    %w = nv_tileas.copy %acc, %buf : tensor<128x128xf32, #acc> -> tensor<128x128xf32, #sc>
    nv_tileas.tiled_store %w, %c[%i, %c0] box = [128, 32] : tensor<128x128xf32, #sc> -> !nv_tileas.tiled_view<1024x1024xf32>
    nv_tileas.return
  }
}

// The thread's first element: row 64 (warpgroup) + 16 (warp % 4) + lane / 4, column
// 2 (lane % 4); its linear offset row * 128 + column * 4.
// CHECK:      %[[TWO:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[GROUP:.*]] = arith.andi %{{.*}}, %[[TWO]] : i32
// CHECK-NEXT: %[[ROWS:.*]] = arith.constant 64 : i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.muli %[[GROUP]], %[[ROWS]] : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %{{.*}}, %[[FIRST]] : i32
// CHECK:      %[[P:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %[[ROWB:.*]] = arith.muli %[[ROW]], %[[P]] : i32
// CHECK-NEXT: %[[B:.*]] = arith.constant 4 : i32
// CHECK-NEXT: %[[COLB:.*]] = arith.muli %{{.*}}, %[[B]] : i32
// CHECK-NEXT: %[[T:.*]] = arith.addi %[[ROWB]], %[[COLB]] : i32
// The first pair: offset 0, the thread's own.
// CHECK:      %[[SEVEN:.*]] = arith.constant 7 : i32
// CHECK-NEXT: %[[HI:.*]] = arith.shrui %[[T]], %[[SEVEN]] : i32
// CHECK-NEXT: %[[MASK:.*]] = arith.constant 7 : i32
// CHECK-NEXT: %[[BITS:.*]] = arith.andi %[[HI]], %[[MASK]] : i32
// CHECK-NEXT: %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK-NEXT: %[[FLIP:.*]] = arith.shli %[[BITS]], %[[FOUR]] : i32
// CHECK-NEXT: %[[PHYS:.*]] = arith.xori %[[T]], %[[FLIP]] : i32
// CHECK-NEXT: %[[AT0:.*]] = llvm.getelementptr %{{.*}}[%[[PHYS]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: llvm.inline_asm has_side_effects "st.shared.v2.f32 [$0], {$1, $2};", "l,f,f" %[[AT0]], %{{.*}}, %{{.*}} : (!llvm.ptr<3>, f32, f32) -> ()
// The pair 8 rows further: the same swizzled base, 1024 bytes on.
// CHECK:      %[[AT8:.*]] = llvm.getelementptr %[[AT0]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: llvm.inline_asm has_side_effects "st.shared.v2.f32 [$0], {$1, $2};", "l,f,f" %[[AT8]]
// Four swizzled bases in all (offsets 0, 32, 64, 96), 32 pair stores.
// CHECK-COUNT-3: arith.xori
// CHECK-NOT:  arith.xori
// CHECK:      nvvm.fence.proxy
// CHECK:      scf.if
// CHECK-NEXT:   nvvm.cp.async.bulk.tensor.global.shared.cta %c, %[[BUF:[^,]*]], box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK-NEXT:   nvvm.cp.async.bulk.tensor.global.shared.cta %c, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK-NEXT:   nvvm.cp.async.bulk.tensor.global.shared.cta %c, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK-NEXT:   nvvm.cp.async.bulk.tensor.global.shared.cta %c, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK-NEXT:   llvm.inline_asm has_side_effects "cp.async.bulk.commit_group;

// PTX-COUNT-32: st.shared.v2.f32
// PTX:      cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [k_smem];
// PTX-NEXT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [k_smem+16384];
// PTX-NEXT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [k_smem+32768];
// PTX-NEXT: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [k_smem+49152];
