/* Just enough of the CUDA runtime, over host memory, for a native run of
 * solver.c on a machine without a GPU: what the recorder reads is what the
 * program computed. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

cudaError_t cudaMalloc(void **p, size_t n) {
  *p = malloc(n);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFree(void *p) {
  free(p);
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void *d, const void *s, size_t n,
                       enum cudaMemcpyKind k) {
  (void)k;
  memcpy(d, s, n);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n,
                            enum cudaMemcpyKind k, cudaStream_t st) {
  (void)st;
  return cudaMemcpy(d, s, n, k);
}
cudaError_t cudaStreamCreate(cudaStream_t *st) {
  *st = (cudaStream_t)malloc(1);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t st) {
  (void)st;
  return cudaSuccess;
}
