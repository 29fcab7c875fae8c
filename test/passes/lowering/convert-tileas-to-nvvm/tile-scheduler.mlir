// The dynamic tile scheduler (`nv_tileas.tile_scheduler = "dynamic"`): after its first
// tile a CTA takes the tile G + n, n what the global tile counter (the parameter before
// the tile grid) held; thread 0 takes n with an atomic add and hands it to the CTA through
// a shared slot between two barriers. In a cluster, thread 0 of rank 0 takes it for the
// cluster and writes it into the slot of every CTA (mapa); the cluster meets.
// RUN: tileas-opt %s --split-input-file -p 'tileas-dynamic-persistent{num-sms=8 scheduler=dynamic},convert-tileas-to-nvvm' | filecheck %s
// RUN: tileas-opt %s --split-input-file -p 'tileas-dynamic-persistent{num-sms=8 scheduler=dynamic},convert-tileas-to-nvvm,convert-nvvm-to-ori' -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %x = nv_tileaa.get_program_id x
    nv_tileas.return
  }
}

// The slot the tile number passes through.
// CHECK:      llvm.mlir.global internal @k_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4 x i8>
// CHECK:      llvm.func @k(%[[COUNTER:.*]]: !llvm.ptr<1>, %[[TX:.*]]: i32, %[[TY:.*]]: i32, %{{.*}}: i32) attributes {{{.*}}nv_tileas.persistent_grid = array<i32: 8, 1, 1>, nv_tileas.tile_scheduler = "dynamic"}
// The first tile is the CTA's id, as with the static scheduler.
// CHECK:        nvvm.read.ptx.sreg.ctaid.x
// CHECK:        scf.while
// CHECK:      } do {
// CHECK:        %[[BASE:.*]] = llvm.mlir.addressof @k_smem : !llvm.ptr<3>
// CHECK-NEXT:   %[[SLOT:.*]] = llvm.getelementptr %[[BASE]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:   %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %[[ZERO]] : i32
// CHECK-NEXT:   scf.if %[[FIRST]] {
// CHECK-NEXT:     %[[TAKEN:.*]] = llvm.inline_asm has_side_effects "atom.global.add.u32 $0, [$1], 1;", "=r,l" %[[COUNTER]] : (!llvm.ptr<1>) -> i32
// CHECK-NEXT:     llvm.store %[[TAKEN]], %[[SLOT]] : i32, !llvm.ptr<3>
// CHECK-NEXT:   }
// CHECK-NEXT:   nvvm.barrier0
// CHECK-NEXT:   %[[N:.*]] = llvm.load %[[SLOT]] : !llvm.ptr<3> -> i32
// CHECK-NEXT:   nvvm.barrier0
// CHECK-NEXT:   %[[GX:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-NEXT:   %[[GY:.*]] = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK-NEXT:   %[[GZ:.*]] = nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK-NEXT:   %[[GYZ:.*]] = arith.muli %[[GY]], %[[GZ]] : i32
// CHECK-NEXT:   %[[G:.*]] = arith.muli %[[GX]], %[[GYZ]] : i32
// CHECK-NEXT:   %[[NEXT:.*]] = arith.addi %[[N]], %[[G]] : i32
// CHECK-NEXT:   %[[NX:.*]] = arith.remui %[[NEXT]], %[[TX]] : i32

// PTX:      .shared .align 1024 .b8 k_smem[4];
// PTX:      .visible .entry k(
// PTX-NEXT:   .param .u64 k_param_0,
// PTX:        ld.param.u64 %[[PTR:rd[0-9]+]], [k_param_0];
// PTX:        @!%p{{[0-9]+}} bra $L__ori_1;
// PTX-NEXT:   atom.global.add.u32 %[[T:r[0-9]+]], [%[[PTR]]], 1;
// PTX-NEXT:   st.shared.u32 [k_smem], %[[T]];
// PTX-NEXT: $L__ori_1:
// PTX-NEXT:   bar.sync 0;
// PTX-NEXT:   ld.shared.u32 %r{{[0-9]+}}, [k_smem];
// PTX-NEXT:   bar.sync 0;

// -----

// A cluster takes one tile together: rank 0 takes it, every CTA of the cluster gets it.
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @cluster() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.num_warps = 4 : i32} {
    %x = nv_tileaa.get_program_id x
    nv_tileas.return
  }
}

// CHECK-LABEL: llvm.func @cluster(
// CHECK:      } do {
// CHECK:        %[[SLOT:.*]] = llvm.getelementptr %{{.*}}[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:   %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %[[ZERO]] : i32
// CHECK-NEXT:   %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:   %[[ZERO2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[RANK0:.*]] = arith.cmpi eq, %[[RANK]], %[[ZERO2]] : i32
// CHECK-NEXT:   %[[LEADER:.*]] = arith.andi %[[FIRST]], %[[RANK0]] : i1
// CHECK-NEXT:   scf.if %[[LEADER]] {
// CHECK-NEXT:     %[[TAKEN:.*]] = llvm.inline_asm has_side_effects "atom.global.add.u32 $0, [$1], 1;", "=r,l" %{{.*}} : (!llvm.ptr<1>) -> i32
// CHECK-NEXT:     %[[R0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:     %[[S0:.*]] = nvvm.mapa %[[SLOT]], %[[R0]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:     llvm.store %[[TAKEN]], %[[S0]] : i32, !llvm.ptr<7>
// CHECK-NEXT:     %[[R1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:     %[[S1:.*]] = nvvm.mapa %[[SLOT]], %[[R1]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:     llvm.store %[[TAKEN]], %[[S1]] : i32, !llvm.ptr<7>
// CHECK-NEXT:   }
// CHECK-NEXT:   nvvm.cluster.arrive {aligned}
// CHECK-NEXT:   nvvm.cluster.wait {aligned}
// CHECK-NEXT:   %[[N:.*]] = llvm.load %[[SLOT]] : !llvm.ptr<3> -> i32
// CHECK-NEXT:   nvvm.cluster.arrive {aligned}
// CHECK-NEXT:   nvvm.cluster.wait {aligned}
// The next tile counts clusters.
// CHECK-NEXT:   nvvm.read.ptx.sreg.nclusterid.x : i32

// PTX-LABEL: .visible .entry cluster(
// PTX:        atom.global.add.u32 %[[T:r[0-9]+]], [%rd{{[0-9]+}}], 1;
// PTX:        mapa.shared::cluster.u64 %[[P0:rd[0-9]+]], %[[BASE:rd[0-9]+]], 0;
// PTX-NEXT:   st.shared::cluster.u32 [%[[P0]]], %[[T]];
// PTX-NEXT:   mapa.shared::cluster.u64 %[[P1:rd[0-9]+]], %[[BASE]], 1;
// PTX-NEXT:   st.shared::cluster.u32 [%[[P1]]], %[[T]];
// PTX:        barrier.cluster.arrive.aligned;
// PTX-NEXT:   barrier.cluster.wait.aligned;
// PTX-NEXT:   ld.shared.u32 %r{{[0-9]+}}, [cluster_smem];
// PTX-NEXT:   barrier.cluster.arrive.aligned;
// PTX-NEXT:   barrier.cluster.wait.aligned;
