//===- CompilerFlags.cpp - Compile commands as clang must see them --------===//

#include "orrery/passes/CompilerFlags.h"
#include "orrery/passes/NvccFlags.h"

#include "clang/Options/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cstring>

#ifndef ORRERY_DEFAULT_RESOURCE_DIR
#error "ORRERY_DEFAULT_RESOURCE_DIR must be defined by the build"
#endif

using namespace llvm;

namespace orrery {

static Error flagError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

bool isNvccCommand(const std::vector<std::string> &Argv) {
  if (Argv.empty())
    return false;
  StringRef Tool = sys::path::filename(Argv[0]);
  return Tool == "nvcc" || Tool.starts_with("nvcc-") || Tool == "nvcc.exe";
}

Expected<std::vector<std::string>>
translateNvccCommand(const std::vector<std::string> &Argv) {
  std::vector<std::string> Out;
  if (Argv.empty())
    return Out;
  // The table lives in NvccFlags.cpp, shared with the orrery-cxx driver.
  NvccTranslation T = translateNvccFlags(
      std::vector<std::string>(Argv.begin() + 1, Argv.end()));
  if (!T.RefusedFlag.empty())
    return flagError(formatv("nvcc flag '{0}' cannot be translated; pass the "
                             "equivalent clang flags after '--' instead",
                             T.RefusedFlag));
  if (!T.Error.empty())
    return flagError(T.Error);
  Out.push_back("clang++");
  Out.insert(Out.end(), T.Args.begin(), T.Args.end());
  return Out;
}

Error checkClangKnowsFlags(const std::vector<std::string> &Argv) {
  if (Argv.size() < 2)
    return Error::success();
  SmallVector<const char *, 32> Ptrs;
  for (size_t I = 1; I < Argv.size(); ++I)
    Ptrs.push_back(Argv[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  const opt::OptTable &Table = clang::getDriverOptTable();
  opt::InputArgList Args =
      Table.ParseArgs(Ptrs, MissingIndex, MissingCount,
                      opt::Visibility(clang::options::ClangOption));
  if (MissingCount)
    return flagError(formatv("compiler flag '{0}' is missing its value",
                             Ptrs[MissingIndex]));
  for (const opt::Arg *A : Args.filtered(clang::options::OPT_UNKNOWN))
    return flagError(formatv("clang does not know the compiler flag '{0}'; "
                             "remove it or pass a clang equivalent",
                             A->getAsString(Args)));
  return Error::success();
}

static bool hasFlag(const std::vector<std::string> &Argv, StringRef Prefix) {
  return any_of(Argv, [&](const std::string &A) {
    return StringRef(A).starts_with(Prefix);
  });
}

/// True if the driver will treat File as CUDA: by `-x cuda` or extension.
static bool isCudaFile(const std::vector<std::string> &Argv, StringRef File) {
  for (size_t I = 0; I + 1 < Argv.size(); ++I)
    if (Argv[I] == "-x")
      return Argv[I + 1] == "cuda";
  for (const std::string &A : Argv)
    if (StringRef(A).starts_with("-x") && A.size() > 2)
      return StringRef(A).substr(2) == "cuda";
  return sys::path::extension(File) == ".cu";
}

std::vector<std::string> addParseFlags(std::vector<std::string> Argv,
                                       StringRef File, const ParseSettings &S) {
  std::vector<std::string> Extra;
  if (!hasFlag(Argv, "-resource-dir"))
    Extra.push_back("-resource-dir=" + S.ResourceDir);
  if (isCudaFile(Argv, File)) {
    if (!hasFlag(Argv, "--cuda-host-only") &&
        !hasFlag(Argv, "--cuda-device-only"))
      Extra.push_back("--cuda-host-only");
    if (!hasFlag(Argv, "-Wno-unknown-cuda-version"))
      Extra.push_back("-Wno-unknown-cuda-version");
    if (!S.CudaPath.empty() && !hasFlag(Argv, "--cuda-path") &&
        !hasFlag(Argv, "-nocudainc"))
      Extra.push_back("--cuda-path=" + S.CudaPath);
    // nvcc finds thrust, CUB and libcu++ in <cuda>/include/cccl (CUDA 13);
    // clang does not look there.
    std::string CudaRoot = S.CudaPath;
    for (const std::string &A : Argv)
      if (StringRef(A).starts_with("--cuda-path="))
        CudaRoot = A.substr(strlen("--cuda-path="));
    SmallString<256> Cccl(CudaRoot);
    sys::path::append(Cccl, "include", "cccl");
    if (!CudaRoot.empty() && !hasFlag(Argv, "-nocudainc") &&
        sys::fs::is_directory(Cccl)) {
      Extra.push_back("-isystem");
      Extra.push_back(std::string(Cccl));
    }
  }
  // Insert right after argv[0] so the user's own flags come later and win.
  Argv.insert(Argv.begin() + (Argv.empty() ? 0 : 1), Extra.begin(),
              Extra.end());
  return Argv;
}

Expected<std::string> findResourceDir(StringRef Override) {
  std::string Dir = Override.empty() ? std::string(ORRERY_DEFAULT_RESOURCE_DIR)
                                     : Override.str();
  SmallString<256> Wrappers(Dir);
  sys::path::append(Wrappers, "include", "cuda_wrappers");
  if (!sys::fs::is_directory(Wrappers))
    return flagError(formatv(
        "clang resource directory '{0}' has no include/cuda_wrappers; install "
        "libclang-common-22-dev or pass --resource-dir=<dir of clang 22>",
        Dir));
  return Dir;
}

} // namespace orrery
