// RUN: tileas-opt %s --split-input-file -p tileas-plan-cta | filecheck %s

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

// scf.for: the init, the iter_arg, the yield and the result take the layout together.
func.func @for_loop(%x: tensor<64xf32, #b2>, %lb: index, %ub: index, %s: index) -> tensor<64xf32, #b2> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %c = nv_tileas.convert_layout %x : tensor<64xf32, #b2> -> tensor<64xf32, #b>
  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %c) -> (tensor<64xf32, #b>) {
    %n = arith.addf %acc, %c : tensor<64xf32, #b>
    scf.yield %n : tensor<64xf32, #b>
  }
  %back = nv_tileas.convert_layout %r : tensor<64xf32, #b> -> tensor<64xf32, #b2>
  func.return %back : tensor<64xf32, #b2>
}

// CHECK-LABEL: func.func @for_loop
// CHECK-NEXT:    %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %x) -> (tensor<64xf32, {{.*}}cta = {{.*}}>) {
// CHECK-NEXT:      %n = arith.addf %acc, %x : tensor<64xf32, {{.*}}cta = {{.*}}>
// CHECK-NEXT:      scf.yield %n : tensor<64xf32, {{.*}}cta = {{.*}}>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r : tensor<64xf32, {{.*}}cta = {{.*}}>

// -----

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

// scf.if: both branches' yields follow the result, backward from the conversion.
func.func @if_else(%p: i1, %x: tensor<64xf32, #b>, %y: tensor<64xf32, #b>) -> tensor<64xf32, #b2> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %r = scf.if %p -> (tensor<64xf32, #b>) {
    %n = arith.negf %x : tensor<64xf32, #b>
    scf.yield %n : tensor<64xf32, #b>
  } else {
    scf.yield %y : tensor<64xf32, #b>
  }
  %c = nv_tileas.convert_layout %r : tensor<64xf32, #b> -> tensor<64xf32, #b2>
  func.return %c : tensor<64xf32, #b2>
}

// CHECK-LABEL: func.func @if_else
// CHECK-NEXT:    %r = scf.if %p -> (tensor<64xf32, {{.*}}cta = {{.*}}>) {
// CHECK-NEXT:      %0 = nv_tileas.convert_layout %x : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>> -> tensor<64xf32, {{.*}}cta = {{.*}}>
// CHECK-NEXT:      %n = arith.negf %0 : tensor<64xf32, {{.*}}cta = {{.*}}>
// CHECK-NEXT:      scf.yield %n
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %1 = nv_tileas.convert_layout %y : {{.*}} -> tensor<64xf32, {{.*}}cta = {{.*}}>
// CHECK-NEXT:      scf.yield %1
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r

// -----

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>

// scf.while: the before / after block arguments, scf.condition and the yield.
func.func @while_loop(%x: tensor<64xf32, #b2>) -> tensor<64xf32, #b2> attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %c = nv_tileas.convert_layout %x : tensor<64xf32, #b2> -> tensor<64xf32, #b>
  %r = scf.while (%a = %c) : (tensor<64xf32, #b>) -> tensor<64xf32, #b> {
    %p = "test.op"() : () -> i1
    scf.condition(%p) %a : tensor<64xf32, #b>
  } do {
  ^bb0(%a2: tensor<64xf32, #b>):
    %n = arith.negf %a2 : tensor<64xf32, #b>
    scf.yield %n : tensor<64xf32, #b>
  }
  %back = nv_tileas.convert_layout %r : tensor<64xf32, #b> -> tensor<64xf32, #b2>
  func.return %back : tensor<64xf32, #b2>
}

// CHECK-LABEL: func.func @while_loop
// CHECK-NEXT:    %r = scf.while (%a = %x) : (tensor<64xf32, {{.*}}cta = {{.*}}>) -> tensor<64xf32, {{.*}}cta = {{.*}}> {
// CHECK:           scf.condition(%p) %a : tensor<64xf32, {{.*}}cta = {{.*}}>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%a2: tensor<64xf32, {{.*}}cta = {{.*}}>):
// CHECK-NEXT:      %n = arith.negf %a2 : tensor<64xf32, {{.*}}cta = {{.*}}>
// CHECK-NEXT:      scf.yield %n
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r
