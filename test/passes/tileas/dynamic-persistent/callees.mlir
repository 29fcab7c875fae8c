// RUN: tileas-opt %s -p tileas-dynamic-persistent | filecheck %s
// RUN: tileas-opt %s -p 'tileas-dynamic-persistent{marked-only=true}' | filecheck %s --check-prefix=MARKED

// A function the tile loop calls that reads a program id, itself or through its own
// calls, is called as a clone that takes the tile id (issue 14, F5: callees kept the
// launch id). Functions that do not read one, and the originals, stay as they are.
func.func @row(%s: i32) -> i32 {
  %x = nv_tileaa.get_program_id x
  %r = arith.addi %x, %s : i32
  func.return %r : i32
}

func.func @outer(%s: i32) -> i32 {
  %y = nv_tileaa.get_program_id y
  %r = func.call @row(%y) : (i32) -> i32
  func.return %r : i32
}

func.func @plain(%s: i32) -> i32 {
  func.return %s : i32
}

nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.dynamic_persistent} {
  %c = arith.constant 3 : i32
  %a = func.call @outer(%c) : (i32) -> i32
  %b = func.call @plain(%a) : (i32) -> i32
  "test.op"(%b) : (i32) -> ()
  nv_tileas.return
}

nv_tileas.kernel @unmarked() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %c = arith.constant 3 : i32
  %a = func.call @outer(%c) : (i32) -> i32
  nv_tileas.return
}

// CHECK:       func.func @row(%s: i32) -> i32 {
// CHECK-NEXT:    %x = nv_tileaa.get_program_id x
// CHECK:       func.func @row_tile_id(%s: i32, %[[X:.*]]: i32, %{{.*}}: i32, %{{.*}}: i32) -> i32 {
// CHECK-NEXT:    %r = arith.addi %[[X]], %s : i32
// CHECK:       func.func @outer(%s: i32) -> i32 {
// CHECK-NEXT:    %y = nv_tileaa.get_program_id y
// CHECK-NEXT:    %r = func.call @row(%y)
// CHECK:       func.func @outer_tile_id(%s: i32, %[[OX:.*]]: i32, %[[OY:.*]]: i32, %[[OZ:.*]]: i32) -> i32 {
// CHECK-NEXT:    %r = func.call @row_tile_id(%[[OY]], %[[OX]], %[[OY]], %[[OZ]]) : (i32, i32, i32, i32) -> i32
// CHECK:       func.func @plain(%s: i32) -> i32 {
// CHECK-LABEL: nv_tileas.kernel @k(
// CHECK:         ^bb0(%[[PX:.*]]: i32, %[[PY:.*]]: i32, %[[PZ:.*]]: i32):
// CHECK-NEXT:      %c = arith.constant 3 : i32
// CHECK-NEXT:      %a = func.call @outer_tile_id(%c, %[[PX]], %[[PY]], %[[PZ]]) : (i32, i32, i32, i32) -> i32
// CHECK-NEXT:      %b = func.call @plain(%a) : (i32) -> i32
// CHECK-LABEL: nv_tileas.kernel @unmarked(
// CHECK:           func.call @outer_tile_id(

// Only the marked kernel becomes persistent (tileas-to-ptx's setting); the other one
// keeps calling the original.
// MARKED-LABEL: nv_tileas.kernel @k(%tile_grid_x: i32
// MARKED:         scf.while
// MARKED-LABEL: nv_tileas.kernel @unmarked() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
// MARKED-NEXT:    %c = arith.constant 3 : i32
// MARKED-NEXT:    %a = func.call @outer(%c) : (i32) -> i32
// MARKED-NEXT:    nv_tileas.return
