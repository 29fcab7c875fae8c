// The `chip` option is the target of a module that names none (default sm_90a).
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s --check-prefix=DEFAULT
// RUN: tileas-opt %s -p 'convert-tileas-to-nvvm{chip=sm_100a}' | filecheck %s --check-prefix=CHIP

#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %a = nv_tileas.alloc_tensor : tensor<64x16xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
  nv_tileas.return
}

// DEFAULT: builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a">}
// CHIP:    builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">}
