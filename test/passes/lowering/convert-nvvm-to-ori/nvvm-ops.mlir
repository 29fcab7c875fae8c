// Special registers, barriers, fences, cluster ops, mbarriers and TMA copies.
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori -t ptx | filecheck %s

llvm.func @sregs(%out: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %0 = nvvm.read.ptx.sreg.tid.y range <i32, 0, 8> : i32
  %1 = nvvm.read.ptx.sreg.nctaid.z : i32
  %2 = nvvm.read.ptx.sreg.laneid : i32
  %3 = nvvm.read.ptx.sreg.warpsize : i32
  %4 = nvvm.read.ptx.sreg.lanemask.lt : i32
  %5 = nvvm.read.ptx.sreg.cluster.ctaid.x : i32
  %6 = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %7 = nvvm.read.ptx.sreg.clusterid.z : i32
  %8 = nvvm.read.ptx.sreg.clock64 : i64
  %9 = nvvm.read.ptx.sreg.globaltimer.lo : i32
  %10 = nvvm.read.ptx.sreg.envreg3 : i32
  %sum = llvm.add %0, %1 : i32
  %sum1 = llvm.add %sum, %2 : i32
  %sum2 = llvm.add %sum1, %3 : i32
  %sum3 = llvm.add %sum2, %4 : i32
  %sum4 = llvm.add %sum3, %5 : i32
  %sum5 = llvm.add %sum4, %6 : i32
  %sum6 = llvm.add %sum5, %7 : i32
  %sum7 = llvm.add %sum6, %9 : i32
  %sum8 = llvm.add %sum7, %10 : i32
  llvm.store %sum8, %out : i32, !llvm.ptr<1>
  llvm.store %8, %out : i64, !llvm.ptr<1>
  llvm.return
}

// ORI-LABEL: ori.func visible entry @sregs
// ORI:         ori.inst "mov.u32" (def %r0, sreg(%tid.y))

// CHECK-LABEL: .entry sregs(
// CHECK:       	mov.u32 	%r0, %tid.y;
// CHECK-NEXT:  	mov.u32 	%r1, %nctaid.z;
// CHECK-NEXT:  	mov.u32 	%r2, %laneid;
// CHECK-NEXT:  	mov.u32 	%r3, %lanemask_lt;
// CHECK-NEXT:  	mov.u32 	%r4, %cluster_ctaid.x;
// CHECK-NEXT:  	mov.u32 	%r5, %cluster_ctarank;
// CHECK-NEXT:  	mov.u32 	%r6, %clusterid.z;
// CHECK-NEXT:  	mov.u64 	%rd1, %clock64;
// CHECK-NEXT:  	mov.u32 	%r7, %globaltimer_lo;
// CHECK-NEXT:  	mov.u32 	%r8, %envreg3;
// CHECK-NEXT:  	add.s32 	%r9, %r0, %r1;
// CHECK-NEXT:  	add.s32 	%r10, %r9, %r2;
// The warp size is the constant 32.
// CHECK-NEXT:  	add.s32 	%r11, %r10, 32;

// -----

llvm.func @barriers(%id: i32, %n: i32, %flag: i32, %mask: i32, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
  nvvm.barrier0
  nvvm.barrier
  nvvm.barrier id = %id number_of_threads = %n
  %count = nvvm.barrier #nvvm.reduction<popc> %flag -> i32
  %all = nvvm.barrier #nvvm.reduction<and> %flag -> i32
  nvvm.barrier #nvvm.reduction<or> %flag
  nvvm.barrier.arrive number_of_threads = %n
  nvvm.barrier.arrive id = %id number_of_threads = %n
  nvvm.fence.sc.cluster
  nvvm.fence.mbarrier.init
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.global>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}
  %leader = nvvm.elect.sync %mask -> i1
  nvvm.setmaxregister increase 240
  nvvm.setmaxregister decrease 24
  nvvm.cluster.arrive
  nvvm.cluster.arrive.relaxed {aligned}
  nvvm.cluster.wait
  llvm.store %count, %out : i32, !llvm.ptr<1>
  llvm.return
}

// ORI-LABEL: ori.func visible entry @barriers
// ORI:         ori.bar "bar.sync" (0)
// ORI-NEXT:    ori.bar "bar.sync" (0)
// ORI-NEXT:    ori.bar "bar.sync" (%r0, %r1)

// CHECK-LABEL: .entry barriers(
// CHECK:       	bar.sync 	0;
// CHECK-NEXT:  	bar.sync 	0;
// CHECK-NEXT:  	bar.sync 	%r0, %r1;
// CHECK-NEXT:  	setp.ne.s32 	%p0, %r2, 0;
// CHECK-NEXT:  	bar.red.popc.u32 	%r4, 0, %p0;
// CHECK-NEXT:  	setp.ne.s32 	%p1, %r2, 0;
// CHECK-NEXT:  	bar.red.and.pred 	%p2, 0, %p1;
// CHECK-NEXT:  	selp.u32 	%r5, 1, 0, %p2;
// CHECK-NEXT:  	setp.ne.s32 	%p3, %r2, 0;
// CHECK-NEXT:  	bar.red.or.pred 	%p4, 0, %p3;
// CHECK-NEXT:  	selp.u32 	%r6, 1, 0, %p4;
// CHECK-NEXT:  	bar.arrive 	0, %r1;
// CHECK-NEXT:  	bar.arrive 	%r0, %r1;
// CHECK-NEXT:  	fence.sc.cluster;
// CHECK-NEXT:  	fence.mbarrier_init.release.cluster;
// CHECK-NEXT:  	fence.proxy.async;
// CHECK-NEXT:  	fence.proxy.async.global;
// CHECK-NEXT:  	fence.proxy.alias;
// CHECK-NEXT:  	fence.proxy.async.shared::cluster;
// CHECK-NEXT:  	elect.sync 	_|%p5, %r3;
// CHECK-NEXT:  	setmaxnreg.inc.sync.aligned.u32 	240;
// CHECK-NEXT:  	setmaxnreg.dec.sync.aligned.u32 	24;
// CHECK-NEXT:  	barrier.cluster.arrive;
// CHECK-NEXT:  	barrier.cluster.arrive.relaxed.aligned;
// CHECK-NEXT:  	barrier.cluster.wait;
// CHECK-NEXT:  	st.global.u32 	[%rd0], %r4;

// -----

llvm.func @mbarriers(%s: !llvm.ptr<3>, %g: !llvm.ptr, %peer: i32, %tx: i32, %p: i1) attributes {nvvm.kernel} {
  %c = nvvm.mapa %s, %peer : !llvm.ptr<3> -> !llvm.ptr<7>
  %gg = nvvm.mapa %g, %peer : !llvm.ptr -> !llvm.ptr
  %n = llvm.mlir.constant(32 : i32) : i32
  nvvm.mbarrier.init %s, %n : !llvm.ptr<3>, i32
  nvvm.mbarrier.init %gg, %n, predicate = %p : !llvm.ptr, i32, i1
  %state = nvvm.mbarrier.arrive %s : !llvm.ptr<3> -> i64
  %gstate = nvvm.mbarrier.arrive %gg : !llvm.ptr -> i64
  nvvm.mbarrier.arrive %c {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
  %state2 = nvvm.mbarrier.arrive %s {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3> -> i64
  nvvm.mbarrier.arrive.expect_tx %s, %tx : !llvm.ptr<3>, i32
  nvvm.mbarrier.arrive.expect_tx %c, %tx {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>, i32
  %done = nvvm.mbarrier.test.wait %s, %state : !llvm.ptr<3>, i64 -> i1
  %gdone = nvvm.mbarrier.test.wait %gg, %gstate : !llvm.ptr, i64 -> i1
  nvvm.mbarrier.try_wait.parity %gg, %peer, %tx : !llvm.ptr, i32, i32
  nvvm.mbarrier.inval %s : !llvm.ptr<3>
  llvm.return
}

// ORI-LABEL: ori.func visible entry @mbarriers
// ORI:         ori.mbarrier "mbarrier.try_wait.parity.b64" (def %[[READY:p[0-9]+]], [%rd3], %r0, %r1)
// ORI-NEXT:    ori.bra if not %[[READY]] "bra" ^[[WAIT:bb[0-9]+]], ^[[DONE:bb[0-9]+]]
// ORI-NEXT:  ^[[DONE]]:
// ORI-NEXT:    ori.mbarrier "mbarrier.inval.shared::cta.b64" ([%rd0])

// CHECK-LABEL: .entry mbarriers(
// CHECK:       	mapa.shared::cluster.u64 	%rd2, %rd0, %r0;
// CHECK-NEXT:  	mapa.u64 	%rd3, %rd1, %r0;
// CHECK-NEXT:  	mbarrier.init.shared::cta.b64 	[%rd0], 32;
// CHECK-NEXT:  	@%p0 mbarrier.init.b64 	[%rd3], 32;
// CHECK-NEXT:  	mbarrier.arrive.shared::cta.b64 	%rd4, [%rd0];
// CHECK-NEXT:  	mbarrier.arrive.b64 	%rd5, [%rd3];
// CHECK-NEXT:  	mbarrier.arrive.release.cluster.shared::cluster.b64 	_, [%rd2];
// CHECK-NEXT:  	mbarrier.arrive.release.cluster.shared::cta.b64 	%rd6, [%rd0];
// CHECK-NEXT:  	mbarrier.arrive.expect_tx.shared::cta.b64 	_, [%rd0], %r1;
// CHECK-NEXT:  	mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 	_, [%rd2], %r1;
// CHECK-NEXT:  	mbarrier.test_wait.shared::cta.b64 	%p1, [%rd0], %rd4;
// CHECK-NEXT:  	mbarrier.test_wait.b64 	%p2, [%rd3], %rd5;
// CHECK-NEXT:  [[WAIT:\$L__ori_[0-9]+]]:
// CHECK-NEXT:  	mbarrier.try_wait.parity.b64 	%p3, [%rd3], %r0, %r1;
// CHECK-NEXT:  	@!%p3 bra 	[[WAIT]];
// CHECK-NEXT:  	mbarrier.inval.shared::cta.b64 	[%rd0];
// CHECK-NEXT:  	ret;

// -----

llvm.func @tma(%map: !llvm.ptr, %dst: !llvm.ptr<7>, %cta: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %x: i32, %y: i32, %z: i32, %off: i16, %mask: i16, %hint: i64, %p: i1) attributes {nvvm.kernel} {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x] : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y, %z] multicast_mask = %mask l2_cache_hint = %hint : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y, %z] im2col[%off] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %cta, %map, %bar, box[%x, %y] predicate = %p : !llvm.ptr<3>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %cta, box[%x, %y] l2_cache_hint = %hint : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %cta, box[%x, %y, %z] {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, <3>
  llvm.return
}

// ORI-LABEL: ori.func visible entry @tma
// ORI:         ori.cp.async.bulk "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" ([%rd1], [%rd0, {%r0}], [%rd3])

// CHECK-LABEL: .entry tma(
// CHECK:       	cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes 	[%rd1], [%rd0, {%r0}], [%rd3];
// CHECK-NEXT:  	cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint 	[%rd1], [%rd0, {%r0, %r1, %r2}], [%rd3], %rs1, %rd4;
// CHECK-NEXT:  	cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes 	[%rd1], [%rd0, {%r0, %r1, %r2}], [%rd3], {%rs0};
// CHECK-NEXT:  	@%p0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes 	[%rd2], [%rd0, {%r0, %r1}], [%rd3];
// CHECK-NEXT:  	cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group.L2::cache_hint 	[%rd0, {%r0, %r1}], [%rd2], %rd4;
// CHECK-NEXT:  	cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group 	[%rd0, {%r0, %r1, %r2}], [%rd2];

// -----

// Relaxed mbarrier arrives need PTX ISA 8.6, which the target's features ask for.
module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx86">} {
  llvm.func @relaxed(%s: !llvm.ptr<3>, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %a = nvvm.mbarrier.arrive %s {relaxed = true} : !llvm.ptr<3> -> i64
    %d = nvvm.mbarrier.test.wait %s, %a {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i64 -> i1
    llvm.store %d, %out : i1, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK:       .version 8.6
// CHECK-LABEL: .entry relaxed(
// CHECK:       	mbarrier.arrive.relaxed.cta.shared::cta.b64 	%rd2, [%rd0];
// CHECK-NEXT:  	mbarrier.test_wait.acquire.cluster.shared::cta.b64 	%p0, [%rd0], %rd2;
