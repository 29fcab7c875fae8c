// RUN: tileas-opt %s -p tileas-dynamic-persistent | filecheck %s
// RUN: tileas-opt %s -p tileas-dynamic-persistent,tileas-dynamic-persistent 2>&1 | filecheck %s --check-prefix=TWICE
// RUN: tileas-opt %s -p 'tileas-dynamic-persistent{num-sms=8}' | filecheck %s --check-prefix=SMS
// RUN: tileas-opt %s -p 'tileas-dynamic-persistent{scheduler=dynamic}' | filecheck %s --check-prefix=DYNAMIC

#b = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#s = #nv_tileas.shared<swizzle = 0, order = [0]>

nv_tileas.kernel @k(%v: !nv_tileas.tiled_view<4096xf32>, %flag: i1) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<2, tensor<64xf32, #s>>
  %bar = nv_tileas.mbarrier.create arrive_count = 1
  %pid = nv_tileaa.get_program_id x
  %c64 = arith.constant 64 : i32
  %off = arith.muli %pid, %c64 : i32
  %idx = arith.index_cast %off : i32 to index
  %t = nv_tileas.tiled_load %v[%idx] : !nv_tileas.tiled_view<4096xf32> -> tensor<64xf32, #b>
  %n = arith.negf %t : tensor<64xf32, #b>
  %buf = nv_tileas.alloc_tensor : tensor<64xf32, #s>
  %w = nv_tileas.copy %n, %buf : tensor<64xf32, #b> -> tensor<64xf32, #s>
  %r = nv_tileas.convert_layout %w : tensor<64xf32, #s> -> tensor<64xf32, #b>
  %e = nv_tileaa.extract %r[%idx] : tensor<64xf32, #b> -> f32
  scf.if %flag {
    %y = nv_tileaa.get_program_id y
    "test.op"(%y, %e) : (i32, f32) -> ()
  }
  nv_tileas.tiled_store %r, %v[%idx] : tensor<64xf32, #b> -> !nv_tileas.tiled_view<4096xf32>
  nv_tileas.return
}

// The kernel takes the tile grid as three more parameters and records its launch grid.
// CHECK-LABEL: nv_tileas.kernel @k(%v: !nv_tileas.tiled_view<4096xf32>, %flag: i1, %tile_grid_x: i32, %tile_grid_y: i32, %tile_grid_z: i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.persistent_grid = array<i32: 132, 1, 1>} {
// CHECK-NEXT:    %p = nv_tileas.async.pipeline.create_pipeline
// CHECK-NEXT:    %bar = nv_tileas.mbarrier.create arrive_count = 1
// CHECK-NEXT:    %[[X0:.*]] = nv_tileaa.get_program_id x
// CHECK-NEXT:    %[[Y0:.*]] = nv_tileaa.get_program_id y
// CHECK-NEXT:    %[[Z0:.*]] = nv_tileaa.get_program_id z
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}} = scf.while (%[[X:.*]] = %[[X0]], %[[Y:.*]] = %[[Y0]], %[[Z:.*]] = %[[Z0]]) : (i32, i32, i32) -> (i32, i32, i32) {
// CHECK-NEXT:      %[[VALID:.*]] = nv_tileaa.is_valid_program_id %[[X]], %[[Y]], %[[Z]]
// CHECK-NEXT:      scf.condition(%[[VALID]]) %[[X]], %[[Y]], %[[Z]] : i32, i32, i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[PX:.*]]: i32, %[[PY:.*]]: i32, %[[PZ:.*]]: i32):
// CHECK-NEXT:      %c64 = arith.constant 64 : i32
// CHECK-NEXT:      %off = arith.muli %[[PX]], %c64 : i32
// CHECK-NEXT:      %idx = arith.index_cast %off
// CHECK-NEXT:      %t = nv_tileas.tiled_load %v[%idx]
// CHECK-NEXT:      %n = arith.negf %t
// CHECK-NEXT:      %buf = nv_tileas.alloc_tensor
// CHECK-NEXT:      %w = nv_tileas.copy %n, %buf
// CHECK-NEXT:      %r = nv_tileas.convert_layout %w
// CHECK-NEXT:      %e = nv_tileaa.extract %r[%idx]
// CHECK-NEXT:      scf.if %flag {
// CHECK-NEXT:        "test.op"(%[[PY]], %e) : (i32, f32) -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:      nv_tileas.tiled_store %r, %v[%idx]
// CHECK-NEXT:      %[[NX:.*]], %[[NY:.*]], %[[NZ:.*]] = nv_tileas.cancel_next_program_id
// CHECK-NEXT:      scf.yield %[[NX]], %[[NY]], %[[NZ]] : i32, i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    nv_tileas.return
// CHECK-NEXT:  }

// The second run finds the loop, warns and changes nothing.
// TWICE:     persistent.mlir:9:1: warning: Kernel is already dynamic persistent
// TWICE:     scf.while
// TWICE-NOT: scf.while

// SMS: nv_tileas.persistent_grid = array<i32: 8, 1, 1>

// The dynamic scheduler: the tile counter comes before the tile grid, and the loop is the
// same (convert-tileas-to-nvvm lowers its cancel_next_program_id to the counter).
// DYNAMIC:      nv_tileas.kernel @k(%v: !nv_tileas.tiled_view<4096xf32>, %flag: i1, %tile_counter: !llvm.ptr<1>, %tile_grid_x: i32, %tile_grid_y: i32, %tile_grid_z: i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.persistent_grid = array<i32: 132, 1, 1>, nv_tileas.tile_scheduler = "dynamic"}
// DYNAMIC:        scf.while
// DYNAMIC:        nv_tileas.cancel_next_program_id
