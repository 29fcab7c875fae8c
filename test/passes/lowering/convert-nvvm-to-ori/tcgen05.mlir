// The tcgen05 ops (sm_100a): tensor memory, fences, commits, loads and stores, MMAs.
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori -t ptx | filecheck %s

// A tensor-memory address (!llvm.ptr<6>) is a 32-bit register; the allocation writes it
// to shared memory, where the warp reads it back. The loaded registers of a vector are
// stored one by one.
module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">} {
  llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  llvm.func @memory(%out: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %n = llvm.mlir.constant(64 : i32) : i32
    nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
    nvvm.tcgen05.relinquish_alloc_permit
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    nvvm.barrier0
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
    %t = llvm.load %slot : !llvm.ptr<3> -> !llvm.ptr<6>
    %r = nvvm.tcgen05.ld %t {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<4xi32>
    nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
    llvm.store %r, %out : vector<4xi32>, !llvm.ptr<1>
    %h = nvvm.tcgen05.ld %t pack {shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>} : vector<2xi32>
    nvvm.tcgen05.st %t, %h {shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>} : vector<2xi32>
    %off = llvm.mlir.constant(2 : i64) : i64
    %x = nvvm.tcgen05.ld %t, %off {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : i32
    nvvm.tcgen05.st %t, %x, %off {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : i32
    nvvm.tcgen05.wait #nvvm.tcgen05_wait<store>
    nvvm.tcgen05.commit %bar : !llvm.ptr<3>
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    nvvm.barrier0
    nvvm.tcgen05.dealloc %t, %n : !llvm.ptr<6>, i32
    llvm.return
  }
}

// ORI-LABEL: ori.func visible entry @memory
// ORI:         ori.inst "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32" ([@slot], 64)

// CHECK-LABEL: .entry memory(
// CHECK:       	tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 	[slot], 64;
// CHECK-NEXT:  	tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// CHECK-NEXT:  	tcgen05.fence::before_thread_sync;
// CHECK-NEXT:  	bar.sync 	0;
// CHECK-NEXT:  	tcgen05.fence::after_thread_sync;
// CHECK-NEXT:  	ld.shared.u32 	[[T:%r[0-9]+]], [slot];
// CHECK-NEXT:  	tcgen05.ld.sync.aligned.32x32b.x4.b32 	{[[R0:%r[0-9]+]], [[R1:%r[0-9]+]], [[R2:%r[0-9]+]], [[R3:%r[0-9]+]]}, [[[T]]];
// CHECK-NEXT:  	tcgen05.wait::ld.sync.aligned;
// CHECK-NEXT:  	st.global.u32 	[%rd0], [[R0]];
// CHECK-NEXT:  	st.global.u32 	[%rd0+4], [[R1]];
// CHECK-NEXT:  	st.global.u32 	[%rd0+8], [[R2]];
// CHECK-NEXT:  	st.global.u32 	[%rd0+12], [[R3]];
// CHECK-NEXT:  	tcgen05.ld.sync.aligned.16x128b.x1.pack::16b.b32 	{[[H0:%r[0-9]+]], [[H1:%r[0-9]+]]}, [[[T]]];
// CHECK-NEXT:  	tcgen05.st.sync.aligned.16x128b.x1.b32 	[[[T]]], {[[H0]], [[H1]]};
// CHECK-NEXT:  	tcgen05.ld.sync.aligned.16x32bx2.x1.b32 	{[[X:%r[0-9]+]]}, [[[T]]], 2;
// CHECK-NEXT:  	tcgen05.st.sync.aligned.16x32bx2.x1.b32 	[[[T]]], 2, {[[X]]};
// CHECK-NEXT:  	tcgen05.wait::st.sync.aligned;
// CHECK-NEXT:  	tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 	[bar];
// CHECK-NEXT:  	tcgen05.fence::before_thread_sync;
// CHECK-NEXT:  	bar.sync 	0;
// CHECK-NEXT:  	tcgen05.dealloc.cta_group::1.sync.aligned.b32 	[[T]], 64;

// -----

// One MMA of each kind: UTCHMMA (f16, tf32), UTCQMMA (f8f6f4), UTCIMMA (i8). The
// scale input is an immediate; the disable-output-lane mask comes before the enable.
module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">} {
  llvm.func @kinds(%d: !llvm.ptr<6>, %a: i64, %b: i64, %id: i32, %en: i1, %mask: vector<4xi32>) attributes {nvvm.kernel} {
    %scale = llvm.mlir.constant(3 : i64) : i64
    nvvm.tcgen05.mma %d, %a, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
    nvvm.tcgen05.mma %d, %a, %b, %id, %en scale = %scale {kind = #nvvm.tcgen05_mma_kind<tf32>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1, i64)
    nvvm.tcgen05.mma %d, %a, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f8f6f4>, ctaGroup = #nvvm.cta_group<cta_1>, collectorOp = #nvvm.tcgen05_mma_collectorop<fill>} : (!llvm.ptr<6>, i64, i64, i32, i1)
    nvvm.tcgen05.mma %d, %a, %b, %id, %en mask = %mask {kind = #nvvm.tcgen05_mma_kind<i8>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1, vector<4xi32>)
    nvvm.tcgen05.mma %d, %d, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
    llvm.return
  }
}

// CHECK-LABEL: .entry kinds(
// CHECK:       	tcgen05.mma.cta_group::1.kind::f16 	[%r0], %rd0, %rd1, %r1, %p0;
// CHECK-NEXT:  	tcgen05.mma.cta_group::1.kind::tf32 	[%r0], %rd0, %rd1, %r1, %p0, 3;
// CHECK-NEXT:  	tcgen05.mma.cta_group::1.kind::f8f6f4.collector::a::fill 	[%r0], %rd0, %rd1, %r1, %p0;
// CHECK-NEXT:  	tcgen05.mma.cta_group::1.kind::i8 	[%r0], %rd0, %rd1, %r1, {%r2, %r3, %r4, %r5}, %p0;
// CHECK-NEXT:  	tcgen05.mma.cta_group::1.kind::f16 	[%r0], [%r0], %rd1, %r1, %p0;

// -----

// A CTA pair: the allocation, the MMA, the copies into tensor memory and the shift for
// both CTAs, the commit multicast to both.
module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">} {
  llvm.mlir.global internal @slot() {addr_space = 3 : i32, alignment = 4 : i64} : i32
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  llvm.func @pair(%a: i64, %b: i64, %id: i32, %en: i1) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %slot = llvm.mlir.addressof @slot : !llvm.ptr<3>
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %n = llvm.mlir.constant(128 : i32) : i32
    %mask = llvm.mlir.constant(3 : i16) : i16
    nvvm.tcgen05.alloc %slot, %n {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
    nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
    %t = llvm.load %slot : !llvm.ptr<3> -> !llvm.ptr<6>
    nvvm.tcgen05.mma %t, %a, %b, %id, %en {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_2>} : (!llvm.ptr<6>, i64, i64, i32, i1)
    nvvm.tcgen05.cp %t, %a {shape = #nvvm.tcgen05_cp_shape<shape_64x128b>, group = #nvvm.cta_group<cta_2>, multicast = #nvvm.tcgen05_cp_multicast<warpx2_01_23>}
    nvvm.tcgen05.cp %t, %b {shape = #nvvm.tcgen05_cp_shape<shape_32x128b>, group = #nvvm.cta_group<cta_2>, multicast = #nvvm.tcgen05_cp_multicast<warpx4>}
    nvvm.tcgen05.cp %t, %a {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>, group = #nvvm.cta_group<cta_2>}
    nvvm.tcgen05.shift %t {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>
    nvvm.tcgen05.commit %bar, multicast_mask = %mask {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
    nvvm.tcgen05.dealloc %t, %n {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>, i32
    llvm.return
  }
}

// CHECK-LABEL: .entry pair(
// CHECK:       	tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 	[slot], 128;
// CHECK-NEXT:  	tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// CHECK-NEXT:  	ld.shared.u32 	[[T:%r[0-9]+]], [slot];
// CHECK-NEXT:  	tcgen05.mma.cta_group::2.kind::f16 	[[[T]]], %rd0, %rd1, %r0, %p0;
// CHECK-NEXT:  	tcgen05.cp.cta_group::2.64x128b.warpx2::01_23 	[[[T]]], %rd0;
// CHECK-NEXT:  	tcgen05.cp.cta_group::2.32x128b.warpx4 	[[[T]]], %rd1;
// CHECK-NEXT:  	tcgen05.cp.cta_group::2.128x256b 	[[[T]]], %rd0;
// CHECK-NEXT:  	tcgen05.shift.cta_group::2.down 	[[[T]]];
// CHECK-NEXT:  	tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 	[bar], 3;
// CHECK-NEXT:  	tcgen05.dealloc.cta_group::2.sync.aligned.b32 	[[T]], 128;

// -----

// Generic addresses: no state space on the allocation slot or the mbarrier.
module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">} {
  llvm.func @generic(%slot: !llvm.ptr, %bar: !llvm.ptr) attributes {nvvm.kernel} {
    %n = llvm.mlir.constant(32 : i32) : i32
    nvvm.tcgen05.alloc %slot, %n : !llvm.ptr, i32
    nvvm.tcgen05.commit %bar : !llvm.ptr
    llvm.return
  }
}

// CHECK-LABEL: .entry generic(
// CHECK:       	tcgen05.alloc.cta_group::1.sync.aligned.b32 	[%rd0], 32;
// CHECK-NEXT:  	tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 	[%rd1];
