// An elementwise kernel: y[i] = a * x[i] + y[i] for i < n, one element per thread.
// RUN: tileas-opt %s -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin

module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx80">} {
  llvm.func @saxpy(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %a: f32, %n: i32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %bid = nvvm.read.ptx.sreg.ctaid.x : i32
    %bdim = nvvm.read.ptx.sreg.ntid.x : i32
    %base = arith.muli %bid, %bdim : i32
    %i = arith.addi %base, %tid : i32
    %inside = arith.cmpi slt, %i, %n : i32
    scf.if %inside {
      %px = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %py = llvm.getelementptr %y[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %vx = llvm.load %px : !llvm.ptr<1> -> f32
      %vy = llvm.load %py : !llvm.ptr<1> -> f32
      %ax = arith.mulf %a, %vx : f32
      %r = arith.addf %ax, %vy : f32
      llvm.store %r, %py : f32, !llvm.ptr<1>
    }
    llvm.return
  }
}

// ORI:      ori.version "8.0"
// ORI-NEXT: ori.target ["sm_90a"]
// ORI-NEXT: ori.address_size 64
// ORI:      ori.func visible entry @saxpy(u64 @saxpy_param_0, u64 @saxpy_param_1, f32 @saxpy_param_2, u32 @saxpy_param_3) maxntid 256, 1, 1 {
// ORI:        ori.inst "mov.u32" (def %r0, sreg(%tid.x))
// ORI:        ori.inst "setp.lt.s32" (def %p0, %r4, %r3)
// ORI-NEXT:   ori.bra if %p0 "bra" ^[[THEN:.*]], ^[[END:.*]]
// ORI:      ^[[THEN]]:
// ORI:        ori.inst "mul.wide.s32" (def %rd2, %r4, 4)
// ORI:        ori.inst "ld.global.f32" (def %f1, [%rd3])
// ORI:        ori.inst "st.global.f32" ([%rd5], %f4)
// ORI-NEXT:   ori.fallthrough ^[[END]]
// ORI:      ^[[END]]:
// ORI-NEXT:   ori.ret "ret"

// PTX:      .visible .entry saxpy(
// PTX-NEXT: 	.param .u64 saxpy_param_0,
// PTX:      .maxntid 256, 1, 1
// PTX:      	.reg .pred 	%p<1>;
// PTX-NEXT: 	.reg .b32 	%r<5>;
// PTX-NEXT: 	.reg .b64 	%rd<6>;
// PTX-NEXT: 	.reg .f32 	%f<5>;
// PTX:      	ld.param.f32 	%f0, [saxpy_param_2];
// PTX:      	mul.lo.s32 	%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// PTX:      	@%p0 bra 	[[THEN:\$L__ori_[0-9]+]];
// PTX-NEXT: 	bra 	[[END:\$L__ori_[0-9]+]];
// PTX-NEXT: [[THEN]]:
// PTX:      	mul.f32 	%f3, %f0, %f1;
// PTX-NEXT: 	add.f32 	%f4, %f3, %f2;
// PTX-NEXT: 	st.global.f32 	[%rd5], %f4;
// PTX-NEXT: [[END]]:
// PTX-NEXT: 	ret;
