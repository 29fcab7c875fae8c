// Device-function calls as nvcc emits them: a non-inlined callee with `.param` call
// sequences, printf (an `.extern .func` with a global string and a local stack depot),
// and an external device function (needs -rdc=true).
#include <cstdio>

extern __device__ float external_scale(float x);

__device__ __noinline__ float fma_one(float a, float b) { return a * b + 1.0f; }

extern "C" __global__ void calls(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = external_scale(fma_one(in[i], 2.0f));
  if (i == 0) printf("n = %d, in[0] = %f\n", n, (double)in[0]);
  __syncthreads();
}
