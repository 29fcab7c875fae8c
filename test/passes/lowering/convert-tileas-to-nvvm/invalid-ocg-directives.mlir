// Every diagnostic of the ocgEnterDirectives / ocgLeaveDirectives attributes in
// convert-tileas-to-nvvm, at the op that carries them.
// RUN: not tileas-opt %s --split-input-file -p convert-tileas-to-nvvm -o /dev/null 2>&1 | filecheck %s

nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %x = nv_tileaa.get_program_id x {nv_tileas.ocgEnterDirectives = "next knob FenceCode"}
  nv_tileas.return
}
// CHECK: invalid-ocg-directives.mlir:6:3: error: 'nv_tileas.ocgEnterDirectives' must be an array of strings

// -----

nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  nv_tileas.async.fence {nv_tileas.ocgLeaveDirectives = ["next knob FenceCode", 7]}
  nv_tileas.return
}
// CHECK: invalid-ocg-directives.mlir:14:3: error: 'nv_tileas.ocgLeaveDirectives' must be an array of strings

// -----

nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  nv_tileas.async.fence {nv_tileas.ocgEnterDirectives = ["next knob \22FenceCode\22"]}
  nv_tileas.return
}
// CHECK: invalid-ocg-directives.mlir:22:3: error: OCG directive 'next knob "FenceCode"' holds a quote, a backslash or a newline

// -----

nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %x = nv_tileaa.get_program_id x {nv_tileas.ocgLeaveDirectives = [""]}
  nv_tileas.return
}
// CHECK: invalid-ocg-directives.mlir:30:3: error: OCG directive '' is empty

// -----

nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.ocgEnterDirectives = ["next knob FenceCode"]} {
  nv_tileas.return
}
// CHECK: invalid-ocg-directives.mlir:37:1: error: OCG directives belong on the ops of a kernel, not on it

// -----

nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  nv_tileas.return {nv_tileas.ocgLeaveDirectives = ["next knob FenceCode"]}
}
// CHECK: invalid-ocg-directives.mlir:45:3: error: OCG leave directives cannot follow the terminator 'nv_tileas.return'
