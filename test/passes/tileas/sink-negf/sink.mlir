// RUN: tileas-opt %s -p sink-negf-through-shapes | filecheck %s
// RUN: tileas-opt %s -p 'sink-negf-through-shapes{report-match-failures=true}' 2>&1 | filecheck %s --check-prefix=REMARK

func.func @broadcast(%x: tensor<1x64xf32>) -> tensor<128x64xf32> {
  %b = nv_tileas.broadcast %x : tensor<1x64xf32> -> tensor<128x64xf32>
  %n = arith.negf %b fastmath<nnan> : tensor<128x64xf32>
  func.return %n : tensor<128x64xf32>
}

// CHECK-LABEL: func.func @broadcast
// CHECK-NEXT:    %[[N:.*]] = arith.negf %x fastmath<nnan> : tensor<1x64xf32>
// CHECK-NEXT:    %[[B:.*]] = nv_tileas.broadcast %[[N]] : tensor<1x64xf32> -> tensor<128x64xf32>
// CHECK-NEXT:    func.return %[[B]]

func.func @chain(%x: tensor<64xf32>) -> tensor<128x64xf32> {
  %e = nv_tileas.expand_dim %x axis = 0 : tensor<64xf32> -> tensor<1x64xf32>
  %b = nv_tileas.broadcast %e : tensor<1x64xf32> -> tensor<128x64xf32>
  %n = arith.negf %b : tensor<128x64xf32>
  func.return %n : tensor<128x64xf32>
}

// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %[[N:.*]] = arith.negf %x : tensor<64xf32>
// CHECK-NEXT:    %[[E:.*]] = nv_tileas.expand_dim %[[N]] axis = 0 : tensor<64xf32> -> tensor<1x64xf32>
// CHECK-NEXT:    %[[B:.*]] = nv_tileas.broadcast %[[E]] : tensor<1x64xf32> -> tensor<128x64xf32>
// CHECK-NEXT:    func.return %[[B]]

func.func @shared_broadcast(%x: tensor<1x64xf32>) -> (tensor<128x64xf32>, tensor<128x64xf32>) {
  %b = nv_tileas.broadcast %x : tensor<1x64xf32> -> tensor<128x64xf32>
  %n = arith.negf %b : tensor<128x64xf32>
  func.return %n, %b : tensor<128x64xf32>, tensor<128x64xf32>
}

// CHECK-LABEL: func.func @shared_broadcast
// CHECK-NEXT:    %b = nv_tileas.broadcast %x
// CHECK-NEXT:    %[[N:.*]] = arith.negf %x : tensor<1x64xf32>
// CHECK-NEXT:    %[[B:.*]] = nv_tileas.broadcast %[[N]]
// CHECK-NEXT:    func.return %[[B]], %b

func.func @no_shape_op(%x: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %n = arith.negf %x : tensor<128x64xf32>
  func.return %n : tensor<128x64xf32>
}

// CHECK-LABEL: func.func @no_shape_op
// CHECK-NEXT:    %n = arith.negf %x : tensor<128x64xf32>

// REMARK:     sink.mlir:41:3: remark: no broadcast/expand_dim op
// REMARK-NOT: remark
// REMARK:     func.func @broadcast
