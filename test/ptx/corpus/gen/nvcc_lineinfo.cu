// A reduction with a loop, shuffles, cluster special registers and -lineinfo debug
// directives (`.file`, `.loc`).

extern "C" __global__ void __cluster_dims__(2, 1, 1) reduce(const float* in, float* out, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += in[i];
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if ((threadIdx.x & 31) == 0) atomicAdd(out + rank, sum);
}
