//===- DeviceSide.cpp - Registers per kernel for --report -----------------===//

#include "DeviceSide.h"
#include "orrery/passes/DeviceResources.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace orrery {

std::string addDeviceResources(std::vector<KernelInfo> &Kernels,
                               const clang::tooling::CompilationDatabase &DB,
                               const std::vector<std::string> &Sources,
                               const DeviceSideOptions &Opts) {
  std::vector<std::string> Notes;
  unsigned Wanted = 0, Got = 0;
  for (const std::string &Src : Sources) {
    unsigned InFile = 0;
    for (const KernelInfo &K : Kernels)
      if (K.File == Src)
        InFile += static_cast<unsigned>(K.Instances.size());
    std::vector<clang::tooling::CompileCommand> Cmds =
        DB.getCompileCommands(Src);
    if (!InFile || Cmds.empty())
      continue;
    Wanted += InFile;
    DeviceCompile C;
    C.HostCommand = Cmds.front().CommandLine;
    C.File = Src;
    C.Directory = Cmds.front().Directory;
    C.Arch = Opts.MachineArch.empty() ? archFromCommand(C.HostCommand)
                                      : Opts.MachineArch;
    C.CudaPath = cudaPathOf(C.HostCommand, Opts.CudaPath);
    C.CacheDir = Opts.CacheDir;
    if (C.Arch.empty()) {
      Notes.push_back("no GPU architecture (give --machine with gpu.arch, or "
                      "--cuda-gpu-arch=sm_XX in the compile flags)");
      continue;
    }
    DeviceResourceTable T = deviceResources(C);
    if (Opts.Verbose)
      errs() << formatv("orrery-instrument: {0}: device compile {1:F2} s, "
                        "ptxas {2:F2} s{3}\n",
                        Src, T.CompileSeconds, T.PtxasSeconds,
                        T.FromCache ? " (cached)" : "");
    if (!T.Note.empty())
      Notes.push_back(T.Note);
    Got += attachDeviceResources(Kernels, Src, T);
  }
  if (Got < Wanted && Notes.empty())
    Notes.push_back(formatv("ptxas reported {0} of {1} kernels", Got, Wanted));
  std::string Out;
  for (const std::string &N : Notes)
    if (!StringRef(Out).contains(N))
      Out += (Out.empty() ? "" : "; ") + N;
  return Out;
}

} // namespace orrery
