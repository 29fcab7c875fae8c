// RUN: TILEAS_ROUNDTRIP
// RUN: TILEAS_GENERIC_ROUNDTRIP

// The module-level directives and variables.
ori.version "8.7"
ori.target ["sm_90a", "debug"]
ori.address_size 64
ori.pragma ["nounroll"]
ori.file 1 "kernel.cu" timestamp 1700000000 size 2048
ori.var visible global align 1 b8 @"$str"[4] = [104, 105, 10, 0]
ori.var const align 4 s32 @offsets[2][2] = [[-1, 16], [8, 3]]
ori.var global align 4 f32 @coeffs[2] = [f32(0x3f800000), f32(0x40000000)]
ori.var global align 8 u64 @ptr = generic(@"$str")
ori.var extern shared align 16 b8 @global_smem[]
ori.var global v4 f32 @vec
ori.func extern func @vprintf(b64 @vprintf_param_0, b64 @vprintf_param_1) -> (b32 @func_retval0)
ori.section ".debug_str" "\0A$L__info_string0:\0A.b8 0\0A"

// CHECK:      ori.version "8.7"
// CHECK-NEXT: ori.target ["sm_90a", "debug"]
// CHECK-NEXT: ori.address_size 64
// CHECK-NEXT: ori.pragma ["nounroll"]
// CHECK-NEXT: ori.file 1 "kernel.cu" timestamp 1700000000 size 2048
// CHECK-NEXT: ori.var visible global align 1 b8 @"$str"[4] = [104, 105, 10, 0]
// CHECK-NEXT: ori.var const align 4 s32 @offsets[2][2] = {{\[}}[-1, 16], [8, 3]]
// CHECK-NEXT: ori.var global align 4 f32 @coeffs[2] = [f32(0x3f800000), f32(0x40000000)]
// CHECK-NEXT: ori.var global align 8 u64 @ptr = generic(@"$str")
// CHECK-NEXT: ori.var extern shared align 16 b8 @global_smem[]
// CHECK-NEXT: ori.var global v4 f32 @vec
// CHECK-NEXT: ori.func extern func @vprintf(b64 @vprintf_param_0, b64 @vprintf_param_1) -> (b32 @func_retval0)
// CHECK-NEXT: ori.section ".debug_str" "\0A$L__info_string0:\0A.b8 0\0A"

// CHECK-GENERIC: "ori.version"() <{version = "8.7"}> : () -> ()
// CHECK-GENERIC: "ori.var"() <{space = #ori<state_space global>, linkage = #ori<linkage visible>, var_name = "$str", ptx_type = #ori<ptx_type b8>, align = #builtin.int<1>, dims = [#builtin.int<4>], init = [#ori.imm<104>, #ori.imm<105>, #ori.imm<10>, #ori.imm<0>]}> : () -> ()
// CHECK-GENERIC: "ori.func"() <{func_name = "vprintf", kind = #ori<function_kind func>, linkage = #ori<linkage extern>, params = [#ori.param<b64 @vprintf_param_0>, #ori.param<b64 @vprintf_param_1>], returns = [#ori.param<b32 @func_retval0>], directives = []}> ({
// CHECK-GENERIC-NEXT: }) : () -> ()

// -----

// Registers, labels, debug locations and every instruction op.
ori.func visible entry @k(u64 @k_param_0, align 64 b8 @tmap[128], u64 ptr global align 16 @p) maxntid 128, 1, 1 reqnctapercluster 2, 1, 1 explicitcluster {
  %r0 = ori.reg b32 "%r" <0>
  %r1 = ori.reg b32 "%r" <1>
  %f1 = ori.reg f32 "%f1" class accumulator
  %f2 = ori.reg f32 "%f2" class accumulator
  %p1 = ori.reg pred "%p1"
  %rd1 = ori.reg b64 "%rd1"
  ori.var local align 16 b8 @__local_depot0[16]
  ori.var param b32 @param0
  ori.fallthrough ^bb1
^bb1:
  ori.label "$L__BB0_1"
  ori.loc 1 61 0
  ori.loc 2 43 13 function_name @"$L__info_string0" inlined_at 1 67 17
  ori.pragma ["nounroll"]
  ori.inst "mov.u32" (def %r0, sreg(%tid.x))
  ori.inst if not %p1 "ld.global.nc.v2.f32" (def {%f1, %f2}, [%rd1 + 8])
  ori.inst "st.shared.b32" ([@__local_depot0 - 4], f32(0x3f800000))
  ori.inst "setp.lt.and.s32" (def %p1 | %p1, %r0, -5, not %p1)
  ori.inst "mul.f64" (def %rd1, %rd1, f64(0x4000000000000000))
  ori.inst "ld.param.b32" (def %r1, [@param0])
  ori.wgmma.fence "wgmma.fence.sync.aligned"
  ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" (inout {%f1, %f2}, %rd1, %rd1, %p1, 1, 1, 0, 0)
  ori.wgmma.commit_group "wgmma.commit_group.sync.aligned"
  ori.wgmma.wait_group "wgmma.wait_group.sync.aligned" (0)
  ori.warpgroup.arrive "_warpgroup.arrive"
  ori.warpgroup.commit_batch "_warpgroup.commit_batch"
  ori.warpgroup.wait "_warpgroup.wait" (1)
  ori.bar "bar.sync" (0)
  ori.bar "barrier.cta.red.popc.u32" (def %r1, 1, %p1)
  ori.membar "membar.gl"
  ori.fence "fence.proxy.async.shared::cta"
  ori.mbarrier if %p1 "mbarrier.arrive.expect_tx.shared::cta.b64" (_, [%r0], 32768)
  ori.mbarrier "mbarrier.try_wait.parity.shared::cta.b64" (def %p1, [%r0], %r1)
  ori.cp.async "cp.async.cg.shared.global" ([%r0], [%rd1], 16)
  ori.cp.async.commit_group "cp.async.commit_group"
  ori.cp.async.wait_group "cp.async.wait_group" (1)
  ori.cp.async.wait_all "cp.async.wait_all"
  ori.cp.async.mbarrier.arrive "cp.async.mbarrier.arrive.noinc.shared::cta.b64" ([%r0])
  ori.cp.async.bulk "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes" ([%r0], [@tmap, {%r0, %r1}], [%r1])
  ori.cp.async.bulk.commit_group "cp.async.bulk.commit_group"
  ori.cp.async.bulk.wait_group "cp.async.bulk.wait_group.read" (0)
  ori.cp.reduce.async.bulk "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group" ([@tmap, {%r0, %r1}], [%r1])
  ori.call "call.uni" ((@param0), @k, (@param0))
  ori.bra if %p1 "bra.uni" ^bb1, ^bb2
^bb2:
  ori.ret if not %p1 "ret" ^bb3
^bb3:
  ori.fallthrough ^bb4
^bb4:
  ori.exit if %p1 "exit" ^bb5
^bb5:
  ori.bra "bra" ^bb1
}

// CHECK:      ori.func visible entry @k(u64 @k_param_0, align 64 b8 @tmap[128], u64 ptr global align 16 @p) maxntid 128, 1, 1 reqnctapercluster 2, 1, 1 explicitcluster {
// CHECK-NEXT:   %r0 = ori.reg b32 "%r"<0>
// CHECK-NEXT:   %r1 = ori.reg b32 "%r"<1>
// CHECK-NEXT:   %f1 = ori.reg f32 "%f1" class accumulator
// CHECK-NEXT:   %f2 = ori.reg f32 "%f2" class accumulator
// CHECK-NEXT:   %p1 = ori.reg pred "%p1"
// CHECK-NEXT:   %rd1 = ori.reg b64 "%rd1"
// CHECK-NEXT:   ori.var local align 16 b8 @__local_depot0[16]
// CHECK-NEXT:   ori.var param b32 @param0
// CHECK-NEXT:   ori.fallthrough ^bb1
// CHECK-NEXT: ^bb1:
// CHECK-NEXT:   ori.label "$L__BB0_1"
// CHECK-NEXT:   ori.loc 1 61 0
// CHECK-NEXT:   ori.loc 2 43 13 function_name @"$L__info_string0" inlined_at 1 67 17
// CHECK-NEXT:   ori.pragma ["nounroll"]
// CHECK-NEXT:   ori.inst "mov.u32" (def %r0, sreg(%tid.x))
// CHECK-NEXT:   ori.inst if not %p1 "ld.global.nc.v2.f32" (def {%f1, %f2}, [%rd1 + 8])
// CHECK-NEXT:   ori.inst "st.shared.b32" ([@__local_depot0 - 4], f32(0x3f800000))
// CHECK-NEXT:   ori.inst "setp.lt.and.s32" (def %p1 | %p1, %r0, -5, not %p1)
// CHECK-NEXT:   ori.inst "mul.f64" (def %rd1, %rd1, f64(0x4000000000000000))
// CHECK-NEXT:   ori.inst "ld.param.b32" (def %r1, [@param0])
// CHECK-NEXT:   ori.wgmma.fence "wgmma.fence.sync.aligned"
// CHECK-NEXT:   ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" (inout {%f1, %f2}, %rd1, %rd1, %p1, 1, 1, 0, 0)
// CHECK-NEXT:   ori.wgmma.commit_group "wgmma.commit_group.sync.aligned"
// CHECK-NEXT:   ori.wgmma.wait_group "wgmma.wait_group.sync.aligned" (0)
// CHECK-NEXT:   ori.warpgroup.arrive "_warpgroup.arrive"
// CHECK-NEXT:   ori.warpgroup.commit_batch "_warpgroup.commit_batch"
// CHECK-NEXT:   ori.warpgroup.wait "_warpgroup.wait" (1)
// CHECK-NEXT:   ori.bar "bar.sync" (0)
// CHECK-NEXT:   ori.bar "barrier.cta.red.popc.u32" (def %r1, 1, %p1)
// CHECK-NEXT:   ori.membar "membar.gl"
// CHECK-NEXT:   ori.fence "fence.proxy.async.shared::cta"
// CHECK-NEXT:   ori.mbarrier if %p1 "mbarrier.arrive.expect_tx.shared::cta.b64" (_, [%r0], 32768)
// CHECK-NEXT:   ori.mbarrier "mbarrier.try_wait.parity.shared::cta.b64" (def %p1, [%r0], %r1)
// CHECK-NEXT:   ori.cp.async "cp.async.cg.shared.global" ([%r0], [%rd1], 16)
// CHECK-NEXT:   ori.cp.async.commit_group "cp.async.commit_group"
// CHECK-NEXT:   ori.cp.async.wait_group "cp.async.wait_group" (1)
// CHECK-NEXT:   ori.cp.async.wait_all "cp.async.wait_all"
// CHECK-NEXT:   ori.cp.async.mbarrier.arrive "cp.async.mbarrier.arrive.noinc.shared::cta.b64" ([%r0])
// CHECK-NEXT:   ori.cp.async.bulk "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes" ([%r0], [@tmap, {%r0, %r1}], [%r1])
// CHECK-NEXT:   ori.cp.async.bulk.commit_group "cp.async.bulk.commit_group"
// CHECK-NEXT:   ori.cp.async.bulk.wait_group "cp.async.bulk.wait_group.read" (0)
// CHECK-NEXT:   ori.cp.reduce.async.bulk "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group" ([@tmap, {%r0, %r1}], [%r1])
// CHECK-NEXT:   ori.call "call.uni" ((@param0), @k, (@param0))
// CHECK-NEXT:   ori.bra if %p1 "bra.uni" ^bb1, ^bb2
// CHECK-NEXT: ^bb2:
// CHECK-NEXT:   ori.ret if not %p1 "ret" ^bb3
// CHECK-NEXT: ^bb3:
// CHECK-NEXT:   ori.fallthrough ^bb4
// CHECK-NEXT: ^bb4:
// CHECK-NEXT:   ori.exit if %p1 "exit" ^bb5
// CHECK-NEXT: ^bb5:
// CHECK-NEXT:   ori.bra "bra" ^bb1
// CHECK-NEXT: }

// CHECK-GENERIC: %r0 = "ori.reg"() <{ptx_type = #ori<ptx_type b32>, reg_name = "%r", index = 0 : i64}> : () -> !ori.reg
// CHECK-GENERIC: %f1 = "ori.reg"() <{ptx_type = #ori<ptx_type f32>, reg_name = "%f1", reg_class = #ori<reg_class accumulator>}> : () -> !ori.reg
// CHECK-GENERIC: "ori.inst"(%r0) <{opcode = "mov.u32", layout = [#ori.slot<def>, #ori.sreg<"%tid.x">], operandSegmentSizes = array<i32: 0, 1>}> : (!ori.reg) -> ()
// CHECK-GENERIC: "ori.inst"(%p1, %f1, %f2, %rd1) <{opcode = "ld.global.nc.v2.f32", layout = [#ori.vec<#ori.slot<def>, #ori.slot<def>>, #ori.addr<#ori.slot<use> + 8>], guard_negated, operandSegmentSizes = array<i32: 1, 3>}> : (!ori.reg, !ori.reg, !ori.reg, !ori.reg) -> ()
// CHECK-GENERIC: "ori.inst"() <{opcode = "st.shared.b32", layout = [#ori.addr<@__local_depot0 + -4>, #ori.fimm<f32 0x3f800000>], operandSegmentSizes = array<i32: 0, 0>}> : () -> ()
// CHECK-GENERIC: "ori.inst"(%p1, %p1, %r0, %p1) <{opcode = "setp.lt.and.s32", layout = [#ori.pair<#ori.slot<def> | #ori.slot<def>>, #ori.slot<use>, #ori.imm<-5>, #ori.not<#ori.slot<use>>], operandSegmentSizes = array<i32: 0, 4>}> : (!ori.reg, !ori.reg, !ori.reg, !ori.reg) -> ()
// CHECK-GENERIC: "ori.wgmma.mma_async"(%f1, %f2, %rd1, %rd1, %p1) <{opcode = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", layout = [#ori.vec<#ori.slot<inout>, #ori.slot<inout>>, #ori.slot<use>, #ori.slot<use>, #ori.slot<use>, #ori.imm<1>, #ori.imm<1>, #ori.imm<0>, #ori.imm<0>], operandSegmentSizes = array<i32: 0, 5>}> : (!ori.reg, !ori.reg, !ori.reg, !ori.reg, !ori.reg) -> ()
// CHECK-GENERIC: "ori.mbarrier"(%p1, %r0) <{opcode = "mbarrier.arrive.expect_tx.shared::cta.b64", layout = [#ori.sink, #ori.addr<#ori.slot<use>>, #ori.imm<32768>], operandSegmentSizes = array<i32: 1, 1>}> : (!ori.reg, !ori.reg) -> ()
// CHECK-GENERIC: "ori.cp.async.bulk"(%r0, %r0, %r1, %r1) <{opcode = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes", layout = [#ori.addr<#ori.slot<use>>, #ori.addr<@tmap, #ori.vec<#ori.slot<use>, #ori.slot<use>>>, #ori.addr<#ori.slot<use>>], operandSegmentSizes = array<i32: 0, 4>}> : (!ori.reg, !ori.reg, !ori.reg, !ori.reg) -> ()
// CHECK-GENERIC: "ori.call"() <{opcode = "call.uni", layout = [#ori.paren<@param0>, @k, #ori.paren<@param0>], operandSegmentSizes = array<i32: 0, 0>}> : () -> ()
// CHECK-GENERIC: "ori.bra"(%p1) [^bb1, ^bb2] <{opcode = "bra.uni", layout = [], operandSegmentSizes = array<i32: 1, 0>}> : (!ori.reg) -> ()

// -----

// Register parameters and results of a function, and an indirect branch (brx.idx).
ori.func func @f(reg b32 @a) -> (reg b32 @r) {
  %r = ori.reg b32 "r"
  %a = ori.reg b32 "a"
  %i = ori.reg b32 "%i"
  %p = ori.reg pred "%p"
  ori.fallthrough ^bb1
^bb1:
  ori.inst "and.b32" (def %i, %a, 1)
  ori.brx "brx.idx" (%i, @targets) ^bb2, ^bb3
^bb2:
  ori.inst "mov.u32" (def %r, %a)
  ori.brx if %p "brx.idx.uni" (%i, @again) ^bb2, ^bb3, ^bb3
^bb3:
  ori.ret "ret"
}

// CHECK:      ori.func func @f(reg b32 @a) -> (reg b32 @r) {
// CHECK:        ori.brx "brx.idx" (%i, @targets) ^bb2, ^bb3
// CHECK:        ori.brx if %p "brx.idx.uni" (%i, @again) ^bb2, ^bb3, ^bb3
// CHECK-GENERIC: params = [#ori.param<reg b32 @a>], returns = [#ori.param<reg b32 @r>]
// CHECK-GENERIC: "ori.brx"(%i) [^bb2, ^bb3] <{opcode = "brx.idx", layout = [#ori.slot<use>, @targets], operandSegmentSizes = array<i32: 0, 1>}> : (!ori.reg) -> ()
