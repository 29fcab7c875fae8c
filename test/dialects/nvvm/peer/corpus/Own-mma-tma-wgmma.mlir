// tileas-py case file: the mma.sync family, TMA tensor copies and WGMMA, and their verifier messages

llvm.func @mma_ops(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  %0 = nvvm.mma.sp.sync A[%h, %h, %h, %h] B[%h, %h, %h, %h] C[%h, %h] sparseMetadata[%i] selector[%i] {shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  %1 = nvvm.mma.sp.sync A[%h, %h] B[%h, %h] C[%f, %f, %f, %f] sparseMetadata[%i] selector[%i] {orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  %2 = nvvm.mma.sp.sync A[%i, %i] B[%i, %i] C[%i, %i, %i, %i] sparseMetadata[%i] selector[%i] {intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  %3 = nvvm.mma.sp.sync A[%i, %i] B[%i, %i] C[%f, %f, %f, %f] sparseMetadata[%i] selector[%i] {kind = #nvvm.mma_kind<f8f6f4>, multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e5m2>, orderedMetadata, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  %4 = nvvm.mma.block_scale A[%i, %i, %i, %i] B[%i, %i] C[%f, %f, %f, %f] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x2>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  %5 = nvvm.mma.block_scale A[%i, %i, %i, %i] B[%i, %i] C[%f, %f, %f, %f] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf8f6f4>, multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e3m2>, scaleVecSize = #nvvm.scale_vec_size<x1>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  %6 = nvvm.mma.sp.block_scale A[%i, %i, %i, %i] B[%i, %i, %i, %i] C[%f, %f, %f, %f] sparseMetadata[%i] selector[%i] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue4m3>, kind = #nvvm.block_scale_kind<mxf4nvf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x4>, shape = #nvvm.shape<m = 16, n = 8, k = 128>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  %7 = nvvm.mma.sync A[%d] B[%d] C[%d, %d] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 8, n = 8, k = 4>} : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
  llvm.return
}

// -----

llvm.func @tma_and_wgmma_ops(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %t, %d3, box[%c, %c] : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %t, %d3, box[%c, %c, %c] im2col[%o] multicast_mask = %o l2_cache_hint = %h {mode = #nvvm.tma_load_mode<im2col>, group = #nvvm.cta_group<cta_2>} : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %t, %d3, box[%c, %c] predicate = %p : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d3, %t, %d3, box[%c] l2_cache_hint = %h {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %t, %d3, box[%c, %c, %c, %c, %c] {mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.global.shared.cta %t, %d3, box[%c, %c] : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %t, %d3, box[%c, %c, %c] l2_cache_hint = %h {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %t, %d3, box[%c], predicate = %p : !llvm.ptr, <3>
  nvvm.wgmma.fence.aligned
  %0 = nvvm.wgmma.mma_async %h, %h, %acc, #nvvm.shape<m = 64, n = 8, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<neg>, <col>], B [<f16>, #nvvm.wgmma_scale_in<one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %1 = nvvm.wgmma.mma_async %h, %h, %iacc, #nvvm.shape<m = 64, n = 8, k = 32>, D [<s32>, #nvvm.wgmma_scale_out<zero>, <satfinite>], A [<s8>, #nvvm.wgmma_scale_in<one>, <row>], B [<u8>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 1
  llvm.return
}

// -----

llvm.func @sp_shape(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  %0 = nvvm.mma.sp.sync A[%h, %h, %h, %h] B[%h, %h, %h, %h] C[%h, %h] sparseMetadata[%i] selector[%i] {shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  llvm.return
}

// -----

llvm.func @sp_a_count(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  %0 = nvvm.mma.sp.sync A[%h, %h, %h] B[%h, %h, %h, %h] C[%h, %h] sparseMetadata[%i] selector[%i] {shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  llvm.return
}

// -----

llvm.func @sp_result(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  %0 = nvvm.mma.sp.sync A[%h, %h, %h, %h] B[%h, %h, %h, %h] C[%h, %h] sparseMetadata[%i] selector[%i] {shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @sp_b1(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  %0 = nvvm.mma.sp.sync A[%i] B[%i] C[%i, %i] sparseMetadata[%i] selector[%i] {multiplicandAPtxType = #nvvm.mma_type<b1>, multiplicandBPtxType = #nvvm.mma_type<b1>, shape = #nvvm.shape<m = 16, n = 8, k = 128>} : (i32, i32, i32) -> !llvm.struct<(i32, i32)>
  llvm.return
}

// -----

llvm.func @sp_overflow(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{op requires intOverflowBehavior attribute}}
  %0 = nvvm.mma.sp.sync A[%i, %i] B[%i, %i] C[%i, %i, %i, %i] sparseMetadata[%i] selector[%i] {multiplicandAPtxType = #nvvm.mma_type<u8>, multiplicandBPtxType = #nvvm.mma_type<u8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return
}

// -----

llvm.func @sp_types(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{expected one type for each operand segment but got 4 types}}
  %0 = nvvm.mma.sp.sync A[%i, %i] B[%i, %i] C[%i, %i, %i, %i] sparseMetadata[%i] selector[%i] {shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return
}

// -----

llvm.func @sp_infer(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{attribute multiplicandAPtxType is not provided explicitly and cannot be inferred}}
  %0 = nvvm.mma.sp.sync A[%i, %i] B[%i, %i] C[%i, %i, %i, %i] sparseMetadata[%i] selector[%i] {shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return
}

// -----

llvm.func @sp_ctype(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{ctype does not match dtype}}
  %0 = nvvm.mma.sp.sync A[%h, %h, %h, %h] B[%h, %h, %h, %h] C[%h, %h] sparseMetadata[%i] selector[%i] {shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @bs_types(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{unsupported MMATypes attribute for mma.m16n8k64.(mxf4nvf4|mxf4)}}
  %0 = nvvm.mma.block_scale A[%i, %i, %i, %i] B[%i, %i] C[%f, %f, %f, %f] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, scaleVecSize = #nvvm.scale_vec_size<x2>, multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @bs_mxf4_size(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{unsupported ScaleVecSize attribute for mma.m16n8k64.mxf4}}
  %0 = nvvm.mma.block_scale A[%i, %i, %i, %i] B[%i, %i] C[%f, %f, %f, %f] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, scaleVecSize = #nvvm.scale_vec_size<x4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @bs_mxf4_format(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{unsupported BlockScaleFormat attribute for mma.m16n8k64.mxf4}}
  %0 = nvvm.mma.block_scale A[%i, %i, %i, %i] B[%i, %i] C[%f, %f, %f, %f] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue4m3>, kind = #nvvm.block_scale_kind<mxf4>, scaleVecSize = #nvvm.scale_vec_size<x2>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @bs_nvf4(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{unsupported ScaleVecSize and BlockScaleFormat attributes for mma.m16n8k64.mxf4nvf4}}
  %0 = nvvm.mma.block_scale A[%i, %i, %i, %i] B[%i, %i] C[%f, %f, %f, %f] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue4m3>, kind = #nvvm.block_scale_kind<mxf4nvf4>, scaleVecSize = #nvvm.scale_vec_size<x2>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @bs_kind(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{unsupported Kind attribute for mma.m16n8k64}}
  %0 = nvvm.mma.block_scale A[%i, %i, %i, %i] B[%i, %i] C[%f, %f, %f, %f] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf8f6f4>, scaleVecSize = #nvvm.scale_vec_size<x2>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @bs_k32(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{unsupported Kind, ScaleVecSize and BlockScaleFormat attributes for mma.m16n8k32}}
  %0 = nvvm.mma.block_scale A[%i, %i, %i, %i] B[%i, %i] C[%f, %f, %f, %f] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, scaleVecSize = #nvvm.scale_vec_size<x2>, multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e4m3>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @bs_geom(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{unsupported Geom for mma with block scaling}}
  %0 = nvvm.mma.block_scale A[%i, %i, %i, %i] B[%i, %i] C[%f, %f, %f, %f] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, scaleVecSize = #nvvm.scale_vec_size<x2>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @bs_three_types(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{expected exactly 3 types}}
  %0 = nvvm.mma.block_scale A[%i, %i, %i, %i] B[%i, %i] C[%f, %f, %f, %f] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, scaleVecSize = #nvvm.scale_vec_size<x2>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @sbs_types(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{unsupported MMATypes attribute for mma.m16n8k128.(mxf4nvf4|mxf4)}}
  %0 = nvvm.mma.sp.block_scale A[%i, %i, %i, %i] B[%i, %i, %i, %i] C[%f, %f, %f, %f] sparseMetadata[%i] selector[%i] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, scaleVecSize = #nvvm.scale_vec_size<x2>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e5m2>, shape = #nvvm.shape<m = 16, n = 8, k = 128>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @sbs_k64(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{unsupported Kind, ScaleVecSize and BlockScaleFormat attributes for mma.m16n8k64}}
  %0 = nvvm.mma.sp.block_scale A[%i, %i, %i, %i] B[%i, %i, %i, %i] C[%f, %f, %f, %f] sparseMetadata[%i] selector[%i] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, scaleVecSize = #nvvm.scale_vec_size<x2>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @sbs_geom(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{unsupported Geom for sparse mma with block scaling}}
  %0 = nvvm.mma.sp.block_scale A[%i, %i, %i, %i] B[%i, %i, %i, %i] C[%f, %f, %f, %f] sparseMetadata[%i] selector[%i] scaleA[%i, %s, %s] scaleB[%i, %s, %s] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, scaleVecSize = #nvvm.scale_vec_size<x2>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @sbs_ordered(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  // expected-error @below {{'orderedMetadata' attribute is mandatory}}
  %0 = "nvvm.mma.sp.block_scale"(%i, %i, %i, %i, %i, %i, %i, %i, %f, %f, %f, %f, %i, %i, %i, %s, %s, %i, %s, %s) <{shape = #nvvm.shape<m = 16, n = 8, k = 128>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x2>, blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, operandSegmentSizes = array<i32: 4, 4, 4, 1, 1, 1, 1, 1, 1, 1, 1>}> : (i32, i32, i32, i32, i32, i32, i32, i32, f32, f32, f32, f32, i32, i32, i32, i16, i16, i32, i16, i16) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @bs_scale_i32(%h: vector<2xf16>, %f: f32, %i: i32, %s: i16, %d: f64) {
  %0 = "nvvm.mma.block_scale"(%i, %i, %i, %i, %i, %i, %f, %f, %f, %f, %i, %i, %s, %i, %s, %s) <{blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, operandSegmentSizes = array<i32: 4, 2, 4, 1, 1, 1, 1, 1, 1>, scaleVecSize = #nvvm.scale_vec_size<x2>, shape = #nvvm.shape<m = 16, n = 8, k = 64>}> : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32, i32, i32, i16, i32, i16, i16) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @tma_dims(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{expects coordinates between 1 to 5 dimension}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %t, %d3, box[%c, %c, %c, %c, %c, %c] : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @tma_gather(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{Gather4 mode expects 5 coordinates}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %t, %d3, box[%c, %c] {mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @tma_im2col_w_dims(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{to use im2col_w mode, the tensor has to be at least 3-dimensional}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %t, %d3, box[%c, %c] im2col[%o, %o] {mode = #nvvm.tma_load_mode<im2col_w>} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @tma_im2col_offsets(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %t, %d3, box[%c, %c, %c, %c] im2col[%o] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @tma_predicate_cta(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{Predicate is supported only for shared::cluster mode.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d3, %t, %d3, box[%c] predicate = %p {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @tma_predicate_gather(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{Predicate is supported only for Tile and Im2col modes.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %t, %d3, box[%c, %c, %c, %c, %c] predicate = %p {mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @tma_cta_dst(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{Shared::cta destination requires address-space 3.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %t, %d3, box[%c] {isCTAOnly = true} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @tma_cluster_dst(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{Shared::cluster destination requires address-space 7.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d3, %t, %d3, box[%c] : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @tma_cta_multicast(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{Multicast is not supported with shared::cta mode.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d3, %t, %d3, box[%c] multicast_mask = %o {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @tma_cta_group(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{CTAGroup is not supported with shared::cta mode.}}
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d3, %t, %d3, box[%c] {isCTAOnly = true, group = #nvvm.cta_group<cta_1>} : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}

// -----

llvm.func @tma_descriptor_global(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr<1>, %c: i32, %o: i16, %h: i64, %p: i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %t, %d3, box[%c] : !llvm.ptr<7>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @tma_store_predicate_mode(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{Inline-ptx lowering supported only for Tile mode.}}
  nvvm.cp.async.bulk.tensor.global.shared.cta %t, %d3, box[%c, %c, %c], predicate = %p {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, <3>
  llvm.return
}

// -----

llvm.func @tma_store_predicate_hint(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{Inline-ptx lowering unsupported with L2 cache-hint.}}
  nvvm.cp.async.bulk.tensor.global.shared.cta %t, %d3, box[%c] l2_cache_hint = %h, predicate = %p : !llvm.ptr, <3>
  llvm.return
}

// -----

llvm.func @tma_store_scatter(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{Scatter4 mode expects 5 coordinates}}
  nvvm.cp.async.bulk.tensor.global.shared.cta %t, %d3, box[%c, %c] {mode = #nvvm.tma_store_mode<tile_scatter4>} : !llvm.ptr, <3>
  llvm.return
}

// -----

llvm.func @tma_store_im2col_dims(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{to use im2col mode, the tensor has to be at least 3-dimensional}}
  nvvm.cp.async.bulk.tensor.global.shared.cta %t, %d3, box[%c, %c] {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, <3>
  llvm.return
}

// -----

llvm.func @tma_store_dims(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  // expected-error @below {{expects coordinates between 1 to 5 dimension}}
  nvvm.cp.async.bulk.tensor.global.shared.cta %t, %d3, box[] : !llvm.ptr, <3>
  llvm.return
}

// -----

llvm.func @tma_coordinate_i64(%d7: !llvm.ptr<7>, %d3: !llvm.ptr<3>, %t: !llvm.ptr, %c: i32, %o: i16, %h: i64, %p: i1) {
  "nvvm.cp.async.bulk.tensor.global.shared.cta"(%t, %d3, %h) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (!llvm.ptr, !llvm.ptr<3>, i64) -> ()
  llvm.return
}

// -----

llvm.func @wg_elements(%h: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>, %macc: !llvm.struct<(f32, i32, f32, f32)>) {
  %0 = nvvm.wgmma.mma_async %h, %h, %macc, #nvvm.shape<m = 64, n = 8, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, i32, f32, f32)> -> !llvm.struct<(f32, i32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wg_output(%h: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>, %macc: !llvm.struct<(f32, i32, f32, f32)>) {
  %0 = nvvm.wgmma.mma_async %h, %h, %acc, #nvvm.shape<m = 64, n = 8, k = 16>, D [<tf32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wg_s32_neg(%h: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>, %macc: !llvm.struct<(f32, i32, f32, f32)>) {
  // expected-error @below {{has s32 output, scaleA and scaleB cannot be neg}}
  %0 = nvvm.wgmma.mma_async %h, %h, %iacc, #nvvm.shape<m = 64, n = 8, k = 32>, D [<s32>, #nvvm.wgmma_scale_out<one>], A [<s8>, #nvvm.wgmma_scale_in<neg>, <row>], B [<s8>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return
}

// -----

llvm.func @wg_combination(%h: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>, %macc: !llvm.struct<(f32, i32, f32, f32)>) {
  %0 = nvvm.wgmma.mma_async %h, %h, %acc, #nvvm.shape<m = 64, n = 8, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<bf16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wg_m(%h: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>, %macc: !llvm.struct<(f32, i32, f32, f32)>) {
  // expected-error @below {{shape 'm' must be 64}}
  %0 = nvvm.wgmma.mma_async %h, %h, %acc, #nvvm.shape<m = 32, n = 8, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wg_k(%h: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>, %macc: !llvm.struct<(f32, i32, f32, f32)>) {
  // expected-error @below {{shape 'k' must be 16 for input type f16}}
  %0 = nvvm.wgmma.mma_async %h, %h, %acc, #nvvm.shape<m = 64, n = 8, k = 32>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wg_n(%h: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>, %macc: !llvm.struct<(f32, i32, f32, f32)>) {
  %0 = nvvm.wgmma.mma_async %h, %h, %iacc, #nvvm.shape<m = 64, n = 12, k = 32>, D [<s32>, #nvvm.wgmma_scale_out<one>], A [<s8>, #nvvm.wgmma_scale_in<one>, <row>], B [<s8>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return
}

// -----

llvm.func @wg_transpose(%h: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>, %macc: !llvm.struct<(f32, i32, f32, f32)>) {
  %0 = nvvm.wgmma.mma_async %h, %h, %iacc, #nvvm.shape<m = 64, n = 8, k = 32>, D [<s32>, #nvvm.wgmma_scale_out<one>], A [<s8>, #nvvm.wgmma_scale_in<one>, <col>], B [<s8>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return
}

// -----

llvm.func @wg_count(%h: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>, %macc: !llvm.struct<(f32, i32, f32, f32)>) {
  // expected-error @below {{results 8, however output struct has 4 elements}}
  %0 = nvvm.wgmma.mma_async %h, %h, %acc, #nvvm.shape<m = 64, n = 16, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wg_satfinite(%h: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>, %macc: !llvm.struct<(f32, i32, f32, f32)>) {
  %0 = nvvm.wgmma.mma_async %h, %h, %acc, #nvvm.shape<m = 64, n = 8, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>, <satfinite>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @wg_inout_mismatch(%h: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>, %macc: !llvm.struct<(f32, i32, f32, f32)>) {
  %0 = nvvm.wgmma.mma_async %h, %h, %acc, #nvvm.shape<m = 64, n = 8, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return
}

// -----

llvm.func @wg_wait_i32() {
  "nvvm.wgmma.wait.group.sync.aligned"() <{group = 1 : i32}> : () -> ()
  llvm.return
}

// -----

llvm.func @wg_fence_operand(%h: i64) {
  "nvvm.wgmma.fence.aligned"(%h) : (i64) -> ()
  llvm.return
}
