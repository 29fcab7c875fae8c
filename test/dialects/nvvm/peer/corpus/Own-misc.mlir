// tileas-py case file: misc, warp, convert and cp.async ops, and each of their verifier messages

llvm.func @misc_ops(%i32: i32, %i64: i64, %f32: f32, %i1: i1, %p: !llvm.ptr, %p1: !llvm.ptr<1>, %p3: !llvm.ptr<3>, %p7: !llvm.ptr<7>, %i16: i16, %v4: vector<4xi8>, %v2: vector<2xi16>, %i128: i128) {
  nvvm.bar.warp.sync %i32 : i32
  nvvm.breakpoint
  nvvm.exit
  nvvm.nanosleep %i32
  nvvm.pmevent id = 3
  nvvm.pmevent mask = 4
  %r = nvvm.rcp.approx.ftz.f %f32 : f32
  nvvm.griddepcontrol launch_dependents
  %m = nvvm.match.sync any %i32, %i64 : i64 -> i32
  %m2 = nvvm.match.sync all %i32, %i32 : i32 -> !llvm.struct<(i32, i1)>
  %v = nvvm.vote.sync any %i32, %i1 -> i1
  %rr = nvvm.redux.sync fmax %f32, %i32 {abs = true, nan = true} : f32 -> f32
  %s = nvvm.shfl.sync idx %i32, %f32, %i32, %i32 {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>
  %d4 = nvvm.dot.accumulate.4way %v4 <unsigned>, %v4 <signed>, %i32 : vector<4xi8>, vector<4xi8>
  %d2 = nvvm.dot.accumulate.2way %v2 <unsigned>, %v4 <signed>, %i32 {b_hi = true} : vector<2xi16>, vector<4xi8>
  nvvm.memory.barrier #nvvm.mem_scope<sys>
  nvvm.st.bulk %p3, size = %i64 : !llvm.ptr<3>
  nvvm.clusterlaunchcontrol.try.cancel multicast, %p3, %p3
  nvvm.clusterlaunchcontrol.try.cancel %p3, %p3
  %q = nvvm.clusterlaunchcontrol.query.cancel query = get_first_cta_id_x, %i128 : i32
  %e = nvvm.elect.sync %i32 -> i1
  %x = nvvm.inline_ptx "mov.b32 $0, $1;" ro (%i32 : i32) -> i32
  nvvm.inline_ptx "st.u32 [$0], $1;" ro (%p, %i32 : !llvm.ptr, i32), predicate = %i1
  %pr = nvvm.prmt #nvvm.permute_mode<default> %i32, %i32, %i32 : i32
  nvvm.cp.async.commit.group
  nvvm.cp.async.wait.group 1
  nvvm.cp.async.mbarrier.arrive %p3 {noinc = true} : !llvm.ptr<3>
  nvvm.cp.async.shared.global %p3, %p1, 16, cache = cg, %i32 : !llvm.ptr<3>, !llvm.ptr<1>, i32
  nvvm.cp.async.bulk.commit.group
  nvvm.cp.async.bulk.wait_group 1 {read}
  nvvm.cp.async.bulk.prefetch %p1, %i32 l2_cache_hint = %i64 : !llvm.ptr<1>
  nvvm.cp.async.bulk.shared.cluster.global %p7, %p1, %p3, %i32 multicast_mask = %i16 l2_cache_hint = %i64 : !llvm.ptr<7>, !llvm.ptr<1>
  nvvm.cp.async.bulk.shared.cluster.global %p3, %p1, %p3, %i32 : !llvm.ptr<3>, !llvm.ptr<1>
  nvvm.cp.async.bulk.shared.cluster.shared.cta %p7, %p3, %p3, %i32 : !llvm.ptr<7>, !llvm.ptr<3>
  nvvm.cp.async.bulk.global.shared.cta %p1, %p3, %i32 l2_cache_hint = %i64 byte_mask = %i16 : !llvm.ptr<1>, !llvm.ptr<3>
  nvvm.cp.async.bulk.tensor.prefetch %p, box[%i32, %i32, %i32] im2col[%i16] l2_cache_hint = %i64 {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr
  nvvm.cp.async.bulk.tensor.reduce %p, %p3, box[%i32] l2_cache_hint = %i64 {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// -----

llvm.func @convert_ops(%f32: f32, %i32: i32, %v2f16: vector<2xf16>, %v2bf16: vector<2xbf16>, %v2i8: vector<2xi8>, %i8: i8, %v4f32: vector<4xf32>) {
  %0 = nvvm.convert.float.to.tf32 %f32 {rnd = #nvvm.fp_rnd_mode<rn>}
  %1 = nvvm.convert.f32x2.to.f4x2 %f32, %f32 {relu = true} : i8 (f4E2M1FN)
  %2 = nvvm.convert.f32x2.to.f6x2 %f32, %f32 : vector<2xi8> (f6E2M3FN)
  %3 = nvvm.convert.f32x2.to.f8x2 %f32, %f32 {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16 (f8E4M3FN)
  %4 = nvvm.convert.f16x2.to.f8x2 %v2f16 : vector<2xf16> -> i16 (f8E5M2)
  %5 = nvvm.convert.bf16x2.to.f8x2 %v2bf16 {rnd = #nvvm.fp_rnd_mode<rz>} : vector<2xbf16> -> vector<2xi8> (f8E8M0FNU)
  %6 = nvvm.convert.f8x2.to.f16x2 %v2i8 {relu = true} : vector<2xi8> (f8E4M3FN) -> vector<2xf16>
  %7 = nvvm.convert.f8x2.to.bf16x2 %v2i8 : vector<2xi8> (f8E8M0FNU) -> vector<2xbf16>
  %8 = nvvm.convert.f6x2.to.f16x2 %v2i8 : vector<2xi8> (f6E3M2FN) -> vector<2xf16>
  %9 = nvvm.convert.f4x2.to.f16x2 %i8 : i8 (f4E2M1FN) -> vector<2xf16>
  %10 = nvvm.convert.f32x4.to.f8x4 %v4f32, %i32 : vector<4xf32> -> vector<4xi8> (f8E4M3FN)
  %11 = nvvm.convert.f32x4.to.f6x4 %v4f32, %i32 : vector<4xf32> -> vector<4xi8> (f6E2M3FN)
  %12 = nvvm.convert.f32x4.to.f4x4 %v4f32, %i32 {relu = true} : vector<4xf32> -> i16 (f4E2M1FN)
  llvm.return
}

// -----

llvm.func @pmevent_none() {
  "nvvm.pmevent"() : () -> ()
  llvm.return
}

// -----

llvm.func @pmevent_both() {
  // expected-error @below {{`id` and `mask` cannot be set at the same time}}
  nvvm.pmevent id = 1 mask = 2
  llvm.return
}

// -----

llvm.func @pmevent_range() {
  // expected-error @below {{`id` must be between 0 and 15}}
  nvvm.pmevent id = 17
  llvm.return
}

// -----

llvm.func @nanosleep_i64(%x: i64) {
  "nvvm.nanosleep"(%x) : (i64) -> ()
  llvm.return
}

// -----

llvm.func @rcp_f64(%x: f64) {
  %0 = "nvvm.rcp.approx.ftz.f"(%x) : (f64) -> f64
  llvm.return
}

// -----

llvm.func @st_bulk_init(%p: !llvm.ptr<3>, %n: i64) {
  // expected-error @below {{only 0 is supported for initVal, got 1}}
  nvvm.st.bulk %p, size = %n, init = 1 : !llvm.ptr<3>
  llvm.return
}

// -----

llvm.func @st_bulk_global(%p: !llvm.ptr<1>, %n: i64) {
  "nvvm.st.bulk"(%p, %n) : (!llvm.ptr<1>, i64) -> ()
  llvm.return
}

// -----

llvm.func @prefetch_both(%p: !llvm.ptr) {
  // expected-error @below {{cannot specify both tensormap and cache level}}
  nvvm.prefetch level = L1, tensormap, %p : !llvm.ptr
  llvm.return
}

// -----

llvm.func @prefetch_tensormap_shared(%p: !llvm.ptr<3>) {
  // expected-error @below {{prefetch tensormap requires a generic or constant pointer}}
  nvvm.prefetch tensormap, %p : !llvm.ptr<3>
  llvm.return
}

// -----

llvm.func @prefetch_tensormap_evict(%p: !llvm.ptr) {
  // expected-error @below {{prefetch tensormap does not support eviction priority}}
  nvvm.prefetch tensormap, evict_priority = evict_last, %p : !llvm.ptr
  llvm.return
}

// -----

llvm.func @prefetch_param_space(%p: !llvm.ptr<4>) {
  // expected-error @below {{in_param_space can only be specified for a generic pointer}}
  nvvm.prefetch tensormap in_param_space, %p : !llvm.ptr<4>
  llvm.return
}

// -----

llvm.func @prefetch_level_shared(%p: !llvm.ptr<3>) {
  // expected-error @below {{prefetch to cache level requires a generic, global, or local pointer}}
  nvvm.prefetch level = L1, %p : !llvm.ptr<3>
  llvm.return
}

// -----

llvm.func @prefetch_uniform_l2(%p: !llvm.ptr) {
  // expected-error @below {{unsupported cache level, the only supported uniform cache level is L1}}
  nvvm.prefetch level = L2 uniform, %p : !llvm.ptr
  llvm.return
}

// -----

llvm.func @prefetch_uniform_global(%p: !llvm.ptr<1>) {
  // expected-error @below {{prefetch to uniform cache requires a generic pointer}}
  nvvm.prefetch level = L1 uniform, %p : !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @prefetch_evict_l1(%p: !llvm.ptr<1>) {
  // expected-error @below {{cache eviction priority supported only for cache level L2}}
  nvvm.prefetch level = L1, evict_priority = evict_last, %p : !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @prefetch_evict_generic(%p: !llvm.ptr) {
  // expected-error @below {{cache eviction priority requires a global pointer}}
  nvvm.prefetch level = L2, evict_priority = evict_last, %p : !llvm.ptr
  llvm.return
}

// -----

llvm.func @prefetch_evict_first(%p: !llvm.ptr<1>) {
  // expected-error @below {{unsupported cache eviction priority, only evict_last and evict_normal are supported}}
  nvvm.prefetch level = L2, evict_priority = evict_first, %p : !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @prefetch_predicate(%p: !llvm.ptr<1>, %c: i1) {
  // expected-error @below {{predicate supported only on prefetch tensormap}}
  nvvm.prefetch level = L2, %p, predicate = %c : !llvm.ptr<1>, i1
  llvm.return
}

// -----

llvm.func @prefetch_nothing(%p: !llvm.ptr<1>) {
  "nvvm.prefetch"(%p) : (!llvm.ptr<1>) -> ()
  llvm.return
}

// -----

llvm.func @query_cancel_i1(%r: i128) {
  // expected-error @below {{is_canceled query type returns an i1}}
  %0 = nvvm.clusterlaunchcontrol.query.cancel query = is_canceled, %r : i32
  llvm.return
}

// -----

llvm.func @query_cancel_i32(%r: i128) {
  // expected-error @below {{get_first_cta_id_x, get_first_cta_id_y, get_first_cta_id_z query types return an i32}}
  %0 = nvvm.clusterlaunchcontrol.query.cancel query = get_first_cta_id_y, %r : i1
  llvm.return
}

// -----

llvm.func @try_cancel_global(%p: !llvm.ptr<1>) {
  "nvvm.clusterlaunchcontrol.try.cancel"(%p, %p) : (!llvm.ptr<1>, !llvm.ptr<1>) -> ()
  llvm.return
}

// -----

llvm.func @inline_ptx_no_code(%x: i32) {
  %0 = "nvvm.inline_ptx"(%x) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> i32
  llvm.return
}

// -----

llvm.func @griddep_kind() {
  // expected-error @below {{Invalid attribute `kind` in property conversion}}
  "nvvm.griddepcontrol"() <{kind = #nvvm.mem_scope<cta>}> : () -> ()
  llvm.return
}

// -----

llvm.func @shfl_struct_without_flag(%m: i32, %v: f32) {
  // expected-error @below {{"return_value_and_is_valid" attribute must be specified when the return type is a struct type}}
  %0 = nvvm.shfl.sync bfly %m, %v, %m, %m : f32 -> !llvm.struct<(f32, i1)>
  llvm.return
}

// -----

llvm.func @shfl_struct_three(%m: i32, %v: f32) {
  // expected-error @below {{expected return type to be a two-element struct}}
  %0 = nvvm.shfl.sync bfly %m, %v, %m, %m {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1, i1)>
  llvm.return
}

// -----

llvm.func @shfl_struct_first(%m: i32, %v: f32) {
  %0 = nvvm.shfl.sync up %m, %v, %m, %m {return_value_and_is_valid} : f32 -> !llvm.struct<(i32, i1)>
  llvm.return
}

// -----

llvm.func @shfl_struct_second(%m: i32, %v: f32) {
  %0 = nvvm.shfl.sync up %m, %v, %m, %m {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i32)>
  llvm.return
}

// -----

llvm.func @shfl_flag_scalar(%m: i32, %v: f32) {
  // expected-error @below {{expected return type to be a two-element struct}}
  %0 = nvvm.shfl.sync down %m, %v, %m, %m {return_value_and_is_valid} : f32 -> f32
  llvm.return
}

// -----

llvm.func @shfl_scalar_mismatch(%m: i32, %v: f32) {
  %0 = nvvm.shfl.sync idx %m, %v, %m, %m : f32 -> i32
  llvm.return
}

// -----

llvm.func @shfl_i64(%m: i32, %v: i64) {
  %0 = "nvvm.shfl.sync"(%m, %v, %m, %m) <{kind = #nvvm<shfl_kind bfly>}> : (i32, i64, i32, i32) -> i64
  llvm.return
}

// -----

llvm.func @vote_ballot_i1(%m: i32, %p: i1) {
  // expected-error @below {{vote.sync 'ballot' returns an i32}}
  %0 = nvvm.vote.sync ballot %m, %p -> i1
  llvm.return
}

// -----

llvm.func @vote_all_i32(%m: i32, %p: i1) {
  // expected-error @below {{vote.sync 'any', 'all' and 'uni' returns an i1}}
  %0 = nvvm.vote.sync all %m, %p -> i32
  llvm.return
}

// -----

llvm.func @match_all_i32(%m: i32, %v: i32) {
  // expected-error @below {{match.sync 'all' returns a two element struct with first element as i32 and second element as i1}}
  %0 = nvvm.match.sync all %m, %v : i32 -> i32
  llvm.return
}

// -----

llvm.func @match_any_struct(%m: i32, %v: i32) {
  // expected-error @below {{match.sync 'any' returns an i32}}
  %0 = nvvm.match.sync any %m, %v : i32 -> !llvm.struct<(i32, i1)>
  llvm.return
}

// -----

llvm.func @redux_types(%v: i32, %m: i32) {
  %0 = "nvvm.redux.sync"(%v, %m) <{kind = #nvvm<redux_kind add>}> : (i32, i32) -> f32
  llvm.return
}

// -----

llvm.func @redux_abs_i32(%v: i32, %m: i32) {
  // expected-error @below {{abs attribute is supported only for f32 type}}
  %0 = nvvm.redux.sync add %v, %m {abs = true} : i32 -> i32
  llvm.return
}

// -----

llvm.func @redux_nan_i32(%v: i32, %m: i32) {
  // expected-error @below {{nan attribute is supported only for f32 type}}
  %0 = nvvm.redux.sync max %v, %m {nan = true} : i32 -> i32
  llvm.return
}

// -----

llvm.func @redux_add_f32(%v: f32, %m: i32) {
  %0 = nvvm.redux.sync add %v, %m : f32 -> f32
  llvm.return
}

// -----

llvm.func @redux_fmin_i32(%v: i32, %m: i32) {
  %0 = nvvm.redux.sync fmin %v, %m : i32 -> i32
  llvm.return
}

// -----

llvm.func @dot4_vector(%a: vector<2xi16>, %c: i32) {
  %0 = "nvvm.dot.accumulate.4way"(%a, %a, %c) <{a_type = #nvvm.dot_accumulate_type<signed>, b_type = #nvvm.dot_accumulate_type<signed>}> : (vector<2xi16>, vector<2xi16>, i32) -> i32
  llvm.return
}

// -----

llvm.func @prmt_needs_hi(%a: i32) {
  // expected-error @below {{mode 'default' requires 'hi' operand.}}
  %0 = nvvm.prmt #nvvm.permute_mode<default> %a, %a : i32
  llvm.return
}

// -----

llvm.func @prmt_no_hi(%a: i32) {
  // expected-error @below {{mode 'rc16' does not accept 'hi' operand.}}
  %0 = nvvm.prmt #nvvm.permute_mode<rc16> %a, %a, %a : i32
  llvm.return
}

// -----

llvm.func @bar_warp_sync_i64(%m: i64) {
  "nvvm.bar.warp.sync"(%m) : (i64) -> ()
  llvm.return
}

// -----

llvm.func @tf32_rna_relu(%x: f32) {
  // expected-error @below {{Relu not supported with rna rounding mode.}}
  %0 = nvvm.convert.float.to.tf32 %x {rnd = #nvvm.fp_rnd_mode<rna>, relu = true}
  llvm.return
}

// -----

llvm.func @tf32_rm(%x: f32) {
  // expected-error @below {{Only {rn,rz,rna} rounding modes supported for ConvertFloatToTF32Op.}}
  %0 = nvvm.convert.float.to.tf32 %x {rnd = #nvvm.fp_rnd_mode<rm>}
  llvm.return
}

// -----

llvm.func @f4x2_type(%x: f32) {
  %0 = nvvm.convert.f32x2.to.f4x2 %x, %x : i8 (f8E4M3FN)
  llvm.return
}

// -----

llvm.func @f6x2_type(%x: f32) {
  %0 = nvvm.convert.f32x2.to.f6x2 %x, %x : i16 (f8E4M3FN)
  llvm.return
}

// -----

llvm.func @f8x2_rnd(%x: f32) {
  %0 = nvvm.convert.f32x2.to.f8x2 %x, %x {rnd = #nvvm.fp_rnd_mode<rz>, sat = #nvvm.sat_mode<satfinite>} : i16 (f8E5M2)
  llvm.return
}

// -----

llvm.func @f8x2_sat(%x: f32) {
  %0 = nvvm.convert.f32x2.to.f8x2 %x, %x {rnd = #nvvm.fp_rnd_mode<rn>} : i16 (f8E4M3FN)
  llvm.return
}

// -----

llvm.func @f8x2_ue8m0_rnd(%x: f32) {
  %0 = nvvm.convert.f32x2.to.f8x2 %x, %x {rnd = #nvvm.fp_rnd_mode<rn>} : i16 (f8E8M0FNU)
  llvm.return
}

// -----

llvm.func @f8x2_ue8m0_relu(%x: f32) {
  %0 = nvvm.convert.f32x2.to.f8x2 %x, %x {rnd = #nvvm.fp_rnd_mode<rz>, relu = true} : i16 (f8E8M0FNU)
  llvm.return
}

// -----

llvm.func @f8x2_type(%x: f32) {
  %0 = nvvm.convert.f32x2.to.f8x2 %x, %x : i16 (f6E2M3FN)
  llvm.return
}

// -----

llvm.func @f16x2_to_f8x2_type(%x: vector<2xf16>) {
  %0 = nvvm.convert.f16x2.to.f8x2 %x : vector<2xf16> -> i16 (f8E8M0FNU)
  llvm.return
}

// -----

llvm.func @bf16x2_to_f8x2_type(%x: vector<2xbf16>) {
  %0 = nvvm.convert.bf16x2.to.f8x2 %x {rnd = #nvvm.fp_rnd_mode<rz>} : vector<2xbf16> -> i16 (f8E4M3FN)
  llvm.return
}

// -----

llvm.func @bf16x2_to_f8x2_rnd(%x: vector<2xbf16>) {
  %0 = nvvm.convert.bf16x2.to.f8x2 %x {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16> -> i16 (f8E8M0FNU)
  llvm.return
}

// -----

llvm.func @f8x2_to_f16x2_type(%x: vector<2xi8>) {
  %0 = nvvm.convert.f8x2.to.f16x2 %x : vector<2xi8> (f8E8M0FNU) -> vector<2xf16>
  llvm.return
}

// -----

llvm.func @f8x2_to_bf16x2_type(%x: vector<2xi8>) {
  %0 = nvvm.convert.f8x2.to.bf16x2 %x : vector<2xi8> (f8E4M3FN) -> vector<2xbf16>
  llvm.return
}

// -----

llvm.func @f6x2_to_f16x2_type(%x: vector<2xi8>) {
  %0 = nvvm.convert.f6x2.to.f16x2 %x : vector<2xi8> (f8E4M3FN) -> vector<2xf16>
  llvm.return
}

// -----

llvm.func @f4x2_to_f16x2_type(%x: i8) {
  %0 = nvvm.convert.f4x2.to.f16x2 %x : i8 (f6E2M3FN) -> vector<2xf16>
  llvm.return
}

// -----

llvm.func @f32x2_to_f16x2_rm(%x: f32) {
  %0 = nvvm.convert.f32x2.to.f16x2 %x, %x {rnd = #nvvm.fp_rnd_mode<rm>} : vector<2xf16>
  llvm.return
}

// -----

llvm.func @f32x2_to_f16x2_rs_without_bits(%x: f32) {
  // expected-error @below {{random_bits is required for RS rounding mode.}}
  %0 = nvvm.convert.f32x2.to.f16x2 %x, %x {rnd = #nvvm.fp_rnd_mode<rs>} : vector<2xf16>
  llvm.return
}

// -----

llvm.func @f32x2_to_bf16x2_rn_with_bits(%x: f32, %r: i32) {
  // expected-error @below {{random_bits not supported for RN and RZ rounding modes.}}
  %0 = nvvm.convert.f32x2.to.bf16x2 %x, %x, %r {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
  llvm.return
}

// -----

llvm.func @f32x4_to_f8x4_type(%x: vector<4xf32>, %r: i32) {
  %0 = nvvm.convert.f32x4.to.f8x4 %x, %r : vector<4xf32> -> vector<4xi8> (f8E8M0FNU)
  llvm.return
}

// -----

llvm.func @f32x4_to_f6x4_type(%x: vector<4xf32>, %r: i32) {
  %0 = nvvm.convert.f32x4.to.f6x4 %x, %r : vector<4xf32> -> vector<4xi8> (f4E2M1FN)
  llvm.return
}

// -----

llvm.func @f32x4_to_f4x4_type(%x: vector<4xf32>, %r: i32) {
  %0 = nvvm.convert.f32x4.to.f4x4 %x, %r : vector<4xf32> -> i16 (f6E2M3FN)
  llvm.return
}

// -----

llvm.func @cp_async_modifier(%d: !llvm.ptr<3>, %s: !llvm.ptr<1>) {
  // expected-error @below {{Only CG and CA cache modifiers are supported.}}
  nvvm.cp.async.shared.global %d, %s, 16, cache = cs : !llvm.ptr<3>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @cp_async_size(%d: !llvm.ptr<3>, %s: !llvm.ptr<1>) {
  // expected-error @below {{expected byte size to be either 4, 8 or 16.}}
  nvvm.cp.async.shared.global %d, %s, 2, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @cp_async_cg_size(%d: !llvm.ptr<3>, %s: !llvm.ptr<1>) {
  // expected-error @below {{CG cache modifier is only support for 16 bytes copy.}}
  nvvm.cp.async.shared.global %d, %s, 8, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @cp_async_bulk_multicast_cta(%d: !llvm.ptr<3>, %s: !llvm.ptr<1>, %b: !llvm.ptr<3>, %n: i32, %m: i16) {
  // expected-error @below {{Multicast is not supported with shared::cta mode.}}
  nvvm.cp.async.bulk.shared.cluster.global %d, %s, %b, %n multicast_mask = %m : !llvm.ptr<3>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @cp_async_bulk_wait_negative() {
  "nvvm.cp.async.bulk.wait_group"() <{group = -1 : i32}> : () -> ()
  llvm.return
}

// -----

llvm.func @cp_async_wait_group_i64() {
  "nvvm.cp.async.wait.group"() <{n = 1 : i64}> : () -> ()
  llvm.return
}

// -----

llvm.func @tensor_reduce_scatter(%t: !llvm.ptr, %s: !llvm.ptr<3>, %x: i32) {
  // expected-error @below {{Scatter mode unsupported for CpAsyncBulkTensorReduceOp}}
  nvvm.cp.async.bulk.tensor.reduce %t, %s, box[%x, %x, %x, %x, %x] {redKind = #nvvm.tma_redux_kind<add>, mode = #nvvm.tma_store_mode<tile_scatter4>} : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// -----

llvm.func @tensor_prefetch_im2col_dims(%t: !llvm.ptr, %x: i32, %o: i16) {
  nvvm.cp.async.bulk.tensor.prefetch %t, box[%x, %x] im2col[%o] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr
  llvm.return
}

// -----

llvm.func @tensor_prefetch_tile_offsets(%t: !llvm.ptr, %x: i32, %o: i16) {
  nvvm.cp.async.bulk.tensor.prefetch %t, box[%x, %x, %x] im2col[%o] : !llvm.ptr
  llvm.return
}

// -----

llvm.func @prefetch_and_f32x2_converts(%gen: !llvm.ptr, %glob: !llvm.ptr<1>, %loc: !llvm.ptr<5>, %const: !llvm.ptr<4>, %p: i1, %f: f32, %r: i32) {
  nvvm.prefetch level = L1, %gen : !llvm.ptr
  nvvm.prefetch level = L2, %loc : !llvm.ptr<5>
  nvvm.prefetch level = L1 uniform, %gen : !llvm.ptr
  nvvm.prefetch level = L2, evict_priority = evict_last, %glob : !llvm.ptr<1>
  nvvm.prefetch level = L2, evict_priority = evict_normal, %glob : !llvm.ptr<1>
  nvvm.prefetch tensormap, %gen : !llvm.ptr
  nvvm.prefetch tensormap, %const : !llvm.ptr<4>
  nvvm.prefetch tensormap in_param_space, %gen : !llvm.ptr
  nvvm.prefetch tensormap, %gen, predicate = %p : !llvm.ptr, i1
  %0 = nvvm.convert.f32x2.to.f16x2 %f, %f {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xf16>
  %1 = nvvm.convert.f32x2.to.f16x2 %f, %f {rnd = #nvvm.fp_rnd_mode<rz>, sat = #nvvm.sat_mode<satfinite>, relu = true} : vector<2xf16>
  %2 = nvvm.convert.f32x2.to.bf16x2 %f, %f, %r {rnd = #nvvm.fp_rnd_mode<rs>} : vector<2xbf16>
  %3 = nvvm.convert.f32x2.to.bf16x2 %f, %f {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
  llvm.return
}
