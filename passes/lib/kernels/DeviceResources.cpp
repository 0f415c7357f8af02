//===- DeviceResources.cpp - Device compile, ptxas -v and its cache -------===//

#include "orrery/passes/DeviceResources.h"
#include "PtxasIndex.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <cstdlib>

#ifndef ORRERY_CLANGXX
#error "ORRERY_CLANGXX must be defined by the build"
#endif

using namespace llvm;

namespace orrery {
namespace {

/// A compile or ptxas run that never hangs the tool.
constexpr unsigned ToolSeconds = 300;

/// Flags of the host parse command that the device compile replaces.
bool dropsWithValue(StringRef A) {
  return A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ";
}
bool drops(StringRef A) {
  return is_contained({"-c", "-S", "-E", "-fsyntax-only", "--cuda-host-only",
                       "--cuda-device-only", "--cuda-compile-host-device",
                       "-M", "-MM", "-MD", "-MMD", "-MP", "-MG"},
                      A) ||
         A.starts_with("--cuda-gpu-arch=") || A.starts_with("--offload-arch=") ||
         A.starts_with("-MF") || A.starts_with("-MT") || A.starts_with("-MQ");
}

/// A temporary file removed when it goes out of scope.
struct TempFile {
  SmallString<128> Path;
  std::error_code EC;
  TempFile(StringRef Prefix, StringRef Suffix) {
    EC = sys::fs::createTemporaryFile(Prefix, Suffix, Path);
  }
  ~TempFile() {
    if (!EC)
      sys::fs::remove(Path);
  }
};

std::string readText(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

/// The first line of a tool's stderr that says what went wrong.
std::string firstError(StringRef Text) {
  SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n', -1, false);
  for (StringRef L : Lines)
    if (L.contains("error"))
      return L.trim().str();
  return Lines.empty() ? std::string("no message") : Lines.front().trim().str();
}

/// Runs \p Argv; stderr goes to \p Err. Returns the exit status (-1 when it
/// could not run) and the seconds it took.
int run(const std::vector<std::string> &Argv, StringRef Err, double &Seconds,
        std::string &Why) {
  SmallVector<StringRef, 32> Args(Argv.begin(), Argv.end());
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(""), Err};
  auto T0 = std::chrono::steady_clock::now();
  int RC = sys::ExecuteAndWait(Argv[0], Args, std::nullopt, Redirects,
                               ToolSeconds, 0, &Why);
  Seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                           T0)
                 .count();
  return RC;
}

/// Which ptxas: its path, size and modification time.
std::string ptxasId(StringRef Ptxas) {
  std::string Id = Ptxas.str();
  sys::fs::file_status S;
  if (!sys::fs::status(Ptxas, S))
    Id += formatv("\n{0}\n{1}", S.getSize(),
                  sys::toTimeT(S.getLastModificationTime()))
              .str();
  return Id;
}

/// Cache key: the PTX, the architecture and which ptxas.
std::string cacheKey(StringRef Ptx, StringRef Arch, StringRef PtxasId) {
  std::string Id = (Arch + "\n" + PtxasId).str();
  return formatv("{0:x-16}-{1:x-16}", xxh3_64bits(Ptx), xxh3_64bits(Id)).str();
}

} // namespace

std::vector<std::string> deviceCommand(const DeviceCompile &C, StringRef Clang,
                                       StringRef PtxFile) {
  std::vector<std::string> Out{Clang.str()};
  bool HasOpt = false;
  for (size_t I = 1; I < C.HostCommand.size(); ++I) {
    StringRef A = C.HostCommand[I];
    if (dropsWithValue(A)) {
      ++I;
      continue;
    }
    if (drops(A))
      continue;
    HasOpt |= A.starts_with("-O");
    Out.push_back(A.str());
  }
  // nvcc compiles device code at -O3 unless told otherwise; clang at -O0.
  if (!HasOpt)
    Out.push_back("-O3");
  for (std::string A : {std::string("--cuda-device-only"),
                        "--cuda-gpu-arch=" + C.Arch,
                        std::string("-S"), std::string("-w"),
                        std::string("-o"), PtxFile.str()})
    Out.push_back(A);
  return Out;
}

DeviceResourceTable deviceResources(const DeviceCompile &C) {
  DeviceResourceTable T;
  SmallString<256> Ptxas(C.CudaPath);
  sys::path::append(Ptxas, "bin", "ptxas");
  if (C.CudaPath.empty() || !sys::fs::can_execute(Ptxas)) {
    T.Note = C.CudaPath.empty()
                 ? "no CUDA toolkit (pass --cuda-path=<toolkit root>)"
                 : formatv("no ptxas at {0}", Ptxas).str();
    return T;
  }
  const std::string PtxasIdText = ptxasId(Ptxas);
  // The index key is the command without its temporary output path.
  std::string Index;
  if (!C.CacheDir.empty()) {
    Index = ptxasIndexPath(C.CacheDir, deviceCommand(C, ORRERY_CLANGXX, "-"),
                           C.Directory, C.Arch, PtxasIdText);
    if (std::optional<std::string> Hit = readPtxasIndex(Index)) {
      T.FromCache = true;
      T.Kernels = parsePtxasVerbose(*Hit, C.Arch);
      return T;
    }
  }
  if (!C.CompileOnMiss) {
    T.Note = "no cached ptxas output for this input and its files (run "
             "orrery-instrument --report on it once to fill the cache)";
    return T;
  }
  TempFile Ptx("orrery-device", "ptx"), Err("orrery-device", "err"),
      Deps("orrery-device", "d");
  if (Ptx.EC || Err.EC || Deps.EC) {
    T.Note = "cannot create a temporary file for the device compile";
    return T;
  }
  std::string Why;
  std::vector<std::string> Cmd = deviceCommand(C, ORRERY_CLANGXX, Ptx.Path);
  for (std::string A : {std::string("-MD"), std::string("-MF"),
                        std::string(Deps.Path)})
    Cmd.push_back(A);
  // The command's relative paths are relative to its directory.
  SmallString<256> Cwd;
  bool Moved = !C.Directory.empty() && !sys::fs::current_path(Cwd) &&
               !sys::fs::set_current_path(C.Directory);
  int RC = run(Cmd, Err.Path, T.CompileSeconds, Why);
  if (Moved)
    sys::fs::set_current_path(Cwd);
  if (RC != 0) {
    T.Note = formatv("device compile for {0} failed: {1}", C.Arch,
                     RC < 0 ? Why : firstError(readText(Err.Path)))
                 .str();
    return T;
  }
  std::string PtxText = readText(Ptx.Path);
  SmallString<256> Cached(C.CacheDir);
  if (!C.CacheDir.empty())
    sys::path::append(Cached, cacheKey(PtxText, C.Arch, PtxasIdText) + ".txt");
  std::string Verbose;
  if (!C.CacheDir.empty() && sys::fs::exists(Cached)) {
    Verbose = readText(Cached);
    T.FromCache = true;
  } else {
    RC = run({std::string(Ptxas), "-v", "-arch=" + C.Arch,
              std::string(Ptx.Path), "-o", "/dev/null"},
             Err.Path, T.PtxasSeconds, Why);
    Verbose = readText(Err.Path);
    if (RC != 0) {
      T.Note = formatv("ptxas for {0} failed: {1}", C.Arch,
                       RC < 0 ? Why : firstError(Verbose))
                   .str();
      return T;
    }
    if (!C.CacheDir.empty())
      writeCacheFile(Cached, Verbose);
  }
  if (!Index.empty())
    writePtxasIndex(Index, Deps.Path, C.Directory, Verbose);
  T.Kernels = parsePtxasVerbose(Verbose, C.Arch);
  return T;
}

std::string defaultPtxasCacheDir() {
  SmallString<256> Dir;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    Dir = X;
  else if (const char *H = std::getenv("HOME"); H && *H)
    sys::path::append(Dir, H, ".cache");
  else
    return "";
  sys::path::append(Dir, "orrery", "ptxas");
  return std::string(Dir);
}

std::string cudaPathOf(const std::vector<std::string> &Argv,
                       StringRef Default) {
  std::string Out = Default.str();
  for (StringRef A : Argv)
    if (A.consume_front("--cuda-path="))
      Out = A.str();
  return Out;
}

std::string archFromCommand(const std::vector<std::string> &Argv) {
  for (StringRef A : Argv)
    for (StringRef Prefix : {"--cuda-gpu-arch=", "--offload-arch="})
      if (A.consume_front(Prefix) && A.starts_with("sm_"))
        return A.str();
  return "";
}

unsigned
attachDeviceResources(std::vector<KernelInfo> &Kernels,
                      const std::map<std::string, DeviceResources> &BySymbol) {
  unsigned N = 0;
  for (KernelInfo &K : Kernels) {
    for (KernelHint &H : K.Instances) {
      auto It = BySymbol.find(H.Symbol);
      if (It == BySymbol.end())
        continue;
      H.Resources = It->second;
      ++N;
    }
    if (K.TemplateHead.empty())
      if (auto It = BySymbol.find(K.Pattern.Symbol); It != BySymbol.end())
        K.Pattern.Resources = It->second;
  }
  return N;
}

} // namespace orrery
