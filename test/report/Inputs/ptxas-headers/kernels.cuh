// A kernel defined in a project header (instrumented with --headers).
#pragma once

__global__ void hdr_scale(float *x, float a, int n) {
  __shared__ float stage[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  stage[threadIdx.x % 64] = a * x[i];
  x[i] = stage[threadIdx.x % 64];
}
