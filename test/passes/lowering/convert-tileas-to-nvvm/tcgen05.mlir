// nv_tileas.dot with an sm100 atom: one thread issues the tcgen05.mma of each (n-tile,
// k-tile) after a tcgen05.fence::after_thread_sync, with sm_100 shared-memory
// descriptors (bits 46-48 = 0b001, the sm_100 swizzle codes), the atom's instruction
// descriptor, and enable-input-d: the accumulator's flag on the first K step (false after
// a zero constant was copied into it), true after.
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x64xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<64x256xf16, #sb>
    %c = nv_tileas.alloc_tensor : tensor<128x256xf32, #tm>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32, #tm>
    %z = nv_tileas.copy %zero, %c : tensor<128x256xf32, #tm> -> tensor<128x256xf32, #tm>
    %d = nv_tileas.dot %a, %b, %z atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, mn), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0 : tensor<128x64xf16, #sa>, tensor<64x256xf16, #sb> -> tensor<128x256xf32, #tm>
    nv_tileas.return
  }
}

// The accumulator: the kernel's tensor memory from column 0, cleared (flag false).
// CHECK-LABEL: llvm.func @k()
// CHECK:       %[[BASE:.*]] = llvm.load %{{.*}} {nv_tileas.tmem_base} : !llvm.ptr<3> -> !llvm.ptr<6>
// CHECK:       %[[FALSE:.*]] = llvm.mlir.constant(false) : i1
// CHECK:       %[[ACC:.*]] = llvm.insertvalue %[[FALSE]], %{{.*}}[1] : !llvm.struct<(!llvm.ptr<6>, i1)>
// CHECK-NEXT:  %[[D:.*]] = llvm.extractvalue %[[ACC]][0] : !llvm.struct<(!llvm.ptr<6>, i1)>
// CHECK-NEXT:  %[[HOLDS:.*]] = llvm.extractvalue %[[ACC]][1] : !llvm.struct<(!llvm.ptr<6>, i1)>
// The issuer: the lane elect.sync elects in the CTA's first warp.
// CHECK:       %[[ELECTED:.*]] = nvvm.elect.sync -> i1
// CHECK:       %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:  %[[LEADER:.*]] = arith.andi %[[FIRST]], %[[ELECTED]] : i1
// CHECK-NEXT:  scf.if %[[LEADER]] {
// CHECK-NEXT:    nvvm.tcgen05.fence <after>
// A, k-major with 128-byte rows: LBO 16, SBO 1024, 0b001 in bits 46-48, swizzle 2
// (128B) = 0x4000404000010000; each K step of 16 f16 is 32 bytes further (+2).
// CHECK:         %{{.*}} = llvm.mlir.constant(4611756662049538048) : i64
// CHECK-NEXT:    %[[A0:.*]] = llvm.or %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    %{{.*}} = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %[[A1:.*]] = llvm.add %[[A0]], %{{.*}} : i64
// B, mn-major with 512-byte rows of N: four 128-byte panels of 64 rows (LBO 8192), SBO
// 1024 = 0x4000404002000000; a K step is 16 rows (+128), n-tile 1 two panels (+1024).
// CHECK:         %{{.*}} = llvm.mlir.constant(4611756662083026944) : i64
// CHECK-NEXT:    %[[B0:.*]] = llvm.or %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    %{{.*}} = llvm.mlir.constant(128) : i64
// CHECK-NEXT:    %[[B01:.*]] = llvm.add %[[B0]], %{{.*}} : i64
// CHECK:         %{{.*}} = llvm.mlir.constant(1024) : i64
// CHECK-NEXT:    %[[B10:.*]] = llvm.add %[[B0]], %{{.*}} : i64
// CHECK-NEXT:    %{{.*}} = llvm.mlir.constant(1152) : i64
// CHECK-NEXT:    %[[B11:.*]] = llvm.add %[[B0]], %{{.*}} : i64
// Instruction descriptor: D f32, A / B f16, B transposed (bit 16), N 128, M 128.
// CHECK:         %[[IDESC:.*]] = llvm.mlir.constant(136380432 : i32) : i32
// CHECK-NEXT:    %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
// CHECK-NEXT:    nvvm.tcgen05.mma %[[D]], %[[A0]], %[[B0]], %[[IDESC]], %[[HOLDS]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
// CHECK-NEXT:    nvvm.tcgen05.mma %[[D]], %[[A1]], %[[B01]], %[[IDESC]], %[[TRUE]]
// CHECK-COUNT-2: nvvm.tcgen05.mma %[[D]],
// The second n-tile: D's columns from 128 on.
// CHECK:         %[[COLUMN:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[D1:.*]] = llvm.inttoptr %[[COLUMN]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:    nvvm.tcgen05.mma %[[D1]], %[[A0]], %[[B10]], %[[IDESC]], %[[HOLDS]]
// CHECK-NEXT:    nvvm.tcgen05.mma %[[D1]], %[[A1]], %[[B11]], %[[IDESC]], %[[TRUE]]
// CHECK-COUNT-2: nvvm.tcgen05.mma %[[D1]],
// CHECK-NEXT:  }

// PTX-LABEL: .entry k()
// PTX:         tcgen05.fence::after_thread_sync;
// PTX:         or.b64 	[[A0:%rd[0-9]+]], %rd{{[0-9]+}}, 4611756662049538048;
// PTX:         or.b64 	[[B0:%rd[0-9]+]], %rd{{[0-9]+}}, 4611756662083026944;
// PTX:         tcgen05.mma.cta_group::1.kind::f16 	[%r{{[0-9]+}}], [[A0]], [[B0]], %r{{[0-9]+}}, %p{{[0-9]+}};
// PTX-COUNT-7: tcgen05.mma.cta_group::1.kind::f16

// -----

// The other kinds: tf32, f8f6f4 (e4m3 x e5m2), i8 (s8 x u8 -> s32); K per instruction
// 8, 32, 32.
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#tm = #nv_tileas.tmem
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @kinds() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %at = nv_tileas.alloc_tensor : tensor<128x32xtf32, #sa>
    %bt = nv_tileas.alloc_tensor : tensor<32x64xtf32, #sb>
    %ct = nv_tileas.alloc_tensor : tensor<128x64xf32, #tm>
    %dt = nv_tileas.dot %at, %bt, %ct atom = !cute_nvgpu.sm100.mma<128x64x8, ab_major = (k, k), elem_type = (tf32, tf32, f32), cta_group = 1> wait_group = 0 : tensor<128x32xtf32, #sa>, tensor<32x64xtf32, #sb> -> tensor<128x64xf32, #tm>
    %a8 = nv_tileas.alloc_tensor : tensor<128x128xf8E4M3FN, #sa>
    %b8 = nv_tileas.alloc_tensor : tensor<128x64xf8E5M2, #sb>
    %d8 = nv_tileas.dot %a8, %b8, %ct atom = !cute_nvgpu.sm100.mma<128x64x32, ab_major = (k, k), elem_type = (f8E4M3FN, f8E5M2, f32), cta_group = 1> wait_group = 0 : tensor<128x128xf8E4M3FN, #sa>, tensor<128x64xf8E5M2, #sb> -> tensor<128x64xf32, #tm>
    %ai = nv_tileas.alloc_tensor : tensor<128x128xsi8, #sa>
    %bi = nv_tileas.alloc_tensor : tensor<128x64xui8, #sb>
    %ci = nv_tileas.alloc_tensor : tensor<128x64xi32, #tm>
    %di = nv_tileas.dot %ai, %bi, %ci atom = !cute_nvgpu.sm100.mma<128x64x32, ab_major = (k, k), elem_type = (si8, ui8, i32), cta_group = 1> wait_group = 0 : tensor<128x128xsi8, #sa>, tensor<128x64xui8, #sb> -> tensor<128x64xi32, #tm>
    nv_tileas.return
  }
}

// Two accumulators of 64 columns: the allocation is 128 columns, the i8 one at 64.
// CHECK-LABEL: llvm.func @kinds()
// CHECK:       nvvm.tcgen05.alloc %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// tf32 (codes 2, 2): 4 MMAs along K = 32; A and B K-major, 128-byte rows.
// CHECK:       llvm.mlir.constant(135268624 : i32) : i32
// CHECK-COUNT-4: kind = #nvvm.tcgen05_mma_kind<tf32>
// e4m3 (0) x e5m2 (1): 4 MMAs along K = 128.
// CHECK:       llvm.mlir.constant(135267344 : i32) : i32
// CHECK-COUNT-4: kind = #nvvm.tcgen05_mma_kind<f8f6f4>
// s8 (1) x u8 (0) -> s32 (2).
// CHECK:       llvm.mlir.constant(135266464 : i32) : i32
// CHECK-COUNT-4: kind = #nvvm.tcgen05_mma_kind<i8>

// PTX-LABEL: .entry kinds()
// PTX:         tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 	[kinds_tmem_slot], 128;
// PTX-COUNT-4: tcgen05.mma.cta_group::1.kind::tf32
// PTX-COUNT-4: tcgen05.mma.cta_group::1.kind::f8f6f4
// PTX-COUNT-4: tcgen05.mma.cta_group::1.kind::i8
// PTX:         tcgen05.dealloc.cta_group::1.sync.aligned.b32 	%r{{[0-9]+}}, 128;
