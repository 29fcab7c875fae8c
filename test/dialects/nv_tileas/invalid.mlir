// RUN: tileas-opt %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

"test.op"() {a = #nv_tileas.cta_layout<ctas_per_cluster = [], split = [], order = []>} : () -> ()
// CHECK: a CTA layout needs at least one dimension

// -----

"test.op"() {a = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2], order = [1, 0]>} : () -> ()
// CHECK: ctas_per_cluster, split and order must have the same length

// -----

"test.op"() {a = #nv_tileas.cta_layout<ctas_per_cluster = [4, 1], split = [3, 1], order = [1, 0]>} : () -> ()
// CHECK: split [3, 1] must divide ctas_per_cluster [4, 1]

// -----

"test.op"() {a = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 1]>} : () -> ()
// CHECK: CTA order must be a permutation of 0..1, got [1, 1]

// -----

"test.op"() {a = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [32], warps_per_cta = [4, 1], order = [1, 0]>} : () -> ()
// CHECK: size_per_thread, threads_per_warp, warps_per_cta and order must have the same length

// -----

"test.op"() {a = #nv_tileas.blocked<size_per_thread = [0, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>} : () -> ()
// CHECK: blocked layout sizes must be positive

// -----

"test.op"() {a = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 4], warps_per_cta = [4, 1], order = [1, 0]>} : () -> ()
// CHECK: threads_per_warp [4, 4] must multiply to 32

// -----

"test.op"() {a = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [0, 2]>} : () -> ()
// CHECK: order must be a permutation of 0..1, got [0, 2]

// -----

"test.op"() {a = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>} : () -> ()
// CHECK: CTA layout has rank 1 but the layout has rank 2

// -----

"test.op"() {a = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], cta = 3>} : () -> ()
// CHECK: expected a #nv_tileas.cta_layout

// -----

"test.op"() {a = #nv_tileas.shared<swizzle = 16, order = [1, 0]>} : () -> ()
// CHECK: swizzle must be 0, 32, 64 or 128 bytes, got 16

// -----

"test.op"() {a = #nv_tileas.mma<warps_per_cta = [4], instr_shape = [64, 128, 16]>} : () -> ()
// CHECK: an MMA accumulator layout has rank 2

// -----

"test.op"() {a = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128]>} : () -> ()
// CHECK: instr_shape must be [M, N, K]

// -----

"test.op"() {a = #nv_tileas.mma<warps_per_cta = [4, 0], instr_shape = [64, 128, 16]>} : () -> ()
// CHECK: MMA layout sizes must be positive

// -----

"test.op"() {a = !nv_tileas.tiled_view<0x64xf16>} : () -> ()
// CHECK: a tiled view needs a static, non-empty shape

// -----

"test.op"() {a = !nv_tileas.pipeline<0, tensor<64xf16>>} : () -> ()
// CHECK: pipeline depth must be positive, got 0

// -----

"test.op"() {a = !nv_tileas.pipeline_iterator<reader, index>} : () -> ()
// CHECK: a pipeline iterator is a `producer` or `consumer` one, got `reader`

// -----

"test.op"() {a = !nv_tileas.pipeline<2, tensor<64xf16, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>>} : () -> ()
// CHECK: layout nv_tileas.shared has rank 2 but the tile has rank 1

// -----

func.func @f(%t: tensor<64xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>) {
  %c = nv_tileas.convert_layout %t : tensor<64xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>> -> tensor<64xf32>
  func.return
}
// CHECK: layout nv_tileas.shared has rank 2 but the tile has rank 1

// -----

"nv_tileas.kernel"() <{sym_name = "k", function_type = (i32) -> ()}> ({
^bb0(%a: i64):
  nv_tileas.return
}) {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} : () -> ()
// CHECK: entry block arguments do not match the function input types

// -----

"nv_tileas.kernel"() <{sym_name = "k", function_type = () -> i32}> ({
  nv_tileas.return
}) {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} : () -> ()
// CHECK: a kernel returns no values

// -----

nv_tileas.kernel @k() {
  nv_tileas.return
}
// CHECK: expects a 'nv_tileaa.kernel_spec' attribute

// -----

func.func @f() {
  nv_tileas.return
}
// CHECK: 'nv_tileas.return' expects parent op 'nv_tileas.kernel'

// -----

func.func @f(%t: tensor<64x64xf32>) {
  %c = nv_tileas.convert_layout %t : tensor<64x64xf32> -> tensor<64x32xf32>
  func.return
}
// CHECK: source and result must have the same shape and element type

// -----

func.func @f(%t: tensor<1x64xf32>) {
  %b = nv_tileas.broadcast %t : tensor<1x64xf32> -> tensor<128x64xf16>
  func.return
}
// CHECK: source and result must have the same element type

// -----

func.func @f(%t: tensor<2x64xf32>) {
  %b = nv_tileas.broadcast %t : tensor<2x64xf32> -> tensor<128x64xf32>
  func.return
}
// CHECK: cannot broadcast shape [2, 64] to [128, 64]: dimensions must be 1 or equal

// -----

func.func @f(%t: tensor<64xf32>) {
  %e = nv_tileas.expand_dim %t axis = 0 : tensor<64xf32> -> tensor<1x64xf16>
  func.return
}
// CHECK: source and result must have the same element type

// -----

func.func @f(%t: tensor<64xf32>) {
  %e = nv_tileas.expand_dim %t axis = 3 : tensor<64xf32> -> tensor<1x64xf32>
  func.return
}
// CHECK: axis 3 is out of range for rank 1

// -----

func.func @f(%t: tensor<64xf32>) {
  %e = nv_tileas.expand_dim %t axis = 0 : tensor<64xf32> -> tensor<64x1xf32>
  func.return
}
// CHECK: expected result shape [1, 64], got [64, 1]

// -----

func.func @f(%t: tensor<64x64xf32>, %b: tensor<64x64xf16>) {
  %w = nv_tileas.copy %t, %b : tensor<64x64xf32> -> tensor<64x64xf16>
  func.return
}
// CHECK: source and destination must have the same shape and element type

// -----

func.func @f(%v: !nv_tileas.tiled_view<1024x1024xf16>, %i: index) {
  %t = nv_tileas.tiled_load %v[%i] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<64x64xf16>
  func.return
}
// CHECK: expected 2 coordinates for a rank-2 view, got 1

// -----

func.func @f(%v: !nv_tileas.tiled_view<1024x1024xf16>, %i: index) {
  %t = nv_tileas.tiled_load %v[%i, %i] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<64xf16>
  func.return
}
// CHECK: the tile and the view must have the same rank

// -----

func.func @f(%v: !nv_tileas.tiled_view<1024x1024xf16>, %i: index) {
  %t = nv_tileas.tiled_load %v[%i, %i] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<64x64xf32>
  func.return
}
// CHECK: the tile and the view must have the same element type

// -----

func.func @f(%v: !nv_tileas.tiled_view<32x1024xf16>, %i: index) {
  %t = nv_tileas.tiled_load %v[%i, %i] : !nv_tileas.tiled_view<32x1024xf16> -> tensor<64x64xf16>
  func.return
}
// CHECK: tile [64, 64] does not fit in view [32, 1024]

// -----

func.func @f(%v: !nv_tileas.tiled_view<1024x1024xf16>, %i: index) {
  %t = nv_tileas.tiled_load %v[%i, %i] box = [64] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<64x64xf16>
  func.return
}
// CHECK: box must have one entry per tile dimension

// -----

func.func @f(%v: !nv_tileas.tiled_view<1024x1024xf16>, %i: index, %t: tensor<512x64xf16>) {
  nv_tileas.tiled_store %t, %v[%i, %i] box = [512, 64] : tensor<512x64xf16> -> !nv_tileas.tiled_view<1024x1024xf16>
  func.return
}
// CHECK: box [512, 64] must divide the tile [512, 64] with entries between 1 and 256

// -----

func.func @f(%v: !nv_tileas.tiled_view<1024x1024xf16>, %i: index) {
  %t = nv_tileas.tiled_load %v[%i, %i] box = [48, 64] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<64x64xf16>
  func.return
}
// CHECK: box [48, 64] must divide the tile [64, 64] with entries between 1 and 256

// -----

func.func @f(%v: !nv_tileas.tiled_view<1024x1024xf16>, %i: index) {
  %t = nv_tileas.tiled_load %v[%i, %i] vec_size = 3 : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<64x64xf16>
  func.return
}
// CHECK: vec_size must be 1, 2, 4, 8 or 16, got 3

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xf16, #sa>, %b: tensor<32x128xf16, #sb>, %c: tensor<128x128xf32>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<32x128xf16, #sb> -> tensor<128x128xf32>
  func.return
}
// CHECK: expected A: MxK, B: KxN and C: MxN, got [128, 64], [32, 128], [128, 128]

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xbf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<128x128xf32>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<128x64xbf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32>
  func.return
}
// CHECK: A has element type bf16 but the atom expects f16

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<128x128xf16>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf16>
  func.return
}
// CHECK: C has element type f16 but the atom expects f32

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<128x128xf32>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = -1 : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32>
  func.return
}
// CHECK: wait_group must be non-negative

// -----

func.func @f(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.universal_fma<f32, f32, f32> wait_group = 1 : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  func.return
}
// CHECK: wait_group applies only to sm90 wgmma atoms

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<96x64xf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<96x128xf32>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<96x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<96x128xf32>
  func.return
}
// CHECK: tile M = 96 is not a multiple of the atom's M = 64

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<64x24xf16, #sa>, %b: tensor<24x128xf16, #sb>, %c: tensor<64x128xf32>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x24xf16, #sa>, tensor<24x128xf16, #sb> -> tensor<64x128xf32>
  func.return
}
// CHECK: tile K = 24 is not a multiple of the atom's K = 16

// -----

#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<64x64xf16>, %b: tensor<64x128xf16, #sb>, %c: tensor<64x128xf32>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x64xf16>, tensor<64x128xf16, #sb> -> tensor<64x128xf32>
  func.return
}
// CHECK: frag_kind = ss needs A in shared memory (#nv_tileas.shared)

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<64x64xf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<64x128xf32>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = rs> wait_group = 0 : tensor<64x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<64x128xf32>
  func.return
}
// CHECK: frag_kind = rs needs A in registers

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
func.func @f(%a: tensor<64x64xf16, #sa>, %b: tensor<64x128xf16>, %c: tensor<64x128xf32>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x64xf16, #sa>, tensor<64x128xf16> -> tensor<64x128xf32>
  func.return
}
// CHECK: an sm90 wgmma atom reads B from shared memory (#nv_tileas.shared)

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<64x64xf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<64x128xf32>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<64x128xf32>
  func.return
}
// CHECK: A is k-major in the atom but its shared order [0, 1] makes it mn-major

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<64x64xf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<64x128xf32>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, mn), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<64x128xf32>
  func.return
}
// CHECK: B is mn-major in the atom but its shared order [0, 1] makes it k-major

// -----

"nv_tileas.async.pipeline.agent_switch"() <{num_warps = array<i32: 4>, warp_id = array<i32: 0, 4>, agent_strides = array<i32: 1>}> ({
}) : () -> ()
// CHECK: num_warps, warp_id and agent_strides need one entry per region (1), got 1, 2 and 1

// -----

nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1] {
^bb0:
  cf.br ^bb1
^bb1:
  cf.br ^bb0
}
// CHECK: 'nv_tileas.async.pipeline.agent_switch' does not contain single-block regions

// -----

nv_tileas.async.pipeline.agent_switch num_warps = [0] warp_id = [0] agent_strides = [1] {
  "test.op"() : () -> ()
}
// CHECK: agent #0: num_warps and agent_strides must be positive

// -----

nv_tileas.async.pipeline.agent_switch num_warps = [4, 4] warp_id = [0, 2] agent_strides = [1, 1] {
  "test.op"() : () -> ()
} {
  "test.op"() : () -> ()
}
// CHECK: agent #1 starts at warp 2, inside the warps before it (which end at 4)

// -----

nv_tileas.async.pipeline.agent_switch num_warps = [1, 4] warp_id = [0, 2] agent_strides = [1, 1] {
  "test.op"() : () -> ()
} {
  "test.op"() : () -> ()
}
// CHECK: agent #1 of 4 warps starts at warp 2, not a multiple of 4

// -----

nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4] warp_id = [0, 1, 2] agent_strides = [1, 3, 1] {
  "test.op"() : () -> ()
} {
} {
  "test.op"() : () -> ()
}
// CHECK: agent #2 starts at warp 2, inside the warps before it (which end at 4)

// -----

nv_tileas.async.pipeline.warp_specialize agent_strides = [1] {
  "test.op"() : () -> ()
} {
  "test.op"() : () -> ()
}
// CHECK: agent_strides needs one entry per region (2), got 1

// -----

nv_tileas.async.pipeline.warp_specialize agent_strides = [0] {
  "test.op"() : () -> ()
}
// CHECK: agent_strides must be positive

// -----

#s = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
func.func @f(%p: !nv_tileas.pipeline<2, tensor<64x64xf16, #s>>) {
  %slot = nv_tileas.async.pipeline.producer_acquire %p : !nv_tileas.pipeline<2, tensor<64x64xf16, #s>> -> tensor<64x64xf32, #s>
  func.return
}
// CHECK: the slot types (tensor<64x64xf32, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>) are not the pipeline's (tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>)

// -----

func.func @f(%p: !nv_tileas.pipeline<2, tensor<64x64xf16>>) {
  %slot = nv_tileas.async.pipeline.consumer_acquire %p : !nv_tileas.pipeline<2, tensor<64x64xf16>> -> tensor<32x64xf16>
  func.return
}
// CHECK: the slot types (tensor<32x64xf16>) are not the pipeline's (tensor<64x64xf16>)

// -----

func.func @f(%p: !nv_tileas.pipeline<2, tensor<64x64xf16>>) {
  nv_tileas.async.pipeline.consume_one %p : !nv_tileas.pipeline<2, tensor<64x64xf16>> -> () {
  ^bb0(%slot: tensor<64x64xf32>):
    nv_tileas.async.pipeline.yield
  }
  func.return
}
// CHECK: the body takes one argument per slot, of types (tensor<64x64xf16>)

// -----

func.func @f(%p: !nv_tileas.pipeline<2, tensor<64x64xf16>, tensor<64x32xf16>>) {
  %a = nv_tileas.async.pipeline.consumer_acquire %p : !nv_tileas.pipeline<2, tensor<64x64xf16>, tensor<64x32xf16>> -> tensor<64x64xf16>
  func.return
}
// CHECK: the slot types (tensor<64x64xf16>) are not the pipeline's (tensor<64x64xf16>, tensor<64x32xf16>)

// -----

func.func @f(%p: !nv_tileas.pipeline<2, tensor<64x64xf16>>) {
  nv_tileas.async.pipeline.consume_one %p : !nv_tileas.pipeline<2, tensor<64x64xf16>> -> () {
  ^bb0(%slot: tensor<64x64xf16>):
    cf.br ^bb0(%slot : tensor<64x64xf16>)
  }
  func.return
}
// CHECK: the body must end with nv_tileas.async.pipeline.yield

// -----

func.func @f(%p: !nv_tileas.pipeline<2, tensor<64x64xf16>>) {
  %r = nv_tileas.async.pipeline.consume_one %p : !nv_tileas.pipeline<2, tensor<64x64xf16>> -> (f32) {
  ^bb0(%slot: tensor<64x64xf16>):
    nv_tileas.async.pipeline.yield
  }
  func.return
}
// CHECK: the yielded types must match the result types

// -----

func.func @f() {
  nv_tileas.async.pipeline.yield
}
// CHECK: 'nv_tileas.async.pipeline.yield' expects parent op 'nv_tileas.async.pipeline.consume_one'

// -----

%bar = nv_tileas.mbarrier.create arrive_count = 0
// CHECK: arrive_count must be positive

// -----

%bar = nv_tileas.mbarrier.create arrive_count = 1
nv_tileas.mbarrier.expect_tx %bar bytes = 1048576
// CHECK: bytes must be between 0 and 1048575, got 1048576

// -----

%a = "nv_tileas.alloc_tensor"() : () -> i32
// CHECK: i32 should be of base attribute tensor

// -----

%x, %y = "nv_tileas.cancel_next_program_id"() : () -> (i32, i32)
// CHECK: Expected 3 results, but got 2

// -----

func.func @f(%t: tensor<64xf32>, %b: tensor<64xf32>) {
  %w = "nv_tileas.copy"(%t, %b) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf16>
  func.return
}
// CHECK: attribute tensor<64xf32> expected from variable 'T', but got tensor<64xf16>

// -----

func.func @f(%t: tensor<64xf32>) {
  %p = "nv_tileas.pragma"(%t) <{pragma = "x"}> : (tensor<64xf32>) -> tensor<32xf32>
  func.return
}
// CHECK: attribute tensor<64xf32> expected from variable 'T', but got tensor<32xf32>

// -----

func.func @f(%p: i32) {
  nv_tileas.async.pipeline.producer_commit %p : i32
  func.return
}
// CHECK: i32 should be of base attribute nv_tileas.pipeline

// -----

func.func @f(%b: i32) {
  "nv_tileas.async.arrive"(%b) : (i32) -> ()
  func.return
}
// CHECK: i32 should be of base attribute nv_tileas.mbarrier

// -----

%bar = nv_tileas.mbarrier.create arrive_count = 1
%phase = "test.op"() : () -> i32
"nv_tileas.mbarrier.wait"(%bar, %phase) : (!nv_tileas.mbarrier, i32) -> ()
// CHECK: Expected attribute i1 but got i32

// -----

func.func @f() {
  %t = nv_tileas.alloc_tensor : tensor<128xf32, #nv_tileas.tmem>
  func.return
}
// CHECK: layout nv_tileas.tmem has rank 2 but the tile has rank 1

// -----

"test.op"() {a = #nv_tileas.tmem<cta = #nv_tileas.cta_layout<ctas_per_cluster = [2], split = [2], order = [0]>>} : () -> ()
// CHECK: CTA layout has rank 1 but the layout has rank 2

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<128x128xf32, #nv_tileas.tmem>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 1 : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #nv_tileas.tmem>
  func.return
}
// CHECK: wait_group applies only to sm90 wgmma atoms

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xf16>, %b: tensor<64x128xf16, #sb>, %c: tensor<128x128xf32, #nv_tileas.tmem>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #nv_tileas.tmem>
  func.return
}
// CHECK: an sm100 mma atom reads A and B from shared memory (#nv_tileas.shared)

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<128x128xf32>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32>
  func.return
}
// CHECK: an sm100 mma atom accumulates in tensor memory: C must be a #nv_tileas.tmem tile

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xbf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<128x128xf32, #nv_tileas.tmem>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xbf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #nv_tileas.tmem>
  func.return
}
// CHECK: A has element type bf16 but the atom expects f16

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<256x64xf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<256x128xf32, #nv_tileas.tmem>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<256x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<256x128xf32, #nv_tileas.tmem>
  func.return
}
// CHECK: with a cta_group = 1 atom of M = 128 each CTA holds 128 rows of A and C, got 256 and 256

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xf16, #sa>, %b: tensor<64x192xf16, #sb>, %c: tensor<128x192xf32, #nv_tileas.tmem>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x192xf16, #sb> -> tensor<128x192xf32, #nv_tileas.tmem>
  func.return
}
// CHECK: tile N = 192 is not a multiple of the atom's N = 128

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xf16, #sa>, %b: tensor<64x128xf16, #sb>, %c: tensor<128x128xf32, #nv_tileas.tmem>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<256x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #nv_tileas.tmem>
  func.return
}
// CHECK: with a cta_group = 2 atom each CTA holds 64 of C's 128 columns of B, got 128

// -----

// The shapes checked are each CTA's pieces: here A's split leaves a CTA 64 rows.
#rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #rows>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xf16, #sa>, %b: tensor<64x64xf16, #sb>, %c: tensor<128x128xf32, #nv_tileas.tmem>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<256x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x64xf16, #sb> -> tensor<128x128xf32, #nv_tileas.tmem>
  func.return
}
// CHECK: with a cta_group = 2 atom of M = 256 each CTA holds 128 rows of A and C, got 64 and 128

// -----

#rows = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0], cta = #rows>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<129x64xf16, #sa>, %b: tensor<64x64xf16, #sb>, %c: tensor<128x128xf32, #nv_tileas.tmem>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<256x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 2> wait_group = 0 : tensor<129x64xf16, #sa>, tensor<64x64xf16, #sb> -> tensor<128x128xf32, #nv_tileas.tmem>
  func.return
}
// CHECK: a tile of shape [129, 64] cannot be split [2, 1] ways

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xf16, #sa>, %b: tensor<32x128xf16, #sb>, %c: tensor<128x128xf32, #nv_tileas.tmem>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<32x128xf16, #sb> -> tensor<128x128xf32, #nv_tileas.tmem>
  func.return
}
// CHECK: A has K = 64 and B has K = 32: both must be the same multiple of the atom's K = 16

// -----

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
func.func @f(%a: tensor<128x64xf16, #sb>, %b: tensor<64x128xf16, #sb>, %c: tensor<128x128xf32, #nv_tileas.tmem>) {
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16, #sb>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #nv_tileas.tmem>
  func.return
}
// CHECK: A is k-major in the atom but its shared order [0, 1] makes it mn-major
