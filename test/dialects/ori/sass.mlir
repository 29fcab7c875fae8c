// RUN: TILEAS_ROUNDTRIP
// RUN: TILEAS_GENERIC_ROUNDTRIP
// The SASS level of ori: `ori.sass` instructions, the `ori.sass_opcode` a PTX instruction
// became, `#ori.ctrl` control words, and the `_mbarrier.try_wait` pseudo-instruction.

ori.target ["sm_90a"]
ori.func visible entry @k() {
  %r0 = ori.reg b32 "%r" <0>
  %p0 = ori.reg pred "%p" <0>
  ori.var shared align 8 b64 @bar
  ori.fallthrough ^bb1
^bb1:
  ori.membar "membar.sys" attributes {ori.sass_opcode = "MEMBAR.SC.SYS"}
  ori.sass "ERRBAR"
  ori.sass if not %p0 "WARPSYNC" (%r0)
  ori.sass "DEPBAR.LE" (0, 1) attributes {ori.ctrl = #ori.ctrl<wait = [0]>}
  ori.inst "ld.shared.u32" (def %r0, [@bar]) attributes {ori.ctrl = #ori.ctrl<stall = 4, yield, wr = 1, rd = 2, wait = [0, 5]>}
  ori.fence "fence.mbarrier_init.release.cluster" attributes {ori.sass_opcode = "", ori.ctrl = #ori.ctrl<>}
  ori.mbarrier.wait if %p0 "_mbarrier.try_wait.parity.shared::cta.b64" ([@bar], %r0)
  ori.exit "exit"
}

// CHECK:      ori.membar "membar.sys" attributes {ori.sass_opcode = "MEMBAR.SC.SYS"}
// CHECK-NEXT: ori.sass "ERRBAR"
// CHECK-NEXT: ori.sass if not %p0 "WARPSYNC" (%r0)
// CHECK-NEXT: ori.sass "DEPBAR.LE" (0, 1) attributes {ori.ctrl = #ori.ctrl<wait = [0]>}
// CHECK-NEXT: ori.inst "ld.shared.u32" (def %r0, [@bar]) attributes {ori.ctrl = #ori.ctrl<stall = 4, yield, wr = 1, rd = 2, wait = [0, 5]>}
// CHECK-NEXT: ori.fence "fence.mbarrier_init.release.cluster" attributes {ori.sass_opcode = "", ori.ctrl = #ori.ctrl<>}
// CHECK-NEXT: ori.mbarrier.wait if %p0 "_mbarrier.try_wait.parity.shared::cta.b64" ([@bar], %r0)

// CHECK-GENERIC: "ori.sass"() <{opcode = "ERRBAR", layout = [], operandSegmentSizes = array<i32: 0, 0>}> : () -> ()
// CHECK-GENERIC: "ori.inst"(%r0) <{opcode = "ld.shared.u32", layout = [#ori.slot<def>, #ori.addr<@bar>], operandSegmentSizes = array<i32: 0, 1>}> {ori.ctrl = #ori.ctrl<stall = 4, yield, wr = 1, rd = 2, wait = [0, 5]>} : (!ori.reg) -> ()
// CHECK-GENERIC: "ori.mbarrier.wait"(%p0, %r0) <{opcode = "_mbarrier.try_wait.parity.shared::cta.b64"
