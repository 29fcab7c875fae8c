// RUN: not tileas-opt %s -p tileas-dynamic-persistent 2>&1 | filecheck %s
// RUN: not tileas-opt %s -p 'tileas-dynamic-persistent{num-sms=0}' 2>&1 | filecheck %s --check-prefix=SMS
// RUN: not tileas-opt %s -p 'tileas-dynamic-persistent{scheduler=guided}' 2>&1 | filecheck %s --check-prefix=SCHEDULER

nv_tileas.kernel @two_blocks() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  cf.br ^bb1
^bb1:
  nv_tileas.return
}

// CHECK: invalid.mlir:5:1: error: expected a kernel body with a single block

// SMS: error: tileas-dynamic-persistent: num-sms must be positive, got 0

// SCHEDULER: error: tileas-dynamic-persistent: scheduler must be static or dynamic, got 'guided'
