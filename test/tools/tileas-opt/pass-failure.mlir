// RUN: not tileas-opt %s -p convert-linalg-to-loops 2>&1 | filecheck %s
// A pass that cannot handle its input gives one error and exit 1.

func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// CHECK: error: lowering for linalg.generic with tensor results not yet supported
// CHECK-NOT: Traceback
