// RUN: orrery-instrument --quiet %s -o %t.cu --manifest %t.json -- %mock-cuda-flags
// RUN: FileCheck %s --input-file %t.cu
// RUN: %clangxx -fsyntax-only %mock-cuda-flags -I %hooks-include %t.cu
#include <cuda_runtime.h>

__global__ void scale(double *x, double a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

int main() {
  double *d;
  cudaMalloc((void **)&d, 100 * sizeof(double));
  scale<<<4, 32>>>(d, 2.0, 100);
  cudaFree(d);
  return 0;
}
