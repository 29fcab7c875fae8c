// RUN: TILEAS_ROUNDTRIP
// RUN: TILEAS_GENERIC_ROUNDTRIP

builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileaa.func @device(%t: tensor<16x16xf32>, %i: index) -> f32 attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
    %x = nv_tileaa.get_program_id x
    %y = nv_tileaa.get_program_id y
    %z = nv_tileaa.get_program_id z
    %valid = nv_tileaa.is_valid_program_id %x, %y, %z
    %e = nv_tileaa.extract %t[%i, %i] : tensor<16x16xf32> -> f32
    nv_tileaa.return %e : f32
  }
  nv_tileaa.func @nothing() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 4, aux = 7>} {
    nv_tileaa.return
  }
}

// CHECK:      builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
// CHECK-NEXT:   nv_tileaa.func @device(%t: tensor<16x16xf32>, %i: index) -> f32 attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
// CHECK-NEXT:     %x = nv_tileaa.get_program_id x
// CHECK-NEXT:     %y = nv_tileaa.get_program_id y
// CHECK-NEXT:     %z = nv_tileaa.get_program_id z
// CHECK-NEXT:     %valid = nv_tileaa.is_valid_program_id %x, %y, %z
// CHECK-NEXT:     %e = nv_tileaa.extract %t[%i, %i] : tensor<16x16xf32> -> f32
// CHECK-NEXT:     nv_tileaa.return %e : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   nv_tileaa.func @nothing() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 4, aux = 7>} {
// CHECK-NEXT:     nv_tileaa.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// CHECK-GENERIC:      "builtin.module"() ({
// CHECK-GENERIC-NEXT:   "nv_tileaa.func"() <{sym_name = "device", function_type = (tensor<16x16xf32>, index) -> f32}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%t: tensor<16x16xf32>, %i: index):
// CHECK-GENERIC-NEXT:     %x = "nv_tileaa.get_program_id"() <{dim = #nv_tileaa<dim x>}> : () -> i32
// CHECK-GENERIC:          %valid = "nv_tileaa.is_valid_program_id"(%x, %y, %z) : (i32, i32, i32) -> i1
// CHECK-GENERIC-NEXT:     %e = "nv_tileaa.extract"(%t, %i, %i) : (tensor<16x16xf32>, index, index) -> f32
// CHECK-GENERIC-NEXT:     "nv_tileaa.return"(%e) : (f32) -> ()
// CHECK-GENERIC-NEXT:   }) {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} : () -> ()
// CHECK-GENERIC:      }) {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} : () -> ()
