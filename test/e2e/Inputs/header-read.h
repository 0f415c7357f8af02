// A device-to-host read inside a project header, as CloverLeaf's CUDA
// model reads every reduction back through a buffer class in context.h:
// orrery-cxx instruments this header with the source (a project header),
// so the copy has a site of its own; --orrery-no-headers leaves it unhooked.
#include <cuda_runtime.h>

template <typename T> T readBack(const T *Dev) {
  T Host{};
  cudaMemcpy(&Host, Dev, sizeof(T), cudaMemcpyDeviceToHost);
  return Host;
}
