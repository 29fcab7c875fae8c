// Every diagnostic of the WGMMA emission and the accumulator store, at the op it is about.
// RUN: not tileas-opt %s --split-input-file -p convert-tileas-to-nvvm -o /dev/null 2>&1 | filecheck %s

// sm_90 (without the arch-conditional `a`) has no WGMMA.
!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
module attributes {nvvm.target = #nvvm.target<chip = "sm_90">} {
  func.func @k(%a: tensor<64x16xf16, #nv_tileas.shared<swizzle = 32, order = [1, 0]>>, %b: tensor<16x64xf16, #nv_tileas.shared<swizzle = 32, order = [0, 1]>>, %c: tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
    %d = nv_tileas.dot %a, %b, %c atom = !atom wait_group = 0 : tensor<64x16xf16, #nv_tileas.shared<swizzle = 32, order = [1, 0]>>, tensor<16x64xf16, #nv_tileas.shared<swizzle = 32, order = [0, 1]>> -> tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>>
    func.return
  }
}
// CHECK: invalid-dot.mlir:8:5: error: WGMMA needs the sm_90a target, got sm_90

// -----

// Blackwell has no WGMMA: its kernels need tcgen05.
#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
    %a = nv_tileas.alloc_tensor : tensor<64x16xf16, #sa>
    %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
    %c = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32, #acc>
    nv_tileas.return
  }
}
// CHECK: invalid-dot.mlir:25:5: error: WGMMA is not available on sm_100a: Blackwell kernels use an sm100 atom (!cute_nvgpu.sm100.mma, tcgen05.mma)

// -----

// The accumulator's instruction shape must be the atom's.
#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 32, 16]>
nv_tileas.kernel @k(%c: tensor<64x64xf32, #acc>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %a = nv_tileas.alloc_tensor : tensor<64x16xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32, #acc>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:40:3: error: the accumulator of a WGMMA must be a tensor with a #nv_tileas.mma encoding of instr_shape = [64, 64, 16], got 'tensor<64x64xf32, #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 32, 16]>>'

// -----

// An accumulator split over two warpgroups, on a kernel of one.
#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [8, 1], instr_shape = [64, 64, 16]>
nv_tileas.kernel @k(%c: tensor<128x64xf32, #acc>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %a = nv_tileas.alloc_tensor : tensor<128x16xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<128x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<128x64xf32, #acc>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:54:3: error: the accumulator is held by 2 warpgroup(s) (warps_per_cta = [8, 1]), but the dot runs on 4 warps

// -----

// Warpgroups split an accumulator by rows only.
#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 2], instr_shape = [64, 64, 16]>
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 8 : i32} {
  %a = nv_tileas.alloc_tensor : tensor<64x16xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<16x128xf16, #sb>
  %c = arith.constant dense<1.0> : tensor<64x128xf32, #acc>
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x16xf16, #sa>, tensor<16x128xf16, #sb> -> tensor<64x128xf32, #acc>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:68:3: error: a WGMMA accumulator is held by whole warpgroups splitting its rows (warps_per_cta = [4 W, 1]), got [4, 2]

// -----

// A 128-byte swizzle needs rows of a multiple of 128 bytes.
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
nv_tileas.kernel @k(%c: tensor<64x64xf32, #acc>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %a = nv_tileas.alloc_tensor : tensor<64x16xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0 : tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32, #acc>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:83:3: error: no WGMMA descriptor can walk operand A: 128-byte swizzling needs the contiguous dimension to span a multiple of 128 bytes, got 32

// -----

// accum_c / neg_a / neg_b become immediates: they must be constants.
!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
func.func @k(%c: tensor<64x64xf32, #acc>, %flag: i1) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %a = nv_tileas.alloc_tensor : tensor<64x16xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
  %atom = cute_nvgpu.make_mma_atom : !atom
  %set = cute_nvgpu.atom.set_value %atom, accum_c, %flag : !atom
  %d = cute_nvgpu.atom.gemm %set, %a, %b, %c : !atom, tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32, #acc>
  func.return
}
// CHECK: invalid-dot.mlir:99:3: error: 'accum_c' must be a constant: the WGMMA emission makes it an immediate

// -----

// The atom's fields must be known: it comes from make_mma_atom and atom.set_value.
!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
#sa = #nv_tileas.shared<swizzle = 32, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 32, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
func.func @k(%c: tensor<64x64xf32, #acc>, %flag: i1) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %a = nv_tileas.alloc_tensor : tensor<64x16xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<16x64xf16, #sb>
  %one = cute_nvgpu.make_mma_atom : !atom
  %two = cute_nvgpu.make_mma_atom : !atom
  %atom = arith.select %flag, %one, %two : !atom
  %d = cute_nvgpu.atom.gemm %atom, %a, %b, %c : !atom, tensor<64x16xf16, #sa>, tensor<16x64xf16, #sb> -> tensor<64x64xf32, #acc>
  func.return
}
// CHECK: invalid-dot.mlir:118:3: error: the atom of a WGMMA must come from cute_nvgpu.make_mma_atom and cute_nvgpu.atom.set_value

// -----

// An accumulator is a whole number of its instruction tiles.
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 8, 16]>
nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<1x8xf32, #acc>
  %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<1x8xf32>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %c, %view[%c0, %c0] : tensor<1x8xf32, #acc> -> !nv_tileas.tiled_view<1x8xf32>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:128:3: error: an accumulator of shape [1, 8] is not a whole number of its 64x8 instruction tiles

// -----

// An accumulator constant is a splat.
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 8, 16]>
nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %c = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0], [24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0], [40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0], [48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0], [56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0], [64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0], [72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0], [80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0], [88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0], [96.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0], [104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0], [112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0], [120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0], [128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0], [136.0, 137.0, 138.0, 139.0, 140.0, 141.0, 142.0, 143.0], [144.0, 145.0, 146.0, 147.0, 148.0, 149.0, 150.0, 151.0], [152.0, 153.0, 154.0, 155.0, 156.0, 157.0, 158.0, 159.0], [160.0, 161.0, 162.0, 163.0, 164.0, 165.0, 166.0, 167.0], [168.0, 169.0, 170.0, 171.0, 172.0, 173.0, 174.0, 175.0], [176.0, 177.0, 178.0, 179.0, 180.0, 181.0, 182.0, 183.0], [184.0, 185.0, 186.0, 187.0, 188.0, 189.0, 190.0, 191.0], [192.0, 193.0, 194.0, 195.0, 196.0, 197.0, 198.0, 199.0], [200.0, 201.0, 202.0, 203.0, 204.0, 205.0, 206.0, 207.0], [208.0, 209.0, 210.0, 211.0, 212.0, 213.0, 214.0, 215.0], [216.0, 217.0, 218.0, 219.0, 220.0, 221.0, 222.0, 223.0], [224.0, 225.0, 226.0, 227.0, 228.0, 229.0, 230.0, 231.0], [232.0, 233.0, 234.0, 235.0, 236.0, 237.0, 238.0, 239.0], [240.0, 241.0, 242.0, 243.0, 244.0, 245.0, 246.0, 247.0], [248.0, 249.0, 250.0, 251.0, 252.0, 253.0, 254.0, 255.0], [256.0, 257.0, 258.0, 259.0, 260.0, 261.0, 262.0, 263.0], [264.0, 265.0, 266.0, 267.0, 268.0, 269.0, 270.0, 271.0], [272.0, 273.0, 274.0, 275.0, 276.0, 277.0, 278.0, 279.0], [280.0, 281.0, 282.0, 283.0, 284.0, 285.0, 286.0, 287.0], [288.0, 289.0, 290.0, 291.0, 292.0, 293.0, 294.0, 295.0], [296.0, 297.0, 298.0, 299.0, 300.0, 301.0, 302.0, 303.0], [304.0, 305.0, 306.0, 307.0, 308.0, 309.0, 310.0, 311.0], [312.0, 313.0, 314.0, 315.0, 316.0, 317.0, 318.0, 319.0], [320.0, 321.0, 322.0, 323.0, 324.0, 325.0, 326.0, 327.0], [328.0, 329.0, 330.0, 331.0, 332.0, 333.0, 334.0, 335.0], [336.0, 337.0, 338.0, 339.0, 340.0, 341.0, 342.0, 343.0], [344.0, 345.0, 346.0, 347.0, 348.0, 349.0, 350.0, 351.0], [352.0, 353.0, 354.0, 355.0, 356.0, 357.0, 358.0, 359.0], [360.0, 361.0, 362.0, 363.0, 364.0, 365.0, 366.0, 367.0], [368.0, 369.0, 370.0, 371.0, 372.0, 373.0, 374.0, 375.0], [376.0, 377.0, 378.0, 379.0, 380.0, 381.0, 382.0, 383.0], [384.0, 385.0, 386.0, 387.0, 388.0, 389.0, 390.0, 391.0], [392.0, 393.0, 394.0, 395.0, 396.0, 397.0, 398.0, 399.0], [400.0, 401.0, 402.0, 403.0, 404.0, 405.0, 406.0, 407.0], [408.0, 409.0, 410.0, 411.0, 412.0, 413.0, 414.0, 415.0], [416.0, 417.0, 418.0, 419.0, 420.0, 421.0, 422.0, 423.0], [424.0, 425.0, 426.0, 427.0, 428.0, 429.0, 430.0, 431.0], [432.0, 433.0, 434.0, 435.0, 436.0, 437.0, 438.0, 439.0], [440.0, 441.0, 442.0, 443.0, 444.0, 445.0, 446.0, 447.0], [448.0, 449.0, 450.0, 451.0, 452.0, 453.0, 454.0, 455.0], [456.0, 457.0, 458.0, 459.0, 460.0, 461.0, 462.0, 463.0], [464.0, 465.0, 466.0, 467.0, 468.0, 469.0, 470.0, 471.0], [472.0, 473.0, 474.0, 475.0, 476.0, 477.0, 478.0, 479.0], [480.0, 481.0, 482.0, 483.0, 484.0, 485.0, 486.0, 487.0], [488.0, 489.0, 490.0, 491.0, 492.0, 493.0, 494.0, 495.0], [496.0, 497.0, 498.0, 499.0, 500.0, 501.0, 502.0, 503.0], [504.0, 505.0, 506.0, 507.0, 508.0, 509.0, 510.0, 511.0]]> : tensor<64x8xf32, #acc>
  %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x8xf32>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %c, %view[%c0, %c0] : tensor<64x8xf32, #acc> -> !nv_tileas.tiled_view<64x8xf32>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:141:3: error: only splat accumulator constants are supported

// -----

// An accumulator's instruction tile is a WGMMA shape.
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 4294967295, 16]>
nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %c = arith.constant dense<2.0> : tensor<64x32xf32, #acc>
  %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<64x32xf32>
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %c, %view[%c0, %c0] : tensor<64x32xf32, #acc> -> !nv_tileas.tiled_view<64x32xf32>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:154:3: error: an #nv_tileas.mma accumulator's instr_shape [64, 4294967295, 16] is not a WGMMA shape (M = 64, N a multiple of 8 up to 256)

// -----

// An accumulator is stored to a plain global pointer only (TMA stores are to come).
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
nv_tileas.kernel @k(%view: !nv_tileas.tiled_view<64x64xf32>, %c: tensor<64x64xf32, #acc>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
  %c0 = arith.constant 0 : index
  nv_tileas.tiled_store %c, %view[%c0, %c0] : tensor<64x64xf32, #acc> -> !nv_tileas.tiled_view<64x64xf32>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:168:3: error: only stores to a plain global pointer (an unrealized cast of !llvm.ptr<1>) are supported for an accumulator

// -----

// A register A loaded from an MN-major shared tile (ldmatrix without .trans reads K-major
// rows).
#sa = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
  %sa = nv_tileas.alloc_tensor : tensor<64x64xf16, #sa>
  %b = nv_tileas.alloc_tensor : tensor<64x64xf16, #sb>
  %a = nv_tileas.convert_layout %sa : tensor<64x64xf16, #sa> -> tensor<64x64xf16>
  %c = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = rs> wait_group = 0 : tensor<64x64xf16>, tensor<64x64xf16, #sb> -> tensor<64x64xf32, #acc>
  nv_tileas.return
}
// CHECK: invalid-dot.mlir:[[# @LINE - 3]]:3: error: a register A is loaded with ldmatrix from a K-major shared tile (order = [1, 0])
