// RUN: tileas-opt %s -p ori-expand-mbarrier | filecheck %s
// Before sm_90 the phase does nothing (seed 003): no proxy fence, the pseudo stays.

ori.target ["sm_80"]
ori.func visible entry @k() {
  %r0 = ori.reg b32 "%r" <0>
  ori.var shared align 8 b64 @bar
  ori.fallthrough ^bb1
^bb1:
  ori.inst "st.shared.u32" ([@bar], 1)
  ori.mbarrier "mbarrier.init.shared.b64" ([@bar], 32)
  ori.mbarrier.wait "_mbarrier.try_wait.parity.shared::cta.b64" ([@bar], 0)
  ori.exit "exit"
}

// CHECK:      ori.inst "st.shared.u32" ([@bar], 1)
// CHECK-NEXT: ori.mbarrier "mbarrier.init.shared.b64" ([@bar], 32)
// CHECK-NEXT: ori.mbarrier.wait "_mbarrier.try_wait.parity.shared::cta.b64" ([@bar], 0)
