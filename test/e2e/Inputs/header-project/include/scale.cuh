// The kernel and its launch, in a project header. "sizes.h" is a neighbour
// with nothing to rewrite: it is found next to the original.
#pragma once
#include "sizes.h"

#include <cuda_runtime.h>

__global__ void scale(float *X, float A) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] = A * X[I];
}

inline void scaleAll(float *X) {
  scale<<<(N + 255) / 256, 256>>>(X, 2.0f);
  cudaDeviceSynchronize();
}
