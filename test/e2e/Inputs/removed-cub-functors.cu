// A code written for CUDA 11/12 (removed-cub-functors.test): CUB functors
// CCCL 3.0 removed, in a block reduction and on the host.
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void blockMax(const float *x, float *out) {
  typedef cub::BlockReduce<float, 128> Reduce;
  __shared__ typename Reduce::TempStorage tmp;
  float m = Reduce(tmp).Reduce(x[threadIdx.x], cub::Max());
  if (threadIdx.x == 0)
    *out = m;
}

int main() {
  float *x, *out;
  cudaMalloc(&x, 128 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  blockMax<<<1, 128>>>(x, out);
  cudaDeviceSynchronize();
  printf("sum %d max %d min %d eq %d ne %d diff %d div %d\n",
         cub::Sum()(2, 3), cub::Max()(2, 3), cub::Min()(2, 3),
         (int)cub::Equality()(2, 2), (int)cub::Inequality()(2, 2),
         cub::Difference()(7, 3), cub::Division()(8, 2));
  return 0;
}
