// The kernel of prebuilt.cu, in a header the instrumenter does not rewrite.
#pragma once
__global__ void prebuilt_scale(double *x, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2;
}
