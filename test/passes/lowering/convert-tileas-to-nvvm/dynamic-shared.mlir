// Above 48 KiB, CUDA's limit for static shared memory, the kernel's shared buffer is
// dynamic shared memory: an external zero-length array that records the bytes the launch
// must provide.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX
// RUN: tileas-opt %s -p convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | ptxas -arch=sm_90a - -o /dev/null

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @big() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<256x128xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
    %b = nv_tileas.alloc_tensor : tensor<64x8xf16, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>
    nv_tileas.return
  }
  nv_tileas.kernel @small() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %a = nv_tileas.alloc_tensor : tensor<128x192xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
    nv_tileas.return
  }
}

// 65536 + 1024 bytes: dynamic; exactly 48 KiB: still static.
// CHECK: llvm.mlir.global external @big_smem() {addr_space = 3 : i32, alignment = 1024 : i64, nv_tileas.dynamic_shared_bytes = 66560 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @small_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<49152 x i8>

// PTX: .extern .shared .align 1024 .b8 big_smem[];
// PTX: .shared .align 1024 .b8 small_smem[49152];
