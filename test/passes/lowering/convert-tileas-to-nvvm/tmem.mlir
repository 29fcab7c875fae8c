// Tensor memory: the kernel's allocation (warp 0 allocates at the entry and frees before
// the return, between tcgen05 fences and barriers), tiles as ranges of its columns, a
// pipeline of tensor-memory slots (full: the producer's tcgen05.commit; empty: every
// consumer thread), and the epilogue's tcgen05.ld of a tile into a shared buffer.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#sc = #nv_tileas.shared<swizzle = 0, order = [1, 0]>
#tm = #nv_tileas.tmem
!pipe = !nv_tileas.pipeline<2, tensor<128x48xf32, #tm>>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 8 : i32} {
    %scratch = nv_tileas.alloc_tensor : tensor<128x32xi32, #tm>
    %p = nv_tileas.async.pipeline.create_pipeline : !pipe
    nv_tileas.async.pipeline.agent_switch num_warps = [1, 4] warp_id = [0, 4] agent_strides = [4, 1] {
      %slot = nv_tileas.async.pipeline.producer_acquire %p : !pipe -> tensor<128x48xf32, #tm>
      nv_tileas.async.pipeline.producer_commit %p : !pipe
    } {
      %t = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<128x48xf32, #tm>
      %buf = nv_tileas.alloc_tensor : tensor<128x48xf32, #sc>
      %w = nv_tileas.copy %t, %buf : tensor<128x48xf32, #tm> -> tensor<128x48xf32, #sc>
      nv_tileas.async.pipeline.consumer_release %p : !pipe
    }
    nv_tileas.return
  }
}

// 32 + 2 x 48 columns: an allocation of 128, written to @k_tmem_slot by warp 0.
// CHECK:      llvm.mlir.global internal @k_tmem_slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
// CHECK:      llvm.func @k()
// CHECK:        %[[WARP:.*]] = arith.shrui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:   %{{.*}} = arith.constant 0 : i32
// CHECK-NEXT:   %[[W0:.*]] = arith.cmpi eq, %[[WARP]], %{{.*}} : i32
// CHECK-NEXT:   scf.if %[[W0]] {
// CHECK-NEXT:     %[[SLOT:.*]] = llvm.mlir.addressof @k_tmem_slot : !llvm.ptr<3>
// CHECK-NEXT:     %[[COLUMNS:.*]] = arith.constant 128 : i32
// CHECK-NEXT:     nvvm.tcgen05.alloc %[[SLOT]], %[[COLUMNS]] : !llvm.ptr<3>, i32
// CHECK-NEXT:     nvvm.tcgen05.relinquish_alloc_permit
// CHECK-NEXT:   }
// CHECK-NEXT:   nvvm.tcgen05.fence <before>
// CHECK-NEXT:   nvvm.barrier0
// CHECK-NEXT:   nvvm.tcgen05.fence <after>
// CHECK-NEXT:   %[[ADDRESS:.*]] = llvm.mlir.addressof @k_tmem_slot : !llvm.ptr<3>
// CHECK-NEXT:   %[[BASE:.*]] = llvm.load %[[ADDRESS]] {nv_tileas.tmem_base} : !llvm.ptr<3> -> !llvm.ptr<6>
// The pipeline: full[2] (1 arrival), empty[2] (128: the consumer warpgroup).
// CHECK:        %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-COUNT-2: nvvm.mbarrier.init %{{.*}}, %[[ONE]], predicate
// CHECK:        %[[THREADS:.*]] = arith.constant 128 : i32
// CHECK-COUNT-2: nvvm.mbarrier.init %{{.*}}, %[[THREADS]], predicate
// CHECK:        nvvm.fence.mbarrier.init
// CHECK-NEXT:   nvvm.barrier0
// Its slots start at column 32, after the scratch tile.
// CHECK-NEXT:   %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:   %[[RAW:.*]] = llvm.ptrtoint %[[BASE]] : !llvm.ptr<6> to i32
// CHECK-NEXT:   %[[SUM:.*]] = llvm.add %[[RAW]], %[[C32]] : i32
// CHECK-NEXT:   %[[SLOTS:.*]] = llvm.inttoptr %[[SUM]] : i32 to !llvm.ptr<6>
// The producer waits on empty[s] for the opposite parity, then fences.
// CHECK:        scf.if
// CHECK:          %[[PARITY:.*]] = arith.xori %{{.*}}, %{{.*}} : i32
// CHECK:          nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PARITY]], %{{.*}}
// CHECK-NEXT:     nvvm.tcgen05.fence <after>
// Slot s: 48 s columns on.
// CHECK-NEXT:     %[[C48:.*]] = arith.constant 48 : i32
// CHECK-NEXT:     %{{.*}} = arith.muli %{{.*}}, %[[C48]] : i32
// The commit, by the agent's leader, to full[s].
// CHECK:          scf.if %{{.*}} {
// CHECK-NEXT:       nvvm.tcgen05.commit %{{.*}} : !llvm.ptr<3>
// CHECK-NEXT:     }
// The consumer waits on full[s], fences, reads its 32 lanes: warp (tid / 32) % 4 at lane
// 32 w (<< 16), thread row (tid % 128), 48 columns as 32 + 16.
// CHECK:          nvvm.mbarrier.try_wait.parity
// CHECK-NEXT:     nvvm.tcgen05.fence <after>
// CHECK:          %[[LANES:.*]] = arith.shli %{{.*}}, %{{.*}} : i32
// CHECK:          %[[V0:.*]] = nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK-NEXT:     nvvm.tcgen05.wait <load>
// CHECK-NEXT:     %[[AT0:.*]] = llvm.getelementptr %{{.*}}[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:     llvm.store %[[V0]], %[[AT0]] {alignment = 4 : i64} : vector<32xi32>, !llvm.ptr<3>
// CHECK:          %[[V1:.*]] = nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-NEXT:     nvvm.tcgen05.wait <load>
// CHECK-NEXT:     %[[AT1:.*]] = llvm.getelementptr %{{.*}}[128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:     llvm.store %[[V1]], %[[AT1]] {alignment = 4 : i64} : vector<16xi32>, !llvm.ptr<3>
// The release: fence, then every thread arrives on empty[s].
// CHECK:          nvvm.tcgen05.fence <before>
// CHECK:          nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// The end: the CTA meets, warp 0 frees the 128 columns.
// CHECK:        nvvm.tcgen05.fence <before>
// CHECK-NEXT:   nvvm.barrier0
// CHECK:        scf.if %{{.*}} {
// CHECK-NEXT:     nvvm.tcgen05.fence <after>
// CHECK-NEXT:     %[[FREE:.*]] = arith.constant 128 : i32
// CHECK-NEXT:     nvvm.tcgen05.dealloc %[[BASE]], %[[FREE]] : !llvm.ptr<6>, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   llvm.return

// PTX:      .shared .align 4 .b32 k_tmem_slot;
// PTX:      tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 	[k_tmem_slot], 128;
// PTX:      tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// PTX:      tcgen05.ld.sync.aligned.32x32b.x32.b32
// PTX:      tcgen05.wait::ld.sync.aligned;
// PTX:      tcgen05.ld.sync.aligned.32x32b.x16.b32
// PTX:      tcgen05.dealloc.cta_group::1.sync.aligned.b32 	%r{{[0-9]+}}, 128;
