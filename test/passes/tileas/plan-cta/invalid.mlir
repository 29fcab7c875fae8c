// RUN: not tileas-opt %s -p tileas-plan-cta 2>&1 | filecheck %s

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b4 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [4], split = [4], order = [0]>>

func.func @cluster_mismatch(%x: tensor<64xf32, #b4>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %c = nv_tileas.convert_layout %x : tensor<64xf32, #b4> -> tensor<64xf32, #b>
  "test.op"(%c) : (tensor<64xf32, #b>) -> ()
  func.return
}

// CHECK: invalid.mlir:7:3: error: CTA layout spans 4 CTAs but the kernel's cluster has 2
// CHECK-NOT: Traceback
