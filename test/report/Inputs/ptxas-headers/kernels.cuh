// A kernel defined in a project header (instrumented with --headers).
#pragma once

// 64 floats of static shared memory: 256 B.
__global__ void hdr_scale(float *x, float a, int n) {
  __shared__ float stage[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage[threadIdx.x % 64] = i < n ? a * x[i] : 0.0f;
  __syncthreads();
  if (i < n)
    x[i] = stage[63 - threadIdx.x % 64];
}
