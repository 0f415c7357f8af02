// Re-reads served by the cache that holds their working set
// (sim-l1-reuse.test): every block reads the same buffer over and over; a
// 64 KiB buffer stays in each SM's L1, a 1 MiB one only in the L2. The small
// case runs twice more: through cudaLaunchKernel (the kernel registry's
// hint, which asks the runtime for the buffer's size the same way), and on
// a buffer allocated 16 times larger (a footprint bounded by the buffer, not
// the bytes read: the same 64 KiB are read, but the runtime cannot know).
// Prints "<name>_seconds <value>" lines (CUDA events).
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

__global__ void repeat(double *out, const double *b, int n, int reps) {
  double sum = 0;
  b += threadIdx.x;
  for (int r = 0; r < reps; r++) {
#pragma unroll 8
    for (int i = 0; i < n; i += 256)
      sum += b[i];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

static void timed(const char *name, double *out, const double *b, int n,
                  int reps, bool direct) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  check(cudaEventRecord(start, 0), "cudaEventRecord");
  if (direct) {
    repeat<<<132, 256>>>(out, b, n, reps);
  } else {
    void *args[] = {&out, &b, &n, &reps};
    check(cudaLaunchKernel((const void *)repeat, dim3(132), dim3(256), args, 0,
                           0),
          "cudaLaunchKernel");
  }
  check(cudaEventRecord(stop, 0), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  printf("%s_seconds %.9g\n", name, ms * 1e-3);
}

int main() {
  const int small = 8192, large = 131072; // doubles: 64 KiB, 1 MiB
  double *out1, *out2, *out3, *out4, *s1, *s2, *l, *huge;
  check(cudaMalloc((void **)&out1, 132 * 256 * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&out2, 132 * 256 * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&out3, 132 * 256 * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&out4, 132 * 256 * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&s1, small * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&s2, small * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&l, large * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&huge, 16 * small * sizeof(double)), "cudaMalloc");
  timed("small", out1, s1, small, 1000, true);
  timed("large", out2, l, large, 100, true);
  timed("registry", out3, s2, small, 1000, false);
  timed("oversized", out4, huge, small, 1000, true);
  return 0;
}
