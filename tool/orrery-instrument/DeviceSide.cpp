//===- DeviceSide.cpp - Registers per kernel from ptxas -------------------===//

#include "DeviceSide.h"
#include "orrery/passes/DeviceResources.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace orrery {

DeviceSide deviceSideResources(const clang::tooling::CompilationDatabase &DB,
                               const std::vector<std::string> &Sources,
                               const std::vector<std::string> &Texts,
                               const DeviceSideOptions &Opts) {
  DeviceSide Out;
  for (size_t I = 0; I < Sources.size(); ++I) {
    const std::string &Src = Sources[I];
    // An input without a kernel of its own is not compiled (unless its
    // kernels may be in the headers it includes).
    if (!Opts.AnyFile && I < Texts.size() &&
        !StringRef(Texts[I]).contains("__global__"))
      continue;
    std::vector<clang::tooling::CompileCommand> Cmds =
        DB.getCompileCommands(Src);
    if (Cmds.empty())
      continue;
    DeviceCompile C;
    C.HostCommand = Cmds.front().CommandLine;
    C.File = Src;
    C.Directory = Cmds.front().Directory;
    C.Arch = Opts.MachineArch.empty() ? archFromCommand(C.HostCommand)
                                      : Opts.MachineArch;
    C.CudaPath = cudaPathOf(C.HostCommand, Opts.CudaPath);
    C.CacheDir = Opts.CacheDir;
    C.CompileOnMiss = Opts.CompileOnMiss;
    if (C.Arch.empty()) {
      Out.Notes.push_back("no GPU architecture (give --machine with gpu.arch, "
                          "or --cuda-gpu-arch=sm_XX in the compile flags)");
      continue;
    }
    DeviceResourceTable T = deviceResources(C);
    if (Opts.Verbose)
      errs() << formatv("orrery-instrument: {0}: device compile {1:F2} s, "
                        "ptxas {2:F2} s{3}\n",
                        Src, T.CompileSeconds, T.PtxasSeconds,
                        T.FromCache ? " (cached)" : "");
    if (!T.Note.empty())
      Out.Notes.push_back(T.Note);
    Out.BySymbol.insert(T.Kernels.begin(), T.Kernels.end());
  }
  return Out;
}

std::string deviceNote(const std::vector<KernelInfo> &Kernels,
                       const DeviceSide &D) {
  unsigned Wanted = 0, Got = 0;
  for (const KernelInfo &K : Kernels)
    for (const KernelHint &H : K.Instances) {
      ++Wanted;
      Got += H.Resources ? 1 : 0;
    }
  if (Got == Wanted)
    return "";
  std::string Out;
  for (const std::string &N : D.Notes)
    if (!StringRef(Out).contains(N))
      Out += (Out.empty() ? "" : "; ") + N;
  if (Out.empty())
    Out = formatv("ptxas reported {0} of {1} kernels", Got, Wanted).str();
  return Out;
}

} // namespace orrery
