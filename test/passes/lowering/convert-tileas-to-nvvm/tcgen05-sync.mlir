// What the Blackwell MMA changes in the synchronisation: an agent that issues tcgen05
// MMAs releases its operand slots with one tcgen05.commit (the empty barrier expects one
// arrival), and a CTA pair (cta_group = 2: the program is the cluster, whose tiles' CTA
// layouts give each CTA its piece) loads both CTAs' pieces onto the even CTA's full
// barrier, issues from the even CTA only and commits to both CTAs.
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
!pa = !nv_tileas.pipeline<2, tensor<128x64xf16, #sa>>
!pb = !nv_tileas.pipeline<2, tensor<64x64xf16, #sb>>
!pacc = !nv_tileas.pipeline<1, tensor<128x64xf32, #tm>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @one(%a: !nv_tileas.tiled_view<256x256xf16>, %b: !nv_tileas.tiled_view<256x256xf16>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %pa = nv_tileas.async.pipeline.create_pipeline : !pa
    %pb = nv_tileas.async.pipeline.create_pipeline : !pb
    %pacc = nv_tileas.async.pipeline.create_pipeline : !pacc
    %c0 = arith.constant 0 : index
    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 1, 1] warp_id = [0, 1, 2, 3] agent_strides = [1, 1, 1, 1] {
      %sa = nv_tileas.async.pipeline.producer_acquire %pa : !pa -> tensor<128x64xf16, #sa>
      %ta = nv_tileas.tiled_load %a[%c0, %c0] : !nv_tileas.tiled_view<256x256xf16> -> tensor<128x64xf16, #sa>
      %wa = nv_tileas.copy %ta, %sa : tensor<128x64xf16, #sa> -> tensor<128x64xf16, #sa>
      nv_tileas.async.pipeline.producer_commit %pa : !pa
      %sb = nv_tileas.async.pipeline.producer_acquire %pb : !pb -> tensor<64x64xf16, #sb>
      %tb = nv_tileas.tiled_load %b[%c0, %c0] : !nv_tileas.tiled_view<256x256xf16> -> tensor<64x64xf16, #sb>
      %wb = nv_tileas.copy %tb, %sb : tensor<64x64xf16, #sb> -> tensor<64x64xf16, #sb>
      nv_tileas.async.pipeline.producer_commit %pb : !pb
    } {
      %slot = nv_tileas.async.pipeline.producer_acquire %pacc : !pacc -> tensor<128x64xf32, #tm>
      %sa = nv_tileas.async.pipeline.consumer_acquire %pa : !pa -> tensor<128x64xf16, #sa>
      %sb = nv_tileas.async.pipeline.consumer_acquire %pb : !pb -> tensor<64x64xf16, #sb>
      %d = nv_tileas.dot %sa, %sb, %slot atom = !cute_nvgpu.sm100.mma<128x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x64xf16, #sb> -> tensor<128x64xf32, #tm>
      nv_tileas.async.pipeline.consumer_release %pa : !pa
      nv_tileas.async.pipeline.consumer_release %pb : !pb
      nv_tileas.async.pipeline.producer_commit %pacc : !pacc
    } {
    } {
    }
    nv_tileas.return
  }
}

// The operand pipelines' empty barriers expect one arrival: the MMA warp's commit.
// CHECK-LABEL: llvm.func @one(
// CHECK:       %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-COUNT-2: nvvm.mbarrier.init %{{.*}}, %[[ONE]], predicate
// CHECK-NEXT:  %[[EMPTY:.*]] = arith.constant 1 : i32
// CHECK-COUNT-2: nvvm.mbarrier.init %{{.*}}, %[[EMPTY]], predicate
// The MMA warp: its leader issues (and accumulates into the slot: it holds data), then
// commits, once per released slot, to the slot's empty barrier.
// CHECK:       scf.if %{{.*}} {
// CHECK:         nvvm.tcgen05.fence <after>
// CHECK-COUNT-4: nvvm.tcgen05.mma
// CHECK:       scf.if %{{.*}} {
// CHECK-NEXT:    nvvm.tcgen05.commit %{{.*}} : !llvm.ptr<3>
// CHECK-NEXT:  }
// CHECK:       scf.if %{{.*}} {
// CHECK-NEXT:    nvvm.tcgen05.commit %{{.*}} : !llvm.ptr<3>
// CHECK-NEXT:  }

// PTX-LABEL: .entry one(
// PTX-COUNT-4: tcgen05.mma.cta_group::1.kind::f16
// PTX-COUNT-3: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64

// -----

#rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#cols = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #rows>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1], cta = #cols>
#tm = #nv_tileas.tmem<cta = #rows>
!pa = !nv_tileas.pipeline<2, tensor<256x64xf16, #sa>>
!pb = !nv_tileas.pipeline<2, tensor<64x128xf16, #sb>>
!pacc = !nv_tileas.pipeline<1, tensor<256x128xf32, #tm>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @pair(%a: !nv_tileas.tiled_view<256x256xf16>, %b: !nv_tileas.tiled_view<256x256xf16>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 8 : i32} {
    %pa = nv_tileas.async.pipeline.create_pipeline : !pa
    %pb = nv_tileas.async.pipeline.create_pipeline : !pb
    %pacc = nv_tileas.async.pipeline.create_pipeline : !pacc
    %c0 = arith.constant 0 : index
    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4] warp_id = [0, 1, 4] agent_strides = [1, 3, 1] {
      %sa = nv_tileas.async.pipeline.producer_acquire %pa : !pa -> tensor<256x64xf16, #sa>
      %ta = nv_tileas.tiled_load %a[%c0, %c0] : !nv_tileas.tiled_view<256x256xf16> -> tensor<256x64xf16, #sa>
      %wa = nv_tileas.copy %ta, %sa : tensor<256x64xf16, #sa> -> tensor<256x64xf16, #sa>
      nv_tileas.async.pipeline.producer_commit %pa : !pa
    } {
      %slot = nv_tileas.async.pipeline.producer_acquire %pacc : !pacc -> tensor<256x128xf32, #tm>
      %sa = nv_tileas.async.pipeline.consumer_acquire %pa : !pa -> tensor<256x64xf16, #sa>
      %sb = nv_tileas.async.pipeline.consumer_acquire %pb : !pb -> tensor<64x128xf16, #sb>
      %d = nv_tileas.dot %sa, %sb, %slot atom = !cute_nvgpu.sm100.mma<256x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<256x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<256x128xf32, #tm>
      nv_tileas.async.pipeline.consumer_release %pa : !pa
      nv_tileas.async.pipeline.producer_commit %pacc : !pacc
    } {
      %t = nv_tileas.async.pipeline.consumer_acquire %pacc : !pacc -> tensor<256x128xf32, #tm>
      nv_tileas.async.pipeline.consumer_release %pacc : !pacc
    }
    nv_tileas.return
  }
}

// The pair allocates its tensor memory together and meets at cluster barriers.
// CHECK-LABEL: llvm.func @pair(
// CHECK:       nvvm.tcgen05.alloc %{{.*}}, %{{.*}} {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
// CHECK-NEXT:  nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
// CHECK:       nvvm.tcgen05.fence <before>
// CHECK-NEXT:  nvvm.cluster.arrive {aligned}
// CHECK-NEXT:  nvvm.cluster.wait {aligned}
// CHECK-NEXT:  nvvm.tcgen05.fence <after>
// The accumulator's empty barrier counts both CTAs' epilogue warpgroups.
// CHECK:       %[[BOTH:.*]] = arith.constant 256 : i32
// CHECK-NEXT:  %{{.*}} = llvm.getelementptr
// CHECK-NEXT:  nvvm.mbarrier.init %{{.*}}, %[[BOTH]], predicate
// The producer: each CTA loads its piece of the pair's 256x64 A block (`#rows`: rows
// 128 x rank), the load completes on the even CTA's full barrier, which the even CTA's
// leader expects both pieces on (2 x 16384 bytes).
// CHECK:       %[[RANK0:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:  %[[ROWS:.*]] = arith.constant 128 : i32
// CHECK-NEXT:  %{{.*}} = arith.muli %[[RANK0]], %[[ROWS]] : i32
// CHECK:       %[[FULL:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:  llvm.inline_asm has_side_effects "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [$1], [$2, {$3, $4}], [$5];", "b,l,l,r,r,l" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[FULL]]
// CHECK:       %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:  %{{.*}} = arith.constant 1 : i32
// CHECK-NEXT:  %[[ODD:.*]] = arith.andi %[[RANK]], %{{.*}} : i32
// CHECK-NEXT:  %{{.*}} = arith.constant 0 : i32
// CHECK-NEXT:  %[[EVEN:.*]] = arith.cmpi eq, %[[ODD]], %{{.*}} : i32
// CHECK-NEXT:  %[[ISSUE:.*]] = arith.andi %{{.*}}, %[[EVEN]] : i1
// CHECK-NEXT:  %[[BYTES:.*]] = arith.constant 32768 : i32
// CHECK-NEXT:  nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]], predicate = %[[ISSUE]]
// The MMA agent runs on the even CTA only.
// CHECK:       %[[WARP1:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:  nvvm.read.ptx.sreg.cluster.ctarank
// CHECK:       %[[EVEN2:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:  %[[MMA:.*]] = arith.andi %[[WARP1]], %[[EVEN2]] : i1
// CHECK-NEXT:  %{{.*}} = scf.if %[[MMA]] -> ({{.*}}) {
// CHECK:         nvvm.tcgen05.mma %{{.*}} {ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<f16>}
// Its commits reach both CTAs.
// CHECK:         %[[MASK:.*]] = arith.constant 3 : i16
// CHECK-NEXT:    nvvm.tcgen05.commit %{{.*}}, multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// CHECK:         nvvm.tcgen05.commit %{{.*}}, multicast_mask = %{{.*}} {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// The epilogues release the accumulator on the even CTA's empty barrier.
// CHECK:       nvvm.tcgen05.fence <before>
// CHECK:       %[[EMPTY:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:  llvm.inline_asm has_side_effects "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [$0];", "l" %[[EMPTY]]
// CHECK:       nvvm.cluster.arrive {aligned}
// CHECK-NEXT:  nvvm.cluster.wait {aligned}
// CHECK:       nvvm.tcgen05.dealloc %{{.*}}, %{{.*}} {group = #nvvm.cta_group<cta_2>}

// PTX-LABEL: .entry pair(
// PTX:         tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32
// PTX:         mapa.shared::cluster.u64
// PTX-NEXT:    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2
// PTX:         tcgen05.mma.cta_group::2.kind::f16
// PTX:         tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 	[%rd{{[0-9]+}}+{{[0-9]+}}], 3;
// PTX:         mbarrier.arrive.release.cluster.shared::cluster.b64 	_, [%rd{{[0-9]+}}];
// PTX:         tcgen05.dealloc.cta_group::2.sync.aligned.b32
