// RUN: not tileas-opt %s --split-input-file 2>&1 | filecheck %s
// Every verifier message of the cp.async.bulk.tensor ops.
// Each CHECK is the message upstream mlir-opt 22.1.8 gives for the chunk.

llvm.func @f(%dst : !llvm.ptr<7>, %d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %mbar : !llvm.ptr<3>, %c : i32, %o : i16, %mask : i16, %hint : i64, %p : i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %desc, %mbar, box[%c, %c, %c, %c, %c, %c] : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// CHECK: error: expects coordinates between 1 to 5 dimension

// -----

llvm.func @f(%dst : !llvm.ptr<7>, %d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %mbar : !llvm.ptr<3>, %c : i32, %o : i16, %mask : i16, %hint : i64, %p : i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %desc, %mbar, box[%c, %c] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// CHECK: error: to use im2col mode, the tensor has to be at least 3-dimensional

// -----

llvm.func @f(%dst : !llvm.ptr<7>, %d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %mbar : !llvm.ptr<3>, %c : i32, %o : i16, %mask : i16, %hint : i64, %p : i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %desc, %mbar, box[%c, %c, %c] im2col[%o, %o] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// CHECK: error:  im2col offsets expected 1 (provided 2)

// -----

llvm.func @f(%dst : !llvm.ptr<7>, %d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %mbar : !llvm.ptr<3>, %c : i32, %o : i16, %mask : i16, %hint : i64, %p : i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d3, %desc, %mbar, box[%c] : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// CHECK: error: Shared::cluster destination requires address-space 7.

// -----

llvm.func @f(%dst : !llvm.ptr<7>, %d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %mbar : !llvm.ptr<3>, %c : i32, %o : i16, %mask : i16, %hint : i64, %p : i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d3, %desc, %mbar, box[%c] multicast_mask = %mask {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// CHECK: error: Multicast is not supported with shared::cta mode.

// -----

llvm.func @f(%dst : !llvm.ptr<7>, %d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %mbar : !llvm.ptr<3>, %c : i32, %o : i16, %mask : i16, %hint : i64, %p : i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %desc, %mbar, box[%c, %c, %c, %c, %c] predicate = %p {mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// CHECK: error: Predicate is supported only for Tile and Im2col modes.

// -----

llvm.func @f(%dst : !llvm.ptr<7>, %d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %mbar : !llvm.ptr<3>, %c : i32, %o : i16, %mask : i16, %hint : i64, %p : i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %desc, %mbar, box[%c, %c, %c] {mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// CHECK: error: Gather4 mode expects 5 coordinates

// -----

llvm.func @f(%d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %c : i32, %p : i1, %hint : i64) {
  nvvm.cp.async.bulk.tensor.global.shared.cta %desc, %d3, box[%c, %c, %c], predicate = %p {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// CHECK: error: Inline-ptx lowering supported only for Tile mode.

// -----

llvm.func @f(%d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %c : i32, %p : i1, %hint : i64) {
  nvvm.cp.async.bulk.tensor.global.shared.cta %desc, %d3, box[%c, %c, %c] l2_cache_hint = %hint, predicate = %p : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// CHECK: error: Inline-ptx lowering unsupported with L2 cache-hint.

// -----

llvm.func @f(%d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %c : i32, %p : i1, %hint : i64) {
  nvvm.cp.async.bulk.tensor.global.shared.cta %desc, %d3, box[%c, %c] {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// CHECK: error: to use im2col mode, the tensor has to be at least 3-dimensional

// -----

llvm.func @f(%d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %c : i32, %p : i1, %hint : i64) {
  nvvm.cp.async.bulk.tensor.global.shared.cta %desc, %d3, box[%c, %c] {mode = #nvvm.tma_store_mode<tile_scatter4>} : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// CHECK: error: Scatter4 mode expects 5 coordinates

// -----

llvm.func @f(%d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %c : i32, %p : i1, %hint : i64) {
  nvvm.cp.async.bulk.tensor.global.shared.cta %desc, %d3, box[] : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// CHECK: error: expects coordinates between 1 to 5 dimension

// -----

llvm.func @f(%dst : !llvm.ptr<7>, %d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %mbar : !llvm.ptr<3>, %c : i32, %o : i16, %mask : i16, %hint : i64, %p : i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d3, %desc, %mbar, box[%c] predicate = %p {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// CHECK: error: Predicate is supported only for shared::cluster mode.

// -----

llvm.func @f(%dst : !llvm.ptr<7>, %d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %mbar : !llvm.ptr<3>, %c : i32, %o : i16, %mask : i16, %hint : i64, %p : i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %desc, %mbar, box[%c] {isCTAOnly = true} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// CHECK: error: Shared::cta destination requires address-space 3.

// -----

llvm.func @f(%dst : !llvm.ptr<7>, %d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %mbar : !llvm.ptr<3>, %c : i32, %o : i16, %mask : i16, %hint : i64, %p : i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d3, %desc, %mbar, box[%c] {isCTAOnly = true, group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// CHECK: error: CTAGroup is not supported with shared::cta mode.

// -----

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_80">} {
  llvm.func @f(%dst : !llvm.ptr<7>, %desc : !llvm.ptr, %mbar : !llvm.ptr<3>, %c : i32) {
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %desc, %mbar, box[%c] : !llvm.ptr<7>, !llvm.ptr
    llvm.return
  }
}

// Upstream accepts this; see docs/fidelity.md.
// CHECK: error: 'nvvm.cp.async.bulk.tensor.shared.cluster.global' op is not supported on sm_80
