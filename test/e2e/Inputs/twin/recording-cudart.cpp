// A stand-in for libcudart that twin mode's executor loads through
// ORRERY_TWIN_CUDART in tests on machines without a GPU: one "GPU", memory
// from malloc, copies and sets done with memcpy/memset, launches that run
// nothing, and CUDA events that report a fixed duration per kind of
// operation (launch 250 us, copy 10 us, set 5 us), so that a test can check
// what the simulator charged.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>

namespace {
float LastMs = 0;  // the duration the next stop event reports
int Dummy = 0;     // handles: stream and events point here
} // namespace

extern "C" {

cudaError_t cudaGetDeviceCount(int *Count) {
  *Count = 1;
  return cudaSuccess;
}
const char *cudaGetErrorString(cudaError_t) { return "recording stand-in"; }
cudaError_t cudaSetDevice(int) { return cudaSuccess; }
cudaError_t cudaGetLastError(void) { return cudaSuccess; }

cudaError_t cudaMalloc(void **P, size_t N) {
  *P = std::calloc(1, N);
  return *P ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaMallocManaged(void **P, size_t N, unsigned) {
  return cudaMalloc(P, N);
}
cudaError_t cudaMallocHost(void **P, size_t N) { return cudaMalloc(P, N); }
cudaError_t cudaFree(void *P) {
  std::free(P);
  return cudaSuccess;
}
cudaError_t cudaFreeHost(void *P) { return cudaFree(P); }

cudaError_t cudaMemcpy2DAsync(void *Dst, size_t DPitch, const void *Src,
                              size_t SPitch, size_t Width, size_t Height,
                              cudaMemcpyKind, cudaStream_t) {
  for (size_t R = 0; R < Height; ++R)
    std::memmove(static_cast<char *>(Dst) + R * DPitch,
                 static_cast<const char *>(Src) + R * SPitch, Width);
  LastMs = 0.010f;
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void *Dst, int V, size_t N, cudaStream_t) {
  std::memset(Dst, V, N);
  LastMs = 0.005f;
  return cudaSuccess;
}
cudaError_t cudaMemcpyToSymbolAsync(const void *, const void *, size_t,
                                    size_t, cudaMemcpyKind, cudaStream_t) {
  LastMs = 0.010f;
  return cudaSuccess;
}
cudaError_t cudaMemcpyFromSymbolAsync(void *, const void *, size_t, size_t,
                                      cudaMemcpyKind, cudaStream_t) {
  LastMs = 0.010f;
  return cudaSuccess;
}
cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **, size_t,
                             cudaStream_t) {
  LastMs = 0.250f;
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *S, unsigned) {
  *S = reinterpret_cast<cudaStream_t>(&Dummy);
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t *E) {
  *E = reinterpret_cast<cudaEvent_t>(&Dummy);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) { return cudaSuccess; }
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t, cudaEvent_t) {
  *Ms = LastMs;
  return cudaSuccess;
}

} // extern "C"
