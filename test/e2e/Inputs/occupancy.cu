// What sets a kernel's occupancy (sim-occupancy.test): its static shared
// memory (from its hint), the shared-memory carveout the program prefers,
// and dynamic shared memory. Prints "<name> <value>" lines: blocks per SM
// from cudaOccupancyMaxActiveBlocksPerMultiprocessor and the time of one
// launch (CUDA events), for each setting.
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

__global__ void stream_copy(double *a, const double *b, long n) {
  __shared__ double spoiler[4096]; // 32 KiB: limits blocks per SM
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (n < 0) // never: keeps the array
    spoiler[threadIdx.x] = b[threadIdx.x];
  a[i] = b[i];
  if (n < 0)
    a[i] = spoiler[threadIdx.x];
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

static void measure(const char *name, double *a, const double *b, long n,
                    int block) {
  int blocks = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, stream_copy,
                                                      block, 0),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  check(cudaEventRecord(start, 0), "cudaEventRecord");
  stream_copy<<<(unsigned)((n + block - 1) / block), block>>>(a, b, n);
  check(cudaEventRecord(stop, 0), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  printf("%s_blocks %d\n%s_seconds %.9g\n", name, blocks, name, ms * 1e-3);
}

int main() {
  long n = 1L << 26;
  double *a, *b;
  check(cudaMalloc((void **)&a, n * sizeof(double)), "cudaMalloc");
  check(cudaMalloc((void **)&b, n * sizeof(double)), "cudaMalloc");
  measure("default", a, b, n, 64);
  // The smallest carveout: the driver still fits one block.
  check(cudaFuncSetAttribute(stream_copy,
                             cudaFuncAttributePreferredSharedMemoryCarveout,
                             0),
        "cudaFuncSetAttribute");
  measure("carveout0", a, b, n, 64);
  check(cudaFuncSetAttribute(stream_copy,
                             cudaFuncAttributePreferredSharedMemoryCarveout,
                             25),
        "cudaFuncSetAttribute");
  measure("carveout25", a, b, n, 64);
  check(cudaFuncSetCacheConfig(stream_copy, cudaFuncCachePreferShared),
        "cudaFuncSetCacheConfig");
  measure("prefer_shared", a, b, n, 64);
  cudaFuncAttributes attr;
  check(cudaFuncGetAttributes(&attr, (const void *)stream_copy),
        "cudaFuncGetAttributes");
  printf("static_shared %zu\ncarveout %d\n", attr.sharedSizeBytes,
         attr.preferredShmemCarveout);
  return 0;
}
