// RUN: tileas-opt %s --allow-unregistered-dialect --split-input-file -p optimize-execution-unit-mapping | filecheck %s
// RUN: tileas-opt %s --allow-unregistered-dialect --split-input-file -p optimize-execution-unit-mapping,optimize-execution-unit-mapping | filecheck %s

// A 1-warp producer and two 4-warp consumers: the first consumer is rounded up to warp 4,
// leaving a hole record for warps 1..3. The loop inside the agent and the function get
// their warp counts folded up.
func.func @producer_consumers(%lb: index, %ub: index, %s: index) {
  nv_tileas.async.pipeline.warp_specialize {
    "test.producer"() {nv_tileas.num_warps = 1 : i32} : () -> ()
  } {
    scf.for %i = %lb to %ub step %s {
      "test.mma"() {nv_tileas.num_warps = 4 : i32} : () -> ()
    }
  } {
    "test.epilogue"() {nv_tileas.num_warps = 4 : i32} : () -> ()
  }
  func.return
}

// CHECK-LABEL: func.func @producer_consumers(%lb: index, %ub: index, %s: index) attributes {nv_tileas.num_warps = 12 : i32} {
// CHECK-NEXT:    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4, 4] warp_id = [0, 1, 4, 8] agent_strides = [1, 3, 1, 1] attributes {nv_tileas.num_warps = 12 : i32} {
// CHECK-NEXT:      "test.producer"() {nv_tileas.num_warps = 1 : i32}
// CHECK-NEXT:    } {
// CHECK-NEXT:    } {
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        "test.mma"() {nv_tileas.num_warps = 4 : i32}
// CHECK-NEXT:      } {nv_tileas.num_warps = 4 : i32}
// CHECK-NEXT:    } {
// CHECK-NEXT:      "test.epilogue"() {nv_tileas.num_warps = 4 : i32}
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

// The total is padded to a whole warp group with a final hole record.
func.func @pad() {
  nv_tileas.async.pipeline.warp_specialize {
    "test.a"() {nv_tileas.num_warps = 4 : i32} : () -> ()
  } {
    "test.b"() {nv_tileas.num_warps = 2 : i32} : () -> ()
  }
  func.return
}

// CHECK-LABEL: func.func @pad
// CHECK-NEXT:    nv_tileas.async.pipeline.agent_switch num_warps = [4, 2, 1] warp_id = [0, 4, 6] agent_strides = [1, 1, 2] attributes {nv_tileas.num_warps = 8 : i32} {

// -----

// A 2-CTA UMMA agent (8 warps) starts at a multiple of 8; agent strides carry over.
func.func @two_cta_umma() {
  nv_tileas.async.pipeline.warp_specialize agent_strides = [1, 2] {
    "test.tma"() {nv_tileas.num_warps = 1 : i32} : () -> ()
  } {
    "test.umma"() {nv_tileas.num_warps = 8 : i32} : () -> ()
  }
  func.return
}

// CHECK-LABEL: func.func @two_cta_umma
// CHECK-NEXT:    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 8] warp_id = [0, 1, 8] agent_strides = [1, 7, 2] attributes {nv_tileas.num_warps = 16 : i32} {

// -----

// An agent_switch is re-mapped the same way; an agent without annotated ops keeps the
// warp count it declares.
func.func @remap() {
  nv_tileas.async.pipeline.agent_switch num_warps = [2, 4] warp_id = [0, 4] agent_strides = [1, 1] {
    "test.a"() : () -> ()
  } {
    "test.b"() {nv_tileas.num_warps = 4 : i32} : () -> ()
  }
  func.return
}

// CHECK-LABEL: func.func @remap
// CHECK-NEXT:    nv_tileas.async.pipeline.agent_switch num_warps = [2, 1, 4] warp_id = [0, 2, 4] agent_strides = [1, 2, 1] attributes {nv_tileas.num_warps = 8 : i32} {

// -----

// Warp-specialised sections one after the other share the CTA's warps: the function
// needs the larger count (issue 14, F6: rejected as inconsistent).
func.func @sequential() {
  nv_tileas.async.pipeline.warp_specialize {
    "test.a"() {nv_tileas.num_warps = 1 : i32} : () -> ()
  } {
    "test.b"() {nv_tileas.num_warps = 4 : i32} : () -> ()
  }
  nv_tileas.async.pipeline.warp_specialize {
    "test.c"() {nv_tileas.num_warps = 4 : i32} : () -> ()
  } {
    "test.d"() {nv_tileas.num_warps = 8 : i32} : () -> ()
  }
  func.return
}

// CHECK-LABEL: func.func @sequential() attributes {nv_tileas.num_warps = 16 : i32} {
// CHECK-NEXT:    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4] warp_id = [0, 1, 4] agent_strides = [1, 3, 1] attributes {nv_tileas.num_warps = 8 : i32} {
// CHECK:         nv_tileas.async.pipeline.agent_switch num_warps = [4, 1, 8] warp_id = [0, 4, 8] agent_strides = [1, 4, 1] attributes {nv_tileas.num_warps = 16 : i32} {
