//===- DeviceSide.h - Registers per kernel for --report ---------*- C++ -*-===//
#ifndef ORRERY_INSTRUMENT_DEVICESIDE_H
#define ORRERY_INSTRUMENT_DEVICESIDE_H

#include "orrery/passes/KernelHintCode.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <string>
#include <vector>

namespace orrery {

struct DeviceSideOptions {
  std::string MachineArch; ///< gpu.arch of --machine, or empty
  std::string CudaPath;    ///< the toolkit found for parsing
  std::string CacheDir;    ///< --ptxas-cache-dir or the default
  bool Verbose = false;    ///< print the compile and ptxas seconds
};

/// Compiles each input that defines kernels for its GPU architecture and
/// attaches ptxas's resources to Kernels. Returns a note for the report when
/// some kernel got none (empty otherwise); never fails.
std::string addDeviceResources(std::vector<KernelInfo> &Kernels,
                               const clang::tooling::CompilationDatabase &DB,
                               const std::vector<std::string> &Sources,
                               const DeviceSideOptions &Opts);

} // namespace orrery

#endif
