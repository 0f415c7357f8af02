//===- DeviceResources.h - Registers and spills from ptxas -v ---*- C++ -*-===//
//
// Occupancy depends on the registers each thread holds, which only the real
// compiler knows. For --report, Orrery compiles the device side of each input
// with clang for the machine's architecture and runs the CUDA toolkit's
// `ptxas -v` (no GPU needed) on the PTX; its output is cached per PTX text and
// architecture (docs/kernel-cost.md#registers-from-ptxas). A missing toolkit
// or a failed compile is a note in the report, never an error.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_DEVICERESOURCES_H
#define ORRERY_PASSES_DEVICERESOURCES_H

#include "orrery/passes/KernelHintCode.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace orrery {

/// `ptxas -v` output: resources per kernel symbol (mangled name).
std::map<std::string, DeviceResources>
parsePtxasVerbose(llvm::StringRef Text, llvm::StringRef Arch);

/// One input's device compile.
struct DeviceCompile {
  std::vector<std::string> HostCommand; ///< the parse command, argv[0] first
  std::string File;                     ///< the input, as in HostCommand
  std::string Directory; ///< where the command runs (relative paths)
  std::string Arch;                     ///< sm_90
  std::string CudaPath; ///< toolkit root; ptxas is its bin/ptxas
  std::string CacheDir; ///< where ptxas outputs are kept; empty: no cache
  /// Compile and run ptxas when the cache has no entry for this input whose
  /// files are unchanged; false: the cache only (cheap enough to instrument).
  bool CompileOnMiss = true;
};

struct DeviceResourceTable {
  std::map<std::string, DeviceResources> Kernels;
  std::string Note; ///< why Kernels is empty or incomplete; empty if fine
  double CompileSeconds = 0, PtxasSeconds = 0;
  bool FromCache = false;
};

/// The command that turns \p C's input into PTX at \p PtxFile: the host
/// command with its output, dependency and host-only flags replaced.
std::vector<std::string> deviceCommand(const DeviceCompile &C,
                                       llvm::StringRef Clang,
                                       llvm::StringRef PtxFile);

/// Compiles, runs ptxas (or reads the cache) and parses its output.
DeviceResourceTable deviceResources(const DeviceCompile &C);

/// The default cache: $XDG_CACHE_HOME/orrery/ptxas, else
/// $HOME/.cache/orrery/ptxas; empty when neither is set.
std::string defaultPtxasCacheDir();

/// The toolkit a command parses against (its last --cuda-path=), else
/// \p Default.
std::string cudaPathOf(const std::vector<std::string> &Argv,
                       llvm::StringRef Default);

/// The architecture a compile command names (--cuda-gpu-arch=, --offload-arch=
/// or -arch sm_XX), or empty.
std::string archFromCommand(const std::vector<std::string> &Argv);

/// Attaches resources to the kernels of \p Kernels by symbol, wherever they
/// are defined (a kernel in a header is in the PTX of the input including
/// it): each instance, and the pattern of a kernel that is no template (its
/// generated hint then carries the registers). Returns how many instances
/// got one.
unsigned
attachDeviceResources(std::vector<KernelInfo> &Kernels,
                      const std::map<std::string, DeviceResources> &BySymbol);

} // namespace orrery

#endif
