// `accum_c` cleared on the atom: D = A * B, whatever C holds. The first K step zeroes the
// accumulator (scale-d zero), the later ones accumulate, and C is never read.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-wgmma-to-ptx -t ptx | filecheck %s --check-prefix=PTX

!atom = !cute_nvgpu.sm90.mma<64x32x16, ab_major = (k, mn), elem_type = (bf16, bf16, f32), frag_kind = ss>
#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 32, 16]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  func.func @overwrite(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<64x48xbf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<48x32xbf16, #sb>
    %c = arith.constant dense<2.0> : tensor<64x32xf32, #acc>
    %atom = cute_nvgpu.make_mma_atom : !atom
    %false = arith.constant false
    %zero = cute_nvgpu.atom.set_value %atom, accum_c, %false : !atom
    %d = cute_nvgpu.atom.gemm %zero, %a, %b, %c wait_group = 0 : !atom, tensor<64x48xbf16, #sa>, tensor<48x32xbf16, #sb> -> tensor<64x32xf32, #acc>
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x32xf32>
    %c0 = arith.constant 0 : index
    nv_tileas.tiled_store %d, %view[%c0, %c0] : tensor<64x32xf32, #acc> -> !nv_tileas.tiled_view<64x32xf32>
    func.return
  }
}

// CHECK-LABEL: llvm.func @overwrite
// CHECK-NOT:   llvm.mlir.constant(2.000000e+00 : f32)
// CHECK:       nvvm.wgmma.fence.aligned
// CHECK-NEXT:  nvvm.wgmma.mma_async {{.+}}, <m = 64, n = 32, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK-NEXT:  nvvm.wgmma.mma_async {{.+}}, <m = 64, n = 32, k = 16>, D[<f32>, <one>]
// CHECK-NEXT:  nvvm.wgmma.mma_async {{.+}}, <m = 64, n = 32, k = 16>, D[<f32>, <one>]
// CHECK-NEXT:  nvvm.wgmma.commit.group.sync.aligned

// PTX-NOT:  0f40000000
// PTX:      wgmma.fence.sync.aligned;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {{.*}}, 0, 1, 1, 0, 1;
