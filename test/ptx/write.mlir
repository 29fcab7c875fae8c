// RUN: tileas-opt %s -t ptx | filecheck %s
// RUN: tileas-opt %s -t ptx | ptxas -arch=sm_90a - -o /dev/null
// Writing ori as PTX: register groups, labels for branch targets, fall-throughs that do
// not lead to the next block, and ptxas's warpgroup pseudo-instructions.

ori.version "8.7"
ori.target ["sm_90a"]
ori.address_size 64
ori.func visible entry @k() reqntid 128 {
  %r0 = ori.reg b32 "%r" <0>
  %r1 = ori.reg b32 "%r" <1>
  %r3 = ori.reg b32 "%r" <3>
  %p = ori.reg pred "%p"
  %f1 = ori.reg f32 "%f1" class accumulator
  ori.fallthrough ^bb1
^bb1:
  ori.inst "mov.u32" (def %r0, sreg(%tid.x))
  ori.inst "setp.eq.s32" (def %p, %r0, 0)
  ori.warpgroup.arrive "_warpgroup.arrive"
  ori.warpgroup.commit_batch "_warpgroup.commit_batch"
  ori.warpgroup.wait "_warpgroup.wait" (0)
  ori.bra if %p "bra.uni" ^bb3, ^bb2
^bb3:
  ori.inst "mov.u32" (def %r1, 1)
  ori.fallthrough ^bb4
^bb2:
  ori.inst "mov.u32" (def %r1, 2)
  ori.exit if not %p "exit" ^bb4
^bb4:
  ori.label "$L__BB0_9"
  ori.inst "add.s32" (def %r3, %r1, %r0)
  ori.inst "mov.f32" (def %f1, f32(0x3f800000))
  ori.exit "exit"
}

// CHECK:      .version 8.7
// CHECK-NEXT: .target sm_90a
// CHECK-NEXT: .address_size 64
// CHECK:      .visible .entry k()
// CHECK-NEXT: .reqntid 128
// CHECK-NEXT: {
// CHECK-NEXT:   .reg .b32 %r<2>;
// CHECK-NEXT:   .reg .b32 %r3;
// CHECK-NEXT:   .reg .pred %p;
// CHECK-NEXT:   .reg .f32 %f1;
// CHECK:        mov.u32 %r0, %tid.x;
// CHECK-NEXT:   setp.eq.s32 %p, %r0, 0;
// CHECK-NEXT:   wgmma.fence.sync.aligned;
// CHECK-NEXT:   wgmma.commit_group.sync.aligned;
// CHECK-NEXT:   wgmma.wait_group.sync.aligned 0;
// CHECK-NEXT:   @%p bra.uni $L__ori_0;
// CHECK-NEXT:   bra $L__ori_1;
// CHECK-NEXT: $L__ori_0:
// CHECK-NEXT:   mov.u32 %r1, 1;
// CHECK-NEXT:   bra $L__BB0_9;
// CHECK-NEXT: $L__ori_1:
// CHECK-NEXT:   mov.u32 %r1, 2;
// CHECK-NEXT:   @!%p exit;
// CHECK-NEXT: $L__BB0_9:
// CHECK-NEXT:   add.s32 %r3, %r1, %r0;
// CHECK-NEXT:   mov.f32 %f1, 0f3F800000;
// CHECK-NEXT:   exit;
// CHECK-NEXT: }
