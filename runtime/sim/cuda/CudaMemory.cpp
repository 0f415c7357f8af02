//===- CudaMemory.cpp - Allocations, copies and sets on simulated GPUs ----===//
//
// Copies between host and device are flows over the node's PCIe links, peer
// copies flows over NVLink (or two PCIe flows through the host without peer
// links), so concurrent transfers share bandwidth. In skeleton mode device
// memory holds no data: a copy to the host writes zeros there
// (docs/simulate.md says what that means for programs that read results
// back). In twin mode the device executor allocates real memory and really
// copies and sets it (DeviceExecutor.h).
//
//===----------------------------------------------------------------------===//

#include "CudaCommon.h"
#include "gpu/DeviceExecutor.h"
#include "gpu/DeviceMemory.h"
#include "values/DeviceValues.h"

#include <algorithm>
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
                     const Place &Src, size_t Bytes, bool FillRead = true) {
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
    if (FillRead)
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

/// Queues a Sleep of \p C's time on \p S (a measured copy or set).
Completion submitCharge(Rank &R, Stream &S, const DeviceCharge &C,
                        const char *Name) {
  StreamOp Op = chargedOp(StreamOp::Sleep, C);
  Op.Name = Name;
  return submit(R, S, std::move(Op));
}

/// The destination's and source's row pitch of a 2-D copy of Bytes / Height
/// rows (only twin mode's real copy uses them; 0: the row width).
struct Pitches {
  size_t Dst = 0, Src = 0, Height = 1;
};

/// cudaMemcpy and friends: \p Async copies return after queueing unless the
/// host side is pageable memory, which CUDA copies synchronously.
cudaError_t copy(void *Dst, const void *Src, size_t Bytes, cudaMemcpyKind K,
                 cudaStream_t Handle, bool Async, Pitches P2 = {}) {
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
  DeviceExecutor &Ex = deviceExecutor();
  size_t Width = P2.Height ? Bytes / P2.Height : Bytes;
  Measurement M = Ex.copy(Dst, P2.Dst ? P2.Dst : Width, Src,
                          P2.Src ? P2.Src : Width, Width, P2.Height, K);
  if (M.Error) {
    RT.report().warn("a copy failed on the GPU: " + M.What);
    return fail(R, static_cast<cudaError_t>(M.Error));
  }
  Completion C = chargesMeasuredCopy(copyTiming(), M)
                     ? submitCharge(R, *S, measuredCopyCharge(M), "copy")
                     : queueCopy(R, *S, Dst, D, Sr, Bytes, !Ex.real());
  bool Pageable = (!D.Device && !D.Pinned) || (!Sr.Device && !Sr.Pinned);
  if (!Async || Pageable)
    waitFor(C);
  return cudaSuccess;
}

cudaError_t set(void *Dst, int Value, size_t Bytes, cudaStream_t Handle,
                bool Async) {
  Rank &R = callingRank();
  Runtime &RT = Runtime::get();
  Stream *S = resolveStream(R, Handle);
  if (!S)
    return fail(R, cudaErrorInvalidResourceHandle);
  const Allocation *A = DeviceMemory::get().find(Dst);
  if (!A || A->Kind == MemoryKind::Pinned)
    return fail(R, cudaErrorInvalidValue);
  Measurement M = deviceExecutor().set(Dst, Value, Bytes);
  if (M.Error) {
    RT.report().warn("a memset failed on the GPU: " + M.What);
    return fail(R, static_cast<cudaError_t>(M.Error));
  }
  if (chargesMeasuredCopy(copyTiming(), M)) {
    Completion C = submitCharge(R, *S, measuredCopyCharge(M), "memset");
    if (!Async)
      waitFor(C);
    return cudaSuccess;
  }
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

RealMemory realKind(MemoryKind K) {
  switch (K) {
  case MemoryKind::Device:
    return RealMemory::Device;
  case MemoryKind::Pinned:
    return RealMemory::Pinned;
  case MemoryKind::Managed:
    return RealMemory::Managed;
  }
  return RealMemory::Device;
}

/// Frees what twin mode's executor allocated; DeviceMemory forgets it.
bool releaseAllocation(void *P) {
  const Allocation *A = DeviceMemory::get().find(P);
  if (A && A->External && A->Base == reinterpret_cast<std::uintptr_t>(P))
    deviceExecutor().release(P, realKind(A->Kind));
  return DeviceMemory::get().release(P);
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
  DeviceExecutor &Ex = deviceExecutor();
  void *P = nullptr;
  if (Ex.real()) {
    P = Ex.allocate(Bytes, realKind(Kind));
    if (P)
      DeviceMemory::get().adopt(P, Bytes, R.Id, R.Device, Kind);
  } else {
    P = DeviceMemory::get().allocate(Bytes, R.Id, R.Device, Kind);
  }
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
  if (!releaseAllocation(P))
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
  if (P && !releaseAllocation(P))
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
  Attr->device = A ? std::max(0, ordinalOf(R, A->Device)) : -1;
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
cudaError_t cudaMemcpy2D(void *Dst, size_t DPitch, const void *Src,
                         size_t SPitch, size_t Width, size_t Height,
                         cudaMemcpyKind K) {
  return copy(Dst, Src, Width * Height, K, nullptr, false,
              {DPitch, SPitch, Height});
}

cudaError_t cudaMemcpy2DAsync(void *Dst, size_t DPitch, const void *Src,
                              size_t SPitch, size_t Width, size_t Height,
                              cudaMemcpyKind K, cudaStream_t S) {
  return copy(Dst, Src, Width * Height, K, S, true, {DPitch, SPitch, Height});
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
  Measurement M = deviceExecutor().copySymbol(
      true, Symbol, const_cast<void *>(Src), Bytes, Offset);
  if (M.Error)
    return fail(R, static_cast<cudaError_t>(M.Error));
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
  waitFor(queueCopy(R, S, Dst, Tmp, Dev, Bytes, !deviceExecutor().real()));
  // Twin mode reads the device's copy of the symbol; skeleton mode its host
  // shadow.
  Measurement M =
      deviceExecutor().copySymbol(false, Symbol, Dst, Bytes, Offset);
  if (M.Error)
    return fail(R, static_cast<cudaError_t>(M.Error));
  if (!M.Ran)
    std::memmove(Dst, static_cast<const char *>(Symbol) + Offset, Bytes);
  return cudaSuccess;
}

cudaError_t cudaMemset(void *Dst, int Value, size_t Bytes) {
  return set(Dst, Value, Bytes, nullptr, false);
}

cudaError_t cudaMemsetAsync(void *Dst, int Value, size_t Bytes,
                            cudaStream_t S) {
  return set(Dst, Value, Bytes, S, true);
}

cudaError_t cudaMemPrefetchAsync(const void *, size_t, cudaMemLocation,
                                 unsigned, cudaStream_t) {
  return cudaSuccess;
}

} // extern "C"
