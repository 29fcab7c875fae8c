// RUN: TILEAS_ROUNDTRIP
// RUN: TILEAS_GENERIC_ROUNDTRIP
// The CHECK lines are what upstream mlir-opt 22.1.8 prints for this input, custom and
// generic, with SSA names elided: both tools must agree op for op.

llvm.func @tma(%dst : !llvm.ptr<7>, %d3 : !llvm.ptr<3>, %desc : !llvm.ptr, %mbar : !llvm.ptr<3>, %c : i32, %o : i16, %mask : i16, %hint : i64, %p : i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %desc, %mbar, box[%c, %c] : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %desc, %mbar, box[%c, %c, %c] im2col[%o] multicast_mask = %mask l2_cache_hint = %hint {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d3, %desc, %mbar, box[%c] predicate = %p : !llvm.ptr<3>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d3, %desc, %mbar, box[%c] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %desc, %mbar, box[%c] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.global.shared.cta %desc, %d3, box[%c, %c] : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %desc, %d3, box[%c, %c] l2_cache_hint = %hint : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %desc, %d3, box[%c, %c], predicate = %p : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %desc, %d3, box[%c, %c, %c] {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] im2col[%{{.*}}] multicast_mask = %{{.*}} l2_cache_hint = %{{.*}} {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}] predicate = %{{.*}} : !llvm.ptr<3>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] l2_cache_hint = %{{.*}} : !llvm.ptr, <3>
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}], predicate = %{{.*}} : !llvm.ptr, <3>
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, <3>
// CHECK-GENERIC: "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{isCTAOnly = false, mode = #nvvm.tma_load_mode<tile>, operandSegmentSizes = array<i32: 1, 1, 2, 1, 0, 0, 0, 0>}> : (!llvm.ptr<7>, !llvm.ptr, i32, i32, !llvm.ptr<3>) -> ()
// CHECK-GENERIC: "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{isCTAOnly = false, mode = #nvvm.tma_load_mode<im2col>, operandSegmentSizes = array<i32: 1, 1, 3, 1, 1, 1, 1, 0>}> : (!llvm.ptr<7>, !llvm.ptr, i32, i32, i32, !llvm.ptr<3>, i16, i16, i64) -> ()
// CHECK-GENERIC: "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{isCTAOnly = false, mode = #nvvm.tma_load_mode<tile>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 1>}> : (!llvm.ptr<3>, !llvm.ptr, i32, !llvm.ptr<3>, i1) -> ()
// CHECK-GENERIC: "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{isCTAOnly = true, mode = #nvvm.tma_load_mode<tile>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>}> : (!llvm.ptr<3>, !llvm.ptr, i32, !llvm.ptr<3>) -> ()
// CHECK-GENERIC: "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{group = #nvvm.cta_group<cta_2>, isCTAOnly = false, mode = #nvvm.tma_load_mode<tile>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>}> : (!llvm.ptr<7>, !llvm.ptr, i32, !llvm.ptr<3>) -> ()
// CHECK-GENERIC: "nvvm.cp.async.bulk.tensor.global.shared.cta"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{mode = #nvvm.tma_store_mode<tile>, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>}> : (!llvm.ptr, !llvm.ptr<3>, i32, i32) -> ()
// CHECK-GENERIC: "nvvm.cp.async.bulk.tensor.global.shared.cta"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{mode = #nvvm.tma_store_mode<tile>, operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>}> : (!llvm.ptr, !llvm.ptr<3>, i32, i32, i64) -> ()
// CHECK-GENERIC: "nvvm.cp.async.bulk.tensor.global.shared.cta"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{mode = #nvvm.tma_store_mode<tile>, operandSegmentSizes = array<i32: 1, 1, 2, 0, 1>}> : (!llvm.ptr, !llvm.ptr<3>, i32, i32, i1) -> ()
// CHECK-GENERIC: "nvvm.cp.async.bulk.tensor.global.shared.cta"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{mode = #nvvm.tma_store_mode<im2col>, operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>}> : (!llvm.ptr, !llvm.ptr<3>, i32, i32, i32) -> ()
