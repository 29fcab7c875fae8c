// RUN: tileas-opt %s --split-input-file -p 'tileas-dynamic-persistent{num-sms=7}' | filecheck %s

// What a CTA does once stays outside the tile loop (issue 14, F5): the cluster barrier
// and the constant-phase mbarrier wait before the first tile (with the constant they
// read), the cluster barrier after the last. A cluster barrier between the tile's work
// stays in the loop. The launch grid is whole clusters: 7 SMs give 6 CTAs of 2.
func.func private @work(i32)

nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>} {
  %bar = nv_tileas.mbarrier.create arrive_count = 1
  %pid = nv_tileaa.get_program_id x
  %phase = arith.constant false
  nv_tileas.cluster_barrier.arrive relaxed
  nv_tileas.cluster_barrier.wait
  nv_tileas.mbarrier.wait %bar, %phase
  func.call @work(%pid) : (i32) -> ()
  nv_tileas.cluster_barrier.arrive
  nv_tileas.cluster_barrier.wait
  func.call @work(%pid) : (i32) -> ()
  %c0 = arith.constant 0 : i32
  nv_tileas.cluster_barrier.arrive
  nv_tileas.cluster_barrier.wait
  nv_tileas.return
}

// CHECK-LABEL: nv_tileas.kernel @k(%tile_grid_x: i32, %tile_grid_y: i32, %tile_grid_z: i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>, nv_tileas.persistent_grid = array<i32: 6, 1, 1>} {
// CHECK-NEXT:    %bar = nv_tileas.mbarrier.create arrive_count = 1
// CHECK-NEXT:    %phase = arith.constant false
// CHECK-NEXT:    nv_tileas.cluster_barrier.arrive relaxed
// CHECK-NEXT:    nv_tileas.cluster_barrier.wait
// CHECK-NEXT:    nv_tileas.mbarrier.wait %bar, %phase
// CHECK-NEXT:    nv_tileaa.get_program_id x
// CHECK-NEXT:    nv_tileaa.get_program_id y
// CHECK-NEXT:    nv_tileaa.get_program_id z
// CHECK-NEXT:    scf.while
// CHECK-NEXT:      nv_tileaa.is_valid_program_id
// CHECK-NEXT:      scf.condition
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%pid: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:      func.call @work(%pid)
// CHECK-NEXT:      nv_tileas.cluster_barrier.arrive
// CHECK-NEXT:      nv_tileas.cluster_barrier.wait
// CHECK-NEXT:      func.call @work(%pid)
// CHECK-NEXT:      %c0 = arith.constant 0 : i32
// CHECK-NEXT:      nv_tileas.cancel_next_program_id
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    nv_tileas.cluster_barrier.arrive
// CHECK-NEXT:    nv_tileas.cluster_barrier.wait
// CHECK-NEXT:    nv_tileas.return

// -----

// A wait whose phase depends on the tile, or that follows the tile's work, runs per tile.
func.func private @work(i32)

nv_tileas.kernel @per_tile() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %bar = nv_tileas.mbarrier.create arrive_count = 1
  %pid = nv_tileaa.get_program_id x
  %one = arith.constant 1 : i32
  %odd = arith.andi %pid, %one : i32
  %phase = arith.trunci %odd : i32 to i1
  nv_tileas.mbarrier.wait %bar, %phase
  func.call @work(%pid) : (i32) -> ()
  %false = arith.constant false
  nv_tileas.mbarrier.wait %bar, %false
  func.call @work(%pid) : (i32) -> ()
  nv_tileas.return
}

// CHECK-LABEL: nv_tileas.kernel @per_tile
// CHECK-NEXT:    %bar = nv_tileas.mbarrier.create arrive_count = 1
// CHECK-NEXT:    nv_tileaa.get_program_id x
// CHECK:         } do {
// CHECK:           nv_tileas.mbarrier.wait %bar, %phase
// CHECK-NEXT:      func.call @work
// CHECK-NEXT:      %false = arith.constant false
// CHECK-NEXT:      nv_tileas.mbarrier.wait %bar, %false
// CHECK-NEXT:      func.call @work
// CHECK-NEXT:      nv_tileas.cancel_next_program_id
