//===- KernelReport.h - --report: kernel hints evaluated per launch -*- C++
//-*-===//
#ifndef ORRERY_PASSES_KERNELREPORT_H
#define ORRERY_PASSES_KERNELREPORT_H

#include "orrery/passes/KernelHintCode.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace orrery {
namespace models {
struct Machine;
}

/// A launch to evaluate: `KERNEL grid=X[,Y,Z] block=X[,Y,Z] [shmem=B]
/// NAME=VALUE...`.
struct LaunchSpec {
  std::string Kernel;
  std::map<std::string, double> Bindings;
};
/// Parses a --launch argument; returns an error message on bad input.
std::string parseLaunchSpec(llvm::StringRef Text, LaunchSpec &Out);

/// The --report output, text or JSON. With a machine (a parsed machine
/// file), each launch also gets its roofline bound and predicted duration;
/// occupancy uses the registers ptxas reported (KernelHint::Resources), else
/// 32 per thread. \p DeviceNote says why some kernels have no resources.
std::string reportText(const std::vector<KernelInfo> &Kernels,
                       const std::vector<LaunchSpec> &Launches,
                       const models::Machine *M = nullptr,
                       llvm::StringRef DeviceNote = "");
std::string reportJson(const std::vector<KernelInfo> &Kernels,
                       const std::vector<LaunchSpec> &Launches,
                       const models::Machine *M = nullptr,
                       llvm::StringRef DeviceNote = "");

} // namespace orrery

#endif
