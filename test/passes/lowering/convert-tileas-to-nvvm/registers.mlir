// Register budgets of a warp-specialised kernel: the producer's warpgroup (the TMA warp and
// the hole beside it) gives registers back with setmaxnreg.dec 40, the two WGMMA
// warpgroups take 232 each ((65536 - 128 * 40) / 256, rounded down to a multiple of 8);
// each run of warpgroups is an scf.if that starts with its setmaxnreg and holds its agents,
// and the kernel states its register count at entry (.minnctapersm 1 with .reqntid 384:
// 168). The options give the budgets instead.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p 'convert-tileas-to-nvvm{producer-registers=24 consumer-registers=240}' | filecheck %s --check-prefix=OPTIONS
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 12 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<64x64xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<64x64xf16, #sb>
    nv_tileas.async.pipeline.agent_switch num_warps = [4, 4, 1] warp_id = [0, 4, 8] agent_strides = [1, 1, 1] {
      %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
      %d = nv_tileas.dot %a, %b, %zero atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x64xf16, #sa>, tensor<64x64xf16, #sb> -> tensor<64x64xf32, #acc>
    } {
      %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
      %d = nv_tileas.dot %a, %b, %zero atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x64xf16, #sa>, tensor<64x64xf16, #sb> -> tensor<64x64xf32, #acc>
    } {
      nv_tileas.async.fence
    }
    nv_tileas.return
  }
}

// CHECK:      llvm.func @k({{.*}}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK:      %[[WARP:.*]] = arith.shrui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[WGMMA:.*]] = arith.cmpi ult, %[[WARP]], %[[C8]] : i32
// CHECK-NEXT: scf.if %[[WGMMA]] {
// CHECK-NEXT:   nvvm.setmaxregister  increase 232
// CHECK:        scf.if %{{.*}} {
// CHECK:          nvvm.wgmma.mma_async
// CHECK:        }{nv_tileas.agent_warps = 4 : i32, nv_tileas.agent_index = 0 : i32, nv_tileas.agent_registers = 232 : i32}
// CHECK:        scf.if %{{.*}} {
// CHECK:          nvvm.wgmma.mma_async
// CHECK:        }{nv_tileas.agent_warps = 4 : i32, nv_tileas.agent_index = 1 : i32, nv_tileas.agent_registers = 232 : i32}
// CHECK-NEXT: }
// CHECK-NEXT: %[[C12:.*]] = arith.constant 12 : i32
// CHECK-NEXT: %[[BELOW:.*]] = arith.cmpi ult, %[[WARP]], %[[C12]] : i32
// CHECK-NEXT: %[[C8B:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[ABOVE:.*]] = arith.cmpi uge, %[[WARP]], %[[C8B]] : i32
// CHECK-NEXT: %[[DATA:.*]] = arith.andi %[[ABOVE]], %[[BELOW]] : i1
// CHECK-NEXT: scf.if %[[DATA]] {
// CHECK-NEXT:   nvvm.setmaxregister  decrease 40
// CHECK:        scf.if %{{.*}} {
// CHECK-NEXT:     nvvm.fence.proxy
// CHECK-NEXT:   }{nv_tileas.agent_warps = 1 : i32, nv_tileas.agent_index = 2 : i32, nv_tileas.agent_registers = 40 : i32}

// OPTIONS: nvvm.setmaxregister  increase 240
// OPTIONS: nvvm.setmaxregister  decrease 24

// PTX:      .reqntid 384, 1, 1
// PTX-NEXT: .minnctapersm 1
// PTX:      setmaxnreg.inc.sync.aligned.u32 232;
// PTX:      setmaxnreg.dec.sync.aligned.u32 40;
