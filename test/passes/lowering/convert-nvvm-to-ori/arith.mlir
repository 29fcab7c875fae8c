// Integer and float arithmetic, comparisons, selects, casts and constants.
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori -t ptx | filecheck %s

func.func @int32(%a: i32, %b: i32) -> i32 {
  %c5 = arith.constant 5 : i32
  %0 = arith.addi %a, %b : i32
  %1 = arith.subi %0, %c5 : i32
  %2 = arith.muli %c5, %1 : i32
  %3 = arith.divsi %2, %b : i32
  %4 = arith.divui %3, %b : i32
  %5 = arith.remsi %4, %b : i32
  %6 = arith.remui %5, %b : i32
  %7 = arith.andi %6, %b : i32
  %8 = arith.ori %7, %b : i32
  %9 = arith.xori %8, %b : i32
  %10 = arith.shli %9, %b : i32
  %11 = arith.shrui %10, %c5 : i32
  %12 = arith.shrsi %11, %b : i32
  %13 = arith.minsi %12, %b : i32
  %14 = arith.maxsi %13, %b : i32
  %15 = arith.minui %14, %b : i32
  %16 = arith.maxui %15, %b : i32
  %17 = llvm.add %16, %a : i32
  %18 = llvm.mul %17, %a : i32
  %19 = llvm.lshr %18, %a : i32
  %20 = llvm.ashr %19, %a : i32
  func.return %20 : i32
}

// ORI-LABEL: ori.func visible func @int32
// ORI:         ori.inst "add.s32" (def %r2, %r0, %r1)
// ORI-NEXT:    ori.inst "sub.s32" (def %r3, %r2, 5)

// CHECK-LABEL: .visible .func (.param .b32 func_retval0) int32(
// CHECK:       	add.s32 	%r2, %r0, %r1;
// CHECK-NEXT:  	sub.s32 	%r3, %r2, 5;
// CHECK-NEXT:  	mul.lo.s32 	%r4, %r3, 5;
// CHECK-NEXT:  	div.s32 	%r5, %r4, %r1;
// CHECK-NEXT:  	div.u32 	%r6, %r5, %r1;
// CHECK-NEXT:  	rem.s32 	%r7, %r6, %r1;
// CHECK-NEXT:  	rem.u32 	%r8, %r7, %r1;
// CHECK-NEXT:  	and.b32 	%r9, %r8, %r1;
// CHECK-NEXT:  	or.b32 	%r10, %r9, %r1;
// CHECK-NEXT:  	xor.b32 	%r11, %r10, %r1;
// CHECK-NEXT:  	shl.b32 	%r12, %r11, %r1;
// CHECK-NEXT:  	shr.u32 	%r13, %r12, 5;
// CHECK-NEXT:  	shr.s32 	%r14, %r13, %r1;
// CHECK-NEXT:  	min.s32 	%r15, %r14, %r1;
// CHECK-NEXT:  	max.s32 	%r16, %r15, %r1;
// CHECK-NEXT:  	min.u32 	%r17, %r16, %r1;
// CHECK-NEXT:  	max.u32 	%r18, %r17, %r1;
// CHECK-NEXT:  	add.s32 	%r19, %r18, %r0;
// CHECK-NEXT:  	mul.lo.s32 	%r20, %r19, %r0;
// CHECK-NEXT:  	shr.u32 	%r21, %r20, %r0;
// CHECK-NEXT:  	shr.s32 	%r22, %r21, %r0;
// CHECK-NEXT:  	st.param.u32 	[func_retval0], %r22;

// -----

// 64-bit shifts take a 32-bit amount; i8 values live in 16-bit registers and are
// extended before the operations that read their upper bits.
func.func @widths(%a: i64, %b: i64, %c: i8, %d: i8, %e: i16) -> (i64, i8, i16) {
  %0 = arith.shli %a, %b : i64
  %1 = arith.shrsi %0, %b : i64
  %2 = arith.addi %c, %d : i8
  %3 = arith.divsi %2, %d : i8
  %4 = arith.maxui %3, %d : i8
  %5 = arith.shrui %e, %e : i16
  %6 = arith.muli %5, %e : i16
  func.return %1, %4, %6 : i64, i8, i16
}

// CHECK-LABEL: .visible .func (.param .align 8 .b8 func_retval0[16]) widths(
// CHECK:       	cvt.u32.u64 	%r0, %rd1;
// CHECK-NEXT:  	shl.b64 	%rd2, %rd0, %r0;
// CHECK-NEXT:  	cvt.u32.u64 	%r1, %rd1;
// CHECK-NEXT:  	shr.s64 	%rd3, %rd2, %r1;
// CHECK-NEXT:  	add.s16 	%rs3, %rs0, %rs1;
// CHECK-NEXT:  	cvt.s16.s8 	%rs4, %rs3;
// CHECK-NEXT:  	cvt.s16.s8 	%rs5, %rs1;
// CHECK-NEXT:  	div.s16 	%rs6, %rs4, %rs5;
// CHECK-NEXT:  	and.b16 	%rs7, %rs6, 255;
// CHECK-NEXT:  	and.b16 	%rs8, %rs1, 255;
// CHECK-NEXT:  	max.u16 	%rs9, %rs7, %rs8;
// CHECK-NEXT:  	cvt.u32.u16 	%r2, %rs2;
// CHECK-NEXT:  	shr.u16 	%rs10, %rs2, %r2;
// CHECK-NEXT:  	mul.lo.s16 	%rs11, %rs10, %rs2;
// CHECK-NEXT:  	st.param.u64 	[func_retval0], %rd3;
// CHECK-NEXT:  	st.param.u8 	[func_retval0+8], %rs9;
// CHECK-NEXT:  	st.param.u16 	[func_retval0+10], %rs11;

// -----

// i1 values are predicates.
func.func @predicates(%a: i1, %b: i1) -> (i1, i1, i1, i1, i1) {
  %t = arith.constant true
  %0 = arith.andi %a, %b : i1
  %1 = arith.ori %0, %b : i1
  %2 = arith.xori %1, %t : i1
  %3 = arith.addi %2, %a : i1
  %4 = arith.cmpi eq, %3, %b : i1
  %5 = arith.cmpi ne, %3, %b : i1
  %6 = arith.cmpi slt, %a, %b : i1
  func.return %2, %3, %4, %5, %6 : i1, i1, i1, i1, i1
}

// CHECK-LABEL: predicates(
// CHECK:       	and.pred 	%p2, %p0, %p1;
// CHECK-NEXT:  	or.pred 	%p3, %p2, %p1;
// CHECK-NEXT:  	mov.pred 	%p5, 1;
// CHECK-NEXT:  	xor.pred 	%p4, %p3, %p5;
// CHECK-NEXT:  	xor.pred 	%p6, %p4, %p0;
// CHECK-NEXT:  	xor.pred 	%p8, %p6, %p1;
// CHECK-NEXT:  	not.pred 	%p7, %p8;
// CHECK-NEXT:  	xor.pred 	%p9, %p6, %p1;
// CHECK-NEXT:  	selp.b32 	%r0, -1, 0, %p0;
// CHECK-NEXT:  	selp.b32 	%r1, -1, 0, %p1;
// CHECK-NEXT:  	setp.lt.s32 	%p10, %r0, %r1;
// CHECK-NEXT:  	selp.u16 	%rs2, 1, 0, %p4;
// CHECK-NEXT:  	st.param.u8 	[func_retval0], %rs2;

// -----

func.func @floats(%a: f32, %b: f32, %c: f64, %h: f16, %g: bf16) -> (f32, f64, f16, bf16) {
  %half = arith.constant 0.5 : f32
  %0 = arith.addf %a, %b : f32
  %1 = arith.subf %0, %half : f32
  %2 = arith.mulf %1, %b : f32
  %3 = arith.divf %2, %b : f32
  %4 = arith.negf %3 : f32
  %5 = arith.maximumf %4, %b : f32
  %6 = arith.minimumf %5, %b : f32
  %7 = arith.maxnumf %6, %b : f32
  %8 = arith.minnumf %7, %b : f32
  %9 = llvm.intr.fabs(%8) : (f32) -> f32
  %10 = llvm.intr.sqrt(%9) : (f32) -> f32
  %11 = llvm.intr.ceil(%10) : (f32) -> f32
  %12 = llvm.intr.floor(%11) : (f32) -> f32
  %13 = llvm.intr.fma(%12, %b, %half) : (f32, f32, f32) -> f32
  %14 = llvm.intr.copysign(%13, %b) : (f32, f32) -> f32
  %15 = llvm.fdiv %c, %c : f64
  %16 = llvm.fmul %15, %c : f64
  %one = arith.constant 1.0 : f16
  %17 = arith.addf %h, %one : f16
  %18 = arith.mulf %17, %h : f16
  %19 = arith.subf %g, %g : bf16
  func.return %14, %16, %18, %19 : f32, f64, f16, bf16
}

// CHECK-LABEL: floats(
// CHECK:       	add.f32 	%f2, %f0, %f1;
// CHECK-NEXT:  	sub.f32 	%f3, %f2, 0f3F000000;
// CHECK-NEXT:  	mul.f32 	%f4, %f3, %f1;
// CHECK-NEXT:  	div.rn.f32 	%f5, %f4, %f1;
// CHECK-NEXT:  	neg.f32 	%f6, %f5;
// CHECK-NEXT:  	max.NaN.f32 	%f7, %f6, %f1;
// CHECK-NEXT:  	min.NaN.f32 	%f8, %f7, %f1;
// CHECK-NEXT:  	max.f32 	%f9, %f8, %f1;
// CHECK-NEXT:  	min.f32 	%f10, %f9, %f1;
// CHECK-NEXT:  	abs.f32 	%f11, %f10;
// CHECK-NEXT:  	sqrt.rn.f32 	%f12, %f11;
// CHECK-NEXT:  	cvt.rpi.f32.f32 	%f13, %f12;
// CHECK-NEXT:  	cvt.rmi.f32.f32 	%f14, %f13;
// CHECK-NEXT:  	fma.rn.f32 	%f15, %f14, %f1, 0f3F000000;
// CHECK-NEXT:  	copysign.f32 	%f16, %f1, %f15;
// CHECK-NEXT:  	div.rn.f64 	%fd1, %fd0, %fd0;
// CHECK-NEXT:  	mul.f64 	%fd2, %fd1, %fd0;
// CHECK-NEXT:  	mov.b16 	%rs3, 15360;
// CHECK-NEXT:  	add.f16 	%rs2, %rs0, %rs3;
// CHECK-NEXT:  	mul.f16 	%rs4, %rs2, %rs0;
// CHECK-NEXT:  	sub.bf16 	%rs5, %rs1, %rs1;

// -----

func.func @compare_and_select(%a: f32, %b: f32, %i: i32, %p: i1, %s: !llvm.struct<(f32, i1)>, %t: !llvm.struct<(f32, i1)>) -> (i1, i1, i1, f32, i32, !llvm.struct<(f32, i1)>) {
  %0 = arith.cmpf olt, %a, %b : f32
  %1 = arith.cmpf une, %a, %b : f32
  %2 = arith.cmpf true, %a, %b : f32
  %c7 = arith.constant 7 : i32
  %3 = arith.cmpi uge, %i, %c7 : i32
  %4 = arith.select %0, %a, %b : f32
  %5 = arith.select %3, %c7, %i : i32
  %6 = llvm.select %p, %s, %t : i1, !llvm.struct<(f32, i1)>
  func.return %1, %2, %3, %4, %5, %6 : i1, i1, i1, f32, i32, !llvm.struct<(f32, i1)>
}

// CHECK-LABEL: compare_and_select(
// A struct of (f32, i1) is passed as 8 bytes: the i1 as the byte at offset 4.
// CHECK:       	ld.param.f32 	%f3, [compare_and_select_param_5];
// CHECK-NEXT:  	ld.param.u8 	%rs2, [compare_and_select_param_5+4];
// CHECK-NEXT:  	setp.ne.s16 	%p2, %rs2, 0;
// CHECK-NEXT:  	setp.lt.f32 	%p3, %f0, %f1;
// CHECK-NEXT:  	setp.neu.f32 	%p4, %f0, %f1;
// CHECK-NEXT:  	setp.ge.u32 	%p5, %r0, 7;
// CHECK-NEXT:  	selp.f32 	%f4, %f0, %f1, %p3;
// CHECK-NEXT:  	selp.b32 	%r1, 7, %r0, %p5;
// CHECK-NEXT:  	selp.f32 	%f5, %f2, %f3, %p0;
// CHECK-NEXT:  	mov.pred 	%p6, %p2;
// CHECK-NEXT:  	@%p0 mov.pred 	%p6, %p1;
// The constant true of `cmpf true` is stored as the byte 1.
// CHECK:       	st.param.u8 	[func_retval0+1], 1;

// -----

func.func @casts(%i: i32, %l: i64, %b: i8, %p: i1, %f: f32, %d: f64, %h: f16, %g: bf16) -> (i64, i64, i16, i8, i1, i32, f32, f32, i32, i32, f64, f32, f16, f32, bf16, f32, i32, f32, index, i32) {
  %0 = arith.extsi %i : i32 to i64
  %1 = arith.extui %b : i8 to i64
  %2 = arith.trunci %l : i64 to i16
  %3 = arith.trunci %i : i32 to i8
  %4 = arith.trunci %i : i32 to i1
  %5 = arith.extsi %p : i1 to i32
  %6 = arith.sitofp %i : i32 to f32
  %7 = arith.uitofp %p : i1 to f32
  %8 = arith.fptosi %f : f32 to i32
  %9 = arith.fptoui %f : f32 to i32
  %10 = arith.extf %f : f32 to f64
  %11 = arith.truncf %d : f64 to f32
  %12 = arith.truncf %f : f32 to f16
  %13 = arith.extf %h : f16 to f32
  %14 = arith.truncf %f : f32 to bf16
  %15 = arith.extf %g : bf16 to f32
  %16 = arith.bitcast %f : f32 to i32
  %17 = llvm.bitcast %i : i32 to f32
  %18 = arith.index_cast %i : i32 to index
  %ptr = llvm.inttoptr %l : i64 to !llvm.ptr
  %19 = llvm.ptrtoint %ptr : !llvm.ptr to i32
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19 : i64, i64, i16, i8, i1, i32, f32, f32, i32, i32, f64, f32, f16, f32, bf16, f32, i32, f32, index, i32
}

// CHECK-LABEL: casts(
// CHECK:       	cvt.s64.s32 	%rd{{[0-9]+}}, %r0;
// CHECK-NEXT:  	cvt.u64.u8 	%rd{{[0-9]+}}, %rs0;
// CHECK-NEXT:  	cvt.u16.u64 	%rs{{[0-9]+}}, %rd0;
// CHECK-NEXT:  	cvt.u16.u32 	%rs{{[0-9]+}}, %r0;
// CHECK-NEXT:  	and.b32 	%r[[LOW:[0-9]+]], %r0, 1;
// CHECK-NEXT:  	setp.ne.s32 	%p{{[0-9]+}}, %r[[LOW]], 0;
// CHECK-NEXT:  	selp.b32 	%r{{[0-9]+}}, -1, 0, %p0;
// CHECK-NEXT:  	cvt.rn.f32.s32 	%f{{[0-9]+}}, %r0;
// CHECK-NEXT:  	selp.b32 	%r[[WIDE:[0-9]+]], 1, 0, %p0;
// CHECK-NEXT:  	cvt.rn.f32.u32 	%f{{[0-9]+}}, %r[[WIDE]];
// CHECK-NEXT:  	cvt.rzi.s32.f32 	%r{{[0-9]+}}, %f0;
// CHECK-NEXT:  	cvt.rzi.u32.f32 	%r{{[0-9]+}}, %f0;
// CHECK-NEXT:  	cvt.f64.f32 	%fd{{[0-9]+}}, %f0;
// CHECK-NEXT:  	cvt.rn.f32.f64 	%f{{[0-9]+}}, %fd0;
// CHECK-NEXT:  	cvt.rn.f16.f32 	%rs{{[0-9]+}}, %f0;
// CHECK-NEXT:  	cvt.f32.f16 	%f{{[0-9]+}}, %rs2;
// CHECK-NEXT:  	cvt.rn.bf16.f32 	%rs{{[0-9]+}}, %f0;
// CHECK-NEXT:  	cvt.f32.bf16 	%f{{[0-9]+}}, %rs3;
// CHECK-NEXT:  	mov.b32 	%r{{[0-9]+}}, %f0;
// CHECK-NEXT:  	mov.b32 	%f{{[0-9]+}}, %r0;
// CHECK-NEXT:  	cvt.s64.s32 	%rd{{[0-9]+}}, %r0;
// CHECK-NEXT:  	cvt.u32.u64 	%r{{[0-9]+}}, %rd0;

// -----

// An i8 shift amount is the low byte of its 16-bit register.
func.func @byte_shifts(%a: i8, %b: i8) -> i8 {
  %0 = arith.shli %a, %b : i8
  %1 = arith.shrui %0, %b : i8
  func.return %1 : i8
}

// CHECK-LABEL: byte_shifts(
// CHECK:       	cvt.u32.u8 	%r0, %rs1;
// CHECK-NEXT:  	shl.b16 	%rs2, %rs0, %r0;
// CHECK-NEXT:  	cvt.u32.u8 	%r1, %rs1;
// CHECK-NEXT:  	and.b16 	%rs3, %rs2, 255;
// CHECK-NEXT:  	shr.u16 	%rs4, %rs3, %r1;
