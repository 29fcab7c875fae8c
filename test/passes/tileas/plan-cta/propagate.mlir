// RUN: tileas-opt %s --split-input-file -p tileas-plan-cta | filecheck %s
// RUN: tileas-opt %s --split-input-file -p 'tileas-plan-cta{keep-direction-tags=true}' | filecheck %s --check-prefix=TAGS

// #b is an unplanned register layout, #b2 the same layout spread over a 2-CTA cluster.
#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

// Forward: the load's CTA layout flows through the elementwise users; both conversions
// become identities and disappear.
nv_tileas.kernel @forward(%v: !nv_tileas.tiled_view<1024xf32>, %i: index) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %t = nv_tileas.tiled_load %v[%i] : !nv_tileas.tiled_view<1024xf32> -> tensor<64xf32, #b2>
  %c = nv_tileas.convert_layout %t : tensor<64xf32, #b2> -> tensor<64xf32, #b>
  %n = arith.negf %c : tensor<64xf32, #b>
  %m = arith.addf %n, %c : tensor<64xf32, #b>
  %back = nv_tileas.convert_layout %m : tensor<64xf32, #b> -> tensor<64xf32, #b2>
  nv_tileas.tiled_store %back, %v[%i] : tensor<64xf32, #b2> -> !nv_tileas.tiled_view<1024xf32>
  nv_tileas.return
}

// CHECK-LABEL: nv_tileas.kernel @forward
// CHECK-NEXT:    %t = nv_tileas.tiled_load %v[%i] : !nv_tileas.tiled_view<1024xf32> -> tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>>
// CHECK-NEXT:    %n = arith.negf %t : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>>
// CHECK-NEXT:    %m = arith.addf %n, %t : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>>
// CHECK-NEXT:    nv_tileas.tiled_store %m, %v[%i]
// CHECK-NEXT:    nv_tileas.return
// CHECK-NOT:   plancta.direction

// TAGS-LABEL: nv_tileas.kernel @forward
// TAGS:       arith.negf %t {plancta.direction = "forward"}
// TAGS:       arith.addf %n, %t {plancta.direction = "forward"}

// -----

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

// Backward: the conversion into the planned layout retypes its producers; the
// function argument cannot change type, so it gets a conversion instead.
func.func @backward(%x: tensor<64xf32, #b>) -> tensor<64xf32, #b2> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %e = math.exp %x : tensor<64xf32, #b>
  %n = arith.negf %e : tensor<64xf32, #b>
  %c = nv_tileas.convert_layout %n : tensor<64xf32, #b> -> tensor<64xf32, #b2>
  func.return %c : tensor<64xf32, #b2>
}

// CHECK-LABEL: func.func @backward
// CHECK-NEXT:    %0 = nv_tileas.convert_layout %x : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>> -> tensor<64xf32, {{.*}}cta = {{.*}}>
// CHECK-NEXT:    %e = math.exp %0 : tensor<64xf32, {{.*}}cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>>
// CHECK-NEXT:    %n = arith.negf %e : tensor<64xf32, {{.*}}cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>>
// CHECK-NEXT:    func.return %n : tensor<64xf32, {{.*}}cta = {{.*}}>

// TAGS-LABEL: func.func @backward
// TAGS:       math.exp %0 {plancta.direction = "backward"}
// TAGS:       arith.negf %e {plancta.direction = "backward"}

// -----

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

// A single-CTA kernel (and a function without a kernel spec) is left alone.
func.func @one_cta(%x: tensor<64xf32, #b2>) -> tensor<64xf32, #b> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %c = nv_tileas.convert_layout %x : tensor<64xf32, #b2> -> tensor<64xf32, #b>
  %n = arith.negf %c : tensor<64xf32, #b>
  func.return %n : tensor<64xf32, #b>
}
func.func @no_spec(%x: tensor<64xf32, #b2>) -> tensor<64xf32, #b> {
  %c = nv_tileas.convert_layout %x : tensor<64xf32, #b2> -> tensor<64xf32, #b>
  func.return %c : tensor<64xf32, #b>
}

// CHECK-LABEL: func.func @one_cta
// CHECK-NEXT:    %c = nv_tileas.convert_layout %x
// CHECK-NEXT:    %n = arith.negf %c : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>>
// CHECK-LABEL: func.func @no_spec
// CHECK-NEXT:    %c = nv_tileas.convert_layout %x

// -----

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

// Results leaving the function keep their declared type through a conversion back.
func.func @opaque_user(%x: tensor<64xf32, #b2>) -> tensor<64xf32, #b> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %c = nv_tileas.convert_layout %x : tensor<64xf32, #b2> -> tensor<64xf32, #b>
  %n = arith.negf %c : tensor<64xf32, #b>
  func.return %n : tensor<64xf32, #b>
}

// CHECK-LABEL: func.func @opaque_user
// CHECK-NEXT:    %n = arith.negf %x : tensor<64xf32, {{.*}}cta = {{.*}}>
// CHECK-NEXT:    %0 = nv_tileas.convert_layout %n : tensor<64xf32, {{.*}}cta = {{.*}}> -> tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>>
// CHECK-NEXT:    func.return %0

// -----

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>
#r2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [1], order = [0]>>

// Where two planned layouts meet at an elementwise op, the one that arrived later is
// converted into the group's layout.
func.func @conflict(%x: tensor<64xf32, #b2>, %y: tensor<64xf32, #r2>) -> tensor<64xf32, #b2> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %c = nv_tileas.convert_layout %x : tensor<64xf32, #b2> -> tensor<64xf32, #b>
  %d = nv_tileas.convert_layout %y : tensor<64xf32, #r2> -> tensor<64xf32, #b>
  %s = arith.addf %c, %d : tensor<64xf32, #b>
  %r = nv_tileas.convert_layout %s : tensor<64xf32, #b> -> tensor<64xf32, #b2>
  func.return %r : tensor<64xf32, #b2>
}

// CHECK-LABEL: func.func @conflict
// CHECK-NEXT:    %0 = nv_tileas.convert_layout %y : tensor<64xf32, {{.*}}split = [1]{{.*}}> -> tensor<64xf32, {{.*}}split = [2]{{.*}}>
// CHECK-NEXT:    %s = arith.addf %x, %0 : tensor<64xf32, {{.*}}split = [2]{{.*}}>
// CHECK-NEXT:    func.return %s
