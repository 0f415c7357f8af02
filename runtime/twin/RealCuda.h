//===- RealCuda.h - The CUDA runtime library itself, for twin mode -*- C++ -*-===//
//
// A twin program links libcudart after liborrery-sim, so its CUDA calls
// reach skeleton mode's simulated runtime while the device-code registration
// calls (__cudaRegisterFatBinary, __cudaRegisterFunction, ...) that only
// libcudart defines reach libcudart. The twin executor calls the real
// functions through this table, looked up in libcudart's own handle, because
// a plain call from here would bind to liborrery-sim's definitions.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TWIN_REALCUDA_H
#define ORRERY_TWIN_REALCUDA_H

#include <cuda_runtime_api.h>

#include <string>

namespace orrery::twin {

struct RealCuda {
  decltype(&::cudaGetDeviceCount) GetDeviceCount = nullptr;
  decltype(&::cudaGetErrorString) GetErrorString = nullptr;
  decltype(&::cudaSetDevice) SetDevice = nullptr;
  decltype(&::cudaMalloc) Malloc = nullptr;
  decltype(&::cudaMallocManaged) MallocManaged = nullptr;
  decltype(&::cudaMallocHost) MallocHost = nullptr;
  decltype(&::cudaFree) Free = nullptr;
  decltype(&::cudaFreeHost) FreeHost = nullptr;
  decltype(&::cudaMemcpy2DAsync) Memcpy2DAsync = nullptr;
  decltype(&::cudaMemsetAsync) MemsetAsync = nullptr;
  decltype(&::cudaMemcpyToSymbolAsync) MemcpyToSymbolAsync = nullptr;
  decltype(&::cudaMemcpyFromSymbolAsync) MemcpyFromSymbolAsync = nullptr;
  decltype(&::cudaLaunchKernel) LaunchKernel = nullptr;
  decltype(&::cudaStreamCreateWithFlags) StreamCreateWithFlags = nullptr;
  decltype(&::cudaEventCreate) EventCreate = nullptr;
  decltype(&::cudaEventRecord) EventRecord = nullptr;
  decltype(&::cudaEventSynchronize) EventSynchronize = nullptr;
  decltype(&::cudaEventElapsedTime) EventElapsedTime = nullptr;
  decltype(&::cudaGetLastError) GetLastError = nullptr;
};

/// Loads \p Library (libcudart's soname) and its functions, then checks that
/// the CUDA driver sees at least one GPU. On failure returns false and sets
/// \p Error to what is missing (the library, a function, the NVIDIA driver
/// or a GPU).
bool loadRealCuda(const char *Library, RealCuda &Out, std::string &Error);

} // namespace orrery::twin

#endif // ORRERY_TWIN_REALCUDA_H
