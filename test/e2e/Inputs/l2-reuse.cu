// What the L2 holds between kernels (sim-l2-reuse.test): a scale kernel on
// two arrays that fit in L2, launched cold, then again on the same arrays
// (the data the first launch left there), then on other arrays of the same
// size (not held), and on arrays too large for L2. Prints "<name>_seconds
// <value>" lines: the time of each launch (CUDA events).
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

__global__ void scale(double *out, const double *in, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2 * in[i];
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

static void timed(const char *name, double *out, const double *in, long n) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  check(cudaEventRecord(start, 0), "cudaEventRecord");
  scale<<<(unsigned)((n + 255) / 256), 256>>>(out, in, n);
  check(cudaEventRecord(stop, 0), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  printf("%s_seconds %.9g\n", name, ms * 1e-3);
}

int main() {
  const long small = 1L << 20, large = 1L << 25;
  double *a, *b, *c, *d, *big1, *big2;
  check(cudaMalloc((void **)&a, small * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&b, small * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&c, small * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&d, small * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&big1, large * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&big2, large * sizeof(double)), "cudaMalloc");
  timed("cold", a, b, small);
  timed("warm", b, a, small);
  timed("other", c, d, small);
  timed("large", big1, big2, large);
  timed("large_again", big2, big1, large);
  return 0;
}
