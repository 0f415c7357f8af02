// A code written before CUDA 12 (removed-cuda-apis.test): cudaThread*
// calls the CUDA 13 headers no longer declare.
#include <cuda_runtime.h>
#include <stdio.h>
__global__ void k(float *x) { x[threadIdx.x] = 1; }
int main() {
  float *d;
  cudaMalloc(&d, 1024);
  cudaThreadSetCacheConfig(cudaFuncCachePreferL1);
  k<<<1, 256>>>(d);
  if (cudaThreadSynchronize() != cudaSuccess)
    return 1;
  size_t v = 0;
  cudaFuncCache c;
  c = cudaFuncCachePreferNone;
  printf("ok %zu %d\n", v, (int)c);
  cudaThreadExit();
  return 0;
}
