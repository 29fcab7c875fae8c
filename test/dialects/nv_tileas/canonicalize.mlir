// RUN: tileas-opt %s -p canonicalize | filecheck %s

// `convert_layout`'s canonicalization patterns (`HasCanonicalizationPatternsTrait`), which
// `canonicalize` applies: identities fold, chains become one conversion (or none), unused
// conversions go.

#b1 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#b2 = #nv_tileas.blocked<size_per_thread = [4], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#s = #nv_tileas.shared<swizzle = 0, order = [0]>

func.func @convert_layout(%x: tensor<64xf32, #b1>) -> (tensor<64xf32, #b1>, tensor<64xf32, #s>) {
  %same = nv_tileas.convert_layout %x : tensor<64xf32, #b1> -> tensor<64xf32, #b1>
  %a = nv_tileas.convert_layout %same : tensor<64xf32, #b1> -> tensor<64xf32, #b2>
  %back = nv_tileas.convert_layout %a : tensor<64xf32, #b2> -> tensor<64xf32, #b1>
  %c = nv_tileas.convert_layout %a : tensor<64xf32, #b2> -> tensor<64xf32, #s>
  %unused = nv_tileas.convert_layout %x : tensor<64xf32, #b1> -> tensor<64xf32, #s>
  func.return %back, %c : tensor<64xf32, #b1>, tensor<64xf32, #s>
}

// CHECK-LABEL: func.func @convert_layout
// CHECK-NEXT:    %c = nv_tileas.convert_layout %x : tensor<64xf32, #nv_tileas.blocked<size_per_thread = [1]{{.*}}>> -> tensor<64xf32, #nv_tileas.shared<swizzle = 0, order = [0]>>
// CHECK-NEXT:    func.return %x, %c
