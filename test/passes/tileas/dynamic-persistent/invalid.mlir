// RUN: not tileas-opt %s -p tileas-dynamic-persistent 2>&1 | filecheck %s

nv_tileas.kernel @two_blocks() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  cf.br ^bb1
^bb1:
  nv_tileas.return
}

// CHECK: invalid.mlir:3:1: error: expected a kernel body with a single block
