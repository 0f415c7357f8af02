// Code written for nvcc: __NVCC__ and __CUDACC_VER_MAJOR__ in conditions
// and in code; "__NVCC__" in a string and a comment stays as written.
#include <cuda_runtime.h>
#include <mpi.h>

#include "err.h"

#if !defined(__NVCC__) || __CUDACC_VER_MAJOR__ < 11
#error "build with nvcc 11 or later"
#endif

__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= 2.0f;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  float *a = nullptr;
  const int n = 1 << 20;
  GPU_ERROR(cudaMalloc(&a, n * sizeof(float)));
  scale<<<(n + 255) / 256, 256>>>(a, n);
  GPU_ERROR(cudaDeviceSynchronize());
  std::printf("built as if by nvcc %d.%d; \"__NVCC__\" as written\n",
              __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__);
  GPU_ERROR(cudaFree(a));
  MPI_Finalize();
  return 0;
}
