// Launches a kernel of its own and one from a project header.
#include "kernels.cuh"

__global__ void own_add(const double *a, double *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] += a[i];
}

void run(float *x, const double *a, double *b, int n) {
  hdr_scale<<<(n + 63) / 64, 64>>>(x, 2.0f, n);
  own_add<<<(n + 255) / 256, 256>>>(a, b, n);
}
