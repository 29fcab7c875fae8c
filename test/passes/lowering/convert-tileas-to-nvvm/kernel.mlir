// Kernels, parameters, shared memory and program ids.
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

// A kernel: a CUtensorMap parameter passed by value, a scalar unchanged, one shared
// buffer holding every alloc_tensor (1024-aligned for swizzled tiles, 128 otherwise),
// the warp count as .reqntid, and the program id as %ctaid.
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k(%view: !nv_tileas.tiled_view<1024x1024xf16>, %n: i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
    %b = nv_tileas.alloc_tensor : tensor<64x8xf16, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>
    %c = nv_tileas.alloc_tensor : tensor<64x64xf16, #nv_tileas.shared<swizzle = 64, order = [1, 0]>>
    %x = nv_tileaa.get_program_id y
    nv_tileas.return
  }
}

// CHECK:      builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>, nvvm.target = #nvvm.target<chip = "sm_90a">} {
// CHECK-NEXT:   llvm.mlir.global internal @k_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<25600 x i8>
// CHECK-NEXT:   llvm.func @k(%view: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 64 : i64, nvvm.grid_constant}, %n: i32) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
// CHECK-NEXT:     %0 = llvm.mlir.addressof @k_smem : !llvm.ptr<3>
// CHECK-NEXT:     %1 = llvm.getelementptr %0[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:     %2 = llvm.mlir.addressof @k_smem : !llvm.ptr<3>
// CHECK-NEXT:     %3 = llvm.getelementptr %2[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:     %4 = llvm.mlir.addressof @k_smem : !llvm.ptr<3>
// CHECK-NEXT:     %5 = llvm.getelementptr %4[17408] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:     %x = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// PTX:      .target sm_90a
// PTX:      .shared .align 1024 .b8 k_smem[25600];
// PTX-NEXT: .visible .entry k(
// PTX-NEXT: 	.param .align 64 .b8 k_param_0[128],
// PTX-NEXT: 	.param .u32 k_param_1
// PTX-NEXT: )
// PTX-NEXT: .reqntid 128, 1, 1
// PTX:      	cvta.param.u64

// -----

// A func.func with a kernel spec is a kernel; a cluster gets .reqnctapercluster, and its
// CTAs run one program together (the program id is the cluster's, as in Triton); a target
// without an arch-conditional variant keeps its plain name; no shared memory, no buffer.
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 80>} {
  func.func @f(%n: i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
    %z = nv_tileaa.get_program_id z
    func.return
  }
}

// CHECK:      builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 80>, nvvm.target = #nvvm.target<chip = "sm_80">} {
// CHECK-NEXT:   llvm.func @f(%n: i32) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
// CHECK-NEXT:     %z = nvvm.read.ptx.sreg.clusterid.z : i32
// CHECK-NEXT:     llvm.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// PTX: .target sm_80
// PTX-NOT: .shared
// PTX: .visible .entry f(

// -----

// An NVVM-level module passes through unchanged, and keeps its own target.
module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx80">} {
  func.func @plain(%x: i32) -> i32 {
    func.return %x : i32
  }
}

// CHECK:      builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx80">} {
// CHECK-NEXT:   func.func @plain(%x: i32) -> i32 {
// CHECK-NEXT:     func.return %x : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// nv_tileaa.func: a device function unless it has a kernel spec.
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileaa.func @pid() -> i32 {
    %x = nv_tileaa.get_program_id x
    nv_tileaa.return %x : i32
  }
}

// CHECK:      llvm.func @pid() -> i32 {
// CHECK-NEXT:   %x = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-NEXT:   llvm.return %x : i32
// CHECK-NEXT: }

// PTX: .visible .func (.param .b32 func_retval0) pid()
