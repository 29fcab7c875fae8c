// Inline PTX as nvcc and MLIR's NVVMToLLVM emit it: register, immediate, 64-bit, float
// and tied operands (written in place when the input dies there, else copied first), two outputs through a struct, a snippet with its own predicate
// register and labels (upstream's mbarrier wait loop), and one that branches back.
// RUN: tileas-opt %s -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin

module attributes {nvvm.target = #nvvm.target<chip = "sm_90a">} {
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64

  llvm.func @asm_kernel(%out: !llvm.ptr<1>, %x: i32, %y: f32, %wide: i64) attributes {nvvm.kernel} {
    %c3 = llvm.mlir.constant(3 : i32) : i32
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %sum = llvm.inline_asm "add.s32 $0, $1, $2;", "=r,r,r" %x, %x : (i32, i32) -> i32
    %shifted = llvm.inline_asm "shl.b32 $0, $1, $2;", "=r,r,n" %sum, %c3 : (i32, i32) -> i32
    %halves = llvm.inline_asm "mov.b64 {$0, $1}, $2;", "=r,=r,l" %wide : (i64) -> !llvm.struct<(i32, i32)>
    %lo = llvm.extractvalue %halves[0] : !llvm.struct<(i32, i32)>
    %hi = llvm.extractvalue %halves[1] : !llvm.struct<(i32, i32)>
    %bumped = llvm.inline_asm "add.s32 $0, $0, 1;", "=r,0" %lo : (i32) -> i32
    %kept = llvm.inline_asm "add.s32 $0, $0, 2;", "=r,0" %shifted : (i32) -> i32
    %scaled = llvm.inline_asm "mul.rn.f32 $0, $1, 0f40000000;", "=f,f" %y : (f32) -> f32
    %positive = llvm.inline_asm "{\0A\09.reg .pred p;\0A\09setp.gt.s32 p, $1, 0;\0A\09selp.u32 $0, 1, 0, p;\0A\09}", "=r,r" %hi : (i32) -> i32
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %bar_addr = llvm.ptrtoint %bar : !llvm.ptr<3> to i32
    llvm.inline_asm has_side_effects "mbarrier.init.shared::cta.b64 [$0], 1;", "r" %bar_addr : (i32) -> ()
    llvm.inline_asm has_side_effects "{\0A\09.reg .pred       P1; \0A\09LAB_WAIT: \0A\09mbarrier.try_wait.parity.shared::cta.b64 P1, [$0], $1, $2; \0A\09@P1 bra.uni DONE; \0A\09bra.uni     LAB_WAIT; \0A\09DONE: \0A\09}", "r,r,r" %bar_addr, %c0, %c0 : (i32, i32, i32) -> ()
    %p0 = llvm.getelementptr %out[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
    %p1 = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
    %p2 = llvm.getelementptr %out[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
    %p3 = llvm.getelementptr %out[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    %p4 = llvm.getelementptr %out[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
    llvm.store %shifted, %p0 : i32, !llvm.ptr<1>
    llvm.store %bumped, %p1 : i32, !llvm.ptr<1>
    llvm.store %positive, %p2 : i32, !llvm.ptr<1>
    llvm.store %scaled, %p3 : f32, !llvm.ptr<1>
    llvm.store %kept, %p4 : i32, !llvm.ptr<1>
    llvm.return
  }
}

// Operands become the registers of their values; `n` operands their digits. A tied
// input that dies at the statement lends its register to the output (%lo, %r3), one that
// is still needed later is copied first (%shifted, %r2). The snippets' own `.reg .pred`
// get fresh predicate registers of the function, and their labels become blocks.
// PTX:      	ld.param.u32 	%r0, [asm_kernel_param_1];
// PTX-NEXT: 	ld.param.f32 	%f0, [asm_kernel_param_2];
// PTX-NEXT: 	ld.param.u64 	%rd1, [asm_kernel_param_3];
// PTX-NEXT: 	add.s32 	%r1, %r0, %r0;
// PTX-NEXT: 	shl.b32 	%r2, %r1, 3;
// PTX-NEXT: 	mov.b64 	{%r3, %r4}, %rd1;
// PTX-NEXT: 	add.s32 	%r3, %r3, 1;
// PTX-NEXT: 	mov.b32 	%r5, %r2;
// PTX-NEXT: 	add.s32 	%r5, %r5, 2;
// PTX-NEXT: 	mul.rn.f32 	%f1, %f0, 0f40000000;
// PTX-NEXT: 	setp.gt.s32 	%p0, %r4, 0;
// PTX-NEXT: 	selp.u32 	%r6, 1, 0, %p0;
// PTX-NEXT: 	mov.u64 	%rd2, bar;
// PTX-NEXT: 	cvt.u32.u64 	%r7, %rd2;
// PTX-NEXT: 	mbarrier.init.shared::cta.b64 	[%r7], 1;
// PTX-NEXT: 	mov.b32 	%r8, 0;
// PTX-NEXT: [[WAIT:\$L__ori_[0-9]+]]:
// PTX-NEXT: 	mbarrier.try_wait.parity.shared::cta.b64 	%p1, [%r7], %r8, %r8;
// PTX-NEXT: 	@%p1 bra.uni 	[[DONE:\$L__ori_[0-9]+]];
// PTX-NEXT: 	bra.uni 	[[WAIT]];
// PTX-NEXT: [[DONE]]:
// PTX-NEXT: 	st.global.u32 	[%rd0], %r2;
// PTX-NEXT: 	st.global.u32 	[%rd0+4], %r3;
// PTX-NEXT: 	st.global.u32 	[%rd0+8], %r6;
// PTX-NEXT: 	st.global.f32 	[%rd0+12], %f1;
// PTX-NEXT: 	st.global.u32 	[%rd0+16], %r5;

// ORI:        ori.inst "mov.b64" (def {%r3, %r4}, %rd1)
// ORI:        ori.mbarrier "mbarrier.try_wait.parity.shared::cta.b64" (def %p1, [%r7], %r8, %r8)
// ORI-NEXT:   ori.bra if %p1 "bra.uni" ^[[DONE:bb[0-9]+]], ^{{bb[0-9]+}}
