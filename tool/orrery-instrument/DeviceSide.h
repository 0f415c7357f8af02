//===- DeviceSide.h - Registers per kernel from ptxas -----------*- C++ -*-===//
#ifndef ORRERY_INSTRUMENT_DEVICESIDE_H
#define ORRERY_INSTRUMENT_DEVICESIDE_H

#include "orrery/passes/KernelHintCode.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <map>
#include <string>
#include <vector>

namespace orrery {

struct DeviceSideOptions {
  std::string MachineArch; ///< gpu.arch of --machine, or empty
  std::string CudaPath;    ///< the toolkit found for parsing
  std::string CacheDir;    ///< --ptxas-cache-dir or the default
  /// Compile the device code where the cache has nothing (--report); false:
  /// the cache only, as instrumenting must stay as cheap as a parse.
  bool CompileOnMiss = true;
  bool AnyFile = false;    ///< kernels may be in headers (--headers)
  bool Verbose = false;    ///< print the compile and ptxas seconds
};

struct DeviceSide {
  std::map<std::string, DeviceResources> BySymbol; ///< mangled name
  std::vector<std::string> Notes; ///< why some input got none
};

/// Compiles each input that may define kernels for its GPU architecture (or
/// reads the cache) and collects ptxas's resources per kernel symbol. Never
/// fails: what went wrong is a note.
DeviceSide deviceSideResources(const clang::tooling::CompilationDatabase &DB,
                               const std::vector<std::string> &Sources,
                               const std::vector<std::string> &Texts,
                               const DeviceSideOptions &Opts);

/// The report's note: the inputs' notes, or how many kernels ptxas missed;
/// empty when every kernel has its resources.
std::string deviceNote(const std::vector<KernelInfo> &Kernels,
                       const DeviceSide &D);

} // namespace orrery

#endif
