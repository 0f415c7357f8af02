//===- DeviceExecutor.cpp - Measured or modelled device time --------------===//

#include "DeviceExecutor.h"
#include "ranks/Runtime.h"

#include <cstdlib>
#include <cstring>

namespace orrery::sim {

DeviceExecutor::~DeviceExecutor() = default;

namespace {
std::function<std::unique_ptr<DeviceExecutor>()> &factory() {
  static std::function<std::unique_ptr<DeviceExecutor>()> F;
  return F;
}
std::unique_ptr<DeviceExecutor> &current() {
  static std::unique_ptr<DeviceExecutor> E;
  return E;
}
} // namespace

DeviceExecutor &deviceExecutor() {
  std::unique_ptr<DeviceExecutor> &E = current();
  if (!E)
    E = factory() ? factory()() : std::make_unique<ModelledExecutor>();
  return *E;
}

void installDeviceExecutor(std::function<std::unique_ptr<DeviceExecutor>()> F) {
  factory() = std::move(F);
  current().reset();
}

DeviceCharge kernelCharge(const LaunchCost &Model, const Measurement &M) {
  DeviceCharge C;
  if (!M.Ran) {
    C.Seconds = Model.device();
    C.Parts[0] = {Category::KernelCompute, Model.Compute};
    C.Parts[1] = {Category::KernelMemory, Model.Memory};
    C.Estimate = Model.Estimate;
  } else {
    double Seconds = M.Seconds > 0 ? M.Seconds : 0;
    double ModelTotal = Model.device();
    double ComputeShare = ModelTotal > 0 ? Model.Compute / ModelTotal : 0;
    C.Seconds = Seconds;
    C.Parts[0] = {Category::KernelCompute, Seconds * ComputeShare};
    C.Parts[1] = {Category::KernelMemory, Seconds - Seconds * ComputeShare};
    C.Measured = true;
  }
  // The larger part names the kernel's category in the timeline.
  if (C.Parts[1].second > C.Parts[0].second)
    std::swap(C.Parts[0], C.Parts[1]);
  return C;
}

bool parseCopyTiming(const char *Value, CopyTiming &Out, std::string &Error) {
  if (!Value || !*Value || !std::strcmp(Value, "modelled")) {
    Out = CopyTiming::Modelled;
    return true;
  }
  if (!std::strcmp(Value, "measured")) {
    Out = CopyTiming::Measured;
    return true;
  }
  Error = std::string("ORRERY_TWIN_COPIES is '") + Value +
          "'; use 'modelled' (the default: copies take the machine model's "
          "time) or 'measured' (copies take their time on this GPU)";
  return false;
}

bool chargesMeasuredCopy(CopyTiming T, const Measurement &M) {
  return T == CopyTiming::Measured && M.Ran;
}

DeviceCharge measuredCopyCharge(const Measurement &M) {
  DeviceCharge C;
  C.Seconds = M.Seconds > 0 ? M.Seconds : 0;
  C.Parts[0] = {Category::Copies, C.Seconds};
  C.Measured = true;
  return C;
}

CopyTiming copyTiming() {
  static const CopyTiming T = [] {
    CopyTiming Out = CopyTiming::Modelled;
    std::string Error;
    if (!parseCopyTiming(std::getenv("ORRERY_TWIN_COPIES"), Out, Error))
      fatal(Error);
    return Out;
  }();
  return T;
}

} // namespace orrery::sim
