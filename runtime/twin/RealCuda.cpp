//===- RealCuda.cpp - Loading libcudart and finding a GPU -----------------===//

#include "RealCuda.h"

#include <dlfcn.h>

namespace orrery::twin {

template <typename F>
static bool lookUp(void *Handle, const char *Name, F &Out, std::string &Error) {
  Out = reinterpret_cast<F>(dlsym(Handle, Name));
  if (!Out)
    Error = std::string(Name) + " is missing from the CUDA runtime library";
  return Out != nullptr;
}

bool loadRealCuda(const char *Library, RealCuda &Out, std::string &Error) {
  // The program's own libcudart (already loaded) when there is one.
  void *H = dlopen(Library, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (!H)
    H = dlopen(Library, RTLD_NOW | RTLD_LOCAL);
  if (!H) {
    const char *Why = dlerror();
    Error = std::string("the CUDA runtime library ") + Library +
            " cannot be loaded (" + (Why ? Why : "unknown reason") +
            "); install the CUDA toolkit the program was built with";
    return false;
  }
  bool Ok = lookUp(H, "cudaGetDeviceCount", Out.GetDeviceCount, Error) &&
            lookUp(H, "cudaGetErrorString", Out.GetErrorString, Error) &&
            lookUp(H, "cudaSetDevice", Out.SetDevice, Error) &&
            lookUp(H, "cudaMalloc", Out.Malloc, Error) &&
            lookUp(H, "cudaMallocManaged", Out.MallocManaged, Error) &&
            lookUp(H, "cudaMallocHost", Out.MallocHost, Error) &&
            lookUp(H, "cudaFree", Out.Free, Error) &&
            lookUp(H, "cudaFreeHost", Out.FreeHost, Error) &&
            lookUp(H, "cudaMemcpy2DAsync", Out.Memcpy2DAsync, Error) &&
            lookUp(H, "cudaMemsetAsync", Out.MemsetAsync, Error) &&
            lookUp(H, "cudaMemcpyToSymbolAsync", Out.MemcpyToSymbolAsync,
                   Error) &&
            lookUp(H, "cudaMemcpyFromSymbolAsync", Out.MemcpyFromSymbolAsync,
                   Error) &&
            lookUp(H, "cudaLaunchKernel", Out.LaunchKernel, Error) &&
            lookUp(H, "cudaStreamCreateWithFlags", Out.StreamCreateWithFlags,
                   Error) &&
            lookUp(H, "cudaEventCreate", Out.EventCreate, Error) &&
            lookUp(H, "cudaEventRecord", Out.EventRecord, Error) &&
            lookUp(H, "cudaEventSynchronize", Out.EventSynchronize, Error) &&
            lookUp(H, "cudaEventElapsedTime", Out.EventElapsedTime, Error) &&
            lookUp(H, "cudaGetLastError", Out.GetLastError, Error);
  if (!Ok)
    return false;
  // Say which of the two is missing: the driver library or a GPU.
  bool Driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL) != nullptr;
  int Count = 0;
  cudaError_t E = Out.GetDeviceCount(&Count);
  if (E != cudaSuccess || Count < 1) {
    Error = std::string(Driver ? "no usable GPU"
                               : "no NVIDIA driver (libcuda.so.1 not found)") +
            ": cudaGetDeviceCount " +
            (E != cudaSuccess ? std::string("failed: ") + Out.GetErrorString(E)
                              : std::string("found 0 devices"));
    return false;
  }
  return true;
}

} // namespace orrery::twin
