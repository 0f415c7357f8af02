//===- CudaDevice.cpp - Devices, errors and properties of simulated GPUs --===//

#include "CudaCommon.h"
#include "gpu/DeviceMemory.h"
#include "gpu/FuncAttributes.h"

#include <cstdio>
#include <cstring>

using namespace orrery::sim;

namespace orrery::sim {

Rank &callingRank() {
  Runtime &RT = Runtime::get();
  RT.tick();
  return RT.rank();
}

cudaError_t fail(Rank &R, cudaError_t E) {
  R.LastError = E;
  return E;
}

int visibleGpus(const Rank &R) {
  return R.BoundGpu >= 0 ? 1 : Runtime::get().gpusPerNode();
}

int physicalGpu(const Rank &R, int D) {
  if (D < 0 || D >= visibleGpus(R))
    return -1;
  return R.BoundGpu >= 0 ? R.BoundGpu : D;
}

int ordinalOf(const Rank &R, int G) {
  if (R.BoundGpu >= 0)
    return G == R.BoundGpu ? 0 : -1;
  return G >= 0 && G < Runtime::get().gpusPerNode() ? G : -1;
}

} // namespace orrery::sim

/// Compute capability of the modelled GPU, from its model name.
static void computeCapability(int &Major, int &Minor) {
  const std::string &Model = Runtime::get().machine().Gpu.Model;
  Major = 9;
  Minor = 0;
  if (Model.find("A100") != std::string::npos) {
    Major = 8;
    Minor = 0;
  } else if (Model.find("B200") != std::string::npos ||
             Model.find("GB200") != std::string::npos) {
    Major = 10;
  }
}

extern "C" {

cudaError_t cudaGetDeviceCount(int *Count) {
  Rank &R = callingRank();
  if (!Count)
    return fail(R, cudaErrorInvalidValue);
  *Count = visibleGpus(R);
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int D) {
  Rank &R = callingRank();
  int G = physicalGpu(R, D);
  if (G < 0)
    return fail(R, cudaErrorInvalidDevice);
  R.Device = G;
  R.device(G);
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int *D) {
  Rank &R = callingRank();
  if (!D)
    return fail(R, cudaErrorInvalidValue);
  *D = ordinalOf(R, R.Device);
  return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }

cudaError_t cudaDeviceReset(void) {
  Rank &R = callingRank();
  for (const StreamPtr &S : R.current().Streams)
    waitFor(S->tail());
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *P, int D) {
  Rank &R = callingRank();
  if (!P)
    return fail(R, cudaErrorInvalidValue);
  int Gpu = physicalGpu(R, D);
  if (Gpu < 0)
    return fail(R, cudaErrorInvalidDevice);
  const orrery::models::GpuModel &G = Runtime::get().machine().Gpu;
  std::memset(P, 0, sizeof *P);
  std::string Name = G.Model + " (simulated by Orrery)";
  std::strncpy(P->name, Name.c_str(), sizeof P->name - 1);
  P->totalGlobalMem = static_cast<size_t>(G.MemoryCapacity.Value);
  P->sharedMemPerBlock = static_cast<size_t>(G.SharedMemoryPerBlock.Value);
  P->sharedMemPerMultiprocessor =
      static_cast<size_t>(G.SharedMemoryPerSm.Value);
  // What a kernel may opt into: the SM's shared memory less the 1 KiB the
  // driver reserves per block.
  P->sharedMemPerBlockOptin = P->sharedMemPerMultiprocessor > 1024
                                  ? P->sharedMemPerMultiprocessor - 1024
                                  : P->sharedMemPerBlock;
  P->regsPerBlock = static_cast<int>(G.RegistersPerSm.Value);
  P->regsPerMultiprocessor = static_cast<int>(G.RegistersPerSm.Value);
  P->warpSize = static_cast<int>(G.WarpSize.Value);
  P->maxThreadsPerBlock = static_cast<int>(G.MaxThreadsPerBlock.Value);
  P->maxThreadsPerMultiProcessor = static_cast<int>(G.MaxThreadsPerSm.Value);
  P->maxBlocksPerMultiProcessor = static_cast<int>(G.MaxBlocksPerSm.Value);
  P->multiProcessorCount = static_cast<int>(G.SmCount.Value);
  P->maxThreadsDim[0] = P->maxThreadsDim[1] = 1024;
  P->maxThreadsDim[2] = 64;
  P->maxGridSize[0] = 2147483647;
  P->maxGridSize[1] = P->maxGridSize[2] = 65535;
  computeCapability(P->major, P->minor);
  P->concurrentKernels = 1;
  P->unifiedAddressing = 1;
  P->managedMemory = 1;
  P->asyncEngineCount = 2;
  P->pciDeviceID = Gpu;
  P->l2CacheSize = static_cast<int>(G.L2Size.Value);
  P->totalConstMem = 64 * 1024;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *Value, cudaDeviceAttr A, int D) {
  Rank &R = callingRank();
  if (!Value)
    return fail(R, cudaErrorInvalidValue);
  cudaDeviceProp P;
  if (cudaError_t E = cudaGetDeviceProperties(&P, D))
    return E;
  switch (A) {
  case cudaDevAttrMaxThreadsPerBlock:
    *Value = P.maxThreadsPerBlock;
    break;
  case cudaDevAttrWarpSize:
    *Value = P.warpSize;
    break;
  case cudaDevAttrMultiProcessorCount:
    *Value = P.multiProcessorCount;
    break;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    *Value = static_cast<int>(P.sharedMemPerBlock);
    break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    *Value = static_cast<int>(P.sharedMemPerMultiprocessor);
    break;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    *Value = P.maxThreadsPerMultiProcessor;
    break;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    *Value = P.maxBlocksPerMultiProcessor;
    break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    *Value = static_cast<int>(P.sharedMemPerBlockOptin);
    break;
  case cudaDevAttrComputeCapabilityMajor:
    *Value = P.major;
    break;
  case cudaDevAttrComputeCapabilityMinor:
    *Value = P.minor;
    break;
  case cudaDevAttrMaxRegistersPerBlock:
    *Value = P.regsPerBlock;
    break;
  case cudaDevAttrClockRate: // kHz
    *Value =
        static_cast<int>(Runtime::get().machine().Gpu.Clock.Value / 1e3 + 0.5);
    break;
  case cudaDevAttrL2CacheSize:
    *Value = P.l2CacheSize;
    break;
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    *Value = P.regsPerMultiprocessor;
    break;
  case cudaDevAttrMaxBlockDimX:
  case cudaDevAttrMaxBlockDimY:
  case cudaDevAttrMaxBlockDimZ:
    *Value = P.maxThreadsDim[A - cudaDevAttrMaxBlockDimX];
    break;
  case cudaDevAttrMaxGridDimX:
  case cudaDevAttrMaxGridDimY:
  case cudaDevAttrMaxGridDimZ:
    *Value = P.maxGridSize[A - cudaDevAttrMaxGridDimX];
    break;
  case cudaDevAttrTotalConstantMemory:
    *Value = static_cast<int>(P.totalConstMem);
    break;
  case cudaDevAttrAsyncEngineCount:
    *Value = P.asyncEngineCount;
    break;
  case cudaDevAttrPciDeviceId:
    *Value = P.pciDeviceID;
    break;
  case cudaDevAttrConcurrentKernels:
  case cudaDevAttrUnifiedAddressing:
  case cudaDevAttrManagedMemory:
    *Value = 1;
    break;
  default:
    *Value = 0;
    Runtime::get().report().warn("cudaDeviceGetAttribute(" +
                                 std::to_string(static_cast<int>(A)) +
                                 ") is not modelled: answered 0");
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int *Can, int D, int Peer) {
  Rank &R = callingRank();
  if (!Can)
    return fail(R, cudaErrorInvalidValue);
  if (physicalGpu(R, D) < 0 || physicalGpu(R, Peer) < 0)
    return fail(R, cudaErrorInvalidDevice);
  *Can = D != Peer && Runtime::get().comm().PeerAccess;
  return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int Peer, unsigned) {
  Rank &R = callingRank();
  int G = physicalGpu(R, Peer);
  if (G < 0 || G == R.Device || !Runtime::get().comm().PeerAccess)
    return fail(R, cudaErrorInvalidDevice);
  bool &On = R.current().PeerAccess[G];
  if (On)
    return fail(R, cudaErrorPeerAccessAlreadyEnabled);
  On = true;
  return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int Peer) {
  Rank &R = callingRank();
  int G = physicalGpu(R, Peer);
  if (G < 0)
    return fail(R, cudaErrorInvalidDevice);
  R.current().PeerAccess[G] = false;
  return cudaSuccess;
}

// A cache preference is a shared-memory carveout (FuncAttributes.h).
cudaError_t cudaFuncSetCacheConfig(const void *Func, cudaFuncCache Cache) {
  if (!Func)
    return fail(callingRank(), cudaErrorInvalidDeviceFunction);
  funcAttributes(Func).CarveoutPercent =
      Cache == cudaFuncCachePreferShared  ? 100
      : Cache == cudaFuncCachePreferL1    ? 0
      : Cache == cudaFuncCachePreferEqual ? 50
                                          : -1;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }

cudaError_t cudaFuncSetAttribute(const void *Func, cudaFuncAttribute Attr,
                                 int Value) {
  Rank &R = callingRank();
  if (!Func)
    return fail(R, cudaErrorInvalidDeviceFunction);
  switch (Attr) {
  case cudaFuncAttributePreferredSharedMemoryCarveout:
    if (Value < -1 || Value > 100)
      return fail(R, cudaErrorInvalidValue);
    funcAttributes(Func).CarveoutPercent = Value;
    break;
  case cudaFuncAttributeMaxDynamicSharedMemorySize:
    if (Value < 0 || Value > Runtime::get().gpu().SharedMemoryPerBlock)
      return fail(R, cudaErrorInvalidValue);
    funcAttributes(Func).MaxDynamicShared = Value;
    break;
  default:
    break; // accepted, not modelled
  }
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void) {
  Rank &R = callingRank();
  cudaError_t E = static_cast<cudaError_t>(R.LastError);
  R.LastError = cudaSuccess;
  return E;
}

cudaError_t cudaPeekAtLastError(void) {
  return static_cast<cudaError_t>(callingRank().LastError);
}

const char *cudaGetErrorName(cudaError_t E) {
  switch (E) {
  case cudaSuccess:
    return "cudaSuccess";
  case cudaErrorInvalidValue:
    return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation:
    return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidDevice:
    return "cudaErrorInvalidDevice";
  case cudaErrorInvalidResourceHandle:
    return "cudaErrorInvalidResourceHandle";
  case cudaErrorNotReady:
    return "cudaErrorNotReady";
  case cudaErrorInvalidConfiguration:
    return "cudaErrorInvalidConfiguration";
  case cudaErrorMissingConfiguration:
    return "cudaErrorMissingConfiguration";
  case cudaErrorPeerAccessAlreadyEnabled:
    return "cudaErrorPeerAccessAlreadyEnabled";
  case cudaErrorInvalidDevicePointer:
    return "cudaErrorInvalidDevicePointer";
  case cudaErrorInvalidMemcpyDirection:
    return "cudaErrorInvalidMemcpyDirection";
  case cudaErrorInvalidDeviceFunction:
    return "cudaErrorInvalidDeviceFunction";
  case cudaErrorNotSupported:
    return "cudaErrorNotSupported";
  case cudaErrorUnknown:
    return "cudaErrorUnknown";
  default: {
    // Not "cudaErrorUnknown": that is a code of its own.
    static thread_local char Buf[64];
    std::snprintf(Buf, sizeof Buf, "cudaError_%d", static_cast<int>(E));
    return Buf;
  }
  }
}

const char *cudaGetErrorString(cudaError_t E) {
  switch (E) {
  case cudaSuccess:
    return "no error";
  case cudaErrorInvalidValue:
    return "invalid argument";
  case cudaErrorMemoryAllocation:
    return "out of memory";
  case cudaErrorInvalidDevice:
    return "invalid device ordinal";
  case cudaErrorInvalidResourceHandle:
    return "invalid resource handle";
  case cudaErrorNotReady:
    return "device not ready";
  case cudaErrorInvalidConfiguration:
    return "invalid configuration argument";
  case cudaErrorMissingConfiguration:
    return "__global__ function call is not configured";
  case cudaErrorPeerAccessAlreadyEnabled:
    return "peer access is already enabled";
  case cudaErrorInvalidDevicePointer:
    return "invalid device pointer";
  case cudaErrorInvalidMemcpyDirection:
    return "invalid copy direction for memcpy";
  case cudaErrorInvalidDeviceFunction:
    return "invalid device function";
  case cudaErrorNotSupported:
    return "operation not supported";
  case cudaErrorUnknown:
    return "unknown error";
  default: {
    static thread_local char Buf[96];
    std::snprintf(Buf, sizeof Buf,
                  "CUDA error %d (not described by Orrery's skeleton runtime)",
                  static_cast<int>(E));
    return Buf;
  }
  }
}

cudaError_t cudaDriverGetVersion(int *V) {
  if (V)
    *V = CUDART_VERSION;
  return V ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t cudaRuntimeGetVersion(int *V) {
  if (V)
    *V = CUDART_VERSION;
  return V ? cudaSuccess : cudaErrorInvalidValue;
}

} // extern "C"
