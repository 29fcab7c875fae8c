// Module directives, function signatures and kernel attributes.
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori -t ptx | filecheck %s
// RUN: tileas-opt %s --split-input-file -p 'convert-nvvm-to-ori{default-chip=sm_100a ptx-version="8.8"}' -t ptx | filecheck %s --check-prefix=OPTIONS

// Without #nvvm.target: sm_90a, PTX ISA 8.0 (the first with sm_90a).
llvm.func @plain() attributes {nvvm.kernel} {
  llvm.return
}

// ORI:      ori.version "8.0"
// ORI-NEXT: ori.target ["sm_90a"]
// ORI-NEXT: ori.address_size 64
// ORI-NEXT: ori.func visible entry @plain() {
// CHECK:      .version 8.0
// CHECK-NEXT: .target sm_90a
// CHECK-NEXT: .address_size 64
// CHECK:      .visible .entry plain()
// CHECK-NEXT: {
// CHECK:      	ret;
// CHECK-NEXT: }
// OPTIONS:      .version 8.8
// OPTIONS-NEXT: .target sm_100a

// -----

// The target's +ptxNN feature picks a later ISA; one below the chip's first ISA is raised.
module attributes {nvvm.target = [#nvvm.target<chip = "sm_100a", features = "+ptx70">]} {
  llvm.func @blackwell() attributes {nvvm.kernel} {
    llvm.return
  }
}

// CHECK:      .version 8.6
// CHECK-NEXT: .target sm_100a
// OPTIONS:      .version 8.8
// OPTIONS-NEXT: .target sm_100a

// -----

module attributes {nvvm.target = #nvvm.target<chip = "sm_80", features = "+ptx78">} {
  llvm.func @ampere() attributes {nvvm.kernel} {
    llvm.return
  }
}

// CHECK:      .version 7.8
// CHECK-NEXT: .target sm_80

// -----

// Launch bounds and cluster shapes become performance directives (.blocksareclusters
// needs PTX ISA 9.0).
module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx90">} {
  llvm.func @bounded() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 2, 1>, nvvm.minctasm = 2 : i32, nvvm.maxnreg = 96 : i32, nvvm.cluster_max_blocks = 8 : i32} {
    llvm.return
  }
  llvm.func @clustered() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256, 1, 1>, nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.blocksareclusters} {
    llvm.return
  }
}

// ORI: ori.func visible entry @bounded() maxntid 128, 2, 1 minnctapersm 2 maxnreg 96 maxclusterrank 8 {
// ORI: ori.func visible entry @clustered() reqntid 256, 1, 1 reqnctapercluster 2, 1, 1 explicitcluster blocksareclusters {
// CHECK:      .visible .entry bounded()
// CHECK-NEXT: .maxntid 128, 2, 1
// CHECK-NEXT: .minnctapersm 2
// CHECK-NEXT: .maxnreg 96
// CHECK-NEXT: .maxclusterrank 8
// CHECK:      .visible .entry clustered()
// CHECK-NEXT: .reqntid 256, 1, 1
// CHECK-NEXT: .reqnctapercluster 2, 1, 1
// CHECK-NEXT: .explicitcluster
// CHECK-NEXT: .blocksareclusters

// -----

// Kernel parameters of every kind; a grid constant is read in place when the kernel
// takes it as a param-space pointer.
llvm.func @params(%b: i1, %c: i8, %s: i16, %h: f16, %d: f64, %pair: !llvm.struct<(i32, f64)>,
                  %map: !llvm.ptr<101> {llvm.byval = !llvm.struct<(i64, i64)>, nvvm.grid_constant},
                  %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %second = llvm.getelementptr %map[0, 1] : (!llvm.ptr<101>) -> !llvm.ptr<101>, !llvm.struct<(i64, i64)>
  %v = llvm.load %second : !llvm.ptr<101> -> i64
  llvm.store %v, %out : i64, !llvm.ptr<1>
  llvm.store %pair, %out : !llvm.struct<(i32, f64)>, !llvm.ptr<1>
  llvm.store %h, %out : f16, !llvm.ptr<1>
  llvm.store %b, %out : i1, !llvm.ptr<1>
  llvm.return
}

// CHECK:      .visible .entry params(
// CHECK-NEXT: 	.param .u8 params_param_0,
// CHECK-NEXT: 	.param .u8 params_param_1,
// CHECK-NEXT: 	.param .u16 params_param_2,
// CHECK-NEXT: 	.param .b16 params_param_3,
// CHECK-NEXT: 	.param .f64 params_param_4,
// CHECK-NEXT: 	.param .align 8 .b8 params_param_5[16],
// CHECK-NEXT: 	.param .align 8 .b8 params_param_6[16],
// CHECK-NEXT: 	.param .u64 params_param_7
// CHECK-NEXT: )
// CHECK:      	ld.param.u8 	%rs0, [params_param_0];
// CHECK-NEXT: 	setp.ne.s16 	%p0, %rs0, 0;
// CHECK-NEXT: 	ld.param.u8 	%rs1, [params_param_1];
// CHECK-NEXT: 	ld.param.u16 	%rs2, [params_param_2];
// CHECK-NEXT: 	ld.param.b16 	%rs3, [params_param_3];
// CHECK-NEXT: 	ld.param.f64 	%fd0, [params_param_4];
// CHECK-NEXT: 	ld.param.u32 	%r0, [params_param_5];
// CHECK-NEXT: 	ld.param.f64 	%fd1, [params_param_5+8];
// CHECK-NEXT: 	ld.param.u64 	%rd0, [params_param_7];
// CHECK-NEXT: 	ld.param.u64 	%rd1, [params_param_6+8];

// -----

// A declared function is `.extern`; calls with no arguments or no result leave out
// their lists.
llvm.func @external(f32) -> f32
func.func private @nothing()

llvm.func @caller(%x: f32) -> f32 {
  %y = llvm.call @external(%x) : (f32) -> f32
  func.call @nothing() : () -> ()
  llvm.return %y : f32
}

// ORI:      ori.func extern func @external(f32 @external_param_0) -> (f32 @func_retval0)
// ORI-NEXT: ori.func extern func @nothing()
// CHECK:      .extern .func (.param .f32 func_retval0) external(
// CHECK-NEXT: 	.param .f32 external_param_0
// CHECK-NEXT: )
// CHECK-NEXT: ;
// CHECK:      .extern .func nothing()
// CHECK-NEXT: ;
// CHECK:      	call 	(retval0), external, (param0);
// CHECK-NEXT: 	ld.param.f32 	%f1, [retval0];
// CHECK-NEXT: 	call 	nothing;
