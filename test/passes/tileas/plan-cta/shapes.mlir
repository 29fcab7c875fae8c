// RUN: tileas-opt %s --split-input-file -p tileas-plan-cta | filecheck %s

#row = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b = #nv_tileas.blocked<size_per_thread = [1, 1], threads_per_warp = [1, 32], warps_per_cta = [4, 1], order = [1, 0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1, 1], threads_per_warp = [1, 32], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>>

// Backward through broadcast and expand_dim: expand_dim's source loses the unit CTA
// dimension (ctas_per_cluster [1, 2] -> [2]).
func.func @shapes(%x: tensor<64xf32, #row>) -> tensor<128x64xf32, #b2> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %n = arith.negf %x : tensor<64xf32, #row>
  %e = nv_tileas.expand_dim %n axis = 0 : tensor<64xf32, #row> -> tensor<1x64xf32, #b>
  %b = nv_tileas.broadcast %e : tensor<1x64xf32, #b> -> tensor<128x64xf32, #b>
  %c = nv_tileas.convert_layout %b : tensor<128x64xf32, #b> -> tensor<128x64xf32, #b2>
  func.return %c : tensor<128x64xf32, #b2>
}

// CHECK-LABEL: func.func @shapes
// CHECK-NEXT:    %0 = nv_tileas.convert_layout %x
// CHECK-NEXT:    %n = arith.negf %0 : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>>
// CHECK-NEXT:    %e = nv_tileas.expand_dim %n axis = 0 : {{.*}} -> tensor<1x64xf32, {{.*}}cta = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>>>
// CHECK-NEXT:    %b = nv_tileas.broadcast %e : {{.*}} -> tensor<128x64xf32, {{.*}}cta = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>>>
// CHECK-NEXT:    func.return %b

// -----

#row = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#row2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>
#b = #nv_tileas.blocked<size_per_thread = [1, 1], threads_per_warp = [1, 32], warps_per_cta = [4, 1], order = [1, 0]>

// Forward through expand_dim adds a unit CTA dimension (appended last in the order).
// No conversion sets a direction here, so the TMA load is the anchor.
func.func @anchor(%v: !nv_tileas.tiled_view<1024xf32>, %i: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %t = nv_tileas.tiled_load %v[%i] : !nv_tileas.tiled_view<1024xf32> -> tensor<64xf32, #row2>
  %e = nv_tileas.expand_dim %t axis = 0 : tensor<64xf32, #row2> -> tensor<1x64xf32, #b>
  %b = nv_tileas.broadcast %e : tensor<1x64xf32, #b> -> tensor<128x64xf32, #b>
  "test.op"(%b) : (tensor<128x64xf32, #b>) -> ()
  func.return
}

// CHECK-LABEL: func.func @anchor
// CHECK-NEXT:    %t = nv_tileas.tiled_load
// CHECK-NEXT:    %e = nv_tileas.expand_dim %t axis = 0 : {{.*}} -> tensor<1x64xf32, {{.*}}cta = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>>>
// CHECK-NEXT:    %b = nv_tileas.broadcast %e : {{.*}} -> tensor<128x64xf32, {{.*}}cta = #nv_tileas.cta_layout<ctas_per_cluster = [1, 2], split = [1, 2], order = [1, 0]>>>
// CHECK-NEXT:    %0 = nv_tileas.convert_layout %b : {{.*}} -> tensor<128x64xf32, #nv_tileas.blocked<size_per_thread = [1, 1], threads_per_warp = [1, 32], warps_per_cta = [4, 1], order = [1, 0]>>
// CHECK-NEXT:    "test.op"(%0)

// -----

#b = #nv_tileas.blocked<size_per_thread = [1, 1], threads_per_warp = [1, 32], warps_per_cta = [4, 1], order = [1, 0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1, 1], threads_per_warp = [1, 32], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>>

// A size-1 (broadcast) dimension is replicated, not split, across the CTAs (issue 14,
// F6: the broadcast's source and its producers got split = [2, 1] on their 1 row).
func.func @broadcast_dimension(%x: tensor<1x64xf32, #b>) -> tensor<128x64xf32, #b2> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %n = arith.negf %x : tensor<1x64xf32, #b>
  %b = nv_tileas.broadcast %n : tensor<1x64xf32, #b> -> tensor<128x64xf32, #b>
  %c = nv_tileas.convert_layout %b : tensor<128x64xf32, #b> -> tensor<128x64xf32, #b2>
  func.return %c : tensor<128x64xf32, #b2>
}

// CHECK-LABEL: func.func @broadcast_dimension
// CHECK-NEXT:    %0 = nv_tileas.convert_layout %x : {{.*}} -> tensor<1x64xf32, {{.*}}cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>>
// CHECK-NEXT:    %n = arith.negf %0 : tensor<1x64xf32, {{.*}}cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [1, 1], order = [1, 0]>>>
// CHECK-NEXT:    %b = nv_tileas.broadcast %n : {{.*}}split = [1, 1]{{.*}} -> tensor<128x64xf32, {{.*}}cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>>>
// CHECK-NEXT:    func.return %b
