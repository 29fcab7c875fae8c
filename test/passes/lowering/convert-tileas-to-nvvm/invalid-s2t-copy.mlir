// Every diagnostic of the S2T copy's lowering, at the copy.
// RUN: not tileas-opt %s --split-input-file -p optimize-execution-unit-mapping,convert-tileas-to-nvvm -o /dev/null 2>&1 | filecheck %s

// The copy's mbarrier is initialised with mbarrier.init.shared: a generic address is
// not one (seed 002's message).
module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">} {
  llvm.func @generic(%tmem: !llvm.ptr<6>, %desc: i64, %bar: !llvm.ptr) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 2>
    cute_nvgpu.atom.copy_s2t %atom, %tmem, %desc, %bar : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 2>, !llvm.ptr<6>, !llvm.ptr
    llvm.return
  }
}
// CHECK: invalid-s2t-copy.mlir:9:5: error: Failed to init mbarrier

// -----

module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">} {
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  llvm.func @alone(%tmem: !llvm.ptr<6>, %desc: i64) attributes {nvvm.kernel} {
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 2>
    cute_nvgpu.atom.copy_s2t %atom, %tmem, %desc, %bar : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 2>, !llvm.ptr<6>, !llvm.ptr<3>
    llvm.return
  }
}
// CHECK: invalid-s2t-copy.mlir:22:5: error: a 2-CTA S2T copy runs on CTA pairs: the kernel's cluster must be a multiple of 2 CTAs, got 1

// -----

module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">} {
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  llvm.func @two(%tmem: !llvm.ptr<6>, %desc: i64) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 4>
    cute_nvgpu.atom.copy_s2t %atom, %tmem, %desc, %bar : !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 4>, !llvm.ptr<6>, !llvm.ptr<3>
    llvm.return
  }
}
// CHECK: invalid-s2t-copy.mlir:35:5: error: a 4-CTA S2T copy runs on groups of 4 CTAs: the kernel's cluster must be a multiple of 4 CTAs, got 2

// -----

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  nv_tileas.kernel @agent() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
    nv_tileas.async.pipeline.warp_specialize {
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %tmem = llvm.inttoptr %c0 : i32 to !llvm.ptr<6>
      %desc = llvm.mlir.constant(0 : i64) : i64
      %atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 1>
      cute_nvgpu.atom.copy_s2t %atom, %tmem, %desc, %bar : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 1>, !llvm.ptr<6>, !llvm.ptr<3>
      %w = arith.constant {nv_tileas.num_warps = 4 : i32} 0 : i32
    } {
      %z = arith.constant {nv_tileas.num_warps = 4 : i32} 0 : i32
    }
    nv_tileas.return
  }
}
// CHECK: invalid-s2t-copy.mlir:[[# @LINE - 8]]:7: error: an S2T copy initialises its mbarrier with a CTA or cluster barrier: it must run on the whole CTA, not in an agent
