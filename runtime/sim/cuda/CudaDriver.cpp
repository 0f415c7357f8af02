//===- CudaDriver.cpp - Driver API calls CUDA-aware codes make ------------===//
//
// CUDA-aware MPI benchmarks and libraries (the OSU micro-benchmarks, CUB and
// thrust) make a few driver API and runtime bookkeeping calls besides the
// runtime API proper: initialization, the primary context, pointer
// attributes, function attributes, the profiler switch. Skeleton mode
// answers them from the simulated devices; none of them takes simulated
// time. Contexts are handles naming a device (device + 1).
//
//===----------------------------------------------------------------------===//

#include "CudaCommon.h"
#include "gpu/DeviceMemory.h"
#include "gpu/FuncAttributes.h"
#include "gpu/KernelRegistry.h"

#include <cuda.h>
#include <cuda_profiler_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

using namespace orrery::sim;

static CUcontext contextOf(int D) {
  return reinterpret_cast<CUcontext>(static_cast<std::uintptr_t>(D) + 1);
}

static int deviceOf(CUcontext C) {
  return static_cast<int>(reinterpret_cast<std::uintptr_t>(C)) - 1;
}

extern "C" {

CUresult cuInit(unsigned int) { return CUDA_SUCCESS; }

CUresult cuDriverGetVersion(int *V) {
  if (!V)
    return CUDA_ERROR_INVALID_VALUE;
  *V = CUDA_VERSION;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *Count) {
  if (!Count)
    return CUDA_ERROR_INVALID_VALUE;
  *Count = visibleGpus(callingRank());
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *Dev, int Ordinal) {
  if (!Dev)
    return CUDA_ERROR_INVALID_VALUE;
  if (physicalGpu(callingRank(), Ordinal) < 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *Dev = Ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *Ctx, CUdevice Dev) {
  if (!Ctx)
    return CUDA_ERROR_INVALID_VALUE;
  int G = physicalGpu(callingRank(), Dev);
  if (G < 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *Ctx = contextOf(G);
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice Dev) {
  return physicalGpu(callingRank(), Dev) >= 0 ? CUDA_SUCCESS
                                              : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuCtxGetCurrent(CUcontext *Ctx) {
  if (!Ctx)
    return CUDA_ERROR_INVALID_VALUE;
  *Ctx = contextOf(callingRank().Device);
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext Ctx) {
  if (!Ctx) // unbinding: the runtime keeps its current device
    return CUDA_SUCCESS;
  int Ordinal = ordinalOf(callingRank(), deviceOf(Ctx));
  if (Ordinal < 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  return cudaSetDevice(Ordinal) == cudaSuccess ? CUDA_SUCCESS
                                               : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuCtxGetDevice(CUdevice *Dev) {
  if (!Dev)
    return CUDA_ERROR_INVALID_VALUE;
  Rank &R = callingRank();
  *Dev = ordinalOf(R, R.Device);
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void) {
  return cudaDeviceSynchronize() == cudaSuccess ? CUDA_SUCCESS
                                                : CUDA_ERROR_UNKNOWN;
}

CUresult cuPointerGetAttribute(void *Data, CUpointer_attribute Attr,
                               CUdeviceptr Ptr) {
  if (!Data)
    return CUDA_ERROR_INVALID_VALUE;
  const Allocation *A =
      DeviceMemory::get().find(reinterpret_cast<const void *>(Ptr));
  bool Device = A && A->Kind != MemoryKind::Pinned;
  switch (Attr) {
  case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
    // Like the driver: plain host memory is not CUDA memory at all.
    if (!A)
      return CUDA_ERROR_INVALID_VALUE;
    *static_cast<unsigned *>(Data) =
        Device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_CONTEXT:
    if (!A)
      return CUDA_ERROR_INVALID_VALUE;
    *static_cast<CUcontext *>(Data) = contextOf(A->Device);
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
    if (!A)
      return CUDA_ERROR_INVALID_VALUE;
    // (Only the rank's own GPUs hold its allocations.)
    *static_cast<int *>(Data) =
        std::max(0, ordinalOf(callingRank(), A->Device));
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_IS_MANAGED:
    *static_cast<int *>(Data) = A && A->Kind == MemoryKind::Managed;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
  case CU_POINTER_ATTRIBUTE_HOST_POINTER:
    if (!A)
      return CUDA_ERROR_INVALID_VALUE;
    *static_cast<CUdeviceptr *>(Data) = Ptr; // unified addressing
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    if (!A)
      return CUDA_ERROR_INVALID_VALUE;
    *static_cast<CUdeviceptr *>(Data) = A->Base;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    if (!A)
      return CUDA_ERROR_INVALID_VALUE;
    *static_cast<size_t *>(Data) = A->Size;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_NOT_SUPPORTED;
  }
}

CUresult cuGetErrorString(CUresult E, const char **S) {
  if (!S)
    return CUDA_ERROR_INVALID_VALUE;
  *S = E == CUDA_SUCCESS ? "no error" : "error (Orrery's skeleton driver API)";
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult E, const char **S) {
  if (!S)
    return CUDA_ERROR_INVALID_VALUE;
  *S = E == CUDA_SUCCESS ? "CUDA_SUCCESS" : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}

// CUB and thrust ask for a kernel's attributes before choosing launch
// shapes; the answers are those of a kernel that fits any configuration.
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *Attr, const void *Fn) {
  if (!Attr || !Fn)
    return fail(callingRank(), cudaErrorInvalidValue);
  std::memset(Attr, 0, sizeof(*Attr));
  Attr->maxThreadsPerBlock = 1024;
  Attr->numRegs = 32;
  // The kernel's registered hint knows its static shared memory and ptxas
  // registers; the program's settings are its own.
  if (std::optional<orrery_kernel_counts> C = kernelResources(Fn, 1, 0)) {
    Attr->sharedSizeBytes = static_cast<size_t>(C->shared_static_bytes);
    if (C->registers_per_thread > 0)
      Attr->numRegs = static_cast<int>(C->registers_per_thread);
    if (C->launch_bounds_max_threads > 0)
      Attr->maxThreadsPerBlock = static_cast<int>(C->launch_bounds_max_threads);
  }
  FuncAttributes F = funcAttributesOf(Fn);
  Attr->preferredShmemCarveout = F.CarveoutPercent;
  Attr->maxDynamicSharedSizeBytes =
      F.MaxDynamicShared >= 0 ? F.MaxDynamicShared : 48 * 1024;
  // The attributes take the rank's ordinal: with a GPU bound to the rank
  // (--gpu-bind local) its node-wide index is an invalid ordinal, and the
  // failed query would leave cudaErrorInvalidDevice as the last error.
  int Major = 9, Minor = 0;
  Rank &R = callingRank();
  int Ordinal = std::max(0, ordinalOf(R, R.Device));
  cudaDeviceGetAttribute(&Major, cudaDevAttrComputeCapabilityMajor, Ordinal);
  cudaDeviceGetAttribute(&Minor, cudaDevAttrComputeCapabilityMinor, Ordinal);
  Attr->ptxVersion = Attr->binaryVersion = Major * 10 + Minor;
  return cudaSuccess;
}

cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

} // extern "C"

// mpi-ext.h of skeleton mode (runtime/sim/skeleton-include).
extern "C" int MPIX_Query_cuda_support(void) { return 1; }

// thrust and CUB size their grids from the occupancy and launch through
// cudaLaunchKernelExC (launch attributes are ignored: the simulated kernel
// is costed from its hint like any other launch).
extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *Blocks, const void *Func, int BlockSize, size_t Shared, unsigned) {
  if (!Blocks || !Func || BlockSize <= 0)
    return fail(callingRank(), cudaErrorInvalidValue);
  // The occupancy a launch is costed with: threads, blocks, the kernel's
  // registers and shared memory, its carveout (0 when none fits).
  *Blocks = static_cast<int>(
      kernelOccupancy(Runtime::get().gpu(), Func, BlockSize, Shared)
          .BlocksPerSm);
  return cudaSuccess;
}

extern "C" cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *Blocks, const void *Func,
                                              int BlockSize, size_t Shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      Blocks, Func, BlockSize, Shared, 0);
}

extern "C" cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *Config,
                                           const void *Func, void **Args) {
  if (!Config)
    return fail(callingRank(), cudaErrorInvalidValue);
  return cudaLaunchKernel(Func, Config->gridDim, Config->blockDim, Args,
                          Config->dynamicSmemBytes, Config->stream);
}

// Cooperative launches run like any other launch here (grid-wide sync is
// not modelled apart from the kernel's own counts).
extern "C" cudaError_t cudaLaunchCooperativeKernel(const void *Func, dim3 Grid,
                                                   dim3 Block, void **Args,
                                                   size_t Shared,
                                                   cudaStream_t Stream) {
  return cudaLaunchKernel(Func, Grid, Block, Args, Shared, Stream);
}

// A CUfunction of the runtime's kernels is the host stub's address, so the
// driver's launches resolve through the kernel registry like the runtime's.
extern "C" cudaError_t cudaGetFuncBySymbol(cudaFunction_t *Out,
                                           const void *Symbol) {
  if (!Out || !Symbol)
    return fail(callingRank(), cudaErrorInvalidDeviceFunction);
  *Out = reinterpret_cast<cudaFunction_t>(const_cast<void *>(Symbol));
  return cudaSuccess;
}

extern "C" CUresult cuLaunchKernel(CUfunction F, unsigned GridX, unsigned GridY,
                                   unsigned GridZ, unsigned BlockX,
                                   unsigned BlockY, unsigned BlockZ,
                                   unsigned Shared, CUstream Stream,
                                   void **Params, void **Extra) {
  // Arguments packed in `extra` (CU_LAUNCH_PARAM_BUFFER_POINTER) are not
  // read: the kernel's hint then sees no scalar argument.
  (void)Extra;
  cudaError_t E =
      cudaLaunchKernel(reinterpret_cast<const void *>(F),
                       dim3(GridX, GridY, GridZ), dim3(BlockX, BlockY, BlockZ),
                       Params, Shared, reinterpret_cast<cudaStream_t>(Stream));
  return E == cudaSuccess ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

extern "C" CUresult cuLaunchCooperativeKernel(CUfunction F, unsigned GridX,
                                              unsigned GridY, unsigned GridZ,
                                              unsigned BlockX, unsigned BlockY,
                                              unsigned BlockZ, unsigned Shared,
                                              CUstream Stream, void **Params) {
  return cuLaunchKernel(F, GridX, GridY, GridZ, BlockX, BlockY, BlockZ, Shared,
                        Stream, Params, nullptr);
}
