//===- DeviceExecutor.h - Who does the device work of a CUDA call -*- C++
//-*-===//
//
// The simulated CUDA runtime (CudaMemory.cpp, CudaStreams.cpp) decides what a
// call means for the simulated streams; a device executor decides whether its
// device work really happens. Skeleton mode's executor runs nothing (device
// memory holds no data; time is the model's). Twin mode's (liborrery-twin,
// runtime/sim/twin) runs each kernel, copy and set on the one real GPU of the
// machine, serialised and timed with CUDA events, and the functions below turn
// those measurements into simulated time (docs/simulate.md, "Twin mode").
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_DEVICEEXECUTOR_H
#define ORRERY_SIM_DEVICEEXECUTOR_H

#include "KernelCost.h"
#include "orrery/hooks.h"
#include "report/Accounting.h"

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace orrery::sim {

/// What an executor reports for one operation.
struct Measurement {
  bool Ran = false;   ///< the operation ran on a real GPU
  double Seconds = 0; ///< its duration (CUDA events), when Ran
  int Error = 0;      ///< cudaError_t of the failing real call (0: none)
  std::string What;   ///< that call and its error string, when Error != 0
};

/// Memory an executor allocates (mirrors DeviceMemory's MemoryKind).
enum class RealMemory { Device, Pinned, Managed };

class DeviceExecutor {
public:
  virtual ~DeviceExecutor();
  /// True if operations really run: device memory holds the program's data.
  virtual bool real() const = 0;
  /// True if the host can read and write device allocations, so SMPI must
  /// copy MPI payloads in device buffers (twin mode's managed memory).
  virtual bool hostReachable() const { return false; }
  /// Allocates real memory (null on failure); only called when real().
  virtual void *allocate(std::size_t Bytes, RealMemory Kind) = 0;
  virtual void release(void *P, RealMemory Kind) = 0;
  /// Runs the kernel whose host stub is \p Func with \p Args.
  virtual Measurement launch(const void *Func, orrery_dim3 Grid,
                             orrery_dim3 Block, void **Args,
                             std::size_t Shared) = 0;
  /// Copies \p Height rows of \p Width bytes (pitches as cudaMemcpy2D's;
  /// a plain copy is one row); \p Kind is a cudaMemcpyKind.
  virtual Measurement copy(void *Dst, std::size_t DstPitch, const void *Src,
                           std::size_t SrcPitch, std::size_t Width,
                           std::size_t Height, int Kind) = 0;
  /// cudaMemcpyToSymbol (\p ToDevice) or cudaMemcpyFromSymbol.
  virtual Measurement copySymbol(bool ToDevice, const void *Symbol, void *Host,
                                 std::size_t Bytes, std::size_t Offset) = 0;
  virtual Measurement set(void *Dst, int Value, std::size_t Bytes) = 0;
};

/// Skeleton mode: nothing runs; every Measurement has Ran == false.
class ModelledExecutor final : public DeviceExecutor {
public:
  bool real() const override { return false; }
  void *allocate(std::size_t, RealMemory) override { return nullptr; }
  void release(void *, RealMemory) override {}
  Measurement launch(const void *, orrery_dim3, orrery_dim3, void **,
                     std::size_t) override {
    return {};
  }
  Measurement copy(void *, std::size_t, const void *, std::size_t, std::size_t,
                   std::size_t, int) override {
    return {};
  }
  Measurement copySymbol(bool, const void *, void *, std::size_t,
                         std::size_t) override {
    return {};
  }
  Measurement set(void *, int, std::size_t) override { return {}; }
};

/// The executor of this process: the one a factory installed (twin), else a
/// ModelledExecutor. Created on first use, so a twin program without a GPU
/// stops at its first CUDA call or hook (the factory reports it).
DeviceExecutor &deviceExecutor();
/// Installs the factory deviceExecutor() calls on first use (liborrery-twin
/// does this when it is loaded). Replaces an executor already created.
void installDeviceExecutor(std::function<std::unique_ptr<DeviceExecutor>()> F);

/// The simulated device time of one operation and where it came from.
struct DeviceCharge {
  double Seconds = 0; ///< duration on the simulated stream
  /// By category; the first names the operation's category in the timeline.
  std::array<std::pair<Category, double>, 2> Parts{};
  bool Estimate = false; ///< rests on estimated model numbers
  bool Measured = false; ///< measured on a real GPU
};

/// A kernel's charge: the measured duration when it ran, split over
/// compute and memory in the model's proportion (so the breakdown still says
/// which bound the model saw; all of it to memory when the model has no
/// time); else the model's (Model.Compute, Model.Memory).
DeviceCharge kernelCharge(const LaunchCost &Model, const Measurement &M);

/// How copies and sets are charged in twin mode (ORRERY_TWIN_COPIES).
enum class CopyTiming { Modelled, Measured };

/// Parses ORRERY_TWIN_COPIES (null or empty: modelled). False, with
/// \p Error naming the value and the accepted ones, for anything else.
bool parseCopyTiming(const char *Value, CopyTiming &Out, std::string &Error);

/// True if a copy with measurement \p M is charged its measured time
/// (twin, ORRERY_TWIN_COPIES=measured, and it ran); else it stays modelled.
bool chargesMeasuredCopy(CopyTiming T, const Measurement &M);

/// The charge of a copy or set charged by measurement.
DeviceCharge measuredCopyCharge(const Measurement &M);

/// The process's copy timing, read from ORRERY_TWIN_COPIES once (a bad
/// value stops the run with a message naming the variable).
CopyTiming copyTiming();

} // namespace orrery::sim

#endif // ORRERY_SIM_DEVICEEXECUTOR_H
