// A kernel with __launch_bounds__(256) (sim-launch-bounds.test): its
// attributes, the occupancy query and launches within and past the bound.
#include <cuda_runtime.h>
#include <stdio.h>
__global__ void __launch_bounds__(256) k(float *x) { x[threadIdx.x] = 1; }
int main() {
  float *d;
  cudaMalloc(&d, 4096 * 4);
  cudaFuncAttributes a;
  cudaFuncGetAttributes(&a, (const void *)k);
  int n = -1;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 512, 0);
  k<<<1, 256>>>(d);
  cudaError_t ok = cudaGetLastError();
  k<<<1, 512>>>(d);
  cudaError_t bad = cudaGetLastError();
  printf("max %d occupancy512 %d ok %d bad %s\n", a.maxThreadsPerBlock, n, (int)ok, cudaGetErrorName(bad));
  return 0;
}
