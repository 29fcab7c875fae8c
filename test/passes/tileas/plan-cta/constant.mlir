// A splat constant that takes a CTA layout gets its value retyped with its result.
// RUN: tileas-opt %s -p tileas-plan-cta | filecheck %s

#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
#acc2 = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>

func.func @zero() -> tensor<64x64xf32, #acc2> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #acc>
  %c = nv_tileas.convert_layout %zero : tensor<64x64xf32, #acc> -> tensor<64x64xf32, #acc2>
  func.return %c : tensor<64x64xf32, #acc2>
}

// CHECK-LABEL: func.func @zero
// CHECK-NEXT:    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>>
// CHECK-NEXT:    func.return %zero
