// The cute_nvgpu form: an atom value whose runtime fields become immediates. With
// `accum_c` set (make_mma_atom's default) the tile accumulates into C from the first K
// step (scale-d one throughout): C's splat 1.0 is packed into registers before the fence.
// `neg_b` is imm-scale-b = -1. No `wait_group`: the lowering's default, 0.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
#sa = #nv_tileas.shared<swizzle = 64, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 64, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  func.func @atom_gemm(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<64x32xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<32x64xf16, #sb>
    %c = arith.constant dense<1.0> : tensor<64x64xf32, #acc>
    %atom = cute_nvgpu.make_mma_atom : !atom
    %true = arith.constant true
    %neg = cute_nvgpu.atom.set_value %atom, neg_b, %true : !atom
    %d = cute_nvgpu.atom.gemm %neg, %a, %b, %c : !atom, tensor<64x32xf16, #sa>, tensor<32x64xf16, #sb> -> tensor<64x64xf32, #acc>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x64xf32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<64x64xf32, #acc> -> !nv_tileas.tiled_view<64x64xf32>
    func.return
  }
}

// CHECK-LABEL: llvm.func @atom_gemm
// CHECK-NOT:   cute_nvgpu
// CHECK:       llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK:       nvvm.wgmma.fence.aligned
// CHECK-NEXT:  nvvm.wgmma.mma_async {{.+}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <neg>, <col>]
// CHECK-NEXT:  nvvm.wgmma.mma_async {{.+}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <neg>, <col>]
// CHECK-NEXT:  nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:  nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT:   cute_nvgpu

// The 32 accumulator registers are set before the fence, and the MMAs accumulate into them.
// PTX:      mov.f32 %f32, 0f3F800000;
// PTX:      mov.f32 %f63, 0f3F800000;
// PTX:      wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%f32, {{.*}}, %f63}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, 1, 1, -1, 0, 0;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%f32, {{.*}}, %f63}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, 1, 1, -1, 0, 0;
