// A device-to-host read inside a project header, as CloverLeaf's CUDA
// model reads every reduction back through a buffer class in context.h:
// orrery-cxx does not instrument headers, so the copy has no site.
#include <cuda_runtime.h>

template <typename T> T readBack(const T *Dev) {
  T Host{};
  cudaMemcpy(&Host, Dev, sizeof(T), cudaMemcpyDeviceToHost);
  return Host;
}
