// OCG knobs through convert-tileas-to-nvvm: each fence / arrive / barrier pattern puts
// the pragmas that stand right before its tile op (the FenceCode knob of
// tileas-insert-OCG-knobs, the op's enter directives) right before the instruction it
// emits, as tileiras's emitFenceCodePragmaBefore does; leave directives follow the op's
// lowering. In the PTX each pragma is right before its instruction.
// RUN: tileas-opt %s --split-input-file -p tileas-insert-OCG-knobs,convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s --split-input-file -p tileas-insert-OCG-knobs,convert-tileas-to-nvvm,convert-nvvm-to-ori,ptxas-pipeline -t ptx 2>/dev/null | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k(%phase: i1) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %bar = nv_tileas.mbarrier.create arrive_count = 1
    nv_tileas.mbarrier.expect_tx %bar bytes = 16384
    nv_tileas.mbarrier.arrive %bar
    nv_tileas.async.fence
    nv_tileas.async.arrive %bar
    nv_tileas.mbarrier.wait %bar, %phase
    nv_tileas.cluster_barrier.arrive relaxed
    nv_tileas.cluster_barrier.wait
    nv_tileas.return
  }
}

// CHECK-LABEL: llvm.func @k
// CHECK:      %[[COUNT:.*]] = arith.constant 1 : i32
// CHECK-NEXT: llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT: nvvm.mbarrier.init %{{.*}}, %[[COUNT]]
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: nvvm.barrier0
// CHECK:      scf.if
// CHECK-NEXT:   llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:   llvm.inline_asm has_side_effects "mbarrier.expect_tx
// CHECK:      scf.if
// CHECK-NEXT:   llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:   nvvm.mbarrier.arrive
// CHECK:      llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.mbarrier.arrive.noinc
// CHECK:      arith.constant 10000000 : i32
// CHECK-NEXT: llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT: nvvm.mbarrier.try_wait.parity
// CHECK-NEXT: llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT: nvvm.cluster.arrive.relaxed
// CHECK-NEXT: llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT: nvvm.cluster.wait

// PTX-LABEL: .entry k(
// PTX:       .pragma "next knob FenceCode";
// PTX-NEXT:  mbarrier.init.shared::cta.b64
// PTX:       .pragma "next knob FenceCode";
// PTX-NEXT:  mbarrier.expect_tx.relaxed.cta.shared::cta.b64
// PTX:       .pragma "next knob FenceCode";
// PTX-NEXT:  mbarrier.arrive.shared::cta.b64
// PTX:       .pragma "next knob FenceCode";
// PTX-NEXT:  fence.proxy.async.shared::cta;
// PTX:       .pragma "next knob FenceCode";
// PTX-NEXT:  cp.async.mbarrier.arrive.noinc.shared::cta.b64
// The wait loop (rotated by ptxas-pipeline, printed as the loop it came from) starts at
// its knob, so the wait of every iteration has it.
// PTX:       [[WAIT:\$L__ori_[0-9]+]]:
// PTX-NEXT:  .pragma "next knob FenceCode";
// PTX-NEXT:  mbarrier.try_wait.parity.shared::cta.b64
// PTX-NEXT:  bra {{.*}}[[WAIT]];
// PTX:       .pragma "next knob FenceCode";
// PTX-NEXT:  barrier.cluster.arrive.relaxed.aligned;
// PTX:       .pragma "next knob FenceCode";
// PTX-NEXT:  barrier.cluster.wait.aligned;

// -----

// A pipeline's producer_commit and consumer_release: the knob goes right before the
// arrive, after the cursor load and the barrier address it needs.
!pipe = !nv_tileas.pipeline<2, tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @p(%t: !nv_tileas.tiled_view<256x256xf16>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %p = nv_tileas.async.pipeline.create_pipeline : !pipe
    %c0 = arith.constant 0 : index
    %s = nv_tileas.async.pipeline.producer_acquire %p : !pipe -> tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
    %l = nv_tileas.tiled_load %t[%c0, %c0] : !nv_tileas.tiled_view<256x256xf16> -> tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
    %w = nv_tileas.copy %l, %s : tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>> -> tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
    nv_tileas.async.pipeline.producer_commit %p : !pipe
    %r = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
    nv_tileas.async.pipeline.consumer_release %p : !pipe
    nv_tileas.return
  }
}

// CHECK-LABEL: llvm.func @p
// CHECK:      llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}}, predicate = %{{.*}}
// CHECK:      llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>

// PTX-LABEL: .entry p(
// PTX:       .pragma "next knob FenceCode";
// PTX-NEXT:  @%p{{[0-9]+}} mbarrier.arrive.expect_tx.shared::cta.b64
// PTX:       .pragma "next knob FenceCode";
// PTX-NEXT:  mbarrier.arrive.shared::cta.b64

// -----

// ocgEnterDirectives / ocgLeaveDirectives: on a fence / arrive / barrier op the enter
// directives reach its instruction (after its FenceCode knob); on any other op they
// precede its lowering; leave directives follow the op's lowering.
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @d(%phase: i1) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %bar = nv_tileas.mbarrier.create arrive_count = 1
    %x = nv_tileaa.get_program_id x {nv_tileas.ocgEnterDirectives = ["next knob Enter"], nv_tileas.ocgLeaveDirectives = ["global knob Leave=1", "next knob Leave"]}
    nv_tileas.mbarrier.arrive %bar {nv_tileas.ocgEnterDirectives = ["next knob Arrive"], nv_tileas.ocgLeaveDirectives = ["next knob AfterArrive"]}
    nv_tileas.return
  }
}

// CHECK-LABEL: llvm.func @d
// CHECK:      llvm.inline_asm has_side_effects ".pragma \22next knob Enter\22;\0A", "" : () -> ()
// CHECK-NEXT: %x = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-NEXT: llvm.inline_asm has_side_effects ".pragma \22global knob Leave=1\22;\0A", "" : () -> ()
// CHECK-NEXT: llvm.inline_asm has_side_effects ".pragma \22next knob Leave\22;\0A", "" : () -> ()
// CHECK:      scf.if
// CHECK-NEXT:   llvm.inline_asm has_side_effects ".pragma \22next knob FenceCode\22;\0A", "" : () -> ()
// CHECK-NEXT:   llvm.inline_asm has_side_effects ".pragma \22next knob Arrive\22;\0A", "" : () -> ()
// CHECK-NEXT:   nvvm.mbarrier.arrive
// CHECK-NEXT: }
// CHECK-NEXT: llvm.inline_asm has_side_effects ".pragma \22next knob AfterArrive\22;\0A", "" : () -> ()
// CHECK-NOT:  nv_tileas.ocg

// PTX-LABEL: .entry d(
// PTX:       .pragma "next knob Enter";
// PTX-NEXT:  mov.u32 %r{{[0-9]+}}, %ctaid.x;
// PTX-NEXT:  .pragma "global knob Leave=1";
// PTX-NEXT:  .pragma "next knob Leave";
// PTX:       .pragma "next knob FenceCode";
// PTX-NEXT:  .pragma "next knob Arrive";
// PTX-NEXT:  mbarrier.arrive.shared::cta.b64
