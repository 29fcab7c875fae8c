// RUN: tileas-opt %s -p ori-expand-mbarrier | filecheck %s
// RUN: tileas-opt %s -t ptx | ptxas -arch=sm_90a - -o /dev/null
// RUN: tileas-opt %s -p ori-expand-mbarrier -t ptx | ptxas -arch=sm_90a - -o /dev/null
// The _mbarrier.try_wait pseudo-instruction (seed 003's MBARRIER_TRY_WAIT_PARITY) becomes
// the native retry loop with a fresh predicate; a guarded one is skipped when its guard is
// false. Unexpanded, the PTX writer prints the loop in a scope of its own.

ori.version "8.5"
ori.target ["sm_90a"]
ori.address_size 64
ori.func visible entry @k() {
  %r0 = ori.reg b32 "%r" <0>
  %p0 = ori.reg pred "%p" <0>
  ori.var shared align 8 b64 @bar
  ori.fallthrough ^bb1
^bb1:
  ori.inst "mov.u32" (def %r0, sreg(%tid.x))
  ori.inst "setp.eq.u32" (def %p0, %r0, 0)
  ori.mbarrier.wait "_mbarrier.try_wait.parity.shared::cta.b64" ([@bar], 0)
  ori.mbarrier.wait if %p0 "_mbarrier.try_wait.parity.shared::cta.b64" ([@bar], 1)
  ori.exit "exit"
}

// CHECK:      %p_mbarrier_wait0 = ori.reg pred "%p_mbarrier_wait"<0>
// CHECK-NEXT: %p_mbarrier_wait1 = ori.reg pred "%p_mbarrier_wait"<1>
// CHECK:      ori.inst "setp.eq.u32" (def %p0, %r0, 0)
// CHECK-NEXT: ori.fallthrough ^[[W0:bb[0-9]+]]
// CHECK-NEXT: ^[[W0]]:
// CHECK-NEXT: ori.mbarrier "mbarrier.try_wait.parity.shared::cta.b64" (def %p_mbarrier_wait0, [@bar], 0)
// CHECK-NEXT: ori.bra if not %p_mbarrier_wait0 "bra" ^[[W0]], ^[[NEXT:bb[0-9]+]]
// CHECK-NEXT: ^[[NEXT]]:
// CHECK-NEXT: ori.bra if not %p0 "bra" ^[[AFTER:bb[0-9]+]], ^[[W1:bb[0-9]+]]
// CHECK-NEXT: ^[[W1]]:
// CHECK-NEXT: ori.mbarrier "mbarrier.try_wait.parity.shared::cta.b64" (def %p_mbarrier_wait1, [@bar], 1)
// CHECK-NEXT: ori.bra if not %p_mbarrier_wait1 "bra" ^[[W1]], ^[[AFTER]]
// CHECK-NEXT: ^[[AFTER]]:
// CHECK-NEXT: ori.exit "exit"
