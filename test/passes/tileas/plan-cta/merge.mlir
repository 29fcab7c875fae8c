// RUN: tileas-opt %s --split-input-file -p tileas-plan-cta | filecheck %s

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>
#s2 = #nv_tileas.shared<swizzle = 0, order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

// A producer / consumer pair of conversions that is a round trip: both are erased.
func.func @round_trip(%x: tensor<64xf32, #b2>) -> tensor<64xf32, #b2> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %c = nv_tileas.convert_layout %x : tensor<64xf32, #b2> -> tensor<64xf32, #b>
  %d = nv_tileas.convert_layout %c : tensor<64xf32, #b> -> tensor<64xf32, #b2>
  func.return %d : tensor<64xf32, #b2>
}

// CHECK-LABEL: func.func @round_trip
// CHECK-NEXT:    func.return %x

// -----

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>
#s2 = #nv_tileas.shared<swizzle = 0, order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

// A pair that still changes the layout becomes one conversion.
func.func @pair(%x: tensor<64xf32, #b2>) -> tensor<64xf32, #s2> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %c = nv_tileas.convert_layout %x : tensor<64xf32, #b2> -> tensor<64xf32, #b>
  %d = nv_tileas.convert_layout %c : tensor<64xf32, #b> -> tensor<64xf32, #s2>
  func.return %d : tensor<64xf32, #s2>
}

// CHECK-LABEL: func.func @pair
// CHECK-NEXT:    %d = nv_tileas.convert_layout %x : tensor<64xf32, #nv_tileas.blocked<{{.*}}cta = {{.*}}>> -> tensor<64xf32, #nv_tileas.shared<swizzle = 0, order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>>
// CHECK-NEXT:    func.return %d
