// TMA multicast of the pipeline slots that the CTAs of a cluster share (issue 16): a slot
// whose CTA layout replicates its piece over F CTAs is loaded in F parts, each CTA's part
// multicast to its group; every CTA's full barrier still expects the whole stage; a
// consumer's release also arrives on its peers' empty barriers, which expect every CTA of
// the group; the CTAs meet after the barriers are initialised and before they exit.
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

// 2x1 cluster: A's rows split, B shared by both CTAs.
#rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#both = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #rows>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1], cta = #both>
!pipe = !nv_tileas.pipeline<2, tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @b_shared(%a: !nv_tileas.tiled_view<1024x1024xf16>, %b: !nv_tileas.tiled_view<1024x1024xf16>, %i: index, %j: index, %k: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 8 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !pipe
    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4] warp_id = [0, 1, 4] agent_strides = [1, 3, 1] {
      %sa, %sb = nv_tileas.async.pipeline.producer_acquire %p : !pipe -> tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb>
      %ta = nv_tileas.tiled_load %a[%i, %k] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<128x64xf16, #sa>
      %wa = nv_tileas.copy %ta, %sa : tensor<128x64xf16, #sa> -> tensor<128x64xf16, #sa>
      %tb = nv_tileas.tiled_load %b[%k, %j] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<64x128xf16, #sb>
      %wb = nv_tileas.copy %tb, %sb : tensor<64x128xf16, #sb> -> tensor<64x128xf16, #sb>
      nv_tileas.async.pipeline.producer_commit %p : !pipe
    } {
    } {
      %sa, %sb = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb>
      nv_tileas.async.pipeline.consumer_release %p : !pipe
    }
    nv_tileas.return
  }
}

// Each CTA's slots: its 64x64 piece of A (8 KiB) and all of B (16 KiB). The empty
// barriers expect the 128 consumers of both CTAs; the cluster meets after the init.
// CHECK-LABEL: llvm.func @b_shared
// CHECK:         %[[THREADS:.*]] = arith.constant 256 : i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %[[THREADS]], predicate = %{{.*}}
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NEXT:    nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// A: the CTA's rows, not multicast.
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %a, %{{.*}}, box[%{{.*}}, %{{.*}}] predicate = %{{.*}} : !llvm.ptr<3>, !llvm.ptr
// B: part = rank (N's 64 columns from 64 * rank, 8 KiB into the slot), mask 0b11.
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:    %[[MASK32:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[MASK:.*]] = arith.trunci %[[MASK32]] : i32 to i16
// CHECK-NEXT:    %[[EXTENT:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    %[[START:.*]] = arith.muli %[[RANK]], %[[EXTENT]] : i32
// CHECK-NEXT:    %[[N:.*]] = arith.addi %{{.*}}, %[[START]] : i32
// CHECK-NEXT:    %[[PART:.*]] = arith.constant 8192 : i32
// CHECK-NEXT:    %[[OFFSET:.*]] = arith.muli %[[RANK]], %[[PART]] : i32
// CHECK-NEXT:    %[[DST:.*]] = llvm.getelementptr %{{.*}}[%[[OFFSET]]]
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %b, %{{.*}}, box[%{{.*}}, %[[N]]] multicast_mask = %[[MASK]] predicate = %{{.*}} : !llvm.ptr<3>, !llvm.ptr
// The full barrier expects the whole stage: 8 KiB of A, 16 KiB of B.
// CHECK:         %[[STAGE:.*]] = arith.constant 24576 : i32
// CHECK-NEXT:    nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[STAGE]]
// A release: the CTA's own empty barrier, then its peer's (rank ^ 1).
// CHECK:         nvvm.mbarrier.arrive %[[EMPTY:.*]] : !llvm.ptr<3>
// CHECK-NEXT:    %[[ME:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[PEER:.*]] = arith.xori %[[ME]], %[[ONE]] : i32
// CHECK-NEXT:      %[[THERE:.*]] = nvvm.mapa %[[EMPTY]], %[[PEER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:      llvm.inline_asm has_side_effects "mbarrier.arrive.shared::cluster.b64 _, [$0];", "l" %[[THERE]] : (!llvm.ptr<7>) -> ()
// The cluster meets before the CTAs exit.
// CHECK:         nvvm.cluster.arrive {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK-NEXT:    llvm.return

// PTX-LABEL: .entry b_shared(
// PTX:         fence.mbarrier_init.release.cluster;
// PTX:         barrier.cluster.arrive.relaxed.aligned;
// PTX:         barrier.cluster.wait.aligned;
// PTX:         cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX:         mapa.shared::cluster.u64
// PTX-NEXT:    mbarrier.arrive.shared::cluster.b64 _, [%rd{{[0-9]+}}];
// PTX:         barrier.cluster.arrive.aligned;
// PTX:         barrier.cluster.wait.aligned;
// PTX-NEXT:    ret;

// -----

// 1x2 cluster: B's columns split, A shared; A's part is 32 of its 64 rows (4 KiB).
#cols = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>
#both = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 1], order = [1, 0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #both>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1], cta = #cols>
!pipe = !nv_tileas.pipeline<2, tensor<64x64xf16, #sa>, tensor<64x256xf16, #sb>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @a_shared(%a: !nv_tileas.tiled_view<1024x1024xf16>, %b: !nv_tileas.tiled_view<1024x1024xf16>, %i: index, %j: index, %k: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 8 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !pipe
    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4] warp_id = [0, 1, 4] agent_strides = [1, 3, 1] {
      %sa, %sb = nv_tileas.async.pipeline.producer_acquire %p : !pipe -> tensor<64x64xf16, #sa>, tensor<64x256xf16, #sb>
      %ta = nv_tileas.tiled_load %a[%i, %k] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<64x64xf16, #sa>
      %wa = nv_tileas.copy %ta, %sa : tensor<64x64xf16, #sa> -> tensor<64x64xf16, #sa>
      %tb = nv_tileas.tiled_load %b[%k, %j] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<64x256xf16, #sb>
      %wb = nv_tileas.copy %tb, %sb : tensor<64x256xf16, #sb> -> tensor<64x256xf16, #sb>
      nv_tileas.async.pipeline.producer_commit %p : !pipe
    } {
    } {
      %sa, %sb = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<64x64xf16, #sa>, tensor<64x256xf16, #sb>
      nv_tileas.async.pipeline.consumer_release %p : !pipe
    }
    nv_tileas.return
  }
}

// CHECK-LABEL: llvm.func @a_shared
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:    %[[MASK32:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[MASK:.*]] = arith.trunci %[[MASK32]] : i32 to i16
// CHECK-NEXT:    %[[EXTENT:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[START:.*]] = arith.muli %[[RANK]], %[[EXTENT]] : i32
// CHECK-NEXT:    %[[M:.*]] = arith.addi %{{.*}}, %[[START]] : i32
// CHECK-NEXT:    %[[PART:.*]] = arith.constant 4096 : i32
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %a, %{{.*}}, box[%{{.*}}, %[[M]]] multicast_mask = %[[MASK]]
// B: the CTA's 128 columns, from 128 * rank, not multicast.
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %b, %{{.*}}, box[%{{.*}}, %{{.*}}] predicate
// CHECK:         %[[STAGE:.*]] = arith.constant 24576 : i32
// CHECK-NEXT:    nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[STAGE]]

// -----

// 2x2 cluster: A shared along the cluster's columns, B along its rows. Each stage of a
// CTA is written by three producers (its own, its row peer's, its column peer's), so
// each empty barrier expects 3 x 128 arrivals, and a release arrives on rank ^ 1 and
// rank ^ 2. A's group is the CTA's row of the cluster, its first rank 2 * (rank / 2):
// the mask is 0b11 shifted there.
#rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 2], split = [2, 1], order = [1, 0]>
#cols = #nv_tileas.cta_layout<ctas_per_cluster = [2, 2], split = [1, 2], order = [1, 0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #rows>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1], cta = #cols>
!pipe = !nv_tileas.pipeline<2, tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @both_shared(%a: !nv_tileas.tiled_view<1024x1024xf16>, %b: !nv_tileas.tiled_view<1024x1024xf16>, %i: index, %j: index, %k: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 4>, nv_tileas.num_warps = 8 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !pipe
    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4] warp_id = [0, 1, 4] agent_strides = [1, 3, 1] {
      %sa, %sb = nv_tileas.async.pipeline.producer_acquire %p : !pipe -> tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb>
      %ta = nv_tileas.tiled_load %a[%i, %k] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<128x64xf16, #sa>
      %wa = nv_tileas.copy %ta, %sa : tensor<128x64xf16, #sa> -> tensor<128x64xf16, #sa>
      %tb = nv_tileas.tiled_load %b[%k, %j] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<64x128xf16, #sb>
      %wb = nv_tileas.copy %tb, %sb : tensor<64x128xf16, #sb> -> tensor<64x128xf16, #sb>
      nv_tileas.async.pipeline.producer_commit %p : !pipe
    } {
    } {
      %sa, %sb = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb>
      nv_tileas.async.pipeline.consumer_release %p : !pipe
    }
    nv_tileas.return
  }
}

// CHECK-LABEL: llvm.func @both_shared
// CHECK:         %[[THREADS:.*]] = arith.constant 384 : i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %[[THREADS]], predicate = %{{.*}}
// A: the replica coordinate is the column (rank % 2), the group starts at rank - rank % 2.
// CHECK:         %[[COLUMN:.*]] = arith.remui %[[RANK:.*]], %{{.*}} : i32
// CHECK-NEXT:    %[[FIRST:.*]] = arith.subi %[[RANK]], %[[COLUMN]] : i32
// CHECK-NEXT:    %[[GROUP:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[MASK32:.*]] = arith.shli %[[GROUP]], %[[FIRST]] : i32
// CHECK-NEXT:    %{{.*}} = arith.trunci %[[MASK32]] : i32 to i16
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %a, {{.*}} multicast_mask
// B: the replica coordinate is the row (rank / 2), the group starts at rank - 2 * row.
// CHECK:         %[[ROW:.*]] = arith.divui %[[RANK2:.*]], %{{.*}} : i32
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[ROWS:.*]] = arith.muli %[[ROW]], %[[TWO]] : i32
// CHECK-NEXT:    %[[FIRST2:.*]] = arith.subi %[[RANK2]], %[[ROWS]] : i32
// CHECK-NEXT:    %[[GROUP2:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    %{{.*}} = arith.shli %[[GROUP2]], %[[FIRST2]] : i32
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %b, {{.*}} multicast_mask
// CHECK:         nvvm.mbarrier.arrive %[[EMPTY:.*]] : !llvm.ptr<3>
// CHECK-NEXT:    %[[ME:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:    %[[K1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[P1:.*]] = arith.xori %[[ME]], %[[K1]] : i32
// CHECK-NEXT:    nvvm.mapa %[[EMPTY]], %[[P1]]
// CHECK-NEXT:    llvm.inline_asm
// CHECK-NEXT:    %[[K2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[P2:.*]] = arith.xori %[[ME]], %[[K2]] : i32
// CHECK-NEXT:    nvvm.mapa %[[EMPTY]], %[[P2]]
// CHECK-NOT:     nvvm.mapa
// CHECK:         llvm.return

// -----

// A part must be whole swizzle patterns: 1/2 of a 16x64 f16 tile with a 128-byte
// swizzle is 1 KiB, but 1/2 of an 8x64 one is not; that slot is loaded whole by each
// CTA, not multicast, and nothing else changes.
#both = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>
#s = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #both>
!pipe = !nv_tileas.pipeline<2, tensor<8x64xf16, #s>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @too_small(%a: !nv_tileas.tiled_view<1024x1024xf16>, %i: index, %k: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 8 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !pipe
    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4] warp_id = [0, 1, 4] agent_strides = [1, 3, 1] {
      %s = nv_tileas.async.pipeline.producer_acquire %p : !pipe -> tensor<8x64xf16, #s>
      %t = nv_tileas.tiled_load %a[%i, %k] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<8x64xf16, #s>
      %w = nv_tileas.copy %t, %s : tensor<8x64xf16, #s> -> tensor<8x64xf16, #s>
      nv_tileas.async.pipeline.producer_commit %p : !pipe
    } {
    } {
      %s = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<8x64xf16, #s>
      nv_tileas.async.pipeline.consumer_release %p : !pipe
    }
    nv_tileas.return
  }
}

// CHECK-LABEL: llvm.func @too_small
// CHECK:         %[[THREADS:.*]] = arith.constant 128 : i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %[[THREADS]], predicate = %{{.*}}
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NOT:     multicast_mask
// CHECK-NOT:     nvvm.mapa
// CHECK-NOT:     nvvm.cluster.arrive
// CHECK:         llvm.return
