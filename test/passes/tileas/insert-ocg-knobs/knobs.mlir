// RUN: tileas-opt %s --split-input-file -p tileas-insert-OCG-knobs | filecheck %s
// RUN: tileas-opt %s --split-input-file -p tileas-insert-OCG-knobs,tileas-insert-OCG-knobs | filecheck %s

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>

// Blackwell (sm 100) with an MMA-family op: the global knob at entry; FenceCode before
// every async fence / arrive and barrier op.
builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  func.func @mma(%a: tensor<64x16xf16, #sa>, %b: tensor<16x64xf16, #sb>, %c: tensor<64x64xf32>, %p: !nv_tileas.pipeline<2, tensor<64x16xf16, #sa>>, %phase: i1) {
    %bar = nv_tileas.mbarrier.create arrive_count = 1
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32>
    nv_tileas.async.fence
    nv_tileas.async.arrive %bar
    nv_tileas.async.pipeline.producer_commit %p : !nv_tileas.pipeline<2, tensor<64x16xf16, #sa>>
    scf.if %phase {
      nv_tileas.async.pipeline.consumer_release %p : !nv_tileas.pipeline<2, tensor<64x16xf16, #sa>>
      nv_tileas.mbarrier.wait %bar, %phase
    }
    nv_tileas.mbarrier.expect_tx %bar bytes = 8192
    nv_tileas.mbarrier.arrive %bar
    nv_tileas.cluster_barrier.arrive relaxed
    nv_tileas.cluster_barrier.wait
    func.return
  }
}

// CHECK-LABEL: func.func @mma
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22global knob SchedResBusyXU64=1\22;\0A", "" : () -> ()
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    %bar = nv_tileas.mbarrier.create arrive_count = 1
// CHECK-NEXT:    %d = nv_tileas.dot
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nv_tileas.async.fence
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nv_tileas.async.arrive %bar
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nv_tileas.async.pipeline.producer_commit
// CHECK-NEXT:    scf.if %phase {
// CHECK-NEXT:      llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:      nv_tileas.async.pipeline.consumer_release
// CHECK-NEXT:      llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:      nv_tileas.mbarrier.wait %bar, %phase
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nv_tileas.mbarrier.expect_tx
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nv_tileas.mbarrier.arrive %bar
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nv_tileas.cluster_barrier.arrive relaxed
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nv_tileas.cluster_barrier.wait
// CHECK-NEXT:    func.return

// -----

// Which targets get the global knob: sm 100..103 and 110, only with an MMA-family op.
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
builtin.module {
  builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 103>} {
    func.func @sm103(%a: tensor<64x16xf16, #sa>, %b: tensor<16x64xf16, #sb>, %c: tensor<64x64xf32>) {
      %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32>
      func.return
    }
    func.func @no_mma() {
      func.return
    }
  }
  builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 110>} {
    nv_tileaa.func @sm110(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
      %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.universal_fma<f32, f32, f32> wait_group = 0 : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
      nv_tileaa.return
    }
  }
  builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
    func.func @sm90(%a: tensor<64x16xf16, #sa>, %b: tensor<16x64xf16, #sb>, %c: tensor<64x64xf32>) {
      %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32>
      func.return
    }
  }
  builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 120>} {
    func.func @sm120(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
      %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.universal_fma<f32, f32, f32> wait_group = 0 : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
      func.return
    }
  }
  func.func @no_target(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.universal_fma<f32, f32, f32> wait_group = 0 : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
    func.return
  }
}

// CHECK-LABEL: func.func @sm103
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22global knob SchedResBusyXU64=1\22;\0A"
// CHECK-NEXT:    nv_tileas.dot
// CHECK-LABEL: func.func @no_mma
// CHECK-NEXT:    func.return
// CHECK-LABEL: nv_tileaa.func @sm110
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22global knob SchedResBusyXU64=1\22;\0A"
// CHECK-NEXT:    nv_tileas.dot
// CHECK-LABEL: func.func @sm90
// CHECK-NEXT:    nv_tileas.dot
// CHECK-LABEL: func.func @sm120
// CHECK-NEXT:    nv_tileas.dot
// CHECK-LABEL: func.func @no_target
// CHECK-NEXT:    nv_tileas.dot
