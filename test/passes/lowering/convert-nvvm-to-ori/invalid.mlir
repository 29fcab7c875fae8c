// Every diagnostic of convert-nvvm-to-ori, at the op it is about.
// RUN: not tileas-opt %s --split-input-file -p convert-nvvm-to-ori -o /dev/null 2>&1 | filecheck %s

llvm.func @sine(%x: f32) -> f32 {
  %y = llvm.intr.sin(%x) : (f32) -> f32
  llvm.return %y : f32
}
// CHECK: invalid.mlir:5:3: error: convert-nvvm-to-ori: unsupported op 'llvm.intr.sin'
// -----

llvm.func @vector_param(%v: vector<4xi1>) {
  llvm.return
}
// CHECK: invalid.mlir:11:1: error: convert-nvvm-to-ori: unsupported type 'vector<4xi1>'
// -----

llvm.func @vector_constant() {
  %c = llvm.mlir.constant(dense<1> : vector<4xi32>) : vector<4xi32>
  llvm.return
}
// CHECK: invalid.mlir:18:3: error: convert-nvvm-to-ori: expected a scalar type, got 'vector<4xi32>'
// -----

llvm.func @mistyped_constant() -> f32 {
  %c = llvm.mlir.constant(1 : i32) : f32
  llvm.return %c : f32
}
// CHECK: invalid.mlir:25:3: error: convert-nvvm-to-ori: unsupported constant 1 : i32
// -----

func.func @predicate_division(%a: i1, %b: i1) -> i1 {
  %c = arith.divsi %a, %b : i1
  func.return %c : i1
}
// CHECK: invalid.mlir:32:3: error: convert-nvvm-to-ori: 'arith.divsi' on i1 is not supported
// -----

func.func @half_division(%a: f16, %b: f16) -> f16 {
  %c = arith.divf %a, %b : f16
  func.return %c : f16
}
// CHECK: invalid.mlir:39:3: error: convert-nvvm-to-ori: PTX has no f16 division
// -----

func.func @double_maximum(%a: f64, %b: f64) -> f64 {
  %c = arith.maximumf %a, %b : f64
  func.return %c : f64
}
// CHECK: invalid.mlir:46:3: error: convert-nvvm-to-ori: PTX has no NaN-propagating f64 min/max
// -----

llvm.func @half_copysign(%a: f16, %b: f16) -> f16 {
  %c = llvm.intr.copysign(%a, %b) : (f16, f16) -> f16
  llvm.return %c : f16
}
// CHECK: invalid.mlir:53:3: error: convert-nvvm-to-ori: PTX has no f16 copysign
// -----

llvm.func @bf16_sqrt(%a: bf16) -> bf16 {
  %c = llvm.intr.sqrt(%a) : (bf16) -> bf16
  llvm.return %c : bf16
}
// CHECK: invalid.mlir:60:3: error: convert-nvvm-to-ori: PTX has no bf16 square root
// -----

llvm.func @bad_icmp(%a: i32) -> i1 {
  %c = "llvm.icmp"(%a, %a) <{predicate = 42 : i64}> : (i32, i32) -> i1
  llvm.return %c : i1
}
// CHECK: invalid.mlir:67:3: error: 'llvm.icmp' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
// -----

func.func @bad_cmpf(%a: f32) -> i1 {
  %c = "arith.cmpf"(%a, %a) <{predicate = 16 : i64, fastmath = #arith.fastmath<none>}> : (f32, f32) -> i1
  func.return %c : i1
}
// CHECK: invalid.mlir:74:3: error: 'arith.cmpf' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
// -----

llvm.func @int_result(%a: i32) -> i32 {
  %c = "llvm.sitofp"(%a) : (i32) -> i32
  llvm.return %c : i32
}
// CHECK: invalid.mlir:81:3: error: convert-nvvm-to-ori: 'llvm.sitofp' on 'i32' is not supported
// -----

llvm.func @float_source(%a: f32) -> f32 {
  %c = "llvm.sitofp"(%a) : (f32) -> f32
  llvm.return %c : f32
}
// CHECK: invalid.mlir:88:3: error: convert-nvvm-to-ori: 'llvm.sitofp' from 'f32' is not supported
// -----

llvm.func @wide_bitcast(%a: f32) -> i64 {
  %c = "llvm.bitcast"(%a) : (f32) -> i64
  llvm.return %c : i64
}
// CHECK: invalid.mlir:95:3: error: convert-nvvm-to-ori: cannot bitcast 'f32' to 'i64'
// -----

llvm.func @predicate_pointer(%a: i1) -> !llvm.ptr {
  %c = "llvm.inttoptr"(%a) : (i1) -> !llvm.ptr
  llvm.return %c : !llvm.ptr
}
// CHECK: invalid.mlir:102:3: error: convert-nvvm-to-ori: 'llvm.inttoptr' from 'i1' to '!llvm.ptr' is not supported
// -----

llvm.func @space_two(%p: !llvm.ptr<2>) -> i32 {
  %v = llvm.load %p : !llvm.ptr<2> -> i32
  llvm.return %v : i32
}
// CHECK: invalid.mlir:109:3: error: convert-nvvm-to-ori: unsupported address space in '!llvm.ptr<2>'
// -----

llvm.func @atomic(%p: !llvm.ptr<1>, %v: i32) {
  "llvm.store"(%v, %p) <{ordering = 5 : i64}> : (i32, !llvm.ptr<1>) -> ()
  llvm.return
}
// CHECK: invalid.mlir:116:3: error: convert-nvvm-to-ori: atomic 'llvm.store' (ordering 5) is not supported
// -----

llvm.func @callee() {
  llvm.return
}
llvm.func @function_pointer() -> !llvm.ptr {
  %f = "llvm.mlir.addressof"() <{global_name = @callee}> : () -> !llvm.ptr
  llvm.return %f : !llvm.ptr
}
// CHECK: invalid.mlir:126:3: error: convert-nvvm-to-ori: taking the address of function 'callee' is not supported
// -----

llvm.func @dangling() -> !llvm.ptr<1> {
  %g = llvm.mlir.addressof @nowhere : !llvm.ptr<1>
  llvm.return %g : !llvm.ptr<1>
}
// CHECK: invalid.mlir:133:3: error: convert-nvvm-to-ori: unknown global '@nowhere'
// -----

llvm.mlir.global internal @in_shared() {addr_space = 3 : i32} : i32
llvm.func @generic_shared() -> !llvm.ptr {
  %g = llvm.mlir.addressof @in_shared : !llvm.ptr
  llvm.return %g : !llvm.ptr
}
// CHECK: invalid.mlir:141:3: error: convert-nvvm-to-ori: a generic pointer to a non-generic global needs an address space cast
// -----

llvm.func @dynamic_alloca(%n: i32) {
  %a = llvm.alloca %n x f32 : (i32) -> !llvm.ptr
  llvm.return
}
// CHECK: invalid.mlir:148:3: error: convert-nvvm-to-ori: only allocas of a constant, positive size are supported
// -----

llvm.func @shared_alloca() {
  %one = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.alloca %one x f32 : (i32) -> !llvm.ptr<3>
  llvm.return
}
// CHECK: invalid.mlir:156:3: error: convert-nvvm-to-ori: an alloca in address space 3 is not supported
// -----

llvm.mlir.global internal @local_global() {addr_space = 5 : i32} : i32
// CHECK: invalid.mlir:162:1: error: convert-nvvm-to-ori: globals in address space 5 are not supported
// -----

llvm.mlir.global internal @computed() {addr_space = 1 : i32} : i32 {
  %c = llvm.mlir.constant(3 : i32) : i32
  llvm.return %c : i32
}
// CHECK: invalid.mlir:166:1: error: convert-nvvm-to-ori: globals with an initializer region are not supported
// -----

llvm.mlir.global internal @vector_global() {addr_space = 1 : i32} : vector<4xi1>
// CHECK: invalid.mlir:173:1: error: convert-nvvm-to-ori: unsupported type 'vector<4xi1>'
// -----

llvm.mlir.global internal @short(dense<[1, 2]> : tensor<2xi32>) {addr_space = 1 : i32} : !llvm.array<3 x i32>
// CHECK: invalid.mlir:177:1: error: convert-nvvm-to-ori: unsupported initializer dense<[1, 2]> : tensor<2xi32> for '!llvm.array<3 x i32>'
// -----

llvm.mlir.global internal @text("hi") {addr_space = 1 : i32} : !llvm.array<4 x i8>
// CHECK: invalid.mlir:181:1: error: convert-nvvm-to-ori: the string initializer has 2 bytes, not 4
// -----

llvm.mlir.global internal @pair(dense<[1, 2]> : tensor<2xi32>) {addr_space = 1 : i32} : !llvm.struct<(i32, f32)>
// CHECK: invalid.mlir:185:1: error: convert-nvvm-to-ori: initializers of '!llvm.struct<(i32, f32)>' are not supported
// -----

llvm.mlir.global internal @smem_init(5 : i32) {addr_space = 3 : i32} : i32
// CHECK: invalid.mlir:189:1: error: convert-nvvm-to-ori: shared memory cannot be initialized
// -----

llvm.func @indirect(%f: !llvm.ptr) {
  llvm.call %f() : !llvm.ptr, () -> ()
  llvm.return
}
// CHECK: invalid.mlir:194:3: error: convert-nvvm-to-ori: indirect calls are not supported
// -----

llvm.func @kernel() attributes {nvvm.kernel} {
  llvm.return
}
llvm.func @launcher() {
  llvm.call @kernel() : () -> ()
  llvm.return
}
// CHECK: invalid.mlir:204:3: error: convert-nvvm-to-ori: cannot call the kernel '@kernel'
// -----

llvm.func @tma_im2col_w(%map: !llvm.ptr, %dst: !llvm.ptr<7>, %bar: !llvm.ptr<3>, %x: i32, %o: i16) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %x, %x] im2col[%o, %o] {mode = #nvvm.tma_load_mode<im2col_w>} : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}
// CHECK: invalid.mlir:211:3: error: convert-nvvm-to-ori: TMA loads in 'im2col_w' mode are not supported
// -----

llvm.func @tma_scatter(%map: !llvm.ptr, %src: !llvm.ptr<3>, %x: i32) {
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %x, %x, %x, %x] {mode = #nvvm.tma_store_mode<tile_scatter4>} : !llvm.ptr, <3>
  llvm.return
}
// CHECK: invalid.mlir:218:3: error: convert-nvvm-to-ori: TMA stores in 'tile_scatter4' mode are not supported
// -----

llvm.func @extract_out_of_range(%s: !llvm.struct<(f32, i32)>) -> f32 {
  %x = "llvm.extractvalue"(%s) <{position = array<i64: 2>}> : (!llvm.struct<(f32, i32)>) -> f32
  llvm.return %x : f32
}
// CHECK: invalid.mlir:225:3: error: convert-nvvm-to-ori: position [2] is out of range for '!llvm.struct<(f32, i32)>'
// -----

llvm.func @insert_out_of_range(%s: !llvm.struct<(f32, i32)>, %v: f32) -> !llvm.struct<(f32, i32)> {
  %x = "llvm.insertvalue"(%s, %v) <{position = array<i64: 0, 1>}> : (!llvm.struct<(f32, i32)>, f32) -> !llvm.struct<(f32, i32)>
  llvm.return %x : !llvm.struct<(f32, i32)>
}
// CHECK: invalid.mlir:232:3: error: convert-nvvm-to-ori: position [0, 1] is out of range for '!llvm.struct<(f32, i32)>'
// -----

llvm.func @f16_elements(%da: i64, %db: i64, %acc: !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>) -> !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)> {
  %d = nvvm.wgmma.mma_async %da, %db, %acc, #nvvm.shape<m = 64, n = 32, k = 16>, D [<f16>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)> -> !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>
  llvm.return %d : !llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>
}
// CHECK: invalid.mlir:239:3: error: convert-nvvm-to-ori: a f16 accumulator needs b32-register elements (an f16 accumulator packs two values per register: use vector<2xf16> or i32 elements), not '!llvm.struct<(f16, f16, f16, f16, f16, f16, f16, f16)>'
// -----

llvm.func @asm_output_x(%x: i32, %y: i64) {
  %r = llvm.inline_asm "mov.b32 $0, 1;", "=x"  : () -> i32
  llvm.return
}
// CHECK: invalid.mlir:246:3: error: convert-nvvm-to-ori: unsupported inline asm output constraint '=x'
// -----

llvm.func @asm_memory(%x: i32, %y: i64) {
  llvm.inline_asm "st.u32 [$0], 1;", "m" %x : (i32) -> ()
  llvm.return
}
// CHECK: invalid.mlir:253:3: error: convert-nvvm-to-ori: unsupported inline asm constraint 'm'
// -----

llvm.func @asm_no_result(%x: i32, %y: i64) {
  llvm.inline_asm "mov.b32 $0, 1;", "=r"  : () -> ()
  llvm.return
}
// CHECK: invalid.mlir:260:3: error: convert-nvvm-to-ori: inline asm has 1 outputs but no result
// -----

llvm.func @asm_output_count(%x: i32, %y: i64) {
  %r = llvm.inline_asm "mov.b32 $0, 1;", "=r"  : () -> !llvm.struct<(i32, i32)>
  llvm.return
}
// CHECK: invalid.mlir:267:3: error: convert-nvvm-to-ori: inline asm has 1 outputs for a result of 2 values
// -----

llvm.func @asm_output_kind(%x: i32, %y: i64) {
  %r = llvm.inline_asm "mov.b32 $0, 1;", "=f"  : () -> i32
  llvm.return
}
// CHECK: invalid.mlir:274:3: error: convert-nvvm-to-ori: inline asm output constraint '=f' does not fit a 'b32' register
// -----

llvm.func @asm_input_count(%x: i32, %y: i64) {
  %r = llvm.inline_asm "add.s32 $0, $1, 1;", "=r,r" %x, %x : (i32, i32) -> i32
  llvm.return
}
// CHECK: invalid.mlir:281:3: error: convert-nvvm-to-ori: inline asm has 1 input constraints for 2 operands
// -----

llvm.func @asm_immediate(%x: i32, %y: i64) {
  %r = llvm.inline_asm "add.s32 $0, $0, $1;", "=r,n" %x : (i32) -> i32
  llvm.return
}
// CHECK: invalid.mlir:288:3: error: convert-nvvm-to-ori: an inline asm 'n' operand must be an integer constant
// -----

llvm.func @asm_tied(%x: i32, %y: i64) {
  %r = llvm.inline_asm "add.s32 $0, $0, 1;", "=r,1" %x : (i32) -> i32
  llvm.return
}
// CHECK: invalid.mlir:295:3: error: convert-nvvm-to-ori: inline asm input is tied to missing output 1
// -----

llvm.func @asm_input_kind(%x: i32, %y: i64) {
  %r = llvm.inline_asm "cvta.to.global.u64 $0, $1;", "=l,l" %x : (i32) -> i64
  llvm.return
}
// CHECK: invalid.mlir:302:3: error: convert-nvvm-to-ori: inline asm input constraint 'l' does not fit a 'b32' register
// -----

llvm.func @asm_modifier(%x: i32, %y: i64) {
  %r = llvm.inline_asm "mov.b32 ${0:x}, 1;", "=r"  : () -> i32
  llvm.return
}
// CHECK: invalid.mlir:309:3: error: convert-nvvm-to-ori: unsupported inline asm operand reference '${0:x}'
// -----

llvm.func @asm_reference(%x: i32, %y: i64) {
  %r = llvm.inline_asm "add.s32 $0, $3, 1;", "=r,r" %x : (i32) -> i32
  llvm.return
}
// CHECK: invalid.mlir:316:3: error: convert-nvvm-to-ori: inline asm refers to $3 but has 2 operands
// -----

llvm.func @asm_syntax(%x: i32, %y: i64) {
  %r = llvm.inline_asm "frobnicate $0;", "=r"  : () -> i32
  llvm.return
}
// CHECK: invalid.mlir:323:3: error: convert-nvvm-to-ori: cannot read the inline PTX: Not a name of any known instruction: 'frobnicate'
// -----

llvm.func @asm_closes(%x: i32, %y: i64) {
  %r = llvm.inline_asm "mov.b32 $0, 1; } .func other() { ret;", "=r"  : () -> i32
  llvm.return
}
// CHECK: invalid.mlir:330:3: error: convert-nvvm-to-ori: inline PTX must not close the function it is pasted into
// -----

llvm.func @asm_variable(%x: i32, %y: i64) {
  %r = llvm.inline_asm "{ .shared .b32 tmp; mov.b32 $0, 1; }", "=r"  : () -> i32
  llvm.return
}
// CHECK: invalid.mlir:337:3: error: convert-nvvm-to-ori: variables declared inside inline PTX are not supported
// -----

llvm.func @asm_byte_register(%x: i32, %y: i64) {
  %r = llvm.inline_asm "{ .reg .b8 tmp; mov.b32 $0, 1; }", "=r"  : () -> i32
  llvm.return
}
// CHECK: invalid.mlir:344:3: error: convert-nvvm-to-ori: inline PTX registers of type '.b8' are not supported
// -----

llvm.func @"a.b"() {
  llvm.return
}
// CHECK: invalid.mlir:350:1: error: convert-nvvm-to-ori: 'a.b' is not a valid PTX identifier
// -----

llvm.func @variadic(i32, ...)
// CHECK: invalid.mlir:356:1: error: convert-nvvm-to-ori: variadic functions are not supported
// -----

llvm.func @byval_not_type(%p: !llvm.ptr {llvm.byval = 4 : i32, nvvm.grid_constant}) attributes {nvvm.kernel} {
  llvm.return
}
// CHECK: invalid.mlir:360:1: error: convert-nvvm-to-ori: 'llvm.byval' must name the type passed by value
// -----

llvm.func @byval_copy(%p: !llvm.ptr {llvm.byval = i64}) attributes {nvvm.kernel} {
  llvm.return
}
// CHECK: invalid.mlir:366:1: error: convert-nvvm-to-ori: a 'llvm.byval' argument is only supported on a kernel, with 'nvvm.grid_constant' (copying it to local memory is not supported)
// -----

%c = arith.constant 1 : i32
// CHECK: invalid.mlir:372:1: error: convert-nvvm-to-ori: unsupported op 'arith.constant' at module level
// -----

llvm.func @tcgen05_scale(%d: !llvm.ptr<6>, %a: i64, %b: i64, %id: i32, %en: i1, %s: i64) {
  nvvm.tcgen05.mma %d, %a, %b, %id, %en scale = %s {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1, i64)
  llvm.return
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:3: error: convert-nvvm-to-ori: the scale input of tcgen05.mma must be a constant (an immediate)
// -----

llvm.func @tcgen05_offset(%t: !llvm.ptr<6>, %off: i64) {
  %x = nvvm.tcgen05.ld %t, %off {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : i32
  llvm.return
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:3: error: convert-nvvm-to-ori: the offset of a .16x32bx2 tensor-memory access must be a constant
// -----

llvm.func @tcgen05_commit(%bar: !llvm.ptr, %mask: i16) {
  nvvm.tcgen05.commit %bar, multicast_mask = %mask : !llvm.ptr, i16
  llvm.return
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:3: error: convert-nvvm-to-ori: a multicast tcgen05.commit needs a shared-memory mbarrier
// -----

llvm.func @tcgen05_cp_format(%t: !llvm.ptr<6>, %desc: i64) {
  nvvm.tcgen05.cp %t, %desc {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>, srcFormat = #nvvm.tcgen05_cp_src_fmt<b6x16_p32>}
  llvm.return
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:3: error: convert-nvvm-to-ori: tcgen05.cp with a source format (decompression) is not supported
