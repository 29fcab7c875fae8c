// The WGMMA ops and the struct ops around their accumulators.
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori -t ptx | filecheck %s

// An f16 accumulator packs two values per 32-bit register; A read column-major and
// negated, B row-major: the transpose and scale immediates say so.
llvm.func @f16_accumulator(%da: i64, %db: i64, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %acc = llvm.mlir.zero : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  nvvm.wgmma.fence.aligned
  %d = nvvm.wgmma.mma_async %da, %db, %acc, #nvvm.shape<m = 64, n = 16, k = 16>, D [<f16>, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<neg>, <col>], B [<f16>, #nvvm.wgmma_scale_in<one>, <row>] : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)> -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 0
  llvm.store %d, %out : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>, !llvm.ptr<1>
  llvm.return
}

// ORI-LABEL: ori.func visible entry @f16_accumulator
// ORI:         ori.wgmma.fence "wgmma.fence.sync.aligned"
// ORI-NEXT:    ori.inst "mov.b32" (def %r0, 0)
// ORI:         ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16" (inout {%r0, %r1, %r2, %r3}, %rd0, %rd1, 0, -1, 1, 1, 1)
// ORI-NEXT:    ori.wgmma.commit_group "wgmma.commit_group.sync.aligned"
// ORI-NEXT:    ori.wgmma.wait_group "wgmma.wait_group.sync.aligned" (0)

// CHECK-LABEL: .entry f16_accumulator(
// CHECK:       	wgmma.fence.sync.aligned;
// CHECK-NEXT:  	mov.b32 	%r0, 0;
// CHECK:       	wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16 	{%r0, %r1, %r2, %r3}, %rd0, %rd1, 0, -1, 1, 1, 1;
// CHECK-NEXT:  	wgmma.commit_group.sync.aligned;
// CHECK-NEXT:  	wgmma.wait_group.sync.aligned 	0;
// CHECK-NEXT:  	st.global.b32 	[%rd2], %r0;

// -----

// Every input family: tf32 and fp8 take scale immediates but no transpose; the
// integer and single-bit ones take neither; s8 may saturate. Mixing s8 and u8 needs
// PTX ISA 8.4, which the target's features ask for.
module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx84">} {
  llvm.func @families(%da: i64, %db: i64, %f: !llvm.struct<(f32, f32, f32, f32)>, %i: !llvm.struct<(i32, i32, i32, i32)>, %j: !llvm.struct<(i32, i32, i32, i32)>, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
    nvvm.wgmma.fence.aligned
    %t = nvvm.wgmma.mma_async %da, %db, %f, #nvvm.shape<m = 64, n = 8, k = 8>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<tf32>, #nvvm.wgmma_scale_in<one>, <row>], B [<tf32>, #nvvm.wgmma_scale_in<neg>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
    %e = nvvm.wgmma.mma_async %da, %db, %t, #nvvm.shape<m = 64, n = 8, k = 32>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<e4m3>, #nvvm.wgmma_scale_in<one>, <row>], B [<e5m2>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
    %s = nvvm.wgmma.mma_async %da, %db, %i, #nvvm.shape<m = 64, n = 8, k = 32>, D [<s32>, #nvvm.wgmma_scale_out<one>, <satfinite>], A [<s8>, #nvvm.wgmma_scale_in<one>, <row>], B [<u8>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
    %b = nvvm.wgmma.mma_async %da, %db, %j, #nvvm.shape<m = 64, n = 8, k = 256>, D [<s32>, #nvvm.wgmma_scale_out<zero>], A [<b1>, #nvvm.wgmma_scale_in<one>, <row>], B [<b1>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    llvm.store %e, %out : !llvm.struct<(f32, f32, f32, f32)>, !llvm.ptr<1>
    %o1 = llvm.getelementptr %out[16] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
    llvm.store %s, %o1 : !llvm.struct<(i32, i32, i32, i32)>, !llvm.ptr<1>
    %o2 = llvm.getelementptr %out[32] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
    llvm.store %b, %o2 : !llvm.struct<(i32, i32, i32, i32)>, !llvm.ptr<1>
    llvm.return
  }
}

// CHECK:       .version 8.4
// CHECK-LABEL: .entry families(
// CHECK:       	wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 	{%f0, %f1, %f2, %f3}, %rd0, %rd1, 1, 1, -1;
// CHECK-NEXT:  	wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 	{%f0, %f1, %f2, %f3}, %rd0, %rd1, 1, 1, 1;
// CHECK-NEXT:  	wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8.satfinite 	{%r0, %r1, %r2, %r3}, %rd0, %rd1, 1;
// CHECK-NEXT:  	wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc 	{%r4, %r5, %r6, %r7}, %rd0, %rd1, 0;

// -----

// The accumulator is still read after the MMA, so the MMA accumulates into a copy.
// The second MMA's operand dies there: it accumulates in place.
llvm.func @copied(%da: i64, %db: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
  nvvm.wgmma.fence.aligned
  %d0 = nvvm.wgmma.mma_async %da, %db, %acc, #nvvm.shape<m = 64, n = 8, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %d1 = nvvm.wgmma.mma_async %da, %db, %d0, #nvvm.shape<m = 64, n = 8, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 0
  %old = llvm.extractvalue %acc[2] : !llvm.struct<(f32, f32, f32, f32)>
  %new = llvm.extractvalue %d1[2] : !llvm.struct<(f32, f32, f32, f32)>
  %sum = llvm.fadd %old, %new : f32
  llvm.store %sum, %out : f32, !llvm.ptr<1>
  llvm.return
}

// ORI-LABEL: ori.func visible entry @copied
// ORI:         ori.wgmma.fence "wgmma.fence.sync.aligned"
// ORI-NEXT:    ori.inst "mov.f32" (def %f4, %f0)
// ORI-NEXT:    ori.inst "mov.f32" (def %f5, %f1)
// ORI-NEXT:    ori.inst "mov.f32" (def %f6, %f2)
// ORI-NEXT:    ori.inst "mov.f32" (def %f7, %f3)
// ORI-NEXT:    ori.wgmma.mma_async "{{.*}}" (inout {%f4, %f5, %f6, %f7}, %rd0, %rd1, 1, 1, 1, 0, 0)
// ORI-NEXT:    ori.wgmma.mma_async "{{.*}}" (inout {%f4, %f5, %f6, %f7}, %rd0, %rd1, 1, 1, 1, 0, 0)
// ORI:         ori.inst "add.f32" (def %f8, %f2, %f6)

// -----

// An accumulator assembled with insertvalue: constants are moved into fresh registers
// where they are inserted (before the fence),
// a loaded value used nowhere else is accumulated into in place; struct members of
// nested aggregates are ranges of leaves.
llvm.func @assembled(%da: i64, %db: i64, %p: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  %x = llvm.load %p : !llvm.ptr<1> -> f32
  %u = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
  %a0 = llvm.insertvalue %zero, %u[0] : !llvm.struct<(f32, f32, f32, f32)>
  %a1 = llvm.insertvalue %x, %a0[1] : !llvm.struct<(f32, f32, f32, f32)>
  %a2 = llvm.insertvalue %zero, %a1[2] : !llvm.struct<(f32, f32, f32, f32)>
  %a3 = llvm.insertvalue %zero, %a2[3] : !llvm.struct<(f32, f32, f32, f32)>
  nvvm.wgmma.fence.aligned
  %d = nvvm.wgmma.mma_async %da, %db, %a3, #nvvm.shape<m = 64, n = 8, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<bf16>, #nvvm.wgmma_scale_in<one>, <row>], B [<bf16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 0
  %n = llvm.mlir.undef : !llvm.struct<(i32, struct<(f32, f32)>, array<2 x i64>)>
  %d3 = llvm.extractvalue %d[3] : !llvm.struct<(f32, f32, f32, f32)>
  %n1 = llvm.insertvalue %d3, %n[1, 1] : !llvm.struct<(i32, struct<(f32, f32)>, array<2 x i64>)>
  %inner = llvm.extractvalue %n1[1] : !llvm.struct<(i32, struct<(f32, f32)>, array<2 x i64>)>
  llvm.store %inner, %p : !llvm.struct<(f32, f32)>, !llvm.ptr<1>
  llvm.return
}

// CHECK-LABEL: .entry assembled(
// CHECK:       	ld.global.f32 	%f0, [%rd2];
// CHECK-NEXT:  	mov.f32 	%f5, 0f00000000;
// CHECK-NEXT:  	mov.f32 	%f6, 0f00000000;
// CHECK-NEXT:  	mov.f32 	%f7, 0f00000000;
// CHECK-NEXT:  	wgmma.fence.sync.aligned;
// CHECK-NEXT:  	wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 	{%f5, %f0, %f6, %f7}, %rd0, %rd1, 1, 1, 1, 0, 0;
// CHECK-NEXT:  	wgmma.commit_group.sync.aligned;
// CHECK-NEXT:  	wgmma.wait_group.sync.aligned 	0;
// The struct's second member is its undefined first leaf and the MMA's last register.
// CHECK-NEXT:  	st.global.f32 	[%rd2], %f{{[0-9]+}};
// CHECK-NEXT:  	st.global.f32 	[%rd2+4], %f7;

// -----

// The accumulator flows into both sides of a branch, each of which accumulates into it
// in place (neither side can see the other's write); a member extracted before the MMA
// and read after it keeps its register, so only that register is copied.
llvm.func @branches(%da: i64, %db: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %c: i1, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %kept = llvm.extractvalue %acc[1] : !llvm.struct<(f32, f32, f32, f32)>
  llvm.cond_br %c, ^left, ^right
^left:
  nvvm.wgmma.fence.aligned
  %l = nvvm.wgmma.mma_async %da, %db, %acc, #nvvm.shape<m = 64, n = 8, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 0
  llvm.br ^join(%l : !llvm.struct<(f32, f32, f32, f32)>)
^right:
  nvvm.wgmma.fence.aligned
  %r = nvvm.wgmma.mma_async %da, %db, %acc, #nvvm.shape<m = 64, n = 8, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 0
  llvm.br ^join(%r : !llvm.struct<(f32, f32, f32, f32)>)
^join(%d: !llvm.struct<(f32, f32, f32, f32)>):
  %x = llvm.extractvalue %d[1] : !llvm.struct<(f32, f32, f32, f32)>
  %sum = llvm.fadd %x, %kept : f32
  llvm.store %sum, %out : f32, !llvm.ptr<1>
  llvm.return
}

// ORI-LABEL: ori.func visible entry @branches
// ORI:         ori.inst "ld.param.f32" (def %[[A0:f[0-9]+]], [@branches_param_2])
// ORI-NEXT:    ori.inst "ld.param.f32" (def %[[A1:f[0-9]+]], [@branches_param_2 + 4])
// ORI-NEXT:    ori.inst "ld.param.f32" (def %[[A2:f[0-9]+]], [@branches_param_2 + 8])
// ORI-NEXT:    ori.inst "ld.param.f32" (def %[[A3:f[0-9]+]], [@branches_param_2 + 12])
// ORI:         ori.wgmma.fence "wgmma.fence.sync.aligned"
// ORI-NEXT:    ori.inst "mov.f32" (def %[[COPY:f[0-9]+]], %[[A1]])
// ORI-NEXT:    ori.wgmma.mma_async "{{.*}}" (inout {%[[A0]], %[[COPY]], %[[A2]], %[[A3]]}, %rd0, %rd1, 1, 1, 1, 0, 0)
// ORI:         ori.wgmma.fence "wgmma.fence.sync.aligned"
// ORI-NEXT:    ori.inst "mov.f32" (def %[[COPY2:f[0-9]+]], %[[A1]])
// ORI-NEXT:    ori.wgmma.mma_async "{{.*}}" (inout {%[[A0]], %[[COPY2]], %[[A2]], %[[A3]]}, %rd0, %rd1, 1, 1, 1, 0, 0)
// ORI:         ori.inst "add.f32" (def %{{f[0-9]+}}, %{{f[0-9]+}}, %[[A1]])
