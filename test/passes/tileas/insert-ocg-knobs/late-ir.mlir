// RUN: tileas-opt %s --split-input-file -p tileas-insert-OCG-knobs | filecheck %s
// RUN: tileas-opt %s --split-input-file -p tileas-insert-OCG-knobs,tileas-insert-OCG-knobs | filecheck %s

// Late (NVVM-level) IR: FenceCode before every fence, arrive and barrier op, and before
// inline asm whose first instruction is one; not before other inline asm or ops.
builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a">} {
  llvm.func @anchors(%bar: !llvm.ptr<3>, %p: i1, %id: i32, %n: i32) {
    %c = arith.constant 4096 : i32
    nvvm.mbarrier.init %bar, %c, predicate = %p : !llvm.ptr<3>, i32, i1
    nvvm.fence.mbarrier.init
    nvvm.barrier0
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.mbarrier.arrive %bar : !llvm.ptr<3>
    nvvm.mbarrier.arrive.expect_tx %bar, %c, predicate = %p : !llvm.ptr<3>, i32, i1
    nvvm.mbarrier.try_wait.parity %bar, %id, %c : !llvm.ptr<3>, i32, i32
    llvm.inline_asm has_side_effects "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [$0];", "l" %bar : (!llvm.ptr<3>) -> ()
    llvm.inline_asm has_side_effects "{ .reg .pred q; @q mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [$0], 8; }", "l" %bar : (!llvm.ptr<3>) -> ()
    llvm.inline_asm has_side_effects "st.shared.u32 [$0], 1;", "l" %bar : (!llvm.ptr<3>) -> ()
    nvvm.barrier id = %id number_of_threads = %n
    nvvm.cluster.arrive.relaxed {aligned}
    nvvm.cluster.wait {aligned}
    %x = nvvm.read.ptx.sreg.tid.x : i32
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @anchors
// CHECK-NEXT:    %c = arith.constant 4096 : i32
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nvvm.mbarrier.init
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nvvm.fence.mbarrier.init
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nvvm.fence.proxy
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nvvm.mbarrier.arrive %bar
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nvvm.mbarrier.arrive.expect_tx
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nvvm.mbarrier.try_wait.parity
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    llvm.inline_asm has_side_effects "cp.async.mbarrier.arrive.noinc
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    llvm.inline_asm has_side_effects "{ .reg .pred q; @q mbarrier.expect_tx
// CHECK-NEXT:    llvm.inline_asm has_side_effects "st.shared.u32
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nvvm.barrier id = %id
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nvvm.cluster.arrive.relaxed
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:    nvvm.cluster.wait
// CHECK-NEXT:    %x = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT:    llvm.return

// -----

// The global knob in late IR: the target is the chip of `nvvm.target` (sm_100a, sm_103a,
// sm_110a; not sm_90a or sm_120a), and the function needs an NVVM MMA op.
builtin.module {
  builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">} {
    llvm.func @tcgen05(%d: !llvm.ptr<6>, %a: i64, %b: i64, %idesc: i32, %acc: i1) {
      nvvm.tcgen05.mma %d, %a, %b, %idesc, %acc {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
      llvm.return
    }
    llvm.func @no_mma() {
      llvm.return
    }
  }
  builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a">} {
    llvm.func @wgmma_sm90a(%da: i64, %db: i64, %acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
      %d = nvvm.wgmma.mma_async %da, %db, %acc, #nvvm.shape<m = 64, n = 32, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      llvm.return
    }
  }
}

// CHECK-LABEL: llvm.func @tcgen05
// CHECK-NEXT:    llvm.inline_asm has_side_effects ".pragma \22global knob SchedResBusyXU64=1\22;\0A", "" : () -> ()
// CHECK-NEXT:    nvvm.tcgen05.mma
// CHECK-LABEL: llvm.func @no_mma
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func @wgmma_sm90a
// CHECK-NEXT:    nvvm.wgmma.mma_async
// CHECK-NEXT:    llvm.return
