// RUN: not tileas-opt %s --allow-unregistered-dialect --split-input-file -p optimize-execution-unit-mapping 2>&1 | filecheck %s

// The agents' ops disagree inside one loop.
func.func @inconsistent(%lb: index, %ub: index, %s: index) {
  nv_tileas.async.pipeline.warp_specialize {
    scf.for %i = %lb to %ub step %s {
      "test.a"() {nv_tileas.num_warps = 4 : i32} : () -> ()
      "test.b"() {nv_tileas.num_warps = 1 : i32} : () -> ()
    }
  }
  func.return
}

// CHECK: invalid.mlir:6:5: error: inconsistent numWarps in the agent switch, maybe it is called in different agents with different numWarps

// -----

// One agent's ops disagree.
func.func @agent() {
  nv_tileas.async.pipeline.warp_specialize {
    "test.a"() {nv_tileas.num_warps = 4 : i32} : () -> ()
    "test.b"() {nv_tileas.num_warps = 8 : i32} : () -> ()
  }
  func.return
}

// CHECK: invalid.mlir:20:3: error: inconsistent numWarps in the agent switch, maybe it is called in different agents with different numWarps

// -----

func.func @unknown() {
  nv_tileas.async.pipeline.warp_specialize {
    "test.a"() {nv_tileas.num_warps = 4 : i32} : () -> ()
  } {
    "test.b"() : () -> ()
  }
  func.return
}

// CHECK: invalid.mlir:32:3: error: agent #1 has no nv_tileas.num_warps

// -----

func.func @zero() {
  nv_tileas.async.pipeline.warp_specialize {
    "test.a"() {nv_tileas.num_warps = 0 : i32} : () -> ()
  }
  func.return
}

// CHECK: invalid.mlir:46:5: error: nv_tileas.num_warps must be a positive integer, got 0 : i32

// -----

// A CTA has at most 32 warps (issue 14, F6: 48 warps were accepted).
func.func @too_many_warps() {
  nv_tileas.async.pipeline.warp_specialize {
    "test.a"() {nv_tileas.num_warps = 16 : i32} : () -> ()
  } {
    "test.b"() {nv_tileas.num_warps = 16 : i32} : () -> ()
  } {
    "test.c"() {nv_tileas.num_warps = 16 : i32} : () -> ()
  }
  func.return
}

// CHECK: invalid.mlir:57:3: error: the agents need 48 warps, but a CTA has at most 32 (1024 threads)

// -----

// A section needs more warps than the ops beside it run on.
func.func @section_too_large() {
  nv_tileas.async.pipeline.warp_specialize {
    "test.a"() {nv_tileas.num_warps = 8 : i32} : () -> ()
  }
  "test.b"() {nv_tileas.num_warps = 4 : i32} : () -> ()
  func.return
}

// CHECK: invalid.mlir:72:1: error: inconsistent numWarps in the agent switch, maybe it is called in different agents with different numWarps
