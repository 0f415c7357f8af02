//===- TwinExecutor.cpp - Twin mode: device work on the real GPU ----------===//
//
// liborrery-twin: linked into twin programs (orrery-cxx --orrery-mode=twin)
// ahead of liborrery-sim, it installs this executor when it is loaded. Every
// simulated rank's kernels, copies and sets run on GPU 0 of this machine, one
// at a time on one stream, each bracketed by two CUDA events and waited for:
// the measured durations go to the simulated streams (DeviceExecutor.h).
// Running each operation at once keeps the program's data real without
// mirroring the simulated streams on the GPU.
//
//===----------------------------------------------------------------------===//

#include "RealCuda.h"
#include "gpu/DeviceExecutor.h"
#include "ranks/Runtime.h"

#include <cstdlib>
#include <cstring>
#include <memory>

using namespace orrery::sim;
using namespace orrery::twin;

namespace {

class TwinExecutor final : public DeviceExecutor {
public:
  TwinExecutor();
  bool real() const override { return true; }
  bool hostReachable() const override { return ManagedDevice; }
  void *allocate(std::size_t Bytes, RealMemory Kind) override;
  void release(void *P, RealMemory Kind) override;
  Measurement launch(const void *Func, orrery_dim3 Grid, orrery_dim3 Block,
                     void **Args, std::size_t Shared) override;
  Measurement copy(void *Dst, std::size_t DstPitch, const void *Src,
                   std::size_t SrcPitch, std::size_t Width, std::size_t Height,
                   int Kind) override;
  Measurement copySymbol(bool ToDevice, const void *Symbol, void *Host,
                         std::size_t Bytes, std::size_t Offset) override;
  Measurement set(void *Dst, int Value, std::size_t Bytes) override;

private:
  /// Records the start event, runs \p Call (which queues on Stream and
  /// returns its cudaError_t), records the stop event and waits for it.
  template <typename F> Measurement timed(const char *What, F Call);
  Measurement failure(const char *What, cudaError_t E);

  RealCuda Cuda;
  cudaStream_t Stream = nullptr;
  cudaEvent_t Start = nullptr, Stop = nullptr;
  /// Device allocations are managed memory unless ORRERY_TWIN_MEMORY=device:
  /// SMPI copies MPI payloads with the CPU, so CUDA-aware MPI calls on
  /// device buffers need memory the host can reach.
  bool ManagedDevice = true;
};

TwinExecutor::TwinExecutor() {
  std::string Error;
  // ORRERY_TWIN_CUDART: another CUDA runtime library (a different toolkit,
  // or the test suite's recording stand-in).
  const char *Library = std::getenv("ORRERY_TWIN_CUDART");
  if (!Library || !*Library)
    Library = ORRERY_TWIN_CUDART;
  if (!loadRealCuda(Library, Cuda, Error))
    fatal("twin mode needs an NVIDIA GPU and its driver on the machine that "
          "runs the simulation, and finds " +
          Error +
          ". Run twin programs on a GPU machine, or rebuild this one with "
          "'orrery-cxx --orrery-mode=skeleton' to simulate it without a GPU "
          "(kernel times then come from the cost hints)");
  const char *Memory = std::getenv("ORRERY_TWIN_MEMORY");
  if (Memory && *Memory && std::strcmp(Memory, "managed")) {
    if (std::strcmp(Memory, "device"))
      fatal(std::string("ORRERY_TWIN_MEMORY is '") + Memory +
            "'; use 'managed' (the default: MPI calls may take device "
            "buffers) or 'device' (cudaMalloc memory; MPI calls must not "
            "take device buffers)");
    ManagedDevice = false;
  }
  cudaError_t E = Cuda.SetDevice(0);
  if (E == cudaSuccess)
    E = Cuda.StreamCreateWithFlags(&Stream, cudaStreamNonBlocking);
  if (E == cudaSuccess)
    E = Cuda.EventCreate(&Start);
  if (E == cudaSuccess)
    E = Cuda.EventCreate(&Stop);
  if (E != cudaSuccess)
    fatal(std::string("twin mode cannot set up GPU 0 (a stream and two "
                      "events): ") +
          Cuda.GetErrorString(E));
}

Measurement TwinExecutor::failure(const char *What, cudaError_t E) {
  Measurement M;
  M.Error = static_cast<int>(E);
  M.What = std::string(What) + ": " + Cuda.GetErrorString(E);
  // Clear the error so that later calls report their own.
  Cuda.GetLastError();
  return M;
}

template <typename F>
Measurement TwinExecutor::timed(const char *What, F Call) {
  cudaError_t E = Cuda.EventRecord(Start, Stream);
  if (E == cudaSuccess)
    E = Call();
  if (E != cudaSuccess)
    return failure(What, E);
  E = Cuda.EventRecord(Stop, Stream);
  if (E == cudaSuccess)
    E = Cuda.EventSynchronize(Stop);
  float Ms = 0;
  if (E == cudaSuccess)
    E = Cuda.EventElapsedTime(&Ms, Start, Stop);
  if (E != cudaSuccess)
    return failure(What, E);
  Measurement M;
  M.Ran = true;
  M.Seconds = static_cast<double>(Ms) * 1e-3;
  return M;
}

void *TwinExecutor::allocate(std::size_t Bytes, RealMemory Kind) {
  void *P = nullptr;
  std::size_t N = Bytes ? Bytes : 1;
  cudaError_t E = cudaSuccess;
  switch (Kind) {
  case RealMemory::Device:
    E = ManagedDevice ? Cuda.MallocManaged(&P, N, cudaMemAttachGlobal)
                      : Cuda.Malloc(&P, N);
    break;
  case RealMemory::Managed:
    E = Cuda.MallocManaged(&P, N, cudaMemAttachGlobal);
    break;
  case RealMemory::Pinned:
    E = Cuda.MallocHost(&P, N);
    break;
  }
  return E == cudaSuccess ? P : nullptr;
}

void TwinExecutor::release(void *P, RealMemory Kind) {
  if (Kind == RealMemory::Pinned)
    Cuda.FreeHost(P);
  else
    Cuda.Free(P);
}

Measurement TwinExecutor::launch(const void *Func, orrery_dim3 Grid,
                                 orrery_dim3 Block, void **Args,
                                 std::size_t Shared) {
  return timed("cudaLaunchKernel", [&] {
    return Cuda.LaunchKernel(Func, dim3(Grid.x, Grid.y, Grid.z),
                             dim3(Block.x, Block.y, Block.z), Args, Shared,
                             Stream);
  });
}

Measurement TwinExecutor::copy(void *Dst, std::size_t DstPitch, const void *Src,
                               std::size_t SrcPitch, std::size_t Width,
                               std::size_t Height, int Kind) {
  return timed("cudaMemcpy", [&] {
    return Cuda.Memcpy2DAsync(Dst, DstPitch, Src, SrcPitch, Width, Height,
                              static_cast<cudaMemcpyKind>(Kind), Stream);
  });
}

Measurement TwinExecutor::copySymbol(bool ToDevice, const void *Symbol,
                                     void *Host, std::size_t Bytes,
                                     std::size_t Offset) {
  if (ToDevice)
    return timed("cudaMemcpyToSymbol", [&] {
      return Cuda.MemcpyToSymbolAsync(Symbol, Host, Bytes, Offset,
                                      cudaMemcpyHostToDevice, Stream);
    });
  return timed("cudaMemcpyFromSymbol", [&] {
    return Cuda.MemcpyFromSymbolAsync(Host, Symbol, Bytes, Offset,
                                      cudaMemcpyDeviceToHost, Stream);
  });
}

Measurement TwinExecutor::set(void *Dst, int Value, std::size_t Bytes) {
  return timed("cudaMemset",
               [&] { return Cuda.MemsetAsync(Dst, Value, Bytes, Stream); });
}

/// Installs the executor when liborrery-twin is loaded (once per
/// simulation: smpirun loads the program once per rank, its libraries once).
/// The executor itself, and so the GPU check, comes at the first use.
[[gnu::constructor]] void installTwinExecutor() {
  installDeviceExecutor([] { return std::make_unique<TwinExecutor>(); });
}

} // namespace
