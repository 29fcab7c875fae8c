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
// ORI-NEXT: ori.func visible entry @saxpy(u64 @saxpy_param_0, u64 @saxpy_param_1, f32 @saxpy_param_2, u32 @saxpy_param_3) maxntid 256, 1, 1 {
// ORI:        ori.inst "ld.param.u32" (def %[[N:r[0-9]+]], [@saxpy_param_3])
// ORI-NEXT:   ori.inst "mov.u32" (def %[[TID:r[0-9]+]], sreg(%tid.x))
// ORI-NEXT:   ori.inst "mov.u32" (def %[[BID:r[0-9]+]], sreg(%ctaid.x))
// ORI-NEXT:   ori.inst "mov.u32" (def %[[BDIM:r[0-9]+]], sreg(%ntid.x))
// ORI-NEXT:   ori.inst "mul.lo.s32" (def %[[BASE:r[0-9]+]], %[[BID]], %[[BDIM]])
// ORI-NEXT:   ori.inst "add.s32" (def %[[I:r[0-9]+]], %[[BASE]], %[[TID]])
// ORI-NEXT:   ori.inst "setp.lt.s32" (def %[[P:p[0-9]+]], %[[I]], %[[N]])
// ORI-NEXT:   ori.bra if not %[[P]] "bra" ^[[END:bb[0-9]+]], ^[[THEN:bb[0-9]+]]
// ORI-NEXT: ^[[THEN]]:
// ORI-NEXT:   ori.inst "mul.wide.s32" (def %{{.*}}, %[[I]], 4)
// ORI:        ori.inst "st.global.f32" ([%{{.*}}], %{{.*}})
// ORI-NEXT:   ori.fallthrough ^[[END]]
// ORI-NEXT: ^[[END]]:
// ORI-NEXT:   ori.ret "ret"

// PTX:      .visible .entry saxpy(
// PTX-NEXT: 	.param .u64 saxpy_param_0,
// PTX-NEXT: 	.param .u64 saxpy_param_1,
// PTX-NEXT: 	.param .f32 saxpy_param_2,
// PTX-NEXT: 	.param .u32 saxpy_param_3
// PTX-NEXT: )
// PTX-NEXT: .maxntid 256, 1, 1
// PTX-NEXT: {
// PTX-NEXT: 	.reg .pred 	%p<1>;
// PTX-NEXT: 	.reg .b32 	%r<6>;
// PTX-NEXT: 	.reg .b64 	%rd<6>;
// PTX-NEXT: 	.reg .f32 	%f<5>;
// PTX:      	setp.lt.s32 	%p0, %r5, %r0;
// PTX-NEXT: 	@!%p0 bra 	[[END:\$L__ori_[0-9]+]];
// PTX-NEXT: 	mul.wide.s32 	%rd2, %r5, 4;
// PTX-NEXT: 	add.s64 	%rd3, %rd0, %rd2;
// PTX:      	ld.global.f32 	%f1, [%rd3];
// PTX-NEXT: 	ld.global.f32 	%f2, [%rd5];
// PTX-NEXT: 	mul.f32 	%f3, %f0, %f1;
// PTX-NEXT: 	add.f32 	%f4, %f3, %f2;
// PTX-NEXT: 	st.global.f32 	[%rd5], %f4;
// PTX-NEXT: [[END]]:
// PTX-NEXT: 	ret;
// PTX-NEXT: }
