// A warp-specialized TMA copy kernel: warpgroup 0 produces, warpgroup 1 consumes.
//
// Two stages of shared memory, each with a "full" mbarrier (armed by the producer with
// the byte count, completed by the TMA load) and an "empty" one (arrived on by the
// consumer when it is done with the stage). The producer's elected thread issues one TMA
// load per K tile; the consumer waits on the stage's phase, copies the tile out with a
// TMA store, and releases the stage. Tensor maps are by-value grid constants.
// RUN: tileas-opt %s -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin

module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx80">} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
  llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>

  llvm.func @tma_copy(%in_map: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
                      %out_map: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
                      %tiles: i32) attributes {nvvm.kernel, nvvm.maxnreg = 128 : i32, nvvm.reqntid = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %bytes = llvm.mlir.constant(16384 : i32) : i32
    %ticks = llvm.mlir.constant(10000 : i32) : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %row = nvvm.read.ptx.sreg.ctaid.x : i32
    %base = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %full = llvm.mlir.addressof @full : !llvm.ptr<3>
    %empty = llvm.mlir.addressof @empty : !llvm.ptr<3>
    %full1 = llvm.getelementptr %full[0, 1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<2 x i64>
    %empty1 = llvm.getelementptr %empty[0, 1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<2 x i64>
    %is0 = llvm.icmp "eq" %tid, %c0 : i32
    nvvm.mbarrier.init %full, %c1, predicate = %is0 : !llvm.ptr<3>, i32, i1
    nvvm.mbarrier.init %full1, %c1, predicate = %is0 : !llvm.ptr<3>, i32, i1
    nvvm.mbarrier.init %empty, %c128, predicate = %is0 : !llvm.ptr<3>, i32, i1
    nvvm.mbarrier.init %empty1, %c128, predicate = %is0 : !llvm.ptr<3>, i32, i1
    nvvm.fence.mbarrier.init
    nvvm.cluster.arrive.relaxed {aligned}
    nvvm.cluster.wait {aligned}
    %warpgroup = llvm.udiv %tid, %c128 : i32
    %producer = llvm.icmp "eq" %warpgroup, %c0 : i32
    llvm.cond_br %producer, ^produce, ^consume

  ^produce:
    nvvm.setmaxregister decrease 40
    %leader = nvvm.elect.sync -> i1
    llvm.br ^p_loop(%c0 : i32)
  ^p_loop(%k: i32):
    %p_more = llvm.icmp "slt" %k, %tiles : i32
    llvm.cond_br %p_more, ^p_body, ^exit
  ^p_body:
    %stage = llvm.urem %k, %c2 : i32
    %round = llvm.udiv %k, %c2 : i32
    %parity = llvm.and %round, %c1 : i32
    %free_parity = llvm.xor %parity, %c1 : i32
    %p_empty = llvm.getelementptr %empty[0, %stage] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<2 x i64>
    %p_full = llvm.getelementptr %full[0, %stage] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<2 x i64>
    %offset = llvm.mul %stage, %bytes : i32
    %dst = llvm.getelementptr %base[%offset] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    nvvm.mbarrier.try_wait.parity %p_empty, %free_parity, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.mbarrier.arrive.expect_tx %p_full, %bytes, predicate = %leader : !llvm.ptr<3>, i32, i1
    %col = llvm.mul %k, %c64 : i32
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %in_map, %p_full, box[%col, %row] predicate = %leader : !llvm.ptr<3>, !llvm.ptr
    %k_next = llvm.add %k, %c1 : i32
    llvm.br ^p_loop(%k_next : i32)

  ^consume:
    nvvm.setmaxregister increase 232
    %c_leader = nvvm.elect.sync -> i1
    %first_warp = llvm.icmp "eq" %tid, %c128 : i32
    llvm.br ^c_loop(%c0 : i32)
  ^c_loop(%j: i32):
    %c_more = llvm.icmp "slt" %j, %tiles : i32
    llvm.cond_br %c_more, ^c_body, ^drain
  ^c_body:
    %c_stage = llvm.urem %j, %c2 : i32
    %c_round = llvm.udiv %j, %c2 : i32
    %c_parity = llvm.and %c_round, %c1 : i32
    %c_full = llvm.getelementptr %full[0, %c_stage] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<2 x i64>
    %c_empty = llvm.getelementptr %empty[0, %c_stage] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<2 x i64>
    %c_offset = llvm.mul %c_stage, %bytes : i32
    %src = llvm.getelementptr %base[%c_offset] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    nvvm.mbarrier.try_wait.parity %c_full, %c_parity, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    %c_col = llvm.mul %j, %c64 : i32
    nvvm.cp.async.bulk.tensor.global.shared.cta %out_map, %src, box[%c_col, %row], predicate = %first_warp : !llvm.ptr, <3>
    llvm.inline_asm has_side_effects "cp.async.bulk.commit_group;", "" : () -> ()
    llvm.inline_asm has_side_effects "cp.async.bulk.wait_group.read 0;", "" : () -> ()
    %state = nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3> -> i64
    %j_next = llvm.add %j, %c1 : i32
    llvm.br ^c_loop(%j_next : i32)
  ^drain:
    llvm.inline_asm has_side_effects "cp.async.bulk.wait_group 0;", "" : () -> ()
    llvm.br ^exit

  ^exit:
    nvvm.barrier0
    llvm.cond_br %is0, ^release, ^done
  ^release:
    nvvm.mbarrier.inval %full : !llvm.ptr<3>
    nvvm.mbarrier.inval %full1 : !llvm.ptr<3>
    llvm.br ^done
  ^done:
    llvm.return
  }
}

// ORI:      ori.var extern shared align 1024 b8 @smem[]
// ORI-NEXT: ori.var shared align 8 b64 @full[2]
// ORI-NEXT: ori.var shared align 8 b64 @empty[2]
// ORI-NEXT: ori.func visible entry @tma_copy(align 64 b8 @tma_copy_param_0[128], align 64 b8 @tma_copy_param_1[128], u32 @tma_copy_param_2) reqntid 256, 1, 1 maxnreg 128 {
// ORI:        ori.mbarrier if %[[FIRST:p[0-9]+]] "mbarrier.init.shared::cta.b64" ([@full], 1)
// ORI-NEXT:   ori.mbarrier if %[[FIRST]] "mbarrier.init.shared::cta.b64" ([@full + 8], 1)
// ORI:        ori.fence "fence.mbarrier_init.release.cluster"
// ORI-NEXT:   ori.bar "barrier.cluster.arrive.relaxed.aligned"
// ORI-NEXT:   ori.bar "barrier.cluster.wait.aligned"
// ORI:        ori.inst "elect.sync" (def _ | %[[LEADER:p[0-9]+]], -1)
// ORI:        ori.mbarrier "mbarrier.try_wait.parity.shared::cta.b64" (def %[[READY:p[0-9]+]], [%{{rd[0-9]+}}], %{{r[0-9]+}}, 10000)
// ORI-NEXT:   ori.bra if not %[[READY]] "bra" ^[[RETRY:bb[0-9]+]], ^{{bb[0-9]+}}
// ORI:        ori.mbarrier if %[[LEADER]] "mbarrier.arrive.expect_tx.shared::cta.b64" (_, [%{{rd[0-9]+}}], 16384)
// ORI:        ori.cp.async.bulk if %[[LEADER]] "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" ([%{{rd[0-9]+}}], [%rd1, {%{{r[0-9]+}}, %r4}], [%{{rd[0-9]+}}])

// The tensor maps are grid constants: the kernel takes their generic address.
// PTX:      .extern .shared .align 1024 .b8 smem[];
// PTX-NEXT: .shared .align 8 .b64 full[2];
// PTX-NEXT: .shared .align 8 .b64 empty[2];
// PTX-NEXT: .visible .entry tma_copy(
// PTX-NEXT: 	.param .align 64 .b8 tma_copy_param_0[128],
// PTX-NEXT: 	.param .align 64 .b8 tma_copy_param_1[128],
// PTX-NEXT: 	.param .u32 tma_copy_param_2
// PTX-NEXT: )
// PTX-NEXT: .reqntid 256, 1, 1
// PTX-NEXT: .maxnreg 128
// PTX:      	mov.u64 	%rd0, tma_copy_param_0;
// PTX-NEXT: 	cvta.param.u64 	%rd1, %rd0;
// PTX-NEXT: 	mov.u64 	%rd2, tma_copy_param_1;
// PTX-NEXT: 	cvta.param.u64 	%rd3, %rd2;
// PTX:      	setmaxnreg.dec.sync.aligned.u32 	40;
// PTX-NEXT: 	elect.sync 	_|%p[[LEADER:[0-9]+]], -1;
// The producer: wait for a free stage, arm its full barrier, load.
// PTX:      	mov.u64 	%rd{{[0-9]+}}, smem;
// PTX-NEXT: 	add.s64 	%rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}};
// PTX-NEXT: [[PWAIT:\$L__ori_[0-9]+]]:
// PTX-NEXT: 	mbarrier.try_wait.parity.shared::cta.b64 	%p[[FREE:[0-9]+]], [%rd{{[0-9]+}}], %r{{[0-9]+}}, 10000;
// PTX-NEXT: 	@!%p[[FREE]] bra 	[[PWAIT]];
// PTX-NEXT: 	@%p[[LEADER]] mbarrier.arrive.expect_tx.shared::cta.b64 	_, [%rd[[FULL:[0-9]+]]], 16384;
// PTX-NEXT: 	mul.lo.s32 	%r[[COL:[0-9]+]], %r1, 64;
// PTX-NEXT: 	@%p[[LEADER]] cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes 	[%rd{{[0-9]+}}], [%rd1, {%r[[COL]], %r4}], [%rd[[FULL]]];
// The consumer: wait for a full stage, store it with TMA, release it.
// PTX:      	setmaxnreg.inc.sync.aligned.u32 	232;
// PTX:      	mov.u64 	%rd{{[0-9]+}}, smem;
// PTX-NEXT: 	add.s64 	%rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}};
// PTX-NEXT: [[CWAIT:\$L__ori_[0-9]+]]:
// PTX-NEXT: 	mbarrier.try_wait.parity.shared::cta.b64 	%p[[DONE:[0-9]+]], [%rd{{[0-9]+}}], %r{{[0-9]+}}, 10000;
// PTX-NEXT: 	@!%p[[DONE]] bra 	[[CWAIT]];
// PTX-NEXT: 	fence.proxy.async.shared::cta;
// PTX-NEXT: 	mul.lo.s32 	%r[[CCOL:[0-9]+]], %r0, 64;
// PTX-NEXT: 	@%p{{[0-9]+}} cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group 	[%rd3, {%r[[CCOL]], %r4}], [%rd{{[0-9]+}}];
// PTX-NEXT: 	cp.async.bulk.commit_group;
// PTX-NEXT: 	cp.async.bulk.wait_group.read 	0;
// PTX-NEXT: 	mbarrier.arrive.shared::cta.b64 	%rd{{[0-9]+}}, [%rd{{[0-9]+}}];
// PTX:      	cp.async.bulk.wait_group 	0;
// PTX:      	bar.sync 	0;
// PTX-NEXT: 	@!%p0 bra 	[[RET:\$L__ori_[0-9]+]];
// PTX-NEXT: 	mbarrier.inval.shared::cta.b64 	[full];
// PTX-NEXT: 	mbarrier.inval.shared::cta.b64 	[full+8];
// PTX-NEXT: [[RET]]:
// PTX-NEXT: 	ret;
