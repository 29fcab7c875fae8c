// RUN: tileas-opt %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

"test.op"() {spec = #nv_tileaa.kernel_spec<num_ctas = 3>} : () -> ()
// CHECK: num_ctas must be a power of two between 1 and 16, got 3

// -----

"test.op"() {spec = #nv_tileaa.kernel_spec<num_ctas = 32>} : () -> ()
// CHECK: num_ctas must be a power of two between 1 and 16, got 32

// -----

"test.op"() {spec = #nv_tileaa.kernel_spec<num_ctas = 2, aux = -1>} : () -> ()
// CHECK: aux must be an unsigned 32-bit value, got -1

// -----

builtin.module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 77>} {}
// CHECK: unknown SM number 77; expected one of 80, 86, 87, 89, 90, 100, 101, 102, 103, 110, 120, 121

// -----

%p = nv_tileaa.get_program_id w
// CHECK: Expected `x`, `y`, or `z`.

// -----

"nv_tileaa.func"() <{sym_name = "f", function_type = (i32) -> ()}> ({
^bb0(%a: i64):
  "nv_tileaa.return"() : () -> ()
}) : () -> ()
// CHECK: entry block arguments do not match the function input types

// -----

nv_tileaa.func @declaration(i32)
// CHECK: expected a body with an entry block

// -----

nv_tileaa.func @f(%a: i32) -> i64 {
  nv_tileaa.return %a : i32
}
// CHECK: returned types do not match the function result types

// -----

func.func @f() {
  nv_tileaa.return
}
// CHECK: 'nv_tileaa.return' expects parent op 'nv_tileaa.func'

// -----

func.func @f(%t: tensor<16x16xf32>, %i: index) {
  %e = nv_tileaa.extract %t[%i] : tensor<16x16xf32> -> f32
  func.return
}
// CHECK: expected 2 indices, got 1

// -----

func.func @f(%t: tensor<16x16xf32>, %i: index) {
  %e = nv_tileaa.extract %t[%i, %i] : tensor<16x16xf32> -> f16
  func.return
}
// CHECK: result type must be the element type of the tensor

// -----

%p = "nv_tileaa.get_program_id"() <{dim = #nv_tileaa<dim x>}> : () -> i64
// CHECK: Expected attribute i32 but got i64

// -----

%x = "test.op"() : () -> i64
%v = "nv_tileaa.is_valid_program_id"(%x, %x, %x) : (i64, i64, i64) -> i1
// CHECK: Expected attribute i32 but got i64
