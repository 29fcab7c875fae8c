// A convert_layout that gathers a tile split across the CTAs of a cluster (each CTA holds
// 16 of 32 rows; after, every CTA holds all 32) through distributed shared memory, with
// seed 002's handshake: the cluster meets, the CTA of each old piece writes it into the
// buffer of every CTA (mapa + st.shared::cluster, under an scf.if on its rank), a release
// fence and a relaxed cluster arrive + wait, then each thread reads its new elements.
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#rows = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>>
#all = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @gather(%out: !llvm.ptr<1>, %i: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %t = arith.constant dense<1.0> : tensor<32x32xf32, #rows>
    %n = arith.negf %t : tensor<32x32xf32, #rows>
    %g = nv_tileas.convert_layout %n : tensor<32x32xf32, #rows> -> tensor<32x32xf32, #all>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x32xf32>
    nv_tileas.tiled_store %g, %view[%i, %i] : tensor<32x32xf32, #all> -> !nv_tileas.tiled_view<64x32xf32>
    nv_tileas.return
  }
}

// The buffer holds the new piece, the whole 32x32 f32 tile.
// CHECK:      llvm.mlir.global internal @gather_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x i8>
// CHECK:      %[[BUF:.*]] = llvm.getelementptr %{{.*}}[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// The thread's origin in the old piece, in the 32-wide buffer.
// CHECK:      %[[HERE:.*]] = llvm.getelementptr %[[BUF]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// Rank 0 holds rows 0..15: to rows 0..15 of both CTAs' buffers.
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[IS0:.*]] = arith.cmpi eq, %[[RANK]], %[[C0]] : i32
// CHECK-NEXT: scf.if %[[IS0]] {
// CHECK-NEXT:   %[[AT0:.*]] = llvm.getelementptr %[[HERE]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT:   %[[R0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[TO0:.*]] = nvvm.mapa %[[AT0]], %[[R0]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:        llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<7>
// CHECK:        %[[R1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[R1]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:      {{^ +}$}}
// Rank 1 holds rows 16..31: 16 x 32 elements further on.
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[IS1:.*]] = arith.cmpi eq, %[[RANK]], %[[C1]] : i32
// CHECK-NEXT: scf.if %[[IS1]] {
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][512] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK:      {{^ +}$}}
// CHECK-NEXT: llvm.inline_asm has_side_effects "fence.acq_rel.cluster;", "" : () -> ()
// CHECK-NEXT: nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// Every thread reads its 8 elements of the whole tile from its own buffer.
// CHECK:      llvm.getelementptr %[[BUF]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32

// PTX:      .shared .align 1024 .b8 gather_smem[4096];
// PTX:      barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX-NEXT: mov.u32 %[[RANK:r[0-9]+]], %cluster_ctarank;
// PTX:      setp.eq.s32 %[[P0:p[0-9]+]], %[[RANK]], 0;
// PTX-NEXT: @!%[[P0]] bra $L__ori_0;
// PTX-NEXT: mapa.shared::cluster.u64 %[[TO0:rd[0-9]+]], %[[HERE:rd[0-9]+]], 0;
// PTX-NEXT: st.shared::cluster.f32 [%[[TO0]]], %f{{[0-9]+}};
// PTX:      mapa.shared::cluster.u64 %[[TO1:rd[0-9]+]], %[[HERE]], 1;
// PTX-NEXT: st.shared::cluster.f32 [%[[TO1]]], %f{{[0-9]+}};
// PTX:      $L__ori_0:
// PTX-NEXT: setp.eq.s32 %[[P1:p[0-9]+]], %[[RANK]], 1;
// PTX-NEXT: @!%[[P1]] bra $L__ori_1;
// PTX-NEXT: add.s64 %[[THERE:rd[0-9]+]], %[[HERE]], 2048;
// PTX-NEXT: mapa.shared::cluster.u64 %{{rd[0-9]+}}, %[[THERE]], 0;
// PTX:      $L__ori_1:
// PTX-NEXT: fence.acq_rel.cluster;
// PTX-NEXT: barrier.cluster.arrive.relaxed.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX:      ld.shared.f32

// -----

// Quarters to halves over 4 CTAs: ranks 0 and 2 hold rows 0..15 after, ranks 1 and 3
// rows 16..31. Rank 0's rows 0..7 and rank 1's rows 8..15 go to ranks 0 and 2; rank 2's
// and rank 3's to ranks 1 and 3, at row 0 and row 8 of their 16x32 buffers.
#quarters = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [2, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [4, 1], split = [4, 1], order = [1, 0]>>
#halves = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [2, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [4, 1], split = [2, 1], order = [1, 0]>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @halves(%out: !llvm.ptr<1>, %i: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 4>, nv_tileas.num_warps = 2 : i32} {
    %t = arith.constant dense<1.0> : tensor<32x32xf32, #quarters>
    %n = arith.negf %t : tensor<32x32xf32, #quarters>
    %g = nv_tileas.convert_layout %n : tensor<32x32xf32, #quarters> -> tensor<32x32xf32, #halves>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x32xf32>
    nv_tileas.tiled_store %g, %view[%i, %i] : tensor<32x32xf32, #halves> -> !nv_tileas.tiled_view<64x32xf32>
    nv_tileas.return
  }
}

// CHECK:      llvm.mlir.global internal @halves_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x i8>
// CHECK-LABEL: llvm.func @halves(
// CHECK:      %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:      %[[HERE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arith.cmpi eq, %[[RANK]], %[[C0]] : i32
// CHECK-NEXT: scf.if
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][0]
// CHECK-NEXT:   %[[TO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:        llvm.getelementptr %[[HERE]][0]
// CHECK-NEXT:   %[[TO:.*]] = arith.constant 2 : i32
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:      {{^ +}$}}
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: arith.cmpi eq, %[[RANK]], %[[C1]] : i32
// CHECK-NEXT: scf.if
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][256]
// CHECK-NEXT:   %[[TO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:        llvm.getelementptr %[[HERE]][256]
// CHECK-NEXT:   %[[TO:.*]] = arith.constant 2 : i32
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:      {{^ +}$}}
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: arith.cmpi eq, %[[RANK]], %[[C2]] : i32
// CHECK-NEXT: scf.if
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][0]
// CHECK-NEXT:   %[[TO:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:        llvm.getelementptr %[[HERE]][0]
// CHECK-NEXT:   %[[TO:.*]] = arith.constant 3 : i32
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:      {{^ +}$}}
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: arith.cmpi eq, %[[RANK]], %[[C3]] : i32
// CHECK-NEXT: scf.if
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][256]
// CHECK-NEXT:   %[[TO:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:        llvm.getelementptr %[[HERE]][256]
// CHECK-NEXT:   %[[TO:.*]] = arith.constant 3 : i32
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:      {{^ +}$}}
// CHECK-NEXT: llvm.inline_asm has_side_effects "fence.acq_rel.cluster;", "" : () -> ()

// PTX-LABEL: .visible .entry halves(
// PTX:      fence.acq_rel.cluster;

// -----

// From a shared piece (what tileas-remove-layout-conversions leaves of a slot read into
// registers and then gathered): each CTA reads its 16x32 piece into the result's register
// layout (4 elements per thread), then gathers it.
#cta_rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#s = #nv_tileas.shared<swizzle = 0, order = [1, 0], cta = #cta_rows>
#all = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @from_shared(%out: !llvm.ptr<1>, %i: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %buf = nv_tileas.alloc_tensor : tensor<32x32xf32, #s>
    %g = nv_tileas.convert_layout %buf : tensor<32x32xf32, #s> -> tensor<32x32xf32, #all>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x32xf32>
    nv_tileas.tiled_store %g, %view[%i, %i] : tensor<32x32xf32, #all> -> !nv_tileas.tiled_view<64x32xf32>
    nv_tileas.return
  }
}

// The piece (2048 bytes) and the gather's buffer (4096 bytes) after it.
// CHECK:      llvm.mlir.global internal @from_shared_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<6144 x i8>
// CHECK-LABEL: llvm.func @from_shared(
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:  llvm.load
// CHECK:      llvm.getelementptr %{{.*}}[2048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK:      nvvm.mapa
// CHECK:      nvvm.cluster.arrive.relaxed {aligned}
// CHECK:      llvm.return

// PTX-LABEL: .visible .entry from_shared(
// PTX:      mapa.shared::cluster.u64
