// Every diagnostic of convert-tileas-to-nvvm's kernel patterns and driver, at the op it is about.
// RUN: not tileas-opt %s --split-input-file -p convert-tileas-to-nvvm -o /dev/null 2>&1 | filecheck %s

// An op that no pattern module lowers.
nv_tileas.kernel @k(%view: !nv_tileas.tiled_view<64x64xf16>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %x, %y, %z = nv_tileas.cancel_next_program_id
  nv_tileas.return
}
// CHECK: invalid.mlir:6:3: error: 'nv_tileas.cancel_next_program_id' is not supported by convert-tileas-to-nvvm

// -----

// A parameter type with no LLVM form.
nv_tileas.kernel @k(%t: tensor<64x64xf32>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  nv_tileas.return
}
// CHECK: invalid.mlir:14:1: error: parameter of type 'tensor<64x64xf32>' is not supported by convert-tileas-to-nvvm
