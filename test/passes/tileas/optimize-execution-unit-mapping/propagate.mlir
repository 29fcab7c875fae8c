// RUN: tileas-opt %s --allow-unregistered-dialect -p propagate-execution-unit | filecheck %s

// Only the folding: scf ops and functions take their children's warp count; the agent op
// itself is left as it is.
nv_tileaa.func @f(%p: i1) {
  scf.if %p {
    "test.a"() {nv_tileas.num_warps = 4 : i32} : () -> ()
    scf.yield
  }
  "test.b"() {nv_tileas.num_warps = 4 : i32} : () -> ()
  nv_tileas.async.pipeline.warp_specialize {
    "test.c"() {nv_tileas.num_warps = 1 : i32} : () -> ()
  }
  nv_tileaa.return
}

// CHECK-LABEL: nv_tileaa.func @f(%p: i1) attributes {nv_tileas.num_warps = 4 : i32} {
// CHECK-NEXT:    scf.if %p {
// CHECK-NEXT:      "test.a"() {nv_tileas.num_warps = 4 : i32}
// CHECK-NEXT:    }{nv_tileas.num_warps = 4 : i32}
// CHECK-NEXT:    "test.b"() {nv_tileas.num_warps = 4 : i32}
// CHECK-NEXT:    nv_tileas.async.pipeline.warp_specialize {
// CHECK-NEXT:      "test.c"() {nv_tileas.num_warps = 1 : i32}
// CHECK-NEXT:    }
// CHECK-NEXT:    nv_tileaa.return
