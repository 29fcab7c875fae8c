// A block-wide sum: each thread accumulates a strided slice of the input in a loop, the
// partial sums meet in shared memory, and a tree reduction halves the active threads
// each step with a CTA barrier between steps; thread 0 writes the block's sum.
// RUN: tileas-opt %s -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin

module attributes {nvvm.target = #nvvm.target<chip = "sm_90a">} {
  llvm.mlir.global internal @partial() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<256 x f32>

  llvm.func @block_sum(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>, %n: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256, 1, 1>} {
    %tid = nvvm.read.ptx.sreg.tid.x range <i32, 0, 256> : i32
    %bid = nvvm.read.ptx.sreg.ctaid.x : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c256 = arith.constant 256 : i32
    %zero = arith.constant 0.0 : f32
    %start = arith.muli %bid, %c256 : i32
    %first = arith.addi %start, %tid : i32
    %grid = nvvm.read.ptx.sreg.nctaid.x : i32
    %stride = arith.muli %grid, %c256 : i32
    // Grid-stride accumulation.
    %last:2 = scf.while (%i = %first, %acc = %zero) : (i32, f32) -> (i32, f32) {
      %more = arith.cmpi slt, %i, %n : i32
      scf.condition(%more) %i, %acc : i32, f32
    } do {
    ^bb0(%j: i32, %part: f32):
      %pj = llvm.getelementptr %in[%j] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %v = llvm.load %pj : !llvm.ptr<1> -> f32
      %next_acc = arith.addf %part, %v : f32
      %next_i = arith.addi %j, %stride : i32
      scf.yield %next_i, %next_acc : i32, f32
    }
    %smem = llvm.mlir.addressof @partial : !llvm.ptr<3>
    %slot = llvm.getelementptr %smem[0, %tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<256 x f32>
    llvm.store %last#1, %slot : f32, !llvm.ptr<3>
    nvvm.barrier0
    // Tree reduction: for (s = 128; s > 0; s >>= 1).
    %c128 = arith.constant 128 : i32
    cf.br ^step(%c128 : i32)
  ^step(%s: i32):
    %active = arith.cmpi ult, %tid, %s : i32
    cf.cond_br %active, ^add, ^sync
  ^add:
    %other = arith.addi %tid, %s : i32
    %pother = llvm.getelementptr %smem[0, %other] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<256 x f32>
    %a = llvm.load %slot : !llvm.ptr<3> -> f32
    %b = llvm.load %pother : !llvm.ptr<3> -> f32
    %ab = arith.addf %a, %b : f32
    llvm.store %ab, %slot : f32, !llvm.ptr<3>
    cf.br ^sync
  ^sync:
    nvvm.barrier0
    %half = arith.shrui %s, %c1 : i32
    %again = arith.cmpi ugt, %half, %c0 : i32
    cf.cond_br %again, ^step(%half : i32), ^done
  ^done:
    %leader = arith.cmpi eq, %tid, %c0 : i32
    cf.cond_br %leader, ^write, ^exit
  ^write:
    %total = llvm.load %smem : !llvm.ptr<3> -> f32
    %pout = llvm.getelementptr %out[%bid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.store %total, %pout : f32, !llvm.ptr<1>
    cf.br ^exit
  ^exit:
    llvm.return
  }
}

// The scf.while loop: its header takes the loop-carried registers, written by copies on
// the way in and on the back edge; the "after" region reuses them without copies.
// ORI:      ori.var shared align 16 f32 @partial[256]
// ORI:        ori.inst "mov.b32" (def %[[I:r[0-9]+]], %[[FIRST:r[0-9]+]])
// ORI-NEXT:   ori.inst "mov.f32" (def %[[ACC:f[0-9]+]], f32(0x0))
// ORI-NEXT:   ori.fallthrough ^[[HEAD:bb[0-9]+]]
// ORI-NEXT: ^[[HEAD]]:
// ORI-NEXT:   ori.inst "setp.lt.s32" (def %[[MORE:p[0-9]+]], %[[I]], %{{r[0-9]+}})
// ORI-NEXT:   ori.bra if not %[[MORE]] "bra" ^[[AFTER:bb[0-9]+]], ^[[BODY:bb[0-9]+]]
// ORI-NEXT: ^[[BODY]]:
// ORI:        ori.inst "ld.global.f32" (def %[[V:f[0-9]+]], [%{{rd[0-9]+}}])
// ORI-NEXT:   ori.inst "add.f32" (def %[[SUM:f[0-9]+]], %[[ACC]], %[[V]])
// ORI-NEXT:   ori.inst "add.s32" (def %[[NEXT:r[0-9]+]], %[[I]], %{{r[0-9]+}})
// ORI-NEXT:   ori.inst "mov.f32" (def %[[ACC]], %[[SUM]])
// ORI-NEXT:   ori.inst "mov.b32" (def %[[I]], %[[NEXT]])
// ORI-NEXT:   ori.fallthrough ^[[HEAD]]
// ORI-NEXT: ^[[AFTER]]:
// ORI:        ori.inst "mov.u64" (def %{{rd[0-9]+}}, @partial)
// ORI:        ori.inst "st.shared.f32" ([%[[SLOT:rd[0-9]+]]], %[[ACC]])
// ORI-NEXT:   ori.bar "bar.sync" (0)

// The tree reduction: the back edge of the step loop goes through an edge block that
// copies the halved stride, so the exit path never sees the copy.
// PTX:      .shared .align 16 .f32 partial[256];
// PTX:      	mov.b32 	%r1, 128;
// PTX-NEXT: [[STEP:\$L__ori_[0-9]+]]:
// PTX-NEXT: 	setp.lt.u32 	%p1, %r3, %r1;
// PTX-NEXT: 	@!%p1 bra 	[[SYNC:\$L__ori_[0-9]+]];
// PTX:      	ld.shared.f32 	%f{{[0-9]+}}, [%rd4];
// PTX:      	st.shared.f32 	[%rd4], %f{{[0-9]+}};
// PTX-NEXT: [[SYNC]]:
// PTX-NEXT: 	bar.sync 	0;
// PTX-NEXT: 	shr.u32 	%r[[HALF:[0-9]+]], %r1, 1;
// PTX-NEXT: 	setp.gt.u32 	%p2, %r[[HALF]], 0;
// PTX-NEXT: 	@!%p2 bra 	[[DONE:\$L__ori_[0-9]+]];
// PTX-NEXT: 	mov.b32 	%r1, %r[[HALF]];
// PTX-NEXT: 	bra 	[[STEP]];
// PTX-NEXT: [[DONE]]:
// PTX-NEXT: 	setp.eq.s32 	%p3, %r3, 0;
// PTX-NEXT: 	@!%p3 bra 	[[EXIT:\$L__ori_[0-9]+]];
// PTX-NEXT: 	ld.shared.f32 	%f{{[0-9]+}}, [partial];
// PTX:      [[EXIT]]:
// PTX-NEXT: 	ret;
