// The kernel of sim-kernel-reach.test defined in a second translation unit.
#include <cuda_runtime.h>

__global__ void triad_other(double *a, const double *b, const double *c,
                            double s, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = b[i] + s * c[i];
}

// A static kernel with the same name and signature as one of main.cu (the
// same mangled symbol): the registry tells them apart by address.
static __global__ void local_kernel(double *a, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= 2;
}

void launch_other_local(double *a, long n, int grid, int block,
                        bool through_pointer) {
  void (*k)(double *, long) = local_kernel;
  if (through_pointer)
    k<<<grid, block>>>(a, n);
  else
    local_kernel<<<grid, block>>>(a, n);
}

void launch_triad_other(double *a, const double *b, const double *c, double s,
                        long n, int grid, int block) {
  triad_other<<<grid, block>>>(a, b, c, s, n);
}
