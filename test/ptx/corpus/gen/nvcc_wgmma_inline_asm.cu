// A Hopper wgmma kernel written with inline PTX, as CUTLASS does it: an mbarrier-guarded
// TMA-free shared-memory tile, a WGMMA pipeline stage (fence / mma_async x2 / commit / wait)
// and a non-inlined device function call. Compiled by nvcc 13.5 for sm_90a.
#include <cstdint>

__device__ __forceinline__ void mbarrier_init(uint64_t* bar, uint32_t count) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(addr), "r"(count));
}

__device__ __forceinline__ void mbarrier_arrive(uint64_t* bar) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile(
      "{\n"
      ".reg .b64 state;\n"
      "mbarrier.arrive.shared::cta.b64 state, [%0];\n"
      "}\n" ::"r"(addr));
}

__device__ __forceinline__ void mbarrier_wait(uint64_t* bar, uint32_t phase) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile(
      "{\n"
      ".reg .pred P1;\n"
      "LAB_WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
      "@P1 bra DONE;\n"
      "bra LAB_WAIT;\n"
      "DONE:\n"
      "}\n" ::"r"(addr), "r"(phase));
}

__device__ __forceinline__ uint64_t make_desc(const void* smem) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  uint64_t desc = (uint64_t)((addr & 0x3FFFF) >> 4);
  desc |= (uint64_t)(16 >> 4) << 16;   // leading byte offset
  desc |= (uint64_t)(1024 >> 4) << 32; // stride byte offset
  desc |= (uint64_t)1 << 62;           // 128B swizzle
  return desc;
}

__device__ __noinline__ float scale(float x, float s) { return x * s; }

extern "C" __global__ void __launch_bounds__(128, 1)
wgmma_kernel(const uint32_t* __restrict__ a, const uint32_t* __restrict__ b, float* __restrict__ d, float s) {
  __shared__ alignas(1024) uint32_t sa[64 * 8];
  __shared__ alignas(1024) uint32_t sb[64 * 8];
  __shared__ uint64_t bar;
  int t = threadIdx.x;
  if (t == 0) mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  for (int i = t; i < 64 * 8; i += blockDim.x) { sa[i] = a[i]; sb[i] = b[i]; }
  mbarrier_arrive(&bar);
  mbarrier_wait(&bar, 0);
  float acc[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) acc[i] = 0.0f;
  uint64_t da = make_desc(sa), db = make_desc(sb);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int k = 0; k < 2; ++k) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
        "%32, %33, p, 1, 1, 0, 0;\n"
        "}\n"
        : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]),
          "+f"(acc[6]), "+f"(acc[7]), "+f"(acc[8]), "+f"(acc[9]), "+f"(acc[10]), "+f"(acc[11]),
          "+f"(acc[12]), "+f"(acc[13]), "+f"(acc[14]), "+f"(acc[15]), "+f"(acc[16]),
          "+f"(acc[17]), "+f"(acc[18]), "+f"(acc[19]), "+f"(acc[20]), "+f"(acc[21]),
          "+f"(acc[22]), "+f"(acc[23]), "+f"(acc[24]), "+f"(acc[25]), "+f"(acc[26]),
          "+f"(acc[27]), "+f"(acc[28]), "+f"(acc[29]), "+f"(acc[30]), "+f"(acc[31])
        : "l"(da + 2 * k), "l"(db + 2 * k), "r"(k));
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#pragma unroll
  for (int i = 0; i < 32; ++i) d[t * 32 + i] = scale(acc[i], s);
}
