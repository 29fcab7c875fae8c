// RUN: tileas-opt %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

ori.version "8"
// CHECK: PTX version '8' is not MAJOR.MINOR

// -----

ori.target []
// CHECK: .target needs at least one target

// -----

ori.address_size 48
// CHECK: address size must be 32 or 64, got 48

// -----

ori.var global align 3 b32 @x
// CHECK: alignment must be a power of two, got 3

// -----

"ori.var"() <{space = #ori<state_space global>, var_name = "x", ptx_type = #ori<ptx_type b32>, dims = [#builtin.int<0>]}> : () -> ()
// CHECK: array dimensions must be positive or unsized

// -----

"ori.var"() <{space = #ori<state_space global>, var_name = "x", ptx_type = #ori<ptx_type b32>, dims = [], init = "zero"}> : () -> ()
// CHECK: "zero" cannot initialize a PTX variable

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.var global b32 @x
  ori.fallthrough end
}
// CHECK: variables are declared at module level or in the entry block of an 'ori.func'

// -----

ori.func entry @k() -> (b32 @r)
// CHECK: a kernel (.entry) cannot return values

// -----

ori.func entry @k() {
  ori.exit "exit"
}
// CHECK: the declaration block must end in an 'ori.fallthrough' to the code

// -----

ori.func entry @k() {
  ori.label "L"
  ori.fallthrough ^bb1
^bb1:
  ori.fallthrough end
}
// CHECK: the declaration block holds only 'ori.reg' and 'ori.var', not 'ori.label'

// -----

ori.func entry @k() {
  %a = ori.reg b32 "%r" <1>
  %b = ori.reg b32 "%r1"
  ori.fallthrough ^bb1
^bb1:
  ori.fallthrough end
}
// CHECK: '%r1' is declared twice in this function

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  %a = ori.reg b32 "%r1"
  ori.fallthrough end
}
// CHECK: registers are declared in the entry block of an 'ori.func'

// -----

ori.func entry @k() {
  %a = ori.reg b32 "%r" <-1>
  ori.fallthrough ^bb1
^bb1:
  ori.fallthrough end
}
// CHECK: a register index cannot be negative

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.wgmma.fence "wgmma.fence.sync.aligned"
  ori.label "L"
  ori.fallthrough end
}
// CHECK: a label must be the first op of its block

// -----

"ori.loc"() <{file = 1 : i64, line = 2 : i64, column = 3 : i64, inlined_file = 1 : i64}> : () -> ()
// CHECK: inlined_at needs a file, a line and a column

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.fallthrough end
^bb2:
  ori.exit "exit"
}
// CHECK: only the last block of a function may fall off its end

// -----

ori.func entry @k() {
  %r = ori.reg b32 "%r"
  ori.fallthrough ^bb1
^bb1:
  "ori.inst"(%r) <{opcode = "mov.u32", layout = [#ori.slot<def>, #ori.slot<use>], operandSegmentSizes = array<i32: 0, 1>}> : (!ori.reg) -> ()
  ori.fallthrough end
}
// CHECK: the operand layout names 2 registers but the op has 1 register operands

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  "ori.inst"() <{opcode = "trap", layout = [], guard_negated, operandSegmentSizes = array<i32: 0, 0>}> : () -> ()
  ori.fallthrough end
}
// CHECK: a negated guard needs a guard predicate

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.inst "bar.sync" (0)
  ori.fallthrough end
}
// CHECK: PTX instruction 'bar.sync' must be an 'ori.bar' op

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.wgmma.fence "wgmma.fence.sync.aligned" (0)
  ori.fallthrough end
}
// CHECK: 'wgmma.fence.sync.aligned' takes 0 operands, got 1

// -----

ori.func entry @k() {
  %f = ori.reg f32 "%f"
  ori.fallthrough ^bb1
^bb1:
  ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" (inout {%f})
  ori.fallthrough end
}
// CHECK: wgmma.mma_async needs an accumulator, an A and a B operand

// -----

ori.func entry @k() {
  %f = ori.reg f32 "%f"
  %d = ori.reg b64 "%d"
  ori.fallthrough ^bb1
^bb1:
  ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" (def {%f}, %d, %d, 1, 1, 1, 0, 0)
  ori.fallthrough end
}
// CHECK: the accumulator of wgmma.mma_async must be a vector of inout registers

// -----

ori.func entry @k() {
  %r = ori.reg b32 "%r"
  ori.fallthrough ^bb1
^bb1:
  ori.wgmma.wait_group "wgmma.wait_group.sync.aligned" (%r)
  ori.fallthrough end
}
// CHECK: 'wgmma.wait_group.sync.aligned' takes an immediate group count

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.call "call.uni" ((@r))
  ori.fallthrough end
}
// CHECK: call needs a callee symbol or register

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.call "call.uni" (@f, @a)
  ori.fallthrough end
}
// CHECK: the arguments of a call must be a '(...)' list

// -----

ori.func entry @k() {
  %r = ori.reg b64 "%r"
  ori.fallthrough ^bb1
^bb1:
  ori.call "call" (%r, (@a), 3)
  ori.fallthrough end
}
// CHECK: the prototype of an indirect call must be a symbol

// -----

ori.func entry @k() {
  %r = ori.reg b64 "%r"
  ori.fallthrough ^bb1
^bb1:
  ori.call "call" (%r, (@a), @proto, 1)
  ori.fallthrough end
}
// CHECK: call has operands after its prototype

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  "ori.bra"() [^bb1, ^bb1] <{opcode = "bra", layout = [], operandSegmentSizes = array<i32: 0, 0>}> : () -> ()
}
// CHECK: an unguarded 'bra' has 1 successors, got 2

// -----

ori.func entry @k() {
  %p = ori.reg pred "%p"
  ori.fallthrough ^bb1
^bb1:
  "ori.ret"(%p) <{opcode = "ret", layout = [], operandSegmentSizes = array<i32: 1, 0>}> : (!ori.reg) -> ()
}
// CHECK: a guarded 'ret' has 1 successors, got 0

// -----

ori.func entry @k() {
  %r = ori.reg b32 "%r"
  ori.fallthrough ^bb1
^bb1:
  "ori.inst"(%r) <{opcode = "st.shared.u32", layout = [#ori.addr<#ori.vec<#ori.slot<use>>>], operandSegmentSizes = array<i32: 0, 1>}> : (!ori.reg) -> ()
  ori.fallthrough end
}
// CHECK: an address base must be a register, a symbol or an immediate

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  "ori.inst"() <{opcode = "trap", layout = ["x"], operandSegmentSizes = array<i32: 0, 0>}> : () -> ()
  ori.fallthrough end
}
// CHECK: "x" is not a PTX operand

// -----

"ori.var"() <{space = #ori<state_space global>, var_name = "x", ptx_type = #ori<ptx_type f32>, dims = [], init = #ori.fimm<f32 0x100000000>}> : () -> ()
// CHECK: float immediate bits 0x100000000 do not fit in 32 bits

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.sass "errbar"
  ori.fallthrough end
}
// CHECK: 'errbar' is not a SASS opcode (upper case, dot-separated)

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.mbarrier.wait "_mbarrier.try_wait.parity.shared::cta.b64" (0)
  ori.fallthrough end
}
// CHECK: '_mbarrier.try_wait.parity.shared::cta.b64' takes 2 operands, got 1

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.sass "ERRBAR" attributes {ori.ctrl = #ori.ctrl<wr = 6>}
  ori.fallthrough end
}
// CHECK: scoreboard 6 is not in 0..5

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.sass "ERRBAR" attributes {ori.ctrl = #ori.ctrl<stall = 16>}
  ori.fallthrough end
}
// CHECK: stall count 16 is not in 0..15

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.sass "ERRBAR" attributes {ori.ctrl = #ori.ctrl<wait = [6]>}
  ori.fallthrough end
}
// CHECK: scoreboard 6 is not in 0..5

// -----

ori.func entry @k() {
  ori.fallthrough ^bb1
^bb1:
  ori.sass "ERRBAR" attributes {ori.ctrl = #ori.ctrl<latency = 1>}
  ori.fallthrough end
}
// CHECK: unknown control word field 'latency', expected stall, yield, wr, rd or wait

// -----

ori.func entry @k() {
  %r = ori.reg b32 "%r"
  ori.fallthrough ^bb1
^bb1:
  "ori.brx"(%r) [^bb1] <{opcode = "brx.idx", layout = [#ori.slot<use>, #ori.imm<3>], operandSegmentSizes = array<i32: 0, 1>}> : (!ori.reg) -> ()
}
// CHECK: brx.idx names its list of targets by a symbol

// -----

ori.func entry @k() {
  %r = ori.reg b32 "%r"
  ori.fallthrough ^bb1
^bb1:
  "ori.brx"(%r) [] <{opcode = "brx.idx", layout = [#ori.slot<use>, @t], operandSegmentSizes = array<i32: 0, 1>}> : (!ori.reg) -> ()
}
// CHECK: brx.idx needs at least one target

// -----

ori.func func @f(reg b32 @a[4])
// CHECK: a register parameter is a scalar
