// A convert_layout that gathers a tile split across the CTAs of a cluster (each CTA holds
// 16 of 32 rows; after, every CTA holds all 32) through distributed shared memory, with
// seed 002's handshake: each CTA's leader initialises its mbarrier and expects the bytes
// it receives (expect_tx); a release fence and a relaxed cluster arrive + wait; the CTA
// of each old piece writes it into the buffer of every CTA, completing the bytes on that
// CTA's mbarrier (mapa + st.async, under an scf.if on its rank); each thread waits for
// its mbarrier's phase and reads its new elements.
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

// The buffer holds the new piece, the whole 32x32 f32 tile, then its mbarrier.
// CHECK:      llvm.mlir.global internal @gather_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4104 x i8>
// CHECK:      %[[BUF:.*]] = llvm.getelementptr %{{.*}}[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[BAR:.*]] = llvm.getelementptr %[[BUF]][4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// The CTA's leader initialises the mbarrier and expects the 4096 bytes it receives.
// CHECK:      %[[LEADER:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: nvvm.mbarrier.init %[[BAR]], %[[ONE]], predicate = %[[LEADER]] : !llvm.ptr<3>, i32, i1
// CHECK-NEXT: %[[BYTES:.*]] = arith.constant 4096 : i32
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[BAR]], %[[BYTES]], predicate = %[[LEADER]] : !llvm.ptr<3>, i32, i1
// The cluster meets: the mbarriers are ready and the previous reads of the buffers done.
// CHECK-NEXT: llvm.inline_asm has_side_effects "fence.acq_rel.cluster;", "" : () -> ()
// CHECK-NEXT: nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// The thread's origin in the old piece, in the 32-wide buffer.
// CHECK:      %[[HERE:.*]] = llvm.getelementptr %[[BUF]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// Rank 0 holds rows 0..15: to rows 0..15 of both CTAs' buffers, on their mbarriers.
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[IS0:.*]] = arith.cmpi eq, %[[RANK]], %[[C0]] : i32
// CHECK-NEXT: scf.if %[[IS0]] {
// CHECK-NEXT:   %[[R0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[AT0:.*]] = llvm.getelementptr %[[HERE]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT:   %[[TO0:.*]] = nvvm.mapa %[[AT0]], %[[R0]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:   %[[BAR0:.*]] = nvvm.mapa %[[BAR]], %[[R0]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:   %[[E0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:   %[[A0:.*]] = llvm.getelementptr %[[TO0]][0] : (!llvm.ptr<7>) -> !llvm.ptr<7>, f32
// CHECK-NEXT:   llvm.inline_asm has_side_effects "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$0], $1, [$2];", "l,f,l" %[[A0]], %[[E0]], %[[BAR0]] : (!llvm.ptr<7>, f32, !llvm.ptr<7>) -> ()
// CHECK-COUNT-3: llvm.inline_asm has_side_effects "st.async{{.*}}, %[[BAR0]] :
// CHECK-NEXT:   %[[R1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][0]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[R1]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:   %[[BAR1:.*]] = nvvm.mapa %[[BAR]], %[[R1]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "st.async{{.*}}, %[[BAR1]] :
// CHECK-NEXT: {{^ +}$}}
// Rank 1 holds rows 16..31: 16 x 32 elements further on.
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[IS1:.*]] = arith.cmpi eq, %[[RANK]], %[[C1]] : i32
// CHECK-NEXT: scf.if %[[IS1]] {
// CHECK-NEXT:   arith.constant 0 : i32
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][512] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK:      {{^ +}$}}
// Every thread waits for the phase, then reads its 8 elements of the whole tile from its
// own buffer; the CTA meets before the gather may run again (and initialise the mbarrier).
// CHECK-NEXT: %[[PARITY:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[TICKS:.*]] = arith.constant 10000000 : i32
// CHECK-NEXT: nvvm.mbarrier.try_wait.parity %[[BAR]], %[[PARITY]], %[[TICKS]] : !llvm.ptr<3>, i32, i32
// CHECK:      llvm.getelementptr %[[BUF]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK:      nvvm.barrier0

// PTX:      .version 8.1
// PTX:      .shared .align 1024 .b8 gather_smem[4104];
// PTX:      @%[[LEADER:p[0-9]+]] mbarrier.init.shared::cta.b64 [gather_smem+4096], 1;
// PTX-NEXT: @%[[LEADER]] mbarrier.arrive.expect_tx.shared::cta.b64 _, [gather_smem+4096], 4096;
// PTX-NEXT: fence.acq_rel.cluster;
// PTX-NEXT: barrier.cluster.arrive.relaxed.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX-NEXT: mov.u32 %[[RANK:r[0-9]+]], %cluster_ctarank;
// PTX:      setp.eq.s32 %[[P0:p[0-9]+]], %[[RANK]], 0;
// PTX-NEXT: @!%[[P0]] bra $L__ori_0;
// PTX-NEXT: mapa.shared::cluster.u64 %[[TO0:rd[0-9]+]], %[[HERE:rd[0-9]+]], 0;
// PTX:      mapa.shared::cluster.u64 %[[BAR0:rd[0-9]+]], %[[BAR:rd[0-9]+]], 0;
// PTX-NEXT: st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%[[TO0]]], %f{{[0-9]+}}, [%[[BAR0]]];
// PTX:      mapa.shared::cluster.u64 %[[TO1:rd[0-9]+]], %[[HERE]], 1;
// PTX-NEXT: mapa.shared::cluster.u64 %[[BAR1:rd[0-9]+]], %[[BAR]], 1;
// PTX-NEXT: st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%[[TO1]]], %f{{[0-9]+}}, [%[[BAR1]]];
// PTX:      $L__ori_0:
// PTX-NEXT: setp.eq.s32 %[[P1:p[0-9]+]], %[[RANK]], 1;
// PTX-NEXT: @!%[[P1]] bra $L__ori_1;
// PTX-NEXT: add.s64 %[[THERE:rd[0-9]+]], %[[HERE]], 2048;
// PTX-NEXT: mapa.shared::cluster.u64 %{{rd[0-9]+}}, %[[THERE]], 0;
// PTX:      $L__ori_1:
// PTX-NEXT: mbarrier.try_wait.parity.shared::cta.b64 %[[DONE:p[0-9]+]], [gather_smem+4096], 0, 10000000;
// PTX-NEXT: @!%[[DONE]] bra $L__ori_1;
// PTX:      ld.shared.f32
// PTX:      bar.sync 0;

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

// CHECK:      llvm.mlir.global internal @halves_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2056 x i8>
// CHECK-LABEL: llvm.func @halves(
// Each CTA receives its 16x32 f32 piece: 2048 bytes.
// CHECK:      %[[BYTES:.*]] = arith.constant 2048 : i32
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]], predicate
// CHECK:      %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:      %[[HERE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arith.cmpi eq, %[[RANK]], %[[C0]] : i32
// CHECK-NEXT: scf.if
// CHECK-NEXT:   %[[TO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][0]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:        %[[TO:.*]] = arith.constant 2 : i32
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][0]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:      {{^ +}$}}
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: arith.cmpi eq, %[[RANK]], %[[C1]] : i32
// CHECK-NEXT: scf.if
// CHECK-NEXT:   %[[TO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][256]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:        %[[TO:.*]] = arith.constant 2 : i32
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][256]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:      {{^ +}$}}
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: arith.cmpi eq, %[[RANK]], %[[C2]] : i32
// CHECK-NEXT: scf.if
// CHECK-NEXT:   %[[TO:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][0]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:        %[[TO:.*]] = arith.constant 3 : i32
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][0]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:      {{^ +}$}}
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: arith.cmpi eq, %[[RANK]], %[[C3]] : i32
// CHECK-NEXT: scf.if
// CHECK-NEXT:   %[[TO:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][256]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:        %[[TO:.*]] = arith.constant 3 : i32
// CHECK-NEXT:   llvm.getelementptr %[[HERE]][256]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK-NEXT:   nvvm.mapa %{{.*}}, %[[TO]]
// CHECK:      {{^ +}$}}
// CHECK-NEXT: %[[PARITY:.*]] = arith.constant 0 : i32
// CHECK:      nvvm.mbarrier.try_wait.parity

// PTX-LABEL: .visible .entry halves(
// PTX:      fence.acq_rel.cluster;
// PTX:      st.async.shared::cluster.mbarrier::complete_tx::bytes.b32

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

// The piece (2048 bytes) and the gather's buffer (4096 bytes and its mbarrier) after it.
// CHECK:      llvm.mlir.global internal @from_shared_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<6152 x i8>
// CHECK-LABEL: llvm.func @from_shared(
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:  llvm.load
// CHECK:      %[[BUF:.*]] = llvm.getelementptr %{{.*}}[2048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[BAR:.*]] = llvm.getelementptr %[[BUF]][4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:      nvvm.mbarrier.init %[[BAR]]
// CHECK:      nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK:      nvvm.mapa
// CHECK:      nvvm.mbarrier.try_wait.parity %[[BAR]]
// CHECK:      llvm.return

// PTX-LABEL: .visible .entry from_shared(
// PTX:      mapa.shared::cluster.u64

// -----

// f16 elements: st.async stores 32 or 64 bits, so each thread's run of 4 f16 goes as
// two words, each packing two f16 (the first in the low half).
#rows = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>>
#all = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @words(%out: !llvm.ptr<1>, %i: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %t = arith.constant dense<1.0> : tensor<32x32xf16, #rows>
    %g = nv_tileas.convert_layout %t : tensor<32x32xf16, #rows> -> tensor<32x32xf16, #all>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x32xf16>
    nv_tileas.tiled_store %g, %view[%i, %i] : tensor<32x32xf16, #all> -> !nv_tileas.tiled_view<64x32xf16>
    nv_tileas.return
  }
}

// CHECK-LABEL: llvm.func @words(
// CHECK:      %[[BYTES:.*]] = arith.constant 2048 : i32
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]], predicate
// CHECK:      scf.if
// CHECK:        %[[TO:.*]] = nvvm.mapa
// CHECK-NEXT:   %[[BAR:.*]] = nvvm.mapa
// CHECK-NEXT:   %[[E0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f16, f16, f16, f16)>
// CHECK-NEXT:   %[[E1:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(f16, f16, f16, f16)>
// CHECK-NEXT:   %[[I0:.*]] = arith.bitcast %[[E0]] : f16 to i16
// CHECK-NEXT:   %[[W0:.*]] = arith.extui %[[I0]] : i16 to i32
// CHECK-NEXT:   %[[I1:.*]] = arith.bitcast %[[E1]] : f16 to i16
// CHECK-NEXT:   %[[X1:.*]] = arith.extui %[[I1]] : i16 to i32
// CHECK-NEXT:   %[[S16:.*]] = arith.constant 16 : i32
// CHECK-NEXT:   %[[W1:.*]] = arith.shli %[[X1]], %[[S16]] : i32
// CHECK-NEXT:   %[[WORD:.*]] = arith.ori %[[W0]], %[[W1]] : i32
// CHECK-NEXT:   %[[AT:.*]] = llvm.getelementptr %[[TO]][0] : (!llvm.ptr<7>) -> !llvm.ptr<7>, f16
// CHECK-NEXT:   llvm.inline_asm has_side_effects "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$0], $1, [$2];", "l,r,l" %[[AT]], %[[WORD]], %[[BAR]] : (!llvm.ptr<7>, i32, !llvm.ptr<7>) -> ()
// The second word: elements 2 and 3, two f16 further on.
// CHECK:        llvm.getelementptr %[[TO]][2] : (!llvm.ptr<7>) -> !llvm.ptr<7>, f16
// CHECK-NEXT:   llvm.inline_asm has_side_effects "st.async{{.*}}.b32

// PTX-LABEL: .visible .entry words(
// PTX:      st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%{{rd[0-9]+}}], %{{r[0-9]+}}, [%{{rd[0-9]+}}];
