// tileas-py case file: every tcgen05 op, and each of their verifier messages

llvm.func @tcgen05_ops(%tmem: !llvm.ptr<6>, %slot: !llvm.ptr<3>, %gen: !llvm.ptr, %n: i32, %desc: i64, %mask: i16, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>, %b8: i8) {
  nvvm.tcgen05.alloc %slot, %n : !llvm.ptr<3>, i32
  nvvm.tcgen05.alloc %gen, %n {group = #nvvm.cta_group<cta_2>} : !llvm.ptr, i32
  nvvm.tcgen05.dealloc %tmem, %n : !llvm.ptr<6>, i32
  nvvm.tcgen05.relinquish_alloc_permit
  nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
  nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
  nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
  nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
  nvvm.tcgen05.wait #nvvm.tcgen05_wait<store>
  nvvm.tcgen05.commit %slot : !llvm.ptr<3>
  nvvm.tcgen05.commit %gen, multicast_mask = %mask {group = #nvvm.cta_group<cta_2>} : !llvm.ptr, i16
  nvvm.tcgen05.shift %tmem : !llvm.ptr<6>
  nvvm.tcgen05.shift %tmem {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>
  nvvm.tcgen05.cp %tmem, %desc {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}
  nvvm.tcgen05.cp %tmem, %desc {group = #nvvm.cta_group<cta_2>, multicast = #nvvm.tcgen05_cp_multicast<warpx2_01_23>, shape = #nvvm.tcgen05_cp_shape<shape_64x128b>, srcFormat = #nvvm.tcgen05_cp_src_fmt<b6x16_p32>}
  nvvm.tcgen05.cp %tmem, %desc {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
  %0 = nvvm.tcgen05.ld %tmem {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : i32
  %1 = nvvm.tcgen05.ld %tmem pack {shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>} : vector<2xi32>
  %2 = nvvm.tcgen05.ld %tmem, %desc {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : vector<8xi32>
  nvvm.tcgen05.st %tmem, %v4 {shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>} : vector<4xi32>
  nvvm.tcgen05.st %tmem, %v2, %desc unpack {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : vector<2xi32>
  %3 = nvvm.tcgen05.mma_smem_desc(%n, %n, %n, %b8, %acc, %b8) : (i32, i32, i32, i8, i1, i8) -> i64
  nvvm.tcgen05.mma %tmem, %desc, %desc, %n, %acc {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  nvvm.tcgen05.mma %tmem, %tmem, %desc, %n, %acc scale = %desc mask = %v8 {aShift, collectorOp = #nvvm.tcgen05_mma_collectorop<lastuse>, ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<tf32>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, i64, vector<8xi32>)
  nvvm.tcgen05.mma.sp %tmem, %desc, %desc, %n, %acc, %tmem {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<i8>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>)
  nvvm.tcgen05.mma.sp %tmem, %tmem, %desc, %n, %acc, %tmem mask = %v4 {collectorOp = #nvvm.tcgen05_mma_collectorop<fill>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f8f6f4>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, vector<4xi32>)
  nvvm.tcgen05.mma.block_scale %tmem, %desc, %desc, %n, %acc, %tmem, %tmem {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf8f6f4>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  nvvm.tcgen05.mma.block_scale %tmem, %tmem, %desc, %n, %acc, %tmem, %tmem {blockScale = #nvvm.tcgen05_mma_block_scale<block16>, collectorOp = #nvvm.tcgen05_mma_collectorop<use>, ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.block_scale_kind<mxf4nvf4>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  nvvm.tcgen05.mma.sp.block_scale %tmem, %desc, %desc, %n, %acc, %tmem, %tmem, %tmem {blockScale = #nvvm.tcgen05_mma_block_scale<block32>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf4>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>, !llvm.ptr<6>)
  nvvm.tcgen05.mma.ws %tmem, %desc, %desc, %n, %acc {kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  nvvm.tcgen05.mma.ws %tmem, %tmem, %desc, %n, %acc, %desc {collectorBBuffer = #nvvm.tcgen05_mma_collectorb<b3>, collectorOp = #nvvm.tcgen05_mma_collectorop<fill>, kind = #nvvm.tcgen05_mma_kind<i8>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, i64)
  nvvm.tcgen05.mma.ws.sp %tmem, %desc, %desc, %n, %acc, %tmem {kind = #nvvm.tcgen05_mma_kind<tf32>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>)
  nvvm.tcgen05.mma.ws.sp %tmem, %desc, %desc, %n, %acc, %tmem, %desc {collectorBBuffer = #nvvm.tcgen05_mma_collectorb<b1>, kind = #nvvm.tcgen05_mma_kind<f8f6f4>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, i64)
  llvm.return
}

// -----

llvm.func @ld_offset(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{shape 16x32bx2 requires offset argument}}
  %0 = nvvm.tcgen05.ld %tmem {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : i32
  llvm.return
}

// -----

llvm.func @ld_length(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  %0 = nvvm.tcgen05.ld %tmem {shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>} : i32
  llvm.return
}

// -----

llvm.func @ld_length_256(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  %0 = nvvm.tcgen05.ld %tmem {shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>} : vector<2xi32>
  llvm.return
}

// -----

llvm.func @ld_result_type(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  %0 = nvvm.tcgen05.ld %tmem {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<3xi32>
  llvm.return
}

// -----

llvm.func @ld_shared(%p: !llvm.ptr<3>) {
  %0 = "nvvm.tcgen05.ld"(%p) <{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}> : (!llvm.ptr<3>) -> i32
  llvm.return
}

// -----

llvm.func @st_offset(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{shape 16x32bx2 requires offset argument}}
  nvvm.tcgen05.st %tmem, %v2 {shape = #nvvm.tcgen05_ldst_shape<shape_16x32bx2>} : vector<2xi32>
  llvm.return
}

// -----

llvm.func @st_length(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  nvvm.tcgen05.st %tmem, %v2 {shape = #nvvm.tcgen05_ldst_shape<shape_16x256b>} : vector<2xi32>
  llvm.return
}

// -----

llvm.func @st_f32(%tmem: !llvm.ptr<6>, %f: f32) {
  "nvvm.tcgen05.st"(%tmem, %f) <{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}> : (!llvm.ptr<6>, f32) -> ()
  llvm.return
}

// -----

llvm.func @shift_shared(%p: !llvm.ptr<3>) {
  "nvvm.tcgen05.shift"(%p) : (!llvm.ptr<3>) -> ()
  llvm.return
}

// -----

llvm.func @smem_desc_i16(%n: i32, %b: i16, %acc: i1) {
  %0 = "nvvm.tcgen05.mma_smem_desc"(%n, %n, %n, %b, %acc, %b) : (i32, i32, i32, i16, i1, i16) -> i64
  llvm.return
}

// -----

llvm.func @smem_desc_i32_result(%n: i32, %b: i8, %acc: i1) {
  %0 = "nvvm.tcgen05.mma_smem_desc"(%n, %n, %n, %b, %acc, %b) : (i32, i32, i32, i8, i1, i8) -> i32
  llvm.return
}

// -----

llvm.func @cp_multicast(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{Invalid multicast type for tcgen05.cp Op}}
  nvvm.tcgen05.cp %tmem, %desc {multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_128x128b>}
  llvm.return
}

// -----

llvm.func @cp_64x128b(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{Shape 64x128b requires multicast warpx2_01_23 or warpx2_02_13 for tcgen05.cp Op}}
  nvvm.tcgen05.cp %tmem, %desc {shape = #nvvm.tcgen05_cp_shape<shape_64x128b>}
  llvm.return
}

// -----

llvm.func @cp_32x128b(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{Shape 32x128b requires multicast warpx4 for tcgen05.cp Op}}
  nvvm.tcgen05.cp %tmem, %desc {multicast = #nvvm.tcgen05_cp_multicast<warpx2_02_13>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
  llvm.return
}

// -----

llvm.func @cp_without_shape(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  "nvvm.tcgen05.cp"(%tmem, %desc) : (!llvm.ptr<6>, i64) -> ()
  llvm.return
}

// -----

llvm.func @alloc_tmem(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  "nvvm.tcgen05.alloc"(%tmem, %n) : (!llvm.ptr<6>, i32) -> ()
  llvm.return
}

// -----

llvm.func @commit_i32_mask(%p: !llvm.ptr<3>, %m: i32) {
  "nvvm.tcgen05.commit"(%p, %m) : (!llvm.ptr<3>, i32) -> ()
  llvm.return
}

// -----

llvm.func @fence_kind() {
  // expected-error @below {{Invalid attribute `kind` in property conversion}}
  "nvvm.tcgen05.fence"() <{kind = #nvvm.tcgen05_wait<load>}> : () -> ()
  llvm.return
}

// -----

llvm.func @mma_lanes_cta2(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{Disable Output Lane of length 4 is incompatible with CtaGroupAttr}}
  nvvm.tcgen05.mma %tmem, %desc, %desc, %n, %acc mask = %v4 {ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1, vector<4xi32>)
  llvm.return
}

// -----

llvm.func @mma_lanes_type(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  nvvm.tcgen05.mma %tmem, %desc, %desc, %n, %acc mask = %v2 {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1, vector<2xi32>)
  llvm.return
}

// -----

llvm.func @mma_ashift_desc(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{A-shift can be applied only when matrix A is in tensor memory}}
  nvvm.tcgen05.mma %tmem, %desc, %desc, %n, %acc {aShift, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  llvm.return
}

// -----

llvm.func @mma_ashift_fill(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{Cannot use collector buffer operation fill or use with ashift}}
  nvvm.tcgen05.mma %tmem, %tmem, %desc, %n, %acc {aShift, collectorOp = #nvvm.tcgen05_mma_collectorop<fill>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
  llvm.return
}

// -----

llvm.func @mma_without_group(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  "nvvm.tcgen05.mma"(%tmem, %desc, %desc, %n, %acc) <{kind = #nvvm.tcgen05_mma_kind<f16>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>}> : (!llvm.ptr<6>, i64, i64, i32, i1) -> ()
  llvm.return
}

// -----

llvm.func @mma_a_i32(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  "nvvm.tcgen05.mma"(%tmem, %n, %desc, %n, %acc) <{ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>}> : (!llvm.ptr<6>, i32, i64, i32, i1) -> ()
  llvm.return
}

// -----

llvm.func @mma_sp_lanes(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{Disable Output Lane of length 8 is incompatible with CtaGroupAttr}}
  nvvm.tcgen05.mma.sp %tmem, %desc, %desc, %n, %acc, %tmem mask = %v8 {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, vector<8xi32>)
  llvm.return
}

// -----

llvm.func @mma_sp_ashift(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{A-shift can be applied only when matrix A is in tensor memory}}
  nvvm.tcgen05.mma.sp %tmem, %desc, %desc, %n, %acc, %tmem {aShift, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>)
  llvm.return
}

// -----

llvm.func @mma_sp_metadata_desc(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  "nvvm.tcgen05.mma.sp"(%tmem, %desc, %desc, %n, %acc, %desc) <{ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 0, 0>}> : (!llvm.ptr<6>, i64, i64, i32, i1, i64) -> ()
  llvm.return
}

// -----

llvm.func @block_scale_nvf4_default(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{mxf4nvf4 requires block scale attribute}}
  nvvm.tcgen05.mma.block_scale %tmem, %desc, %desc, %n, %acc, %tmem, %tmem {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf4nvf4>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  llvm.return
}

// -----

llvm.func @block_scale_block16(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{mxf8f6f4 kind does not support block16 attribute}}
  nvvm.tcgen05.mma.block_scale %tmem, %desc, %desc, %n, %acc, %tmem, %tmem {blockScale = #nvvm.tcgen05_mma_block_scale<block16>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf8f6f4>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  llvm.return
}

// -----

llvm.func @sp_block_scale_block16(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{mxf4 kind does not support block16 attribute}}
  nvvm.tcgen05.mma.sp.block_scale %tmem, %desc, %desc, %n, %acc, %tmem, %tmem, %tmem {blockScale = #nvvm.tcgen05_mma_block_scale<block16>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf4>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>, !llvm.ptr<6>)
  llvm.return
}

// -----

llvm.func @block_scale_kind(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  // expected-error @below {{Invalid attribute `kind` in property conversion}}
  "nvvm.tcgen05.mma.block_scale"(%tmem, %desc, %desc, %n, %acc, %tmem, %tmem) <{ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}> : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>) -> ()
  llvm.return
}

// -----

llvm.func @ws_mask_i32(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  "nvvm.tcgen05.mma.ws"(%tmem, %desc, %desc, %n, %acc, %n) <{kind = #nvvm.tcgen05_mma_kind<f16>}> : (!llvm.ptr<6>, i64, i64, i32, i1, i32) -> ()
  llvm.return
}

// -----

llvm.func @ws_two_masks(%tmem: !llvm.ptr<6>, %desc: i64, %n: i32, %acc: i1, %v2: vector<2xi32>, %v4: vector<4xi32>, %v8: vector<8xi32>) {
  "nvvm.tcgen05.mma.ws"(%tmem, %desc, %desc, %n, %acc, %desc, %desc) <{kind = #nvvm.tcgen05_mma_kind<f16>}> : (!llvm.ptr<6>, i64, i64, i32, i1, i64, i64) -> ()
  llvm.return
}
