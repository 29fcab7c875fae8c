// A kernel that calls device functions: scalar, predicate and byte arguments, a struct
// result, two results from a func.func, a call to a function defined later in the
// module (so it needs a prototype), and a private helper (no .visible).
// RUN: tileas-opt %s -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin

module attributes {nvvm.target = #nvvm.target<chip = "sm_90a">} {
  func.func private @clamp(%x: f32, %lo: f32, %hi: f32) -> f32 {
    %a = arith.maxnumf %x, %lo : f32
    %b = arith.minnumf %a, %hi : f32
    func.return %b : f32
  }

  func.func @divmod(%a: i32, %b: i32) -> (i32, i32) {
    %q = arith.divui %a, %b : i32
    %r = arith.remui %a, %b : i32
    func.return %q, %r : i32, i32
  }

  llvm.func @kernel(%out: !llvm.ptr<1>, %x: f32, %n: i32, %flag: i1, %tag: i8) attributes {nvvm.kernel} {
    %zero = llvm.mlir.constant(0.0 : f32) : f32
    %one = llvm.mlir.constant(1.0 : f32) : f32
    %c7 = llvm.mlir.constant(7 : i32) : i32
    %y = func.call @clamp(%x, %zero, %one) : (f32, f32, f32) -> f32
    %qr:2 = func.call @divmod(%n, %c7) : (i32, i32) -> (i32, i32)
    %pair = llvm.call @make_pair(%y, %qr#0, %flag, %tag) : (f32, i32, i1, i8) -> !llvm.struct<(f32, i32)>
    %f = llvm.extractvalue %pair[0] : !llvm.struct<(f32, i32)>
    %i = llvm.extractvalue %pair[1] : !llvm.struct<(f32, i32)>
    %sum = llvm.add %i, %qr#1 : i32
    %p1 = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %f, %out : f32, !llvm.ptr<1>
    llvm.store %sum, %p1 : i32, !llvm.ptr<1>
    llvm.return
  }

  llvm.func @make_pair(%f: f32, %i: i32, %negate: i1, %tag: i8) -> !llvm.struct<(f32, i32)> {
    %u = llvm.mlir.undef : !llvm.struct<(f32, i32)>
    %neg = llvm.fneg %f : f32
    %g = llvm.select %negate, %neg, %f : i1, f32
    %wide = llvm.zext %tag : i8 to i32
    %j = llvm.add %i, %wide : i32
    %s0 = llvm.insertvalue %g, %u[0] : !llvm.struct<(f32, i32)>
    %s1 = llvm.insertvalue %j, %s0[1] : !llvm.struct<(f32, i32)>
    llvm.return %s1 : !llvm.struct<(f32, i32)>
  }
}

// make_pair is called before it is defined: it gets a prototype. clamp is private: no
// .visible. divmod returns its two results as one 8-byte struct.
// PTX:      .visible .func (.param .align 4 .b8 func_retval0[8]) make_pair(
// PTX-NEXT: 	.param .f32 make_pair_param_0,
// PTX-NEXT: 	.param .b32 make_pair_param_1,
// PTX-NEXT: 	.param .b8 make_pair_param_2,
// PTX-NEXT: 	.param .b8 make_pair_param_3
// PTX-NEXT: )
// PTX-NEXT: ;
// PTX:      .func (.param .f32 func_retval0) clamp(
// PTX:      	max.f32 	%f3, %f0, %f1;
// PTX-NEXT: 	min.f32 	%f4, %f3, %f2;
// PTX-NEXT: 	st.param.f32 	[func_retval0], %f4;
// PTX-NEXT: 	ret;
// PTX:      .visible .func (.param .align 4 .b8 func_retval0[8]) divmod(
// PTX:      	st.param.u32 	[func_retval0], %r2;
// PTX-NEXT: 	st.param.u32 	[func_retval0+4], %r3;
// PTX:      .visible .entry kernel(
// PTX:      	.param .u8 kernel_param_3,
// PTX-NEXT: 	.param .u8 kernel_param_4
// The call-sequence .param variables are declared once per call.
// PTX:      	.param .f32 param0;
// PTX-NEXT: 	.param .f32 param1;
// PTX-NEXT: 	.param .f32 param2;
// PTX-NEXT: 	.param .f32 retval0;
// PTX:      	ld.param.u8 	%rs0, [kernel_param_3];
// PTX-NEXT: 	setp.ne.s16 	%p0, %rs0, 0;
// PTX:      	st.param.f32 	[param0], %f0;
// PTX-NEXT: 	st.param.f32 	[param1], 0f00000000;
// PTX-NEXT: 	st.param.f32 	[param2], 0f3F800000;
// PTX-NEXT: 	call 	(retval0), clamp, (param0, param1, param2);
// PTX-NEXT: 	ld.param.f32 	%f[[Y:[0-9]+]], [retval0];
// PTX:      	call 	(retval1), divmod, (param3, param4);
// PTX-NEXT: 	ld.param.u32 	%r[[Q:[0-9]+]], [retval1];
// PTX-NEXT: 	ld.param.u32 	%r[[R:[0-9]+]], [retval1+4];
// PTX-NEXT: 	st.param.f32 	[param5], %f[[Y]];
// PTX-NEXT: 	st.param.u32 	[param6], %r[[Q]];
// PTX-NEXT: 	selp.u16 	%rs[[BYTE:[0-9]+]], 1, 0, %p0;
// PTX-NEXT: 	st.param.u8 	[param7], %rs[[BYTE]];
// PTX-NEXT: 	st.param.u8 	[param8], %rs1;
// PTX-NEXT: 	call 	(retval2), make_pair, (param5, param6, param7, param8);
// PTX-NEXT: 	ld.param.f32 	%f[[F:[0-9]+]], [retval2];
// PTX-NEXT: 	ld.param.u32 	%r[[I:[0-9]+]], [retval2+4];
// PTX-NEXT: 	add.s32 	%r[[SUM:[0-9]+]], %r[[I]], %r[[R]];
// PTX-NEXT: 	st.global.f32 	[%rd0], %f[[F]];
// PTX-NEXT: 	st.global.u32 	[%rd0+4], %r[[SUM]];
// PTX:      .visible .func (.param .align 4 .b8 func_retval0[8]) make_pair(
// PTX:      	selp.f32 	%f[[G:[0-9]+]], %f{{[0-9]+}}, %f0, %p0;
// PTX-NEXT: 	cvt.u32.u8 	%r[[WIDE:[0-9]+]], %rs1;
// PTX-NEXT: 	add.s32 	%r[[J:[0-9]+]], %r0, %r[[WIDE]];
// PTX-NEXT: 	st.param.f32 	[func_retval0], %f[[G]];
// PTX-NEXT: 	st.param.u32 	[func_retval0+4], %r[[J]];

// ORI:      ori.func visible func @make_pair(f32 @make_pair_param_0, b32 @make_pair_param_1, b8 @make_pair_param_2, b8 @make_pair_param_3) -> (align 4 b8 @func_retval0[8])
// ORI-NOT:  {
// ORI:      ori.func func @clamp(
// ORI:        ori.call "call" ((@retval0), @clamp, (@param0, @param1, @param2))
