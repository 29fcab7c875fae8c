// Loads, stores, address arithmetic, stack slots and module variables.
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori -t ptx | filecheck %s

// Every address space, a volatile store, an aggregate load and store, i1 and f16 values.
llvm.func @spaces(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %c: !llvm.ptr<4>, %l: !llvm.ptr<5>, %p: !llvm.ptr, %d: !llvm.ptr<7>) {
  %v = llvm.load %g : !llvm.ptr<1> -> i32
  %w = llvm.load %s : !llvm.ptr<3> -> f32
  %x = llvm.load %c : !llvm.ptr<4> -> i64
  %y = llvm.load %p : !llvm.ptr -> !llvm.struct<(i8, f64, i1)>
  %z = llvm.load %d : !llvm.ptr<7> -> f16
  llvm.store %v, %l : i32, !llvm.ptr<5>
  llvm.store volatile %w, %g : f32, !llvm.ptr<1>
  llvm.store %y, %p : !llvm.struct<(i8, f64, i1)>, !llvm.ptr
  llvm.store %z, %s : f16, !llvm.ptr<3>
  %t = llvm.mlir.constant(true) : i1
  llvm.store %t, %g : i1, !llvm.ptr<1>
  llvm.return
}

// ORI-LABEL: ori.func visible func @spaces
// ORI:         ori.inst "ld.global.u32" (def %r0, [%rd0])

// CHECK-LABEL: .visible .func spaces(
// CHECK:       	ld.global.u32 	%r0, [%rd0];
// CHECK-NEXT:  	ld.shared.f32 	%f0, [%rd1];
// CHECK-NEXT:  	ld.const.u64 	%rd6, [%rd2];
// CHECK-NEXT:  	ld.u8 	%rs0, [%rd4];
// CHECK-NEXT:  	ld.f64 	%fd0, [%rd4+8];
// CHECK-NEXT:  	ld.u8 	%rs1, [%rd4+16];
// CHECK-NEXT:  	setp.ne.s16 	%p0, %rs1, 0;
// CHECK-NEXT:  	ld.shared::cluster.b16 	%rs2, [%rd5];
// CHECK-NEXT:  	st.local.u32 	[%rd3], %r0;
// CHECK-NEXT:  	st.volatile.global.f32 	[%rd0], %f0;
// CHECK-NEXT:  	st.u8 	[%rd4], %rs0;
// CHECK-NEXT:  	st.f64 	[%rd4+8], %fd0;
// CHECK-NEXT:  	selp.u16 	%rs3, 1, 0, %p0;
// CHECK-NEXT:  	st.u8 	[%rd4+16], %rs3;
// CHECK-NEXT:  	st.shared.b16 	[%rd1], %rs2;
// CHECK-NEXT:  	st.global.u8 	[%rd0], 1;
// CHECK-NEXT:  	ret;

// -----

// Constant indices fold into the address; dynamic ones are scaled and added.
llvm.func @gep(%p: !llvm.ptr<1>, %i: i32, %j: i64, %k: i16) -> f32 {
  %s = llvm.getelementptr %p[2, 1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, !llvm.struct<(i8, f32)>
  %a = llvm.getelementptr %s[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  %b = llvm.getelementptr %a[%j] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, !llvm.array<3 x f32>
  %c = llvm.getelementptr %b[%k] : (!llvm.ptr<1>, i16) -> !llvm.ptr<1>, i8
  %d = llvm.getelementptr %c[0, 1, %i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, !llvm.struct<(f64, array<4 x f32>)>
  %v = llvm.load %d : !llvm.ptr<1> -> f32
  llvm.return %v : f32
}

// CHECK-LABEL: gep(
// CHECK:       	mul.wide.s32 	%rd2, %r0, 4;
// CHECK-NEXT:  	add.s64 	%rd3, %rd0, %rd2;
// CHECK-NEXT:  	mul.lo.s64 	%rd4, %rd1, 12;
// CHECK-NEXT:  	add.s64 	%rd5, %rd3, %rd4;
// CHECK-NEXT:  	cvt.s64.s16 	%rd6, %rs0;
// CHECK-NEXT:  	add.s64 	%rd7, %rd5, %rd6;
// CHECK-NEXT:  	mul.wide.s32 	%rd8, %r0, 4;
// CHECK-NEXT:  	add.s64 	%rd9, %rd7, %rd8;
// 2 * 8 + 4 for the struct member, then 8 for the array inside the second struct.
// CHECK-NEXT:  	ld.global.f32 	%f0, [%rd9+28];

// -----

// Module variables: shared, global with initializers, constant, dynamic shared memory.
llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<16 x array<8 x f16>>
llvm.mlir.global external @table(dense<[1.0, 2.0, 0.5]> : tensor<3xf32>) {addr_space = 1 : i32} : !llvm.array<3 x f32>
llvm.mlir.global private @counter(7 : i32) {addr_space = 1 : i32} : i32
llvm.mlir.global internal constant @message("hi\0A\00") {addr_space = 4 : i32} : !llvm.array<4 x i8>
llvm.mlir.global external @pair() {addr_space = 1 : i32} : !llvm.struct<(i64, f32)>
llvm.mlir.global external @dynamic() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
llvm.mlir.global internal @generic(0 : i64) : i64

llvm.func @variables(%i: i32) -> f32 {
  %t = llvm.mlir.addressof @tile : !llvm.ptr<3>
  %e = llvm.getelementptr %t[0, 3, %i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<16 x array<8 x f16>>
  %h = llvm.load %e : !llvm.ptr<3> -> f16
  %tab = llvm.mlir.addressof @table : !llvm.ptr<1>
  %second = llvm.getelementptr %tab[0, 1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, !llvm.array<3 x f32>
  %x = llvm.load %second : !llvm.ptr<1> -> f32
  %g = llvm.mlir.addressof @generic : !llvm.ptr
  %n = llvm.load %g : !llvm.ptr -> i64
  %dyn = llvm.mlir.addressof @dynamic : !llvm.ptr<3>
  llvm.store %h, %dyn : f16, !llvm.ptr<3>
  llvm.return %x : f32
}

// ORI:      ori.var shared align 128 b16 @tile[128]
// ORI-NEXT: ori.var visible global align 4 f32 @table[3] = [f32(0x3f800000), f32(0x40000000), f32(0x3f000000)]
// ORI-NEXT: ori.var global align 4 b32 @counter = 7
// ORI-NEXT: ori.var const align 1 b8 @message[4] = [104, 105, 10, 0]
// ORI-NEXT: ori.var extern global align 8 b8 @pair[16]
// ORI-NEXT: ori.var extern shared align 16 b8 @dynamic[]
// ORI-NEXT: ori.var global align 8 b64 @generic = 0

// CHECK:      .shared .align 128 .b16 tile[128];
// CHECK-NEXT: .visible .global .align 4 .f32 table[3] = {0f3F800000, 0f40000000, 0f3F000000};
// CHECK-NEXT: .global .align 4 .b32 counter = 7;
// CHECK-NEXT: .const .align 1 .b8 message[4] = {104, 105, 10, 0};
// CHECK-NEXT: .extern .global .align 8 .b8 pair[16];
// CHECK-NEXT: .extern .shared .align 16 .b8 dynamic[];
// CHECK-NEXT: .global .align 8 .b64 generic = 0;
// CHECK-LABEL: variables(
// CHECK:       	mul.wide.s32 	%rd0, %r0, 2;
// CHECK-NEXT:  	mov.u64 	%rd1, tile;
// CHECK-NEXT:  	add.s64 	%rd2, %rd1, %rd0;
// CHECK-NEXT:  	ld.shared.b16 	%rs0, [%rd2+48];
// CHECK-NEXT:  	ld.global.f32 	%f0, [table+4];
// A generic pointer to a generic global takes its generic address.
// CHECK-NEXT:  	mov.u64 	%rd3, generic;
// CHECK-NEXT:  	cvta.global.u64 	%rd4, %rd3;
// CHECK-NEXT:  	ld.u64 	%rd5, [%rd4];
// CHECK-NEXT:  	st.shared.b16 	[dynamic], %rs0;

// -----

// Stack slots: each alloca is a .local array, reached through its generic address.
llvm.func @stack(%v: f32) -> f32 {
  %c2 = llvm.mlir.constant(2 : i32) : i32
  %slot = llvm.alloca %c2 x f32 {alignment = 8 : i64} : (i32) -> !llvm.ptr
  %one = llvm.getelementptr %slot[1] : (!llvm.ptr) -> !llvm.ptr, f32
  llvm.store %v, %one : f32, !llvm.ptr
  %local = llvm.alloca %c2 x i64 : (i32) -> !llvm.ptr<5>
  llvm.store %c2, %local : i32, !llvm.ptr<5>
  %back = llvm.load %one : !llvm.ptr -> f32
  llvm.return %back : f32
}

// CHECK-LABEL: stack(
// CHECK:       	.local .align 8 .b8 __local_depot0[8];
// CHECK-NEXT:  	.local .align 8 .b8 __local_depot1[16];
// CHECK:       	mov.u64 	%rd0, __local_depot0;
// CHECK-NEXT:  	cvta.local.u64 	%rd1, %rd0;
// CHECK-NEXT:  	st.f32 	[%rd1+4], %f0;
// CHECK-NEXT:  	st.local.u32 	[__local_depot1], 2;
// CHECK-NEXT:  	ld.f32 	%f1, [%rd1+4];
