//===- CudaMemory.cpp - Allocations, copies and sets on simulated GPUs ----===//
//
// Copies between host and device are flows over the node's PCIe links, peer
// copies flows over NVLink (or two PCIe flows through the host without peer
// links), so concurrent transfers share bandwidth. Device memory holds no
// data: a copy to the host writes zeros there (docs/simulate.md says what
// that means for programs that read results back).
//
//===----------------------------------------------------------------------===//

#include "CudaCommon.h"
#include "DeviceMemory.h"
#include "DeviceValues.h"

#include <cstring>

using namespace orrery::sim;

namespace {

/// Where one side of a copy lives.
struct Place {
  bool Device = false; ///< device or managed memory
  bool Pinned = false; ///< page-locked host memory
  int Gpu = 0;
};

Place placeOf(const void *P) {
  Place Pl;
  if (const Allocation *A = DeviceMemory::get().find(P)) {
    Pl.Device = A->Kind != MemoryKind::Pinned;
    Pl.Pinned = A->Kind == MemoryKind::Pinned;
    Pl.Gpu = A->Device;
  }
  return Pl;
}

/// Checks a declared cudaMemcpyKind against where the pointers live.
bool kindMatches(cudaMemcpyKind K, const Place &Dst, const Place &Src) {
  switch (K) {
  case cudaMemcpyHostToHost:
    return !Dst.Device && !Src.Device;
  case cudaMemcpyHostToDevice:
    return Dst.Device && !Src.Device;
  case cudaMemcpyDeviceToHost:
    return !Dst.Device && Src.Device;
  case cudaMemcpyDeviceToDevice:
    return Dst.Device && Src.Device;
  case cudaMemcpyDefault:
    return true;
  }
  return false;
}

/// Queues the copy of \p Bytes from \p Src to \p Dst on \p S; returns the
/// completion of its last part.
Completion queueCopy(Rank &R, Stream &S, void *DstPtr, const Place &Dst,
                     const Place &Src, size_t Bytes) {
  Runtime &RT = Runtime::get();
  const orrery::models::CommParams &P = RT.comm();
  auto Flow = [&](s4u::Host *From, s4u::Host *To, const char *Name,
                  bool Estimate) {
    StreamOp Op;
    Op.K = StreamOp::Flow;
    Op.From = From;
    Op.To = To;
    Op.Bytes = static_cast<double>(Bytes);
    Op.Name = Name;
    Op.Estimate = Estimate;
    return submit(R, S, std::move(Op));
  };
  if (Dst.Device && !Src.Device)
    return Flow(R.Cpu, RT.gpuHost(R.Node, Dst.Gpu), "H2D copy", P.H2D.Estimate);
  if (!Dst.Device && Src.Device) {
    deviceRead(R, DstPtr, Bytes); // zeros, or the value the user set
    return Flow(RT.gpuHost(R.Node, Src.Gpu), R.Cpu, "D2H copy", P.D2H.Estimate);
  }
  if (Dst.Gpu == Src.Gpu) {
    StreamOp Op;
    Op.K = StreamOp::Sleep;
    Op.Seconds = P.DeviceLocal.time(static_cast<double>(Bytes));
    Op.Parts[0] = {Category::Copies, Op.Seconds};
    Op.Estimate = P.DeviceLocal.Estimate;
    Op.Name = "D2D copy";
    return submit(R, S, std::move(Op));
  }
  s4u::Host *A = RT.gpuHost(R.Node, Src.Gpu), *B = RT.gpuHost(R.Node, Dst.Gpu);
  if (P.PeerAccess)
    return Flow(A, B, "peer copy", P.Peer.Estimate);
  Flow(A, R.Cpu, "peer copy (D2H stage)", P.D2H.Estimate);
  return Flow(R.Cpu, B, "peer copy (H2D stage)", P.H2D.Estimate);
}

/// cudaMemcpy and friends: \p Async copies return after queueing unless the
/// host side is pageable memory, which CUDA copies synchronously.
cudaError_t copy(void *Dst, const void *Src, size_t Bytes, cudaMemcpyKind K,
                 cudaStream_t Handle, bool Async) {
  Rank &R = callingRank();
  Runtime &RT = Runtime::get();
  if ((!Dst || !Src) && Bytes)
    return fail(R, cudaErrorInvalidValue);
  Stream *S = resolveStream(R, Handle);
  if (!S)
    return fail(R, cudaErrorInvalidResourceHandle);
  Place D = placeOf(Dst), Sr = placeOf(Src);
  if (!kindMatches(K, D, Sr))
    return fail(R, cudaErrorInvalidMemcpyDirection);
  RT.cpuWait(R, Category::CallOverhead, RT.comm().CopyCallOverhead,
             RT.comm().Estimates.CopyCallOverhead);
  if (!D.Device && !Sr.Device) {
    std::memmove(Dst, Src, Bytes); // host to host: real data
    return cudaSuccess;
  }
  Completion C = queueCopy(R, *S, Dst, D, Sr, Bytes);
  bool Pageable = (!D.Device && !D.Pinned) || (!Sr.Device && !Sr.Pinned);
  if (!Async || Pageable)
    waitFor(C);
  return cudaSuccess;
}

cudaError_t set(void *Dst, size_t Bytes, cudaStream_t Handle, bool Async) {
  Rank &R = callingRank();
  Runtime &RT = Runtime::get();
  Stream *S = resolveStream(R, Handle);
  if (!S)
    return fail(R, cudaErrorInvalidResourceHandle);
  const Allocation *A = DeviceMemory::get().find(Dst);
  if (!A || A->Kind == MemoryKind::Pinned)
    return fail(R, cudaErrorInvalidValue);
  const orrery::models::GpuParams &G = RT.gpu();
  StreamOp Op;
  Op.K = StreamOp::Sleep;
  Op.Seconds =
      static_cast<double>(Bytes) / (G.MemoryBandwidth * G.MemoryEfficiency);
  Op.Parts[0] = {Category::Copies, Op.Seconds};
  Op.Estimate = G.Estimates.MemoryBandwidth || G.Estimates.MemoryEfficiency;
  Op.Name = "memset";
  Completion C = submit(R, *S, std::move(Op));
  if (!Async)
    waitFor(C);
  return cudaSuccess;
}

cudaError_t allocate(void **Out, size_t Bytes, MemoryKind Kind) {
  Rank &R = callingRank();
  if (!Out)
    return fail(R, cudaErrorInvalidValue);
  Runtime &RT = Runtime::get();
  if (Kind == MemoryKind::Device &&
      DeviceMemory::get().deviceBytes(R.Id, R.Device) + Bytes >
          RT.machine().Gpu.MemoryCapacity.Value) {
    RT.report().warn("rank " + std::to_string(R.Id) +
                     " ran out of simulated device memory (" +
                     std::to_string(Bytes) + " more bytes asked)");
    return fail(R, cudaErrorMemoryAllocation);
  }
  void *P = DeviceMemory::get().allocate(Bytes, R.Id, R.Device, Kind);
  if (!P)
    return fail(R, cudaErrorMemoryAllocation);
  *Out = P;
  return cudaSuccess;
}

cudaError_t release(void *P, bool Pinned) {
  Rank &R = callingRank();
  if (!P)
    return cudaSuccess;
  const Allocation *A = DeviceMemory::get().find(P);
  if (!A || (A->Kind == MemoryKind::Pinned) != Pinned)
    return fail(R,
                Pinned ? cudaErrorInvalidValue : cudaErrorInvalidDevicePointer);
  // cudaFree synchronizes the device.
  if (!Pinned)
    for (const StreamPtr &S : R.device(A->Device).Streams)
      waitFor(S->tail());
  if (!DeviceMemory::get().release(P))
    return fail(R, cudaErrorInvalidValue);
  return cudaSuccess;
}

} // namespace

extern "C" {

cudaError_t cudaMalloc(void **P, size_t Bytes) {
  return allocate(P, Bytes, MemoryKind::Device);
}

cudaError_t cudaMallocManaged(void **P, size_t Bytes, unsigned) {
  return allocate(P, Bytes, MemoryKind::Managed);
}

cudaError_t cudaMallocHost(void **P, size_t Bytes) {
  return allocate(P, Bytes, MemoryKind::Pinned);
}

cudaError_t cudaHostAlloc(void **P, size_t Bytes, unsigned) {
  return allocate(P, Bytes, MemoryKind::Pinned);
}

cudaError_t cudaMallocAsync(void **P, size_t Bytes, cudaStream_t) {
  return allocate(P, Bytes, MemoryKind::Device);
}

cudaError_t cudaFree(void *P) { return release(P, false); }

cudaError_t cudaFreeHost(void *P) { return release(P, true); }

cudaError_t cudaFreeAsync(void *P, cudaStream_t) {
  Rank &R = callingRank();
  if (P && !DeviceMemory::get().release(P))
    return fail(R, cudaErrorInvalidDevicePointer);
  return cudaSuccess;
}

cudaError_t cudaHostRegister(void *P, size_t Bytes, unsigned) {
  Rank &R = callingRank();
  if (!P)
    return fail(R, cudaErrorInvalidValue);
  DeviceMemory::get().registerHost(P, Bytes, R.Id);
  return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *P) {
  Rank &R = callingRank();
  if (!DeviceMemory::get().unregisterHost(P))
    return fail(R, cudaErrorHostMemoryNotRegistered);
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  Rank &R = callingRank();
  if (!Free || !Total)
    return fail(R, cudaErrorInvalidValue);
  double Capacity = Runtime::get().machine().Gpu.MemoryCapacity.Value;
  *Total = static_cast<size_t>(Capacity);
  size_t Used = DeviceMemory::get().deviceBytes(R.Id, R.Device);
  *Free = Used < *Total ? *Total - Used : 0;
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *Attr,
                                     const void *P) {
  Rank &R = callingRank();
  if (!Attr)
    return fail(R, cudaErrorInvalidValue);
  std::memset(Attr, 0, sizeof *Attr);
  const Allocation *A = DeviceMemory::get().find(P);
  Attr->type = !A                               ? cudaMemoryTypeUnregistered
               : A->Kind == MemoryKind::Device  ? cudaMemoryTypeDevice
               : A->Kind == MemoryKind::Managed ? cudaMemoryTypeManaged
                                                : cudaMemoryTypeHost;
  Attr->device = A ? A->Device : -1;
  Attr->devicePointer =
      A && A->Kind != MemoryKind::Pinned ? const_cast<void *>(P) : nullptr;
  Attr->hostPointer =
      !A || A->Kind != MemoryKind::Device ? const_cast<void *>(P) : nullptr;
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Bytes,
                       cudaMemcpyKind K) {
  return copy(Dst, Src, Bytes, K, nullptr, false);
}

cudaError_t cudaMemcpyAsync(void *Dst, const void *Src, size_t Bytes,
                            cudaMemcpyKind K, cudaStream_t S) {
  return copy(Dst, Src, Bytes, K, S, true);
}

// 2-D copies move width x height bytes; pitches change no cost here.
cudaError_t cudaMemcpy2D(void *Dst, size_t, const void *Src, size_t,
                         size_t Width, size_t Height, cudaMemcpyKind K) {
  return copy(Dst, Src, Width * Height, K, nullptr, false);
}

cudaError_t cudaMemcpy2DAsync(void *Dst, size_t, const void *Src, size_t,
                              size_t Width, size_t Height, cudaMemcpyKind K,
                              cudaStream_t S) {
  return copy(Dst, Src, Width * Height, K, S, true);
}

cudaError_t cudaMemcpyPeer(void *Dst, int, const void *Src, int, size_t Bytes) {
  return copy(Dst, Src, Bytes, cudaMemcpyDefault, nullptr, false);
}

cudaError_t cudaMemcpyPeerAsync(void *Dst, int, const void *Src, int,
                                size_t Bytes, cudaStream_t S) {
  return copy(Dst, Src, Bytes, cudaMemcpyDefault, S, true);
}

// A __device__ variable's host shadow is ordinary host memory: its data is
// kept (programs reading a symbol back get what they wrote) and the time is
// that of a host-device copy.
cudaError_t cudaMemcpyToSymbol(const void *Symbol, const void *Src,
                               size_t Bytes, size_t Offset, cudaMemcpyKind) {
  Rank &R = callingRank();
  if (!Symbol || !Src)
    return fail(R, cudaErrorInvalidValue);
  std::memmove(static_cast<char *>(const_cast<void *>(Symbol)) + Offset, Src,
               Bytes);
  Stream &S = *R.current().Legacy;
  Place Dev;
  Dev.Device = true;
  Dev.Gpu = R.Device;
  waitFor(queueCopy(R, S, nullptr, Dev, placeOf(Src), Bytes));
  return cudaSuccess;
}

cudaError_t cudaMemcpyFromSymbol(void *Dst, const void *Symbol, size_t Bytes,
                                 size_t Offset, cudaMemcpyKind) {
  Rank &R = callingRank();
  if (!Symbol || !Dst)
    return fail(R, cudaErrorInvalidValue);
  Stream &S = *R.current().Legacy;
  Place Dev;
  Dev.Device = true;
  Dev.Gpu = R.Device;
  Place Host = placeOf(Dst);
  // Route the time as a device-to-host flow, then put the data in place.
  Host.Device = false;
  Place Tmp = Host;
  waitFor(queueCopy(R, S, Dst, Tmp, Dev, Bytes));
  std::memmove(Dst, static_cast<const char *>(Symbol) + Offset, Bytes);
  return cudaSuccess;
}

cudaError_t cudaMemset(void *Dst, int, size_t Bytes) {
  return set(Dst, Bytes, nullptr, false);
}

cudaError_t cudaMemsetAsync(void *Dst, int, size_t Bytes, cudaStream_t S) {
  return set(Dst, Bytes, S, true);
}

cudaError_t cudaMemPrefetchAsync(const void *, size_t, cudaMemLocation,
                                 unsigned, cudaStream_t) {
  return cudaSuccess;
}

} // extern "C"
