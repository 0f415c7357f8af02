// The kernel of sim-kernel-reach.test defined in a second translation unit.
#include <cuda_runtime.h>

__global__ void triad_other(double *a, const double *b, const double *c,
                            double s, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = b[i] + s * c[i];
}

void launch_triad_other(double *a, const double *b, const double *c, double s,
                        long n, int grid, int block) {
  triad_other<<<grid, block>>>(a, b, c, s, n);
}
